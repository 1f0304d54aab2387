//! Running a generated server for tests (feature `testing`): an rmcp client of either protocol
//! revision connected in process ([`connect`]) or, with `http-testing`, over loopback HTTP
//! (`connect_http`, `serve_on_loopback`, `http_request`); the official MCP schemas
//! ([`check_wire`]); and the contract test ([`assert_contract`]).

mod client;
mod contract;
#[cfg(feature = "http-testing")]
mod http;
mod wire;

pub use client::{Client, call, connect, envelope, problems, structured};
pub use contract::assert_contract;
#[cfg(feature = "http-testing")]
pub use http::{RawResponse, connect_http, http_request, serve_on_loopback};
pub use mcp_contract_spec::Revision;
pub use wire::{check_wire, official_schema};
