//! The write tools, in process, through the published contract: each tool's success and its
//! errors as a client sees them, lost updates, sandbox escapes and the error text.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use mcp_contract::rmcp::model::CallToolResult;
use mcp_contract::testing::{Client, Revision, call, check_wire, structured};
use serde_json::json;
use support::{Fixture, SECRET, client};

mod support;

/// A workspace `ws` with a few files, and `secret.txt` beside it that no call may change.
fn fixture() -> Fixture {
    Fixture::with(&[
        ("src/main.rs", b"fn main() {\n    println!(\"hi\");\n}\n"),
        ("README.md", b"# Demo\n"),
    ])
}

/// The first error's code, and the envelope's hint.
fn error(result: &CallToolResult) -> (String, String) {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error: {result:?}"
    );
    let envelope = mcp_contract::testing::envelope(result).expect("an envelope");
    let first = &envelope["errors"][0];
    (
        first["code"].as_str().expect("a code").to_owned(),
        envelope["hint"].as_str().unwrap_or_default().to_owned(),
    )
}

fn code(result: &CallToolResult) -> String {
    error(result).0
}

async fn version(client: &Client, path: &str) -> String {
    let read = structured(&call(client, "read_file", json!({ "path": path })).await);
    read["version"].as_str().expect("a version").to_owned()
}

fn host(fixture: &Fixture, path: &str) -> PathBuf {
    fixture.root.join(path)
}

fn contents(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable")
}

