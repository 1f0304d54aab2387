//! The examples of the manifest reference are checked: each YAML block of `docs/manifest.md`
//! marked on the line before its fence is loaded as a whole `tools.yaml`, and must give the
//! verdict its marker states.
//!
//! - `<!-- example: manifest -->`: the manifest loads without any diagnostic, error or warning.
//! - `<!-- example: refused CODE -->`: the manifest is refused, and `CODE` is among its
//!   diagnostics.
//! - `<!-- published: TOOL -->`, on the line before a ```json fence after an example that
//!   loads: the block is exactly the `_meta` that example's tool `TOOL` publishes.
//!
//! Every numbered section that documents manifest keys has at least one checked example; the
//! reference sections, which document what the build makes of a manifest, are listed in
//! [`REFERENCE_SECTIONS`].

use mcp_contract_codegen::{Revision, Source, load, render_all};

/// The numbered sections that document no manifest key, by heading text without the number:
/// they need no checked example (a marked one there is still checked).
const REFERENCE_SECTIONS: &[&str] = &[
    "Generated Rust names",
    "What is published for a tool",
    "Error envelopes",
    "Diagnostics",
    "Generated documents and check mode",
    "Editor support and the command line",
];

const MARKER: &str = "<!-- example:";
const PUBLISHED: &str = "<!-- published:";

/// What a marked example must do.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Load without any diagnostic.
    Loads,
    /// Be refused with this code among the diagnostics.
    Refused(String),
}

/// One marked block of the reference.
#[derive(Debug)]
struct Example {
    /// The `## N. …` heading of the section it sits in.
    section: String,
    /// The 1-based line of its marker.
    line: usize,
    verdict: Verdict,
    yaml: String,
    /// The `_meta` blocks marked after it: each with its marker's line, the tool and the JSON.
    published: Vec<(usize, String, String)>,
}

fn reference() -> String {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    std::fs::read_to_string(root.join("docs/manifest.md")).expect("docs/manifest.md is readable")
}

/// The heading text of a numbered section (`## 7. `effects` …`), without `## `.
fn numbered_heading(line: &str) -> Option<&str> {
    let heading = line.strip_prefix("## ")?;
    let (number, title) = heading.split_once(". ")?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && !title.is_empty())
        .then_some(heading)
}

/// The title of a numbered heading, without its number.
fn title(heading: &str) -> &str {
    heading.split_once(". ").map_or(heading, |(_, title)| title)
}

/// The numbered sections' headings, in order, and every marked example. A marker that is
/// malformed or not followed by a YAML block fails here, naming its line.
fn parse(doc: &str) -> (Vec<String>, Vec<Example>) {
    let lines: Vec<&str> = doc.lines().collect();
    let mut headings = Vec::new();
    let mut examples = Vec::new();
    let mut in_fence = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            if let Some(heading) = numbered_heading(line) {
                headings.push(heading.to_owned());
            } else if let Some(rest) = line.trim().strip_prefix(PUBLISHED) {
                let at = i + 1;
                let tool = rest
                    .strip_suffix("-->")
                    .unwrap_or_else(|| panic!("docs/manifest.md:{at}: the marker is not closed"))
                    .trim()
                    .to_owned();
                assert_eq!(
                    lines.get(i + 1).map(|l| l.trim_end()),
                    Some("```json"),
                    "docs/manifest.md:{at}: a published marker must be on the line just before a ```json fence"
                );
                let body: String = lines[i + 2..]
                    .iter()
                    .take_while(|l| !l.trim_start().starts_with("```"))
                    .map(|l| format!("{l}\n"))
                    .collect();
                let example = examples
                    .last_mut()
                    .filter(|e: &&mut Example| e.verdict == Verdict::Loads)
                    .unwrap_or_else(|| {
                        panic!(
                            "docs/manifest.md:{at}: a published block follows no example that loads"
                        )
                    });
                example.published.push((at, tool, body));
            } else if let Some(rest) = line.trim().strip_prefix(MARKER) {
                let at = i + 1;
                let section = headings
                    .last()
                    .unwrap_or_else(|| {
                        panic!(
                            "docs/manifest.md:{at}: a marked example before any numbered section"
                        )
                    })
                    .clone();
                let spec = rest
                    .strip_suffix("-->")
                    .unwrap_or_else(|| {
                        panic!("docs/manifest.md:{at}: the marker is not closed with `-->`")
                    })
                    .trim();
                let verdict = match spec.split_whitespace().collect::<Vec<_>>()[..] {
                    ["manifest"] => Verdict::Loads,
                    ["refused", code] => Verdict::Refused(code.to_owned()),
                    _ => panic!(
                        "docs/manifest.md:{at} (## {section}): `{line}` is neither \
                         `<!-- example: manifest -->` nor `<!-- example: refused CODE -->`"
                    ),
                };
                assert_eq!(
                    lines.get(i + 1).map(|l| l.trim_end()),
                    Some("```yaml"),
                    "docs/manifest.md:{at} (## {section}): a marker must be on the line just before a ```yaml fence"
                );
                let body: Vec<&str> = lines[i + 2..]
                    .iter()
                    .take_while(|l| !l.trim_start().starts_with("```"))
                    .copied()
                    .collect();
                assert!(
                    i + 2 + body.len() < lines.len(),
                    "docs/manifest.md:{at} (## {section}): the marked YAML block is never closed"
                );
                examples.push(Example {
                    section,
                    line: at,
                    verdict,
                    yaml: body.iter().map(|l| format!("{l}\n")).collect(),
                    published: Vec::new(),
                });
                // Skip the block: its opening and closing fences and the lines between.
                i += 2 + body.len() + 1;
                continue;
            }
        }
        i += 1;
    }
    assert!(!in_fence, "docs/manifest.md ends inside a code fence");
    (headings, examples)
}

