//! What the rule tests share: the smallest valid manifest, and loading one that must be
//! refused or must load.

use crate::{Contract, Diagnostic, Severity, Source, load, render_all};

mod content;
mod examples;
mod icons;
mod key_paths;
mod metadata;
mod prompts;
mod rules;
mod tasks;

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
pub(super) fn loads(text: &str) -> Contract {
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
