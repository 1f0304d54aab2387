//! Each lint alone on the smallest manifest that trips it, placed; the profiles that select
//! it; warnings, and errors under `strict`.

use crate::model::{Client, Profile};
use crate::validate::tests::loads;
use crate::{Contract, Diagnostic, Severity, Source, load, render_all};

/// One tool; `{server}` and `{tool}` are replaced. Its `name:` value is at line 5, column 11.
const BASE: &str = "\
server:
  name: demo
{server}
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
{tool}
";

/// `BASE` with `server` lines (indented two spaces) and `tool` lines (four).
fn manifest(server: &str, tool: &str) -> String {
    BASE.replace("{server}", server).replace("{tool}", tool)
}

#[track_caller]
fn contract(text: &str) -> (Source, Contract) {
    (Source::new("tools.yaml", text), loads(text))
}

/// The lints of `text` under `profiles`, as (code, location, severity).
#[track_caller]
fn lints(text: &str, profiles: &[Profile]) -> Vec<(String, String, Severity)> {
    let (source, contract) = contract(text);
    found(&source, &contract.portability(profiles))
}

fn found(source: &Source, diags: &[Diagnostic]) -> Vec<(String, String, Severity)> {
    diags
        .iter()
        .map(|d| (d.code.as_str().to_owned(), d.location(source), d.severity))
        .collect()
}

/// `text` trips exactly the lint `code` at `at`, under `portable` and under its own client's
/// profile, and nothing under every other client's profile.
#[track_caller]
fn alone(text: &str, code: &str, client: Client, at: &str) -> Diagnostic {
    let want = vec![(code.to_owned(), at.to_owned(), Severity::Warning)];
    assert_eq!(lints(text, &[Profile::Portable]), want);
    assert_eq!(lints(text, &[Profile::Client(client)]), want);
    for other in Client::ALL.into_iter().filter(|c| *c != client) {
        assert_eq!(lints(text, &[Profile::Client(other)]), [], "{other:?}");
    }
    assert_eq!(lints(text, &[]), [], "no profile, no lint");
    let (_, contract) = contract(text);
    contract.portability(&[Profile::Portable]).remove(0)
}

const ENTRY: &str = "\
types:
  Entry:
    type: object
    description: An entry.
    properties:
      path: {type: string, description: Its path.}
";

#[test]
fn portable_defs_fires_where_shared_types_publish_defs() {
    let text = manifest(
        "  shared_types: defs",
        "    parameters:\n      entry: {type: Entry, description: The entry., example: {path: a}}\n    output: text",
    ) + ENTRY;
    let d = alone(&text, "portable-defs", Client::Gemini, "tools.yaml:3:17");
    assert_eq!(
        d.message,
        "the schemas of 1 tool (`ping`) refer to shared types with `$ref` into `$defs`"
    );
    assert!(
        d.label
            .as_deref()
            .unwrap()
            .starts_with("gemini: Gemini rejects `$defs`")
    );
    // With nothing to refer to, `defs` publishes no `$ref`, and nothing is said.
    let unused = manifest("  shared_types: defs", "    output: text");
    assert_eq!(lints(&unused, &[Profile::Portable]), []);
}

#[test]
fn portable_defs_fires_on_a_document_that_refers_to_its_defs() {
    let text = manifest(
        "",
        "    input_schema:
      type: object
      additionalProperties: false
      properties:
        at: {$ref: '#/$defs/point'}
      $defs:
        point: {type: integer}
    output: text",
    );
    let d = alone(&text, "portable-defs", Client::Gemini, "tools.yaml:9:5");
    assert_eq!(
        d.message,
        "the tool `ping`'s `inputSchema` document has `$ref` at `/properties/at`"
    );
}

/// Under `shared_types: defs`, a document's own `$defs` are reported at the document only:
/// the setting changes nothing of it.
#[test]
fn portable_defs_fires_once_at_a_document_under_shared_types_defs() {
    let text = manifest(
        "  shared_types: defs",
        "    input_schema:
      type: object
      additionalProperties: false
      properties:
        at: {$ref: '#/$defs/point'}
      $defs:
        point: {type: integer}
    output: text",
    );
    assert_eq!(
        lints(&text, &[Profile::Portable]),
        [(
            "portable-defs".to_owned(),
            "tools.yaml:9:5".to_owned(),
            Severity::Warning
        )]
    );
}

#[test]
fn portable_union_in_items_fires_at_the_parameter() {
    let text = manifest(
        "",
        "    parameters:
      ids:
        json_schema:
          description: Ids.
          type: array
          items: {anyOf: [{type: string}, {type: integer}]}
          examples: [[a, 1]]
    output: text",
    );
    let d = alone(
        &text,
        "portable-union-in-items",
        Client::Gemini,
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.message,
        "the parameter `ids` of `ping` has `anyOf` inside array items at `inputSchema/properties/ids/items`"
    );
}

