//! Checking a call's arguments against the whole published input schema, before any
//! handler runs, and naming every argument that is missing, malformed or unknown.

use std::fmt::Write as _;

use mcp_contract_spec::error_codes::ArgumentCodes;
use mcp_contract_spec::pointer;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::check::{Checker, Kind, Node};
use crate::envelope::{Envelope, Problem};

/// The problem with the value at `at` (a JSON pointer into the arguments), named by the
/// top-level argument it lies in, the path given when it lies deeper.
pub(crate) fn invalid_at(codes: &ArgumentCodes, at: &str, error: &str) -> Problem {
    // The first segment of the instance path names the top-level argument.
    let arg = at
        .trim_start_matches('/')
        .split('/')
        .next()
        .map(pointer::unescape)
        .unwrap_or_default();
    let message = if arg.is_empty() {
        // A rule over the arguments together (`anyOf`, `if`/`then`, `not`), which a JSON
        // Schema document given whole may state.
        format!("The arguments are invalid together: {error}.")
    } else if at.matches('/').count() > 1 {
        format!("`{arg}` is invalid at `{at}`: {error}.")
    } else {
        format!("`{arg}` is invalid: {error}.")
    };
    Problem {
        code: codes.invalid.into(),
        message,
        argument: (!arg.is_empty()).then_some(arg),
    }
}

/// The integer a whole float stands for, when a 64-bit integer holds it exactly: above −2^63
/// and below 2^64. serde_json reads an integer beyond 64 bits as the nearest float, which is
/// −2^63 for those just below `i64::MIN` and 2^64 for those just above `u64::MAX`; so neither
/// float says which integer was sent, and neither is read as one.
pub(crate) fn exact_integer(f: f64) -> Option<Value> {
    // Both bounds are powers of two, exact as floats; `u64::MAX as f64` rounds up to 2^64.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() != 0.0 || f <= -TWO_63 || f >= TWO_64 {
        None
    } else if f < 0.0 {
        Some(Value::from(f as i64))
    } else {
        Some(Value::from(f as u64))
    }
}

