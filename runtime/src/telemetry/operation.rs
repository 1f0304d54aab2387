//! One request's span and measurements: opened before the request is looked up, ended with
//! its outcome, whatever the transport.

use std::time::Instant;

use opentelemetry::KeyValue;
use opentelemetry::propagation::{Extractor, TextMapPropagator as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use rmcp::model::{
    CallToolResponse, CallToolResult, GetPromptResponse, JsonObject, ReadResourceResponse,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tracing::Instrument as _;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use super::Instruments;
use crate::request;

/// The method of a request, by its `mcp.method.name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// `tools/call`, whose target is the tool.
    CallTool,
    /// `prompts/get`, whose target is the prompt.
    GetPrompt,
    /// `resources/read`, whose target is the manifest's name of the resource read.
    ReadResource,
    /// Any other method, which has no target: one of [`KNOWN`], or [`OTHER`].
    Other(&'static str),
}

/// The methods a server answers without a target, by name: a request's method is named on
/// its span and in metrics only when it is one of these, since a client may send any.
const KNOWN: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
    "tasks/update",
    "tools/call",
];

/// The name of a method not in [`KNOWN`], as the conventions name a value of an open set
/// that is not one of its well-known ones.
pub(crate) const OTHER: &str = "_OTHER";

impl Method {
    /// The method `name` a client sent, when it has no target of its own: its name if the
    /// runtime knows it, else [`OTHER`].
    pub(crate) fn named(name: &str) -> Self {
        Method::Other(KNOWN.iter().find(|k| **k == name).copied().unwrap_or(OTHER))
    }

    fn name(self) -> &'static str {
        match self {
            Method::CallTool => "tools/call",
            Method::GetPrompt => "prompts/get",
            Method::ReadResource => "resources/read",
            Method::Other(name) => name,
        }
    }

    /// The attribute naming the target: the conventions' for tools and prompts; the manifest's
    /// name of a resource, which the conventions do not have (they name its URI, unbounded).
    fn target_key(self) -> Option<&'static str> {
        match self {
            Method::CallTool => Some("gen_ai.tool.name"),
            Method::GetPrompt => Some("gen_ai.prompt.name"),
            Method::ReadResource => Some("mcp_contract.resource.name"),
            Method::Other(_) => None,
        }
    }

    /// The labels every measurement of a request to `target` carries.
    pub(crate) fn labels(self, target: &str) -> Vec<KeyValue> {
        let mut labels = vec![KeyValue::new("mcp.method.name", self.name())];
        if let Some(key) = self.target_key() {
            labels.push(KeyValue::new(key, target.to_owned()));
        }
        labels
    }
}

/// A request being served: its span, open, and when it began.
pub(crate) struct Operation {
    span: tracing::Span,
    started: Instant,
    labels: Vec<KeyValue>,
    more: [KeyValue; 2],
}

