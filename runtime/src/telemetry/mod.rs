//! OpenTelemetry traces and metrics by the MCP semantic conventions (feature `telemetry`).
//!
//! Every `tools/call`, `resources/read` and `prompts/get` gets one `SERVER` span, named
//! `{mcp.method.name} {target}` (`tools/call read_file`, `prompts/get review`; a read is
//! `resources/read`, since its URI would make the name unbounded), with the conventions'
//! attributes: `mcp.method.name`, `mcp.protocol.version`, `jsonrpc.request.id`,
//! `gen_ai.tool.name` and `gen_ai.operation.name` (`execute_tool`), `gen_ai.prompt.name`,
//! `mcp.resource.uri`, `network.transport` (`pipe` on stdio, `tcp` over HTTP, with
//! `network.protocol.name` `http`), and, when it failed, `error.type` and the status `ERROR`.
//! `error.type` is the contract's error code of a tool result that failed (`not_found`,
//! `argument_invalid`, `internal_error`), `tool_error` for a failed result without one, and
//! the JSON-RPC code (`-32602`) of a protocol error, also set as `rpc.response.status_code`.
//! The manifest's names are attributes too: `mcp_contract.group` (the route's group) and
//! `mcp_contract.resource.name`. Arguments and results are never recorded.
//!
//! The span's parent is the W3C trace context the client sends: `traceparent` and
//! `tracestate` in the request's `params._meta`, where the specification puts them, or else
//! the HTTP request's `traceparent` header. The spans are `tracing` spans: they reach
//! OpenTelemetry through [`Telemetry::layer`], and a handler's own spans nest under them.
//!
//! The metrics, once a server is given a [`Telemetry`] ([`Server::telemetry`]):
//! `mcp.server.operation.duration` (histogram, seconds, the conventions' buckets), with
//! `mcp.method.name`, the target's name, `error.type`, `mcp.protocol.version` and
//! `network.transport`; and `mcp_contract.server.operations` (counter), each call by method,
//! target and `error.type`, whose series for every tool, prompt and resource of the contract
//! exist from start-up, so a tool never called reads `0` rather than nothing; and
//! `mcp.server.session.duration` (histogram, seconds) of each stdio connection, once it ends.
//!
//! They leave the process over OTLP/HTTP with protobuf ([`TelemetryBuilder::otlp`]) and as
//! Prometheus text ([`TelemetryBuilder::prometheus`], served by
//! [`Host::metrics`](crate::http::Host::metrics) at `GET /metrics`).
//!
//! [`Server::telemetry`]: crate::Server::telemetry

mod instruments;
mod operation;
mod setup;

pub(crate) use instruments::Instruments;
pub(crate) use operation::{Method, Operation};
pub use setup::{Telemetry, TelemetryBuilder, TelemetryError};
