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
    for keyword in [
        "prefixItems",
        "patternProperties",
        "$dynamicRef",
        "contains",
    ] {
        let schema = json!({"type": "object", "properties": {"a": {keyword: {}}}});
        let e = Checker::compile(&schema).expect_err(keyword);
        assert_eq!(e.at, format!("/properties/a/{keyword}"), "{e}");
    }
    assert!(Checker::compile(&json!({"pattern": "(?<=a)b"})).is_err());
}

#[test]
fn a_malformed_keyword_is_refused_at_its_place() {
    let cases = [
        (
            json!({"properties": {"a": {"minLength": -1}}}),
            "/properties/a/minLength",
            "is not a whole number of 0 or more",
        ),
        (
            json!({"type": ["string", "string"]}),
            "/type",
            "names \"string\" twice",
        ),
        (json!({"type": []}), "/type", "is an empty list of types"),
        (
            json!({"required": ["a", "a"]}),
            "/required",
            "names `a` twice",
        ),
        (json!({"title": 3}), "/title", "is not a string"),
        (
            json!({"$defs": {"x": {"type": "strin"}}}),
            "/$defs/x/type",
            "\"strin\" is not a JSON type",
        ),
        (
            json!({"$ref": "#/$defs/missing"}),
            "/$ref",
            "`#/$defs/missing` points at no schema of the document",
        ),
        (
            json!({"$ref": "other.json#/a"}),
            "/$ref",
            "`other.json#/a` is not within the document: only `#…` references (a JSON pointer or an `$anchor`) are resolved",
        ),
        (
            json!({"$ref": "#nowhere"}),
            "/$ref",
            "no `$anchor` is named `nowhere`",
        ),
        (
            json!({"$defs": {"a": {"$anchor": "1x"}}}),
            "/$defs/a/$anchor",
            "is not an anchor name (a letter or `_`, then letters, digits, `-`, `.` or `_`)",
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
            "/$schema",
            "is `http://json-schema.org/draft-07/schema#`; the checker reads JSON Schema 2020-12, `https://json-schema.org/draft/2020-12/schema`",
        ),
        (
            json!({"properties": {"a": {"$id": "https://example.com/a"}}}),
            "/properties/a/$id",
            "`$id` below the root is not supported: it would move the base of the `$ref`s below it",
        ),
        (
            json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}}),
            "/$defs/a",
            "refers back to itself through `$ref` without reading into the value",
        ),
        (
            json!({"dependentRequired": {"a": "b"}}),
            "/dependentRequired/a",
            "is not an array",
        ),
        (
            json!({"if": {}, "then": 3}),
            "/then",
            "is not a schema (an object or a boolean)",
        ),
    ];
    for (schema, at, message) in cases {
        let e = Checker::compile(&schema).expect_err(&schema.to_string());
        assert_eq!(
            (e.at.as_str(), e.message.as_str()),
            (at, message),
            "{schema}"
        );
    }
}

#[test]
fn references_resolve_by_pointer_and_anchor_and_may_recur_through_members() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "address": {"$anchor": "addressDef", "type": "object",
                        "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "tree": {"type": "object", "properties": {
                "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}},
            "a~b": {"type": "integer"},
        },
        "properties": {
            "home": {"$ref": "#/$defs/address"},
            "work": {"$ref": "#addressDef"},
            "tree": {"$ref": "#/%24defs/tree"},
            "n": {"$ref": "#/$defs/a~0b"},
        },
    });
    assert_eq!(
        failures(schema.clone(), json!({"home": {"city": "Oslo"}, "n": 1})),
        []
    );
    assert_eq!(
        failures(
            schema.clone(),
            json!({"home": {}, "work": {"city": 3}, "n": "1"})
        ),
        [
            (
                "/home".to_owned(),
                "\"city\" is a required property".to_owned()
            ),
            (
                "/work/city".to_owned(),
                "3 is not of type \"string\"".to_owned()
            ),
            (
                "/n".to_owned(),
                "\"1\" is not of type \"integer\"".to_owned()
            ),
        ]
    );
    let deep = json!({"tree": {"kids": [{"kids": [{"kids": [3]}]}]}});
    assert_eq!(
        failures(schema, deep),
        [(
            "/tree/kids/0/kids/0/kids/0".to_owned(),
            "3 is not of type \"object\"".to_owned()
        )]
    );
}

