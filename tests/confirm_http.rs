//! `delete_path`'s confirmation over the built binary's HTTP routes (`--http`): a 2025-11-25
//! client holds a session (`--sessions`), so the question travels on the call's event stream
//! and its answer comes back as another POST; a 2026-07-28 client answers in two stateless
//! rounds. Accepted, it deletes; declined, cancelled or unticked, nothing is deleted
//! (`not_confirmed`). Without sessions a 2025-11-25 client cannot be asked, and deletes as
//! the tool's description says.

mod support;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_contract::rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation,
};
use mcp_contract::rmcp::service::{RequestContext, RunningService};
use mcp_contract::rmcp::transport::StreamableHttpClientTransport;
use mcp_contract::rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt as _};
use mcp_contract::testing::http_request;
use serde_json::{Value, json};
use support::{Fixture, HttpServer};

/// The binary serving HTTP on a free loopback port for `fixture`; killed when dropped.
fn start(fixture: &Fixture, extra: &[&str]) -> HttpServer {
    HttpServer::start(&fixture.root, extra)
}

fn fixture() -> Fixture {
    Fixture::with(&[("notes/a.md", b"a\n"), ("notes/deep/b.md", b"b\n")])
}

fn recursive() -> Value {
    json!({"path": "notes", "recursive": true})
}

/// The error code of a tool result, or `None` when it succeeded.
fn error_code(result: &Value) -> Option<String> {
    if result["isError"] != true {
        return None;
    }
    let text = result["content"][0]["text"].as_str()?;
    let envelope: Value = serde_json::from_str(text).ok()?;
    envelope["errors"][0]["code"].as_str().map(str::to_owned)
}

// ---------------------------------------------------------------------------------------
// 2025-11-25: an rmcp client in a session, answering the server's request.

/// A 2025-11-25 client that can elicit and answers with `answer`; it records each question's
/// message, and whether the files were still there when it was asked.
#[derive(Clone)]
struct Confirmer {
    answer: ElicitResult,
    watched: std::path::PathBuf,
    asked: Arc<Mutex<Vec<(String, bool)>>>,
}

impl ClientHandler for Confirmer {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).expect("capabilities");
        ClientConfig::new(capabilities, Implementation::new("confirmer", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Err(ErrorData::invalid_params("a form", None));
        };
        let untouched = self.watched.exists();
        self.asked.lock().unwrap().push((message, untouched));
        Ok(self.answer.clone())
    }
}

async fn connect(
    server: &HttpServer,
    confirmer: Confirmer,
) -> RunningService<RoleClient, Confirmer> {
    let url = format!("http://{}/mcp/edit", server.addr);
    confirmer
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("initialized over HTTP")
}

/// `delete_path` on `notes`, recursively, by a 2025-11-25 client over HTTP answering
/// `answer`; the result, and the questions it was asked.
async fn call_2025(
    fixture: &Fixture,
    flags: &[&str],
    answer: ElicitResult,
) -> (Value, Vec<(String, bool)>) {
    let server = start(fixture, flags);
    let confirmer = Confirmer {
        answer,
        watched: fixture.root.join("notes/deep/b.md"),
        asked: Arc::default(),
    };
    let asked = Arc::clone(&confirmer.asked);
    let client = connect(&server, confirmer).await;
    let Value::Object(arguments) = recursive() else {
        unreachable!()
    };
    let call = CallToolRequestParams::new("delete_path").with_arguments(arguments);
    let result = tokio::time::timeout(Duration::from_secs(30), client.call_tool(call))
        .await
        .expect("an answer in time")
        .expect("a result");
    let _ = client.cancel().await;
    let asked = asked.lock().unwrap().clone();
    (serde_json::to_value(result).expect("JSON"), asked)
}

fn accept(confirm: bool) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": confirm}))
}

const QUESTION: &str = "Delete `notes` and everything under it?";

#[tokio::test]
async fn on_2025_11_25_over_http_an_accepted_confirmation_deletes() {
    let fixture = fixture();
    let (done, asked) = call_2025(&fixture, &[], accept(true)).await;
    assert_eq!(
        asked,
        [(QUESTION.to_owned(), true)],
        "asked once, before deleting"
    );
    assert_eq!(error_code(&done), None, "{done}");
    assert_eq!(done["structuredContent"]["kind"], "directory", "{done}");
    assert!(!fixture.root.join("notes").exists());
}