/// A tagged union is `oneOf` on the wire: a list of them trips the same lint.
#[test]
fn portable_union_in_items_fires_at_a_list_of_tagged_unions() {
    let text = manifest(
        "",
        "    parameters:
      edits:
        type: array
        description: The edits.
        example: [{kind: put, text: a}]
        items:
          one_of:
            tag: kind
            variants:
              put: {type: object, properties: {text: {type: string, description: The text.}}}
              drop: {type: object, properties: {line: {type: integer, description: The line.}}}
    output: text",
    );
    let d = alone(
        &text,
        "portable-union-in-items",
        Client::Gemini,
        "tools.yaml:10:7",
    );
    assert!(
        d.message.contains("has `oneOf` inside array items"),
        "{}",
        d.message
    );
}

#[test]
fn portable_root_composition_fires_at_the_input_document() {
    let text = manifest(
        "",
        "    input_schema:
      type: object
      additionalProperties: false
      properties:
        a: {type: string}
        b: {type: string}
      anyOf: [{required: [a]}, {required: [b]}]
    output: text",
    );
    let d = alone(
        &text,
        "portable-root-composition",
        Client::Claude,
        "tools.yaml:9:5",
    );
    assert_eq!(
        d.message,
        "the tool `ping`'s `inputSchema` has `anyOf` at its root"
    );
}

#[test]
fn portable_tool_count_fires_at_the_first_tool_over_the_cap() {
    let mut text = manifest("", "    output: text");
    for i in 0..128 {
        text += &format!(
            "  - name: t{i}\n    title: T{i}\n    description: D.\n    hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n    output: text\n"
        );
    }
    // `ping` and t0…t127: the 129th is t127, on the tool's first line after 127 others.
    let line = 10 + 127 * 5;
    let d = alone(
        &text,
        "portable-tool-count",
        Client::Copilot,
        &format!("tools.yaml:{line}:11"),
    );
    assert_eq!(
        d.message,
        "the server publishes 129 tools; `t127` is the 129th"
    );
    assert!(d.help.as_deref().unwrap().contains("groups"));
}

#[test]
fn portable_name_length_fires_on_a_name_gemini_cuts() {
    let name = "a".repeat(64);
    let text = manifest("", "    output: text").replace("name: ping", &format!("name: {name}"));
    let want = |code: &str| {
        (
            code.to_owned(),
            "tools.yaml:5:11".to_owned(),
            Severity::Warning,
        )
    };
    let gemini = lints(&text, &[Profile::Client(Client::Gemini)]);
    assert_eq!(gemini, [want("portable-name-length")]);
    // Any name that long is too long for Claude Code's prefixed name as well.
    assert_eq!(
        lints(&text, &[Profile::Portable]),
        [want("portable-name-length"), want("portable-prefixed-name")]
    );
    let (_, contract) = contract(&text);
    let d = contract
        .portability(&[Profile::Client(Client::Gemini)])
        .remove(0);
    assert_eq!(
        d.message,
        format!("the tool name `{name}` has 64 characters")
    );
    // 63 is kept whole.
    let text =
        manifest("", "    output: text").replace("name: ping", &format!("name: {}", &name[1..]));
    assert_eq!(lints(&text, &[Profile::Client(Client::Gemini)]), []);
}

#[test]
fn portable_prefixed_name_fires_when_claude_codes_name_is_too_long() {
    // `mcp__` + 50 + `__` + `ping`: 61; one character more of server name each time.
    let server = |n: usize| {
        manifest("", "    output: text").replace("name: demo", &format!("name: {}", "s".repeat(n)))
    };
    assert_eq!(lints(&server(53), &[Profile::Portable]), [], "64 fits");
    let d = alone(
        &server(54),
        "portable-prefixed-name",
        Client::Claude,
        "tools.yaml:5:11",
    );
    assert_eq!(
        d.message,
        format!(
            "the tool `ping` is `mcp__{}__ping` to Claude Code: 65 characters",
            "s".repeat(54)
        )
    );
}

#[test]
fn portable_description_length_fires_at_the_description() {
    let long = "word ".repeat(410) + "end.";
    assert_eq!(long.len(), 2054);
    let text = manifest("", "    output: text").replace("Answers pong.", &long);
    let d = alone(
        &text,
        "portable-description-length",
        Client::Claude,
        "tools.yaml:7:5",
    );
    assert_eq!(
        d.message,
        "the tool `ping`'s published description has 2054 characters"
    );
}

