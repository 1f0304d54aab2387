//! 2025-11-25 sessions over HTTP: a session is its record in the server's state, so any server
//! sharing the state serves it, a worker closed when idle is made again on the next request,
//! and the bound, `DELETE` and the client's answers are answered as the transport says.
//!
//! Two servers sharing one [`State`] stand for two processes sharing a store; a small load
//! balancer in front of them sends each request where the test says.

#![allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); 2025-11-25 has it.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use mcp_contract::codegen::{
    AccessSpec, ArgumentCodes, BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject,
    Published, ResourceSpec, ToolSpec,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation, LoggingLevel, LoggingMessageNotificationParam,
    ResourceUpdatedNotificationParam, SetLevelRequestParams, SubscribeRequestParams,
};
use mcp_contract::rmcp::service::{NotificationContext, RequestContext, RunningService};
use mcp_contract::rmcp::transport::StreamableHttpClientTransport;
use mcp_contract::rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt as _};
use mcp_contract::state::State;
use mcp_contract::testing::{
    Fault, FaultyStore, Part, RawResponse, http_request, open_session_2025, post_2025,
    serve_on_loopback,
};
use mcp_contract::{Context, Elicitation, Server};
use serde_json::{Value, json};

const NOTE: &str = "x:///note";

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"greet","description":"Logs at debug and info, then greets.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"confirm","description":"Asks the user to confirm.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

static SPEC: LazyLock<ContractSpec> = LazyLock::new(|| ContractSpec {
    name: "sessions",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[ResourceSpec {
        name: "note",
        title: "Note",
        description: "A note.",
        mime_type: "text/plain",
        uri: NOTE,
        template: false,
        subscribe: true,
        completions: &[],
        icons: &[],
        scopes: &[],
        meta: None,
        app: None,
    }],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[],
    argument_codes: ArgumentCodes::DEFAULT,
    logging: true,
    list_changed: false,
    prompts: &[],
    access: AccessSpec::OPEN,
});
static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

struct Handler;

impl Dispatch for Handler {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(
        &self,
        tool: usize,
        _arguments: JsonObject,
        cx: Context,
    ) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async move {
            if tool == 0 {
                cx.debug("d").await;
                cx.info("i").await;
                return CallToolResult::structured(json!({"greeted": true}));
            }
            let question = Elicitation::form(
                "confirm",
                "Sure?",
                json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
            );
            let answer = cx.elicit(question).await;
            let ok = matches!(&answer, Ok(mcp_contract::Answer::Accept(c)) if c["ok"] == true);
            CallToolResult::structured(json!({"confirmed": ok}))
        })
    }
}

fn server(state: &State) -> Server<Handler> {
    Server::new(Handler).state(state.clone())
}

async fn serve(server: Server<Handler>, limits: SessionLimits) -> SocketAddr {
    serve_on_loopback(Host::new().mount("/mcp", server).sessions(limits)).await
}

/// A 2025-11-25 POST of `body` to `addr`, in `session` if given.
async fn post(addr: SocketAddr, session: Option<&str>, body: Value) -> RawResponse {
    post_2025(addr, "/mcp", session, &body)
        .await
        .expect("an HTTP answer")
}

fn initialize_body(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": initialize_params()})
}

fn initialize_params() -> Value {
    json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}})
}

/// Opens a session on `addr`: `initialize`, then `notifications/initialized`.
async fn open(addr: SocketAddr) -> String {
    open_session_2025(addr, "/mcp", initialize_params())
        .await
        .expect("a session")
}

/// Calls `greet` in `session` on `addr`; the result's structured content.
async fn greet(addr: SocketAddr, session: &str) -> Value {
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "greet", "arguments": {}}});
    let answer = post(addr, Some(session), call).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let last = answer.messages().pop().expect("an answer");
    assert_eq!(last["id"], 7, "{last}");
    last["result"]["structuredContent"].clone()
}