#[tokio::test]
async fn write_file_creates_then_replaces_only_with_the_version_read() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let created = structured(
        &call(
            &client,
            "write_file",
            json!({"path": "notes/todo.md", "content": "- one\n"}),
        )
        .await,
    );
    assert_eq!(created["created"], json!(true));
    assert_eq!(created["path"], json!("notes/todo.md"));
    assert_eq!(
        created["version"],
        json!(version(&client, "notes/todo.md").await)
    );

    let again = call(
        &client,
        "write_file",
        json!({"path": "notes/todo.md", "content": "- two\n"}),
    )
    .await;
    let (code_, hint) = error(&again);
    assert_eq!(code_, "already_exists");
    assert!(hint.contains("read_file"), "{hint}");

    let v1 = created["version"].clone();
    let replaced = structured(
        &call(
            &client,
            "write_file",
            json!({"path": "notes/todo.md", "content": "- two\n", "version": v1}),
        )
        .await,
    );
    assert_eq!(replaced["created"], json!(false));
    assert_eq!(contents(&host(&fixture, "notes/todo.md")), "- two\n");

    let stale = call(
        &client,
        "write_file",
        json!({"path": "notes/todo.md", "content": "- three\n", "version": v1}),
    )
    .await;
    let (code_, hint) = error(&stale);
    assert_eq!(code_, "stale_version");
    assert!(
        hint.contains("read_file on `notes/todo.md` again"),
        "{hint}"
    );
    assert_eq!(contents(&host(&fixture, "notes/todo.md")), "- two\n");

    assert_eq!(
        code(&call(&client, "write_file", json!({"path": "src", "content": ""})).await),
        "not_a_file"
    );
    assert_eq!(
        code(
            &call(
                &client,
                "write_file",
                json!({"path": "README.md/x", "content": ""})
            )
            .await
        ),
        "not_a_directory"
    );
    assert_eq!(
        code(
            &call(
                &client,
                "write_file",
                json!({"path": "x", "content": "", "version": "nope"})
            )
            .await
        ),
        "argument_invalid",
        "a version is 64 hex digits"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn create_directory_is_idempotent() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2025_11_25).await;
    let first = structured(&call(&client, "create_directory", json!({"path": "a/./b//c"})).await);
    assert_eq!(first, json!({"path": "a/b/c", "created": true}));
    let second = structured(&call(&client, "create_directory", json!({"path": "a/b/c"})).await);
    assert_eq!(second["created"], json!(false));
    assert!(host(&fixture, "a/b/c").is_dir());
    assert_eq!(
        code(&call(&client, "create_directory", json!({"path": "README.md"})).await),
        "not_a_directory"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn edit_file_diffs_dry_runs_and_reports_each_failing_edit() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let path = host(&fixture, "src/main.rs");
    let original = contents(&path);
    let v = version(&client, "src/main.rs").await;
    let mtime = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");

    let dry = structured(
        &call(
            &client,
            "edit_file",
            json!({"path": "src/main.rs", "version": v, "dry_run": true,
               "edits": [{"old_text": "\"hi\"", "new_text": "\"hello\""}]}),
        )
        .await,
    );
    assert_eq!(dry["applied"], json!(false));
    assert_eq!(dry["version"], json!(v));
    assert_eq!(dry["diff_truncated"], json!(false));
    assert!(
        dry["diff"]
            .as_str()
            .unwrap_or_default()
            .contains("+    println!(\"hello\");")
    );
    assert_eq!(contents(&path), original, "a dry run changes nothing");
    assert_eq!(
        std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .expect("mtime"),
        mtime
    );

    for (edits, expected, in_hint) in [
        (
            json!([{"old_text": "absent", "new_text": ""}]),
            "no_match",
            "copy old_text exactly",
        ),
        (
            json!([{"old_text": "main", "new_text": "x"}, {"old_text": "(", "new_text": "["}]),
            "ambiguous_match",
            "surrounding lines",
        ),
    ] {
        let failed = call(
            &client,
            "edit_file",
            json!({"path": "src/main.rs", "version": v, "edits": edits}),
        )
        .await;
        let (code_, hint) = error(&failed);
        assert_eq!(code_, expected);
        assert!(hint.contains(in_hint), "{hint}");
        assert_eq!(contents(&path), original, "a failed edit writes nothing");
    }
    let envelope = call(
        &client,
        "edit_file",
        json!({"path": "src/main.rs", "version": v,
               "edits": [{"old_text": "main", "new_text": "x"}, {"old_text": "(", "new_text": "["}]}),
    )
    .await;
    let envelope = mcp_contract::testing::envelope(&envelope).expect("an envelope");
    assert_eq!(
        envelope["errors"][0]["message"],
        json!("edits[1].old_text matches 2 places in `src/main.rs`.")
    );

    let applied = structured(
        &call(
            &client,
            "edit_file",
            json!({"path": "src/main.rs", "version": v,
               "edits": [{"old_text": "\"hi\"", "new_text": "\"hello\""}]}),
        )
        .await,
    );
    assert_eq!(applied["applied"], json!(true));
    assert_eq!(
        applied["diff"], dry["diff"],
        "the dry run showed what was done"
    );
    assert_eq!(
        applied["version"],
        json!(version(&client, "src/main.rs").await)
    );
    let stale = call(
        &client,
        "edit_file",
        json!({"path": "src/main.rs", "version": v,
               "edits": [{"old_text": "hello", "new_text": "bye"}]}),
    )
    .await;
    assert_eq!(code(&stale), "stale_version");
    assert_eq!(
        code(&call(&client, "edit_file", json!({"path": "missing.rs", "version": v, "edits": [{"old_text": "a", "new_text": "b"}]})).await),
        "not_found"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn a_large_diff_comes_cut_to_the_cap_and_marked() {
    let fixture = fixture();
    let old: String = (0..10_000)
        .map(|i| format!("old line {i:>6}, padded out to forty\n"))
        .collect();
    let new = old.replace("old", "new");
    std::fs::write(host(&fixture, "big.txt"), &old).expect("written");
    let client = client(&fixture, Revision::V2026_07_28).await;
    let v = version(&client, "big.txt").await;
    let dry = structured(
        &call(
            &client,
            "edit_file",
            json!({"path": "big.txt", "version": v, "dry_run": true,
               "edits": [{"old_text": old, "new_text": new}]}),
        )
        .await,
    );
    assert_eq!(dry["diff_truncated"], json!(true));
    let diff = dry["diff"].as_str().unwrap_or_default();
    let cap = mcp_workspace::workspace::MAX_DIFF_BYTES;
    assert!(diff.len() <= cap && diff.len() > cap / 2, "{}", diff.len());
}

#[tokio::test]
async fn two_concurrent_edits_from_one_version_exactly_one_wins() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    exactly_one_wins(&fixture, client, ["src/main.rs", "src/main.rs"]).await;
}

/// The same file through a linked directory is the same file: one edit from a version wins,
/// whichever spelling each uses, on both revisions.
#[cfg(unix)]
#[tokio::test]
async fn concurrent_edits_through_a_linked_directory_let_exactly_one_win() {
    for revision in Revision::ALL {
        let fixture = fixture();
        std::os::unix::fs::symlink("src", host(&fixture, "alias")).expect("linked");
        let client = client(&fixture, revision).await;
        exactly_one_wins(&fixture, client, ["src/main.rs", "alias/main.rs"]).await;
    }
}

/// Edits `src/main.rs` from one version through each of `paths` at once: exactly one wins,
/// the other is stale, and the file holds the winner's edit.
async fn exactly_one_wins(fixture: &Fixture, client: Client, paths: [&str; 2]) {
    let v = version(&client, "src/main.rs").await;
    let client = std::sync::Arc::new(client);
    let tasks: Vec<_> = ["first", "second"]
        .into_iter()
        .zip(paths)
        .map(|(who, path)| {
            let (client, v, path) = (std::sync::Arc::clone(&client), v.clone(), path.to_owned());
            tokio::spawn(async move {
                call(
                    &client,
                    "edit_file",
                    json!({"path": path, "version": v,
                           "edits": [{"old_text": "hi", "new_text": who}]}),
                )
                .await
            })
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.expect("the task finished"));
    }
    let winners: Vec<&CallToolResult> = results
        .iter()
        .filter(|r| r.is_error == Some(false))
        .collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    let loser = results
        .iter()
        .find(|r| r.is_error == Some(true))
        .expect("a loser");
    assert_eq!(code(loser), "stale_version");
    let text = contents(&host(fixture, "src/main.rs"));
    assert!(
        text.contains("println!(\"first\");") ^ text.contains("println!(\"second\");"),
        "exactly one edit is in the file: {text}"
    );
    assert_eq!(
        structured(winners[0])["version"],
        json!(version(&client, "src/main.rs").await)
    );
}

#[tokio::test]
async fn move_path_never_overwrites() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2025_11_25).await;
    let moved = structured(
        &call(
            &client,
            "move_path",
            json!({"from": "README.md", "to": "src/README.md"}),
        )
        .await,
    );
    assert_eq!(
        moved,
        json!({"from": "README.md", "to": "src/README.md", "kind": "file"})
    );
    let onto = call(
        &client,
        "move_path",
        json!({"from": "src/README.md", "to": "src/main.rs"}),
    )
    .await;
    assert_eq!(code(&onto), "already_exists");
    assert_eq!(
        contents(&host(&fixture, "src/main.rs")),
        "fn main() {\n    println!(\"hi\");\n}\n"
    );
    assert_eq!(contents(&host(&fixture, "src/README.md")), "# Demo\n");
    let dir = structured(&call(&client, "move_path", json!({"from": "src", "to": "code"})).await);
    assert_eq!(dir["kind"], json!("directory"));
    assert_eq!(
        code(&call(&client, "move_path", json!({"from": "src", "to": "x"})).await),
        "not_found"
    );
    assert_eq!(
        code(
            &call(
                &client,
                "move_path",
                json!({"from": "code", "to": "code/in"})
            )
            .await
        ),
        "invalid_path"
    );
    assert_eq!(
        code(
            &call(
                &client,
                "move_path",
                json!({"from": "code/main.rs", "to": "code/README.md/x"})
            )
            .await
        ),
        "not_a_directory"
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn delete_path_needs_recursive_for_a_directory_and_never_takes_the_root() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let deleted = structured(&call(&client, "delete_path", json!({"path": "README.md"})).await);
    assert_eq!(deleted, json!({"path": "README.md", "kind": "file"}));
    let (code_, hint) = error(&call(&client, "delete_path", json!({"path": "src"})).await);
    assert_eq!(code_, "recursive_required");
    assert!(hint.contains("recursive: true"), "{hint}");
    assert!(host(&fixture, "src/main.rs").exists());
    structured(
        &call(
            &client,
            "delete_path",
            json!({"path": "src", "recursive": true}),
        )
        .await,
    );
    assert!(!host(&fixture, "src").exists());
    assert_eq!(
        code(
            &call(
                &client,
                "delete_path",
                json!({"path": ".", "recursive": true})
            )
            .await
        ),
        "invalid_path"
    );
    assert!(fixture.root.is_dir());
    assert_eq!(
        code(&call(&client, "delete_path", json!({"path": "src"})).await),
        "not_found"
    );
    client.cancel().await.expect("closed");
}

