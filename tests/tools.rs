//! The reference server's tools, in process, through the published contract.

use mcp_contract::rmcp::model::CallToolResult;
use mcp_contract::testing::{self, Client, Revision, call, check_wire, structured};
use mcp_workspace::workspace;
use serde_json::json;
use support::{Fixture, SECRET, client};

mod support;
use sha2::{Digest as _, Sha256};

/// A workspace with a few files, and a secret beside it that must never be reached.
fn fixture() -> Fixture {
    Fixture::with(&[
        ("README.md", b"# Demo\nfn main is documented here\n"),
        ("src/main.rs", b"fn main() {\n    println!(\"hi\");\n}\n"),
        ("src/nested/lib.rs", b"pub fn Main() {}\n"),
        ("ignored.log", b"fn main in a log\n"),
        (".gitignore", b"*.log\n"),
    ])
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
async fn read_files_reads_each_file_and_reports_each_failure_on_its_own() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let out = structured(
        &call(
            &client,
            "read_files",
            json!({"paths": ["src/main.rs", "nope.txt", "src", "./README.md"]}),
        )
        .await,
    );
    let files = out["files"].as_array().expect("files");
    assert_eq!(files.len(), 4, "one result per path, in order");
    let main = structured(&call(&client, "read_file", json!({"path": "src/main.rs"})).await);
    assert_eq!(files[0]["path"], json!("src/main.rs"));
    assert_eq!(files[0]["content"], main["content"]);
    assert_eq!(files[0]["total_lines"], json!(3));
    assert_eq!(
        files[0]["version"], main["version"],
        "the version read_file gives"
    );
    assert!(files[0].get("error").is_none());

    assert_eq!(files[1]["path"], json!("nope.txt"));
    assert_eq!(files[1]["error"]["code"], json!("not_found"));
    assert_eq!(
        files[1]["error"]["message"],
        json!("Nothing exists at `nope.txt`.")
    );
    assert!(
        files[1]["error"]["hint"]
            .as_str()
            .is_some_and(|hint| hint.contains("list_directory")),
        "the vocabulary's hint: {}",
        files[1]
    );
    assert!(files[1].get("content").is_none() && files[1].get("version").is_none());
    assert_eq!(files[2]["error"]["code"], json!("not_a_file"));
    assert_eq!(files[3]["path"], json!("README.md"));
    assert_eq!(files[3]["total_lines"], json!(2));
    let bytes = 34 + 34;
    assert_eq!(out["bytes_read"], json!(bytes));

    let empty = call(&client, "read_files", json!({"paths": []})).await;
    assert_eq!(error_code(&empty), "argument_invalid");
    let many: Vec<String> = (0..21).map(|i| format!("f{i}.txt")).collect();
    let too_many = call(&client, "read_files", json!({ "paths": many })).await;
    assert_eq!(error_code(&too_many), "argument_invalid");
    let envelope = testing::envelope(&too_many).expect("an envelope");
    assert_eq!(envelope["errors"][0]["argument"], json!("paths"));
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn read_files_stops_at_its_total_size_and_says_what_to_do() {
    let fixture = fixture();
    let third = "x".repeat(usize::try_from(workspace::MAX_READ_FILES_BYTES / 3).expect("fits") + 1);
    for name in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(fixture.root.join(name), &third).expect("written");
    }
    let client = client(&fixture, Revision::V2025_11_25).await;
    let out = structured(
        &call(
            &client,
            "read_files",
            json!({"paths": ["a.txt", "b.txt", "c.txt", "README.md"]}),
        )
        .await,
    );
    let files = out["files"].as_array().expect("files");
    assert!(files[0].get("content").is_some() && files[1].get("content").is_some());
    let refused = &files[2]["error"];
    assert_eq!(refused["code"], json!("over_budget"));
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("over the limit of 4194304 bytes"),
        "{message}"
    );
    let hint = refused["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("read_file on its own"), "{hint}");
    assert_eq!(
        files[3]["total_lines"],
        json!(2),
        "a small file after it is read"
    );
    let returned = out["bytes_read"].as_u64().expect("a count");
    assert_eq!(returned, 2 * third.len() as u64 + 34);
    assert!(returned <= workspace::MAX_READ_FILES_BYTES);
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn directory_tree_shows_depths_honours_ignore_files_and_truncates_with_a_hint() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let out = structured(&call(&client, "directory_tree", json!({})).await);
    let shape: Vec<String> = out["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["depth"],
                e["path"].as_str().unwrap_or_default(),
                e["kind"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            "1 .gitignore file",
            "1 README.md file",
            "1 src directory",
            "2 src/main.rs file",
            "2 src/nested directory",
            "3 src/nested/lib.rs file",
        ],
        "ignored.log is left out"
    );
    assert_eq!(out["path"], json!("."));
    assert_eq!(out["entries"][1]["size"], json!(34));
    assert_eq!(out["entries"][1]["name"], json!("README.md"));
    assert!(out["entries"][2].get("size").is_none());
    assert_eq!(out["truncated"], json!(false));

    let all = structured(
        &call(
            &client,
            "directory_tree",
            json!({"max_depth": 1, "include_ignored": true, "glob": "*.log"}),
        )
        .await,
    );
    assert_eq!(all["entries"][0]["path"], json!("ignored.log"));
    assert_eq!(all["entries"].as_array().map(Vec::len), Some(1));

    let wide = fixture.root.join("src/wide");
    std::fs::create_dir(&wide).expect("created");
    for index in 0..workspace::MAX_TREE_ENTRIES {
        std::fs::File::create(wide.join(format!("{index:03}.rs"))).expect("created");
    }
    let cut = structured(&call(&client, "directory_tree", json!({})).await);
    assert_eq!(cut["truncated"], json!(true));
    assert_eq!(
        cut["entries"].as_array().map(Vec::len),
        Some(workspace::MAX_TREE_ENTRIES)
    );
    let hint = cut["hint"].as_str().expect("a hint");
    assert!(
        hint.contains("directory_tree on a subdirectory such as `src`"),
        "{hint}"
    );
    assert!(hint.contains("max_depth"), "{hint}");

    for (args, code) in [
        (json!({"path": "README.md"}), "not_a_directory"),
        (json!({"path": "nope"}), "not_found"),
        (json!({"glob": "["}), "invalid_pattern"),
        (json!({"max_depth": 0}), "argument_invalid"),
        (json!({"max_depth": 11}), "argument_invalid"),
    ] {
        let result = call(&client, "directory_tree", args.clone()).await;
        assert_eq!(error_code(&result), code, "{args}");
    }
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn find_files_matches_globs_sorted_and_truncates_at_the_limit() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2025_11_25).await;
    let paths = |out: &serde_json::Value| -> Vec<String> {
        out["files"]
            .as_array()
            .expect("files")
            .iter()
            .filter_map(|f| f["path"].as_str().map(str::to_owned))
            .collect()
    };
    let rust = structured(
        &call(
            &client,
            "find_files",
            json!({"pattern": "**/*.rs", "path": "."}),
        )
        .await,
    );
    assert_eq!(paths(&rust), ["src/main.rs", "src/nested/lib.rs"]);
    assert_eq!(rust["files"][0]["size"], json!(34));
    assert_eq!(rust["truncated"], json!(false));
    assert!(rust.get("hint").is_none());

    let in_src = structured(
        &call(
            &client,
            "find_files",
            json!({"pattern": "nested/*.rs", "path": "src"}),
        )
        .await,
    );
    assert_eq!(paths(&in_src), ["src/nested/lib.rs"]);

    let logs = structured(&call(&client, "find_files", json!({"pattern": "*.log"})).await);
    assert_eq!(
        paths(&logs),
        Vec::<String>::new(),
        ".gitignore leaves it out"
    );
    let ignored = structured(
        &call(
            &client,
            "find_files",
            json!({"pattern": "*.log", "include_ignored": true}),
        )
        .await,
    );
    assert_eq!(paths(&ignored), ["ignored.log"]);

    let one = structured(&call(&client, "find_files", json!({"pattern": "*", "limit": 1})).await);
    assert_eq!(paths(&one), [".gitignore"]);
    assert_eq!(one["truncated"], json!(true));
    let hint = one["hint"].as_str().expect("a hint");
    assert!(hint.contains("More than 1 files match"), "{hint}");

    for (args, code) in [
        (json!({"pattern": "["}), "invalid_pattern"),
        (
            json!({"pattern": "*", "path": "README.md"}),
            "not_a_directory",
        ),
        (json!({"pattern": "*", "path": "nope"}), "not_found"),
        (json!({"pattern": ""}), "argument_invalid"),
        (json!({"path": "src"}), "argument_missing"),
        (json!({"pattern": "*", "limit": 1001}), "argument_invalid"),
    ] {
        let result = call(&client, "find_files", args.clone()).await;
        assert_eq!(error_code(&result), code, "{args}");
    }
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn file_info_reports_kind_size_time_and_the_version_read_file_gives() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let info = structured(&call(&client, "file_info", json!({"path": "src/main.rs"})).await);
    let read = structured(&call(&client, "read_file", json!({"path": "src/main.rs"})).await);
    assert_eq!(info["path"], json!("src/main.rs"));
    assert_eq!(info["kind"], json!("file"));
    assert_eq!(info["symlink"], json!(false));
    assert_eq!(info["size"], json!(34));
    assert_eq!(info["read_only"], json!(false));
    assert_eq!(info["version"], read["version"]);
    assert_eq!(info["total_lines"], read["total_lines"]);
    let modified = info["modified"].as_str().expect("a time");
    assert!(
        modified.len() == 20 && modified.ends_with('Z') && modified.as_bytes()[10] == b'T',
        "RFC 3339 in UTC: {modified}"
    );

    let dir = structured(&call(&client, "file_info", json!({"path": "src"})).await);
    assert_eq!(dir["kind"], json!("directory"));
    for absent in ["size", "version", "total_lines"] {
        assert!(dir.get(absent).is_none(), "{absent}: {dir}");
    }
    assert_eq!(
        error_code(&call(&client, "file_info", json!({"path": "nope"})).await),
        "not_found"
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
            ("read_files", json!({"paths": ["../secret.txt"]})),
            ("read_files", json!({"paths": ["README.md", "/etc/passwd"]})),
            ("directory_tree", json!({"path": ".."})),
            ("directory_tree", json!({"path": "/"})),
            ("find_files", json!({"pattern": "*", "path": ".."})),
            ("find_files", json!({"pattern": "secret.txt", "path": "/"})),
            ("file_info", json!({"path": "../secret.txt"})),
            ("file_info", json!({"path": "/etc/passwd"})),
        ] {
            let result = call(&client, tool, args.clone()).await;
            let wire = serde_json::to_value(&result).expect("serializable");
            check_wire(revision, "CallToolResult", &wire).expect("a valid result");
            // read_files reports each file's failure in its result, not as a failed call.
            let code = if tool == "read_files" {
                let files = structured(&result)["files"].clone();
                let last = files.as_array().and_then(|f| f.last()).cloned();
                let last = last.expect("a result per path");
                assert!(last.get("content").is_none(), "{tool} {args}: {last}");
                last["error"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            } else {
                error_code(&result)
            };
            assert!(
                ["invalid_path", "outside_workspace"].contains(&code.as_str()),
                "{tool} {args}: {code}"
            );
            assert!(
                !wire.to_string().contains(SECRET.trim_end()),
                "{tool} {args} leaked the secret"
            );
        }
        let all = structured(&call(&client, "search_text", json!({"query": "SECRET"})).await);
        assert_eq!(
            all["matches"],
            json!([]),
            "a search of the root finds nothing outside it"
        );
        for (tool, args) in [
            (
                "find_files",
                json!({"pattern": "**/secret*", "include_ignored": true}),
            ),
            (
                "directory_tree",
                json!({"max_depth": 10, "include_ignored": true}),
            ),
        ] {
            let everything = call(&client, tool, args).await;
            let text = serde_json::to_string(&everything).expect("serializable");
            assert!(!text.contains("secret"), "{tool} reached outside: {text}");
        }
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

/// The published schema bounds every integer by what the handler's Rust type holds, and a
/// value past it is an argument error naming the argument, in the words of the other
/// argument errors: no Rust type, no deserializer.
#[tokio::test]
async fn an_integer_beyond_its_rust_type_is_refused_as_an_argument_error_naming_it() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let tools = client.list_all_tools().await.expect("listed");
    let read_file = tools
        .iter()
        .find(|t| t.name == "read_file")
        .expect("read_file");
    assert_eq!(
        read_file.input_schema["properties"]["start_line"]["maximum"],
        json!(u64::MAX),
        "the published schema states the largest value a `u64` holds"
    );
    // 2^64, as the tester sent it: serde_json reads an integer beyond 64 bits as a float.
    for start_line in [
        serde_json::from_str::<serde_json::Value>("18446744073709551616").expect("JSON"),
        json!(1e30),
    ] {
        let result = call(
            &client,
            "read_file",
            json!({"path": "src/main.rs", "start_line": start_line}),
        )
        .await;
        let envelope = testing::envelope(&result).expect("an envelope");
        let problem = &envelope["errors"][0];
        assert_eq!(
            envelope["errors"].as_array().map(Vec::len),
            Some(1),
            "{envelope}"
        );
        assert_eq!(problem["code"], json!("argument_invalid"), "{envelope}");
        assert_eq!(problem["argument"], json!("start_line"), "{envelope}");
        let message = problem["message"].as_str().expect("a message");
        assert!(
            message.starts_with("`start_line` is invalid: ")
                && message.ends_with("is greater than the maximum of 18446744073709551615."),
            "{message}"
        );
        for rust in ["u64", "i64", "f64", "floating point", "expected"] {
            assert!(!message.contains(rust), "{message}");
        }
    }
    // 2^64 − 1 is the largest a `u64` holds: it reaches the handler, which finds no such line.
    let largest = call(
        &client,
        "read_file",
        json!({"path": "src/main.rs", "start_line": u64::MAX}),
    )
    .await;
    assert_eq!(error_code(&largest), "bad_line_range");
    client.cancel().await.expect("closed");
}
