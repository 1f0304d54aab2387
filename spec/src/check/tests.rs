use serde_json::{Value, json};

use super::*;

fn failures(schema: Value, value: Value) -> Vec<(String, String)> {
    let checker = Checker::compile(&schema).expect("compiles");
    let failures = checker.failures(&value);
    assert_eq!(checker.is_valid(&value), failures.is_empty(), "{value}");
    failures.into_iter().map(|f| (f.at, f.message)).collect()
}

#[test]
fn every_problem_is_named_at_its_place_in_the_validator_s_words() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
        "n": {"type": "integer", "minimum": 1, "maximum": 3},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 1},
        "when": {"type": "string", "format": "date"},
    }, "required": ["name", "gone"], "additionalProperties": false});
    let got = failures(
        schema,
        json!({"name": "A", "n": 1.5, "tags": ["a", "c"], "when": "2024-02-30", "x": 1}),
    );
    let want = [
        ("/name", "\"A\" is shorter than 2 characters"),
        ("/name", "\"A\" does not match \"^[a-z]+$\""),
        ("/n", "1.5 is not of type \"integer\""),
        ("/tags/1", "\"c\" is not one of \"a\" or \"b\""),
        ("/tags", "[\"a\",\"c\"] has more than 1 item"),
        ("/when", "\"2024-02-30\" is not a \"date\""),
        ("", "\"gone\" is a required property"),
        (
            "",
            "Additional properties are not allowed ('x' was unexpected)",
        ),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, m)| ((*a).to_owned(), (*m).to_owned()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn numbers_compare_exactly_across_their_forms() {
    let bounded = json!({"type": "integer", "minimum": 0, "maximum": u64::MAX});
    assert_eq!(failures(bounded.clone(), json!(u64::MAX)), []);
    assert_eq!(failures(bounded.clone(), json!(3.0)), []);
    assert_eq!(failures(bounded.clone(), json!(-1)).len(), 1);
    assert_eq!(failures(bounded, json!(1.9e19)).len(), 1);
    let signed = json!({"type": "number", "minimum": -1.5, "exclusiveMaximum": 2});
    assert_eq!(failures(signed.clone(), json!(-1)), []);
    assert_eq!(failures(signed.clone(), json!(-2)).len(), 1);
    assert_eq!(failures(signed, json!(2.0)).len(), 1);
}

#[test]
fn a_long_value_is_quoted_cut() {
    let long = "y".repeat(10_000);
    let got = failures(json!({"type": "string", "maxLength": 3}), json!(long));
    assert!(
        got[0]
            .1
            .ends_with("… (10002 bytes of JSON) is longer than 3 characters"),
        "{}",
        got[0].1
    );
    assert!(got[0].1.len() < 200);
}

#[test]
fn applicators_outside_the_subset_do_not_compile() {
    for keyword in ["$ref", "if", "prefixItems", "patternProperties"] {
        let schema = json!({"type": "object", "properties": {"a": {keyword: {}}}});
        let e = Checker::compile(&schema).expect_err(keyword);
        assert!(
            e.contains(&format!("/properties/a/{}", keyword.replace('/', "~1"))),
            "{e}"
        );
    }
    assert!(Checker::compile(&json!({"pattern": "(?<=a)b"})).is_err());
}