impl Operation {
    /// The span of the request `context` to `method`, parented to the trace context its
    /// client sent. `target` is the tool or prompt name, or the resource's name in the
    /// manifest, with whether the contract has it: a target it does not have is named on the
    /// span only, since in metrics names a client makes up would make series without bound.
    /// `uri` is a read's; `arguments` the JSON of the arguments the manifest marks `record`;
    /// `group` the group whose route serves the request.
    pub(crate) fn begin(
        method: Method,
        target: Option<(&str, bool)>,
        uri: Option<&str>,
        arguments: Option<String>,
        group: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        let revision = request::revision(context).as_str();
        let (transport, protocol) = transport(context);
        let name = match (method, target) {
            (Method::CallTool | Method::GetPrompt, Some((target, _))) => {
                format!("{} {target}", method.name())
            }
            _ => method.name().to_owned(),
        };
        let client = client(context);
        let span = tracing::info_span!(
            "mcp.server",
            otel.name = name,
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            mcp.method.name = method.name(),
            mcp.protocol.version = revision,
            mcp.session.id = session(context),
            jsonrpc.request.id = %context.id,
            gen_ai.operation.name = tracing::field::Empty,
            gen_ai.tool.name = tracing::field::Empty,
            gen_ai.tool.call.arguments = arguments,
            gen_ai.prompt.name = tracing::field::Empty,
            mcp.resource.uri = uri,
            mcp_contract.resource.name = tracing::field::Empty,
            mcp_contract.group = group,
            client.address = client.map(|a| tracing::field::display(a.ip())),
            client.port = client.map(|a| i64::from(a.port())),
            network.transport = transport,
            network.protocol.name = protocol,
            error.type = tracing::field::Empty,
            rpc.response.status_code = tracing::field::Empty,
            trace_id = tracing::field::Empty,
        );
        if let (Some(key), Some((target, _))) = (method.target_key(), target) {
            span.record(key, target);
        }
        if method == Method::CallTool {
            span.record("gen_ai.operation.name", "execute_tool");
        }
        if let Some(parent) = parent(context) {
            // Without the OpenTelemetry layer there is no span to parent; nothing is lost.
            let _ = span.set_parent(parent);
        }
        // For log lines written in the span (a JSON log carries its spans' fields), so that a
        // log line leads to its trace; there is no trace id without the OpenTelemetry layer.
        let trace = {
            use opentelemetry::trace::TraceContextExt as _;
            span.context().span().span_context().trace_id()
        };
        if trace != opentelemetry::trace::TraceId::INVALID {
            span.record("trace_id", trace.to_string());
        }
        let known = target.map_or("", |(name, known)| if known { name } else { "" });
        Operation {
            span,
            started: Instant::now(),
            labels: method.labels(known),
            more: [
                KeyValue::new("mcp.protocol.version", revision),
                KeyValue::new("network.transport", transport),
            ],
        }
    }

    /// Serves the request with `serve` inside the span, then records its outcome on the span
    /// and in `instruments`.
    pub(crate) async fn observe<T: Outcome>(
        self,
        instruments: Option<&Instruments>,
        serve: impl Future<Output = Result<T, ErrorData>>,
    ) -> Result<T, ErrorData> {
        let outcome = serve.instrument(self.span.clone()).await;
        let error = match &outcome {
            Ok(answer) => answer.error_type(),
            Err(e) => {
                let code = e.code.0.to_string();
                self.span.record("rpc.response.status_code", code.as_str());
                Some(code)
            }
        };
        if let Some(error) = &error {
            self.span.record("error.type", error.as_str());
            self.span.record("otel.status_code", "ERROR");
        }
        let seconds = self.started.elapsed().as_secs_f64();
        // One line per request, in its span: with a JSON log, it carries the trace id.
        self.span.in_scope(|| {
            tracing::debug!(seconds, error.type = error.as_deref(), "answered");
        });
        if let Some(instruments) = instruments {
            instruments.record(seconds, &self.labels, error.as_deref(), &self.more);
        }
        outcome
    }
}

/// `gen_ai.tool.call.arguments` of a call with `arguments`: the JSON object of those named in
/// `recorded` (the manifest's `record: true`), or `None` when it has none of them. The value of
/// any other argument is never recorded.
pub(crate) fn recorded(recorded: &[&str], arguments: Option<&JsonObject>) -> Option<String> {
    let arguments = arguments?;
    let kept: JsonObject = (recorded.iter())
        .filter_map(|name| Some(((*name).to_owned(), arguments.get(*name)?.clone())))
        .collect();
    (!kept.is_empty()).then(|| serde_json::Value::Object(kept).to_string())
}

/// A request's answer, which may tell of a failure without being a protocol error.
pub(crate) trait Outcome {
    /// The `error.type` of a failure the answer tells of, if any.
    fn error_type(&self) -> Option<String> {
        None
    }
}

