//! One test per diagnostic the loader can emit.
//!
//! Each test starts from [`VALID`], changes one thing, and pins the rule's code, its exact
//! message, where it points (`tools.yaml:LINE:COL`, counted by hand from the manifest text
//! in the test) and, for most, its help; it also pins the number of diagnostics, so a rule
//! that fires twice, or drags another one along, fails here.

use super::{VALID, loads, refused, refused_at, related_at, single, with};
use crate::model::{Kind, OutputDef};
use crate::{Diagnostic, Severity, Source, load, render_all};

/// [`VALID`] with its only occurrence of `from` replaced.
fn replace(from: &str, to: &str) -> String {
    assert_eq!(VALID.matches(from).count(), 1, "`{from}` must occur once");
    VALID.replacen(from, to, 1)
}

/// Like [`single`], for messages that quote an independent validator: only the part we write
/// and the validator's key wording are pinned.
#[track_caller]
fn single_containing(text: &str, code: &str, prefix: &str, quoted: &str, at: &str) -> Diagnostic {
    let (source, diags) = refused(text);
    assert_eq!(diags.len(), 1, "{}", render_all(&diags, &source));
    let d = &diags[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.code, code, "{}", render_all(&diags, &source));
    assert!(d.message.starts_with(prefix), "{}", d.message);
    assert!(d.message.contains(quoted), "{}", d.message);
    assert_eq!(d.location(&source), at, "{}", render_all(&diags, &source));
    d.clone()
}

// ---------------------------------------------------------------------------------------
// Reading the YAML and its shape.

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
             parameters, output, errors, groups, artifacts, complete_operation, _meta, icons, scopes, asks, task"
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
        Some("the keys of `output` are: type, description, properties, content")
    );
}

#[test]
fn unknown_hint_policy() {
    let d = single(
        &with("hint_policy: some\n"),
        "unknown-hint-policy",
        "unknown hint policy",
        "tools.yaml:9:14",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `all`, `minimal`, or `{omit_on_read_only: [idempotent]}`")
    );
}

