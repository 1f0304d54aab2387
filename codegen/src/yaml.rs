//! A YAML document as a tree of nodes that each know their span.
//!
//! Built from saphyr-parser's event stream rather than from saphyr's own loader, because a
//! key written twice must be reported at both places and the rest of the file still checked,
//! while the loader stops at the first repeated key (see `docs/yaml-parser.md`).

use saphyr::Scalar;
use saphyr_parser::{Event, Parser, ScalarStyle};

use crate::diagnostic::{Diagnostic, Diagnostics, codes};
use crate::source::{Source, Span};

/// One node of the document.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Where the node is written; for collections, from their first to their last token.
    pub span: Span,
    /// What it holds.
    pub kind: NodeKind,
}

/// The contents of a [`Node`], with scalars resolved by the YAML 1.2 core schema.
#[derive(Debug, Clone)]
pub(crate) enum NodeKind {
    /// `~`, `null` or nothing.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer, and its text as written (`010`, `0x1F`).
    Int(i64, String),
    /// A float, and its text as written: `version: 1.10` must not read back as `1.1`.
    Float(f64, String),
    /// A string, plain or quoted.
    Str(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in document order.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The YAML type's name, for "expected …, found …" messages.
    pub(crate) fn kind_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Int(..) => "an integer",
            NodeKind::Float(..) => "a number",
            NodeKind::Str(_) => "a string",
            NodeKind::Seq(_) => "a sequence",
            NodeKind::Map(_) => "a mapping",
        }
    }

    /// A number node as JSON. An integer beyond `i64` that a `u64` holds stays that integer:
    /// the core schema's parser reads it as the nearest float, and `18446744073709551615`,
    /// the largest `u64`, would become 2^64.
    pub(crate) fn number(&self) -> Option<serde_json::Number> {
        match &self.kind {
            NodeKind::Int(i, _) => Some((*i).into()),
            NodeKind::Float(f, written) => written
                .parse::<u64>()
                .ok()
                .map(Into::into)
                .or_else(|| serde_json::Number::from_f64(*f)),
            _ => None,
        }
    }

    /// The node as JSON, for examples and defaults.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Int(..) | NodeKind::Float(..) => {
                self.number().map_or(Value::Null, Value::Number)
            }
            NodeKind::Str(s) => Value::String(s.clone()),
            NodeKind::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.key_text(), v.to_json()))
                    .collect(),
            ),
        }
    }

    /// A mapping key as text (keys that are numbers or booleans read as written).
    pub(crate) fn key_text(&self) -> String {
        match &self.kind {
            NodeKind::Str(s) => s.clone(),
            NodeKind::Int(_, written) | NodeKind::Float(_, written) => written.clone(),
            NodeKind::Bool(b) => b.to_string(),
            NodeKind::Null => "null".into(),
            NodeKind::Seq(_) | NodeKind::Map(_) => String::new(),
        }
    }

    /// Whether this mapping key reads as `key` ([`Node::key_text`] without building it).
    pub(crate) fn is_key(&self, key: &str) -> bool {
        match &self.kind {
            NodeKind::Str(s) => s == key,
            NodeKind::Int(_, written) | NodeKind::Float(_, written) => written == key,
            NodeKind::Bool(b) => key == if *b { "true" } else { "false" },
            NodeKind::Null => key == "null",
            NodeKind::Seq(_) | NodeKind::Map(_) => key.is_empty(),
        }
    }
}

/// Parses one YAML document. Syntax errors and repeated keys are reported to `diags`;
/// `None` means the text could not be read as a manifest, and the error says why.
pub(crate) fn parse(source: &Source, diags: &mut Diagnostics) -> Option<Node> {
    let mut builder = Builder {
        source,
        stack: Vec::new(),
        anchors: Vec::new(),
        root: None,
        ignore_rest: false,
        fatal: false,
        expanded: 0,
        diags,
    };
    for event in Parser::new_from_str(&source.text) {
        if builder.ignore_rest {
            break;
        }
        match event {
            Ok((event, span)) => {
                let start = source.byte_of_char(span.start.index());
                let end = source.byte_of_char(span.end.index());
                builder.event(event, Span::new(start, end));
            }
            Err(e) => {
                let at = source.byte_of_char(e.marker().index());
                let diagnostic = builder.syntax_error(e.info(), at);
                builder.diags.push(diagnostic);
                return None;
            }
        }
    }
    if builder.fatal {
        return None;
    }
    // A file with no document (empty, or only comments) is a null manifest, so decoding
    // reports it like any other root that is not a mapping instead of failing silently.
    Some(builder.root.unwrap_or(Node {
        span: Span::new(0, 0),
        kind: NodeKind::Null,
    }))
}

