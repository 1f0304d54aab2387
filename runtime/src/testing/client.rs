//! The in-process client: a server on one end of an in-memory pipe, an rmcp client of either
//! revision on the other; and reading what a call returns, whichever client made it.

pub(super) use crate::client::session::open;

use super::Revision;
use crate::server::{Dispatch, Server};
use crate::stdio::Options;

/// A client connected to a server running on this runtime.
pub type Client = crate::client::session::Session;

/// Starts `server` on one end of an in-memory pipe, served as `serve_stdio` serves stdin and
/// stdout, and connects a client to the other end, speaking `revision`.
pub async fn connect<D: Dispatch>(
    server: Server<D>,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_stream(read, write, Options::default()));
    open(client_io, revision).await
}

/// Calls tool `name` with `arguments` (a JSON object) and returns its result.
///
/// # Panics
///
/// When `arguments` is not an object or the call fails as a protocol error; a test that
/// expects a protocol error calls the client directly.
pub async fn call(
    client: &Client,
    name: &str,
    arguments: serde_json::Value,
) -> rmcp::model::CallToolResult {
    let serde_json::Value::Object(arguments) = arguments else {
        panic!("tool arguments must be a JSON object")
    };
    client
        .call_tool(
            rmcp::model::CallToolRequestParams::new(name.to_owned()).with_arguments(arguments),
        )
        .await
        .unwrap_or_else(|e| panic!("`{name}` answered with a protocol error: {e}"))
}

/// The structured content of a successful result.
///
/// # Panics
///
/// When the result is an error or carries no structured content.
pub fn structured(result: &rmcp::model::CallToolResult) -> serde_json::Value {
    assert_eq!(result.is_error, Some(false), "expected success: {result:?}");
    result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("no structured content: {result:?}"))
}

/// The error envelope of a tool error, read from its text block: every error carries it
/// there, while `structuredContent` carries it only for tools without an `outputSchema`.
/// `None` when the result is not an error or its text is not an envelope.
pub fn envelope(result: &rmcp::model::CallToolResult) -> Option<serde_json::Value> {
    if result.is_error != Some(true) {
        return None;
    }
    let text = result.content.first()?.as_text()?;
    serde_json::from_str::<serde_json::Value>(&text.text)
        .ok()
        .filter(|v| v["errors"].is_array())
}

/// The `(code, argument)` pairs of an error envelope, in order; `""` where a problem names
/// no argument.
pub fn problems(envelope: &serde_json::Value) -> Vec<(&str, &str)> {
    let errors = envelope["errors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    errors
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap_or_default(),
                e["argument"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}
