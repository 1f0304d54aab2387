//! The shared vocabulary: pinned sentences, error codes with their message and hint templates,
//! and the argument envelope's own codes (`argument_codes`).
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{loads, refused, related_at, replace, single, with};
use crate::{Severity, Source, load};

#[test]
fn empty_text_everywhere_it_applies() {
    single(
        &replace("title: Ping", "title: \" \""),
        "empty-text",
        "the title is empty",
        "tools.yaml:5:12",
    );
    single(
        &with("sentences:\n  pinned: \"\"\n"),
        "empty-text",
        "the pinned sentence is empty",
        "tools.yaml:10:11",
    );
    single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    message: \"\"\n"),
        "empty-text",
        "the error message is empty",
        "tools.yaml:12:14",
    );
}

#[test]
fn bad_name() {
    let d = single(
        &with("sentences:\n  Pinned: Say it.\n"),
        "bad-name",
        "the sentence name `Pinned` is not snake_case",
        "tools.yaml:10:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("use lowercase letters, digits and `_`, starting with a letter")
    );
}

#[test]
fn bad_name_everywhere_it_applies() {
    single(
        &with("    errors: [NotFound]\nerrors:\n  NotFound:\n    message: Gone.\n"),
        "bad-name",
        "the error code `NotFound` is not snake_case",
        "tools.yaml:11:3",
    );
    let d = single(
        &with("types:\n  entry_kind:\n    type: string\n"),
        "bad-name",
        "the type name `entry_kind` is not PascalCase",
        "tools.yaml:10:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("name shared types like Rust types: `LineRange`")
    );
    let text = with(
        "    parameters:
      2d:
        type: integer
        description: A number.
        example: 1
",
    );
    let d = single(
        &text,
        "bad-name",
        "`2d` is not a valid property name",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("start with a letter; use letters, digits and `_`")
    );
}

#[test]
fn reserved_error_code() {
    let d = single(
        &with("    errors: [internal_error]\nerrors:\n  internal_error:\n    message: Boom.\n"),
        "reserved-error-code",
        "the error code `internal_error` is reserved for the runtime",
        "tools.yaml:11:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "argument errors and internal errors are reported by the runtime; choose another code"
        )
    );
}

#[test]
fn bad_template() {
    let d = single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    message: No {Path} here.\n"),
        "bad-template",
        "`{Path}` is not a valid placeholder",
        "tools.yaml:12:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "placeholders are snake_case field names in braces, like `{path}`; write `{{` for a brace"
        )
    );
}

#[test]
fn bad_template_braces() {
    let d = single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    message: No } here.\n"),
        "bad-template",
        "a lone `}` in a template",
        "tools.yaml:12:14",
    );
    assert_eq!(d.help.as_deref(), Some("write `}}` for a brace"));
    // The hint is a template too; an unclosed brace is not a field named `path`.
    let d = single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    message: Gone.\n    hint: Try {path\n"),
        "bad-template",
        "an unclosed `{` in a template",
        "tools.yaml:13:15",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("close the placeholder with `}`, or write `{{` for a brace")
    );
}

#[test]
fn unused_error() {
    let source = Source::new("tools.yaml", with("errors:\n  gone:\n    message: Gone.\n"));
    let loaded = load(&source).expect("a warning does not refuse the manifest");
    assert_eq!(loaded.warnings.len(), 1);
    let w = &loaded.warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.code, "unused-error");
    assert_eq!(w.message, "no tool lists the error `gone`");
    assert_eq!(w.location(&source), "tools.yaml:10:3");
    assert_eq!(
        w.help.as_deref(),
        Some("list it under a tool's `errors:`, or remove it")
    );
}

#[test]
fn bad_template_placeholder_not_in_snake_form() {
    let (_, diags) = refused(&with(
        "errors:\n  e:\n    message: \"A {a__b} and {a_b}.\"\n",
    ));
    assert!(diags.iter().any(|d| d.code == "bad-template" && d.message == "`{a__b}` is not a valid placeholder"), "{diags:#?}");
}

#[test]
fn a_bad_placeholder_in_a_folded_scalar_is_reported_on_its_own_line() {
    // The message is folded over lines 12 and 13; `{Id}` stands on line 13, column 15.
    let d = single(
        &with(
            "    errors: [gone]\nerrors:\n  gone:\n    message: >-\n      There is no note\n      with the id {Id}.\n",
        ),
        "bad-template",
        "`{Id}` is not a valid placeholder",
        "tools.yaml:14:19",
    );
    assert_eq!(d.span.end - d.span.start, "{Id}".len());
}

#[test]
fn argument_codes_can_be_renamed_and_the_new_names_are_reserved() {
    let renamed = "argument_codes: {invalid: argument_malformed}\n";
    let c = loads(&with(renamed));
    let code = c.rust_module();
    assert!(
        code.contains("invalid: \"argument_malformed\""),
        "the SPEC carries them"
    );
    assert!(
        code.contains("missing: \"argument_missing\""),
        "the others keep the runtime's"
    );
    // The renamed code is the runtime's now, and the freed default may be declared.
    let text = with(&format!(
        "{renamed}errors:\n  argument_malformed:\n    message: M.\n"
    ));
    let (source, diags) = refused(&text);
    let reserved = diags
        .iter()
        .find(|d| d.code == "reserved-error-code")
        .expect("the renamed code is reserved");
    assert_eq!(
        reserved.message,
        "the error code `argument_malformed` is reserved for the runtime"
    );
    assert_eq!(reserved.location(&source), "tools.yaml:11:3");
    let freed = with(&format!(
        "{renamed}errors:\n  argument_invalid:\n    message: M.\n"
    ));
    let warnings: Vec<&str> = load(&Source::new("tools.yaml", freed.as_str()))
        .unwrap_or_else(|_| panic!("loads"))
        .warnings
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(
        warnings,
        ["unused-error"],
        "only the warning that no tool lists it"
    );
}

#[test]
fn argument_codes_are_snake_case_distinct_and_not_internal_error() {
    single(
        &with("argument_codes: {missing: Missing}\n"),
        "bad-name",
        "the error code `Missing` is not snake_case",
        "tools.yaml:9:27",
    );
    single(
        &with("argument_codes: {missing: internal_error}\n"),
        "reserved-error-code",
        "the error code `internal_error` is reserved for the runtime",
        "tools.yaml:9:27",
    );
    let d = single(
        &with("argument_codes: {missing: bad_argument, invalid: bad_argument}\n"),
        "duplicate-error-code",
        "`bad_argument` names two kinds of argument error",
        "tools.yaml:9:50",
    );
    assert_eq!(
        related_at(
            &d,
            &with("argument_codes: {missing: bad_argument, invalid: bad_argument}\n"),
            0
        ),
        "tools.yaml:9:27"
    );
}