/// How deep collections may nest. A manifest needs a few dozen levels at most; the bound
/// keeps every recursive walk over the tree (and the tree's own drop) far from the stack's
/// end, however the file was written.
const MAX_DEPTH: usize = 128;

/// The most nodes alias expansion may copy into one manifest.
const ALIAS_BUDGET: usize = 100_000;

impl Node {
    /// How many nodes this one holds, itself included.
    fn size(&self) -> usize {
        1 + match &self.kind {
            NodeKind::Seq(items) => items.iter().map(Node::size).sum(),
            NodeKind::Map(entries) => entries.iter().map(|(k, v)| k.size() + v.size()).sum(),
            _ => 0,
        }
    }
}

/// An open collection while events stream in.
enum Open {
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        anchor: usize,
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
    },
}

struct Builder<'s, 'd> {
    source: &'s Source,
    stack: Vec<Open>,
    anchors: Vec<(usize, Node)>,
    root: Option<Node>,
    /// Set once a second document starts, or aliases blow up: reported, not read further.
    ignore_rest: bool,
    /// Set when what was read cannot stand for the manifest (aliases blew up, nesting ran
    /// too deep): its one error is the whole report.
    fatal: bool,
    /// Nodes copied so far by alias expansion.
    expanded: usize,
    diags: &'d mut Diagnostics,
}