#[test]
fn bad_hint_policy() {
    let d = single(
        &with("hint_policy: {omit_on_read_only: [open_world]}\n"),
        "bad-hint-policy",
        "`open_world` cannot be left out on read-only tools",
        "tools.yaml:9:35",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("only `destructive` and `idempotent` have no meaning on a read-only tool")
    );
    // A name that is no hint at all is told the same.
    single(
        &with("hint_policy: {omit_on_read_only: [idempotent, fast]}\n"),
        "bad-hint-policy",
        "`fast` cannot be left out on read-only tools",
        "tools.yaml:9:47",
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

// ---------------------------------------------------------------------------------------
// Server, hints, sentences, errors, shared types.

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
fn empty_text() {
    let d = single(
        &replace("name: demo", "name: \"\""),
        "empty-text",
        "the server name is empty",
        "tools.yaml:2:9",
    );
    assert_eq!(d.help.as_deref(), Some("name the server, e.g. `my-server`"));
}

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
fn bad_cache_scope() {
    let text = replace(
        "  name: demo\n",
        "  name: demo\n  cache: {ttl_ms: 1000, scope: shared}\n",
    );
    let d = single(
        &text,
        "bad-cache-scope",
        "unknown cache scope `shared`",
        "tools.yaml:3:32",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `public` (the list is the same for every caller) or `private`")
    );
}

#[test]
fn unresolved_hint() {
    let d = single(
        &replace(", open_world: false}", "}"),
        "unresolved-hint",
        "the tool `ping` leaves `open_world` undecided",
        "tools.yaml:7:12",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "set every hint, either under `hints:` or through an `effect:` from the `effects:` table"
        )
    );
}

#[test]
fn unresolved_hint_on_an_effect() {
    single(
        &with("effects:\n  read: {read_only: true}\n"),
        "unresolved-hint",
        "the effect `read` leaves `destructive`, `idempotent`, `open_world` undecided",
        "tools.yaml:10:3",
    );
}

#[test]
fn contradictory_hints() {
    let d = single(
        &replace("destructive: false", "destructive: true"),
        "contradictory-hints",
        "the tool `ping` is both read-only and destructive",
        "tools.yaml:7:43",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "a read-only tool does not modify anything: set `destructive: false`, or `read_only: false`"
        )
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
fn recursive_type() {
    let text = with(
        "types:
  Tree:
    type: object
    description: A tree.
    properties:
      children:
        type: array
        description: The subtrees.
        items:
          type: Tree
",
    );
    let d = single(
        &text,
        "recursive-type",
        "the type `Tree` contains itself",
        "tools.yaml:10:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("schemas are published inline, so a type cannot refer back to itself")
    );
}

// ---------------------------------------------------------------------------------------
// Tools.

/// A second tool after [`VALID`]'s, starting on line 9 with `name` (column 11) and `title`
/// (line 10, column 12).
fn second_tool(name: &str, title: &str) -> String {
    with(&format!(
        "  - name: {name}
    title: {title}
    description: Answers pong again.
    hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}
    output: text
"
    ))
}

#[test]
fn recursive_type_is_reported_once_where_it_is_used() {
    // Checking the example against the type would inline it forever.
    let text = with(
        "    parameters:
      tree:
        type: Tree
        description: A tree.
        example: {children: []}
types:
  Tree:
    type: object
    description: A tree.
    example: {children: []}
    properties:
      children:
        type: array
        description: The subtrees.
        items: {type: Tree}
",
    );
    single(
        &text,
        "recursive-type",
        "the type `Tree` contains itself",
        "tools.yaml:15:3",
    );
}

#[test]
fn a_broken_shared_type_does_not_fail_the_examples_that_use_it() {
    // The type is missing `type`; its parameter's example is not checked against a stand-in.
    let text = with(
        "    parameters:
      size:
        type: Size
        description: A size.
        example: {width: 1}
types:
  Size:
    description: A size.
",
    );
    single(
        &text,
        "missing-field",
        "this schema is missing the required key `type`",
        "tools.yaml:16:5",
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
fn ident_collision_between_tools() {
    // `ping_` is a valid tool name, and its snake_case form is `ping`.
    let text = second_tool("ping_", "Pong");
    let d = single(
        &text,
        "ident-collision",
        "the tool `ping_` becomes the Rust method `ping`, which another tool already has",
        "tools.yaml:9:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the tools so their snake_case forms differ")
    );
}

#[test]
fn ident_collision_between_properties() {
    let text = with(
        "    parameters:
      fooBar:
        type: integer
        description: One.
        example: 1
      foo_bar:
        type: integer
        description: Two.
        example: 2
",
    );
    let d = single(
        &text,
        "ident-collision",
        "`foo_bar` becomes the Rust field `foo_bar`, which another property already has",
        "tools.yaml:14:7",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:10:7");
}

#[test]
fn ident_collision_between_enum_values() {
    let text = with(
        "    parameters:
      mode:
        type: string
        description: The mode.
        enum: [read-only, read_only]
        example: read-only
",
    );
    let d = single(
        &text,
        "ident-collision",
        "`read_only` becomes the variant `ReadOnly`, which another value already has",
        "tools.yaml:13:27",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:13:16");
}

#[test]
fn ident_collision_with_a_generated_type() {
    let text = with(
        "types:
  PingArgs:
    type: object
    description: Not the arguments of `ping`.
    properties:
      x:
        type: integer
        description: X.
",
    );
    let d = single(
        &text,
        "ident-collision",
        "the arguments type `PingArgs` would be generated twice",
        "tools.yaml:4:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:11");
    assert_eq!(
        d.help.as_deref(),
        Some("rename the shared type or the tool so the generated Rust names differ")
    );
}

#[test]
fn ident_collision_with_a_generated_item() {
    let d = single(
        &with("types:\n  Tools:\n    type: string\n"),
        "ident-collision",
        "the type name `Tools` is taken by the generated code",
        "tools.yaml:10:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the generated module defines `Tools`, `Dispatcher` and `ContractError` and uses the prelude's `Option`, `Result`, `String`, `Vec`, `Box`, `Send`, `Sync` and `Default`; rename the shared type"
        )
    );
}

#[test]
fn ident_collision_between_sentences_and_between_error_codes() {
    single(
        &with("sentences:\n  say_it: Say it.\n  say__it: Say it again.\n"),
        "ident-collision",
        "the constant `SAY_IT` would be generated twice",
        "tools.yaml:11:3",
    );
    single(
        &with(
            "    errors: [gone_now, gone__now]
errors:
  gone_now:
    message: Gone.
  gone__now:
    message: Gone again.
",
        ),
        "ident-collision",
        "the variant `GoneNow` would be generated twice",
        "tools.yaml:13:3",
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
fn unknown_sentence() {
    let d = single(
        &with("    sentences: [pined]\nsentences:\n  pinned: Say it.\n"),
        "unknown-sentence",
        "unknown sentence `pined`",
        "tools.yaml:9:17",
    );
    assert_eq!(d.label.as_deref(), Some("no such sentence"));
    assert_eq!(d.help.as_deref(), Some("did you mean `pinned`?"));
}

#[test]
fn unknown_effect() {
    let text = replace(
        "    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n",
        "    effect: reed\n",
    ) + "effects:\n  read: {read_only: true, destructive: false, idempotent: true, open_world: false}\n";
    let d = single(
        &text,
        "unknown-effect",
        "unknown effect `reed`",
        "tools.yaml:7:13",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `read`?"));

    let d = single(
        &with("    effect: read\n"),
        "unknown-effect",
        "unknown effect `read`",
        "tools.yaml:9:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("no effect is declared in the manifest")
    );
}

#[test]
fn unknown_error_code() {
    let d = single(
        &with("    errors: [gone, goen]\nerrors:\n  gone:\n    message: Gone.\n"),
        "unknown-error-code",
        "unknown error code `goen`",
        "tools.yaml:9:20",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `gone`?"));
}

#[test]
fn unknown_type() {
    let text = with(
        "    parameters:
      n:
        type: integr
        description: A number.
        example: 1
",
    );
    let d = single(
        &text,
        "unknown-type",
        "unknown type `integr`",
        "tools.yaml:11:15",
    );
    assert_eq!(d.label.as_deref(), Some("no such type"));
    assert_eq!(d.help.as_deref(), Some("did you mean `integer`?"));
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
fn reserved_meta_key() {
    let d = single(
        &with("    _meta:\n      io.modelcontextprotocol/tier: 1\n"),
        "reserved-meta-key",
        "`io.modelcontextprotocol/tier` is not a valid `_meta` key",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "prefixes whose second label is `modelcontextprotocol` or `mcp` belong to the spec; \
             use your own reverse-DNS prefix such as `com.example/`"
        )
    );
}

#[test]
fn bad_meta_key() {
    let d = single(
        &with("    _meta:\n      bad key: 1\n"),
        "bad-meta-key",
        "`bad key` is not a valid `_meta` key",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "write an optional reverse-DNS prefix ending in `/` (`com.example/`), then a name \
             that starts and ends with a letter or digit"
        )
    );
}

// ---------------------------------------------------------------------------------------
// Properties and their schemas.

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
fn default_out_of_range() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        example: 1
        default: 10000000000000000000
",
    );
    let d = single(
        &text,
        "default-out-of-range",
        "this default holds an integer that the generated `i64` cannot",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the handler receives the default as an `i64`: keep it from -9223372036854775808 to 9223372036854775807, or add `minimum: 0` for a `u64`"
        )
    );
    // Under `minimum: 0` the type is `u64`, which holds it.
    let unsigned = text.replace("example: 1\n", "example: 1\n        minimum: 0\n");
    assert!(load(&Source::new("tools.yaml", unsigned.as_str())).is_ok());
    // A nested integer is named by its pointer; a whole float counts as the integer it is.
    single(
        &with(
            "    parameters:
      p:
        type: object
        description: P.
        example: {xs: []}
        required: false
        default: {xs: [1, 2.0e19]}
        properties:
          xs: {type: array, description: Xs., items: {type: integer, minimum: 0}}
",
        ),
        "default-out-of-range",
        "this default holds an integer at `/xs/1` that the generated `u64` cannot",
        "tools.yaml:15:27",
    );
}

#[test]
fn an_example_beyond_its_rust_integer_is_invalid() {
    let text = with(
        "    parameters:
      n:
        type: integer
        description: A number.
        minimum: 0
        example: 18446744073709551616
",
    );
    let d = single(
        &text,
        "invalid-example",
        "this example holds an integer that the generated `u64` cannot",
        "tools.yaml:14:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the handler receives the example as a `u64`: keep it at most 18446744073709551615")
    );
    // The largest `u64` is an example a call can copy.
    loads(&text.replace("18446744073709551616", "18446744073709551615"));
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

/// A parameter `n` with `schema` lines (indented by eight spaces) and `example` on line
/// 13, column 18.
fn parameter(schema: &str, example: &str) -> String {
    with(&format!(
        "    parameters:
      n:
        description: A value.
        example: {example}
{schema}"
    ))
}

const INVALID_EXAMPLE: &str = "this example does not match its own schema: ";

#[test]
fn invalid_example() {
    let d = single(
        &parameter("        type: integer\n", "abc"),
        "invalid-example",
        "this example does not match its own schema: \"abc\" is not of type \"integer\"",
        "tools.yaml:12:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("change the example so it satisfies the type and constraints declared beside it")
    );
}

#[test]
fn invalid_example_below_minimum() {
    single_containing(
        &parameter("        type: integer\n        minimum: 1\n", "0"),
        "invalid-example",
        INVALID_EXAMPLE,
        "less than the minimum of 1",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_against_pattern() {
    single_containing(
        &parameter(
            "        type: string\n        pattern: \"^[a-z]+$\"\n",
            "ABC",
        ),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"ABC\" does not match \"^[a-z]+$\"",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_outside_enum() {
    single_containing(
        &parameter("        type: string\n        enum: [a, b]\n", "c"),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"c\" is not one of",
        "tools.yaml:12:18",
    );
}

/// Values whose schemas differ only in their annotations share a compiled validator; values
/// whose assertions differ do not.
#[test]
fn examples_sharing_assertions_are_checked_alike_and_others_on_their_own() {
    let diags = refused_at(
        &with(
            "    parameters:
      a: {type: string, description: First., example: x, minLength: 1}
      b: {type: string, description: Second., example: \"\", minLength: 1}
      c: {type: string, description: Third., example: ab, minLength: 3}
      d: {type: string, description: Fourth., example: abc, minLength: 3}
",
        ),
        &[
            ("invalid-example", "tools.yaml:11:56"),
            ("invalid-example", "tools.yaml:12:55"),
        ],
    );
    assert!(
        diags[1].message.contains("shorter than 3"),
        "{}",
        diags[1].message
    );
}

#[test]
fn invalid_example_against_format() {
    single_containing(
        &parameter("        type: string\n        format: date\n", "2024-13-45"),
        "invalid-example",
        INVALID_EXAMPLE,
        "\"2024-13-45\" is not a \"date\"",
        "tools.yaml:12:18",
    );
}

#[test]
fn invalid_example_in_a_nested_field() {
    let text = parameter(
        "        type: object
        properties:
          size:
            type: integer
            description: A size.
",
        "{size: big}",
    );
    single_containing(
        &text,
        "invalid-example",
        INVALID_EXAMPLE,
        "at `/size`: \"big\" is not of type \"integer\"",
        "tools.yaml:12:25",
    );
}

#[test]
fn invalid_default() {
    let text = parameter(
        "        type: integer\n        minimum: 0\n        default: -1\n",
        "1",
    );
    let d = single_containing(
        &text,
        "invalid-example",
        "this default does not match its own schema: ",
        "-1 is less than the minimum of 0",
        "tools.yaml:15:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("change the default so it satisfies the type and constraints declared beside it")
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

// ---------------------------------------------------------------------------------------
// Across rules.

#[test]
fn every_error_is_reported_at_once_in_file_order() {
    // Found in another order: decoding (unknown key, hint policy) before validation
    // (sentences before tools).
    let text = "\
server:
  name: demo
  titel: Demo
tools:
  - name: Ping
    title: Ping
    description: \"\"
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    errors: [gone]
hint_policy: sometimes
sentences:
  Pinned: Say it.
";
    let diags = refused_at(
        text,
        &[
            ("unknown-key", "tools.yaml:3:3"),
            ("bad-tool-name", "tools.yaml:5:11"),
            ("empty-description", "tools.yaml:7:18"),
            ("unknown-error-code", "tools.yaml:10:14"),
            ("unknown-hint-policy", "tools.yaml:11:14"),
            ("bad-name", "tools.yaml:13:3"),
        ],
    );
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `title`?"));
    let rendered = render_all(&diags, &Source::new("tools.yaml", text));
    assert!(rendered.ends_with("error: could not load `tools.yaml` due to 6 previous errors"));
}

#[test]
fn diagnostics_render_like_rustc() {
    let text = second_tool("ping", "Pong") + "    zzz: 1\nerrors:\n  gone:\n    message: Gone.\n";
    let (source, diags) = refused(&text);
    let rendered = render_all(&diags, &source);
    // Header with the code, location, the quoted lines with carets (the related place
    // marked `-`), then the help; the gutter is as wide as the largest line number.
    let first: Vec<&str> = rendered.lines().take(10).collect();
    assert_eq!(
        first,
        [
            "error[duplicate-tool-name]: the tool name `ping` is used twice",
            " --> tools.yaml:9:11",
            "  |",
            "4 |   - name: ping",
            "  |           ---- first used here",
            "...",
            "9 |   - name: ping",
            "  |           ^^^^ used again here",
            "  |",
            "  = help: tool names must be unique within a server; rename one of them",
        ]
    );
    assert!(rendered.contains(
        "\nwarning[unused-error]: no tool lists the error `gone`\n  --> tools.yaml:16:3\n"
    ));
    // The closing count is of errors only.
    assert!(rendered.ends_with("\nerror: could not load `tools.yaml` due to 2 previous errors"));
    insta::assert_snapshot!(rendered);
}

#[test]
fn one_error_renders_with_its_caret_and_help() {
    let text = replace("destructive: false", "destructive: true");
    let (source, diags) = refused(&text);
    insta::assert_snapshot!(render_all(&diags, &source));
}

#[test]
fn the_minimal_manifest_loads_without_diagnostics() {
    let loaded = load(&Source::new("tools.yaml", VALID)).expect("VALID loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.contract.tools.len(), 1);
    assert!(matches!(loaded.contract.tools[0].output, OutputDef::Text));
}

#[test]
fn the_reference_manifest_loads_without_diagnostics() {
    let text = include_str!("../../../../tools.yaml");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let loaded = load(&Source::new("tools.yaml", text).with_dir(root)).unwrap_or_else(|d| {
        panic!("{}", render_all(&d, &Source::new("tools.yaml", text)));
    });
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn numbers_written_as_text_keep_their_spelling() {
    let text = replace("  name: demo\n", "  name: demo\n  version: 1.10\n");
    let loaded = load(&Source::new("tools.yaml", text)).expect("loads");
    assert_eq!(loaded.contract.server.version.as_deref(), Some("1.10"));
}

#[test]
fn keywords_work_as_names() {
    let text = "\
server:
  name: demo
tools:
  - name: match
    title: Match
    description: Matches a kind.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      type:
        type: string
        description: The kind.
        enum: [self, super, type]
        example: self
        default: type
      async:
        type: boolean
        description: Whether to wait.
        example: true
        required: false
    output:
      properties:
        fn:
          type: string
          description: The function.
";
    let loaded = load(&Source::new("tools.yaml", text)).unwrap_or_else(|d| {
        panic!("{}", render_all(&d, &Source::new("tools.yaml", text)));
    });
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let tool = &loaded.contract.tools[0];
    assert_eq!(tool.method, "r#match");
    assert_eq!(tool.constant, "MATCH");
    assert_eq!(tool.type_prefix, "Match");
    let params: Vec<&str> = tool.parameters.iter().map(|f| f.ident.as_str()).collect();
    assert_eq!(params, ["r#type", "r#async"]);
    let Kind::Enum(e) = &tool.parameters[0].schema.kind else {
        panic!("`type` is an enum");
    };
    let variants: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(variants, ["Self_", "Super", "Type"]);
    // The generated module is valid Rust with these names.
    let code = loaded.contract.rust_module();
    syn::parse_file(&code).expect("the generated module parses");
    for expected in ["r#match", "r#type", "r#async", "Self_"] {
        assert!(
            code.contains(expected),
            "`{expected}` is missing from:\n{code}"
        );
    }
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
fn an_integer_default_written_as_a_float_keeps_its_value() {
    let text = with(
        "    parameters:\n      n: {type: integer, minimum: 0, description: N., example: 1, default: 2.0}\n",
    );
    let loaded = load(&Source::new("tools.yaml", text)).expect("valid");
    let code = loaded.contract.rust_module();
    assert!(code.contains("pub const DEFAULT_N: u64 = 2;"), "{code}");
}

#[test]
fn a_defaulted_field_of_a_shared_type_is_required_and_unstated_in_an_output() {
    let text = with(
        "types:\n  Page:\n    type: object\n    description: A page.\n    properties:\n      size: {type: integer, description: Items per page., default: 20}\n",
    )
    .replace(
        "    output: text\n",
        "    parameters:\n      page: {type: Page, description: Which page., example: {size: 5}}\n    output:\n      properties:\n        page: {type: Page, description: The page used.}\n",
    );
    let loaded = load(&Source::new("tools.yaml", text)).expect("valid");
    let c = &loaded.contract;
    let tool = crate::emit::wire::tool_json(c, &c.tools[0]);
    let input = &tool["inputSchema"]["properties"]["page"];
    assert_eq!(
        input["properties"]["size"]["description"],
        "Items per page. Default: 20."
    );
    assert!(
        input.get("required").is_none(),
        "optional for a caller: {input}"
    );
    let output = &tool["outputSchema"]["properties"]["page"];
    assert_eq!(
        output["properties"]["size"]["description"],
        "Items per page."
    );
    assert_eq!(
        output["required"],
        serde_json::json!(["size"]),
        "always returned: {output}"
    );
}

#[test]
fn ident_collision_with_a_prelude_name_the_generated_code_uses() {
    single(
        &with("types:\n  Result:\n    type: string\n"),
        "ident-collision",
        "the type name `Result` is taken by the generated code",
        "tools.yaml:10:3",
    );
}

#[test]
fn ident_collision_of_a_tool_type_with_a_generated_item() {
    let (source, diags) = refused(&replace("name: ping", "name: contract"));
    let d = diags
        .iter()
        .find(|d| d.code == "ident-collision")
        .expect("the clash is found");
    assert_eq!(
        d.message,
        "the error type `ContractError` would clash with the generated `ContractError`"
    );
    assert_eq!(d.location(&source), "tools.yaml:4:11");
}

#[test]
fn bad_template_placeholder_not_in_snake_form() {
    let (_, diags) = refused(&with(
        "errors:\n  e:\n    message: \"A {a__b} and {a_b}.\"\n",
    ));
    assert!(diags.iter().any(|d| d.code == "bad-template" && d.message == "`{a__b}` is not a valid placeholder"), "{diags:#?}");
}

// ---------------------------------------------------------------------------------------
// Each fault reported once: what one rule refused, the rules after it skip.

#[test]
fn an_unknown_type_is_not_also_told_its_keywords_do_not_apply() {
    // `Strng` is no type, so no keyword can be judged against it.
    let text = with(
        "    parameters:
      n:
        type: Strng
        description: N.
        minimum: 1
        maxLength: 3
        example: 1
",
    );
    single(
        &text,
        "unknown-type",
        "unknown type `Strng`",
        "tools.yaml:11:15",
    );
    // A shared type's name is a type: constraints beside it are still refused.
    let text = text.replace("Strng", "Size")
        + "types:\n  Size:\n    type: integer\n    description: A size.\n";
    refused_at(
        &text,
        &[
            ("keyword-type-mismatch", "tools.yaml:13:9"),
            ("keyword-type-mismatch", "tools.yaml:14:9"),
        ],
    );
}

#[test]
fn tools_whose_rust_types_meet_are_one_collision() {
    // `ab1` and `ab_1` are two methods but one PascalCase name, `Ab1`: their arguments, output
    // and error types all meet, and that is one fault.
    let text = second_tool("ab_1", "Pong").replacen("name: ping", "name: ab1", 1);
    let d = single(
        &text,
        "ident-collision",
        "the arguments type `Ab1Args` would be generated twice",
        "tools.yaml:9:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
}

#[test]
fn a_badly_named_sentence_is_not_unknown_where_it_is_used() {
    let text = with("    sentences: [Pinned]\nsentences:\n  Pinned: Say it.\n");
    single(
        &text,
        "bad-name",
        "the sentence name `Pinned` is not snake_case",
        "tools.yaml:11:3",
    );
}

#[test]
fn an_enum_value_whose_variant_collides_is_still_a_value() {
    // The collision is the fault; an example naming the value is not a second one.
    let text = with(
        "    parameters:
      mode:
        type: string
        description: M.
        enum: [a-b, a_b]
        example: a_b
",
    );
    single(
        &text,
        "ident-collision",
        "`a_b` becomes the variant `AB`, which another value already has",
        "tools.yaml:13:21",
    );
}

#[test]
fn an_object_that_lost_a_property_does_not_fail_its_examples() {
    // `1x` is refused, so the object's example holding it is not judged against the rest.
    let text = with(
        "    parameters:
      window:
        type: object
        description: W.
        example: {1x: 1}
        properties:
          1x: {type: integer, description: X.}
",
    );
    single(
        &text,
        "bad-name",
        "`1x` is not a valid property name",
        "tools.yaml:15:11",
    );
}

// ---------------------------------------------------------------------------------------
// Carets on what the message names.

#[test]
fn an_example_is_refused_at_the_part_that_breaks_its_schema() {
    // Line 12 is `example: {start: 0, end: 2}`: the caret goes under the `0`.
    let text = parameter(
        "        type: object
        properties:
          start: {type: integer, minimum: 1, description: First.}
          end: {type: integer, minimum: 1, description: Last.}
",
        "{start: 0, end: 2}",
    );
    single_containing(
        &text,
        "invalid-example",
        INVALID_EXAMPLE,
        "at `/start`: 0 is less than the minimum of 1",
        "tools.yaml:12:26",
    );
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

// ---------------------------------------------------------------------------------------
// `server.distribution`: the registry and bundle identity.

/// [`VALID`] with a `distribution` block whose lines are `lines` (each at four spaces),
/// starting on line 3.
fn distribution(lines: &str) -> String {
    replace(
        "  name: demo\n",
        &format!("  name: demo\n  distribution:\n{lines}"),
    )
}

const DISTRIBUTION: &str =
    "    registry_name: io.github.demo/demo\n    description: A demo.\n    author: Demo Team\n";

#[test]
fn a_distribution_block_loads() {
    let c = loads(&distribution(&format!(
        "{DISTRIBUTION}    repository: https://github.com/demo/demo\n    remote: https://demo.example.com/mcp\n"
    )));
    let files = c.distribution_files("1.2.3").expect("declared");
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["server.json", "manifest.json", "clients.md"]);
    assert!(
        c.readme_table()
            .ends_with("\nmcp-name: io.github.demo/demo\n")
    );
    assert!(loads(VALID).distribution_files("1.2.3").is_none());
}

#[test]
fn distribution_needs_its_name_description_and_author() {
    let (source, diags) = refused(&distribution("    author: Demo Team\n"));
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "missing-field",
                "`distribution` is missing the required key `registry_name`".to_owned()
            ),
            (
                "missing-field",
                "`distribution` is missing the required key `description`".to_owned()
            ),
        ],
        "{}",
        render_all(&diags, &source)
    );
}

#[test]
fn bad_registry_name() {
    for name in ["demo", "io.github.demo/", "io github/demo", "a/b/c"] {
        let d = single(
            &distribution(&DISTRIBUTION.replace("io.github.demo/demo", &format!("\"{name}\""))),
            "bad-registry-name",
            &format!("`{name}` is not a registry name"),
            "tools.yaml:4:20",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write `namespace/name`: `io.github.YOUR-ACCOUNT/NAME` for a GitHub namespace, or `com.example/NAME` for a domain you own"
            )
        );
    }
}

#[test]
fn registry_description_length() {
    let long = "x".repeat(101);
    single(
        &distribution(&DISTRIBUTION.replace("A demo.", &long)),
        "registry-description-length",
        "the distribution description has 101 characters; the registry takes at most 100",
        "tools.yaml:5:18",
    );
    loads(&distribution(
        &DISTRIBUTION.replace("A demo.", &"x".repeat(100)),
    ));
}

#[test]
fn bad_distribution_url() {
    for (key, url) in [
        ("repository", "http://github.com/demo/demo"),
        ("remote", "https://"),
        ("remote", "demo.example.com/mcp"),
    ] {
        single(
            &distribution(&format!("{DISTRIBUTION}    {key}: {url}\n")),
            "bad-distribution-url",
            &format!("`{url}` is not an https URL"),
            &format!("tools.yaml:7:{}", 7 + key.len()),
        );
    }
}

#[test]
fn bad_package_name() {
    single(
        &distribution(&format!("{DISTRIBUTION}    package: 9lives\n")),
        "bad-package-name",
        "`9lives` is not a crate name",
        "tools.yaml:7:14",
    );
}

// ---------------------------------------------------------------------------------------
// `type: json`, any JSON value.

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

// ---------------------------------------------------------------------------------------
// `argument_codes`: the argument envelope's own codes.

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

// ---------------------------------------------------------------------------------------
// `auth:` and `scopes:`: who may call what.

/// An `auth:` block declaring `files:read` (line 11, column 5) and `files:edit` (line 13),
/// to follow the tool's lines.
const AUTH: &str = "auth:\n  scopes:\n    files:read:\n      description: Read files.\n    files:edit:\n      description: Change files.\n";

#[test]
fn scopes_load_into_every_entry_and_the_access_spec() {
    let text = with(
        "    scopes: [files:read, files:edit]\n    groups: look\ngroups:\n  look:\n    description: Looks.\n    scopes: files:read\nresources:\n  - name: readme\n    uri: x:///readme\n    title: Readme\n    description: The readme.\n    mime_type: text/plain\n    scopes: [files:read]\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: [files:edit]\nauth:\n  resource: https://mcp.example.com/mcp\n  authorization_servers: [https://auth.example.com, http://127.0.0.1:9000]\n  scopes:\n    files:read:\n      description: Read files.\n    files:edit:\n      description: Change files.\n",
    );
    let c = loads(&text);
    assert_eq!(c.tools[0].scopes, ["files:read", "files:edit"]);
    assert_eq!(c.groups[0].scopes, ["files:read"]);
    assert_eq!(c.resources[0].scopes, ["files:read"]);
    assert_eq!(c.prompts[0].scopes, ["files:edit"]);
    let code = c
        .rust_module()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for part in [
        "resource: Some(\"https://mcp.example.com/mcp\")",
        "authorization_servers: &[\"https://auth.example.com\", \"http://127.0.0.1:9000\"]",
        "::mcp_contract::codegen::ScopeSpec { name: \"files:read\", description: \"Read files.\", }",
        "tools: &[&[\"files:read\", \"files:edit\"]]",
        "groups: &[&[\"files:read\"]]",
        "resources: &[&[\"files:read\"]]",
        "prompts: &[&[\"files:edit\"]]",
    ] {
        assert!(code.contains(part), "{part} in\n{code}");
    }
    // Without `auth:`, the contract is open; an entry kind that requires nothing is empty.
    assert!(
        loads(VALID)
            .rust_module()
            .contains("access: ::mcp_contract::codegen::AccessSpec::OPEN")
    );
    let only_tool = loads(&with(
        "    scopes: files:read\n    groups: look\ngroups:\n  look:\n    description: Looks.\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n",
    ))
        .rust_module()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        only_tool.contains("resource: None, authorization_servers: &[],"),
        "{only_tool}"
    );
    assert!(
        only_tool.contains("groups: &[], resources: &[], prompts: &[],"),
        "{only_tool}"
    );
}

#[test]
fn ident_collision_of_scope_constants() {
    // Lines 12 `files:read`, 14 `files.read`; both used.
    let text = with(
        "    scopes: [files:read, files.read]\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n    files.read:\n      description: Read them too.\n",
    );
    let d = single(
        &text,
        "ident-collision",
        "the scope `files.read` becomes the Rust constant `scopes::FILES_READ`, which another scope already has",
        "tools.yaml:14:5",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:12:5");
    let code = loads(&with(&format!(
        "    scopes: [files:read, files:edit]\n{AUTH}"
    )))
    .rust_module();
    assert!(
        code.contains("pub mod scopes {")
            && code.contains(
                "/// `files:read`: Read files.\n    pub const FILES_READ: &str = \"files:read\";"
            ),
        "{code}"
    );
    assert!(!loads(VALID).rust_module().contains("pub mod scopes"));
}

#[test]
fn unused_scope() {
    let source = Source::new(
        "tools.yaml",
        with(&format!("    scopes: files:edit\n{AUTH}")),
    );
    let loaded = load(&source).expect("a warning does not refuse the manifest");
    assert_eq!(loaded.warnings.len(), 1);
    let w = &loaded.warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.code, "unused-scope");
    assert_eq!(w.message, "no entry requires the scope `files:read`");
    assert_eq!(w.location(&source), "tools.yaml:12:5");
    assert_eq!(
        w.help.as_deref(),
        Some("list it under a group's, tool's, resource's or prompt's `scopes:`, or remove it")
    );
}

#[test]
fn unknown_scope() {
    let d = single(
        &with(&format!("    scopes: [files:raed, files:edit]\n{AUTH}")),
        "unknown-scope",
        "unknown scope `files:raed`",
        "tools.yaml:9:14",
    );
    assert_eq!(d.label.as_deref(), Some("no such scope"));
    assert_eq!(d.help.as_deref(), Some("did you mean `files:read`?"));
    // `files:read` is not also unused: the misspelling may be meant for it. Once the name
    // is right, a scope nothing lists is.
    let loaded = load(&Source::new(
        "tools.yaml",
        with(&format!("    scopes: [files:edit]\n{AUTH}")),
    ))
    .expect("loads");
    assert_eq!(loaded.warnings.len(), 1);
}

#[test]
fn duplicate_scope() {
    let d = single(
        &with(&format!(
            "    scopes: [files:read, files:edit, files:read]\n{AUTH}"
        )),
        "duplicate-scope",
        "the scope `files:read` is listed twice",
        "tools.yaml:9:38",
    );
    assert_eq!(d.help.as_deref(), Some("list each scope once"));
}

#[test]
fn scopes_without_auth() {
    let d = single(
        &with("    scopes: [files:read]\n"),
        "scopes-without-auth",
        "`scopes:` is listed, but no `auth:` block declares scopes",
        "tools.yaml:9:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "declare the scopes under a top-level `auth:` block (`auth: {scopes: {NAME: {description: …}}}`), or remove `scopes:`"
        )
    );
    // Every kind of entry, each once; an `auth:` block whose scopes are refused says no more.
    refused_at(
        &with(
            "    scopes: a\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: a\nresources:\n  - name: readme\n    uri: x:///readme\n    title: Readme\n    description: The readme.\n    mime_type: text/plain\n    scopes: a\n",
        ),
        &[
            ("scopes-without-auth", "tools.yaml:9:13"),
            ("scopes-without-auth", "tools.yaml:14:13"),
            ("scopes-without-auth", "tools.yaml:21:13"),
        ],
    );
    refused_at(
        &with("    scopes: a\nauth: {scopes: {}}\n"),
        &[("empty-scopes", "tools.yaml:10:16")],
    );
}

#[test]
fn empty_scopes() {
    let d = single(
        &with("auth:\n  scopes: {}\n"),
        "empty-scopes",
        "`auth.scopes` declares no scope",
        "tools.yaml:10:11",
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.starts_with("declare each scope"))
    );
    single(
        &with("auth:\n  resource: https://mcp.example.com\n"),
        "missing-field",
        "`auth` is missing the required key `scopes`",
        "tools.yaml:10:3",
    );
}

#[test]
fn bad_scope_name() {
    // Lines 11 `"files read":`, 13 `a\"b` (quoted in YAML), 15 `ok`.
    let text = with(
        "auth:\n  scopes:\n    \"files read\":\n      description: Read.\n    'a\"b':\n      description: Quote.\n    ok:\n      description: Fine.\n    scopes: [ok]\n",
    );
    let text = text.replace(
        "      description: Fine.\n    scopes: [ok]\n",
        "      description: Fine.\n",
    );
    let text = text.replace(
        "    output: text\n",
        "    output: text\n    scopes: [ok, \"files read\"]\n",
    );
    let diags = refused_at(
        &text,
        &[
            ("bad-scope-name", "tools.yaml:12:5"),
            ("bad-scope-name", "tools.yaml:14:5"),
        ],
    );
    assert_eq!(diags[0].message, "`files read` is not a valid scope name");
    assert_eq!(
        diags[0].help.as_deref(),
        Some(
            "a scope is one or more printable ASCII characters other than space, `\"` and `\\`, such as `files:read`"
        )
    );
    // Printable ASCII but for space, `"` and `\`; nothing else.
    for ok in ["files:read", "https://x.example/s", "a!#[]~"] {
        assert!(super::super::names::is_scope_token(ok), "{ok}");
    }
    for bad in ["", "a b", "a\"b", "a\\b", "é", "a\tb", "\u{7f}"] {
        assert!(!super::super::names::is_scope_token(bad), "{bad:?}");
    }
}

#[test]
fn empty_text_and_missing_description_of_a_scope() {
    let d = single(
        &with("    scopes: s\nauth:\n  scopes:\n    s: {description: \" \"}\n"),
        "empty-text",
        "the scope's description is empty",
        "tools.yaml:12:22",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("say what a token with this scope may do")
    );
    single(
        &with("    scopes: s\nauth:\n  scopes:\n    s: {}\n"),
        "missing-field",
        "a scope is missing the required key `description`",
        "tools.yaml:12:8",
    );
}

#[test]
fn bad_auth_url() {
    let text = with(&format!(
        "{AUTH}  resource: http://mcp.example.com/mcp\n  authorization_servers: [https://auth.example.com, \"https://auth.example.com/#x\"]\n"
    ))
    .replace("    output: text\n", "    output: text\n    scopes: [files:read, files:edit]\n");
    let diags = refused_at(
        &text,
        &[
            ("bad-auth-url", "tools.yaml:16:13"),
            ("bad-auth-url", "tools.yaml:17:53"),
        ],
    );
    assert_eq!(
        diags[0].message,
        "the resource identifier `http://mcp.example.com/mcp` is not an absolute https URL: `http://` is for a loopback host, not `mcp.example.com`"
    );
    assert_eq!(
        diags[1].message,
        "the authorization server `https://auth.example.com/#x` is not an absolute https URL: it has a fragment"
    );
    assert!(
        diags[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("loopback"))
    );
}

#[test]
fn every_scope_fault_is_reported_at_once() {
    // A misspelt and a duplicate reference, and a badly named declaration, which is not also
    // unknown where a prompt lists it; `files:edit`, unused, waits for the misspelling.
    let text = with(
        "    scopes: [files:raed]\n    groups: look\ngroups:\n  look:\n    description: Looks.\n    scopes: [files:read, files:read]\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n    bad name:\n      description: Bad.\n    files:edit:\n      description: Change files.\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: [bad name]\n",
    );
    let (source, diags) = refused(&text);
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-scope", "tools.yaml:9:14".to_owned()),
            ("duplicate-scope", "tools.yaml:14:26".to_owned()),
            ("bad-scope-name", "tools.yaml:19:5".to_owned()),
        ],
        "{}",
        render_all(&diags, &source)
    );
}

// ---------------------------------------------------------------------------------------
// Questions a tool asks (`asks:`).

/// [`VALID`] with one question on its tool, whose `fields:` lines (indented by ten
/// spaces) start on line 12.
fn asking(fields: &str) -> String {
    with(&format!(
        "    asks:\n      confirm_ping:\n        message: Ping `{{host}}`?\n        fields:\n{fields}"
    ))
}

#[test]
fn a_question_of_every_field_kind_loads() {
    let c = loads(&asking(
        "          ok: {type: boolean, title: Ping, default: false}
          email: {type: string, format: email, maxLength: 64, required: false}
          count: {type: integer, minimum: 1, maximum: 9}
          ratio: {type: number, description: How much.}
          size: {type: string, enum: [s, m], titles: {s: Small}, default: m}
          tags: {type: array, items: {type: string, enum: [a, b]}, minItems: 1, maxItems: 2}
",
    ));
    let q = &c.tools[0].questions[0];
    assert_eq!(
        (q.id.as_str(), q.rust_name.as_str()),
        ("confirm_ping", "ConfirmPing")
    );
    assert_eq!(q.placeholders, ["host"]);
    assert_eq!(
        q.requested_schema().unwrap(),
        serde_json::json!({
            "type": "object",
            "properties": {
                "ok": {"type": "boolean", "title": "Ping", "default": false},
                "email": {"type": "string", "format": "email", "maxLength": 64},
                "count": {"type": "integer", "minimum": 1, "maximum": 9},
                "ratio": {"type": "number", "description": "How much."},
                "size": {"type": "string", "oneOf": [
                    {"const": "s", "title": "Small"}, {"const": "m", "title": "m"}
                ], "default": "m"},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]},
                         "minItems": 1, "maxItems": 2},
            },
            "required": ["count", "ratio", "tags"],
        })
    );
}

#[test]
fn a_url_question_has_no_fields_and_no_schema() {
    let c = loads(&with(
        "    asks:\n      sign_in:\n        message: Sign in to continue.\n        mode: url\n",
    ));
    let q = &c.tools[0].questions[0];
    assert!(matches!(q.mode, crate::model::QuestionMode::Url));
    assert_eq!(q.requested_schema(), None);
}

#[test]
fn bad_question_id() {
    let text = with("    asks:\n      Confirm-Ping:\n        message: Sure?\n");
    let d = single(
        &text,
        "bad-question-id",
        "`Confirm-Ping` is not a valid question id",
        "tools.yaml:10:7",
    );
    assert!(d.help.unwrap().starts_with("question ids are snake_case"));
}

#[test]
fn duplicate_question_across_tools() {
    let text = with(
        "    asks:\n      sure: {message: Sure?}
  - name: pong
    title: Pong
    description: Answers ping.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    asks:
      sure: {message: Really?}
",
    );
    let d = single(
        &text,
        "duplicate-question",
        "the question `sure` is declared twice",
        "tools.yaml:17:7",
    );
    assert_eq!(d.related[0].0.start, text.find("sure").unwrap());
}

#[test]
fn a_question_type_clashing_with_another_is_an_ident_collision() {
    let text = with("    asks:\n      ping_args: {message: Sure?}\n");
    single(
        &text,
        "ident-collision",
        "the arguments type `PingArgs` would be generated twice",
        "tools.yaml:4:11",
    );
}

#[test]
fn bad_question_mode() {
    refused_at(
        &with(
            "    asks:\n      a: {message: A?, mode: page}\n      b: {message: B?, mode: url, fields: {x: {type: string}}}\n",
        ),
        &[
            ("bad-question-mode", "tools.yaml:10:30"),
            ("bad-question-mode", "tools.yaml:11:43"),
        ],
    );
}

#[test]
fn bad_form_field_kinds() {
    let diags = refused_at(
        &asking(
            "          a: {type: object, properties: {x: {type: string}}}
          b: {type: json}
          c: {type: array, items: {type: string}}
          d: {type: string, pattern: \"^x$\"}
          e: {type: string, format: ipv4}
          f: {type: string, example: x}
          g: {type: boolean, titles: {x: X}}
          h: {type: string, enum: [x], titles: {y: Y}}
",
        ),
        &[
            ("bad-form-field", "tools.yaml:13:21"),
            ("bad-form-field", "tools.yaml:14:21"),
            ("bad-form-field", "tools.yaml:15:35"),
            ("bad-form-field", "tools.yaml:16:29"),
            ("bad-form-field", "tools.yaml:17:37"),
            ("bad-form-field", "tools.yaml:18:29"),
            ("bad-form-field", "tools.yaml:19:30"),
            ("bad-form-field", "tools.yaml:20:49"),
        ],
    );
    assert_eq!(diags[0].message, "a form field cannot be `type: object`");
    assert_eq!(
        diags[2].message,
        "the array `c` is not a multi-select: its items are not a string enum"
    );
    assert_eq!(diags[3].message, "a form field cannot have a `pattern`");
    assert_eq!(diags[4].message, "a form field cannot have `format: ipv4`");
    assert_eq!(diags[6].message, "`g` has `titles` but no enum");
    assert_eq!(diags[7].message, "`y` is not a value of `h`");
    assert_eq!(diags[7].help.as_deref(), Some("the values are: x"));
}

#[test]
fn a_form_default_must_fit_its_field() {
    let (source, diags) = refused(&asking(
        "          size: {type: string, enum: [s, m], default: l}
          n: {type: integer, maximum: 3, default: 4}
",
    ));
    let at: Vec<String> = diags.iter().map(|d| d.location(&source)).collect();
    assert_eq!(
        at,
        ["tools.yaml:13:55", "tools.yaml:14:51"],
        "{}",
        render_all(&diags, &source)
    );
}

#[test]
fn a_secret_form_field_is_warned_about() {
    let source = Source::new(
        "tools.yaml",
        asking("          api_key: {type: string}\n          user_password: {type: string}\n"),
    );
    let loaded = load(&source).expect("warnings only");
    let found: Vec<(&str, String, String)> = loaded
        .warnings
        .iter()
        .map(|d| (d.code.as_str(), d.message.clone(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            (
                "secret-form-field",
                "the form field `api_key` looks like a secret (`apikey`)".to_owned(),
                "tools.yaml:13:11".to_owned()
            ),
            (
                "secret-form-field",
                "the form field `user_password` looks like a secret (`password`)".to_owned(),
                "tools.yaml:14:11".to_owned()
            ),
        ]
    );
    assert_eq!(loaded.warnings[0].severity, Severity::Warning);
}

#[test]
fn a_question_message_is_a_template() {
    let text = with("    asks:\n      sure: {message: \"Sure {Host}?\"}\n");
    let (_, diags) = refused(&text);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "bad-template");
}

#[test]
fn a_placeholder_that_is_an_argument_of_ask_is_an_ident_collision() {
    single(
        &with("    asks:\n      sign_in: {message: \"Go to {url}\", mode: url}\n"),
        "ident-collision",
        "`{url}` becomes an argument of `SignIn::ask`, which already has `url`",
        "tools.yaml:10:26",
    );
    // In a form question, `url` is a placeholder like any other.
    loads(&with(
        "    asks:\n      sign_in: {message: \"Go to {url}\"}\n",
    ));
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
