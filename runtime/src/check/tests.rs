//! The differential tests: the checker (`mcp_contract_spec::check`) against jsonschema,
//! formats included, over the values the contract test makes.

use mcp_contract_spec::Format;
use serde_json::json;

use crate::testing::checks::{FORMAT_CORPUS, differ, differ_on, values};

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

/// The keywords a JSON Schema document may use beyond what the manifest's types publish,
/// each over values chosen to pass and to fail it, besides the values made from the schema.
#[test]
fn every_keyword_of_a_document_agrees_with_jsonschema() {
    let contact = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {"$anchor": "addressDef", "type": "object",
                        "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                        "required": ["city"]},
            "tree": {"type": "object", "properties": {
                "label": {"const": "node"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}},
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "other": {"$ref": "#addressDef"},
            "tree": {"$ref": "#/%24defs/tree"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string", "minLength": 3},
            "email": {"type": "string", "format": "email"},
            "street": {"type": "string"},
            "city": {"type": "string"},
            "zip": {"type": "string"},
            "kind": {"const": "person"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "oneOf": [{"required": ["name"]}, {"required": ["kind"]}],
        "not": {"required": ["street", "zip", "city", "name"]},
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "dependentRequired": {"street": ["city", "zip"]},
        "dependentSchemas": {"zip": {"properties": {"zip": {"pattern": "^[0-9]{4}$"}},
                                     "required": ["city"]}},
        "additionalProperties": false,
    });
    let mut tried = values(&contact, 2);
    tried.extend([
        json!({"name": "a", "email": "a@b.example"}),
        json!({"name": "a", "contactMethod": "phone", "phone": "123"}),
        json!({"name": "a", "contactMethod": "phone", "email": "a@b.example"}),
        json!({"name": "a", "contactMethod": "email", "phone": "123"}),
        json!({"name": "a", "kind": "person", "email": "a@b.example"}),
        json!({"kind": "person", "email": "a@b.example"}),
        json!({"kind": "robot", "email": "a@b.example"}),
        json!({"name": "a", "email": "nope"}),
        json!({"name": "a", "email": "a@b.example", "street": "Main"}),
        json!({"name": "a", "email": "a@b.example", "street": "Main", "city": "Oslo", "zip": "0150"}),
        json!({"email": "a@b.example", "street": "Main", "city": "Oslo", "zip": "0150", "name": "a"}),
        json!({"kind": "person", "email": "a@b.example", "zip": "01"}),
        json!({"kind": "person", "email": "a@b.example", "zip": "0150"}),
        json!({"name": "a", "email": "a@b.example", "address": {"city": "Oslo"}}),
        json!({"name": "a", "email": "a@b.example", "address": {"street": "Main"}}),
        json!({"name": "a", "email": "a@b.example", "other": {"city": 3}}),
        json!({"name": "a", "email": "a@b.example", "tree": {"label": "node", "kids": [{"kids": []}]}}),
        json!({"name": "a", "email": "a@b.example", "tree": {"kids": [{"label": "leaf"}, {"kids": [1]}]}}),
        json!({"name": "a", "email": "a@b.example", "unknown": 1}),
        json!({"phone": "12"}),
        json!({}),
        json!([]),
        json!("x"),
    ]);
    let mut out = Vec::new();
    let compared =
        differ_on(&contact, tried, "contact", &mut out) + differ(&contact, "contact", &mut out);
    assert!(
        out.is_empty(),
        "{} disagreements:\n{}",
        out.len(),
        out.join("\n")
    );
    assert!(compared > 100, "{compared}");
}
