//! The differential test of example validation: the generator refuses exactly the examples
//! the `jsonschema` crate refuses under the published schema, in the same words, at the same
//! places (the generator checks with the runtime's checker, not with `jsonschema`).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{VALID, refused};
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
