//! OpenTelemetry traces and metrics by the MCP semantic conventions (feature `telemetry`).
//!
//! Every request the server answers gets one `SERVER` span, made in one place (the handler's
//! `observed!`): `tools/call`, `resources/read` and `prompts/get`, named `{mcp.method.name}
//! {target}` (`tools/call read_file`, `prompts/get review`; a read is `resources/read`, since
//! its URI would make the name unbounded), and every other method (`initialize`, `tools/list`,
//! `tasks/get`, `subscriptions/listen`, ...) named by its method alone; a method the runtime
//! does not know is `_OTHER`. The conventions' attributes: `mcp.method.name`,
//! `mcp.protocol.version`, `jsonrpc.request.id`, `gen_ai.tool.name` and
//! `gen_ai.operation.name` (`execute_tool`), `gen_ai.prompt.name`, `mcp.resource.uri`,
//! `mcp.session.id` (a 2025-11-25 HTTP session's), `client.address` and `client.port` (over
//! HTTP), `network.transport` (`pipe` on stdio, `tcp` over HTTP, with `network.protocol.name`
//! `http`), and, when it failed, `error.type` and the status `ERROR`.
//! `error.type` is the contract's error code of a tool result that failed (`not_found`,
//! `argument_invalid`, `internal_error`), `tool_error` for a failed result without one, and
//! the JSON-RPC code (`-32602`) of a protocol error, also set as `rpc.response.status_code`.
//! The manifest's names are attributes too: `mcp_contract.group` (the route's group) and
//! `mcp_contract.resource.name`. Results are never recorded, and arguments only those the
//! manifest marks `record: true`, as `gen_ai.tool.call.arguments`.
//!
//! The span's parent is the W3C trace context the client sends: `traceparent` and
//! `tracestate` in the request's `params._meta`, where the specification puts them, or else
//! the HTTP request's `traceparent` header. The spans are `tracing` spans: they reach
//! OpenTelemetry through [`Telemetry::layer`], and a handler's own spans nest under them.
//!
//! The metrics, once a server is given a [`Telemetry`] ([`Server::telemetry`]):
//! `mcp.server.operation.duration` (histogram, seconds, the conventions' buckets), with
//! `mcp.method.name`, the target's name, `error.type`, `mcp.protocol.version` and
//! `network.transport`; `mcp_contract.server.operations` (counter), each request by method,
//! target and `error.type`, whose series for every tool, prompt and resource of the contract,
//! and for every error code each tool declares, exist from start-up, so a tool never called
//! reads `0` rather than nothing; `mcp.server.session.duration` (histogram, seconds) of each
//! stdio connection and each 2025-11-25 HTTP session, once it ends (a `DELETE`, measured by
//! the process it reaches); and the gauges `mcp_contract.server.sessions` and
//! `mcp_contract.server.tasks`, of this process.
//!
//! They leave the process over OTLP/HTTP with protobuf ([`TelemetryBuilder::otlp`]) and as
//! Prometheus text ([`TelemetryBuilder::prometheus`], served by
//! [`Host::metrics`](crate::http::Host::metrics) at `GET /metrics`).
//!
//! [`Server::telemetry`]: crate::Server::telemetry

mod gauges;
mod instruments;
mod operation;
mod setup;

pub(crate) use gauges::PipeOpen;
pub(crate) use instruments::Instruments;
pub(crate) use operation::{Method, Operation, recorded};
pub use setup::{Telemetry, TelemetryBuilder, TelemetryError};
