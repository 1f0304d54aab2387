//! Reading the manifest (`crate::yaml`, `crate::manifest`): YAML syntax, the shape of each
//! mapping, and columns counted in characters.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{VALID, refused, related_at, replace, single, with};
use crate::{Source, load};

#[test]
fn yaml_syntax() {
    let text = with("    effect: read: write\n");
    let d = single(
        &text,
        "yaml-syntax",
        "invalid YAML: mapping values are not allowed in this context",
        "tools.yaml:9:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("fix the YAML syntax here; every other check runs once the file parses")
    );
}

#[test]
fn duplicate_key() {
    let text = with("    title: Pong\n");
    let d = single(
        &text,
        "duplicate-key",
        "the key `title` is written twice in this mapping",
        "tools.yaml:9:5",
    );
    assert_eq!(d.label.as_deref(), Some("written again here"));
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:5:5");
    assert_eq!(d.related[0].1, "first written here");
}

#[test]
fn wrong_type() {
    let d = single(
        &with("    effect: 3\n"),
        "wrong-type",
        "the effect must be a string, found an integer",
        "tools.yaml:9:13",
    );
    assert_eq!(d.label.as_deref(), Some("expected a string"));
}

#[test]
fn wrong_type_of_an_empty_value_is_null() {
    // `tools:` with nothing after it is null, not an empty string; the caret sits on the `:`.
    single(
        "server:\n  name: demo\ntools:\n",
        "wrong-type",
        "`tools` must be a sequence, found null",
        "tools.yaml:3:6",
    );
}

#[test]
fn wrong_type_of_an_empty_manifest() {
    for text in ["", "# nothing yet\n"] {
        let d = single(
            text,
            "wrong-type",
            "the manifest must be a mapping, found null",
            "tools.yaml:1:1",
        );
        assert_eq!(d.label.as_deref(), Some("expected a mapping"));
    }
}

#[test]
fn missing_field() {
    // Lines: 4 `- name: ping`, 5 `description: …`: the title is gone.
    let d = single(
        &replace("    title: Ping\n", ""),
        "missing-field",
        "a tool is missing the required key `title`",
        "tools.yaml:4:5",
    );
    assert_eq!(d.label.as_deref(), Some("`title` is missing here"));
    assert_eq!(d.help.as_deref(), Some("add `title:` to a tool"));
}

#[test]
fn missing_field_everywhere_it_applies() {
    let d = single(
        &VALID.replacen("server:\n  name: demo\n", "", 1),
        "missing-field",
        "the manifest is missing the required key `server`",
        "tools.yaml:1:1",
    );
    assert_eq!(d.help.as_deref(), Some("add `server:` to the manifest"));

    single(
        &replace("  name: demo\n", "  title: Demo\n"),
        "missing-field",
        "`server` is missing the required key `name`",
        "tools.yaml:2:3",
    );

    single(
        &with("    errors: [gone]\nerrors:\n  gone:\n    hint: Look elsewhere.\n"),
        "missing-field",
        "an error is missing the required key `message`",
        "tools.yaml:12:5",
    );

    let d = single(
        &replace("output: text", "output: {description: Nothing.}"),
        "missing-field",
        "`output` is missing the required key `properties`",
        "tools.yaml:8:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("list the output's fields under `properties:`, or write `output: text`")
    );

    let text = with(
        "    parameters:
      n:
        description: A number.
        example: 1
",
    );
    // The schema's mapping starts at its first key, line 11.
    single(
        &text,
        "missing-field",
        "this schema is missing the required key `type`",
        "tools.yaml:11:9",
    );

    let text = with(
        "    parameters:
      n:
        type: array
        description: Some numbers.
        example: [1]
",
    );
    single(
        &text,
        "missing-field",
        "an array is missing the required key `items`",
        "tools.yaml:11:15",
    );

    let text = with(
        "    parameters:
      n:
        type: object
        description: A thing.
        example: {}
",
    );
    single(
        &text,
        "missing-field",
        "an object is missing the required key `properties`",
        "tools.yaml:11:15",
    );
}

#[test]
fn unknown_key() {
    let d = single(
        &with("    parameter: {}\n"),
        "unknown-key",
        "unknown key `parameter` in a tool",
        "tools.yaml:9:5",
    );
    assert_eq!(d.label.as_deref(), Some("not a key of this mapping"));
    assert_eq!(d.help.as_deref(), Some("did you mean `parameters`?"));
}

#[test]
fn unknown_key_far_from_any_lists_the_keys() {
    let d = single(
        &with("    zzz: 1\n"),
        "unknown-key",
        "unknown key `zzz` in a tool",
        "tools.yaml:9:5",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the keys of a tool are: name, title, description, sentences, effect, hints, why, \
             parameters, input_schema, output, errors, groups, artifacts, complete_operation, _meta, icons, scopes, asks, task, app, \
             since, deprecated, aliases"
        )
    );
}

