//! The request context on both revisions, spoken to in raw JSON-RPC lines: progress only for a
//! request with a token, rate-limited and increasing; log messages only at the level the client
//! asked for and only from a server that declares logging; cancellation reaching the handler;
//! resource subscriptions and their updates on both revisions.

use std::sync::LazyLock;
use std::time::Duration;

use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published, ResourceSpec,
    ToolSpec,
};
use mcp_contract::testing::{Lines, Revision, check_wire, request_meta, serve_lines};
use mcp_contract::{Context, LogLevel, ResourceBody, ResourceError, Server};
use serde_json::{Value, json};
use tokio::sync::mpsc;

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"work","description":"Reports and logs.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"wait","description":"Waits to be cancelled.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"who","description":"Says who calls.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

static RESOURCES: [ResourceSpec; 2] = [
    ResourceSpec {
        name: "notes",
        title: "Notes",
        description: "Changes, and says so.",
        mime_type: "text/plain",
        uri: "x:///notes",
        template: false,
        subscribe: true,
        completions: &[],
        icons: &[],
        scopes: &[],
        meta: None,
        app: None,
    },
    ResourceSpec {
        name: "fixed",
        title: "Fixed",
        description: "Never changes.",
        mime_type: "text/plain",
        uri: "x:///fixed",
        template: false,
        subscribe: false,
        completions: &[],
        icons: &[],
        scopes: &[],
        meta: None,
        app: None,
    },
];

static LOGGING: ContractSpec = ContractSpec {
    name: "reporter",
    title: None,
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &RESOURCES,
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: true,
    list_changed: false,
    prompts: &[],
    access: mcp_contract::codegen::AccessSpec::OPEN,
    icons: &[],
};
static QUIET: ContractSpec = ContractSpec {
    name: "quiet",
    logging: false,
    ..LOGGING
};
static LOGGING_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&LOGGING));
static QUIET_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&QUIET));

/// `work` reports progress 1, 2 (at once: held back), then later 1 (not more: dropped) and
/// 4 of 4 (the last: always sent), then logs at debug, info and warning. `wait` waits to be cancelled and
/// says so on `seen`.
struct Reporter {
    published: &'static Published,
    seen: mpsc::UnboundedSender<&'static str>,
}

impl Dispatch for Reporter {
    fn published(&self) -> &'static Published {
        self.published
    }

    fn call(
        &self,
        tool: usize,
        _arguments: JsonObject,
        cx: Context,
    ) -> BoxFuture<'_, CallToolResult> {
        let seen = self.seen.clone();
        Box::pin(async move {
            if tool == 2 {
                tracing::info!("answering who");
                return CallToolResult::structured(json!({
                    "client": cx.client().map(|c| c.name),
                    "revision": cx.revision().as_str(),
                    "request_id": cx.request_id().map(ToString::to_string),
                    "header": header(&cx, "x-caller"),
                }));
            }
            if tool == 1 {
                tokio::select! {
                    () = cx.cancelled() => {
                        assert!(cx.is_cancelled());
                        let _ = seen.send("cancelled");
                    }
                    () = tokio::time::sleep(Duration::from_secs(10)) => {
                        let _ = seen.send("not cancelled");
                    }
                }
                return CallToolResult::structured(json!({"waited": true}));
            }
            cx.progress(1.0, Some(4.0), Some("working")).await;
            cx.progress(2.0, Some(4.0), None).await;
            // Past the interval: only the value holds it back now.
            tokio::time::sleep(Duration::from_millis(150)).await;
            cx.progress(1.0, Some(4.0), None).await;
            cx.progress(4.0, Some(4.0), Some("done")).await;
            cx.debug("a detail").await;
            cx.info("an event").await;
            cx.log(LogLevel::Warning, json!({"disk": "full"})).await;
            CallToolResult::structured(json!({"done": true}))
        })
    }

    fn read_resource(
        &self,
        _resource: usize,
        _values: Vec<String>,
        _cx: Context,
    ) -> BoxFuture<'_, Result<ResourceBody, ResourceError>> {
        Box::pin(async { Ok(ResourceBody::Text("notes".into())) })
    }
}

/// The value of the request's HTTP header `name`, over HTTP.
#[cfg(feature = "http")]
fn header(cx: &Context, name: &str) -> Option<String> {
    let value = cx.headers()?.get(name)?;
    value.to_str().ok().map(str::to_owned)
}

#[cfg(not(feature = "http"))]
fn header(_cx: &Context, _name: &str) -> Option<String> {
    None
}

