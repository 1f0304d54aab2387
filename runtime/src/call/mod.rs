//! The steps of a call that generated dispatch code runs: typed arguments in, result out.

use mcp_contract_spec::error_codes::{ArgumentCodes, INTERNAL_ERROR};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde::Serialize;

use crate::ToolError;
use crate::arguments::invalid_at;
use crate::content::{Block, Declared};
use crate::envelope::Envelope;

pub(crate) mod read;

use self::read::Read;

/// Reads arguments that already passed the input schema into the tool's argument struct,
/// by the `Read` impl the generator wrote for it.
///
/// The schema and the struct come from the same manifest entry, and the schema states every
/// bound of the struct's numbers, so this does not fail; if it ever did, the value it failed
/// on is reported like any other invalid argument, named by its argument and path, and what
/// the Rust type expected goes to the log, not to the caller.
pub fn arguments<T: Read>(codes: &ArgumentCodes, arguments: JsonObject) -> Result<T, Envelope> {
    T::read(serde_json::Value::Object(arguments)).map_err(|e| {
        let at = e.at();
        tracing::error!(
            at,
            expected = e.expectation(),
            "arguments that passed the input schema do not fit the arguments struct"
        );
        Envelope {
            errors: vec![invalid_at(codes, &at, "the server cannot read this value")],
            hint: Some("Check each argument against the tool's inputSchema and call again.".into()),
        }
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

/// A result of the content blocks a tool declares (`output.content`), checked against the
/// declaration first: a block it does not allow is an `internal_error` instead.
pub fn content<C: Into<Block>, E: ToolError>(
    declared: &Declared,
    result: Result<Vec<C>, E>,
) -> CallToolResult {
    match result {
        Ok(content) => match blocks(declared, content) {
            Ok(blocks) => CallToolResult::success(blocks),
            Err(why) => undeclared(&why),
        },
        Err(error) => failure(&error),
    }
}

/// A structured result with declared content beside it: the output as `structuredContent`,
/// the blocks as `content`.
pub fn structured_content<T: Serialize, C: Into<Block>, E: ToolError>(
    declared: &Declared,
    result: Result<(T, Vec<C>), E>,
) -> CallToolResult {
    let (output, content) = match result {
        Ok(answer) => answer,
        Err(error) => return failure(&error),
    };
    match (serde_json::to_value(&output), blocks(declared, content)) {
        (Ok(value), Ok(blocks)) => {
            let mut result = CallToolResult::success(blocks);
            result.structured_content = Some(value);
            result
        }
        (Err(e), _) => internal(format!("the tool's output could not be serialized: {e}")),
        (_, Err(why)) => undeclared(&why),
    }
}

/// The handler's blocks as sent, or why the declaration refuses them.
fn blocks<C: Into<Block>>(
    declared: &Declared,
    content: Vec<C>,
) -> Result<Vec<ContentBlock>, String> {
    crate::content::blocks(declared, content.into_iter().map(Into::into).collect())
}

/// The `internal_error` that replaces a result whose content breaks its declaration.
fn undeclared(why: &str) -> CallToolResult {
    tracing::error!(problem = why, "tool result breaks its declared content");
    internal(format!(
        "The tool produced {why}, so the result was not sent."
    ))
}

/// A declared error as an envelope.
pub(crate) fn failure<E: ToolError>(error: &E) -> CallToolResult {
    Envelope::single(
        error.code(),
        error.message(),
        error.argument(),
        error.hint(),
    )
    .into_result()
}

/// An `internal_error` envelope: the server failed, not the call.
pub(crate) fn internal(message: impl Into<String>) -> CallToolResult {
    Envelope::single(
        INTERNAL_ERROR,
        message,
        None,
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

    #[derive(Debug, PartialEq)]
    struct Args {
        count: u64,
        offset: i64,
        ratio: f64,
        nested: Vec<u64>,
    }

    /// As the generator writes it.
    impl Read for Args {
        fn read(v: serde_json::Value) -> crate::call::read::Reading<Self> {
            let mut o = super::read::Object::new(v)?;
            Ok(Self {
                count: o.field("count")?,
                offset: o.field("offset")?,
                ratio: o.field("ratio")?,
                nested: o.field("nested")?,
            })
        }
    }

    #[test]
    fn whole_floats_read_as_integers_and_fractions_stay_refused() {
        let args = json!({"count": 5.0, "offset": -2.0, "ratio": 1.0, "nested": [1.0, 2]});
        let serde_json::Value::Object(map) = args else {
            unreachable!()
        };
        assert_eq!(
            arguments::<Args>(&ArgumentCodes::DEFAULT, map),
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
        assert!(arguments::<Args>(&ArgumentCodes::DEFAULT, map).is_err());
    }

    /// A value the schema would have refused, deserialized without it: what a mismatch of
    /// schema and struct would look like. Named by its argument and path, in no Rust terms.
    #[test]
    fn a_value_the_struct_cannot_hold_is_an_argument_error_naming_it() {
        for (args, argument, message) in [
            (
                json!({"count": -1, "offset": 0, "ratio": 0, "nested": []}),
                "count",
                "`count` is invalid: the server cannot read this value.",
            ),
            (
                json!({"count": 1, "offset": 0, "ratio": 0, "nested": [1, "two"]}),
                "nested",
                "`nested` is invalid at `/nested/1`: the server cannot read this value.",
            ),
            (
                json!({"count": 1, "offset": -(2f64.powi(63)), "ratio": 0, "nested": []}),
                "offset",
                "`offset` is invalid: the server cannot read this value.",
            ),
        ] {
            let serde_json::Value::Object(map) = args else {
                unreachable!()
            };
            let refused = arguments::<Args>(&ArgumentCodes::DEFAULT, map).expect_err("refused");
            let value = serde_json::to_value(&refused).expect("JSON");
            assert_eq!(
                value["errors"],
                json!([{"code": "argument_invalid", "message": message, "argument": argument}])
            );
        }
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
            assert!(
                arguments::<Args>(&ArgumentCodes::DEFAULT, map).is_err(),
                "{count} was accepted"
            );
        }
        let serde_json::Value::Object(map) = serde_json::from_str(
            r#"{"count": 18446744073709551616, "offset": 0, "ratio": 0, "nested": []}"#,
        )
        .unwrap() else {
            unreachable!()
        };
        assert!(
            arguments::<Args>(&ArgumentCodes::DEFAULT, map).is_err(),
            "an integer beyond u64 was accepted"
        );
    }
}
