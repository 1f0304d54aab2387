//! The steps of a call that generated dispatch code runs: typed arguments in, result out.

use mcp_contract_spec::error_codes::{ARGUMENT_INVALID, INTERNAL_ERROR};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde::{Serialize, de::DeserializeOwned};

use crate::ToolError;
use crate::envelope::{Envelope, Problem};

/// Reads arguments that already passed the input schema into the tool's argument struct.
///
/// The schema and the struct come from the same manifest entry, so this fails only on a
/// value the schema cannot express (an integer beyond 64 bits, say); it is then reported
/// like any other invalid argument.
pub fn arguments<T: DeserializeOwned>(arguments: JsonObject) -> Result<T, Envelope> {
    let mut value = serde_json::Value::Object(arguments);
    whole_floats_as_integers(&mut value);
    serde_json::from_value(value).map_err(|e| Envelope {
        errors: vec![Problem {
            code: ARGUMENT_INVALID.into(),
            message: e.to_string(),
            argument: None,
        }],
        hint: Some("Check each argument against the tool's inputSchema and call again.".into()),
    })
}

/// JSON Schema counts `5.0` as an integer, and clients (Python's among them) send such
/// numbers; serde would refuse them for an integer field, so they are rewritten first.
/// A float field reads an integer number just as well.
fn whole_floats_as_integers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0) {
                // `u64::MAX as f64` rounds up to 2^64, which `as u64` would clamp to
                // `u64::MAX`: only numbers below 2^64 fit.
                if f >= 0.0 && f < u64::MAX as f64 {
                    *value = serde_json::Value::from(f as u64);
                } else if f < 0.0 && f >= i64::MIN as f64 {
                    *value = serde_json::Value::from(f as i64);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_floats_as_integers),
        serde_json::Value::Object(map) => map.values_mut().for_each(whole_floats_as_integers),
        _ => {}
    }
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
pub(crate) fn failure<E: ToolError>(error: &E) -> CallToolResult {
    Envelope::single(error.code(), error.message(), error.hint()).into_result()
}

/// An `internal_error` envelope: the server failed, not the call.
pub(crate) fn internal(message: impl Into<String>) -> CallToolResult {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Args {
        count: u64,
        offset: i64,
        ratio: f64,
        nested: Vec<u64>,
    }

    #[test]
    fn whole_floats_read_as_integers_and_fractions_stay_refused() {
        let args = json!({"count": 5.0, "offset": -2.0, "ratio": 1.0, "nested": [1.0, 2]});
        let serde_json::Value::Object(map) = args else {
            unreachable!()
        };
        assert_eq!(
            arguments::<Args>(map),
            Ok(Args {
                count: 5,
                offset: -2,
                ratio: 1.0,
                nested: vec![1, 2]
            })
        );
        let serde_json::Value::Object(map) =
            json!({"count": 5.5, "offset": 0, "ratio": 0, "nested": []})
        else {
            unreachable!()
        };
        assert!(arguments::<Args>(map).is_err());
    }

    /// 2^64 is a whole number one past `u64::MAX`: it must be refused, not clamped.
    #[test]
    fn a_whole_float_beyond_u64_is_refused_not_clamped() {
        for count in [json!(18446744073709551616.0), json!(1.8446744073709552e19)] {
            let serde_json::Value::Object(map) =
                json!({"count": count, "offset": 0, "ratio": 0, "nested": []})
            else {
                unreachable!()
            };
            assert!(arguments::<Args>(map).is_err(), "{count} was accepted");
        }
        let serde_json::Value::Object(map) = serde_json::from_str(
            r#"{"count": 18446744073709551616, "offset": 0, "ratio": 0, "nested": []}"#,
        )
        .unwrap() else {
            unreachable!()
        };
        assert!(
            arguments::<Args>(map).is_err(),
            "an integer beyond u64 was accepted"
        );
    }
}
