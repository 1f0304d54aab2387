//! `record:`, which marks a tool's parameter whose value its calls' spans may carry: where it
//! may stand, and what the model keeps of it.

use super::{loads, single, structured, with};
use crate::Source;

/// `tools.yaml:LINE:COL` of the `n`-th `record:` key in `text`.
fn record_at(text: &str, n: usize) -> String {
    let (offset, _) = text
        .match_indices("record: ")
        .nth(n)
        .expect("the manifest has that many `record:`");
    let (line, col) = Source::new("tools.yaml", text).line_col(offset);
    format!("tools.yaml:{line}:{col}")
}

#[test]
fn a_parameter_marked_record_is_kept_and_others_are_not() {
    let text = with(
        "    parameters:\n      path:\n        type: string\n        description: P.\n        example: a\n        record: true\n      \
         secret:\n        type: string\n        description: S.\n        example: b\n      \
         quiet:\n        type: string\n        description: Q.\n        example: c\n        record: false\n",
    );
    let contract = loads(&text);
    let recorded: Vec<(&str, bool)> = (contract.tools[0].parameters.iter())
        .map(|p| (p.name.as_str(), p.record))
        .collect();
    assert_eq!(
        recorded,
        [("path", true), ("secret", false), ("quiet", false)]
    );
}

#[test]
fn record_placement() {
    let help = "only a tool's own parameters are recorded on its calls' spans; move `record:` to the parameter, or remove it";
    // On an output field.
    let text = structured("          record: true\n");
    let d = single(
        &text,
        "record-placement",
        "`count` cannot carry `record`",
        &record_at(&text, 0),
    );
    assert_eq!(d.help.as_deref(), Some(help));
    // On a field nested in a parameter.
    let text = with(
        "    parameters:\n      a:\n        type: object\n        description: A.\n        example: {x: a}\n        properties:\n          x: {type: string, description: X., record: true}\n",
    );
    let d = single(
        &text,
        "record-placement",
        "`x` cannot carry `record`",
        &record_at(&text, 0),
    );
    assert_eq!(d.help.as_deref(), Some(help));
    // On a field of a shared type, even one used as a parameter.
    let text = with(
        "    parameters:\n      a:\n        type: P\n        description: A.\n        example: {x: a}\n\
         types:\n  P:\n    type: object\n    description: P.\n    properties:\n      x: {type: string, description: X., record: true}\n",
    );
    single(
        &text,
        "record-placement",
        "`x` cannot carry `record`",
        &record_at(&text, 0),
    );
}

#[test]
fn record_is_a_boolean() {
    let text = with(
        "    parameters:\n      path:\n        type: string\n        description: P.\n        example: a\n        record: yes please\n",
    );
    let (_, diagnostics) = super::refused(&text);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(
        diagnostics[0].message.contains("`record`"),
        "{diagnostics:#?}"
    );
}
