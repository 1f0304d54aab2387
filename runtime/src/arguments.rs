//! Checking a call's arguments against the whole published input schema, before any
//! handler runs, and naming every argument that is missing, malformed or unknown.

use jsonschema::error::ValidationErrorKind;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::envelope::{Envelope, Problem};

/// A required argument was not given.
pub const MISSING: &str = "argument_missing";
/// An argument has the wrong type or breaks a constraint.
pub const INVALID: &str = "argument_invalid";
/// An argument the tool does not take.
pub const UNKNOWN: &str = "argument_unknown";

/// Checks `arguments` against tool `name`'s compiled input schema. On failure, one problem
/// per argument concerned: missing ones first, then invalid, then unknown, each in the order
/// found.
pub fn check(
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
                    code: MISSING.into(),
                    message: format!("`{arg}` is required but was not given."),
                    argument: Some(arg),
                });
            }
            ValidationErrorKind::AdditionalProperties { unexpected } if at.is_empty() => {
                for arg in unexpected {
                    unknown.push(Problem {
                        code: UNKNOWN.into(),
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
                    .unwrap_or_default();
                let arg = arg.replace("~1", "/").replace("~0", "~");
                let message = if at.matches('/').count() > 1 {
                    format!("`{arg}` is invalid at `{at}`: {error}.")
                } else {
                    format!("`{arg}` is invalid: {error}.")
                };
                invalid.push(Problem {
                    code: INVALID.into(),
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
