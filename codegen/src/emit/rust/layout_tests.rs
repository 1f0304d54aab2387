//! The text writer against prettyplease: every manifest of the repository, and manifests whose
//! names grow a character at a time across the margin, generate the same module whether the
//! items every tool repeats are written as text or printed from tokens.

use std::fmt::Write as _;
use std::path::Path;

use super::{Layout, generate_as};
use crate::{Source, load};

/// The module both ways; returns the contract, to look at which items took the text's way.
fn both_ways(name: &str, text: &str, dir: &Path) -> crate::model::Contract {
    let source = Source::new(name, text).with_dir(dir);
    let loaded = match load(&source) {
        Ok(loaded) => loaded,
        Err(d) => panic!("{name}: {}", crate::diagnostic::render_all(&d, &source)),
    };
    let as_text = generate_as(&loaded.contract, Layout::Text);
    let as_tokens = generate_as(&loaded.contract, Layout::Tokens);
    if as_text != as_tokens {
        let line = as_text
            .lines()
            .zip(as_tokens.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let around = |s: &str| {
            s.lines()
                .skip(line.saturating_sub(3))
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{name}: the text layout differs from prettyplease's at line {}:\n--- text\n{}\n--- tokens\n{}",
            line + 1,
            around(&as_text),
            around(&as_tokens)
        );
    }
    loaded.contract
}

#[test]
fn text_and_tokens_print_alike_for_every_manifest_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec![
        root.join("tools.yaml"),
        root.join("fixtures/every-feature/tools.yaml"),
        root.join("fixtures/conformance/tools.yaml"),
    ];
    let mut edges: Vec<_> = std::fs::read_dir(root.join("fixtures/edge-cases/manifests"))
        .expect("the edge-case manifests")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    edges.sort();
    paths.extend(edges);
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a manifest");
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("tools.yaml");
        let contract = both_ways(name, &text, path.parent().expect("a folder"));
        // Its escapes went through the text writer, not around it.
        if name == "escapes.yaml" {
            assert_all_text(&contract);
        }
    }
}

/// Every tool's items and the registration's tool parts were written as text.
fn assert_all_text(contract: &crate::model::Contract) {
    for t in &contract.tools {
        assert!(
            super::tool_text(contract, t).is_some(),
            "{} as text",
            t.name
        );
    }
    for (i, part) in super::registration_items().iter().take(4).enumerate() {
        assert!(
            (part.text)(contract).is_some(),
            "registration item {i} as text"
        );
    }
}

/// Tools whose names (and so every type, method and path named after them), parameters,
/// enum values and error fields are `n` characters longer (a camelCase field too, whose Rust
/// name is one longer than its wire name, so that a reader meets even widths as well as odd), for `n` from 0 to 58 (to the longest tool name): each line of
/// the text crosses the margin at some `n`, where prettyplease breaks it and the text must
/// have fallen back or broken it alike.
#[test]
fn text_and_tokens_print_alike_as_names_grow_across_the_margin() {
    for n in 0..=58 {
        let x = "x".repeat(n);
        let mut m = String::new();
        let _ = write!(
            m,
            "server: {{name: grow}}\neffects:\n  read: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n\
             errors:\n  not_found{x}: {{message: \"No `{{path{x}}}` {{b}}.\", argument: true}}\n  busy: {{message: Busy.}}\n\
             \x20 big{x}: {{message: \"{{a{x}}} {{b}} {{c}}\"}}\ntools:\n"
        );
        // Odd tools' names one longer, so that names growing two at a time (a tool's output
        // and error types on one line) still meet every width.
        let outputs = [
            "text",
            "{properties: {content: {type: string, description: The text.}}}",
        ];
        for i in 0..4 {
            let output = outputs[i / 2];
            let odd = if i % 2 == 1 { "a" } else { "" };
            let _ = write!(
                m,
                "  - name: tool{i}{x}{odd}\n    title: Tool {i} {x}\n    description: Does {x}.\n    effect: read\n\
                 \x20   parameters:\n\
                 \x20     path{x}: {{type: string, description: A path., example: a, minLength: 1}}\n\
                 \x20     limit{x}{odd}: {{type: integer, description: At most., example: 5, minimum: 1, maximum: 100, default: 10}}\n\
                 \x20     mode: {{type: string, enum: [fast{x}, slow], description: How., example: slow, default: slow}}\n\
                 \x20     ratio: {{type: number, description: A ratio., example: 0.5, minimum: -1.5, default: 0.25}}\n\
                 \x20     tags: {{type: array, items: {{type: string}}, description: Tags., example: [a], required: false}}\n\
                 \x20     where: {{type: object, description: Where., example: {{at{x}: 1}}, required: false, properties: {{at{x}: {{type: integer, description: At.}}}}}}\n\
                 \x20     span: {{type: object, description: Span., example: {{fromX{x}: 1}}, required: false, properties: {{fromX{x}: {{type: integer, description: From.}}}}}}\n\
                 \x20   output: {output}\n\
                 \x20   errors: [not_found{x}, busy, big{x}]\n"
            );
        }
        let contract = both_ways(&format!("grow{n}.yaml"), &m, Path::new("."));
        // Short names are written as text: the comparison above compared something.
        if n < 10 {
            for t in &contract.tools {
                assert!(
                    super::tool_text(&contract, t).is_some(),
                    "{} as text",
                    t.name
                );
            }
        }
    }
}

/// A fixture's slice on one line up to the margin, its closing comma counted, then one value
/// a line (a parameter name growing a character at a time across it).
#[test]
fn text_and_tokens_print_a_fixture_list_alike_across_the_margin() {
    for n in 50..=58 {
        let x = "x".repeat(n);
        let m = format!(
            "server: {{name: grow}}\neffects:\n  read: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n\
             tools:\n  - name: t\n    title: T\n    description: D.\n    effect: read\n    output: text\n    parameters:\n\
             \x20     aaaa: {{type: string, description: A., example: a}}\n\
             \x20     e{x}: {{type: string, description: A., example: a}}\n"
        );
        let contract = both_ways(&format!("list{n}.yaml"), &m, Path::new("."));
        assert_all_text(&contract);
    }
}
