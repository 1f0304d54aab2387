//! Reading typed values out of YAML nodes, reporting every mismatch instead of stopping.
//!
//! Each reader returns `None` after recording a diagnostic, so a caller carries on with the
//! rest of the manifest and the user sees every problem in one build.

use crate::diagnostic::{Diagnostic, Diagnostics, codes, suggest};
use crate::source::{Span, Spanned};
use crate::yaml::{Node, NodeKind};

/// The diagnostics sink that every reader writes to.
pub(crate) struct Decoder<'d> {
    /// Where findings go.
    pub diags: &'d mut Diagnostics,
}

impl Decoder<'_> {
    pub(crate) fn mismatch(&mut self, node: &Node, expected: &str, what: &str) {
        self.diags.push(
            Diagnostic::new(
                &codes::WRONG_TYPE,
                format!("{what} must be {expected}, found {}", node.kind_name()),
                node.span,
            )
            .label(format!("expected {expected}")),
        );
    }

    /// A string (plain scalars such as `1.0` are accepted as their text).
    pub(crate) fn string(&mut self, node: &Node, what: &str) -> Option<Spanned<String>> {
        match &node.kind {
            NodeKind::Str(s) => Some(Spanned::new(s.clone(), node.span)),
            _ => {
                self.mismatch(node, "a string", what);
                None
            }
        }
    }

    /// A string that may be written as a plain number too (`version: 1.0`).
    pub(crate) fn text(&mut self, node: &Node, what: &str) -> Option<Spanned<String>> {
        match &node.kind {
            NodeKind::Str(_) | NodeKind::Int(..) | NodeKind::Float(..) => {
                Some(Spanned::new(node.key_text(), node.span))
            }
            _ => {
                self.mismatch(node, "a string", what);
                None
            }
        }
    }

    /// A boolean.
    pub(crate) fn bool(&mut self, node: &Node, what: &str) -> Option<Spanned<bool>> {
        match node.kind {
            NodeKind::Bool(b) => Some(Spanned::new(b, node.span)),
            _ => {
                self.mismatch(node, "`true` or `false`", what);
                None
            }
        }
    }

    /// A whole number of zero or more.
    pub(crate) fn count(&mut self, node: &Node, what: &str) -> Option<Spanned<u64>> {
        match node.kind {
            NodeKind::Int(i, _) if i >= 0 => Some(Spanned::new(i as u64, node.span)),
            _ => {
                self.mismatch(node, "a whole number of 0 or more", what);
                None
            }
        }
    }

    /// Any number, kept as JSON so integers stay integers on the wire.
    pub(crate) fn number(
        &mut self,
        node: &Node,
        what: &str,
    ) -> Option<Spanned<serde_json::Number>> {
        match node.kind {
            NodeKind::Int(..) | NodeKind::Float(..) => match node.number() {
                Some(n) => Some(Spanned::new(n, node.span)),
                None => {
                    self.mismatch(node, "a finite number", what);
                    None
                }
            },
            _ => {
                self.mismatch(node, "a number", what);
                None
            }
        }
    }

    /// A sequence's items.
    pub(crate) fn seq<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &node.kind {
            NodeKind::Seq(items) => Some(items),
            _ => {
                self.mismatch(node, "a sequence", what);
                None
            }
        }
    }

    /// A sequence of strings, or one string standing for a sequence of one.
    pub(crate) fn strings(&mut self, node: &Node, what: &str) -> Vec<Spanned<String>> {
        match &node.kind {
            NodeKind::Str(_) => self.string(node, what).into_iter().collect(),
            NodeKind::Seq(items) => items.iter().filter_map(|n| self.string(n, what)).collect(),
            _ => {
                self.mismatch(node, "a string or a sequence of strings", what);
                Vec::new()
            }
        }
    }

    /// A mapping whose keys are free-form names (tools' parameters, say), in document order.
    pub(crate) fn entries<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
    ) -> Vec<(Spanned<String>, &'n Node)> {
        match &node.kind {
            NodeKind::Map(entries) => entries
                .iter()
                .map(|(k, v)| (Spanned::new(k.key_text(), k.span), v))
                .collect(),
            NodeKind::Null => Vec::new(),
            _ => {
                self.mismatch(node, "a mapping", what);
                Vec::new()
            }
        }
    }

    /// Opens a mapping with a fixed set of keys. Keys that are never asked for are reported
    /// by [`Fields::finish`] with a suggestion.
    pub(crate) fn fields<'n>(&mut self, node: &'n Node, what: &'static str) -> Option<Fields<'n>> {
        match &node.kind {
            NodeKind::Map(entries) => Some(Fields {
                span: node.span,
                entries,
                used: vec![false; entries.len()],
                known: Vec::new(),
                what,
            }),
            _ => {
                self.mismatch(node, "a mapping", what);
                None
            }
        }
    }
}