#[test]
fn conditions_and_dependencies_apply_as_the_specification_reads_them() {
    let schema = json!({
        "type": "object",
        "if": {"properties": {"by": {"const": "phone"}}, "required": ["by"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "dependentRequired": {"street": ["city", "zip"]},
        "dependentSchemas": {"zip": {"properties": {"zip": {"pattern": "^[0-9]+$"}}}},
    });
    assert_eq!(
        failures(schema.clone(), json!({"by": "phone", "phone": "1"})),
        []
    );
    assert_eq!(
        failures(schema.clone(), json!({"by": "phone", "email": "a@b"})),
        [("".to_owned(), "\"phone\" is a required property".to_owned())]
    );
    assert_eq!(
        failures(
            schema.clone(),
            json!({"email": "a@b", "street": "Main", "zip": "x"})
        ),
        [
            ("".to_owned(), "\"city\" is a required property".to_owned()),
            (
                "/zip".to_owned(),
                "\"x\" does not match \"^[0-9]+$\"".to_owned()
            ),
        ]
    );
    let checker = Checker::compile(&schema).expect("compiles");
    let kinds: Vec<Kind> = checker
        .failures(&json!({"street": "Main", "email": "e", "city": "c"}))
        .into_iter()
        .map(|f| f.kind)
        .collect();
    assert_eq!(kinds, [Kind::Required("zip".into())]);
}

/// `edit`: a tagged union, as the generator publishes one.
fn tagged_union() -> Value {
    let variant = |tag: &str, field: &str| {
        json!({"type": "object", "properties": {
            "kind": {"type": "string", "const": tag},
            field: {"type": "integer", "minimum": 1},
        }, "required": ["kind", field], "additionalProperties": false})
    };
    json!({"type": "object", "properties": {"edit": {"type": "object", "oneOf": [
        variant("replace", "start"),
        variant("insert", "before"),
    ]}}})
}

#[test]
fn a_tagged_union_refuses_a_value_whose_tag_names_no_variant_with_the_variants() {
    let want = |v: &str| {
        vec![(
            "/edit".to_owned(),
            format!("{v} is none of the variants: its \"kind\" must be \"replace\" or \"insert\""),
        )]
    };
    assert_eq!(
        failures(tagged_union(), json!({"edit": {"kind": "delete"}})),
        want("{\"kind\":\"delete\"}")
    );
    assert_eq!(
        failures(tagged_union(), json!({"edit": {"start": 1}})),
        want("{\"start\":1}")
    );
    let mut not_an_object = want("3");
    not_an_object.insert(
        0,
        ("/edit".to_owned(), "3 is not of type \"object\"".to_owned()),
    );
    assert_eq!(failures(tagged_union(), json!({"edit": 3})), not_an_object);
}

/// A `oneOf` whose branches look tagged but do not all say `type: object` is read as JSON
/// Schema reads it: `required` and `properties` say nothing of a number, so `5` matches the
/// branch without a type, and only it.
#[test]
fn branches_that_do_not_all_say_object_are_not_read_as_a_tagged_union() {
    let branch = |tag: &str| json!({"required": ["k"], "properties": {"k": {"const": tag}}});
    let mut typed = branch("b");
    typed["type"] = json!("object");
    let schema = json!({"oneOf": [branch("a"), typed]});
    assert_eq!(failures(schema.clone(), json!(5)), []);
    assert_eq!(failures(schema.clone(), json!({"k": "a"})), []);
    assert_eq!(failures(schema, json!({"k": "c"})).len(), 1);
}

#[test]
fn a_tagged_union_refuses_a_value_by_the_problems_within_the_variant_its_tag_names() {
    assert_eq!(
        failures(
            tagged_union(),
            json!({"edit": {"kind": "replace", "start": 0, "before": 2}})
        ),
        [(
            "/edit".to_owned(),
            "{\"kind\":\"replace\",\"start\":0,\"before\":2} is not a valid \"replace\" (its \"kind\"): at `/start`: 0 is less than the minimum of 1; Additional properties are not allowed ('before' was unexpected)".to_owned()
        )]
    );
    assert_eq!(
        failures(
            tagged_union(),
            json!({"edit": {"kind": "insert", "before": 2}})
        ),
        []
    );
}

#[test]
fn an_untagged_one_of_names_the_branches_a_value_matches_or_all_of_them() {
    let schema = json!({"type": "object", "oneOf": [
        {"title": "By name", "required": ["name"]},
        {"required": ["size"]},
    ]});
    assert_eq!(
        failures(schema.clone(), json!({"name": "a", "size": 1})),
        [(
            String::new(),
            "{\"name\":\"a\",\"size\":1} is valid under more than one of the schemas listed in the 'oneOf' keyword (\"By name\" and {\"required\":[\"size\"]})".to_owned()
        )]
    );
    assert_eq!(
        failures(schema, json!({})),
        [(
            String::new(),
            "{} is not valid under any of the schemas listed in the 'oneOf' keyword (\"By name\" or {\"required\":[\"size\"]})".to_owned()
        )]
    );
}

/// The walks that follow a value's shape read a schema the same whether a branch of `allOf` is
/// written in place or referred to, and never through `not`, `anyOf` or `if`, which do not
/// say what the value is.
#[test]
fn a_walk_reads_all_of_in_place_and_by_reference_alike_and_nothing_else() {
    let small = json!({"type": "integer", "minimum": 0, "maximum": 9});
    let object = json!({"properties": {"a": small}});
    let defs = json!({"Object": object, "Small": small});
    let found = |schema: Value| {
        let checker = Checker::compile(&schema).expect("a valid schema");
        let root = checker.root();
        let a = checker.property(root, "a").is_some();
        let bounds = checker.integer_bounds(root).is_some();
        (a, bounds)
    };
    assert_eq!(found(json!({"allOf": [object]})), (true, false));
    assert_eq!(
        found(json!({"allOf": [{"$ref": "#/$defs/Object"}], "$defs": defs})),
        (true, false)
    );
    assert_eq!(found(json!({"allOf": [small]})), (false, true));
    assert_eq!(
        found(json!({"not": {"$ref": "#/$defs/Small"}, "$defs": defs})),
        (false, false)
    );
    assert_eq!(
        found(json!({"anyOf": [{"$ref": "#/$defs/Object"}, {"type": "null"}], "$defs": defs})),
        (false, false)
    );
}
