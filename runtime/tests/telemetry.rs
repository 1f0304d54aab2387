//! The spans and metrics of `mcp_contract::telemetry`, read back from the OpenTelemetry SDK's
//! in-memory exporter and from `GET /metrics`: names, attributes and parents by the MCP
//! semantic conventions, on both revisions, over stdio and over HTTP.

use std::net::SocketAddr;
use std::sync::{LazyLock, OnceLock};

use mcp_contract::codegen::{
    AliasesSpec, BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published, ToolSpec,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::rmcp::model::{
    CallToolRequestParams, MetaObject, PaginatedRequestParams, RequestMetaObject,
};
use mcp_contract::telemetry::Telemetry;
use mcp_contract::testing::{
    RawResponse, Revision, connect, connect_http, http_request, open_session_2025, post_2025,
    serve_on_loopback,
};
use mcp_contract::{Server, ToolError};
use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SpanData};
use serde_json::{Value, json};
use tracing_subscriber::layer::SubscriberExt as _;

const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        errors: &["not_found", "forbidden"],
        ..ToolSpec::open(
            r#"{"name":"lookup","description":"Looks one item up.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}}"#,
        )
    },
    ToolSpec::open(
        r#"{"name":"idle","description":"Never called.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    // `key` is marked safe to record, `secret` is not.
    ToolSpec {
        recorded: &["key"],
        ..ToolSpec::open(
            r#"{"name":"fetch","description":"Fetches by key.","inputSchema":{"type":"object","properties":{"key":{"type":"string"},"secret":{"type":"string"}},"additionalProperties":false}}"#,
        )
    },
];

static SPEC: ContractSpec = ContractSpec {
    name: "observed",
    tools: TOOLS,
    ..ContractSpec::EMPTY
};
/// `find` is the former name of `lookup`.
static ALIASES: AliasesSpec = AliasesSpec {
    tools: &[("find", 0)],
    ..AliasesSpec::NONE
};
static PUBLISHED: LazyLock<Published> =
    LazyLock::new(|| Published::new(&SPEC).with_aliases(&ALIASES));

/// The declared error of `lookup`.
struct NotFound;

impl ToolError for NotFound {
    fn code(&self) -> &'static str {
        "not_found"
    }
    fn message(&self) -> String {
        "no such item".into()
    }
    fn hint(&self) -> Option<String> {
        None
    }
}

/// `lookup` finds every id but `missing`, inside a span of its own.
struct Store;

impl Dispatch for Store {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }
    fn call(
        &self,
        _tool: usize,
        arguments: JsonObject,
        _cx: mcp_contract::Context,
    ) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async move {
            let _inner = tracing::info_span!("store.read").entered();
            let found = match arguments.get("id") {
                Some(Value::String(id)) if id == "missing" => Err(NotFound),
                _ => Ok(json!({"found": true})),
            };
            mcp_contract::codegen::call::structured(found)
        })
    }
}

/// The process's telemetry: every span to one in-memory exporter, metrics as Prometheus text.
fn telemetry() -> &'static (Telemetry, InMemorySpanExporter) {
    static ONCE: OnceLock<(Telemetry, InMemorySpanExporter)> = OnceLock::new();
    ONCE.get_or_init(|| {
        let spans = InMemorySpanExporter::default();
        let telemetry = Telemetry::builder("observed")
            .span_exporter(spans.clone())
            .prometheus()
            .build()
            .expect("telemetry");
        let subscriber = tracing_subscriber::registry().with(telemetry.layer());
        tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
        (telemetry, spans)
    })
}

/// A `traceparent` of a trace of its own, whose parent span is `0102030405060708`.
fn traceparent(trace: u128) -> String {
    format!("00-{trace:032x}-0102030405060708-01")
}

const PARENT: SpanId = SpanId::from_bytes([1, 2, 3, 4, 5, 6, 7, 8]);

