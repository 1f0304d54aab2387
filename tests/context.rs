//! The reference server through the request context, in raw JSON-RPC lines on 2025-11-25: a
//! long search reports progress, a write is logged to the client and announced to the
//! clients subscribed to the file's resource.

use mcp_contract::testing::{Lines, serve_lines};
use mcp_workspace::{Workspace, contract};
use serde_json::{Value, json};

fn workspace(files: usize) -> (tempfile::TempDir, Lines) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(dir.path().join("src")).expect("a directory");
    for i in 0..files {
        std::fs::write(dir.path().join(format!("src/f{i}.txt")), "hay\n").expect("written");
    }
    std::fs::write(dir.path().join("notes.txt"), "hello\n").expect("written");
    let workspace = Workspace::open(dir.path()).expect("opened");
    (dir, serve_lines(contract::server(workspace)))
}

/// The notifications before the answer to request `id`, and the answer.
async fn exchange(lines: &mut Lines, id: u64) -> (Vec<Value>, Value) {
    let mut before = Vec::new();
    loop {
        let line = lines.answer().await;
        if line["id"] == id {
            return (before, line);
        }
        before.push(line);
    }
}

fn methods(notifications: &[Value]) -> Vec<&str> {
    notifications
        .iter()
        .map(|n| n["method"].as_str().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn a_search_with_a_progress_token_reports_how_far_it_got() {
    let (_dir, mut lines) = workspace(200);
    lines.initialize().await;
    let search = json!({"name": "search_text", "arguments": {"query": "needle"}});
    lines.request(1, "tools/call", search.clone()).await;
    let (before, answer) = exchange(&mut lines, 1).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(
        !methods(&before).contains(&"notifications/progress"),
        "no token: {before:?}"
    );

    let mut with_token = search;
    with_token["_meta"] = json!({"progressToken": 7});
    lines.request(2, "tools/call", with_token).await;
    let (before, answer) = exchange(&mut lines, 2).await;
    assert_eq!(
        answer["result"]["structuredContent"]["files_searched"], 201,
        "{answer}"
    );
    let progress: Vec<&Value> = before
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .collect();
    assert!(!progress.is_empty(), "{before:?}");
    assert!(
        progress.iter().all(|n| n["params"]["progressToken"] == 7),
        "{progress:?}"
    );
}

#[tokio::test]
async fn a_write_is_logged_and_announced_to_its_subscribers() {
    let (_dir, mut lines) = workspace(0);
    let initialized = lines.initialize().await;
    assert_eq!(
        initialized["capabilities"]["logging"],
        json!({}),
        "{initialized}"
    );
    assert_eq!(
        initialized["capabilities"]["resources"]["subscribe"], true,
        "{initialized}"
    );
    // Written with a lowercase escape: the update carries the client's own URI.
    let uri = "workspace://files/src%2fnew.txt";
    lines
        .request(1, "resources/subscribe", json!({"uri": uri}))
        .await;
    let (_, answer) = exchange(&mut lines, 1).await;
    assert_eq!(answer["result"], json!({}), "{answer}");

    let write = json!({"name": "write_file", "arguments": {"path": "src/new.txt", "content": "x"}});
    lines.request(2, "tools/call", write).await;
    let (before, answer) = exchange(&mut lines, 2).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(
        methods(&before),
        ["notifications/message", "notifications/resources/updated"],
        "{before:?}"
    );
    assert_eq!(
        before[0]["params"]["data"], "src/new.txt: written",
        "{before:?}"
    );
    assert_eq!(before[1]["params"]["uri"], uri, "{before:?}");

    // Another file's write is logged, not announced.
    let other = json!({"name": "write_file", "arguments": {"path": "other.txt", "content": "x"}});
    lines.request(3, "tools/call", other).await;
    let (before, _) = exchange(&mut lines, 3).await;
    assert_eq!(methods(&before), ["notifications/message"], "{before:?}");
}
