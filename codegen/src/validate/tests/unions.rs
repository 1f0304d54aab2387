//! Tagged unions (`one_of`): published as `oneOf` with the tag a required string `const` in
//! each variant, examples checked per variant, and every untagged or malformed union refused
//! where it is written, with the tagged form as help.

use serde_json::json;

use super::{loads, refused_at, single, tool_json, with};

/// A parameter `edit` that replaces lines (an object written in place) or inserts them (the
/// shared type `Insertion`); `variants` holds the union's variants, from line 16.
fn edit(example: &str, variants: &str) -> String {
    with(&format!(
        "    parameters:
      edit:
        description: The change to make.
        example: {example}
        one_of:
          tag: kind
          variants:
{variants}types:
  Insertion:
    type: object
    description: Text inserted before a line.
    properties:
      before: {{type: integer, minimum: 1, description: The line the text goes before.}}
      text: {{type: string, description: The text.}}
"
    ))
}

const VARIANTS: &str = "            replace:
              type: object
              description: Replaces lines from start to end.
              properties:
                start: {type: integer, minimum: 1, maximum: 1000, description: The first line.}
                end: {type: integer, minimum: 1, maximum: 1000, description: The last line.}
                text: {type: string, description: The new text.}
            insert:
              type: Insertion
              description: Inserts text before a line.
";

#[test]
fn a_union_is_published_as_one_of_with_the_tag_a_required_const_in_each_variant() {
    let c = loads(&edit("{kind: insert, before: 3, text: hello}", VARIANTS));
    let tool = tool_json(&c, &c.tools[0]);
    let edit = &tool["inputSchema"]["properties"]["edit"];
    let keys: Vec<&str> = edit
        .as_object()
        .expect("a schema")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["type", "oneOf", "description", "examples"]);
    assert_eq!(edit["type"], "object");
    assert_eq!(
        edit["examples"],
        json!([{"kind": "insert", "before": 3, "text": "hello"}])
    );
    let replace = &edit["oneOf"][0];
    assert_eq!(
        replace.to_string(),
        json!({
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "replace"},
                "start": {"type": "integer", "description": "The first line.", "minimum": 1, "maximum": 1000},
                "end": {"type": "integer", "description": "The last line.", "minimum": 1, "maximum": 1000},
                "text": {"type": "string", "description": "The new text."},
            },
            "required": ["kind", "start", "end", "text"],
            "additionalProperties": false,
            "description": "Replaces lines from start to end.",
        })
        .to_string()
    );
    // A shared object type is inlined as any is, the tag first, the use's description kept.
    let insert = &edit["oneOf"][1];
    assert_eq!(
        insert["properties"]["kind"],
        json!({"type": "string", "const": "insert"})
    );
    assert_eq!(insert["required"], json!(["kind", "before", "text"]));
    assert_eq!(insert["description"], "Inserts text before a line.");
    assert_eq!(edit["oneOf"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_union_in_types_and_in_an_output_leaves_output_variants_open() {
    let text = with(
        "    output:
      properties:
        change:
          type: Change
          description: What changed.
types:
  Change:
    description: A change.
    one_of:
      tag: op
      variants:
        added:
          type: object
          description: A line was added.
          properties:
            line: {type: integer, minimum: 1, description: The line.}
          examples: [{line: 2}]
        removed:
          type: object
          properties:
            line: {type: integer, minimum: 1, description: The line., required: false}
",
    )
    .replace("    output: text\n", "");
    let c = loads(&text);
    let tool = tool_json(&c, &c.tools[0]);
    let change = &tool["outputSchema"]["properties"]["change"];
    assert_eq!(change["description"], "What changed.");
    let added = &change["oneOf"][0];
    assert_eq!(added["required"], json!(["op", "line"]));
    assert_eq!(added.get("additionalProperties"), None);
    // A variant's examples are written without the tag, and published with it.
    assert_eq!(added["examples"], json!([{"op": "added", "line": 2}]));
    assert_eq!(
        change["oneOf"][1]["properties"]["op"],
        json!({"type": "string", "const": "removed"})
    );
    // With no field required, the tag is, after the properties.
    let keys: Vec<&str> = change["oneOf"][1]
        .as_object()
        .expect("a variant")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["type", "properties", "required"]);
    assert_eq!(change["oneOf"][1]["required"], json!(["op"]));
}

#[test]
fn untagged_union_written_as_a_list() {
    let text = with(
        "    parameters:
      target:
        description: What to open.
        example: {path: a}
        one_of:
          - {type: object, properties: {path: {type: string, description: A path.}}}
          - {type: object, properties: {id: {type: integer, description: An id.}}}
",
    );
    let d = single(
        &text,
        "untagged-union",
        "`one_of` is a list of schemas: an untagged union",
        "tools.yaml:13:9",
    );
    let help = d.help.expect("a help");
    assert!(
        help.contains("one_of: {tag: kind, variants: {replace: {type: object"),
        "{help}"
    );
}

#[test]
fn untagged_union_without_a_tag() {
    let text = with(
        "    parameters:
      target:
        description: What to open.
        example: {path: a}
        one_of:
          variants:
            path: {type: object, properties: {path: {type: string, description: A path.}}}
",
    );
    single(
        &text,
        "untagged-union",
        "`one_of` has no `tag`: an untagged union",
        "tools.yaml:13:9",
    );
}

#[test]
fn bad_union_tag_that_is_not_a_name() {
    let text = edit("{kind: insert, before: 3, text: hello}", VARIANTS)
        .replace("tag: kind", "tag: {const: kind}");
    single(
        &text,
        "bad-union-tag",
        "the tag of `one_of` must be the name of a property, found a mapping",
        "tools.yaml:14:16",
    );
    let text = edit("{kind: insert, before: 3, text: hello}", VARIANTS)
        .replace("tag: kind", "tag: the-kind");
    single(
        &text,
        "bad-union-tag",
        "the tag `the-kind` is not a property name",
        "tools.yaml:14:16",
    );
}

#[test]
fn bad_union_tag_value_that_is_not_a_string() {
    let variants = VARIANTS.replace("            replace:", "            1:");
    let text = edit("{kind: insert, before: 3, text: hello}", &variants);
    let d = single(
        &text,
        "bad-union-tag",
        "the variant `1` is an integer, not a string: its tag is published as a string `const`",
        "tools.yaml:16:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("quote it, if the tag's value is this text: `\"1\":`")
    );
}

#[test]
fn bad_union_tag_restated_by_a_variant() {
    let variants = VARIANTS.replace(
        "                text: {type: string, description: The new text.}",
        "                kind: {type: string, description: The kind.}",
    );
    let d = single(
        &edit("{kind: insert, before: 3, text: hello}", &variants),
        "bad-union-tag",
        "the variant `replace` has a property `kind`, the union's tag",
        "tools.yaml:22:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the tag's value is the variant's key (`replace`), published as a `const`; remove the property `kind`"
        )
    );
}