async fn delete(addr: SocketAddr, session: &str) -> u16 {
    let headers = [
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    http_request(addr, "DELETE", "/mcp", &headers, String::new())
        .await
        .expect("an HTTP answer")
        .status
}

#[tokio::test]
async fn past_the_bound_initialize_is_503_with_retry_after_and_a_json_rpc_error() {
    let limits = SessionLimits {
        max: 2,
        ..SessionLimits::default()
    };
    let addr = serve(server(&State::default()), limits).await;
    let first = open(addr).await;
    open(addr).await;
    let refused = post(addr, None, initialize_body(41)).await;
    assert_eq!(refused.status, 503, "{}", refused.body);
    let wait: u64 = (refused.header("retry-after"))
        .and_then(|s| s.parse().ok())
        .expect("Retry-After in seconds");
    assert!(wait >= 1, "{wait}");
    assert_eq!(refused.header("mcp-session-id"), None, "no session");
    let error = refused.json().expect("a JSON-RPC body");
    assert_eq!(error["jsonrpc"], "2.0");
    assert_eq!(error["id"], 41, "by the request's id: {error}");
    let message = error["error"]["message"].as_str().expect("a message");
    assert!(message.contains("maximum of 2 sessions"), "{message}");
    assert!(
        !message.contains("Encounter"),
        "not rmcp's sentence: {message}"
    );

    // A session ended makes room.
    assert_eq!(delete(addr, &first).await, 204);
    let room = post(addr, None, initialize_body(42)).await;
    assert_eq!(room.status, 200, "{}", room.body);
}

/// A session's answer is an event stream written in several small pieces. On a kept-alive
/// connection, as every HTTP client keeps one, Nagle's algorithm would hold each piece after
/// the first until the client acknowledged it, which Linux delays by 40 ms: every call would
/// take 40 ms more. The host sends each piece at once (`TCP_NODELAY`).
#[tokio::test]
async fn a_kept_alive_connection_gets_each_streamed_answer_without_waiting() {
    let addr = serve(server(&State::default()), SessionLimits::default()).await;
    let session = open(addr).await;
    let client = reqwest::Client::new();
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "greet", "arguments": {}}});
    let mut took = Vec::new();
    for _ in 0..21 {
        let started = std::time::Instant::now();
        let answer = (client.post(format!("http://{addr}/mcp")))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .header("mcp-session-id", &session)
            .body(call.to_string())
            .send()
            .await
            .expect("an HTTP answer");
        assert_eq!(answer.status(), 200);
        let body = answer.text().await.expect("the whole answer");
        assert!(body.contains(r#""id":7"#), "{body}");
        took.push(started.elapsed());
    }
    took.sort();
    // The median: one slow call on a loaded machine is no delay of the host's.
    assert!(
        took[10] < Duration::from_millis(20),
        "median {:?}: {took:?}",
        took[10]
    );
}

#[tokio::test]
async fn delete_answers_204_then_404_and_an_ended_session_is_404() {
    let state = State::default();
    let addr = serve(server(&state), SessionLimits::default()).await;
    let session = open(addr).await;
    assert_eq!(greet(addr, &session).await["greeted"], true);
    assert_eq!(delete(addr, &session).await, 204);
    assert_eq!(state.store().session(&session).await, Ok(None));
    assert_eq!(delete(addr, &session).await, 404, "ended already");
    assert_eq!(delete(addr, "no-such-session").await, 404);
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    assert_eq!(post(addr, Some(&session), list).await.status, 404);
}

#[tokio::test]
async fn a_session_opened_on_one_server_is_served_by_another_sharing_the_state() {
    let state = State::default();
    let a = serve(server(&state), SessionLimits::default()).await;
    let b = serve(server(&state), SessionLimits::default()).await;
    let session = open(a).await;
    assert_eq!(greet(b, &session).await["greeted"], true, "served by B");
    assert_eq!(greet(a, &session).await["greeted"], true, "and by A");
    // Ended through B, it is gone on A too.
    assert_eq!(delete(b, &session).await, 204);
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    assert_eq!(post(a, Some(&session), list).await.status, 404);
}

/// The tasks alive in the test's runtime, once connections have closed.
async fn tasks_settled() -> usize {
    tokio::time::sleep(Duration::from_millis(150)).await;
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

#[tokio::test]
async fn an_idle_worker_is_closed_and_made_again_by_the_next_request() {
    let worker_idle = Duration::from_millis(200);
    let limits = SessionLimits {
        worker_idle,
        ..SessionLimits::default()
    };
    let addr = serve(server(&State::default()), limits).await;
    let session = open(addr).await;
    assert_eq!(greet(addr, &session).await["greeted"], true);
    let working = tasks_settled().await;
    tokio::time::sleep(worker_idle * 3).await;
    let idle = tasks_settled().await;
    assert!(
        idle + 2 <= working,
        "the idle worker's tasks end: {working} then {idle}"
    );
    assert_eq!(greet(addr, &session).await["greeted"], true, "made again");
    let again = tasks_settled().await;
    assert!(again >= idle + 2, "a worker again: {idle} then {again}");
}

// ---------------------------------------------------------------------------------------
// A real client behind a load balancer.

/// Where the balancer sends a request: to server 0 or 1, by its method and JSON body.
type Route = fn(&str, Option<&Value>) -> usize;

struct Balancer {
    servers: [SocketAddr; 2],
    route: Route,
    client: reqwest::Client,
    /// What each server was sent: the method, `answer` for a client's answer, or the HTTP
    /// method.
    sent: Mutex<Vec<(usize, String)>>,
}

async fn forward(
    axum::extract::State(balancer): axum::extract::State<Arc<Balancer>>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("a body");
    let message: Option<Value> = serde_json::from_slice(&bytes).ok();
    let to = (balancer.route)(parts.method.as_str(), message.as_ref());
    let what = match &message {
        Some(m) => m["method"]
            .as_str()
            .map_or_else(|| "answer".to_owned(), str::to_owned),
        None => parts.method.to_string(),
    };
    balancer.sent.lock().unwrap().push((to, what));
    let url = format!("http://{}{}", balancer.servers[to], parts.uri.path());
    let mut out = balancer.client.request(parts.method, url).body(bytes);
    for (name, value) in &parts.headers {
        if name != axum::http::header::HOST && name != axum::http::header::CONTENT_LENGTH {
            out = out.header(name, value);
        }
    }
    let answer = out.send().await.expect("the server answers");
    let mut response = axum::response::Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        response = response.header(name, value);
    }
    response
        .body(axum::body::Body::from_stream(answer.bytes_stream()))
        .expect("a response")
}

/// A balancer in front of `servers`, sending each request where `route` says.
async fn balance(servers: [SocketAddr; 2], route: Route) -> (SocketAddr, Arc<Balancer>) {
    let balancer = Arc::new(Balancer {
        servers,
        route,
        client: reqwest::Client::new(),
        sent: Mutex::default(),
    });
    let router = axum::Router::new()
        .fallback(forward)
        .with_state(Arc::clone(&balancer));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let addr = listener.local_addr().expect("an address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    (addr, balancer)
}

/// A client that accepts every question and notes the log messages and resource updates it
/// is told of.
#[derive(Clone, Default)]
struct Listener {
    logs: Arc<Mutex<Vec<String>>>,
    updated: Arc<Mutex<Vec<String>>>,
    asked: Arc<AtomicUsize>,
}

impl ClientHandler for Listener {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).expect("capabilities");
        ClientConfig::new(capabilities, Implementation::new("listener", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"ok": true})))
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let text = params.data.as_str().unwrap_or_default().to_owned();
        self.logs.lock().unwrap().push(text);
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.updated.lock().unwrap().push(params.uri);
    }
}

