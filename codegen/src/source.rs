//! The manifest text and positions in it.

use std::fmt;
use std::path::{Path, PathBuf};

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
    /// Byte offset of each line's first char, so a position's line is a binary search: a
    /// manifest with thousands of diagnostics renders in linear time.
    line_starts: Vec<usize>,
    /// Where the file stopped being UTF-8, in [`Source::from_bytes`]'s lossy text.
    invalid_utf8: Option<usize>,
    /// The folder that files the manifest names (icons) are relative to.
    dir: PathBuf,
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
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            name: name.into(),
            text,
            char_bytes,
            line_starts,
            invalid_utf8: None,
            dir: PathBuf::from("."),
        }
    }

    /// Reads the files the manifest names (icons) relative to `dir`, the manifest's folder;
    /// without it, relative to the current directory, which for a build script is the crate.
    pub fn with_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        self.dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        self
    }

    /// The folder that files the manifest names are relative to.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Wraps a manifest file's bytes. Bytes that are not UTF-8 are read as U+FFFD, and
    /// loading the source then reports where the first of them stands instead of checking
    /// anything else.
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Source::new(name, text),
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let bom = e.as_bytes().starts_with("\u{feff}".as_bytes());
                let mut source = Source::new(name, String::from_utf8_lossy(e.as_bytes()));
                source.invalid_utf8 = Some(valid - if bom { 3 } else { 0 });
                source
            }
        }
    }

    /// The byte offset of the first byte that was not UTF-8, when [`Source::from_bytes`]
    /// found one.
    pub(crate) fn invalid_utf8(&self) -> Option<usize> {
        self.invalid_utf8
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
        let byte = self.floor_char(byte.min(self.text.len()));
        let line = self.line_starts.partition_point(|&start| start <= byte);
        let line_start = self.line_starts[line - 1];
        (line, self.text[line_start..byte].chars().count() + 1)
    }

    /// The byte range of the 1-based line `line`, without its line break.
    pub(crate) fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |next| next - 1);
        start..end.max(start)
    }

    /// The nearest char boundary at or before `byte`.
    fn floor_char(&self, mut byte: usize) -> usize {
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
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

/// A value written under a key: where the value stands and where its key does, for rules
/// whose message names the key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Keyed<T> {
    /// The value.
    pub value: T,
    /// Where the value stands.
    pub span: Span,
    /// Where its key stands.
    pub key: Span,
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