fn reporter(
    published: &'static Published,
) -> (Server<Reporter>, mpsc::UnboundedReceiver<&'static str>) {
    let (seen, receiver) = mpsc::unbounded_channel();
    (Server::new(Reporter { published, seen }), receiver)
}

async fn open(lines: &mut Lines, revision: Revision) -> Value {
    if revision.has_initialize() {
        lines.initialize().await
    } else {
        lines.discover().await
    }
}

/// `params` with the request `_meta` a client of `revision` sends, plus `meta`.
fn params(revision: Revision, mut params: Value, meta: Value) -> Value {
    let mut all = if revision.has_initialize() {
        json!({})
    } else {
        request_meta()
    };
    if let (Some(all), Some(meta)) = (all.as_object_mut(), meta.as_object()) {
        all.extend(meta.clone());
    }
    if all.as_object().is_some_and(|m| !m.is_empty()) {
        params["_meta"] = all;
    }
    params
}

/// The notifications the server sends before its answer to request `id`, and the answer.
async fn exchange(lines: &mut Lines, id: u64) -> (Vec<Value>, Value) {
    let mut notifications = Vec::new();
    loop {
        let line = lines.answer().await;
        if line["id"] == id {
            return (notifications, line);
        }
        notifications.push(line);
    }
}

/// Calls `work` with `meta` and returns what it sent: the progress values and the levels of
/// its log messages, each message checked against the revision's official schema.
async fn work(
    lines: &mut Lines,
    revision: Revision,
    id: u64,
    meta: Value,
) -> (Vec<f64>, Vec<String>) {
    lines
        .request(
            id,
            "tools/call",
            params(revision, json!({"name": "work"}), meta),
        )
        .await;
    let (notifications, answer) = exchange(lines, id).await;
    assert_eq!(
        answer["result"]["structuredContent"]["done"], true,
        "{answer}"
    );
    let mut progress = Vec::new();
    let mut levels = Vec::new();
    for n in notifications {
        match n["method"].as_str() {
            Some("notifications/progress") => {
                check_wire(revision, "ProgressNotification", &n)
                    .unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(n["params"]["progressToken"], "p-1", "{n}");
                assert_eq!(n["params"]["total"], 4.0, "{n}");
                progress.push(n["params"]["progress"].as_f64().expect("a number"));
            }
            Some("notifications/message") => {
                check_wire(revision, "LoggingMessageNotification", &n)
                    .unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(n["params"]["logger"], "work", "{n}");
                levels.push(n["params"]["level"].as_str().unwrap_or_default().to_owned());
            }
            _ => panic!("{revision}: an unexpected message before the answer: {n}"),
        }
    }
    (progress, levels)
}

