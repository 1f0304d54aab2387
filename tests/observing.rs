//! The reference server observed as docs/observing.md tells: a real Prometheus scrapes its
//! `GET /metrics` and answers the per-tool series and error counts of known calls through its
//! HTTP API, and an OTLP receiver decodes the spans it exports, parented to the client's
//! `traceparent`, on both revisions, over stdio and over HTTP.

mod prerequisite;
mod support;

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use mcp_contract::rmcp::model::{
    CallToolRequestParams, MetaObject, PaginatedRequestParams, RequestMetaObject,
};
use mcp_contract::testing::{Revision, connect_http, http_request};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;
use serde_json::{Value, json};
use support::HttpServer;

/// How long a test waits for Prometheus or the exporter before it fails, rather than hang.
const PATIENCE: Duration = Duration::from_secs(60);

/// A free port on loopback.
fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A `traceparent` of trace `trace`, whose parent span is [`PARENT`].
fn traceparent(trace: u128) -> String {
    format!("00-{trace:032x}-{PARENT}-01")
}

const PARENT: &str = "0102030405060708";

/// The spans an OTLP/HTTP receiver on loopback was sent.
#[derive(Clone, Default)]
struct Receiver(Arc<Mutex<Vec<Span>>>);

impl Receiver {
    /// Listens; the base URL to give `--otlp`.
    async fn start(&self) -> String {
        let spans = self.0.clone();
        let app = axum::Router::new()
            .route(
                "/v1/traces",
                axum::routing::post(move |body: Bytes| async move {
                    let request = ExportTraceServiceRequest::decode(body).expect("OTLP protobuf");
                    let mut all = spans.lock().expect("the spans");
                    for resource in request.resource_spans {
                        for scope in resource.scope_spans {
                            all.extend(scope.spans);
                        }
                    }
                    [("content-type", "application/x-protobuf")]
                }),
            )
            .route(
                "/v1/metrics",
                axum::routing::post(|| async { [("content-type", "application/x-protobuf")] }),
            );
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}")
    }

    /// The server span of trace `trace`, once exported.
    async fn server_span(&self, trace: u128) -> Span {
        let id = trace.to_be_bytes();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let found = self
                .0
                .lock()
                .expect("the spans")
                .iter()
                .find(|s| {
                    s.trace_id == id && s.kind == 2 // SPAN_KIND_SERVER
                })
                .cloned();
            if let Some(span) = found {
                return span;
            }
            assert!(
                Instant::now() < deadline,
                "no server span of trace {trace:032x} was exported"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    let value = span
        .attributes
        .iter()
        .find(|kv| kv.key == key)?
        .value
        .as_ref()?;
    match value.value.as_ref()? {
        Any::StringValue(s) => Some(s.clone()),
        Any::IntValue(i) => Some(i.to_string()),
        other => Some(format!("{other:?}")),
    }
}

/// Asserts an exported span of `read_file` answering `not_found`, parented to [`PARENT`].
fn assert_not_found_span(span: &Span, revision: Revision, transport: &str) {
    let context = format!("{} over {transport}", revision.as_str());
    assert_eq!(span.name, "tools/call read_file", "{context}");
    assert_eq!(span.parent_span_id, [1, 2, 3, 4, 5, 6, 7, 8], "{context}");
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("mcp.protocol.version", revision.as_str()),
        ("gen_ai.tool.name", "read_file"),
        ("network.transport", transport),
        ("error.type", "not_found"),
    ] {
        assert_eq!(
            attribute(span, key).as_deref(),
            Some(value),
            "{context}: {key}"
        );
    }
    // 2 is STATUS_CODE_ERROR.
    assert_eq!(span.status.as_ref().map(|s| s.code), Some(2), "{context}");
}

/// A `read_file` call of `path` sending `traceparent` in `_meta`.
fn read_file(path: &str, traceparent: &str) -> CallToolRequestParams {
    let arguments = json!({"path": path})
        .as_object()
        .cloned()
        .expect("an object");
    let mut params = CallToolRequestParams::new("read_file").with_arguments(arguments);
    let meta = [("traceparent".to_owned(), Value::from(traceparent))];
    params.meta = Some(RequestMetaObject(MetaObject(meta.into_iter().collect())));
    params
}

