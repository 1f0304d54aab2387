//! Schemas and their properties: descriptions, examples present, required and defaults, the
//! constraint keywords that apply to each type and their ranges, patterns, formats and enums.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{loads, refused, refused_at, replace, single, single_containing, with};
use crate::{Source, load};

#[test]
fn missing_description() {
    let text = with(
        "    parameters:
      n:
        type: integer
        example: 1
",
    );
    let d = single(
        &text,
        "missing-description",
        "the property `n` has no description",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("add `description:` saying what the value means, for the model that fills it in")
    );
}

#[test]
fn missing_example() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
",
    );
    let d = single(
        &text,
        "missing-example",
        "the parameter `n` has no example",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("add `example:` with a realistic value; models copy examples")
    );
}

#[test]
fn required_with_default() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        required: true
        default: 2
",
    );
    single(
        &text,
        "required-with-default",
        "`n` is required and has a default",
        "tools.yaml:15:18",
    );
}

#[test]
fn default_on_output() {
    let text = replace(
        "    output: text\n",
        "    output:
      properties:
        n:
          type: integer
          description: A number.
          default: 2
",
    );
    let d = single(
        &text,
        "default-on-output",
        "an output field cannot have a default",
        "tools.yaml:13:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove `default:`; the handler sets every output value")
    );
}

#[test]
fn null_default() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        default: null
",
    );
    let d = single(
        &text,
        "null-default",
        "the default of `n` is null",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove `default: null`; an optional parameter without a default is simply left out")
    );
    // An empty `default:` is null too; it points at its `:`.
    single(
        &text.replace("default: null", "default:"),
        "null-default",
        "the default of `n` is null",
        "tools.yaml:14:16",
    );
}

#[test]
fn bound_out_of_range() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        minimum: 0
        maximum: 100000000000000000000
        example: 1
",
    );
    let d = single(
        &text,
        "bound-out-of-range",
        "`maximum: 100000000000000000000` lies beyond what the generated `u64` holds",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the handler receives it as a `u64`, which holds 0 to 18446744073709551615: keep `maximum` within that, or remove it and the published schema states `u64`'s own"
        )
    );
    loads(&text.replace("100000000000000000000", "18446744073709551615"));
    // Without `minimum: 0` the type is an `i64`, and both of its edges count.
    refused_at(
        &with(
            "    parameters:
      n:
        type: integer
        description: A number.
        minimum: -9223372036854775809
        maximum: 9223372036854775808
        example: 1
",
        ),
        &[
            ("bound-out-of-range", "tools.yaml:13:18"),
            ("bound-out-of-range", "tools.yaml:14:18"),
        ],
    );
    loads(&with(
        "    parameters:
      n:
        type: integer
        description: A number.
        minimum: -9223372036854775808
        maximum: 9223372036854775807
        example: 1
",
    ));
}

#[test]
fn keyword_type_mismatch() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        minLength: 1
",
    );
    let d = single(
        &text,
        "keyword-type-mismatch",
        "`minLength` does not apply to `type: integer`",
        "tools.yaml:14:9",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove `minLength`, or change the type it belongs to")
    );
}

#[test]
fn keyword_type_mismatch_for_properties_and_enum() {
    let text = with(
        "    parameters:
      n:
        type: string
        description: A name.
        example: a
        properties:
          x:
            type: integer
            description: X.
",
    );
    single(
        &text,
        "keyword-type-mismatch",
        "`properties` does not apply to `type: string`",
        "tools.yaml:14:9",
    );
    // Even an empty `enum` is pointed at, rather than silently dropped.
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        enum: []
",
    );
    single(
        &text,
        "keyword-type-mismatch",
        "`enum` does not apply to `type: integer`",
        "tools.yaml:14:9",
    );
}

#[test]
fn bad_pattern() {
    let text = with(
        "    parameters:
      n:
        type: string
        description: A name.
        example: a
        pattern: \"[a-\"
",
    );
    let d = single_containing(
        &text,
        "bad-pattern",
        "the pattern is not a valid regular expression: ",
        "\"[a-\"",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write an ECMA-262 regular expression")
    );
}

