//! Checking a call's arguments against the whole published input schema, before any
//! handler runs, and naming every argument that is missing, malformed or unknown.

use jsonschema::error::ValidationErrorKind;
use mcp_contract_spec::error_codes::{ARGUMENT_INVALID, ARGUMENT_MISSING, ARGUMENT_UNKNOWN};
use mcp_contract_spec::pointer;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::envelope::{Envelope, Problem};

/// How much of a rejected value's JSON a message quotes back; the rest is cut, so a call
/// that sent megabytes does not get them back (twice: as text and as structured content).
const QUOTED_CHARS: usize = 60;

/// The validator's message, with the rejected value cut to [`QUOTED_CHARS`] when longer.
pub(crate) fn described(error: &jsonschema::ValidationError<'_>) -> String {
    let value = error.instance().to_string();
    if value.chars().count() <= QUOTED_CHARS {
        return error.to_string();
    }
    let head: String = value.chars().take(QUOTED_CHARS).collect();
    let quoted = format!("{head}… ({} bytes of JSON)", value.len());
    error.masked_with(quoted).to_string()
}

/// Checks `arguments` against tool `name`'s compiled input schema. On failure, one problem
/// per argument concerned: missing ones first, then invalid, then unknown, each in the order
/// found.
pub(crate) fn check(
    name: &str,
    validator: &jsonschema::Validator,
    schema: &JsonObject,
    arguments: &JsonObject,
) -> Result<(), Envelope> {
    let instance = Value::Object(arguments.clone());
    let mut missing = Vec::new();
    let mut invalid = Vec::new();
    let mut unknown = Vec::new();
    for error in validator.iter_errors(&instance) {
        let at = error.instance_path().to_string();
        match error.kind() {
            ValidationErrorKind::Required { property } if at.is_empty() => {
                let arg = property.as_str().unwrap_or_default().to_owned();
                missing.push(Problem {
                    code: ARGUMENT_MISSING.into(),
                    message: format!("`{arg}` is required but was not given."),
                    argument: Some(arg),
                });
            }
            ValidationErrorKind::AdditionalProperties { unexpected } if at.is_empty() => {
                for arg in unexpected {
                    unknown.push(Problem {
                        code: ARGUMENT_UNKNOWN.into(),
                        message: format!("`{arg}` is not an argument of `{name}`."),
                        argument: Some(arg.clone()),
                    });
                }
            }
            _ => {
                // The first segment of the instance path names the top-level argument.
                let arg = at
                    .trim_start_matches('/')
                    .split('/')
                    .next()
                    .map(pointer::unescape)
                    .unwrap_or_default();
                let error = described(&error);
                let message = if at.matches('/').count() > 1 {
                    format!("`{arg}` is invalid at `{at}`: {error}.")
                } else {
                    format!("`{arg}` is invalid: {error}.")
                };
                invalid.push(Problem {
                    code: ARGUMENT_INVALID.into(),
                    message,
                    argument: (!arg.is_empty()).then_some(arg),
                });
            }
        }
    }
    if missing.is_empty() && invalid.is_empty() && unknown.is_empty() {
        return Ok(());
    }
    let accepted: Vec<&str> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let hint = if accepted.is_empty() {
        format!("`{name}` takes no arguments: call it with `{{}}`.")
    } else {
        format!(
            "Fix the arguments named above and call `{name}` again. It takes: {}; its inputSchema gives each one's type, constraints and an example.",
            accepted
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    missing.append(&mut invalid);
    missing.append(&mut unknown);
    Err(Envelope {
        errors: missing,
        hint: Some(hint),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn problems(schema: Value, arguments: Value) -> Vec<Problem> {
        let validator = jsonschema::validator_for(&schema).expect("a schema");
        let (Value::Object(schema), Value::Object(arguments)) = (schema, arguments) else {
            panic!("objects");
        };
        check("save", &validator, &schema, &arguments)
            .expect_err("refused")
            .errors
    }

    #[test]
    fn a_short_value_is_quoted_back_whole() {
        let got = problems(
            json!({"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}}),
            json!({"name": "abcdef"}),
        );
        assert_eq!(
            got[0].message,
            "`name` is invalid: \"abcdef\" is longer than 3 characters."
        );
    }

    #[test]
    fn a_long_value_is_quoted_back_cut_short() {
        // A call that sends megabytes must not get them back, twice (text and structured).
        let long = "x".repeat(1_000_000);
        let got = problems(
            json!({"type": "object", "properties": {
                "text": {"type": "string", "maxLength": 10},
                "items": {"type": "array", "items": {"type": "integer"}},
            }}),
            json!({"text": long, "items": [1, long]}),
        );
        let messages: Vec<&str> = got.iter().map(|p| p.message.as_str()).collect();
        assert!(messages.iter().all(|m| m.len() < 300), "{messages:?}");
        assert!(
            messages[0].starts_with("`text` is invalid: \"xxxx")
                && messages[0].ends_with("… (1000002 bytes of JSON) is longer than 10 characters."),
            "{}",
            messages[0]
        );
        assert!(
            messages[1].starts_with("`items` is invalid at `/items/1`: \"xxxx"),
            "{}",
            messages[1]
        );
    }
}