async fn connect(addr: SocketAddr, listener: Listener) -> RunningService<RoleClient, Listener> {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    listener.serve(transport).await.expect("connected")
}

async fn call(client: &RunningService<RoleClient, Listener>, name: &str) -> Value {
    let call = client.call_tool(CallToolRequestParams::new(name.to_owned()));
    let result = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("an answer in time")
        .expect("a result");
    result.structured_content.expect("structured content")
}

/// Waits until `seen` holds `n` entries, for at most 5 seconds.
async fn until(seen: &Mutex<Vec<String>>, n: usize) -> Vec<String> {
    for _ in 0..100 {
        if seen.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    seen.lock().unwrap().clone()
}

/// Two servers sharing a state, behind a balancer routing by `route`.
async fn two(route: Route) -> (SocketAddr, Arc<Balancer>, Server<Handler>) {
    let state = State::default();
    let b_server = server(&state);
    let a = serve(server(&state), SessionLimits::default()).await;
    let b = serve(b_server.clone(), SessionLimits::default()).await;
    let (addr, balancer) = balance([a, b], route).await;
    (addr, balancer, b_server)
}

#[tokio::test]
async fn an_answer_posted_to_another_server_completes_the_call_waiting_on_the_first() {
    // The client's answers go to B; everything else to A, where the call waits.
    let (addr, balancer, _) =
        two(|_, m| usize::from(m.is_some_and(|m| m.get("method").is_none()))).await;
    let listener = Listener::default();
    let asked = Arc::clone(&listener.asked);
    let client = connect(addr, listener).await;
    assert_eq!(call(&client, "confirm").await, json!({"confirmed": true}));
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let sent = balancer.sent.lock().unwrap().clone();
    assert!(
        sent.contains(&(1, "answer".to_owned())),
        "the answer went to B: {sent:?}"
    );
    assert!(
        sent.iter()
            .all(|(to, what)| (*to == 1) == (what == "answer")),
        "B saw nothing else: {sent:?}"
    );
    // Again, so that each call's question is told apart from the last.
    assert_eq!(call(&client, "confirm").await, json!({"confirmed": true}));
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_log_level_set_through_one_server_is_honoured_by_another() {
    let (addr, _, _) =
        two(|_, m| usize::from(m.is_some_and(|m| m["method"] == "logging/setLevel"))).await;
    let listener = Listener::default();
    let logs = Arc::clone(&listener.logs);
    let client = connect(addr, listener).await;
    assert_eq!(call(&client, "greet").await["greeted"], true);
    assert_eq!(until(&logs, 1).await, ["i"], "info by default");
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .expect("set through B");
    assert_eq!(call(&client, "greet").await["greeted"], true);
    assert_eq!(until(&logs, 3).await, ["i", "d", "i"], "debug, as set on B");
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_subscription_made_through_one_server_is_notified_through_another() {
    let (addr, _, b_server) =
        two(|_, m| usize::from(m.is_some_and(|m| m["method"] == "resources/subscribe"))).await;
    let listener = Listener::default();
    let updated = Arc::clone(&listener.updated);
    let client = connect(addr, listener).await;
    client
        .subscribe(SubscribeRequestParams::new(NOTE))
        .await
        .expect("subscribed through B");
    // The change is made on B; the client's stream is on A.
    b_server.resource_updated(NOTE).await;
    assert_eq!(until(&updated, 1).await, [NOTE]);
    let _ = client.cancel().await;
}

/// Asserts `answer` is a 503 with `Retry-After` and a JSON-RPC error by `id`.
fn assert_unavailable(answer: &RawResponse, id: Value, what: &str) {
    assert_eq!(answer.status, 503, "{what}: {}", answer.body);
    assert!(
        answer.header("retry-after").is_some(),
        "{what}: Retry-After"
    );
    let error = answer.json().expect("a JSON-RPC body");
    assert_eq!(error["id"], id, "{what}: {error}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("session store"), "{what}: {message}");
}

#[tokio::test]
async fn a_store_out_of_reach_is_503_never_500_and_sessions_come_back_with_it() {
    let store = FaultyStore::new();
    let state = State::new(store.clone());
    let a = serve(server(&state), SessionLimits::default()).await;
    let b = serve(server(&state), SessionLimits::default()).await;
    let session = open(a).await;
    store.breaks(Part::Sessions, Fault::Refuse);
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "greet", "arguments": {}}});
    let on_a = post(a, Some(&session), call.clone()).await;
    assert_unavailable(&on_a, json!(9), "the worker's server");
    let on_b = post(b, Some(&session), call).await;
    assert_unavailable(&on_b, json!(9), "a server restoring the session");
    let refused = post(a, None, initialize_body(3)).await;
    assert_unavailable(&refused, json!(3), "a new session");
    store.mend(Part::Sessions);
    assert_eq!(greet(b, &session).await["greeted"], true, "back on B");
    assert_eq!(greet(a, &session).await["greeted"], true, "and on A");
}
