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
        self.into_result_for(true)
    }

    /// [`Envelope::into_result`], with the envelope as structured content too only when
    /// `structured` (a tool with an `outputSchema` sends it as text only); the text is written
    /// straight from the envelope, not through a `Value` the answer would drop.
    pub(crate) fn into_result_for(self, structured: bool) -> CallToolResult {
        if structured {
            let value =
                serde_json::to_value(&self).unwrap_or_else(|_| serde_json::json!({"errors": []}));
            return CallToolResult::structured_error(value);
        }
        // Sized for two problems and a hint, so the text is not copied as it grows.
        let mut text = Vec::with_capacity(512);
        let text = match serde_json::to_writer(&mut text, &self) {
            Ok(()) => String::from_utf8(text).unwrap_or_default(),
            Err(_) => r#"{"errors":[]}"#.into(),
        };
        CallToolResult::error(vec![rmcp::model::ContentBlock::text(text)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_only_envelope_is_the_structured_one_s_text() {
        let envelope = Envelope {
            errors: vec![Problem {
                code: "argument_missing".into(),
                message: "`path` is \"required\" but was not given.".into(),
                argument: Some("path".into()),
            }],
            hint: Some("Fix it: `a`, `b`.".into()),
        };
        let both = envelope.clone().into_result();
        let text = envelope.into_result_for(false);
        assert_eq!(text.content, both.content);
        assert_eq!((text.is_error, text.structured_content), (Some(true), None));
        assert!(both.structured_content.is_some());
    }
}
