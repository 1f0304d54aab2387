//! Names: the Rust names two declarations would both claim, the names the generated code keeps
//! for itself, and what a name that refers to nothing is told.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{refused, related_at, replace, second_tool, single, with};
use crate::model::Kind;
use crate::{Source, load, render_all};

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
