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

    /// The node as JSON, for examples and defaults.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Int(i, _) => Value::from(*i),
            NodeKind::Float(f, _) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
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
}

/// Parses one YAML document. Syntax errors and repeated keys are reported to `diags`;
/// `None` means the text is not YAML, and the syntax error says why.
pub(crate) fn parse(source: &Source, diags: &mut Diagnostics) -> Option<Node> {
    let mut builder = Builder {
        source,
        stack: Vec::new(),
        anchors: Vec::new(),
        root: None,
        ignore_rest: false,
        expanded: 0,
        diags,
    };
    for event in Parser::new_from_str(&source.text) {
        match event {
            Ok(_) if builder.ignore_rest => {}
            Ok((event, span)) => {
                let start = source.byte_of_char(span.start.index());
                let end = source.byte_of_char(span.end.index());
                builder.event(event, Span::new(start, end));
            }
            Err(e) => {
                let at = source.byte_of_char(e.marker().index());
                builder.diags.push(
                    Diagnostic::new(
                        &codes::YAML_SYNTAX,
                        format!("invalid YAML: {}", e.info()),
                        Span::new(at, at),
                    )
                    .help("fix the YAML syntax here; every other check runs once the file parses"),
                );
                return None;
            }
        }
    }
    // A file with no document (empty, or only comments) is a null manifest, so decoding
    // reports it like any other root that is not a mapping instead of failing silently.
    Some(builder.root.unwrap_or(Node {
        span: Span::new(0, 0),
        kind: NodeKind::Null,
    }))
}

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
                    if let Some((first, _)) = entries
                        .iter()
                        .find(|(e, _)| e.key_text() == k.key_text() && !k.key_text().is_empty())
                    {
                        self.diags.push(
                            Diagnostic::new(
                                &codes::DUPLICATE_KEY,
                                format!(
                                    "the key `{}` is written twice in this mapping",
                                    k.key_text()
                                ),
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

    /// Scalar spans from the parser can run past quotes and block indicators; trim trailing
    /// whitespace so a caret sits under the text itself.
    fn trimmed(&self, span: Span) -> Span {
        let text = &self.source.text
            [span.start.min(self.source.text.len())..span.end.min(self.source.text.len())];
        Span::new(span.start, span.start + text.trim_end().len())
    }
}