/// The secret's bytes and modification time.
fn secret_state(fixture: &Fixture) -> (Vec<u8>, SystemTime) {
    let bytes = std::fs::read(&fixture.secret).expect("readable");
    let mtime = std::fs::metadata(&fixture.secret)
        .and_then(|m| m.modified())
        .expect("mtime");
    (bytes, mtime)
}

#[tokio::test]
async fn no_write_tool_reaches_outside_the_root_or_names_it() {
    let fixture = fixture();
    #[cfg(unix)]
    std::os::unix::fs::symlink("../secret.txt", host(&fixture, "link-out")).expect("a link");
    let before = secret_state(&fixture);
    let absolute = fixture.secret.to_string_lossy().into_owned();
    let version = format!("{:064x}", 0);
    let mut escapes = vec![
        "../secret.txt".to_owned(),
        "src/../../secret.txt".to_owned(),
        absolute,
    ];
    if cfg!(unix) {
        escapes.push("link-out".to_owned());
    }
    for revision in Revision::ALL {
        let client = client(&fixture, revision).await;
        for path in &escapes {
            for (tool, args) in [
                ("write_file", json!({"path": path, "content": "planted"})),
                (
                    "write_file",
                    json!({"path": path, "content": "planted", "version": version}),
                ),
                ("create_directory", json!({"path": path})),
                (
                    "edit_file",
                    json!({"path": path, "version": version, "edits": [{"old_text": "TOP", "new_text": "x"}]}),
                ),
                ("move_path", json!({"from": path, "to": "stolen.txt"})),
                ("move_path", json!({"from": "README.md", "to": path})),
                ("delete_path", json!({"path": path, "recursive": true})),
                (
                    "apply_edits",
                    json!({"files": [{"path": path, "version": version, "edits": [{"old_text": "TOP", "new_text": "x"}]}]}),
                ),
            ] {
                let result = call(&client, tool, args.clone()).await;
                let wire = serde_json::to_value(&result).expect("serializable");
                check_wire(revision, "CallToolResult", &wire).expect("a valid result");
                let code = code(&result);
                let allowed: &[&str] = if tool == "move_path" && args["to"] == json!(path) {
                    // The link itself is the target: it exists, and is never followed.
                    &["invalid_path", "outside_workspace", "already_exists"]
                } else {
                    &["invalid_path", "outside_workspace"]
                };
                assert!(allowed.contains(&code.as_str()), "{tool} {args}: {code}");
                let text = wire.to_string();
                assert!(
                    !text.contains(SECRET.trim_end()),
                    "{tool} {args} leaked the secret"
                );
                let root = fixture.root.to_string_lossy();
                assert!(
                    args.to_string().contains(root.as_ref()) || !text.contains(root.as_ref()),
                    "{tool} {args} named the host root: {text}"
                );
            }
        }
        client.cancel().await.expect("closed");
    }
    assert_eq!(
        secret_state(&fixture),
        before,
        "the file outside is unchanged"
    );
    assert!(!host(&fixture, "stolen.txt").exists());
    assert_eq!(contents(&host(&fixture, "README.md")), "# Demo\n");
}

