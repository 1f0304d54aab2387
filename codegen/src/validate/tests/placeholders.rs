//! What an error's placeholders hold: `placeholders:` types them (a `string` by default), an
//! `integer` sized by its bounds as a parameter is; a declared placeholder must be in a
//! template, and one named like a parameter of a tool listing the error should hold its kind
//! (a warning, so a manifest written before `placeholders:` still builds).
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and its help; it also pins the number of diagnostics.

use super::{loads, refused_at, related_at, single, with};

use crate::model::{PlaceholderType, RustInteger, TemplateField};
use crate::{Diagnostic, Severity, Source, load, render_all};

/// Loads `text`, which must give exactly one diagnostic, a warning, and checks it.
#[track_caller]
fn warned(text: &str, code: &str, message: &str, at: &str) -> Diagnostic {
    let source = Source::new("tools.yaml", text);
    let loaded = load(&source).expect("a warning does not refuse the manifest");
    let [w] = loaded.warnings.as_slice() else {
        panic!("{}", render_all(&loaded.warnings, &source));
    };
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.code, code);
    assert_eq!(w.message, message);
    assert_eq!(w.location(&source), at);
    w.clone()
}

/// [`super::VALID`]'s tool listing `too_large`, whose message has `{path}`, `{size}` and
/// `{limit}` and whose `placeholders:` (line 14 on) is `placeholders`.
fn too_large(placeholders: &str) -> String {
    with(&format!(
        "    errors: [too_large]\nerrors:\n  too_large:\n    message: \"`{{path}}` is {{size}} bytes, over {{limit}}.\"\n    placeholders:\n{placeholders}"
    ))
}

fn field(name: &str, ty: PlaceholderType) -> TemplateField {
    TemplateField {
        name: name.into(),
        ty,
    }
}

#[test]
fn placeholders_are_strings_unless_typed_and_integers_are_sized_by_their_bounds() {
    let c = loads(&too_large(
        "      size: {type: integer, minimum: 0}\n      limit: {type: integer, minimum: 1, maximum: 100}\n",
    ));
    assert_eq!(
        c.errors[0].fields,
        [
            field("path", PlaceholderType::String),
            field("size", PlaceholderType::Integer(RustInteger::U64)),
            field("limit", PlaceholderType::Integer(RustInteger::U8)),
        ]
    );
    let code = c.rust_module();
    assert!(
        code.contains("TooLarge { path: String, size: u64, limit: u8 },"),
        "{code}"
    );
    assert!(
        code.contains("format!(\"`{path}` is {size} bytes, over {limit}.\")"),
        "{code}"
    );
    // A bare type's name is the type without bounds: `i64` for an integer.
    let c = loads(&with(
        "    errors: [odd]\nerrors:\n  odd:\n    message: \"{n} {x} {ok}\"\n    hint: \"{n}\"\n    placeholders: {n: integer, x: number, ok: boolean}\n",
    ));
    assert_eq!(
        c.errors[0].fields,
        [
            field("n", PlaceholderType::Integer(RustInteger::I64)),
            field("x", PlaceholderType::Number),
            field("ok", PlaceholderType::Boolean),
        ]
    );
    let code = c.rust_module();
    assert!(code.contains("Odd { n: i64, x: f64, ok: bool },"), "{code}");
    // A hint that is one field alone renders it as text; an `f64` has no `Eq`.
    assert!(
        code.contains("Self::Odd { n, .. } => n.to_string(),"),
        "{code}"
    );
    assert!(
        code.contains("#[derive(Debug, Clone, PartialEq)]\npub enum ContractError"),
        "{code}"
    );
    // Untyped, every field is a string, and the vocabulary keeps `Eq`.
    let code = loads(&with(
        "    errors: [gone]\nerrors:\n  gone:\n    message: \"{path} is gone.\"\n",
    ))
    .rust_module();
    assert!(code.contains("Gone { path: String },"), "{code}");
    assert!(
        code.contains("#[derive(Debug, Clone, PartialEq, Eq)]\npub enum ContractError"),
        "{code}"
    );
}

#[test]
fn unknown_placeholder() {
    let d = single(
        &too_large("      sise: integer\n"),
        "unknown-placeholder",
        "`sise` is not a placeholder of the message or the hint of `too_large`",
        "tools.yaml:14:7",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `size`?"));
    let d = single(
        &too_large("      used: integer\n"),
        "unknown-placeholder",
        "`used` is not a placeholder of the message or the hint of `too_large`",
        "tools.yaml:14:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `{used}` in the message or the hint, or remove it from `placeholders:`")
    );
}