/// What is wrong with one example, or `None` when it gives its verdict.
fn check(example: &Example) -> Option<String> {
    // Files an example names (icons) are read as the reference server's manifest reads them.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let source = Source::new("tools.yaml", example.yaml.as_str()).with_dir(root);
    let problem = match (&example.verdict, load(&source)) {
        (Verdict::Loads, Ok(loaded)) if loaded.warnings.is_empty() => {
            let listed = loaded.contract.tools_list(Revision::LATEST);
            let wrong: Vec<String> = example
                .published
                .iter()
                .filter_map(|(line, tool, json)| {
                    let shown: serde_json::Value = serde_json::from_str(json)
                        .unwrap_or_else(|e| panic!("docs/manifest.md:{line}: not JSON: {e}"));
                    let meta = listed["tools"]
                        .as_array()?
                        .iter()
                        .find(|t| t["name"] == tool.as_str())
                        .map(|t| t["_meta"].clone());
                    (meta.as_ref() != Some(&shown)).then(|| {
                        let meta = meta.map_or("no tool of that name".into(), |m| m.to_string());
                        format!("docs/manifest.md:{line}: `{tool}` publishes the `_meta` {meta}, not the block shown")
                    })
                })
                .collect();
            if wrong.is_empty() {
                return None;
            }
            wrong.join("\n")
        }
        (Verdict::Loads, Ok(loaded)) => format!(
            "must load without any diagnostic, but warns:\n{}",
            render_all(&loaded.warnings, &source)
        ),
        (Verdict::Loads, Err(diagnostics)) => format!(
            "must load without any diagnostic, but is refused:\n{}",
            render_all(&diagnostics, &source)
        ),
        (Verdict::Refused(code), Ok(loaded)) => format!(
            "must be refused with `{code}`, but loads ({} warnings)",
            loaded.warnings.len()
        ),
        (Verdict::Refused(code), Err(diagnostics)) => {
            if diagnostics.iter().any(|d| d.code.as_str() == code) {
                return None;
            }
            format!(
                "must be refused with `{code}`, but its diagnostics are [{}]:\n{}",
                diagnostics
                    .iter()
                    .map(|d| d.code.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                render_all(&diagnostics, &source)
            )
        }
    };
    Some(format!(
        "docs/manifest.md:{} (## {}): the example {problem}",
        example.line, example.section
    ))
}

#[test]
fn every_marked_example_gives_its_verdict() {
    let (_, examples) = parse(&reference());
    assert!(
        !examples.is_empty(),
        "docs/manifest.md has no marked example"
    );
    let failures: Vec<String> = examples.iter().filter_map(check).collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples of docs/manifest.md fail:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_section_on_manifest_keys_has_a_checked_example() {
    let (headings, examples) = parse(&reference());
    for reference in REFERENCE_SECTIONS {
        assert!(
            headings.iter().any(|h| title(h) == *reference),
            "REFERENCE_SECTIONS names `{reference}`, which is no numbered section of docs/manifest.md"
        );
    }
    let missing: Vec<&String> = headings
        .iter()
        .filter(|h| !REFERENCE_SECTIONS.contains(&title(h)))
        .filter(|h| !examples.iter().any(|e| &e.section == *h))
        .collect();
    assert!(
        missing.is_empty(),
        "these sections of docs/manifest.md document manifest keys but have no marked example \
         (`<!-- example: manifest -->` or `<!-- example: refused CODE -->` before a ```yaml \
         fence); add one, or list a section that documents no key in REFERENCE_SECTIONS:\n{}",
        missing
            .iter()
            .map(|h| format!("## {h}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The parser itself: a marker binds the block right after it to its section, and both
/// verdicts are read.
#[test]
fn markers_are_read_with_their_section_and_verdict() {
    let doc = "## 1. One\n\n<!-- example: manifest -->\n```yaml\na: 1\n```\n\n## 2. `two`\n\n\
               <!-- example: refused unknown-key -->\n```yaml\nb: 2\n```\n";
    let (headings, examples) = parse(doc);
    assert_eq!(headings, ["1. One", "2. `two`"]);
    assert_eq!(examples.len(), 2);
    assert_eq!(
        (
            examples[0].section.as_str(),
            &examples[0].verdict,
            examples[0].yaml.as_str()
        ),
        ("1. One", &Verdict::Loads, "a: 1\n")
    );
    assert_eq!(
        (
            examples[1].section.as_str(),
            &examples[1].verdict,
            examples[1].line
        ),
        ("2. `two`", &Verdict::Refused("unknown-key".to_owned()), 10)
    );
}

/// A published block binds to the example before it, with its marker's line and tool.
#[test]
fn published_blocks_are_read_with_their_example() {
    let doc = "## 1. One\n\n<!-- example: manifest -->\n```yaml\na: 1\n```\n\n\
               <!-- published: t -->\n```json\n{\"k\": 1}\n```\n";
    let (_, examples) = parse(doc);
    assert_eq!(
        examples[0].published,
        [(8, "t".to_owned(), "{\"k\": 1}\n".to_owned())]
    );
}
