//! The steps of a call that generated dispatch code runs: typed arguments in, result out.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde::{Serialize, de::DeserializeOwned};

use crate::ToolError;
use crate::envelope::{Envelope, INTERNAL_ERROR, Problem};

/// Reads arguments that already passed the input schema into the tool's argument struct.
///
/// The schema and the struct come from the same manifest entry, so this fails only on a
/// value the schema cannot express (an integer beyond 64 bits, say); it is then reported
/// like any other invalid argument.
pub fn arguments<T: DeserializeOwned>(arguments: JsonObject) -> Result<T, Envelope> {
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| Envelope {
        errors: vec![Problem {
            code: crate::arguments::INVALID.into(),
            message: e.to_string(),
            argument: None,
        }],
        hint: Some("Check each argument against the tool's inputSchema and call again.".into()),
    })
}

/// A structured result: the output as `structuredContent` and the same JSON as text.
pub fn structured<T: Serialize, E: ToolError>(result: Result<T, E>) -> CallToolResult {
    match result {
        Ok(output) => match serde_json::to_value(&output) {
            Ok(value) => CallToolResult::structured(value),
            Err(e) => internal(format!("the tool's output could not be serialized: {e}")),
        },
        Err(error) => failure(&error),
    }
}

/// A plain-text result.
pub fn text<E: ToolError>(result: Result<String, E>) -> CallToolResult {
    match result {
        Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Err(error) => failure(&error),
    }
}

/// A declared error as an envelope.
pub fn failure<E: ToolError>(error: &E) -> CallToolResult {
    Envelope::single(error.code(), error.message(), error.hint()).into_result()
}

/// An `internal_error` envelope: the server failed, not the call.
pub fn internal(message: impl Into<String>) -> CallToolResult {
    Envelope::single(
        INTERNAL_ERROR,
        message,
        Some("This is a fault in the server, not in the call; retrying may not help.".into()),
    )
    .into_result()
}

/// Dispatch reached an index with no tool: generated code and the published list disagree.
pub fn unknown_tool(index: usize) -> CallToolResult {
    internal(format!("no handler for tool #{index}"))
}