#[tokio::test]
async fn progress_goes_only_to_a_request_with_a_token_rate_limited_and_increasing() {
    for revision in Revision::ALL {
        let (server, _seen) = reporter(&LOGGING_PUBLISHED);
        let mut lines = serve_lines(server);
        open(&mut lines, revision).await;
        let (progress, _) = work(&mut lines, revision, 1, json!({})).await;
        assert_eq!(
            progress,
            Vec::<f64>::new(),
            "{revision}: no token, no progress"
        );
        let (progress, _) = work(&mut lines, revision, 2, json!({"progressToken": "p-1"})).await;
        assert_eq!(progress, [1.0, 4.0], "{revision}");
    }
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_asked_for() {
    // 2025-11-25: `info` and above until `logging/setLevel`, then what it set.
    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let mut lines = serve_lines(server);
    let initialized = open(&mut lines, Revision::V2025_11_25).await;
    assert_eq!(
        initialized["capabilities"]["logging"],
        json!({}),
        "{initialized}"
    );
    let old = Revision::V2025_11_25;
    let (_, levels) = work(&mut lines, old, 1, json!({})).await;
    assert_eq!(levels, ["info", "warning"]);
    for (id, level, expected) in [
        (2, "debug", &["debug", "info", "warning"][..]),
        (4, "error", &[][..]),
    ] {
        lines
            .request(id, "logging/setLevel", json!({"level": level}))
            .await;
        let (_, answer) = exchange(&mut lines, id).await;
        assert_eq!(answer["result"], json!({}), "{answer}");
        let (_, levels) = work(&mut lines, old, id + 1, json!({})).await;
        assert_eq!(levels, expected, "after setLevel {level}");
    }

    // 2026-07-28: nothing without the request's level, then that level and above.
    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let mut lines = serve_lines(server);
    let discovered = open(&mut lines, Revision::V2026_07_28).await;
    assert_eq!(
        discovered["capabilities"]["logging"],
        json!({}),
        "{discovered}"
    );
    let new = Revision::V2026_07_28;
    let (_, levels) = work(&mut lines, new, 1, json!({})).await;
    assert_eq!(levels, Vec::<String>::new(), "no level, no log");
    let level = "io.modelcontextprotocol/logLevel";
    let (_, levels) = work(&mut lines, new, 2, json!({level: "info"})).await;
    assert_eq!(levels, ["info", "warning"]);
    let (_, levels) = work(&mut lines, new, 3, json!({level: "debug"})).await;
    assert_eq!(levels, ["debug", "info", "warning"]);
}

#[tokio::test]
async fn a_server_that_declares_no_logging_never_logs() {
    for revision in Revision::ALL {
        let (server, _seen) = reporter(&QUIET_PUBLISHED);
        let mut lines = serve_lines(server);
        let opened = open(&mut lines, revision).await;
        assert!(opened["capabilities"].get("logging").is_none(), "{opened}");
        if revision.has_initialize() {
            lines
                .request(7, "logging/setLevel", json!({"level": "debug"}))
                .await;
            let (_, answer) = exchange(&mut lines, 7).await;
            assert_eq!(answer["error"]["code"], -32601, "{answer}");
        }
        let meta = json!({"io.modelcontextprotocol/logLevel": "debug"});
        let (_, levels) = work(&mut lines, revision, 8, meta).await;
        assert_eq!(levels, Vec::<String>::new(), "{revision}");
    }
}

#[tokio::test]
async fn a_cancelled_request_reaches_its_handler() {
    for revision in Revision::ALL {
        let (server, mut seen) = reporter(&LOGGING_PUBLISHED);
        let mut lines = serve_lines(server);
        open(&mut lines, revision).await;
        lines
            .request(
                5,
                "tools/call",
                params(revision, json!({"name": "wait"}), json!({})),
            )
            .await;
        // Cancel once the handler runs: a cancellation for a request not yet seen is ignored.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}});
        lines.send(&cancel.to_string()).await;
        let what = tokio::time::timeout(Duration::from_secs(5), seen.recv()).await;
        assert_eq!(what, Ok(Some("cancelled")), "{revision}");
    }
}

#[tokio::test]
async fn a_subscribed_client_hears_of_changes_until_it_unsubscribes() {
    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let mut lines = serve_lines(server.clone());
    let initialized = open(&mut lines, Revision::V2025_11_25).await;
    assert_eq!(
        initialized["capabilities"]["resources"]["subscribe"], true,
        "{initialized}"
    );

    lines
        .request(1, "resources/subscribe", json!({"uri": "x:///fixed"}))
        .await;
    let (_, refused) = exchange(&mut lines, 1).await;
    assert_eq!(
        refused["error"]["code"], -32602,
        "not subscribable: {refused}"
    );
    lines
        .request(2, "resources/subscribe", json!({"uri": "x:///notes"}))
        .await;
    let (_, answer) = exchange(&mut lines, 2).await;
    assert_eq!(answer["result"], json!({}), "{answer}");

    server.resource_updated("x:///fixed").await;
    server.resource_updated("x:///notes").await;
    let update = lines.answer().await;
    assert_eq!(
        update["method"], "notifications/resources/updated",
        "{update}"
    );
    assert_eq!(update["params"]["uri"], "x:///notes", "{update}");
    check_wire(
        Revision::V2025_11_25,
        "ResourceUpdatedNotification",
        &update,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));

    lines
        .request(3, "resources/unsubscribe", json!({"uri": "x:///notes"}))
        .await;
    let (_, answer) = exchange(&mut lines, 3).await;
    assert_eq!(answer["result"], json!({}), "{answer}");
    server.resource_updated("x:///notes").await;
    lines.request(4, "ping", json!({})).await;
    let (before, _) = exchange(&mut lines, 4).await;
    assert_eq!(before, Vec::<Value>::new(), "no update after unsubscribing");
}

