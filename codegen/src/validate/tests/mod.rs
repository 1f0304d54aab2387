//! The validator's tests, one file per concept of `validate/` (`tools.rs` tests `tools.rs`),
//! and three for what surrounds the rules: `manifest.rs` (reading the YAML), `diagnostic.rs`
//! (how a diagnostic renders, the registry of codes) and `loading.rs` (a manifest as a whole).
//!
//! This module holds what they share: the manifests they start from, and loading one that must
//! be refused or must load.

use mcp_contract_spec::planning::{Encoding, Mode, Produced};

// The wire form the tests read: the one place these tests name the emitter.
pub(super) use crate::emit::wire::{tool_json, tools_list};
use crate::model::ToolDef;
use crate::{Contract, Diagnostic, Severity, Source, load, render_all};

mod access;
mod apps;
mod content;
mod diagnostic;
mod documents;
mod examples;
mod groups;
mod headers;
mod hints;
mod icons;
mod key_paths;
mod lifecycle;
mod loading;
mod manifest;
mod meta;
mod names;
mod placeholders;
mod planning;
mod prompts;
mod questions;
mod record;
mod refused;
mod resources;
mod schema;
mod server;
mod tasks;
mod tools;
mod types;
mod unions;
mod vocabulary;

/// The smallest manifest that loads: one tool with text output and its four hints.
pub(super) const VALID: &str = "\
server:
  name: demo
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
";

/// [`VALID`] followed by `extra`, whose first line is line 9. Lines indented by four spaces
/// continue the tool; lines at column 1 are top-level keys.
pub(super) fn with(extra: &str) -> String {
    format!("{VALID}{extra}")
}

/// Every diagnostic of a manifest that must be refused.
#[track_caller]
pub(super) fn refused(text: &str) -> (Source, Vec<Diagnostic>) {
    let source = Source::new("tools.yaml", text);
    match load(&source) {
        Ok(_) => panic!("the manifest loaded, but it should not:\n{text}"),
        Err(diags) => (source, diags),
    }
}

/// The contract of a manifest that must load without any diagnostic.
#[track_caller]
pub(crate) fn loads(text: &str) -> Contract {
    let source = Source::new("tools.yaml", text);
    match load(&source) {
        Ok(loaded) => {
            assert!(
                loaded.warnings.is_empty(),
                "{}",
                render_all(&loaded.warnings, &source)
            );
            loaded.contract
        }
        Err(diags) => panic!(
            "the manifest was refused:\n{}\n{text}",
            render_all(&diags, &source)
        ),
    }
}

/// Loads `text`, which must produce exactly one diagnostic, an error, and checks it.
#[track_caller]
pub(super) fn single(text: &str, code: &str, message: &str, at: &str) -> Diagnostic {
    let (source, diags) = refused(text);
    assert_eq!(diags.len(), 1, "{}", render_all(&diags, &source));
    let d = &diags[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.code, code, "{}", render_all(&diags, &source));
    assert_eq!(d.message, message);
    assert_eq!(d.location(&source), at, "{}", render_all(&diags, &source));
    d.clone()
}

/// Loads `text`, which must be refused with exactly these diagnostics (code and
/// `tools.yaml:LINE:COL`, in file order), and gives them back.
#[track_caller]
pub(super) fn refused_at(text: &str, expected: &[(&str, &str)]) -> Vec<Diagnostic> {
    let (source, diags) = refused(text);
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.location(&source)))
        .collect();
    let expected: Vec<(&str, String)> = expected
        .iter()
        .map(|(code, at)| (*code, (*at).to_owned()))
        .collect();
    assert_eq!(found, expected, "{}", render_all(&diags, &source));
    diags
}

/// `tools.yaml:LINE:COL` of a related span.
pub(super) fn related_at(d: &Diagnostic, source_text: &str, i: usize) -> String {
    let source = Source::new("tools.yaml", source_text);
    let (line, col) = source.line_col(d.related[i].0.start);
    format!("tools.yaml:{line}:{col}")
}

/// [`VALID`] with its only occurrence of `from` replaced.
pub(super) fn replace(from: &str, to: &str) -> String {
    assert_eq!(VALID.matches(from).count(), 1, "`{from}` must occur once");
    VALID.replacen(from, to, 1)
}

/// Like [`single`], for messages that quote an independent validator: only the part we write
/// and the validator's key wording are pinned.
#[track_caller]
pub(super) fn single_containing(
    text: &str,
    code: &str,
    prefix: &str,
    quoted: &str,
    at: &str,
) -> Diagnostic {
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

/// A second tool after [`VALID`]'s, starting on line 9 with `name` (column 11) and `title`
/// (line 10, column 12).
pub(super) fn second_tool(name: &str, title: &str) -> String {
    with(&format!(
        "  - name: {name}
    title: {title}
    description: Answers pong again.
    hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}
    output: text
"
    ))
}

/// A produced artifact as the model holds it; `json_array` sets the encoding.
pub(super) fn produced(kind: &str, pointer: &str, json_array: bool) -> Produced {
    Produced {
        kind: kind.into(),
        pointer: pointer.into(),
        mode: Mode::Materialize,
        encoding: json_array.then_some(Encoding::JsonArray),
    }
}

/// A tool with a string parameter and a structured output of a string, an array of strings
/// and an integer. Text appended to it starts on line 26; lines indented by four spaces
/// continue the tool.
const STRUCTURED: &str = "\
server:
  name: demo
tools:
  - name: find
    title: Find
    description: Finds items.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      path:
        type: string
        description: Where to look.
        example: src
    output:
      properties:
        dir:
          type: string
          description: The directory.
        ids:
          type: array
          description: The ids.
          items: {type: string}
        count:
          type: integer
          minimum: 0
          description: How many.
";

const HINTS: &str = "{read_only: true, destructive: false, idempotent: true, open_world: false}";

/// [`STRUCTURED`] followed by `extra`, whose first line is line 26.
pub(super) fn structured(extra: &str) -> String {
    format!("{STRUCTURED}{extra}")
}

/// Another tool with text output, five lines long, then `extra`, which continues it.
pub(super) fn tool(name: &str, extra: &str) -> String {
    format!(
        "  - name: {name}\n    title: Tool {name}\n    description: Does {name}.\n    hints: {HINTS}\n    output: text\n{extra}"
    )
}

/// [`STRUCTURED`] with one produced artifact: `- kind:` on line 28, `pointer:` on line 29
/// (the value at column 20), then `more`, which continues the entry.
pub(super) fn produces(kind: &str, pointer: &str, more: &str) -> String {
    structured(&format!(
        "    artifacts:\n      produces:\n        - kind: {kind}\n          pointer: {pointer}\n{more}"
    ))
}

pub(super) fn tool_named<'c>(contract: &'c Contract, name: &str) -> &'c ToolDef {
    contract
        .tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}