impl Builder<'_, '_> {
    fn event(&mut self, event: Event<'_>, span: Span) {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let kind = if style == ScalarStyle::Plain && tag.is_none() && text.is_empty() {
                    // A key with nothing after it (`tools:`) is null in the core schema;
                    // `parse_from_cow` alone would read it as an empty string.
                    NodeKind::Null
                } else if style == ScalarStyle::Plain && tag.is_none() {
                    match Scalar::parse_from_cow(text.clone()) {
                        Scalar::Null => NodeKind::Null,
                        Scalar::Boolean(b) => NodeKind::Bool(b),
                        Scalar::Integer(i) => NodeKind::Int(i, text.clone().into_owned()),
                        Scalar::FloatingPoint(f) => {
                            NodeKind::Float(f.into_inner(), text.clone().into_owned())
                        }
                        Scalar::String(s) => NodeKind::Str(s.into_owned()),
                    }
                } else {
                    NodeKind::Str(text.into_owned())
                };
                self.finish(
                    Node {
                        span: self.trimmed(span),
                        kind,
                    },
                    anchor,
                );
            }
            Event::SequenceStart(..) | Event::MappingStart(..) if self.stack.len() >= MAX_DEPTH => {
                let too_deep = self.too_deep(span.start);
                self.diags.push(too_deep);
                self.ignore_rest = true;
                self.fatal = true;
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Open::Seq {
                start: span.start,
                anchor,
                items: Vec::new(),
            }),
            Event::MappingStart(anchor, _) => self.stack.push(Open::Map {
                start: span.start,
                anchor,
                entries: Vec::new(),
                key: None,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(open) = self.stack.pop() else { return };
                let (node, anchor) = match open {
                    Open::Seq {
                        start,
                        anchor,
                        items,
                    } => {
                        let end = items.last().map_or(span.end, |n| n.span.end);
                        (
                            Node {
                                span: Span::new(start, end),
                                kind: NodeKind::Seq(items),
                            },
                            anchor,
                        )
                    }
                    Open::Map {
                        start,
                        anchor,
                        entries,
                        ..
                    } => {
                        let end = entries.last().map_or(span.end, |(_, v)| v.span.end);
                        (
                            Node {
                                span: Span::new(start, end),
                                kind: NodeKind::Map(entries),
                            },
                            anchor,
                        )
                    }
                };
                self.finish(node, anchor);
            }
            Event::Alias(id) => {
                let found = self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _)| *a == id)
                    .map(|(_, n)| n.clone());
                if let Some(mut node) = found {
                    // Aliases can nest into exponential trees ("billion laughs"); a manifest
                    // never needs many, so expansion has a budget.
                    self.expanded += node.size();
                    if self.expanded > ALIAS_BUDGET {
                        self.diags.push(
                            Diagnostic::new(&codes::YAML_SYNTAX, "aliases here expand to too many nodes", span)
                                .help(format!("a manifest's aliases may expand to at most {ALIAS_BUDGET} nodes; write the values out")),
                        );
                        self.ignore_rest = true;
                        self.fatal = true;
                        return;
                    }
                    node.span = span;
                    self.finish(node, 0);
                }
            }
            Event::DocumentStart(_) if self.root.is_some() => {
                self.diags.push(
                    Diagnostic::new(&codes::YAML_SYNTAX, "a manifest is one YAML document, but a second one starts here", span)
                        .help("remove the `---` and everything after it, or merge it into the first document"),
                );
                self.ignore_rest = true;
            }
            Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd
            | Event::Nothing => {}
        }
    }

    /// Places a finished node in its parent.
    fn finish(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.push((anchor, node.clone()));
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Open::Seq { items, .. }) => items.push(node),
            Some(Open::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => {
                    let text = k.key_text();
                    if let Some((first, _)) = entries
                        .iter()
                        .find(|(e, _)| !text.is_empty() && e.is_key(&text))
                    {
                        self.diags.push(
                            Diagnostic::new(
                                &codes::DUPLICATE_KEY,
                                format!("the key `{text}` is written twice in this mapping"),
                                k.span,
                            )
                            .label("written again here")
                            .related(first.span, "first written here"),
                        );
                    } else {
                        entries.push((k, node));
                    }
                }
            },
        }
    }

    /// The diagnostic for a syntax error the parser reported at byte `at`. The parser names
    /// the symptom; where the cause can be told from what is open and from the text, the
    /// error points there and keeps the symptom as a note.
    fn syntax_error(&self, info: &str, at: usize) -> Diagnostic {
        let text = &self.source.text;
        // The parser's own bound on flow nesting, met before this builder's own.
        if info == "recursion limit exceeded" {
            return self.too_deep(at);
        }
        let at = self.clamp_to_line(at);
        let symptom = format!("invalid YAML: {info}");
        // The parser reports a tab after reading it; the caret belongs on the tab itself.
        let at = if info.contains("tab") && text[..at].ends_with('\t') {
            at - 1
        } else {
            at
        };
        let (symptom_line, _) = self.source.line_col(at);
        // A flow collection left open on an earlier line: the parser only notices where the
        // next lines stop making sense inside it.
        if let Some(open) = self.stack.iter().rev().find_map(|o| self.flow_opening(o))
            && self.source.line_col(open).0 < symptom_line
        {
            let (bracket, close, form) = if text[open..].starts_with('[') {
                ('[', ']', "a block sequence, one `- item` per line")
            } else {
                ('{', '}', "a block mapping, one `key: value` per line")
            };
            return Diagnostic::new(
                &codes::YAML_SYNTAX,
                format!("invalid YAML: this `{bracket}` is never closed"),
                Span::new(open, open + 1),
            )
            .label("opened here")
            .related(
                Span::new(at, at),
                format!("the parser stopped here: {info}"),
            )
            .help(format!(
                "close it with `{close}` after its last entry, or write it as {form}"
            ));
        }
        // A key line without its colon runs into the next line as one multi-line key, which
        // YAML refuses only at the next line's colon.
        if (info.contains("simple key expect ':'")
            || info.contains("mapping values are not allowed"))
            && let Some(line) = self.line_without_colon(symptom_line)
        {
            let range = self.source.line_range(line);
            let content = text[range.clone()].trim();
            let start = range.start + (text[range.clone()].len() - text[range].trim_start().len());
            let suggestion = match content.split_once(' ') {
                Some((key, value)) => format!("write `{key}: {value}`"),
                None => format!("write `{content}:` followed by its value"),
            };
            return Diagnostic::new(
                &codes::YAML_SYNTAX,
                "invalid YAML: this line has no `:` after its key",
                Span::new(start, start + content.len()),
            )
            .label("a `key: value` line needs `: ` after the key")
            .related(
                Span::new(at, at),
                format!("the parser stopped here: {info}"),
            )
            .help(suggestion);
        }
        Diagnostic::new(&codes::YAML_SYNTAX, symptom, Span::new(at, at))
            .help("fix the YAML syntax here; every other check runs once the file parses")
    }

    /// The error for collections nested deeper than [`MAX_DEPTH`], at `at`.
    fn too_deep(&self, at: usize) -> Diagnostic {
        Diagnostic::new(
            &codes::YAML_SYNTAX,
            format!("collections nest more than {MAX_DEPTH} levels deep here"),
            Span::new(at, at),
        )
        .help(format!(
            "a manifest nests at most {MAX_DEPTH} mappings and sequences inside each other"
        ))
    }

    /// Where `open` starts, when it is a flow collection (`[` or `{`).
    fn flow_opening(&self, open: &Open) -> Option<usize> {
        let start = match open {
            Open::Seq { start, .. } | Open::Map { start, .. } => *start,
        };
        matches!(self.source.text.as_bytes().get(start), Some(b'[' | b'{')).then_some(start)
    }

    /// The content line before `line`, when it holds text but no `:`, so it cannot be the
    /// `key: value` it is indented as.
    fn line_without_colon(&self, line: usize) -> Option<usize> {
        let previous = (1..line).rev().find(|&l| {
            let t = self.source.text[self.source.line_range(l)].trim();
            !t.is_empty() && !t.starts_with('#')
        })?;
        let t = self.source.text[self.source.line_range(previous)].trim();
        let t = t.strip_prefix("- ").unwrap_or(t);
        let quoted = t.starts_with(['"', '\'', '[', '{', '|', '>']);
        (!quoted && !t.contains(':') && !t.starts_with('-')).then_some(previous)
    }

    /// A position past the end of its line (the parser reports an error at the end of input
    /// or at a line break one past where it looked) is moved back to the line's end, where the
    /// caret is drawn.
    fn clamp_to_line(&self, at: usize) -> usize {
        let text = &self.source.text;
        let at = at.min(text.len());
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        if at == text.len() && at == line_start && at > 0 {
            // At the very end, after the last line break: the error is about the last line.
            let last = text[..at - 1].rfind('\n').map_or(0, |i| i + 1);
            return last + text[last..at - 1].trim_end_matches('\r').len();
        }
        at
    }

    /// Scalar spans from the parser can run past quotes and block indicators; trim trailing
    /// whitespace so a caret sits under the text itself.
    fn trimmed(&self, span: Span) -> Span {
        let text = &self.source.text
            [span.start.min(self.source.text.len())..span.end.min(self.source.text.len())];
        Span::new(span.start, span.start + text.trim_end().len())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Diagnostic, Source, load, render_all};

    /// A tool whose `_meta` value is `value`, written from line 9 on.
    fn with_meta(value: &str) -> String {
        format!(
            "server: {{name: x}}\ntools:\n  - name: a\n    title: A\n    description: D.\n    \
             hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n    \
             output: text\n    _meta:\n      x/y:\n        {value}\n"
        )
    }

    /// The one diagnostic of a manifest that must be refused, and where it points.
    #[track_caller]
    fn only(text: &str) -> (Diagnostic, String) {
        let source = Source::new("tools.yaml", text);
        let diags = load(&source).expect_err("refused");
        assert_eq!(diags.len(), 1, "{}", render_all(&diags, &source));
        let at = diags[0].location(&source);
        (diags[0].clone(), at)
    }

    #[track_caller]
    fn related(text: &str, d: &Diagnostic) -> String {
        let (line, col) = Source::new("tools.yaml", text).line_col(d.related[0].0.start);
        format!("tools.yaml:{line}:{col}")
    }

    #[test]
    fn block_collections_nested_without_end_are_a_located_error_not_an_abort() {
        let (d, at) = only(&with_meta(&format!("{}x", "- ".repeat(35_000))));
        assert_eq!(d.message, "collections nest more than 128 levels deep here");
        // Four mappings and sequences enclose `x/y`'s value, so its 125th sequence is the
        // 129th collection: it opens at column 9 + 2 × 124.
        assert_eq!(at, "tools.yaml:10:257");
    }

    #[test]
    fn flow_collections_nested_without_end_are_the_same_error() {
        let depth = 35_000;
        let (d, _) = only(&with_meta(&format!(
            "{}{}",
            "[".repeat(depth),
            "]".repeat(depth)
        )));
        assert_eq!(d.message, "collections nest more than 128 levels deep here");
    }

    const TOOL: &str = "server: {name: x}\ntools:\n  - name: ping\n    title: Ping\n    \
        description: D.\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    \
        output: text\n";

    #[test]
    fn an_unclosed_bracket_is_reported_where_it_opens() {
        let text = format!("{TOOL}    errors: [not_found, busy\n  - name: pong\n    title: Pong\n");
        let (d, at) = only(&text);
        assert_eq!(d.message, "invalid YAML: this `[` is never closed");
        assert_eq!(at, "tools.yaml:8:13");
        assert_eq!(d.label.as_deref(), Some("opened here"));
        assert_eq!(related(&text, &d), "tools.yaml:9:9");
        assert_eq!(
            d.related[0].1,
            "the parser stopped here: illegal placement of ':' indicator"
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "close it with `]` after its last entry, or write it as a block sequence, one `- item` per line"
            )
        );
    }

    #[test]
    fn an_unclosed_brace_is_reported_where_it_opens() {
        let text = format!(
            "{TOOL}    _meta: {{com.example/a: 1\n  - name: pong\n    title: Pong\n    description: D.\n    output: text\n"
        );
        let (d, at) = only(&text);
        assert_eq!(d.message, "invalid YAML: this `{` is never closed");
        assert_eq!(at, "tools.yaml:8:12");
    }

    #[test]
    fn a_key_line_without_its_colon_is_reported_on_that_line() {
        let text = "server: {name: x}\ntools:\n  - name: ping\n    title List notes\n    description: D.\n";
        let (d, at) = only(text);
        assert_eq!(
            d.message,
            "invalid YAML: this line has no `:` after its key"
        );
        assert_eq!(at, "tools.yaml:4:5");
        assert_eq!(d.help.as_deref(), Some("write `title: List notes`"));
        assert_eq!(related(text, &d), "tools.yaml:5:5");
    }

    #[test]
    fn a_tab_is_reported_at_its_own_column() {
        let (d, at) = only("server:\n\tname: x\n");
        assert!(d.message.contains("tab"), "{}", d.message);
        assert_eq!(at, "tools.yaml:2:1");
    }

    #[test]
    fn an_error_at_a_line_break_is_placed_where_the_caret_is() {
        let text = "[i\n";
        let source = Source::new("tools.yaml", text);
        let diags = load(&source).expect_err("refused");
        assert_eq!(diags[0].location(&source), "tools.yaml:1:3");
        let rendered = render_all(&diags, &source);
        assert!(rendered.contains("1 | [i\n  |   ^"), "{rendered}");
    }

    #[test]
    fn an_alias_bomb_gets_only_its_own_error() {
        let mut laughs =
            String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..9 {
            let p = i - 1;
            laughs.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let (d, _) = only(&laughs);
        assert_eq!(d.message, "aliases here expand to too many nodes");
    }

    #[test]
    fn bytes_that_are_not_utf_8_are_located() {
        let mut bytes = b"server:\n  name: caf".to_vec();
        bytes.extend([0xE9, b'\n']);
        let source = Source::from_bytes("tools.yaml", bytes);
        let diags = load(&source).expect_err("refused");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "not-utf-8");
        assert_eq!(diags[0].location(&source), "tools.yaml:2:12");
        let rendered = render_all(&diags, &source);
        assert!(rendered.contains("name: caf\u{fffd}"), "{rendered}");
    }

    #[test]
    fn far_apart_places_render_in_snippets_of_their_own() {
        let filler = "  - name: t{i}\n    title: T\n    description: D.\n    \
            hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    output: text\n";
        let mut text = String::from(TOOL);
        for i in 0..30 {
            text.push_str(&filler.replace("{i}", &i.to_string()));
        }
        text.push_str(&TOOL[TOOL.find("  - name").expect("a tool")..]);
        let source = Source::new("tools.yaml", text.as_str());
        let diags = load(&source).expect_err("refused");
        let rendered = render_all(&diags, &source);
        assert!(rendered.contains("3 |   - name: ping"), "{rendered}");
        assert!(rendered.contains("158 |   - name: ping"), "{rendered}");
        assert!(rendered.contains("first used here"), "{rendered}");
    }
}