#[tokio::test]
async fn on_2025_11_25_over_http_declined_cancelled_or_unticked_keeps_the_files() {
    for answer in [
        ElicitResult::new(ElicitationAction::Decline),
        ElicitResult::new(ElicitationAction::Cancel),
        accept(false),
    ] {
        let fixture = fixture();
        let (done, asked) = call_2025(&fixture, &[], answer.clone()).await;
        assert_eq!(asked.len(), 1, "{answer:?}");
        assert_eq!(
            error_code(&done).as_deref(),
            Some("not_confirmed"),
            "{answer:?}: {done}"
        );
        assert!(fixture.root.join("notes/deep/b.md").exists(), "{answer:?}");
    }
}

#[tokio::test]
async fn on_2025_11_25_a_request_outside_a_session_is_refused() {
    let fixture = fixture();
    let server = start(&fixture, &[]);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let refused = http_request(server.addr, "POST", "/mcp/edit", &headers, body.to_string())
        .await
        .expect("an HTTP answer");
    assert_eq!(refused.status, 400, "{refused:?}");
}

#[tokio::test]
async fn on_2025_11_25_over_http_without_sessions_the_client_cannot_be_asked() {
    let fixture = fixture();
    let (done, asked) = call_2025(&fixture, &["--sessions", "0"], accept(false)).await;
    assert_eq!(asked, [], "no session, no question");
    assert_eq!(error_code(&done), None, "{done}");
    assert!(!fixture.root.join("notes").exists());
}

// ---------------------------------------------------------------------------------------
// 2026-07-28: stateless rounds over raw POSTs.

/// One 2026-07-28 `tools/call` of `delete_path` as a client that can elicit, with `extra`
/// params merged in; its `result`.
async fn call_2026(addr: SocketAddr, extra: Value) -> Value {
    let mut params = json!({
        "name": "delete_path",
        "arguments": recursive(),
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        },
    });
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        params[k] = v;
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = http_request(
        addr,
        "POST",
        "/mcp/edit",
        &[
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "delete_path"),
        ],
        body.to_string(),
    )
    .await
    .expect("an HTTP answer");
    assert_eq!(response.status, 200, "{}", response.body);
    assert_eq!(response.header("mcp-session-id"), None, "stateless");
    let message: Value = response.json().unwrap_or_else(|| {
        let data = (response.body.lines().rev()).find_map(|l| l.strip_prefix("data:"));
        serde_json::from_str(data.expect("a JSON or SSE body").trim()).expect("JSON")
    });
    message["result"].clone()
}

/// The question round, then `answer` in the second; the final result.
async fn two_rounds_2026(fixture: &Fixture, answer: Value) -> Value {
    let server = start(fixture, &[]);
    let asked = call_2026(server.addr, json!({})).await;
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    let question = &asked["inputRequests"]["confirm_delete"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert_eq!(question["params"]["message"], QUESTION);
    assert!(
        fixture.root.join("notes/deep/b.md").exists(),
        "nothing is deleted before the answer"
    );
    let retry = json!({
        "inputResponses": {"confirm_delete": answer},
        "requestState": asked["requestState"],
    });
    call_2026(server.addr, retry).await
}

#[tokio::test]
async fn on_2026_07_28_over_http_two_rounds_delete_only_when_confirmed() {
    let fixture = fixture();
    let done = two_rounds_2026(
        &fixture,
        json!({"action": "accept", "content": {"confirm": true}}),
    )
    .await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(error_code(&done), None, "{done}");
    assert!(!fixture.root.join("notes").exists());

    let fixture = self::fixture();
    let done = two_rounds_2026(&fixture, json!({"action": "decline"})).await;
    assert_eq!(
        error_code(&done).as_deref(),
        Some("not_confirmed"),
        "{done}"
    );
    assert!(fixture.root.join("notes/deep/b.md").exists());
}

// ---------------------------------------------------------------------------------------
// The flag's bound.

/// A session holds no request slot while idle, nor while its client listens on its event
/// stream: more sessions than requests in flight are all served.
#[tokio::test]
async fn more_sessions_than_requests_in_flight_are_all_served() {
    let fixture = fixture();
    let server = start(&fixture, &["--max-in-flight", "2", "--sessions", "8"]);
    let mut clients = Vec::new();
    for _ in 0..6 {
        let confirmer = Confirmer {
            answer: accept(true),
            watched: fixture.root.join("notes/deep/b.md"),
            asked: Arc::default(),
        };
        let connecting = tokio::time::timeout(Duration::from_secs(30), connect(&server, confirmer));
        clients.push(connecting.await.expect("connected in time"));
    }
    for client in &clients {
        let listed = tokio::time::timeout(Duration::from_secs(30), client.list_tools(None))
            .await
            .expect("an answer in time")
            .expect("the tools");
        assert!(!listed.tools.is_empty());
    }
    for client in clients {
        let _ = client.cancel().await;
    }
}
