//! The built binary's authorization: beyond loopback it serves nobody unprotected unless told
//! to; with `--auth-issuer` each group's route needs a token of that issuer with the group's
//! scope, and the official MCP Python SDK connects with one on both revisions.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_contract::testing::auth::TestIssuer;
use mcp_contract::testing::{RawResponse, http_request};
use serde_json::{Value, json};

mod prerequisite;
#[path = "support/python.rs"]
mod python;

use python::python_sdk;

/// The binary serving `root` with `args`, logging at info to a piped stderr.
fn spawn(root: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.as_os_str()])
        .args(args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts")
}

/// Runs the binary with `args` for at most a few seconds: whether it exited, and its log.
fn run(args: &[&str]) -> (Option<std::process::ExitStatus>, String) {
    let root = tempfile::tempdir().expect("a temporary directory");
    let mut child = spawn(root.path(), args);
    let stderr = child.stderr.take().expect("stderr");
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut log = String::new();
    while let Ok(line) = received.recv_timeout(Duration::from_secs(10)) {
        log.push_str(&line);
        log.push('\n');
        if line.contains("listening on http://") {
            break;
        }
    }
    if !log.contains("listening on http://") {
        // Its log ended without serving: it is exiting.
        return (Some(child.wait().expect("a status")), log);
    }
    let exited = child.try_wait().expect("a status");
    let _ = child.kill();
    let _ = child.wait();
    (exited, log)
}

#[test]
fn beyond_loopback_it_refuses_to_serve_without_authorization() {
    let (exited, log) = run(&["--http", "0.0.0.0:0"]);
    let status = exited.expect("the server exits at once");
    assert!(!status.success(), "{log}");
    assert!(
        log.contains("refusing to serve 0.0.0.0:0 without authorization")
            && log.contains("--auth-issuer URL --resource URL")
            && log.contains("--unprotected"),
        "{log}"
    );
}

#[test]
fn beyond_loopback_it_serves_unprotected_when_told_to() {
    let (exited, log) = run(&["--http", "0.0.0.0:0", "--unprotected"]);
    assert!(exited.is_none(), "it keeps serving: {log}");
    assert!(log.contains("listening on http://0.0.0.0:"), "{log}");
}

#[test]
fn on_loopback_it_serves_without_authorization() {
    let (exited, log) = run(&["--http", "127.0.0.1:0"]);
    assert!(exited.is_none(), "it keeps serving: {log}");
}

/// The server binary serving HTTP with authorization by `issuer` on a free loopback port,
/// its resource identifier `http://ADDR`; killed when dropped.
struct Protected {
    child: Child,
    addr: SocketAddr,
    _root: tempfile::TempDir,
}

impl Drop for Protected {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Protected {
    fn start(issuer: &TestIssuer, extra: &[&str]) -> Protected {
        let root = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(root.path().join("notes.txt"), "hello\n").expect("written");
        // A free port: bound, read, released, then handed to the server, whose resource
        // identifier names it.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port");
        let (http, resource) = (addr.to_string(), format!("http://{addr}"));
        let mut args = vec!["--http", &http, "--auth-issuer", issuer.issuer()];
        args.extend(["--resource", &resource]);
        args.extend_from_slice(extra);
        let mut child = spawn(root.path(), &args);
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let listening = lines
            .by_ref()
            .map_while(Result::ok)
            .any(|line| line.contains("listening on http://"));
        assert!(listening, "the server did not start");
        std::thread::spawn(move || lines.for_each(drop));
        Protected {
            child,
            addr,
            _root: root,
        }
    }

    /// The resource URI of `route`, the audience a client asks its token for.
    fn resource(&self, route: &str) -> String {
        format!("http://{}{route}", self.addr)
    }

    /// A 2026-07-28 `tools/list` on `route` with `headers`.
    async fn list(&self, route: &str, headers: &[(&str, &str)]) -> RawResponse {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
            "_meta": mcp_contract::testing::request_meta()
        }});
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ];
        all.extend_from_slice(headers);
        http_request(self.addr, "POST", route, &all, body.to_string())
            .await
            .expect("an answer")
    }
}