#[test]
fn union_variant_type() {
    let variants = format!("{VARIANTS}            path: {{type: string, description: A path.}}\n");
    single(
        &edit("{kind: insert, before: 3, text: hello}", &variants),
        "union-variant-type",
        "the variant `path` is `type: string`, not an object",
        "tools.yaml:26:26",
    );
}

#[test]
fn empty_union() {
    let text =
        edit("{kind: insert}", "").replace("          variants:\n", "          variants: {}\n");
    single(
        &text,
        "empty-union",
        "`one_of` has no variants",
        "tools.yaml:15:21",
    );
}

#[test]
fn two_variants_with_one_tag_value() {
    let variants = format!("{VARIANTS}            insert: {{type: Insertion}}\n");
    refused_at(
        &edit("{kind: insert, before: 3, text: hello}", &variants),
        &[("duplicate-key", "tools.yaml:26:13")],
    );
}

#[test]
fn keys_that_describe_one_shape_do_not_apply_beside_one_of() {
    let text = edit("{kind: insert, before: 3, text: hello}", VARIANTS).replace(
        "        one_of:\n",
        "        type: object\n        one_of:\n",
    );
    single(
        &text,
        "keyword-type-mismatch",
        "`type` does not apply beside `one_of`",
        "tools.yaml:13:9",
    );
}

#[test]
fn an_example_that_matches_no_variant_names_the_variants() {
    single(
        &edit("{kind: delete, line: 3}", VARIANTS),
        "invalid-example",
        "this example does not match its own schema: {\"kind\":\"delete\",\"line\":3} is none of the variants: its \"kind\" must be \"replace\" or \"insert\"",
        "tools.yaml:12:18",
    );
}

#[test]
fn an_example_is_checked_against_the_variant_its_tag_names() {
    single(
        &edit("{kind: replace, start: 0, end: 2}", VARIANTS),
        "invalid-example",
        "this example does not match its own schema: {\"kind\":\"replace\",\"start\":0,\"end\":2} is not a valid \"replace\" (its \"kind\"): at `/start`: 0 is less than the minimum of 1; \"text\" is a required property",
        "tools.yaml:12:18",
    );
}

#[test]
fn every_broken_union_is_reported_at_once() {
    let variants = "            1: {type: object, properties: {a: {type: string, description: A.}}}
            path: {type: string, description: A path.}
            replace:
              type: object
              properties:
                kind: {type: string, description: The kind.}
";
    refused_at(
        &edit("{kind: replace}", variants),
        &[
            ("bad-union-tag", "tools.yaml:16:13"),
            ("union-variant-type", "tools.yaml:17:26"),
            ("bad-union-tag", "tools.yaml:21:17"),
        ],
    );
}

#[test]
fn an_example_holding_an_integer_its_variant_s_rust_type_cannot_is_refused_there() {
    single(
        &edit(
            "{kind: insert, before: 18446744073709551616, text: hello}",
            VARIANTS,
        ),
        "invalid-example",
        "this example holds an integer at `/before` that the generated `u64` cannot",
        "tools.yaml:12:41",
    );
}

#[test]
fn a_form_field_is_never_a_union() {
    let text = with(
        "    asks:
      confirm_ping:
        message: Ping?
        fields:
          pick: {one_of: {tag: kind, variants: {a: {type: object, properties: {x: {type: string}}}}}}
",
    );
    single(
        &text,
        "bad-form-field",
        "the form field `pick` cannot be a `one_of` union",
        "tools.yaml:13:18",
    );
}