/// The spans of `trace` ended so far.
fn spans_of(trace: u128) -> Vec<SpanData> {
    let (_, exporter) = telemetry();
    let all = exporter.get_finished_spans().expect("spans");
    let id = TraceId::from(trace);
    all.into_iter()
        .filter(|s| s.span_context.trace_id() == id)
        .collect()
}

fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.to_string())
}

/// A call to `lookup` with `id`, sending `traceparent` in `_meta`.
fn lookup(id: &str, traceparent: &str) -> CallToolRequestParams {
    let mut meta = JsonObject::new();
    meta.insert("traceparent".into(), traceparent.into());
    let mut params = CallToolRequestParams::new("lookup")
        .with_arguments(json!({"id": id}).as_object().cloned().expect("an object"));
    params.meta = Some(RequestMetaObject(MetaObject(meta)));
    params
}

/// Asserts the one server span of `trace`: its name, kind, parent, attributes, and the
/// handler's own span under it.
fn assert_call_span(trace: u128, revision: Revision, transport: &str, error: Option<&str>) {
    let spans = spans_of(trace);
    let server: Vec<_> = spans
        .iter()
        .filter(|s| s.span_kind == SpanKind::Server)
        .collect();
    assert_eq!(server.len(), 1, "one server span: {spans:#?}");
    let span = server[0];
    let context = format!("{} over {transport}", revision.as_str());
    assert_eq!(span.name, "tools/call lookup", "{context}");
    assert_eq!(
        span.parent_span_id, PARENT,
        "{context}: parented to the client's span"
    );
    let expected = [
        ("mcp.method.name", Some("tools/call")),
        ("mcp.protocol.version", Some(revision.as_str())),
        ("gen_ai.tool.name", Some("lookup")),
        ("gen_ai.operation.name", Some("execute_tool")),
        ("network.transport", Some(transport)),
        ("error.type", error),
    ];
    for (key, value) in expected {
        assert_eq!(attribute(span, key).as_deref(), value, "{context}: {key}");
    }
    assert!(attribute(span, "jsonrpc.request.id").is_some(), "{context}");
    assert_eq!(
        attribute(span, "trace_id"),
        Some(format!("{trace:032x}")),
        "{context}: the trace id, for log lines"
    );
    assert!(
        span.attributes
            .iter()
            .all(|kv| !kv.value.to_string().contains("missing")),
        "{context}: no argument value is recorded: {:?}",
        span.attributes
    );
    let status_is_error = matches!(span.status, Status::Error { .. });
    assert_eq!(
        status_is_error,
        error.is_some(),
        "{context}: {:?}",
        span.status
    );
    let inner = spans
        .iter()
        .find(|s| s.name == "store.read")
        .unwrap_or_else(|| panic!("{context}: the handler's span: {spans:#?}"));
    let ancestors = std::iter::successors(Some(inner), |child| {
        spans
            .iter()
            .find(|s| s.span_context.span_id() == child.parent_span_id)
    });
    assert!(
        ancestors
            .into_iter()
            .any(|a| a.span_context.span_id() == span.span_context.span_id()),
        "{context}: the handler's span nests under the request's: {spans:#?}"
    );
}