#[cfg(unix)]
#[tokio::test]
async fn writes_keep_the_file_mode() {
    use std::os::unix::fs::PermissionsExt;
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let path = host(&fixture, "src/main.rs");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let v = version(&client, "src/main.rs").await;
    let written = structured(
        &call(
            &client,
            "write_file",
            json!({"path": "src/main.rs", "content": "fn main() {}\n", "version": v}),
        )
        .await,
    );
    let mode = || std::fs::metadata(&path).expect("stat").permissions().mode() & 0o7777;
    assert_eq!(mode(), 0o700);
    structured(
        &call(
            &client,
            "edit_file",
            json!({"path": "src/main.rs", "version": written["version"],
               "edits": [{"old_text": "{}", "new_text": "{ }"}]}),
        )
        .await,
    );
    assert_eq!(mode(), 0o700);
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn apply_edits_is_all_or_nothing() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let (readme, main) = (
        version(&client, "README.md").await,
        version(&client, "src/main.rs").await,
    );
    let failing = call(
        &client,
        "apply_edits",
        json!({"files": [
            {"path": "README.md", "version": readme, "edits": [{"old_text": "Demo", "new_text": "Show"}]},
            {"path": "src/main.rs", "version": main, "edits": [{"old_text": "i", "new_text": "x"}]}
        ]}),
    )
    .await;
    let (code_, _) = error(&failing);
    assert_eq!(code_, "ambiguous_match");
    let envelope = mcp_contract::testing::envelope(&failing).expect("an envelope");
    assert_eq!(
        envelope["errors"][0]["message"],
        json!("edits[0].old_text matches 3 places in `src/main.rs`.")
    );
    assert_eq!(
        contents(&host(&fixture, "README.md")),
        "# Demo\n",
        "no file was changed"
    );

    let done = structured(&call(
        &client,
        "apply_edits",
        json!({"files": [
            {"path": "README.md", "version": readme, "edits": [{"old_text": "Demo", "new_text": "Show"}]},
            {"path": "src/main.rs", "version": main, "edits": [{"old_text": "hi", "new_text": "bye"}]}
        ]}),
    )
    .await);
    assert_eq!(done["applied"], json!(true));
    assert_eq!(contents(&host(&fixture, "README.md")), "# Show\n");
    assert_eq!(
        done["files"][1]["version"],
        json!(version(&client, "src/main.rs").await)
    );
    assert!(
        done["files"][0]["diff"]
            .as_str()
            .unwrap_or_default()
            .contains("+# Show")
    );
    client.cancel().await.expect("closed");
}

