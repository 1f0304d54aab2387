//! Examples and defaults, checked against their own schemas: each refusal with its code,
//! message and place, the caret on the part that breaks the schema; and the differential test:
//! the generator refuses exactly the examples the `jsonschema` crate refuses under the
//! published schema, in the same words, at the same places (the generator checks with the
//! runtime's checker, not with `jsonschema`).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{VALID, loads, refused, refused_at, single, single_containing, with};
use crate::{Source, load};

/// Schemas written as the manifest writes them (JSON is YAML) and the examples tried under
/// each; what the manifest adds when publishing (the description) asserts nothing.
fn cases() -> Vec<(Value, Vec<Value>)> {
    vec![
        (
            json!({"type": "integer", "minimum": 1, "maximum": 10}),
            vec![
                json!(0),
                json!(1),
                json!(10),
                json!(11),
                json!(2.5),
                json!("x"),
                json!(5.0),
            ],
        ),
        (
            json!({"type": "number", "minimum": -1.5, "maximum": 1e3}),
            vec![json!(-1.5), json!(-2), json!(1000.5), json!(true)],
        ),
        (
            json!({"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"}),
            vec![
                json!("a"),
                json!("ab"),
                json!("abcd"),
                json!("abcde"),
                json!("AB"),
                json!("ééé"),
                json!("A"),
                json!(3),
            ],
        ),
        (
            json!({"type": "string", "enum": ["fast", "slow", "x", "y"]}),
            vec![json!("fast"), json!("medium"), json!(1)],
        ),
        (
            json!({"type": "boolean"}),
            vec![json!(true), json!("yes"), json!(null)],
        ),
        (
            json!({"type": "array", "items": {"type": "integer", "minimum": 0},
                   "minItems": 1, "maxItems": 2}),
            vec![
                json!([1]),
                json!([]),
                json!([1, 2, 3]),
                json!([-1, "x"]),
                json!({}),
            ],
        ),
        (
            json!({"type": "array", "items": {"type": "string", "format": "date"}}),
            vec![
                json!(["2024-02-29"]),
                json!(["2023-02-29", "x", "2024-01-01"]),
            ],
        ),
    ]
    .into_iter()
    .chain(
        [
            "date-time",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uri",
            "uuid",
            "json-pointer",
        ]
        .into_iter()
        .map(|f| {
            (
                json!({"type": "string", "format": f}),
                vec![
                    json!("2024-01-01T00:00:00Z"),
                    json!("a@example.com"),
                    json!("example.com"),
                    json!("10.0.0.1"),
                    json!("::1"),
                    json!("https://example.com/a?b"),
                    json!("67e55044-10b1-426f-9247-bb680e5fe0c8"),
                    json!("/a/b~1c"),
                    json!("not one of them"),
                ],
            )
        }),
    )
    .collect()
}

/// What `jsonschema` says of `example`, in the generator's words for each problem.
fn jsonschema_problems(schema: &Value, example: &Value) -> BTreeSet<String> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("compiles");
    validator
        .iter_errors(example)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("at `{at}`: {e}")
            }
        })
        .collect()
}

#[test]
fn examples_are_refused_as_jsonschema_refuses_them_in_its_words() {
    let prefix = "this example does not match its own schema: ";
    let mut disagree = Vec::new();
    let mut refusals = 0;
    for (schema, examples) in cases() {
        for example in examples {
            let mut parameter = schema.clone();
            parameter["description"] = json!("A value.");
            parameter["example"] = example.clone();
            let text = format!("{VALID}    parameters:\n      n: {parameter}\n");
            let expected = jsonschema_problems(&schema, &example);
            let got: BTreeSet<String> = match load(&Source::new("tools.yaml", text.as_str())) {
                Ok(_) => BTreeSet::new(),
                Err(_) => {
                    let (_, diags) = refused(&text);
                    match diags.as_slice() {
                        [d] if d.code == "invalid-example" => d
                            .message
                            .strip_prefix(prefix)
                            .expect("the sentence")
                            .split("; ")
                            .map(str::to_owned)
                            .collect(),
                        _ => {
                            disagree.push(format!("{schema} {example}: refused with {diags:?}"));
                            continue;
                        }
                    }
                }
            };
            refusals += usize::from(!expected.is_empty());
            if got != expected {
                disagree.push(format!(
                    "{schema} {example}: jsonschema {expected:?}, generator {got:?}"
                ));
            }
        }
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
    assert!(refusals > 40, "{refusals}");
}

/// A parameter `n` with `schema` lines (indented by eight spaces) and `example` on line
/// 13, column 18.
fn parameter(schema: &str, example: &str) -> String {
    with(&format!(
        "    parameters:
      n:
        description: A value.
        example: {example}
{schema}"
    ))
}

const INVALID_EXAMPLE: &str = "this example does not match its own schema: ";

#[test]
fn default_out_of_range() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        default: 10000000000000000000
",
    );
    let d = single(
        &text,
        "default-out-of-range",
        "this default holds an integer that the generated `i64` cannot",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the handler receives the default as an `i64`: keep it from -9223372036854775808 to 9223372036854775807, or add `minimum: 0` for a `u64`"
        )
    );
    // Under `minimum: 0` the type is `u64`, which holds it.
    let unsigned = text.replace("example: 1\n", "example: 1\n        minimum: 0\n");
    assert!(load(&Source::new("tools.yaml", unsigned.as_str())).is_ok());
    // A nested integer is named by its pointer; a whole float counts as the integer it is.
    single(
        &with(
            "    parameters:
      p:
        type: object
        description: P.
        example: {xs: []}
        required: false
        default: {xs: [1, 2.0e19]}
        properties:
          xs: {type: array, description: Xs., items: {type: integer, minimum: 0}}
",
        ),
        "default-out-of-range",
        "this default holds an integer at `/xs/1` that the generated `u64` cannot",
        "tools.yaml:15:27",
    );
}

