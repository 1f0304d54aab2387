//! The reference server with its state on Redis (`--state`): a store that cannot be reached
//! stops it at start with one line; and what each kind of call costs the store, counted by
//! Redis itself (`INFO commandstats`): nothing for a call that needs no state.

mod support;

use std::net::{Ipv4Addr, TcpListener};
use std::process::{Command, Stdio};
use std::time::Duration;

use mcp_contract::state::{RedisStore, State};
use mcp_contract::testing::{Lines, RedisServer, serve_lines};
use mcp_workspace::{Workspace, contract};
use serde_json::{Value, json};
use support::Fixture;

#[test]
fn a_store_that_cannot_be_reached_stops_the_server_with_one_line() {
    let fixture = Fixture::with(&[]);
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let ran = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .arg("--root")
        .arg(&fixture.root)
        .args(["--state", &format!("redis://127.0.0.1:{port}/0")])
        .stdin(Stdio::null())
        .output()
        .expect("the server ran");
    assert!(!ran.status.success(), "{ran:?}");
    let stderr = String::from_utf8_lossy(&ran.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let start =
        format!("mcp-workspace: --state: cannot reach the Redis store at 127.0.0.1:{port}: ");
    assert!(lines[0].starts_with(&start), "{stderr}");
}

/// One 2026-07-28 request of a client that can elicit; its `result`.
async fn request(lines: &mut Lines, id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":
            {"elicitation": {}},
    });
    lines.request(id, method, params).await;
    loop {
        let line = lines.answer().await;
        if line["id"] == id {
            return line["result"].clone();
        }
    }
}

/// A confirmed recursive delete: the question, then the retry with the sealed state.
async fn sealed_round(lines: &mut Lines, id: u64, path: &str) {
    let call = json!({"name": "delete_path", "arguments": {"path": path, "recursive": true}});
    let asked = request(lines, id, "tools/call", call.clone()).await;
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    let mut retry = call;
    retry["inputResponses"] =
        json!({"confirm_delete": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = asked["requestState"].clone();
    let done = request(lines, id + 1, "tools/call", retry).await;
    assert_eq!(done["isError"], false, "{done}");
}

/// A 2025-11-25 connection, initialized, to ask for tasks (on 2026-07-28 the server decides,
/// and a quick search finishes before it would become one).
async fn initialized(lines: &mut Lines) {
    let hello = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "counter", "version": "1"}});
    lines.request(1, "initialize", hello).await;
    lines.answer().await;
    (lines.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)).await;
}

/// The `result` of one request on an initialized connection.
async fn request_old(lines: &mut Lines, id: u64, method: &str, params: Value) -> Value {
    lines.request(id, method, params).await;
    loop {
        let line = lines.answer().await;
        if line["id"] == id {
            return line["result"].clone();
        }
    }
}

/// A `search_text` run as a task, polled until it completed, and its result fetched.
async fn task(lines: &mut Lines, id: u64) {
    let call = json!({"name": "search_text", "arguments": {"query": "a"}, "task": {"ttl": 60000}});
    let created = request_old(lines, id, "tools/call", call).await;
    let task = json!({"taskId": created["task"]["taskId"]});
    assert!(task["taskId"].is_string(), "{created}");
    for poll in 1.. {
        let got = request_old(lines, id + poll, "tasks/get", task.clone()).await;
        if got["status"] == "completed" {
            break;
        }
        assert_eq!(got["status"], "working", "{got}");
        assert!(poll < 500, "still working");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let result = request_old(lines, id + 1000, "tasks/result", task).await;
    assert_eq!(result["isError"], false, "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_needs_no_state_never_reaches_the_store() {
    let redis = RedisServer::start();
    let fixture = Fixture::with(&[("a.md", b"a\n"), ("one/x.md", b"x\n"), ("two/y.md", b"y\n")]);
    let store = RedisStore::connect(&redis.url(), "rounds")
        .await
        .expect("Redis is reachable");
    let workspace = Workspace::open(&fixture.root).expect("the workspace opens");
    let server = contract::server(workspace).state(State::new(store));
    let (mut lines, mut old) = (serve_lines(server.clone()), serve_lines(server));
    let mut monitor = redis.monitor().await;
    initialized(&mut old).await;
    // Each kind once first, so that what is counted below leaves out loading the scripts.
    request(&mut lines, 1, "tools/list", json!({})).await;
    task(&mut old, 10).await;
    sealed_round(&mut lines, 2000, "one").await;
    monitor.sent().await;

    let read = json!({"name": "read_file", "arguments": {"path": "a.md"}});
    let result = request(&mut lines, 3000, "tools/call", read).await;
    assert_eq!(result["isError"], false, "{result}");
    request(&mut lines, 3001, "tools/list", json!({})).await;
    let read = json!({"name": "read_file", "arguments": {"path": "a.md"}});
    let result = request_old(&mut old, 3002, "tools/call", read).await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        monitor.sent().await,
        Vec::<String>::new(),
        "read_file on both revisions, and tools/list"
    );

    task(&mut old, 4000).await;
    let tasked = monitor.sent().await;
    sealed_round(&mut lines, 6000, "two").await;
    let sealed = monitor.sent().await;
    // The figures the store's documentation gives; printed for `--nocapture`.
    eprintln!("a task, made, polled to its end and its result fetched: {tasked:?}");
    eprintln!("a sealed round, asked and retried: {sealed:?}");
    assert!(
        !tasked.is_empty() && !sealed.is_empty(),
        "the store holds tasks and keys"
    );
}
