//! Running the HTTP host in production: browser origins answered with CORS (the preflight
//! included), `/healthz` and `/readyz` beside the routes and outside their guards, and the
//! drain: calls in flight finish, new work is refused, listen streams end with their final
//! result, and tasks still running when the grace ends fail saying why.

#[path = "../../tests/prerequisite/mod.rs"]
mod prerequisite;
mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published, TaskSupport, ToolSpec,
};
use mcp_contract::http::{Bound, Host, SessionLimits};
use mcp_contract::state::{State, TaskRecord};
use mcp_contract::testing::{
    Fault, FaultyStore, Part, RawResponse, http_request, serve_on_loopback,
};
use mcp_contract::{Context, Elicitation, Server};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::sync::Notify;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"slow","description":"Works until released or cancelled.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"asks","description":"Works a moment, then asks.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

static SPEC: ContractSpec = ContractSpec {
    name: "ops",
    version: "0.1.0",
    tools: TOOLS,
    list_changed: true,
    ..ContractSpec::EMPTY
};
static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

/// What the handlers did, for the tests to see.
#[derive(Default)]
struct Seen {
    release: Notify,
    entered: AtomicUsize,
    cancelled: AtomicBool,
}

struct Handler(Arc<Seen>);

impl Dispatch for Handler {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(&self, tool: usize, _: JsonObject, cx: Context) -> BoxFuture<'_, CallToolResult> {
        let seen = Arc::clone(&self.0);
        Box::pin(async move {
            seen.entered.fetch_add(1, Ordering::SeqCst);
            let text = if tool == 0 {
                tokio::select! {
                    () = seen.release.notified() => "released".to_owned(),
                    () = cx.cancelled() => {
                        seen.cancelled.store(true, Ordering::SeqCst);
                        "cancelled".to_owned()
                    }
                }
            } else {
                tokio::time::sleep(Duration::from_millis(10)).await;
                let question = Elicitation::form(
                    "sure",
                    "Sure?",
                    json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
                );
                match cx.elicit(question).await {
                    Ok(answer) => format!("answered {}", json!(answer.accepted())),
                    Err(not) => format!("not asked: {not}"),
                }
            };
            CallToolResult::success(vec![mcp_contract::rmcp::model::ContentBlock::text(text)])
        })
    }

    fn task_support(&self, _tool: usize) -> TaskSupport {
        TaskSupport::Optional
    }

    fn has_tasks(&self) -> bool {
        true
    }
}

fn server() -> (Arc<Seen>, Server<Handler>) {
    let seen = Arc::new(Seen::default());
    (Arc::clone(&seen), Server::new(Handler(Arc::clone(&seen))))
}

/// Sends one request with exactly `headers`.
async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> RawResponse {
    http_request(addr, method, path, headers, body)
        .await
        .expect("an HTTP response")
}

/// POSTs a JSON-RPC message the way a streamable HTTP client must, with `extra` headers.
async fn post(addr: SocketAddr, extra: &[(&str, &str)], body: &str) -> RawResponse {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    send(addr, "POST", "/mcp", &headers, body).await
}

/// A 2026-07-28 `tools/call` of `tool` by a client that opted in to tasks.
fn call_body(tool: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": tool, "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":
                {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}},
        },
    }})
    .to_string()
}

/// The headers of a 2026-07-28 `tools/call` of `tool`.
fn call_headers(tool: &str) -> [(&str, &str); 3] {
    [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ]
}

/// The JSON-RPC message a response carries, as JSON or as the last event of a stream.
fn message(response: &RawResponse) -> Value {
    response.json().unwrap_or_else(|| {
        let data = response
            .body
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("data:"))
            .unwrap_or_else(|| panic!("neither JSON nor an event stream: {response:?}"));
        serde_json::from_str(data.trim()).expect("JSON")
    })
}

/// Starts a plain `tools/call` of `slow` (no task: the client did not opt in), which works
/// until the test releases it, and returns once its handler runs.
async fn slow_call_in_flight(
    addr: SocketAddr,
    seen: &Seen,
) -> tokio::task::JoinHandle<RawResponse> {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "slow", "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }})
    .to_string();
    let in_flight = tokio::spawn(async move { post(addr, &call_headers("slow"), &body).await });
    eventually("the call reached its handler", || {
        seen.entered.load(Ordering::SeqCst) == 1
    })
    .await;
    in_flight
}

