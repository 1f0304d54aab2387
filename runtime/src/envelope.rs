//! The one shape of every tool failure: `{"errors":[{"code","message","argument"?}],"hint"?}`,
//! returned as a tool execution error (`isError: true`) as text, and also as structured
//! content for tools without an `outputSchema` (clients check `structuredContent` against a
//! declared `outputSchema` even on errors, so those tools carry the envelope as text only).

use rmcp::model::CallToolResult;
use serde::Serialize;

/// One problem in an error envelope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Problem {
    /// A stable code from the manifest's vocabulary or the runtime's own.
    pub(crate) code: String,
    /// What went wrong, for a model to read.
    pub(crate) message: String,
    /// The argument concerned: for argument errors, and declared errors that name one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) argument: Option<String>,
}

/// The error envelope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Envelope {
    pub(crate) errors: Vec<Problem>,
    /// What to do next, ideally naming the call that finds a valid value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) hint: Option<String>,
}

impl Envelope {
    pub(crate) fn single(
        code: impl Into<String>,
        message: impl Into<String>,
        argument: Option<&str>,
        hint: Option<String>,
    ) -> Self {
        Envelope {
            errors: vec![Problem {
                code: code.into(),
                message: message.into(),
                argument: argument.map(Into::into),
            }],
            hint,
        }
    }

    /// The envelope as a tool execution error.
    pub fn into_result(self) -> CallToolResult {
        let value =
            serde_json::to_value(&self).unwrap_or_else(|_| serde_json::json!({"errors": []}));
        CallToolResult::structured_error(value)
    }
}