#[test]
fn unknown_format() {
    let text = with(
        "    parameters:
      n:
        type: string
        description: A day.
        example: 2024-01-31
        format: dat
",
    );
    let d = single(
        &text,
        "unknown-format",
        "unknown format `dat`",
        "tools.yaml:14:17",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `date`?"));
}

#[test]
fn empty_range() {
    // On an output field, which needs no example: any example would break the range too.
    let text = replace(
        "    output: text\n",
        "    output:
      properties:
        n:
          type: integer
          description: A number.
          minimum: 5
          maximum: 1
",
    );
    let d = single(
        &text,
        "empty-range",
        "`maximum` is below `minimum`, so no value is valid",
        "tools.yaml:14:20",
    );
    assert_eq!(d.help.as_deref(), Some("make `minimum` at most `maximum`"));
}

#[test]
fn empty_range_of_lengths_and_items() {
    let text = replace(
        "    output: text\n",
        "    output:
      properties:
        s:
          type: string
          description: A name.
          minLength: 3
          maxLength: 2
        a:
          type: array
          description: Names.
          items: {type: string}
          minItems: 2
          maxItems: 1
",
    );
    let (source, diags) = refused(&text);
    let found: Vec<(&str, &str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.message.as_str(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            (
                "empty-range",
                "`maxLength` is below `minLength`, so no value is valid",
                "tools.yaml:14:22".to_owned()
            ),
            (
                "empty-range",
                "`maxItems` is below `minItems`, so no value is valid",
                "tools.yaml:20:21".to_owned()
            ),
        ]
    );
}

#[test]
fn empty_enum() {
    let text = with(
        "    parameters:
      n:
        type: string
        description: A mode.
        example: a
        enum: []
",
    );
    let d = single(
        &text,
        "empty-enum",
        "an enum needs at least one value",
        "tools.yaml:14:15",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("list the allowed values under `enum:`")
    );
}

#[test]
fn an_integer_default_written_as_a_float_keeps_its_value() {
    let text = with(
        "    parameters:\n      n: {type: integer, minimum: 0, description: N., example: 1, default: 2.0}\n",
    );
    let loaded = load(&Source::new("tools.yaml", text)).expect("valid");
    let code = loaded.contract.rust_module();
    assert!(code.contains("pub const DEFAULT_N: u64 = 2;"), "{code}");
}

#[test]
fn a_json_value_is_published_without_a_type_and_takes_no_constraints() {
    let text = with(
        "    parameters:\n      filter:\n        type: json\n        description: Any filter.\n        example: {kind: note}\n",
    );
    let c = loads(&text);
    let list = c.tools_list(crate::Revision::LATEST);
    let filter = &list["tools"][0]["inputSchema"]["properties"]["filter"];
    assert_eq!(
        filter,
        &serde_json::json!({"description": "Any filter.", "examples": [{"kind": "note"}]})
    );
    assert!(
        c.rust_module()
            .contains("pub filter: ::mcp_contract::serde_json::Value")
    );
    single(
        &text.replace(
            "        example: {kind: note}\n",
            "        example: 1\n        maxLength: 3\n",
        ),
        "keyword-type-mismatch",
        "`maxLength` does not apply to `type: json`",
        "tools.yaml:14:9",
    );
    single(
        &text.replace(
            "        example: {kind: note}\n",
            "        example: 1\n        header: Filter\n",
        ),
        "header-type",
        "the header `Filter` is on a `json` value, whose type is not fixed",
        "tools.yaml:14:17",
    );
}

#[test]
fn a_pattern_the_run_time_engine_cannot_compile_is_refused_where_it_is_written() {
    // Valid ECMA-262, which jsonschema takes, but look-behind is beyond `regex-lite`.
    let text = with(
        "    parameters:
      n:
        type: string
        description: A name.
        example: ab
        pattern: \"(?<=a)b\"
",
    );
    let d = single_containing(
        &text,
        "bad-pattern",
        "the pattern does not compile for the run-time argument checks ",
        "\"(?<=a)b\"",
        "tools.yaml:14:18",
    );
    assert!(d.message.contains("look-around is not supported"), "{d:?}");
}