/// A mapping being read key by key.
pub(crate) struct Fields<'n> {
    /// The whole mapping.
    pub span: Span,
    entries: &'n [(Node, Node)],
    used: Vec<bool>,
    known: Vec<&'static str>,
    what: &'static str,
}

impl<'n> Fields<'n> {
    /// The value under `key`, if written.
    pub(crate) fn get(&mut self, key: &'static str) -> Option<&'n Node> {
        self.known.push(key);
        let i = self.entries.iter().position(|(k, _)| k.is_key(key))?;
        self.used[i] = true;
        Some(&self.entries[i].1)
    }

    /// The value under `key`, which must be written.
    pub(crate) fn require(&mut self, de: &mut Decoder<'_>, key: &'static str) -> Option<&'n Node> {
        let node = self.get(key);
        if node.is_none() {
            de.diags.push(
                Diagnostic::new(
                    &codes::MISSING_FIELD,
                    format!("{} is missing the required key `{key}`", self.what),
                    self.first_key_span(),
                )
                .label(format!("`{key}` is missing here"))
                // `what` carries its own article ("a tool", "the manifest", "`server`").
                .help(format!("add `{key}:` to {}", self.what)),
            );
        }
        node
    }

    /// Every key of the mapping, with where it is written.
    pub(crate) fn keys(&self) -> super::Keys {
        super::Keys(
            self.entries
                .iter()
                .map(|(k, _)| (k.key_text(), k.span))
                .collect(),
        )
    }

    fn first_key_span(&self) -> Span {
        self.entries.first().map_or(self.span, |(k, _)| k.span)
    }

    /// When the unknown key at `i` is the rest of the text before it, cut off at a comma (in
    /// `{description: The file, relative to the root}` a `,` ends the entry, and `relative to
    /// the root` becomes a key without a value), the help that says to quote it.
    fn split_text(&self, i: usize, name: &str, value: &Node) -> Option<String> {
        let (before, text) = i.checked_sub(1).map(|p| &self.entries[p])?;
        let NodeKind::Str(text) = &text.kind else {
            return None;
        };
        (name.contains(' ') && matches!(value.kind, NodeKind::Null)).then(|| {
            format!(
                "a `,` ends an entry of a `{{…}}` mapping; if this is the rest of `{}`, quote its text: `{}: \"{text}, {name}\"`",
                before.key_text(),
                before.key_text()
            )
        })
    }

    /// Reports every key that no reader asked for, with the closest known key.
    pub(crate) fn finish(self, de: &mut Decoder<'_>) {
        for (i, ((key, value), used)) in self.entries.iter().zip(&self.used).enumerate() {
            if *used {
                continue;
            }
            let name = key.key_text();
            let mut d = Diagnostic::new(
                &codes::UNKNOWN_KEY,
                format!("unknown key `{name}` in {}", self.what),
                key.span,
            )
            .label("not a key of this mapping");
            d = match (
                suggest(&name, &self.known),
                self.split_text(i, &name, value),
            ) {
                (_, Some(help)) => d.help(help),
                (Some(s), None) => d.help(format!("did you mean `{s}`?")),
                (None, None) => d.help(format!(
                    "the keys of {} are: {}",
                    self.what,
                    self.known.join(", ")
                )),
            };
            de.diags.push(d);
        }
    }
}
