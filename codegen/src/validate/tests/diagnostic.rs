//! Diagnostics as the user reads them: rendered like rustc, and the registry of codes the
//! reference lists.

use super::{refused, replace, second_tool};
use crate::render_all;

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

/// The reference's table is the registry's, word for word: every code the loader can report
/// is a constant of the registry (no call site writes one as text), so nothing else can drift.
#[test]
fn the_reference_carries_the_registry_of_codes_verbatim() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("../docs/manifest.md"))
        .expect("docs/manifest.md is readable");
    let table = crate::diagnostic::codes::table();
    assert!(
        reference.contains(&table),
        "the Diagnostics section of docs/manifest.md must carry this table verbatim:\n{table}"
    );
}

#[test]
fn each_code_is_registered_once_in_kebab_case() {
    let mut seen = std::collections::BTreeSet::new();
    for code in crate::diagnostic::codes::CODES {
        let id = code.as_str();
        assert!(
            id.split('-').all(|w| !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
            "`{id}` is not lowercase words (or numbers, as in `utf-8`) joined by `-`"
        );
        assert!(seen.insert(id), "`{id}` is registered twice");
    }
}