#[tokio::test]
async fn each_call_is_a_server_span_by_the_conventions_on_both_revisions_and_transports() {
    let (telemetry, _) = telemetry();
    let server = Server::new(Store).telemetry(telemetry);
    let addr = serve_on_loopback(Host::new().mount("/mcp", server.clone())).await;
    let mut trace = 0x5eed_0000_u128;
    for revision in Revision::ALL {
        for transport in ["pipe", "tcp"] {
            let client = match transport {
                "pipe" => connect(server.clone(), revision).await,
                _ => connect_http(&format!("http://{addr}/mcp"), revision).await,
            }
            .expect("connected");
            for (id, error) in [("a", None), ("missing", Some("not_found"))] {
                trace += 1;
                let answer = client
                    .call_tool(lookup(id, &traceparent(trace)))
                    .await
                    .expect("a result");
                assert_eq!(answer.is_error, Some(error.is_some()));
                assert_call_span(trace, revision, transport, error);
            }
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn a_protocol_error_is_its_json_rpc_code() {
    let (telemetry, _) = telemetry();
    let client = connect(
        Server::new(Store).telemetry(telemetry),
        Revision::V2026_07_28,
    )
    .await
    .expect("connected");
    let trace = 0xbad_0001_u128;
    let mut params = lookup("a", &traceparent(trace));
    params.name = "no_such_tool".into();
    client.call_tool(params).await.expect_err("an unknown tool");
    let spans = spans_of(trace);
    assert_eq!(spans.len(), 1, "{spans:#?}");
    assert_eq!(spans[0].name, "tools/call no_such_tool");
    assert_eq!(
        attribute(&spans[0], "error.type").as_deref(),
        Some("-32602")
    );
    assert_eq!(
        attribute(&spans[0], "rpc.response.status_code").as_deref(),
        Some("-32602")
    );
    let _ = client.cancel().await;
}

/// A raw 2026-07-28 `tools/call` over HTTP carrying `traceparent` as a header only.
async fn post_with_header(addr: SocketAddr, traceparent: &str) -> (u16, String) {
    let body = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "lookup", "arguments": {"id": "a"}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    });
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "lookup"),
        ("traceparent", traceparent),
    ];
    let answer = http_request(addr, "POST", "/mcp", &headers, &body.to_string())
        .await
        .expect("an HTTP response");
    (answer.status, answer.body)
}

#[tokio::test]
async fn over_http_the_traceparent_header_is_the_parent_when_meta_has_none() {
    let (telemetry, _) = telemetry();
    let server = Server::new(Store).telemetry(telemetry);
    let addr = serve_on_loopback(Host::new().mount("/mcp", server)).await;
    let trace = 0x4ead_0001_u128;
    let (status, body) = post_with_header(addr, &traceparent(trace)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""found":true"#), "{body}");
    let spans = spans_of(trace);
    let span = spans
        .iter()
        .find(|s| s.span_kind == SpanKind::Server)
        .unwrap_or_else(|| panic!("a server span in the header's trace: {spans:#?}"));
    assert_eq!(span.parent_span_id, PARENT);
    assert_eq!(attribute(span, "jsonrpc.request.id").as_deref(), Some("7"));
    assert_eq!(
        attribute(span, "network.protocol.name").as_deref(),
        Some("http")
    );
}

/// The value of the `/metrics` sample `series` (name and labels, as written), if any.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
}

