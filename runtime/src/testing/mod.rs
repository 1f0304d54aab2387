//! Running a generated server for tests (feature `testing`): an rmcp client of either protocol
//! revision connected in process ([`connect`]) or, with `http-testing`, over loopback HTTP
//! (`connect_http`, `serve_on_loopback`, `http_request`); raw JSON-RPC lines to a server served
//! as stdio serves ([`serve_lines`]); the official MCP schemas ([`check_wire`]); and the
//! contract test ([`assert_contract`]); the run-time checks held to the `jsonschema` crate
//! ([`assert_checks`]); the suite every state store passes ([`state_suite`]); an `haproxy` of a
//! test's own in front of the servers it runs ([`Haproxy`]); and, with `redis`, a
//! `redis-server` of a test's own (`RedisServer`).

#[cfg(feature = "auth-testing")]
pub mod auth;
pub(crate) mod checks;
mod client;
mod contract;
mod faulty;
mod haproxy;
#[cfg(feature = "http-testing")]
mod http;
mod lines;
mod prompts;
#[cfg(feature = "redis")]
mod redis;
mod state;
mod wire;

#[cfg(feature = "redis")]
pub use self::redis::{Monitor, RedisServer};
pub use checks::assert_checks;
pub use client::{Client, call, connect, envelope, problems, structured};
pub use contract::assert_contract;
pub use faulty::{Fault, FaultyStore, Part};
pub use haproxy::{Haproxy, LISTEN_VAR};
#[cfg(feature = "http-testing")]
pub use http::{
    RawResponse, connect_http, each_transport, http_request, open_session_2025, post_2025,
    serve_on_loopback,
};
pub use lines::{Lines, serve_lines, serve_lines_with};
pub use mcp_contract_spec::Revision;
pub use state::{state_checks, state_suite};
pub use wire::{check_wire, official_schema};

/// The `_meta` with which a client of the newest revision, which has no `initialize`
/// handshake, declares itself on every request: its protocol version and (empty) client
/// capabilities.
pub fn request_meta() -> serde_json::Value {
    serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": Revision::LATEST.as_str(),
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}
