//! The differential tests: the checker (`mcp_contract_spec::check`) against jsonschema,
//! formats included, over the values the contract test makes.

use mcp_contract_spec::Format;
use serde_json::json;

use crate::testing::checks::{FORMAT_CORPUS, differ};

#[test]
fn each_format_accepts_what_jsonschema_accepts() {
    let mut disagree = Vec::new();
    for format in Format::ALL {
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&json!({"format": format.as_str()}))
            .expect("compiles");
        for s in FORMAT_CORPUS {
            // Left apart on purpose (see `format`): ECMA-262 against regex-lite syntax,
            // and the Unicode of `xn--` labels.
            if *format == Format::Regex || *format == Format::Hostname && s.contains("xn--") {
                continue;
            }
            let theirs = validator.is_valid(&json!(s));
            if format.accepts(s) != theirs {
                disagree.push(format!("{} {s:?}: jsonschema {theirs}", format.as_str()));
            }
        }
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
}

#[test]
fn every_keyword_of_the_subset_agrees_with_jsonschema() {
    let schemas = [
        json!({"type": "object", "properties": {
            "s": {"type": "string", "minLength": 1, "maxLength": 4, "pattern": "^[a-z]*$",
                  "examples": ["abc"]},
            "i": {"type": "integer", "minimum": -3, "maximum": 9},
            "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
            "m": {"type": "number", "multipleOf": 3},
            "e": {"type": "string", "enum": ["fast", "slow", "ß", "x", "y"]},
            "a": {"type": "array", "items": {"type": "integer"}, "minItems": 1,
                  "maxItems": 2, "uniqueItems": true, "examples": [[1]]},
            "o": {"type": "object", "properties": {"k": {"type": "boolean"}},
                  "required": ["k"], "additionalProperties": false},
            "any": {},
            "t": {"type": ["string", "null"]},
        }, "required": ["s", "i"], "additionalProperties": false}),
        // A form's shapes: titled choices and multi-select.
        json!({"type": "object", "properties": {
            "pick": {"type": "string", "oneOf": [{"const": "a", "title": "A"},
                                                 {"const": "b", "title": "B"}]},
            "many": {"type": "array", "items": {"anyOf": [{"const": "a"}, {"const": "b"}]},
                     "minItems": 1},
            "not": {"not": {"type": "string"}},
            "all": {"allOf": [{"minimum": 1}, {"maximum": 2}]},
            "props": {"type": "object", "minProperties": 1, "maxProperties": 2,
                      "additionalProperties": {"type": "integer"}},
        }}),
    ];
    let mut out = Vec::new();
    let mut compared = 0;
    for (i, schema) in schemas.iter().enumerate() {
        compared += differ(schema, &format!("schema {i}"), &mut out);
    }
    assert!(
        out.is_empty(),
        "{} disagreements:\n{}",
        out.len(),
        out.join("\n")
    );
    assert!(compared > 500, "{compared}");
}