/// The first error's code and the argument it names, if any.
fn named(result: &CallToolResult) -> (String, Option<String>) {
    let envelope = mcp_contract::testing::envelope(result).expect("an envelope");
    let first = &envelope["errors"][0];
    (
        first["code"].as_str().expect("a code").to_owned(),
        first["argument"].as_str().map(str::to_owned),
    )
}

/// A path error names the argument to fix: `from` or `to` of a move, `version` of a stale
/// write, `recursive` of a directory delete, `files` of a multi-file edit.
#[tokio::test]
async fn path_errors_name_the_argument_they_concern() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let moved = |from: &str, to: &str| ("move_path", json!({"from": from, "to": to}));
    let stale = "0".repeat(64);
    let edit = json!([{"old_text": "#", "new_text": "##"}]);
    for ((tool, arguments), expected) in [
        (moved("nope.md", "x.md"), ("not_found", "from")),
        (moved("src/main.rs", "README.md"), ("already_exists", "to")),
        (moved("README.md", "../out.md"), ("invalid_path", "to")),
        (moved("/etc/passwd", "x.md"), ("invalid_path", "from")),
        (moved(".", "x"), ("invalid_path", "from")),
        (moved("src", "src/inner"), ("invalid_path", "to")),
        (moved("README.md", "no/such/dir.md"), ("not_found", "to")),
        (
            moved("README.md", "src/main.rs/x"),
            ("not_a_directory", "to"),
        ),
        (
            (
                "write_file",
                json!({"path": "README.md", "content": "x", "version": stale}),
            ),
            ("stale_version", "version"),
        ),
        (
            (
                "edit_file",
                json!({"path": "nope.md", "version": stale, "edits": edit}),
            ),
            ("not_found", "path"),
        ),
        (
            ("delete_path", json!({"path": "src"})),
            ("recursive_required", "recursive"),
        ),
        (
            (
                "apply_edits",
                json!({"files": [{"path": "README.md", "version": stale, "edits": edit}]}),
            ),
            ("stale_version", "files"),
        ),
        // A single-path tool names its one path.
        (
            ("read_file", json!({"path": "nope.md"})),
            ("not_found", "path"),
        ),
    ] {
        let result = call(&client, tool, arguments.clone()).await;
        let (code, argument) = named(&result);
        assert_eq!(
            (code.as_str(), argument.as_deref()),
            (expected.0, Some(expected.1)),
            "{tool} {arguments}"
        );
    }
    client.cancel().await.expect("closed");
}