impl Outcome for CallToolResponse {
    fn error_type(&self) -> Option<String> {
        match self {
            CallToolResponse::Complete(result) if result.is_error == Some(true) => {
                Some(tool_error_code(result).unwrap_or_else(|| "tool_error".to_owned()))
            }
            _ => None,
        }
    }
}

/// The answers that tell of no failure but by a protocol error.
macro_rules! no_failure {
    ($($answer:ty),* $(,)?) => { $(impl Outcome for $answer {})* };
}

no_failure!(
    (),
    ReadResourceResponse,
    GetPromptResponse,
    rmcp::model::InitializeResult,
    rmcp::model::DiscoverResult,
    rmcp::model::ListToolsResult,
    rmcp::model::ListResourcesResult,
    rmcp::model::ListResourceTemplatesResult,
    rmcp::model::ListPromptsResult,
    rmcp::model::CompleteResult,
    rmcp::model::CustomResult,
    rmcp::model::GetTaskResult,
);

/// The code of the first error of `result`'s envelope: from its structured content, or from
/// its text for a tool that carries the envelope as text only.
fn tool_error_code(result: &CallToolResult) -> Option<String> {
    let code = |envelope: &serde_json::Value| {
        envelope
            .pointer("/errors/0/code")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };
    if let Some(envelope) = &result.structured_content {
        return code(envelope);
    }
    let text = result.content.first()?.as_text()?;
    code(&serde_json::from_str(&text.text).ok()?)
}

/// `network.transport` and `network.protocol.name` of the connection `context` came by.
fn transport(context: &RequestContext<RoleServer>) -> (&'static str, Option<&'static str>) {
    #[cfg(feature = "http")]
    if context
        .extensions
        .get::<axum::http::request::Parts>()
        .is_some()
    {
        return ("tcp", Some("http"));
    }
    let _ = context;
    ("pipe", None)
}

/// The id of the 2025-11-25 HTTP session `context` belongs to (2026-07-28 has none).
fn session(context: &RequestContext<RoleServer>) -> Option<&str> {
    crate::session::Stored::of(context).map(|stored| stored.record.id.as_str())
}

/// The address of the HTTP client `context` came from, when the host knows it (a router
/// served with `ConnectInfo`, as [`Host::serve`](crate::http::Host::serve) does).
fn client(context: &RequestContext<RoleServer>) -> Option<std::net::SocketAddr> {
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
        let info = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>();
        return info.map(|i| i.0);
    }
    let _ = context;
    None
}

/// The trace context the client sent: `traceparent` (and `tracestate`) in the request's
/// `_meta`, or else in the HTTP request's headers.
fn parent(context: &RequestContext<RoleServer>) -> Option<opentelemetry::Context> {
    struct Meta<'a>(&'a RequestContext<RoleServer>);
    impl Extractor for Meta<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.meta.get(key).and_then(serde_json::Value::as_str)
        }
        fn keys(&self) -> Vec<&str> {
            self.0.meta.keys().map(String::as_str).collect()
        }
    }
    let propagator = TraceContextPropagator::new();
    let found = |cx: &opentelemetry::Context| {
        use opentelemetry::trace::TraceContextExt as _;
        cx.span().span_context().is_valid()
    };
    // Extracted onto an empty context: what fails to extract must not fall back on the
    // current one, which is the transport's span.
    let empty = opentelemetry::Context::new();
    let from_meta = propagator.extract_with_context(&empty, &Meta(context));
    if found(&from_meta) {
        return Some(from_meta);
    }
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
        struct Headers<'a>(&'a axum::http::HeaderMap);
        impl Extractor for Headers<'_> {
            fn get(&self, key: &str) -> Option<&str> {
                self.0.get(key).and_then(|v| v.to_str().ok())
            }
            fn keys(&self) -> Vec<&str> {
                self.0.keys().map(axum::http::HeaderName::as_str).collect()
            }
        }
        let from_headers = propagator.extract_with_context(&empty, &Headers(&parts.headers));
        if found(&from_headers) {
            return Some(from_headers);
        }
    }
    None
}
