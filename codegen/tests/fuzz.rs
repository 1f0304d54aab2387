//! The loader on arbitrary input: real manifests mutated at random (lines dropped, doubled,
//! re-indented or cut, bytes replaced, text spliced in) and raw bytes. Whatever comes in,
//! loading never panics or aborts, and every diagnostic points into the text, renders, and
//! says where it is. Run longer with `PROPTEST_CASES=100000`.

use std::path::Path;
use std::sync::LazyLock;

use mcp_contract_codegen::{Source, load, render_all};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The repository's manifests: every feature, the edge cases and the reference server.
static CORPUS: LazyLock<Vec<String>> = LazyLock::new(read_corpus);

fn read_corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec![
        root.join("tools.yaml"),
        root.join("fixtures/every-feature/tools.yaml"),
    ];
    let edge = root.join("fixtures/edge-cases/manifests");
    let mut edges: Vec<_> = std::fs::read_dir(&edge)
        .expect("the edge-case manifests")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    edges.sort();
    paths.extend(edges);
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a manifest"))
        .collect()
}

/// One change to a manifest's lines.
#[derive(Debug, Clone)]
enum Edit {
    Drop(usize),
    Double(usize),
    Indent(usize, usize),
    Cut(usize, usize),
    Insert(usize, String),
    Byte(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    let fragment = prop_oneof![
        Just("[".to_owned()),
        Just("{".to_owned()),
        Just(": ".to_owned()),
        Just("- ".to_owned()),
        Just("\t".to_owned()),
        Just("&a ".to_owned()),
        Just("*a".to_owned()),
        Just("{x}".to_owned()),
        Just("\"".to_owned()),
        Just("---\n".to_owned()),
        Just("type: Nope".to_owned()),
        "[ -~]{0,12}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Double),
        (any::<usize>(), 0usize..9).prop_map(|(l, n)| Edit::Indent(l, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(l, c)| Edit::Cut(l, c)),
        (any::<usize>(), fragment).prop_map(|(at, t)| Edit::Insert(at, t)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Byte(at, b)),
    ]
}

fn apply(text: &str, edit: &Edit) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let n = lines.len();
    match edit {
        Edit::Drop(l) => {
            lines.remove(l % n);
        }
        Edit::Double(l) => {
            let line = lines[l % n].clone();
            lines.insert(l % n, line);
        }
        Edit::Indent(l, by) => lines[l % n].insert_str(0, &" ".repeat(*by)),
        Edit::Cut(l, c) => {
            let line = &mut lines[l % n];
            let cut = line
                .char_indices()
                .map(|(i, _)| i)
                .nth(c % (line.len() + 1));
            line.truncate(cut.unwrap_or(line.len()));
        }
        Edit::Insert(at, t) => {
            let mut joined = lines.join("\n");
            let at = at % (joined.len() + 1);
            let at = (0..=at)
                .rev()
                .find(|&i| joined.is_char_boundary(i))
                .unwrap_or(0);
            joined.insert_str(at, t);
            return joined.into_bytes();
        }
        Edit::Byte(at, b) => {
            let mut bytes = lines.join("\n").into_bytes();
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = *b;
            }
            return bytes;
        }
    }
    lines.join("\n").into_bytes()
}

/// Loads `bytes`; every diagnostic must lie in the text and render with its location.
fn holds(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let source = Source::from_bytes("tools.yaml", bytes);
    let diagnostics = match load(&source) {
        Ok(loaded) => loaded.warnings,
        Err(diagnostics) => {
            prop_assert!(!diagnostics.is_empty(), "refused without a diagnostic");
            diagnostics
        }
    };
    for d in &diagnostics {
        prop_assert!(d.span.start <= d.span.end && d.span.end <= source.text.len());
        let rendered = d.render(&source);
        prop_assert!(rendered.contains(&d.location(&source)), "{rendered}");
    }
    render_all(&diagnostics, &source);
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(Config { cases: cases(), failure_persistence: None, ..Config::default() })]

    #[test]
    fn mutated_manifests_load_or_get_located_errors(
        which in any::<usize>(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let mut text = CORPUS[which % CORPUS.len()].clone().into_bytes();
        for e in &edits {
            text = apply(&String::from_utf8_lossy(&text), e);
        }
        holds(text)?;
    }

    #[test]
    fn arbitrary_bytes_load_or_get_located_errors(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        holds(bytes)?;
    }
}