#[test]
fn a_template_that_does_not_parse_is_not_also_missing_its_placeholders() {
    refused_at(
        &with(
            "    errors: [gone]\nerrors:\n  gone:\n    message: \"{Size} is gone.\"\n    placeholders: {size: integer}\n",
        ),
        &[("bad-template", "tools.yaml:12:15")],
    );
}

#[test]
fn unknown_type_of_a_placeholder() {
    let d = single(
        &too_large("      size: intger\n"),
        "unknown-type",
        "`intger` is not a type a placeholder can hold",
        "tools.yaml:14:13",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `integer`?"));
    let d = single(
        &too_large("      size: {type: array}\n"),
        "unknown-type",
        "`array` is not a type a placeholder can hold",
        "tools.yaml:14:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "a placeholder holds a `string` (the default), an `integer`, a `number` or a `boolean`"
        )
    );
}

#[test]
fn bounds_only_on_an_integer_placeholder() {
    let d = single(
        &too_large("      size: {type: number, minimum: 0}\n"),
        "keyword-type-mismatch",
        "`minimum` does not apply to a `number` placeholder",
        "tools.yaml:14:37",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("bounds choose an integer placeholder's Rust type; remove `minimum`")
    );
}

#[test]
fn empty_and_out_of_range_bounds_of_a_placeholder() {
    let d = single(
        &too_large("      size: {type: integer, minimum: 10, maximum: 1}\n"),
        "empty-range",
        "`maximum` is below `minimum`, so no value is valid",
        "tools.yaml:14:51",
    );
    assert_eq!(d.help.as_deref(), Some("make `minimum` at most `maximum`"));
    let d = single(
        &too_large("      size: {type: integer, minimum: 0, maximum: 100000000000000000000}\n"),
        "bound-out-of-range",
        "`maximum: 100000000000000000000` lies beyond what the generated `u64` holds",
        "tools.yaml:14:50",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the field is the widest Rust integer, `u64`; write a bound within it")
    );
}

#[test]
fn placeholders_decode_with_their_keys_checked() {
    let d = single(
        &too_large("      size: {type: integer, minimun: 0}\n"),
        "unknown-key",
        "unknown key `minimun` in a placeholder",
        "tools.yaml:14:29",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `minimum`?"));
    single(
        &too_large("      size: {minimum: 0}\n"),
        "missing-field",
        "a placeholder is missing the required key `type`",
        "tools.yaml:14:14",
    );
    single(
        &with(
            "    errors: [gone]\nerrors:\n  gone:\n    message: \"{size} is gone.\"\n    placeholders: [size]\n",
        ),
        "wrong-type",
        "`placeholders` must be a mapping, found a sequence",
        "tools.yaml:13:19",
    );
}

/// The tool takes `count`, an integer from 1 to 50 (`u8`; named on line 10, column 7), and
/// lists `too_many`, whose message (line 19) starts with `{count}` at column 15; a
/// `placeholders:` follows on line 20.
fn counted(placeholders: &str) -> String {
    with(&format!(
        "    parameters:\n      count:\n        type: integer\n        minimum: 1\n        maximum: 50\n        description: How many.\n        example: 3\n    errors: [too_many]\nerrors:\n  too_many:\n    message: \"{{count}} is too many.\"\n{placeholders}"
    ))
}

#[test]
fn placeholder_type_of_a_placeholder_named_like_a_parameter() {
    let text = counted("");
    let d = warned(
        &text,
        "placeholder-type",
        "the placeholder `{count}` of `too_many` holds a string, but the parameter `count` of `ping` is an integer",
        "tools.yaml:19:15",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:10:7");
    assert_eq!(
        d.help.as_deref(),
        Some(
            "declare its type under the error's `placeholders:`, `count: integer`, or rename the placeholder"
        )
    );
    let d = warned(
        &counted("    placeholders: {count: boolean}\n"),
        "placeholder-type",
        "the placeholder `{count}` of `too_many` holds a boolean, but the parameter `count` of `ping` is an integer",
        "tools.yaml:20:27",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("declare it `count: integer`, as the parameter is, or rename the placeholder")
    );
    // An integer of another width is the same kind: the handler widens it losslessly.
    let c = loads(&counted(
        "    placeholders: {count: {type: integer, minimum: 0}}\n",
    ));
    assert_eq!(
        c.errors[0].fields,
        [field("count", PlaceholderType::Integer(RustInteger::U64))]
    );
}
