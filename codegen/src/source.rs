//! The manifest text and positions in it.

use std::fmt;

/// A manifest file as read: its display name and its text.
///
/// Diagnostics quote from it, so it outlives every span that points into it.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name diagnostics show (`tools.yaml`), relative to the crate when possible.
    pub name: String,
    /// The whole text.
    pub text: String,
    /// Byte offset of each char, present only when the text is not pure ASCII
    /// (the YAML parser counts in chars, diagnostics slice in bytes).
    char_bytes: Option<Vec<usize>>,
}

impl Source {
    /// Wraps a manifest text.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let mut text: String = text.into();
        // A byte-order mark is not part of the document; kept, it would shift line 1's columns.
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let char_bytes = (!text.is_ascii()).then(|| {
            let mut v: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            v.push(text.len());
            v
        });
        Source {
            name: name.into(),
            text,
            char_bytes,
        }
    }

    /// The byte offset of the `index`th char.
    pub fn byte_of_char(&self, index: usize) -> usize {
        match &self.char_bytes {
            None => index.min(self.text.len()),
            Some(v) => v.get(index).copied().unwrap_or(self.text.len()),
        }
    }

    /// The 1-based line and column (in chars) of a byte offset.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let before = &self.text[..byte.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

/// A byte range in the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` bytes.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }
}

/// A value together with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it stands in the manifest.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Pairs a value with its span.
    pub(crate) fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}