/// Waits until `done` holds, for at most five seconds.
async fn eventually(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !done() {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// ---------------------------------------------------------------------------------------
// CORS

const APP: &str = "http://app.example:3000";

fn preflight<'a>(origin: &'a str, requested: &'a str) -> [(&'a str, &'a str); 3] {
    [
        ("Origin", origin),
        ("Access-Control-Request-Method", "POST"),
        ("Access-Control-Request-Headers", requested),
    ]
}

/// The comma-separated values of `name`, lowercased.
fn listed(response: &RawResponse, name: &str) -> Vec<String> {
    response
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .flat_map(|(_, v)| v.split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .filter(|v| !v.is_empty())
        .collect()
}

#[tokio::test]
async fn a_preflight_from_an_allowed_origin_is_answered_with_what_it_may_send() {
    let (_, server) = server();
    let addr = serve_on_loopback(
        Host::new()
            .mount("/mcp", server)
            .allowed_origins(["http://app.example:*"]),
    )
    .await;
    let requested = "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, \
                     last-event-id, mcp-method, mcp-name, mcp-param-region, x-tracking";
    let answered = send(addr, "OPTIONS", "/mcp", &preflight(APP, requested), "").await;
    assert_eq!(answered.status, 204, "{answered:?}");
    assert_eq!(answered.header("access-control-allow-origin"), Some(APP));
    let methods = listed(&answered, "access-control-allow-methods");
    for method in ["post", "get", "delete"] {
        assert!(methods.iter().any(|m| m == method), "{methods:?}");
    }
    let headers = listed(&answered, "access-control-allow-headers");
    let mut expected: Vec<String> = requested
        .split(',')
        .map(|h| h.trim().to_owned())
        .filter(|h| h != "x-tracking")
        .collect();
    let mut headers_sorted = headers.clone();
    headers_sorted.sort();
    expected.sort();
    assert_eq!(
        headers_sorted, expected,
        "only the requested headers a client of MCP sends"
    );
    let max_age: u64 = answered
        .header("access-control-max-age")
        .and_then(|a| a.parse().ok())
        .expect("a max age");
    assert!(max_age > 0, "{max_age}");
    assert!(
        listed(&answered, "vary").iter().any(|v| v == "origin"),
        "{answered:?}"
    );
    assert_eq!(answered.header("access-control-allow-credentials"), None);
}

#[tokio::test]
async fn a_preflight_from_any_other_origin_is_refused() {
    let (_, server) = server();
    let open = serve_on_loopback(Host::new().mount("/mcp", server.clone())).await;
    let allowing = serve_on_loopback(
        Host::new()
            .mount("/mcp", server)
            .allowed_origins(["https://app.example", "http://localhost:8080"]),
    )
    .await;
    for (addr, origin) in [
        (open, APP),
        (allowing, "http://evil.example"),
        // Not the scheme, not the port (an origin without a port is its scheme's default).
        (allowing, "http://app.example"),
        (allowing, "https://app.example:8443"),
        (allowing, "http://localhost:8081"),
        (allowing, "https://app.example.evil"),
    ] {
        let refused = send(
            addr,
            "OPTIONS",
            "/mcp",
            &preflight(origin, "content-type"),
            "",
        )
        .await;
        assert_eq!(refused.status, 403, "{origin}: {refused:?}");
        assert_eq!(
            refused.header("access-control-allow-origin"),
            None,
            "{origin}"
        );
    }
    for origin in [
        "https://app.example",
        "https://APP.example:443",
        "http://localhost:8080",
    ] {
        let answered = send(allowing, "OPTIONS", "/mcp", &preflight(origin, ""), "").await;
        assert_eq!(answered.status, 204, "{origin}: {answered:?}");
        assert_eq!(answered.header("access-control-allow-origin"), Some(origin));
    }
}

#[tokio::test]
async fn an_allowed_origin_reads_the_answers_and_their_headers() {
    let (_, server) = server();
    let addr = serve_on_loopback(
        Host::new()
            .mount("/mcp", server)
            .allowed_origins(["http://app.example:*"])
            .sessions(SessionLimits::default()),
    )
    .await;
    let answered = post(addr, &[("Origin", APP)], INITIALIZE).await;
    assert_eq!(answered.status, 200, "{answered:?}");
    assert_eq!(answered.header("access-control-allow-origin"), Some(APP));
    assert!(answered.header("mcp-session-id").is_some(), "{answered:?}");
    let exposed = listed(&answered, "access-control-expose-headers");
    for header in ["mcp-session-id", "www-authenticate", "retry-after"] {
        assert!(exposed.iter().any(|e| e == header), "{header}: {exposed:?}");
    }
    assert!(
        listed(&answered, "vary").iter().any(|v| v == "origin"),
        "{answered:?}"
    );
    // A path nothing is mounted at is still a 404 the page may read.
    let missing = send(addr, "POST", "/nothing", &[("Origin", APP)], "{}").await;
    assert_eq!(missing.status, 404, "{missing:?}");
    assert_eq!(missing.header("access-control-allow-origin"), Some(APP));
    // No Origin, no browser: nothing to allow.
    let plain = post(addr, &[], INITIALIZE).await;
    assert_eq!(plain.status, 200, "{plain:?}");
    assert_eq!(plain.header("access-control-allow-origin"), None);
    // Another origin's request is refused, and not told it may read anything.
    let other = post(addr, &[("Origin", "http://evil.example")], INITIALIZE).await;
    assert_eq!(other.status, 403, "{other:?}");
    assert_eq!(other.header("access-control-allow-origin"), None);
}

#[test]
fn an_allowed_origin_that_is_no_origin_is_refused_where_it_is_named() {
    for bad in [
        "*",
        "app.example",
        "https://app.example/path",
        "https://user@app.example",
        "",
    ] {
        let (_, server) = server();
        let error = Host::new()
            .mount("/mcp", server)
            .allowed_origins([bad])
            .into_router()
            .expect_err("not an origin");
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{bad}");
        assert!(
            error.to_string().contains(&format!("`{bad}`")) && error.to_string().contains("origin"),
            "{bad}: {error}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Health

#[tokio::test]
async fn health_and_readiness_are_served_beside_the_routes() {
    let (_, server) = server();
    let addr = serve_on_loopback(Host::new().mount("/mcp", server).health()).await;
    // A load balancer probes by address, whatever Host names it.
    for host in [addr.to_string(), "10.0.0.7:8080".to_owned()] {
        for path in ["/healthz", "/readyz"] {
            let answered = send(addr, "GET", path, &[("Host", &host)], "").await;
            assert_eq!(answered.status, 200, "{path} via {host}: {answered:?}");
        }
    }
    let posted = send(addr, "POST", "/healthz", &[], "").await;
    assert_eq!(posted.status, 405, "{posted:?}");
    assert_eq!(posted.header("allow"), Some("GET, HEAD"));
    // The route is served as before; other paths stay 404.
    assert_eq!(post(addr, &[], INITIALIZE).await.status, 200);
    assert_eq!(send(addr, "GET", "/healthz/x", &[], "").await.status, 404);
    // Without `health`, nothing is served there.
    let (_, other) = self::server();
    let bare = serve_on_loopback(Host::new().mount("/mcp", other)).await;
    assert_eq!(send(bare, "GET", "/healthz", &[], "").await.status, 404);
}

#[test]
fn a_route_at_a_health_path_is_refused() {
    for path in ["/healthz", "/readyz"] {
        let (_, server) = server();
        let error = Host::new()
            .mount(path, server)
            .health()
            .into_router()
            .expect_err("a route where health is served");
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(
            error.to_string().contains(&format!("`{path}`"))
                && error.to_string().contains("Host::health"),
            "{error}"
        );
    }
}

#[tokio::test]
async fn readiness_fails_while_the_store_does_not_answer() {
    for fault in [Fault::Refuse, Fault::Hang] {
        let (_, server) = server();
        let failing = FaultyStore::new();
        failing.breaks(Part::Keys, fault);
        let server = server.state(State::new(failing));
        let addr = serve_on_loopback(Host::new().mount("/mcp", server).health()).await;
        let started = Instant::now();
        let ready = send(addr, "GET", "/readyz", &[], "").await;
        assert_eq!(ready.status, 503, "{fault:?}: {ready:?}");
        assert!(ready.body.contains("state store"), "{ready:?}");
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "answered within its timeout"
        );
        // Alive all the same: restarting it would not bring the store back.
        assert_eq!(send(addr, "GET", "/healthz", &[], "").await.status, 200);
    }
}

#[cfg(feature = "auth")]
#[tokio::test]
async fn health_is_served_outside_the_rate_limit_and_the_authorization() {
    use mcp_contract::auth::{Authorization, RateLimit};

    let (_, server) = server();
    let limited = serve_on_loopback(
        Host::new()
            .mount("/mcp", server.clone())
            .health()
            .rate_limit(RateLimit::new(1, Duration::from_secs(60))),
    )
    .await;
    assert_eq!(post(limited, &[], INITIALIZE).await.status, 200);
    assert_eq!(post(limited, &[], INITIALIZE).await.status, 429);
    for _ in 0..5 {
        assert_eq!(send(limited, "GET", "/healthz", &[], "").await.status, 200);
        assert_eq!(send(limited, "GET", "/readyz", &[], "").await.status, 200);
    }
    let protected = serve_on_loopback(
        Host::new().mount("/mcp", server).health().authorization(
            Authorization::new()
                .issuer("https://issuer.example")
                .resource("https://mcp.example")
                .jwks("https://issuer.example/jwks"),
        ),
    )
    .await;
    assert_eq!(post(protected, &[], INITIALIZE).await.status, 401);
    assert_eq!(send(protected, "GET", "/readyz", &[], "").await.status, 200);
}

// ---------------------------------------------------------------------------------------
// Draining

/// `host` bound on loopback, served until the returned sender fires.
async fn serve_stoppable(
    host: Host,
) -> (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let bound: Bound = host
        .bind("127.0.0.1:0".parse().expect("an address"))
        .await
        .expect("binds");
    let addr = bound.local_addr().expect("bound");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(bound.serve_until(async {
        let _ = stopped.await;
    }));
    (addr, stop, serving)
}

/// Waits until nothing accepts connections at `addr`.
async fn refused(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        assert!(Instant::now() < deadline, "still accepting connections");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_drain_finishes_the_calls_in_flight_and_accepts_nothing_new() {
    let (seen, server) = server();
    let host = Host::new()
        .mount("/mcp", server)
        .health()
        .grace_period(Duration::from_secs(20));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let in_flight = slow_call_in_flight(addr, &seen).await;
    let began = Instant::now();
    stop.send(()).expect("still serving");
    refused(addr).await;
    assert!(!serving.is_finished(), "the call in flight is still served");
    seen.release.notify_one();
    let answered = in_flight.await.expect("no panic");
    assert_eq!(answered.status, 200, "{answered:?}");
    let text = &message(&answered)["result"]["content"][0]["text"];
    assert_eq!(text, "released", "{answered:?}");
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("stops once nothing is in flight, well within the grace")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "{:?}",
        began.elapsed()
    );
    assert!(
        !seen.cancelled.load(Ordering::SeqCst),
        "the call was not cut short"
    );
}

/// `SIGTERM` to this very process, as an orchestrator sends it: the host listening with
/// `stop_signal` catches it, so the test process lives on.
#[tokio::test]
async fn sigterm_drains_a_host_and_the_slow_call_in_flight_is_answered() {
    let (seen, server) = server();
    let bound = Host::new()
        .mount("/mcp", server)
        .grace_period(Duration::from_secs(20))
        .bind("127.0.0.1:0".parse().expect("an address"))
        .await
        .expect("binds");
    let addr = bound.local_addr().expect("bound");
    let serving = tokio::spawn(bound.serve_until(mcp_contract::http::stop_signal()));
    let in_flight = slow_call_in_flight(addr, &seen).await;
    prerequisite::require("bash");
    let sent = std::process::Command::new("bash")
        .args(["-c", &format!("kill -TERM {}", std::process::id())])
        .status()
        .expect("bash runs");
    assert!(sent.success());
    refused(addr).await;
    assert!(!serving.is_finished(), "the call in flight is still served");
    seen.release.notify_one();
    let answered = in_flight.await.expect("no panic");
    assert_eq!(answered.status, 200, "{answered:?}");
    assert_eq!(
        message(&answered)["result"]["content"][0]["text"],
        "released",
        "{answered:?}"
    );
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("stops once nothing is in flight")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
}

#[tokio::test]
async fn a_connection_open_when_the_drain_begins_runs_nothing_new() {
    // A connection accepted before the drain, whose request is read after it began.
    let (seen, server) = server();
    let host = Host::new()
        .mount("/mcp", server)
        .grace_period(Duration::from_secs(20));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let body = call_body("slow");
    let in_flight = tokio::spawn({
        let body = body.clone();
        async move { post(addr, &call_headers("slow"), &body).await }
    });
    eventually("the call reached its handler", || {
        seen.entered.load(Ordering::SeqCst) == 1
    })
    .await;
    let mut early = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    // Let the host accept it before the drain begins.
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.send(()).expect("still serving");
    refused(addr).await;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: slow\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // Either the idle connection was closed, or its request is refused; never served.
    let _ = early.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), early.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 503"),
        "{answer}"
    );
    assert_eq!(
        seen.entered.load(Ordering::SeqCst),
        1,
        "nothing new was run"
    );
    seen.release.notify_one();
    let _ = in_flight.await;
    let _ = tokio::time::timeout(Duration::from_secs(5), serving).await;
}

#[tokio::test]
async fn a_drain_ends_listen_streams_with_their_final_result() {
    let (_, server) = server();
    let host = Host::new()
        .mount("/mcp", server)
        .grace_period(Duration::from_secs(20));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let params = json!({
        "_meta": mcp_contract::testing::request_meta(),
        "notifications": {"toolsListChanged": true},
    });
    let body =
        json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": params})
            .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut heard = String::new();
    let mut buffer = [0u8; 4096];
    while !heard.contains("notifications/subscriptions/acknowledged") {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
            .await
            .expect("acknowledged in time")
            .expect("read");
        assert!(n > 0, "closed before the acknowledgment: {heard}");
        heard.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    let began = Instant::now();
    stop.send(()).expect("still serving");
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .expect("the stream ends with the drain, not the grace")
        .expect("read");
    let rest = String::from_utf8_lossy(&rest);
    let last = rest
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data:"))
        .unwrap_or_else(|| panic!("no final message: {rest}"));
    let last: Value = serde_json::from_str(last.trim()).expect("JSON");
    assert_eq!(last["id"], 7, "{last}");
    assert_eq!(last["result"]["resultType"], "complete", "{last}");
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("stops")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(began.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn a_drain_ends_a_session_stream() {
    let (_, server) = server();
    let host = Host::new()
        .mount("/mcp", server)
        .sessions(SessionLimits::default())
        .grace_period(Duration::from_secs(20));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let opened = post(addr, &[], INITIALIZE).await;
    let session = opened
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    assert_eq!(post(addr, &headers, initialized).await.status, 202);
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\
         Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n"
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut buffer = [0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
        .await
        .expect("the stream opens")
        .expect("read");
    let head = String::from_utf8_lossy(&buffer[..n]);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let began = Instant::now();
    stop.send(()).expect("still serving");
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
        .await
        .expect("the stream ends with the drain, not the grace")
        .expect("read");
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("stops")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(began.elapsed() < Duration::from_secs(10));
}

/// A task's status, by its wire name.
fn status(record: &TaskRecord) -> String {
    serde_json::to_value(record.task.task.status)
        .ok()
        .and_then(|s| s.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Reads the record of task `id` from `state` until `done` holds.
async fn record_when(state: &State, id: &str, done: impl Fn(&TaskRecord) -> bool) -> TaskRecord {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let record = state
            .store()
            .task(id)
            .await
            .expect("the store answers")
            .expect("the task is kept")
            .value;
        if done(&record) {
            return record;
        }
        assert!(Instant::now() < deadline, "never: {record:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_task_still_running_when_the_grace_ends_fails_saying_the_server_stopped() {
    let state = State::default();
    let (seen, server) = server();
    let host = Host::new()
        .mount("/mcp", server.state(state.clone()))
        .grace_period(Duration::from_millis(300));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let created = message(&post(addr, &call_headers("slow"), &call_body("slow")).await);
    let id = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_owned();
    let held = record_when(&state, &id, |r| r.lease.is_some()).await;
    assert_eq!(status(&held), "working");
    let began = Instant::now();
    stop.send(()).expect("still serving");
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("stops once the grace is over")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    let took = began.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "the handler had its grace, no more: {took:?}"
    );
    let stopped = record_when(&state, &id, |r| !r.is_live()).await;
    let task = serde_json::to_value(&stopped.task).expect("JSON");
    assert_eq!(task["status"], "failed", "{task}");
    let said = task["statusMessage"].as_str().unwrap_or_default();
    assert!(said.contains("stopped"), "{task}");
    assert_eq!(stopped.lease, None, "its lease is released");
    assert!(
        seen.cancelled.load(Ordering::SeqCst),
        "its handler was told"
    );
}

#[tokio::test]
async fn a_task_waiting_for_its_client_holds_no_lease_and_keeps_its_status_through_a_drain() {
    let state = State::default();
    let (_, server) = server();
    let host = Host::new()
        .mount("/mcp", server.state(state.clone()))
        .grace_period(Duration::from_secs(20));
    let (addr, stop, serving) = serve_stoppable(host).await;
    let created = message(&post(addr, &call_headers("asks"), &call_body("asks")).await);
    let id = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_owned();
    let asking = record_when(&state, &id, |r| status(r) == "input_required").await;
    // Its handler does not run: no server holds it, whichever receives the answers reruns it.
    assert!(asking.lease.is_none(), "{asking:?}");
    let began = Instant::now();
    stop.send(()).expect("still serving");
    let ended = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("nothing runs: stops at once")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    let released = record_when(&state, &id, |r| r.lease.is_none()).await;
    assert_eq!(status(&released), "input_required");
    assert_eq!(released.task, asking.task, "nothing else changed");
}
