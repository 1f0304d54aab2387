//! The reference server's tools, in process, through the published contract.

use mcp_contract::rmcp::model::CallToolResult;
use mcp_contract::testing::{self, Client, Revision, call, check_wire, connect, structured};
use mcp_workspace::{Workspace, contract, workspace};
use serde_json::json;
use sha2::{Digest as _, Sha256};

/// A workspace with a few files, and a secret beside it that must never be reached.
struct Fixture {
    _outer: tempfile::TempDir,
    root: std::path::PathBuf,
}

fn fixture() -> Fixture {
    let outer = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(outer.path().join("secret.txt"), "TOP SECRET\n").expect("written");
    let root = outer.path().join("ws");
    std::fs::create_dir_all(root.join("src/nested")).expect("created");
    std::fs::write(
        root.join("README.md"),
        "# Demo\nfn main is documented here\n",
    )
    .expect("written");
    std::fs::write(
        root.join("src/main.rs"),
        "fn main() {\n    println!(\"hi\");\n}\n",
    )
    .expect("written");
    std::fs::write(root.join("src/nested/lib.rs"), "pub fn Main() {}\n").expect("written");
    std::fs::write(root.join("ignored.log"), "fn main in a log\n").expect("written");
    std::fs::write(root.join(".gitignore"), "*.log\n").expect("written");
    Fixture {
        _outer: outer,
        root,
    }
}

async fn client(fixture: &Fixture, revision: Revision) -> Client {
    let workspace = Workspace::open(&fixture.root).expect("the workspace opens");
    connect(contract::server(workspace), revision)
        .await
        .expect("connected")
}

fn error_code(result: &CallToolResult) -> String {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error: {result:?}"
    );
    let envelope = testing::envelope(result).expect("an envelope");
    envelope["errors"][0]["code"]
        .as_str()
        .expect("a code")
        .to_owned()
}