/// Servers sharing a state store hear each other's resource updates: a client subscribed
/// through one server is told of a change announced on another, once, and a server's own
/// subscribers are told once too (not again when its update comes back from the store).
#[tokio::test]
async fn a_subscriber_hears_of_an_update_announced_by_another_server_sharing_the_state() {
    let state = mcp_contract::state::State::default();
    let (here, _) = reporter(&LOGGING_PUBLISHED);
    let (there, _) = reporter(&LOGGING_PUBLISHED);
    let (here, there) = (here.state(state.clone()), there.state(state));
    let mut subscribed = Vec::new();
    for server in [&here, &there] {
        let mut lines = serve_lines(server.clone());
        open(&mut lines, Revision::V2025_11_25).await;
        lines
            .request(1, "resources/subscribe", json!({"uri": "x:///notes"}))
            .await;
        let (_, answer) = exchange(&mut lines, 1).await;
        assert_eq!(answer["result"], json!({}), "{answer}");
        subscribed.push(lines);
    }
    there.resource_updated("x:///notes").await;
    // Time for a second one to come, were it sent.
    tokio::time::sleep(Duration::from_millis(100)).await;
    for lines in &mut subscribed {
        let update = lines.answer().await;
        assert_eq!(
            update["method"], "notifications/resources/updated",
            "{update}"
        );
        assert_eq!(update["params"]["uri"], "x:///notes", "{update}");
        // Exactly once: the next message is the answer to a ping.
        lines.request(2, "ping", json!({})).await;
        let (before, _) = exchange(lines, 2).await;
        assert_eq!(before, Vec::<Value>::new(), "told once");
    }
}

/// On 2026-07-28 a client subscribes on a `subscriptions/listen` stream: it is acknowledged
/// the subscribable resources it asked for, and hears their updates on that stream, tagged
/// with its id, until it stops listening.
#[tokio::test]
async fn a_2026_listener_hears_of_the_resources_it_subscribed_to() {
    let new = Revision::V2026_07_28;
    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let mut lines = serve_lines(server.clone());
    let discovered = open(&mut lines, new).await;
    assert_eq!(
        discovered["capabilities"]["resources"]["subscribe"], true,
        "discovery offers resource subscriptions: {discovered}"
    );
    let subscribe = params(new, json!({"uri": "x:///notes"}), json!({}));
    lines.request(1, "resources/subscribe", subscribe).await;
    let (_, refused) = exchange(&mut lines, 1).await;
    assert_eq!(
        refused["error"]["code"], -32601,
        "no resources/subscribe: {refused}"
    );

    let asked = json!({"resourceSubscriptions": ["x:///notes", "x:///fixed", "x:///none"]});
    lines
        .request(
            2,
            "subscriptions/listen",
            params(new, json!({"notifications": asked}), json!({})),
        )
        .await;
    let ack = lines.answer().await;
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["x:///notes"]}),
        "only the subscribable resource is accepted: {ack}"
    );

    server.resource_updated("x:///fixed").await;
    server.resource_updated("x:///notes").await;
    let update = lines.answer().await;
    assert_eq!(
        update["method"], "notifications/resources/updated",
        "{update}"
    );
    assert_eq!(update["params"]["uri"], "x:///notes", "{update}");
    assert_eq!(
        update["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 2,
        "{update}"
    );
    check_wire(new, "ResourceUpdatedNotification", &update).unwrap_or_else(|e| panic!("{e:?}"));

    // Stopping to listen ends the subscription.
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}});
    lines.send(&cancel.to_string()).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.resource_updated("x:///notes").await;
    lines
        .request(3, "ping", params(new, json!({}), json!({})))
        .await;
    let (before, _) = exchange(&mut lines, 3).await;
    assert!(
        before
            .iter()
            .all(|m| m["method"] != "notifications/resources/updated"),
        "no update after the stream ended: {before:?}"
    );
}

#[tokio::test]
async fn a_handler_knows_its_client_revision_and_request() {
    for revision in Revision::ALL {
        let (server, _seen) = reporter(&LOGGING_PUBLISHED);
        let client = mcp_contract::testing::connect(server, revision)
            .await
            .expect("connected");
        let who = mcp_contract::testing::call(&client, "who", json!({})).await;
        let who = mcp_contract::testing::structured(&who);
        assert_eq!(who["revision"], revision.as_str(), "{who}");
        assert!(
            who["client"].is_string(),
            "{revision}: the client's name: {who}"
        );
        assert!(who["request_id"].is_string(), "{who}");
        assert_eq!(who["header"], Value::Null, "no headers over stdio: {who}");
    }
}