#[tokio::test(flavor = "multi_thread")]
async fn the_exported_spans_follow_the_conventions_over_http_and_stdio_on_both_revisions() {
    let receiver = Receiver::default();
    let otlp = receiver.start().await;
    let fixture = support::Fixture::with(&[("notes.txt", b"hello\n")]);
    let http = HttpServer::start(&fixture.root, &["--otlp", &otlp]);
    let mut trace = 0x0b5e_0000_u128;
    for revision in Revision::ALL {
        let client = connect_http(&format!("http://{}/mcp/read", http.addr), revision)
            .await
            .expect("connected");
        trace += 1;
        let answer = client
            .call_tool(read_file("missing.txt", &traceparent(trace)))
            .await
            .expect("a result");
        assert_eq!(answer.is_error, Some(true));
        let span = receiver.server_span(trace).await;
        assert_not_found_span(&span, revision, "tcp");
        assert_eq!(
            attribute(&span, "mcp_contract.group").as_deref(),
            Some("read")
        );
        // A request without a target is a span of its own, by the same rules.
        trace += 1;
        let meta = [("traceparent".to_owned(), Value::from(traceparent(trace)))];
        let mut list = PaginatedRequestParams::default();
        list.meta = Some(RequestMetaObject(MetaObject(meta.into_iter().collect())));
        client.list_tools(Some(list)).await.expect("the tools");
        let span = receiver.server_span(trace).await;
        let context = revision.as_str();
        assert_eq!(span.name, "tools/list", "{context}");
        assert_eq!(span.parent_span_id, [1, 2, 3, 4, 5, 6, 7, 8], "{context}");
        for (key, value) in [
            ("mcp.method.name", Some("tools/list")),
            ("mcp.protocol.version", Some(context)),
            ("mcp_contract.group", Some("read")),
            ("client.address", Some("127.0.0.1")),
            ("gen_ai.tool.name", None),
        ] {
            assert_eq!(attribute(&span, key).as_deref(), value, "{context}: {key}");
        }
        let _ = client.cancel().await;
    }
    for revision in Revision::ALL {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"));
        command.args(["--otlp", &otlp]);
        let mut server = support::Server::start_with(command, &fixture.root);
        trace += 1;
        let mut meta = json!({"traceparent": traceparent(trace)});
        if revision.has_initialize() {
            server.request(
                1,
                "initialize",
                json!({"protocolVersion": revision.as_str(), "capabilities": {},
                       "clientInfo": {"name": "observer", "version": "0"}}),
            );
            server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        } else {
            meta["io.modelcontextprotocol/protocolVersion"] = revision.as_str().into();
            meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
        }
        let answer = server.request(
            2,
            "tools/call",
            json!({"name": "read_file", "arguments": {"path": "missing.txt"}, "_meta": meta}),
        );
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        // Closing stdin ends the server, which sends its last spans before it exits.
        server.stdin = None;
        let span = receiver.server_span(trace).await;
        assert_not_found_span(&span, revision, "pipe");
    }
}

/// A Prometheus server on loopback scraping `target` every second; killed when dropped.
struct Prometheus {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    fn start(target: SocketAddr) -> Prometheus {
        prerequisite::require("prometheus");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config = dir.path().join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: mcp-workspace\n    \
                 static_configs:\n      - targets: ['{target}']\n"
            ),
        )
        .expect("the configuration written");
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, free_port()));
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address={addr}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|_| prerequisite::missing("prometheus"));
        Prometheus {
            child,
            addr,
            _dir: dir,
        }
    }

    /// The samples of `query` now, each by its labels, once Prometheus answers.
    async fn query(&self, query: &str) -> Vec<(HashMap<String, String>, f64)> {
        let path = format!("/api/v1/query?query={}", encode(query));
        let Ok(answer) = http_request(self.addr, "GET", &path, &[], "").await else {
            return Vec::new();
        };
        let Ok(body) = serde_json::from_str::<Value>(&answer.body) else {
            return Vec::new();
        };
        let result = body["data"]["result"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        result
            .iter()
            .map(|sample| {
                let labels = serde_json::from_value(sample["metric"].clone()).expect("labels");
                let value = sample["value"][1].as_str().and_then(|v| v.parse().ok());
                (labels, value.expect("a value"))
            })
            .collect()
    }

    /// Waits until `query` answers `expected` (label sets to values, among the labels each
    /// names), and fails with what it answered last.
    async fn wait_for(&self, query: &str, expected: &[(&[(&str, &str)], f64)]) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let samples = self.query(query).await;
            let matches = expected.iter().all(|(labels, value)| {
                samples.iter().any(|(got, v)| {
                    v == value
                        && labels
                            .iter()
                            .all(|(k, want)| got.get(*k).map(String::as_str) == Some(want))
                })
            });
            if matches {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "Prometheus answered {query} with {samples:?}, not {expected:?}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `text` percent-encoded for a query string.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn prometheus_reads_each_tool_s_calls_and_errors_from_metrics() {
    let fixture = support::Fixture::with(&[("notes.txt", b"hello\n")]);
    let server = HttpServer::start(&fixture.root, &["--metrics"]);
    let prometheus = Prometheus::start(server.addr);
    for revision in Revision::ALL {
        let client = connect_http(&format!("http://{}/mcp/read", server.addr), revision)
            .await
            .expect("connected");
        for path in ["notes.txt", "missing.txt", "nowhere.txt"] {
            client
                .call_tool(read_file(path, &traceparent(1)))
                .await
                .expect("a result");
        }
        let _ = client.cancel().await;
    }
    let calls = "mcp_contract_server_operations_total{job=\"mcp-workspace\"}";
    prometheus
        .wait_for(
            calls,
            &[
                (&[("gen_ai_tool_name", "read_file")], 2.0),
                (
                    &[
                        ("gen_ai_tool_name", "read_file"),
                        ("error_type", "not_found"),
                    ],
                    4.0,
                ),
                // Never called, and there from the start.
                (&[("gen_ai_tool_name", "write_file")], 0.0),
                (
                    &[
                        ("gen_ai_tool_name", "write_file"),
                        ("error_type", "stale_version"),
                    ],
                    0.0,
                ),
                (&[("gen_ai_prompt_name", "review_file")], 0.0),
            ],
        )
        .await;
    let durations = "sum by (mcp_protocol_version, error_type) \
                     (mcp_server_operation_duration_seconds_count{gen_ai_tool_name=\"read_file\"})";
    prometheus
        .wait_for(
            durations,
            &[
                (
                    &[
                        ("mcp_protocol_version", "2025-11-25"),
                        ("error_type", "not_found"),
                    ],
                    2.0,
                ),
                (
                    &[
                        ("mcp_protocol_version", "2026-07-28"),
                        ("error_type", "not_found"),
                    ],
                    2.0,
                ),
            ],
        )
        .await;
}