#[tokio::test]
async fn metrics_count_each_tool_from_start_up_and_each_error_code() {
    // A telemetry of its own, so that the counts are this test's.
    let telemetry = Telemetry::builder("counted")
        .prometheus()
        .build()
        .expect("telemetry");
    let server = Server::new(Store).telemetry(&telemetry);
    let host = Host::new().mount("/mcp", server).metrics(&telemetry);
    let addr = serve_on_loopback(host).await;
    let scrape = || async move {
        let answer = http_request(addr, "GET", "/metrics", &[], "")
            .await
            .expect("an answer");
        assert_eq!(answer.status, 200);
        answer.body
    };
    let idle = r#"mcp_contract_server_operations_total{gen_ai_tool_name="idle",mcp_method_name="tools/call"}"#;
    let found = r#"mcp_contract_server_operations_total{gen_ai_tool_name="lookup",mcp_method_name="tools/call"}"#;
    let failed = r#"mcp_contract_server_operations_total{error_type="not_found",gen_ai_tool_name="lookup",mcp_method_name="tools/call"}"#;
    let before = scrape().await;
    assert_eq!(sample(&before, idle), Some(0.0), "{before}");
    assert_eq!(sample(&before, found), Some(0.0), "{before}");
    let forbidden = r#"mcp_contract_server_operations_total{error_type="forbidden",gen_ai_tool_name="lookup",mcp_method_name="tools/call"}"#;
    for declared in [failed, forbidden] {
        assert_eq!(
            sample(&before, declared),
            Some(0.0),
            "each declared error code from start-up: {before}"
        );
    }

    let client = connect_http(&format!("http://{addr}/mcp"), Revision::V2026_07_28)
        .await
        .expect("connected");
    for id in ["a", "b", "missing"] {
        client
            .call_tool(lookup(id, &traceparent(1)))
            .await
            .expect("a result");
    }
    let after = scrape().await;
    assert_eq!(sample(&after, idle), Some(0.0), "{after}");
    assert_eq!(sample(&after, found), Some(2.0), "{after}");
    assert_eq!(sample(&after, failed), Some(1.0), "{after}");
    assert_eq!(sample(&after, forbidden), Some(0.0), "{after}");
    let durations = after
        .lines()
        .filter(|l| l.starts_with("mcp_server_operation_duration_seconds_count{"))
        .collect::<Vec<_>>();
    assert!(
        durations
            .iter()
            .any(|l| l.contains(r#"error_type="not_found""#)
                && l.contains(r#"mcp_protocol_version="2026-07-28""#)
                && l.contains(r#"network_transport="tcp""#)
                && l.ends_with(" 1")),
        "{after}"
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_stdio_connection_that_ends_is_a_session_measured() {
    let telemetry = Telemetry::builder("sessions")
        .prometheus()
        .build()
        .expect("telemetry");
    let sessions = r#"mcp_server_session_duration_seconds_count{network_transport="pipe"}"#;
    let count = || sample(&telemetry.prometheus_text().expect("text"), sessions);
    let server = Server::new(Store).telemetry(&telemetry);
    let mut clients = Vec::new();
    for revision in Revision::ALL {
        let client = connect(server.clone(), revision).await.expect("connected");
        client
            .call_tool(lookup("a", &traceparent(2)))
            .await
            .expect("a result");
        clients.push(client);
    }
    assert_eq!(count(), None, "no session is measured before it ends");
    for client in clients {
        let _ = client.cancel().await;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while count() != Some(2.0) {
        assert!(
            std::time::Instant::now() < deadline,
            "{:?}",
            telemetry.prometheus_text()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_call_by_a_former_name_is_counted_and_named_as_its_tool() {
    // The process's spans go to the one exporter; the counts to a telemetry of this test's.
    let _ = telemetry();
    let telemetry = Telemetry::builder("renamed")
        .prometheus()
        .build()
        .expect("telemetry");
    let server = Server::new(Store).telemetry(&telemetry);
    let client = connect(server, Revision::V2026_07_28)
        .await
        .expect("connected");
    let mut by_alias = lookup("a", &traceparent(0xa11a5));
    by_alias.name = "find".into();
    client.call_tool(by_alias).await.expect("a result");
    let text = telemetry.prometheus_text().expect("text");
    let found = r#"mcp_contract_server_operations_total{gen_ai_tool_name="lookup",mcp_method_name="tools/call"}"#;
    assert_eq!(sample(&text, found), Some(1.0), "{text}");
    assert!(!text.contains(r#"gen_ai_tool_name="find""#), "{text}");
    let spans = spans_of(0xa11a5);
    let server_span = spans
        .iter()
        .find(|span| span.span_kind == SpanKind::Server)
        .expect("the request's span");
    assert_eq!(server_span.name, "tools/call lookup");
    let _ = client.cancel().await;
}

/// A host with 2025-11-25 sessions for `server`.
async fn serve_sessions(server: Server<Store>) -> SocketAddr {
    serve_on_loopback(
        Host::new()
            .mount("/mcp", server)
            .sessions(SessionLimits::default()),
    )
    .await
}

/// A raw 2025-11-25 POST of `method` with `params` (to which `_meta` gets `traceparent`), in
/// `session` if given; the answer.
async fn post(
    addr: SocketAddr,
    session: Option<&str>,
    method: &str,
    mut params: Value,
    trace: u128,
) -> RawResponse {
    params["_meta"] = json!({"traceparent": traceparent(trace)});
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    post_2025(addr, "/mcp", session, &body)
        .await
        .expect("an HTTP answer")
}

/// Opens a 2025-11-25 session, its `initialize` in `trace`; its id.
async fn open_session(addr: SocketAddr, trace: u128) -> String {
    let initialize = json!({
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
        "_meta": {"traceparent": traceparent(trace)},
    });
    open_session_2025(addr, "/mcp", initialize)
        .await
        .expect("a session")
}

/// The one server span of `trace`.
fn server_span(trace: u128) -> SpanData {
    let spans = spans_of(trace);
    let mut server = spans.iter().filter(|s| s.span_kind == SpanKind::Server);
    let span = server
        .next()
        .unwrap_or_else(|| panic!("a server span in trace {trace:x}: {spans:#?}"))
        .clone();
    assert!(server.next().is_none(), "one server span: {spans:#?}");
    span
}

#[tokio::test]
async fn every_request_of_a_session_is_a_server_span_with_the_session_and_the_client() {
    let (telemetry, _) = telemetry();
    let addr = serve_sessions(Server::new(Store).telemetry(telemetry)).await;
    let opened = 0x5e55_0000_u128;
    let session = open_session(addr, opened).await;
    let requests = [
        ("initialize", None),
        ("tools/list", None),
        ("resources/list", None),
        ("resources/templates/list", None),
        // The contract has no prompts: the method is not found, and the span says so.
        ("prompts/list", Some("-32601")),
        ("ping", None),
    ];
    for (n, (method, error)) in requests.into_iter().enumerate() {
        let trace = opened + n as u128;
        if method != "initialize" {
            let answer = post(addr, Some(&session), method, json!({}), trace).await;
            assert_eq!(answer.status, 200, "{method}: {}", answer.body);
        }
        let span = server_span(trace);
        assert_eq!(span.name, method, "no target, so the method alone");
        assert_eq!(span.parent_span_id, PARENT, "{method}: the client's span");
        let expected = [
            ("mcp.method.name", Some(method)),
            ("mcp.protocol.version", Some("2025-11-25")),
            ("mcp.session.id", Some(session.as_str())),
            ("client.address", Some("127.0.0.1")),
            ("network.transport", Some("tcp")),
            ("network.protocol.name", Some("http")),
            ("error.type", error),
            ("gen_ai.tool.name", None),
        ];
        for (key, value) in expected {
            assert_eq!(attribute(&span, key).as_deref(), value, "{method}: {key}");
        }
        let port = attribute(&span, "client.port").expect("client.port");
        assert!(port.parse::<u16>().is_ok_and(|p| p > 0), "{method}: {port}");
    }
}

#[tokio::test]
async fn a_2026_request_over_stdio_has_no_session_and_no_client_address() {
    let (telemetry, _) = telemetry();
    let client = connect(
        Server::new(Store).telemetry(telemetry),
        Revision::V2026_07_28,
    )
    .await
    .expect("connected");
    let trace = 0x2026_0001_u128;
    let mut meta = JsonObject::new();
    meta.insert("traceparent".into(), traceparent(trace).into());
    let mut params = PaginatedRequestParams::default();
    params.meta = Some(RequestMetaObject(MetaObject(meta)));
    client.list_tools(Some(params)).await.expect("the tools");
    let span = server_span(trace);
    assert_eq!(span.name, "tools/list");
    assert_eq!(span.parent_span_id, PARENT);
    assert_eq!(
        attribute(&span, "network.transport").as_deref(),
        Some("pipe")
    );
    for absent in [
        "mcp.session.id",
        "client.address",
        "client.port",
        "error.type",
    ] {
        assert_eq!(attribute(&span, absent), None, "{absent}");
    }
    let _ = client.cancel().await;
}

#[tokio::test]
async fn only_the_arguments_the_manifest_marks_are_recorded() {
    let (telemetry, _) = telemetry();
    let client = connect(
        Server::new(Store).telemetry(telemetry),
        Revision::V2026_07_28,
    )
    .await
    .expect("connected");
    let trace = 0xa7_0001_u128;
    let mut params = lookup("a", &traceparent(trace));
    params.name = "fetch".into();
    params.arguments = json!({"key": "k-visible", "secret": "s-hidden"})
        .as_object()
        .cloned();
    client.call_tool(params).await.expect("a result");
    let span = server_span(trace);
    assert_eq!(
        attribute(&span, "gen_ai.tool.call.arguments").as_deref(),
        Some(r#"{"key":"k-visible"}"#)
    );
    let (_, exporter) = self::telemetry();
    let everything = format!("{:?}", exporter.get_finished_spans().expect("spans"));
    assert!(
        !everything.contains("s-hidden"),
        "an unmarked argument's value is in no exported span"
    );
    // A tool that marks none records no arguments at all.
    let trace = 0xa7_0002_u128;
    client
        .call_tool(lookup("plain-value", &traceparent(trace)))
        .await
        .expect("a result");
    assert_eq!(
        attribute(&server_span(trace), "gen_ai.tool.call.arguments"),
        None
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn an_http_session_is_measured_where_it_is_deleted() {
    let telemetry = Telemetry::builder("http sessions")
        .prometheus()
        .build()
        .expect("telemetry");
    let sessions = r#"mcp_server_session_duration_seconds_count{network_transport="tcp"}"#;
    let count = || sample(&telemetry.prometheus_text().expect("text"), sessions);
    // Two hosts sharing one state, as two instances behind a load balancer: the session is
    // opened on one and ended on the other.
    let state = mcp_contract::state::State::default();
    let server = || {
        Server::new(Store)
            .state(state.clone())
            .telemetry(&telemetry)
    };
    let (first, second) = (
        serve_sessions(server()).await,
        serve_sessions(server()).await,
    );
    let session = open_session(first, 0x5e55_1000).await;
    assert_eq!(count(), None, "no session is measured before it ends");
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let deleted = http_request(second, "DELETE", "/mcp", &headers, "")
        .await
        .expect("an HTTP answer");
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(count(), Some(1.0), "measured where it ended");
}

#[tokio::test]
async fn the_gauges_count_the_sessions_open_and_the_live_tasks_of_this_process() {
    let telemetry = Telemetry::builder("gauges")
        .prometheus()
        .build()
        .expect("telemetry");
    let read = |series: &str| sample(&telemetry.prometheus_text().expect("text"), series);
    let pipes = r#"mcp_contract_server_sessions{network_transport="pipe"}"#;
    let http = r#"mcp_contract_server_sessions{network_transport="tcp"}"#;
    let server = Server::new(Store).telemetry(&telemetry);
    assert_eq!(read(pipes), Some(0.0));
    assert_eq!(read(http), Some(0.0));
    for status in ["working", "input_required"] {
        let tasks = format!(r#"mcp_contract_server_tasks{{mcp_contract_task_status="{status}"}}"#);
        assert_eq!(read(&tasks), Some(0.0), "{status}");
    }
    let mut clients = Vec::new();
    for revision in Revision::ALL {
        clients.push(connect(server.clone(), revision).await.expect("connected"));
    }
    assert_eq!(read(pipes), Some(2.0));
    let addr = serve_sessions(server).await;
    let _session = open_session(addr, 0x6a_0001).await;
    assert_eq!(read(http), Some(1.0));
    for client in clients {
        let _ = client.cancel().await;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while read(pipes) != Some(0.0) {
        assert!(std::time::Instant::now() < deadline, "{:?}", read(pipes));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