fn tool_names(response: &RawResponse) -> Vec<String> {
    let answer = response.json().expect("a JSON answer");
    let tools = answer["result"]["tools"].as_array().cloned();
    tools
        .unwrap_or_else(|| panic!("no tools in {answer}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_group_route_needs_a_token_with_its_groups_scope() {
    let issuer = TestIssuer::start().await;
    let server = Protected::start(&issuer, &[]);
    let read = server.resource("/mcp/read");

    let refused = server.list("/mcp/read", &[]).await;
    assert_eq!(refused.status, 401, "{refused:?}");
    let challenge = refused.header("www-authenticate").unwrap_or_default();
    let metadata_url = format!(
        "http://{}/.well-known/oauth-protected-resource/mcp/read",
        server.addr
    );
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata_url}\""))
            && challenge.contains("scope=\"files:read\""),
        "{challenge}"
    );
    let metadata = http_request(
        server.addr,
        "GET",
        "/.well-known/oauth-protected-resource/mcp/read",
        &[],
        "",
    )
    .await
    .expect("an answer")
    .json()
    .expect("JSON");
    assert_eq!(metadata["resource"], read.as_str());
    assert_eq!(metadata["authorization_servers"], json!([issuer.issuer()]));
    assert_eq!(
        metadata["scopes_supported"],
        json!(["files:read", "files:edit"])
    );

    let reader = issuer.token().audience(&read).scope("files:read").sign();
    let bearer = format!("Bearer {reader}");
    let listed = server
        .list("/mcp/read", &[("Authorization", &bearer)])
        .await;
    assert_eq!(listed.status, 200, "{listed:?}");
    assert!(tool_names(&listed).contains(&"read_file".to_owned()));
    let answer = listed.json().expect("JSON");
    assert_eq!(answer["result"]["cacheScope"], "private", "{answer}");

    // The edit route is another resource: a reader's token for it lacks its scope.
    let edit = server.resource("/mcp/edit");
    let for_edit = issuer.token().audience(&edit).scope("files:read").sign();
    let bearer = format!("Bearer {for_edit}");
    let refused = server
        .list("/mcp/edit", &[("Authorization", &bearer)])
        .await;
    assert_eq!(refused.status, 403, "{refused:?}");
    let challenge = refused.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.contains("error=\"insufficient_scope\"")
            && challenge.contains("scope=\"files:edit\""),
        "{challenge}"
    );
    let editor = issuer.token().audience(&edit).scope("files:edit").sign();
    let bearer = format!("Bearer {editor}");
    let listed = server
        .list("/mcp/edit", &[("Authorization", &bearer)])
        .await;
    assert!(
        tool_names(&listed).contains(&"write_file".to_owned()),
        "{listed:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_answers_429_with_retry_after() {
    let issuer = TestIssuer::start().await;
    let server = Protected::start(&issuer, &["--rate-limit", "2"]);
    let read = server.resource("/mcp/read");
    let token = issuer.token().audience(&read).scope("files:read").sign();
    let bearer = format!("Bearer {token}");
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let answer = server
            .list("/mcp/read", &[("Authorization", &bearer)])
            .await;
        statuses.push((
            answer.status,
            answer.header("retry-after").map(str::to_owned),
        ));
    }
    assert_eq!(statuses[..2], [(200, None), (200, None)], "{statuses:?}");
    let (status, retry) = &statuses[2];
    assert_eq!(*status, 429, "{statuses:?}");
    let seconds: u64 = retry
        .as_deref()
        .unwrap_or("")
        .parse()
        .expect("whole seconds");
    assert!((1..=60).contains(&seconds), "{seconds}");
}

/// Runs `tests/clients/python_sdk.py` against `url` with `token` on `revision`: its one JSON
/// line.
async fn python_client(python: &Path, url: String, token: String, revision: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/python_sdk.py");
    let python = python.to_owned();
    let revision = revision.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(python)
            .arg(script)
            .args([url, token, revision])
            .output()
            .expect("the Python client runs")
    })
    .await
    .expect("the client finished");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|_| {
        panic!(
            "not one JSON line: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_connects_with_a_bearer_token_on_both_revisions() {
    let python = python_sdk();
    let issuer = TestIssuer::start().await;
    let server = Protected::start(&issuer, &[]);
    let url = server.resource("/mcp/read");
    let token = issuer.token().audience(&url).scope("files:read").sign();
    for revision in ["2025-11-25", "2026-07-28"] {
        let answer = python_client(&python, url.clone(), token.clone(), revision).await;
        let tools = answer["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"));
        assert!(tools.contains(&json!("read_file")), "{revision}: {answer}");
        assert_eq!(answer["read"]["content"], "hello\n", "{revision}: {answer}");
        let refused = python_client(&python, url.clone(), String::new(), revision).await;
        assert!(refused["error"].is_string(), "{revision}: {refused}");
        assert_eq!(refused["statuses"], json!([401]), "{revision}: {refused}");
    }
}