#[tokio::test]
async fn list_directory_lists_kinds_and_sizes_sorted() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let out = structured(&call(&client, "list_directory", json!({})).await);
    let entries: Vec<(&str, &str)> = out["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap_or_default(),
                e["kind"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert!(entries.contains(&("src", "directory")), "{entries:?}");
    assert!(entries.contains(&("README.md", "file")), "{entries:?}");
    assert!(
        !entries.iter().any(|(p, _)| p.starts_with("src/")),
        "depth 1 by default: {entries:?}"
    );
    let readme = out["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == "README.md")
        .cloned()
        .unwrap();
    assert_eq!(readme["size"], json!(34));
    assert_eq!(out["truncated"], json!(false));

    let deep = structured(
        &call(
            &client,
            "list_directory",
            json!({"path": "src", "depth": 3, "glob": "**/*.rs"}),
        )
        .await,
    );
    let paths: Vec<&str> = deep["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["path"].as_str())
        .collect();
    assert_eq!(paths, ["src/main.rs", "src/nested/lib.rs"]);
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn read_file_returns_content_range_line_count_and_version() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2025_11_25).await;
    let whole = structured(&call(&client, "read_file", json!({"path": "src/main.rs"})).await);
    let bytes = std::fs::read(fixture.root.join("src/main.rs")).expect("readable");
    let version = format!("{:x}", Sha256::digest(&bytes));
    assert_eq!(
        whole["content"],
        json!("fn main() {\n    println!(\"hi\");\n}\n")
    );
    assert_eq!(whole["total_lines"], json!(3));
    assert_eq!(whole["version"], json!(version));

    let range = structured(
        &call(
            &client,
            "read_file",
            json!({"path": "src/main.rs", "start_line": 2, "end_line": 2}),
        )
        .await,
    );
    assert_eq!(range["content"], json!("    println!(\"hi\");\n"));
    assert_eq!(
        (range["start_line"].clone(), range["end_line"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(
        range["version"],
        json!(version),
        "the version is the whole file's"
    );

    let past = call(
        &client,
        "read_file",
        json!({"path": "src/main.rs", "start_line": 9}),
    )
    .await;
    assert_eq!(error_code(&past), "bad_line_range");
    let hint = testing::envelope(&past).expect("an envelope")["hint"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        hint.contains("3 lines"),
        "the hint gives the line count: {hint}"
    );
    assert_eq!(
        error_code(&call(&client, "read_file", json!({"path": "src"})).await),
        "not_a_file"
    );
    assert_eq!(
        error_code(&call(&client, "read_file", json!({"path": "nope.txt"})).await),
        "not_found"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn search_text_honours_ignore_files_globs_and_case() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let out = structured(&call(&client, "search_text", json!({"query": "fn main"})).await);
    let hits: Vec<(&str, u64)> = out["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["path"].as_str().unwrap_or_default(),
                m["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        hits,
        [("README.md", 2), ("src/main.rs", 1)],
        ".gitignore keeps ignored.log out"
    );

    let insensitive = structured(
        &call(
            &client,
            "search_text",
            json!({"query": "fn main", "case_insensitive": true, "include": ["**/*.rs"]}),
        )
        .await,
    );
    let paths: Vec<&str> = insensitive["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["path"].as_str())
        .collect();
    assert_eq!(paths, ["src/main.rs", "src/nested/lib.rs"]);

    let regex = structured(
        &call(
            &client,
            "search_text",
            json!({"query": "^pub fn \\w+", "regex": true}),
        )
        .await,
    );
    assert_eq!(regex["matches"][0]["text"], json!("pub fn Main() {}"));
    assert_eq!(
        error_code(&call(&client, "search_text", json!({"query": "(", "regex": true})).await),
        "invalid_pattern"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn nothing_outside_the_root_is_reachable() {
    let fixture = fixture();
    for revision in Revision::ALL {
        let client = client(&fixture, revision).await;
        for (tool, args) in [
            ("read_file", json!({"path": "../secret.txt"})),
            ("read_file", json!({"path": "/etc/passwd"})),
            ("list_directory", json!({"path": ".."})),
            ("search_text", json!({"query": "SECRET", "path": ".."})),
        ] {
            let result = call(&client, tool, args.clone()).await;
            let wire = serde_json::to_value(&result).expect("serializable");
            check_wire(revision, "CallToolResult", &wire).expect("a valid result");
            let code = error_code(&result);
            assert!(
                ["invalid_path", "outside_workspace"].contains(&code.as_str()),
                "{tool} {args}: {code}"
            );
            assert!(
                !wire.to_string().contains("TOP SECRET"),
                "{tool} {args} leaked the secret"
            );
        }
        let all = structured(&call(&client, "search_text", json!({"query": "SECRET"})).await);
        assert_eq!(
            all["matches"],
            json!([]),
            "a search of the root finds nothing outside it"
        );
        client.cancel().await.expect("closed");
    }
}

/// The description of output field `field` of `tool`, as `tools/list` publishes it.
async fn output_description(client: &Client, tool: &str, field: &str) -> String {
    let listed = client.list_tools(None).await.expect("tools/list");
    let tool = listed
        .tools
        .iter()
        .find(|t| t.name == tool)
        .unwrap_or_else(|| panic!("{tool} is published"));
    let schema = serde_json::to_value(tool.output_schema.as_ref().expect("an outputSchema"))
        .expect("serializable");
    schema["properties"][field]["description"]
        .as_str()
        .unwrap_or_else(|| panic!("{field} is described"))
        .to_owned()
}

#[tokio::test]
async fn the_published_limits_are_the_ones_the_server_applies() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let listing = output_description(&client, "list_directory", "truncated").await;
    for limit in [
        workspace::MAX_LIST_ENTRIES.to_string(),
        workspace::MAX_VISITED_ENTRIES.to_string(),
    ] {
        assert!(listing.contains(&limit), "{limit}: {listing}");
    }
    let search = output_description(&client, "search_text", "truncated").await;
    for limit in [
        workspace::MAX_VISITED_ENTRIES.to_string(),
        workspace::MAX_SEARCH_BYTES.to_string(),
    ] {
        assert!(search.contains(&limit), "{limit}: {search}");
    }
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn listing_and_search_on_a_huge_tree_stop_and_say_how_to_ask_for_less() {
    let fixture = fixture();
    let huge = fixture.root.join("huge");
    std::fs::create_dir(&huge).expect("created");
    for index in 0..=workspace::MAX_VISITED_ENTRIES {
        std::fs::File::create(huge.join(format!("{index:05}.txt"))).expect("created");
    }
    let client = client(&fixture, Revision::V2025_11_25).await;

    let sparse = structured(
        &call(
            &client,
            "list_directory",
            json!({"path": "huge", "glob": "*.rs"}),
        )
        .await,
    );
    assert_eq!(sparse["entries"], json!([]));
    assert_eq!(sparse["truncated"], json!(true));
    let hint = sparse["hint"].as_str().expect("a hint");
    assert!(hint.contains("after looking at 50000 entries"), "{hint}");

    let full = structured(&call(&client, "list_directory", json!({"path": "huge"})).await);
    assert_eq!(full["entries"].as_array().map(Vec::len), Some(1000));
    let hint = full["hint"].as_str().expect("a hint");
    assert!(hint.contains("stopped at 1000 entries"), "{hint}");

    let search = structured(
        &call(
            &client,
            "search_text",
            json!({"query": "needle", "path": "huge"}),
        )
        .await,
    );
    assert_eq!(search["truncated"], json!(true));
    assert_eq!(search["files_searched"], json!(50000));
    let hint = search["hint"].as_str().expect("a hint");
    assert!(hint.contains("after looking at 50000 entries"), "{hint}");

    let small = structured(&call(&client, "list_directory", json!({"path": "src"})).await);
    assert_eq!(small["truncated"], json!(false));
    assert!(small.get("hint").is_none(), "no hint unless truncated");
    client.cancel().await.expect("closed");
}