/// Over HTTP the handler sees the request's headers, and progress travels on the POST's
/// event stream.
#[cfg(feature = "http-testing")]
#[tokio::test]
async fn over_http_a_handler_sees_the_headers_and_reports_progress() {
    use mcp_contract::http::Host;
    use mcp_contract::testing::{http_request, serve_on_loopback};

    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let addr = serve_on_loopback(Host::new().mount("/mcp", server)).await;
    let post = |method: &'static str, params: Value| async move {
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
        http_request(
            addr,
            "POST",
            "/mcp",
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", method),
                ("Mcp-Name", params["name"].as_str().unwrap_or_default()),
                ("X-Caller", "tester"),
            ],
            body.to_string(),
        )
        .await
        .expect("an HTTP response")
    };
    let new = Revision::V2026_07_28;
    let who = post("tools/call", params(new, json!({"name": "who"}), json!({}))).await;
    let who: Value = serde_json::from_str(&who.body).expect("a JSON answer");
    assert_eq!(
        who["result"]["structuredContent"]["header"], "tester",
        "{who}"
    );

    let meta = json!({"progressToken": "p-1", "io.modelcontextprotocol/logLevel": "warning"});
    let work = post("tools/call", params(new, json!({"name": "work"}), meta)).await;
    let messages = work.messages();
    let methods: Vec<&str> = messages
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(answer)"))
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/progress",
            "notifications/message",
            "(answer)"
        ],
        "{}",
        work.body
    );
}

/// What a `fmt` subscriber writes, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A handler's own log lines carry the call's span: the tool's name and the request id.
#[tokio::test]
async fn each_call_runs_in_a_span_naming_the_tool_and_the_request() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);
    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let mut lines = serve_lines(server);
    open(&mut lines, Revision::V2025_11_25).await;
    lines.request(9, "tools/call", json!({"name": "who"})).await;
    let (_, answer) = exchange(&mut lines, 9).await;
    assert!(answer["result"].is_object(), "{answer}");
    let log =
        String::from_utf8_lossy(&captured.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
    let line = log
        .lines()
        .find(|l| l.contains("answering who"))
        .unwrap_or_else(|| panic!("the handler's line: {log}"));
    assert!(line.contains("tool{name=\"who\""), "{line}");
    assert!(line.contains("request_id=Some(Number(9))"), "{line}");
}

/// An HTTP client that goes away before its answer cancels the call it made.
#[cfg(feature = "http-testing")]
#[tokio::test]
async fn over_http_a_client_that_hangs_up_cancels_its_call() {
    use mcp_contract::http::Host;
    use mcp_contract::testing::serve_on_loopback;
    use tokio::io::AsyncWriteExt as _;

    let (server, mut seen) = reporter(&LOGGING_PUBLISHED);
    let addr = serve_on_loopback(Host::new().mount("/mcp", server)).await;
    let body = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": params(Revision::V2026_07_28, json!({"name": "wait"}), json!({}))})
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: wait\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connected");
    stream.write_all(request.as_bytes()).await.expect("sent");
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(stream);
    let what = tokio::time::timeout(Duration::from_secs(5), seen.recv()).await;
    assert_eq!(what, Ok(Some("cancelled")));
}

/// Over the stateless HTTP host, a 2026-07-28 listen stream hears the updates of the
/// resources it subscribed to, announced from anywhere in the server.
#[cfg(feature = "http-testing")]
#[tokio::test]
async fn over_http_a_2026_listener_hears_of_its_resources() {
    use mcp_contract::http::Host;
    use mcp_contract::rmcp::model::{ServerNotification, SubscriptionFilter};
    use mcp_contract::testing::{connect_http, serve_on_loopback};

    let (server, _seen) = reporter(&LOGGING_PUBLISHED);
    let addr = serve_on_loopback(Host::new().mount("/mcp", server.clone())).await;
    let client = connect_http(&format!("http://{addr}/mcp"), Revision::V2026_07_28)
        .await
        .expect("connects");
    let filter = SubscriptionFilter::builder()
        .resource_subscriptions(["x:///notes"])
        .build();
    let mut subscription = client.peer().listen(filter).await.expect("listening");
    assert_eq!(
        subscription.acknowledged().resource_subscriptions,
        Some(vec!["x:///notes".to_owned()])
    );
    server.resource_updated("x:///notes").await;
    let next = tokio::time::timeout(Duration::from_secs(5), subscription.next()).await;
    match next {
        Ok(Ok(Some(ServerNotification::ResourceUpdatedNotification(n)))) => {
            assert_eq!(n.params.uri, "x:///notes");
        }
        other => panic!("expected the resource's update, got {other:?}"),
    }
    subscription.cancel().await.expect("stopped listening");
    let _ = client.cancel().await;
}