#[test]
fn portable_enum_size_fires_at_the_largest_enum() {
    let values = |n: usize, p: &str| {
        (0..n)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = manifest(
        "",
        &format!(
            "    parameters:
      small: {{type: string, description: S., enum: [{}], example: s0}}
      big: {{type: string, description: B., enum: [{}], example: b0}}
    output: text",
            values(2, "s"),
            values(499, "b")
        ),
    );
    let d = alone(
        &text,
        "portable-enum-size",
        Client::OpenAi,
        "tools.yaml:11:7",
    );
    assert_eq!(
        d.message,
        "the tool `ping`'s `inputSchema` has 501 enum values; the parameter `big` of `ping` has 499 of them"
    );
    let fits = text.replace(", s1]", "]");
    assert_eq!(lints(&fits, &[Profile::Portable]), [], "500 fit");
}

#[test]
fn portable_omitted_hint_fires_once_at_the_first_tool_without_destructive_hint() {
    let text = manifest("", "    output: text")
        .replace("tools:\n", "hint_policy: minimal\ntools:\n")
        + "  - name: pong\n    title: Pong\n    description: Answers ping.\n    \
           hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    output: text\n";
    let d = alone(
        &text,
        "portable-omitted-hint",
        Client::OpenAi,
        "tools.yaml:6:11",
    );
    assert_eq!(
        d.message,
        "2 tools (`ping`, `pong`) publish no `destructiveHint`"
    );
    // Leaving out only `idempotentHint` keeps it.
    let kept = text.replace(
        "hint_policy: minimal",
        "hint_policy: {omit_on_read_only: [idempotent]}",
    );
    assert_eq!(lints(&kept, &[Profile::Portable]), []);
}

#[test]
fn strict_makes_every_lint_an_error_and_alone_means_portable() {
    let long = "word ".repeat(410) + "end.";
    let text = manifest("", "    output: text").replace("Answers pong.", &long);
    let at = |severity| {
        vec![(
            "portable-description-length".to_owned(),
            "tools.yaml:7:5".to_owned(),
            severity,
        )]
    };
    assert_eq!(
        lints(&text, &[Profile::Client(Client::Claude)]),
        at(Severity::Warning)
    );
    assert_eq!(lints(&text, &[Profile::Strict]), at(Severity::Error));
    assert_eq!(
        lints(&text, &[Profile::Client(Client::Claude), Profile::Strict]),
        at(Severity::Error)
    );
    assert_eq!(
        lints(&text, &[Profile::Client(Client::Gemini), Profile::Strict]),
        []
    );
}

#[test]
fn the_manifests_profiles_run_with_the_callers() {
    let long = "word ".repeat(410) + "end.";
    let text = manifest("  profiles: [claude]", "    output: text").replace("Answers pong.", &long);
    let at = |severity| {
        vec![(
            "portable-description-length".to_owned(),
            "tools.yaml:7:5".to_owned(),
            severity,
        )]
    };
    assert_eq!(lints(&text, &[]), at(Severity::Warning));
    // One lint once, however many profiles select it.
    assert_eq!(
        lints(&text, &[Profile::Portable, Profile::Client(Client::Claude)]),
        at(Severity::Warning)
    );
    assert_eq!(lints(&text, &[Profile::Strict]), at(Severity::Error));
    let strict = manifest("  profiles: [claude, strict]", "    output: text")
        .replace("Answers pong.", &long);
    assert_eq!(lints(&strict, &[]), at(Severity::Error));
}

#[test]
fn a_lint_renders_with_its_rule_client_why_and_help() {
    let name = "a".repeat(64);
    let text = manifest("", "    output: text").replace("name: ping", &format!("name: {name}"));
    let (source, contract) = contract(&text);
    let rendered = render_all(
        &contract.portability(&[Profile::Client(Client::Gemini)]),
        &source,
    );
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(
        lines[0],
        format!("warning[portable-name-length]: the tool name `{name}` has 64 characters")
    );
    assert_eq!(lines[1], " --> tools.yaml:5:11");
    assert!(
        lines[4].contains("^^^^ gemini: Gemini CLI cuts a tool name longer than 63 characters"),
        "{rendered}"
    );
    assert!(
        rendered.contains("= help: shorten it to at most 63 characters"),
        "{rendered}"
    );
}

#[test]
fn unknown_profiles_and_shared_types_are_refused() {
    let text = manifest(
        "  profiles: [gemni, portable]\n  shared_types: refs",
        "    output: text",
    );
    let source = Source::new("tools.yaml", text.as_str());
    let diags = load(&source).expect_err("refused");
    let got: Vec<(&str, String, Option<&str>)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.location(&source), d.help.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "unknown-profile",
                "tools.yaml:3:14".to_owned(),
                Some("did you mean `gemini`?")
            ),
            (
                "bad-shared-types",
                "tools.yaml:4:17".to_owned(),
                Some("write `shared_types: inline` (the default) or `shared_types: defs`")
            ),
        ]
    );
    assert_eq!(
        "gemni".parse::<Profile>().unwrap_err().to_string(),
        "`gemni` is not a profile; the profiles are `claude`, `copilot`, `gemini`, `openai`, `portable`, `strict`"
    );
}

/// The manifest reference carries the table of lints word for word.
#[test]
fn the_reference_carries_the_table_of_lints() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("../docs/manifest.md"))
        .expect("docs/manifest.md is readable");
    let table = super::table();
    assert!(
        reference.contains(&table),
        "docs/manifest.md must carry this table verbatim:\n{table}"
    );
}