#[test]
fn unknown_key_at_the_output_root() {
    // The output root is an object: constraints and examples there would be dropped.
    let text = replace(
        "    output: text\n",
        "    output:
      example: {n: 1}
      properties:
        n:
          type: integer
          description: A number.
",
    );
    let d = single(
        &text,
        "unknown-key",
        "unknown key `example` in `output`",
        "tools.yaml:9:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the keys of `output` are: type, description, properties, json_schema, content")
    );
}

#[test]
fn example_and_examples() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        examples: [2]
",
    );
    let d = single(
        &text,
        "example-and-examples",
        "write `example` or `examples`, not both",
        "tools.yaml:14:19",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("move the single example into the `examples` list")
    );
}

#[test]
fn unknown_output() {
    let d = single(
        &replace("output: text", "output: json"),
        "unknown-output",
        "unknown output `json`",
        "tools.yaml:8:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `output: text`, or a mapping with `properties:`")
    );
}

#[test]
fn numbers_written_as_text_keep_their_spelling() {
    let text = replace("  name: demo\n", "  name: demo\n  version: 1.10\n");
    let loaded = load(&Source::new("tools.yaml", text)).expect("loads");
    assert_eq!(loaded.contract.server.version.as_deref(), Some("1.10"));
}

#[test]
fn non_ascii_text_before_an_error_keeps_columns_in_chars() {
    // Multi-byte text on earlier lines and before the error on its own line, including a
    // character outside the Basic Multilingual Plane.
    let text = "\
server:
  name: démo
  title: Serveur de démonstration — ✓
tools:
  - name: ping
    title: Pingé
    description: Répond « pong ». 🏓
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    _meta: {com.example/note: \"naïve 🏓\", com.example/note: 2}
";
    let d = single(
        text,
        "duplicate-key",
        "the key `com.example/note` is written twice in this mapping",
        "tools.yaml:10:42",
    );
    assert_eq!(related_at(&d, text, 0), "tools.yaml:10:13");
    let source = Source::new("tools.yaml", text);
    let at = &source.text[d.span.start..d.span.end];
    assert_eq!(at, "com.example/note");

    // The YAML parser counts in chars too; its errors land on the same columns.
    single(
        "server:\n  name: démo\ntools:\n  - name: ping\n    title: Pingé: 🏓\n",
        "yaml-syntax",
        "invalid YAML: mapping values are not allowed in this context",
        "tools.yaml:5:17",
    );
}

#[test]
fn a_second_yaml_document_is_refused() {
    single(
        &with("---\nserver: {name: other}\n"),
        "yaml-syntax",
        "a manifest is one YAML document, but a second one starts here",
        "tools.yaml:9:1",
    );
}

#[test]
fn a_byte_order_mark_does_not_shift_columns() {
    let text = format!("\u{feff}{}", replace("server:", "servr:"));
    let (source, diags) = refused(&text);
    let unknown = diags
        .iter()
        .find(|d| d.code == "unknown-key")
        .expect("the misspelt key");
    assert_eq!(unknown.location(&source), "tools.yaml:1:1");
}

#[test]
fn an_object_output_needs_properties() {
    single(
        &replace("output: text", "output: {type: object}"),
        "missing-field",
        "`output` is missing the required key `properties`",
        "tools.yaml:8:13",
    );
}

#[test]
fn a_parameters_value_that_is_not_a_mapping_is_named() {
    single(
        &with("    parameters: 3\n"),
        "wrong-type",
        "`parameters` must be a mapping, found an integer",
        "tools.yaml:9:17",
    );
}

#[test]
fn alias_expansion_has_a_budget() {
    let mut laughs = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..9 {
        let p = i - 1;
        laughs.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let (_, diags) = refused(&with(&laughs));
    let budget = diags
        .iter()
        .find(|d| d.code == "yaml-syntax")
        .expect("the budget is enforced");
    assert_eq!(budget.message, "aliases here expand to too many nodes");
}

#[test]
fn a_comma_in_unquoted_flow_text_gets_the_quoting_help() {
    let d = single(
        &with(
            "    parameters:\n      path: {type: string, description: The file, relative to the root, example: a.txt}\n",
        ),
        "unknown-key",
        "unknown key `relative to the root` in a property",
        "tools.yaml:10:51",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "a `,` ends an entry of a `{…}` mapping; if this is the rest of `description`, quote its text: `description: \"The file, relative to the root\"`"
        )
    );
}