/// Each value under an `integer` of `schema` that is a whole float no 64-bit integer holds
/// exactly, with the problem in the words of the checker's: where it is, and what to send.
fn inexact_integers(
    checker: &Checker,
    schema: &Node,
    value: &Value,
    at: String,
    out: &mut Vec<(String, String)>,
) {
    match value {
        Value::Number(n) => {
            let Some((min, max)) = checker.integer_bounds(schema) else {
                return;
            };
            let Some(f) = n.as_f64().filter(|_| !n.is_i64() && !n.is_u64()) else {
                return;
            };
            if f.fract() != 0.0 || exact_integer(f).is_some() {
                return;
            }
            let range = match (min, max) {
                (Some(min), Some(max)) => format!("an integer from {min} to {max}"),
                _ => "an integer".into(),
            };
            let problem = format!(
                "{n} cannot be read exactly as an integer; pass {range}, written without a fraction or exponent"
            );
            out.push((at, problem));
        }
        Value::Object(fields) => {
            // A tagged union's fields are its variant's, the one the value's tag names.
            let schema = checker.variant(schema, value).unwrap_or(schema);
            for (name, field) in fields {
                if let Some(property) = checker.property(schema, name) {
                    let at = format!("{at}/{}", pointer::escape(name));
                    inexact_integers(checker, property, field, at, out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = checker.items(schema) {
                for (i, value) in items.iter().enumerate() {
                    inexact_integers(checker, item, value, format!("{at}/{i}"), out);
                }
            }
        }
        _ => {}
    }
}

/// Checks `arguments` against tool `name`'s compiled input schema. On failure, one problem
/// per argument concerned: missing ones first, then invalid, then unknown, each in the order
/// found.
///
/// `hint` is [`hint`]`(name, checker)`, made once per tool, when its checks are compiled.
pub(crate) fn check(
    codes: &ArgumentCodes,
    name: &str,
    checker: &Checker,
    hint: &str,
    arguments: &JsonObject,
) -> Result<(), Envelope> {
    // What the checker cannot see: it reads the floats serde_json made of integers beyond
    // 64 bits, so one at the edge of the range passes a bound it stands beyond.
    let mut inexact = Vec::new();
    for (arg, value) in arguments {
        let float = |n: &serde_json::Number| !n.is_i64() && !n.is_u64();
        let may_hold_one = match value {
            Value::Number(n) => float(n),
            Value::Object(_) | Value::Array(_) => true,
            _ => false,
        };
        if may_hold_one && let Some(property) = checker.property(checker.root(), arg) {
            inexact_integers(
                checker,
                property,
                value,
                format!("/{}", pointer::escape(arg)),
                &mut inexact,
            );
        }
    }
    // One walk: a valid object finds no failure at the cost of the yes-or-no check, and a
    // refused one is not walked twice.
    let failures = checker.object_failures(arguments);
    if failures.is_empty() && inexact.is_empty() {
        return Ok(());
    }
    let mut missing = Vec::new();
    let mut invalid = Vec::new();
    // Where the checker found a value invalid, so that no value is reported twice.
    let mut refused = Vec::new();
    let mut unknown = Vec::new();
    for failure in failures {
        match failure.kind {
            Kind::Required(arg) if failure.at.is_empty() => missing.push(Problem {
                code: codes.missing.into(),
                message: ["`", &arg, "` is required but was not given."].concat(),
                argument: Some(arg),
            }),
            Kind::Unexpected(args) if failure.at.is_empty() => {
                for arg in args {
                    unknown.push(Problem {
                        code: codes.unknown.into(),
                        message: ["`", &arg, "` is not an argument of `", name, "`."].concat(),
                        argument: Some(arg),
                    });
                }
            }
            _ => {
                invalid.push(invalid_at(codes, &failure.at, &failure.message));
                if !inexact.is_empty() {
                    refused.push(failure.at);
                }
            }
        }
    }
    for (at, problem) in inexact {
        if !refused.contains(&at) {
            invalid.push(invalid_at(codes, &at, &problem));
        }
    }
    missing.append(&mut invalid);
    missing.append(&mut unknown);
    Err(Envelope {
        errors: missing,
        hint: Some(hint.to_owned()),
    })
}

/// The hint of every refusal of tool `name`'s arguments: what to do, and every argument it
/// takes.
pub(crate) fn hint(name: &str, checker: &Checker) -> String {
    let mut accepted = checker.root().property_names().peekable();
    if accepted.peek().is_none() {
        return format!("`{name}` takes no arguments: call it with `{{}}`.");
    }
    let mut hint = format!("Fix the arguments named above and call `{name}` again. It takes: ");
    for (i, a) in accepted.enumerate() {
        let _ = write!(hint, "{}`{a}`", if i == 0 { "" } else { ", " });
    }
    hint.push_str("; its inputSchema gives each one's type, constraints and an example.");
    hint
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn problems(schema: Value, arguments: Value) -> Vec<Problem> {
        let checker = Checker::compile(&schema).expect("a schema");
        let Value::Object(arguments) = arguments else {
            panic!("an object");
        };
        check(&ArgumentCodes::DEFAULT, "save", &checker, "", &arguments)
            .expect_err("refused")
            .errors
    }

    /// The problems of `arguments`, JSON text read as serde_json reads a call: an integer
    /// beyond 64 bits becomes the nearest float.
    fn problems_of(schema: Value, arguments: &str) -> Vec<(String, String)> {
        let checker = Checker::compile(&schema).expect("a schema");
        let Ok(Value::Object(arguments)) = serde_json::from_str(arguments) else {
            panic!("an object");
        };
        match check(&ArgumentCodes::DEFAULT, "save", &checker, "", &arguments) {
            Ok(()) => Vec::new(),
            Err(envelope) => envelope
                .errors
                .into_iter()
                .map(|p| (p.argument.unwrap_or_default(), p.message))
                .collect(),
        }
    }

    /// An `i64` and a `u64` at every depth, bounded as the generator publishes them.
    fn sixty_four_bits() -> Value {
        let signed = json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX});
        let unsigned = json!({"type": "integer", "minimum": 0, "maximum": u64::MAX});
        json!({"type": "object", "properties": {
            "signed": signed,
            "unsigned": unsigned,
            "nested": {"type": "object", "properties": {
                "items": {"type": "array", "items": signed},
            }},
        }})
    }

    #[test]
    fn the_edges_of_64_bits_pass_as_integers_and_floats_are_read_when_exact() {
        for arguments in [
            r#"{"signed": -9223372036854775808, "unsigned": 18446744073709551615}"#,
            r#"{"signed": 9223372036854775807, "unsigned": 0}"#,
            r#"{"signed": -9.223372036854774e18, "unsigned": 1.8446744073709550e19}"#,
            r#"{"nested": {"items": [-9223372036854775808, 5.0, -1e3]}}"#,
        ] {
            assert_eq!(problems_of(sixty_four_bits(), arguments), [], "{arguments}");
        }
    }

    /// The same schema with its nested object and its items published under `$defs` (as
    /// `shared_types: defs` publishes shared types): every call is answered the same.
    #[test]
    fn a_schema_behind_ref_is_checked_as_the_same_schema_inlined() {
        let mut defs = sixty_four_bits();
        let nested = defs["properties"]["nested"].take();
        let signed = defs["properties"]["signed"].clone();
        defs["properties"]["nested"] = json!({"$ref": "#/$defs/Nested", "description": "Nested."});
        let mut nested = nested;
        nested["properties"]["items"]["items"] = json!({"$ref": "#/$defs/Signed"});
        defs["$defs"] = json!({"Nested": nested, "Signed": signed});
        for arguments in [
            r#"{"nested": {"items": [1, -9223372036854775809]}}"#,
            r#"{"nested": {"items": [-9223372036854775808, 5.0, -1e3]}}"#,
            r#"{"nested": {"items": ["x"]}, "unsigned": -1}"#,
        ] {
            assert_eq!(
                problems_of(defs.clone(), arguments),
                problems_of(sixty_four_bits(), arguments),
                "{arguments}"
            );
        }
    }

    #[test]
    fn one_past_an_edge_of_64_bits_is_refused_and_named_at_any_depth() {
        let got = problems_of(
            sixty_four_bits(),
            r#"{"signed": -9223372036854775809, "unsigned": 18446744073709551616,
                "nested": {"items": [1, -9223372036854775809]}}"#,
        );
        let signed = "cannot be read exactly as an integer; pass an integer from \
                      -9223372036854775808 to 9223372036854775807, written without a fraction \
                      or exponent.";
        assert_eq!(
            got,
            [
                (
                    "unsigned".to_owned(),
                    "`unsigned` is invalid: 1.8446744073709552e+19 is greater than the maximum of \
                     18446744073709551615."
                        .to_owned()
                ),
                (
                    "signed".to_owned(),
                    format!("`signed` is invalid: -9.223372036854776e+18 {signed}")
                ),
                (
                    "nested".to_owned(),
                    format!(
                        "`nested` is invalid at `/nested/items/1`: -9.223372036854776e+18 {signed}"
                    )
                ),
            ]
        );
        // −2^63 written as a float cannot be told from the integers just below it.
        let got = problems_of(sixty_four_bits(), r#"{"signed": -9.223372036854775808e18}"#);
        assert_eq!(got.len(), 1, "{got:?}");
        // A number field holds what serde_json reads at any size.
        let number = json!({"type": "object", "properties": {"x": {"type": "number"}}});
        assert_eq!(problems_of(number, r#"{"x": -9223372036854775809}"#), []);
    }

    /// In a tagged union the value's tag names the variant whose fields are walked.
    #[test]
    fn one_past_an_edge_of_64_bits_is_refused_in_the_variant_a_tag_names() {
        let signed = json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX});
        let variant = |tag: &str| {
            json!({"type": "object", "properties": {
                "kind": {"type": "string", "const": tag},
                "start": signed,
            }, "required": ["kind", "start"], "additionalProperties": false})
        };
        let schema = json!({"type": "object", "properties": {"edit": {
            "type": "object", "oneOf": [variant("replace"), variant("insert")],
        }}});
        let got = problems_of(
            schema,
            r#"{"edit": {"kind": "insert", "start": -9223372036854775809}}"#,
        );
        assert_eq!(
            got,
            [(
                "edit".to_owned(),
                "`edit` is invalid at `/edit/start`: -9.223372036854776e+18 cannot be read \
                 exactly as an integer; pass an integer from -9223372036854775808 to \
                 9223372036854775807, written without a fraction or exponent."
                    .to_owned()
            )]
        );
    }

    #[test]
    fn a_missing_and_an_unknown_argument_are_named_in_their_sentences_missing_first() {
        let schema = json!({"type": "object", "properties": {"path": {"type": "string"}},
                            "required": ["path"], "additionalProperties": false});
        let got: Vec<(String, String, Option<String>)> = problems(schema, json!({"extra": 1}))
            .into_iter()
            .map(|p| (p.code, p.message, p.argument))
            .collect();
        let named = |code: &str, message: &str, arg: &str| {
            (code.to_owned(), message.to_owned(), Some(arg.to_owned()))
        };
        assert_eq!(
            got,
            [
                named(
                    "argument_missing",
                    "`path` is required but was not given.",
                    "path"
                ),
                named(
                    "argument_unknown",
                    "`extra` is not an argument of `save`.",
                    "extra"
                ),
            ]
        );
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