#[test]
fn an_example_beyond_its_rust_integer_is_invalid() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        minimum: 0
        example: 18446744073709551616
",
    );
    let d = single(
        &text,
        "invalid-example",
        "this example holds an integer that the generated `u64` cannot",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the handler receives the example as a `u64`: keep it at most 18446744073709551615")
    );
    // The largest `u64` is an example a call can copy.
    loads(&text.replace("18446744073709551616", "18446744073709551615"));
}

#[test]
fn invalid_example() {
    let d = single(
        &parameter("        type: integer\n", "abc"),
        "invalid-example",
        "this example does not match its own schema: \"abc\" is not of type \"integer\"",
        "tools.yaml:12:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("change the example so it satisfies the type and constraints declared beside it")
    );
}

#[test]
fn invalid_example_below_minimum() {
    single_containing(
        &parameter("        type: integer\n        minimum: 1\n", "0"),
        "invalid-example",
        INVALID_EXAMPLE,
        "less than the minimum of 1",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_against_pattern() {
    single_containing(
        &parameter(
            "        type: string\n        pattern: \"^[a-z]+$\"\n",
            "ABC",
        ),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"ABC\" does not match \"^[a-z]+$\"",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_outside_enum() {
    single_containing(
        &parameter("        type: string\n        enum: [a, b]\n", "c"),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"c\" is not one of",
        "tools.yaml:12:18",
    );
}

/// Values whose schemas differ only in their annotations share a compiled validator; values
/// whose assertions differ do not.
#[test]
fn examples_sharing_assertions_are_checked_alike_and_others_on_their_own() {
    let diags = refused_at(
        &with(
            "    parameters:
      a: {type: string, description: First., example: x, minLength: 1}
      b: {type: string, description: Second., example: \"\", minLength: 1}
      c: {type: string, description: Third., example: ab, minLength: 3}
      d: {type: string, description: Fourth., example: abc, minLength: 3}
",
        ),
        &[
            ("invalid-example", "tools.yaml:11:56"),
            ("invalid-example", "tools.yaml:12:55"),
        ],
    );
    assert!(
        diags[1].message.contains("shorter than 3"),
        "{}",
        diags[1].message
    );
}

#[test]
fn invalid_example_against_format() {
    single_containing(
        &parameter("        type: string\n        format: date\n", "2024-13-45"),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"2024-13-45\" is not a \"date\"",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_in_a_nested_field() {
    let text = parameter(
        "        type: object
        properties:
          size:
            type: integer
            description: A size.
",
        "{size: big}",
    );
    single_containing(
        &text,
        "invalid-example",
        INVALID_EXAMPLE,
        "at `/size`: \"big\" is not of type \"integer\"",
        "tools.yaml:12:25",
    );
}

#[test]
fn invalid_default() {
    let text = parameter(
        "        type: integer\n        minimum: 0\n        default: -1\n",
        "1",
    );
    let d = single_containing(
        &text,
        "invalid-example",
        "this default does not match its own schema: ",
        "-1 is less than the minimum of 0",
        "tools.yaml:15:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("change the default so it satisfies the type and constraints declared beside it")
    );
}

#[test]
fn an_example_is_refused_at_the_part_that_breaks_its_schema() {
    // Line 12 is `example: {start: 0, end: 2}`: the caret goes under the `0`.
    let text = parameter(
        "        type: object
        properties:
          start: {type: integer, minimum: 1, description: First.}
          end: {type: integer, minimum: 1, description: Last.}
",
        "{start: 0, end: 2}",
    );
    single_containing(
        &text,
        "invalid-example",
        INVALID_EXAMPLE,
        "at `/start`: 0 is less than the minimum of 1",
        "tools.yaml:12:26",
    );
}
