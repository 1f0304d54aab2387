//! The built binary with `--http` and `--read-only`: each group at its route over real HTTP on
//! loopback, on both revisions, with rmcp's HTTP client; nothing else is served.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use mcp_contract::rmcp::model::CallToolRequestParams;
use mcp_contract::testing::{Revision, call, connect, connect_http, http_request, structured};
use mcp_workspace::{Workspace, contract};
use serde_json::json;

/// The `_meta` key under which a 2026-07-28 result names the server.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The server binary serving HTTP on a free loopback port; killed when dropped.
struct Running {
    child: Child,
    addr: SocketAddr,
    _root: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str]) -> Running {
    let root = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(root.path().join("notes.txt"), "hello\n").expect("written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.path().as_os_str()])
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut addr = None;
    for line in lines.by_ref() {
        let line = line.expect("a log line");
        if let Some(at) = line.split("listening on http://").nth(1) {
            let at = at.split_whitespace().next().unwrap_or_default();
            addr = Some(at.parse().expect("an address"));
            break;
        }
    }
    // Keep reading the log, so the server never blocks or fails writing to a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Running {
        child,
        addr: addr.expect("the server logs the address it listens on"),
        _root: root,
    }
}

/// A client's log file is not a terminal: the log carries no colour codes there, even when
/// `NO_COLOR` is not set.
#[test]
fn the_log_has_no_colour_codes_when_stderr_is_not_a_terminal() {
    let root = tempfile::tempdir().expect("a temporary directory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.path().as_os_str()])
        .args(["--http", "127.0.0.1:0"])
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut log = Vec::new();
    for line in BufReader::new(child.stderr.take().expect("stderr")).lines() {
        let line = line.expect("a log line");
        let done = line.contains("listening on http://");
        log.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(log.iter().any(|l| l.contains("listening on")), "{log:?}");
    assert!(
        log.iter().all(|l| !l.contains('\x1b')),
        "colour codes in a log that is not a terminal: {log:?}"
    );
}

fn group(name: &str) -> Vec<&'static str> {
    contract::SPEC
        .groups
        .iter()
        .find(|g| g.name == name)
        .map(|g| g.tools.to_vec())
        .unwrap_or_else(|| panic!("no group {name}"))
}

#[tokio::test]
async fn each_group_is_served_at_its_route_on_both_revisions() {
    let server = start(&[]);
    for revision in Revision::ALL {
        for name in ["read", "edit"] {
            let url = format!("http://{}/mcp/{name}", server.addr);
            let client = connect_http(&url, revision).await.expect("connected");
            let listed = client.list_tools(None).await.expect("tools/list");
            let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
            assert_eq!(names, group(name), "{} {name}", revision.as_str());
            let named = listed.meta.as_ref().and_then(|m| m.0.get(SERVER_INFO));
            assert_eq!(
                named.map(|info| &info["name"]),
                (!revision.has_initialize()).then_some(&json!("mcp-workspace")),
                "{revision}: the result names the server on 2026-07-28 only"
            );
            let resources = client.list_resources(None).await.expect("resources/list");
            assert_eq!(resources.resources[0].uri, "workspace://tree");
            client.cancel().await.expect("closed");
        }
        let read = connect_http(&format!("http://{}/mcp/read", server.addr), revision)
            .await
            .expect("connected");
        let text = call(&read, "read_file", json!({"path": "notes.txt"})).await;
        assert_eq!(structured(&text)["content"], "hello\n");
        // A write tool does not exist on the read route: the unknown-tool protocol error.
        let refused = read
            .call_tool(
                CallToolRequestParams::new("write_file").with_arguments(
                    json!({"path": "x.txt", "content": "x"})
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                ),
            )
            .await
            .expect_err("write_file is not served on /mcp/read");
        assert!(refused.to_string().contains("-32602"), "{refused}");
        read.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn every_other_route_is_refused() {
    let server = start(&[]);
    for path in ["/", "/mcp", "/mcp/write", "/mcp/read/extra", "/mcp/READ"] {
        let response = http_request(
            server.addr,
            "POST",
            path,
            &[("content-type", "application/json")],
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
        )
        .await
        .expect("an HTTP answer");
        assert_eq!(response.status, 404, "{path}: {}", response.body);
        assert!(response.body.contains("/mcp/read"), "{}", response.body);
    }
}

#[tokio::test]
async fn read_only_leaves_every_write_tool_out_of_every_route() {
    let server = start(&["--read-only"]);
    for name in ["read", "edit"] {
        let url = format!("http://{}/mcp/{name}", server.addr);
        let client = connect_http(&url, Revision::V2026_07_28)
            .await
            .expect("connected");
        let tools = client.list_tools(None).await.expect("tools/list").tools;
        assert!(!tools.is_empty());
        for tool in &tools {
            let hint = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
            assert_eq!(hint, Some(true), "{name}: {}", tool.name);
        }
        client.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn read_only_in_process_publishes_exactly_the_read_only_tools() {
    let root = tempfile::tempdir().expect("a temporary directory");
    let workspace = Workspace::open(root.path()).expect("opens");
    let client = connect(
        mcp_workspace::server(workspace, true),
        Revision::V2025_11_25,
    )
    .await
    .expect("connected");
    let names: Vec<String> = client
        .list_tools(None)
        .await
        .expect("tools/list")
        .tools
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    let expected: Vec<&str> = contract::FIXTURES
        .iter()
        .filter(|f| f.hints.read_only == Some(true))
        .map(|f| f.name)
        .collect();
    assert_eq!(names, expected);
    assert!(
        !names
            .iter()
            .any(|n| n == "write_file" || n == "delete_path")
    );
    let refused = client
        .call_tool(CallToolRequestParams::new("delete_path"))
        .await
        .expect_err("delete_path is absent");
    assert!(refused.to_string().contains("Unknown tool"), "{refused}");
    client.cancel().await.expect("closed");
}

/// Logs go to stderr; when stderr fails (full disk, closed pipe) the server keeps serving.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_failing_log_never_takes_the_server_down() {
    let root = tempfile::tempdir().expect("a temporary directory");
    // A free port: bound, read, released, then handed to the server.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.path().as_os_str()])
        .args(["--http", &format!("127.0.0.1:{port}")])
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(full)
        .spawn()
        .expect("the server binary starts");
    let server = Running {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
        _root: root,
    };
    let url = format!("http://{}/mcp/read", server.addr);
    let mut client = None;
    for _ in 0..100 {
        if let Ok(c) = connect_http(&url, Revision::V2025_11_25).await {
            client = Some(c);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let client = client.expect("the server answers although every log write fails");
    let tools = client.list_tools(None).await.expect("tools/list").tools;
    assert_eq!(tools.len(), group("read").len());
    client.cancel().await.expect("closed");
}

/// A raw `initialize` POST to `/mcp/read` with the given `Host` header; the status code.
async fn status_with_host(addr: SocketAddr, host: &str) -> u16 {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let headers = [
        ("Host", host),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    http_request(addr, "POST", "/mcp/read", &headers, body)
        .await
        .expect("an HTTP answer")
        .status
}

#[tokio::test]
async fn only_loopback_and_the_allowed_host_names_are_served() {
    let plain = start(&[]);
    let port = plain.addr.port();
    assert_eq!(
        status_with_host(plain.addr, &format!("127.0.0.1:{port}")).await,
        200
    );
    assert_eq!(status_with_host(plain.addr, "files.internal").await, 403);
    let named = start(&["--allowed-host", "files.internal"]);
    assert_eq!(status_with_host(named.addr, "files.internal").await, 200);
    assert_eq!(
        status_with_host(named.addr, &format!("localhost:{}", named.addr.port())).await,
        200
    );
    assert_eq!(
        status_with_host(named.addr, "elsewhere.internal").await,
        403
    );
}

/// The official conformance suite's `dns-rebinding-protection`: a request whose `Host` and
/// `Origin` both name the served loopback address is served; a rebound name is refused.
#[tokio::test]
async fn the_server_own_loopback_origin_is_served_and_a_rebound_one_refused() {
    let server = start(&[]);
    let port = server.addr.port();
    let status = |host: String| async move {
        let origin = format!("http://{host}");
        let headers = [
            ("Host", host.as_str()),
            ("Origin", origin.as_str()),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
        http_request(server.addr, "POST", "/mcp/read", &headers, body)
            .await
            .expect("an HTTP answer")
            .status
    };
    assert_eq!(status(format!("127.0.0.1:{port}")).await, 200);
    assert_eq!(status(format!("localhost:{port}")).await, 200);
    assert_eq!(status("evil.example.com".to_owned()).await, 403);
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_parse_error() {
    // Stateless on 2025-11-25 too, so these raw requests need no `initialize` first: with
    // sessions, a request without `Mcp-Session-Id` is a plain 400 (`confirm_http.rs`).
    let server = start(&["--sessions", "0"]);
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    for (body, code) in [
        (r#"{"jsonrpc":"2.0","id":4,"method":"tools/li"#, -32700),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"\ud800"}}}"#,
            -32700,
        ),
        (
            r#"[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]"#,
            -32600,
        ),
    ] {
        let refused = http_request(server.addr, "POST", "/mcp/read", &headers, body)
            .await
            .expect("an HTTP answer");
        assert_eq!(refused.status, 400, "{body}: {refused:?}");
        let answer = refused.json().expect("a JSON-RPC error");
        assert_eq!(answer["error"]["code"], json!(code), "{body}: {answer}");
    }
    let arguments = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                           "params": {"name": "read_file", "arguments": [1, 2]}});
    let answered = http_request(
        server.addr,
        "POST",
        "/mcp/read",
        &headers,
        arguments.to_string(),
    )
    .await
    .expect("an HTTP answer");
    let answer = answered.json().expect("a JSON-RPC error");
    assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
}
