//! Tools: their names, titles, descriptions and outputs, the errors they list, and the
//! argument an error may name.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{loads, refused, refused_at, related_at, replace, second_tool, single, with};
use crate::render_all;

#[test]
fn empty_why() {
    let d = single(
        &with("    why: \"  \"\n"),
        "empty-text",
        "`why` is empty",
        "tools.yaml:9:10",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("say why the tool's hints are what they are, or remove `why:`")
    );
}

#[test]
fn bad_output() {
    let d = single(
        &replace("output: text", "output: {type: string, properties: {}}"),
        "bad-output",
        "a structured output must be an object",
        "tools.yaml:8:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove `type:` or write `type: object`; both MCP revisions accept an object root")
    );
}

#[test]
fn bad_tool_name() {
    let d = single(
        &replace("name: ping", "name: Ping"),
        "bad-tool-name",
        "`Ping` is not a valid tool name",
        "tools.yaml:4:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "tool names are snake_case: a lowercase letter, then up to 63 lowercase letters, digits or `_`"
        )
    );
    let long = "a".repeat(65);
    single(
        &replace("name: ping", &format!("name: {long}")),
        "bad-tool-name",
        &format!("`{long}` is not a valid tool name"),
        "tools.yaml:4:11",
    );
}

#[test]
fn duplicate_tool_name() {
    let text = second_tool("ping", "Pong");
    let d = single(
        &text,
        "duplicate-tool-name",
        "the tool name `ping` is used twice",
        "tools.yaml:9:11",
    );
    assert_eq!(d.label.as_deref(), Some("used again here"));
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
    assert_eq!(
        d.help.as_deref(),
        Some("tool names must be unique within a server; rename one of them")
    );
}

#[test]
fn duplicate_tool_name_is_reported_alone() {
    // The second tool is skipped whole: its nested type `PingArgsOpts` is not reported as a
    // second collision.
    let text = "\
server:
  name: demo
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      opts: {type: object, description: Options., example: {}, properties: {}}
    output: text
  - name: ping
    title: Pong
    description: Answers pong again.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      opts: {type: object, description: Options., example: {}, properties: {}}
    output: text
";
    single(
        text,
        "duplicate-tool-name",
        "the tool name `ping` is used twice",
        "tools.yaml:11:11",
    );
}

#[test]
fn duplicate_title() {
    let text = second_tool("pong", "Ping");
    let d = single(
        &text,
        "duplicate-title",
        "the title `Ping` is used twice",
        "tools.yaml:10:12",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:5:12");
}

#[test]
fn missing_titles_are_not_duplicates() {
    let text = second_tool("pong", "Pong")
        .replacen("    title: Ping\n", "", 1)
        .replacen("    title: Pong\n", "", 1);
    refused_at(
        &text,
        &[
            ("missing-field", "tools.yaml:4:5"),
            ("missing-field", "tools.yaml:8:5"),
        ],
    );
}

#[test]
fn empty_description() {
    let d = single(
        &replace("description: Answers pong.", "description: \"\""),
        "empty-description",
        "the tool `ping` has an empty description",
        "tools.yaml:6:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("describe for a model what the tool does and when to use it")
    );
}

#[test]
fn duplicate_error_code() {
    let d = single(
        &with("    errors: [gone, gone]\nerrors:\n  gone:\n    message: Gone.\n"),
        "duplicate-error-code",
        "the error `gone` is listed twice",
        "tools.yaml:9:20",
    );
    assert_eq!(d.help.as_deref(), Some("list each code once"));
}

#[test]
fn argument_without_parameters() {
    let text =
        with("    errors: [gone]\nerrors:\n  gone:\n    message: Gone.\n    argument: true\n");
    let d = single(
        &text,
        "argument-without-parameters",
        "`gone` names the argument it concerns, but `ping` takes no arguments",
        "tools.yaml:9:14",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:13:15");
    assert_eq!(
        d.help.as_deref(),
        Some(
            "an error with `argument: true` names one of the tool's arguments, and this tool takes none; list a code without `argument: true`"
        )
    );
    // `argument: false` names none, and any tool may list it.
    loads(&text.replace("argument: true", "argument: false"));
}

#[test]
fn an_error_naming_its_argument_has_no_argument_placeholder() {
    let text = with(
        "    parameters:\n      p: {type: string, description: P., example: x}\n    errors: [gone]\nerrors:\n  gone:\n    message: \"`{argument}` is gone.\"\n    argument: true\n",
    );
    let d = single(
        &text,
        "ident-collision",
        "`{argument}` becomes the field `argument`, which `argument: true` gives the variant for the argument it names",
        "tools.yaml:14:16",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:15:15");
    // Without `argument: true` the placeholder is a field like any other.
    loads(&text.replace("    argument: true\n", ""));
}

#[test]
fn parameters_whose_argument_variants_collide() {
    let d = single(
        &with(
            "    parameters:\n      a_1: {type: string, description: A., example: x}\n      a1: {type: string, description: B., example: y}\n    errors: [gone]\nerrors:\n  gone:\n    message: Gone.\n    argument: true\n",
        ),
        "ident-collision",
        "`a1` becomes the variant `A1` of `PingArgument`, which another parameter already has",
        "tools.yaml:11:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the parameters so their PascalCase forms differ")
    );
}

#[test]
fn an_error_naming_its_argument_gives_the_tool_an_argument_enum() {
    let contract = loads(&with(
        "    parameters:\n      from: {type: string, description: A., example: x}\n      maxDepth: {type: integer, minimum: 1, description: B., example: 2}\n    errors: [gone, busy]\nerrors:\n  gone:\n    message: Gone.\n    argument: true\n  busy:\n    message: Busy.\n",
    ));
    let ping = &contract.tools[0];
    assert_eq!(
        ping.arguments,
        [
            ("from".to_owned(), "From".to_owned()),
            ("maxDepth".to_owned(), "MaxDepth".to_owned())
        ]
    );
    let naming: Vec<bool> = contract.errors.iter().map(|e| e.names_argument).collect();
    assert_eq!(naming, [true, false]);
    // `argument` is a boolean.
    single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    message: Gone.\n    argument: yes\n"),
        "wrong-type",
        "`argument` must be `true` or `false`, found a string",
        "tools.yaml:13:15",
    );
}

#[test]
fn a_tool_with_unresolved_hints_is_still_checked_through() {
    let (source, diags) = refused(&replace(
        "    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n",
        "    effect: reed\n    parameters:\n      n: {type: strng, description: N., example: 1}\n",
    ));
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["unknown-effect", "unknown-type"],
        "{}",
        render_all(&diags, &source)
    );
}
