//! Rust written directly in the layout prettyplease gives it, for what every tool repeats:
//! parsing a thousand tools' tokens with `syn` and printing them again was most of
//! generation's time.
//!
//! The writer lays out only what fits on its lines: prettyplease keeps a line whole while it
//! fits the margin, and breaks it by rules this writer does not repeat. [`Code::finish`] says
//! `None` when a line would not fit, and the caller prints that item from tokens instead, so
//! the output is the same either way (`text_and_tokens_print_alike` in the tests holds the two
//! to it). Identifiers are checked as `quote` checks them ([`id`]), string literals are
//! written by `proc_macro2` ([`string`]) and doc comments as prettyplease prints `#[doc]`
//! ([`Code::doc`]).

use super::rustdoc::{comment_safe, plain, rustdoc_safe};

/// prettyplease's margin, and the least room it leaves a deeply indented line.
const MARGIN: usize = 89;
const MIN_SPACE: usize = 60;

/// Lines of Rust, each at a depth of four spaces a level.
pub(crate) struct Code {
    text: String,
    fits: bool,
}

impl Code {
    pub(crate) fn new() -> Self {
        Code {
            text: String::with_capacity(1024),
            fits: true,
        }
    }

    /// One line whose parts are written one after another.
    pub(crate) fn line(&mut self, depth: usize, parts: &[&str]) {
        let indent = 4 * depth;
        let start = self.text.len();
        for _ in 0..indent {
            self.text.push(' ');
        }
        for part in parts {
            self.text.push_str(part);
        }
        if self.text.len() - start - indent > room(depth) {
            self.fits = false;
        }
        self.text.push('\n');
    }

    /// A line prettyplease never breaks (a doc comment, a constant, a literal), however long,
    /// or one the caller has measured.
    pub(crate) fn whole_line(&mut self, depth: usize, parts: &[&str]) {
        let fits = self.fits;
        self.line(depth, parts);
        self.fits = fits;
    }

    /// A text as `///` lines, as [`super::doc`]'s attributes print: each line made safe for
    /// rustdoc, with a space after `///` and no trailing spaces.
    pub(crate) fn doc(&mut self, depth: usize, text: &str) {
        // What `comment_safe` leaves as it is (no tab, carriage return or, in ASCII, direction
        // control) and the rules leave as one line needs none of their allocations.
        if text.is_ascii()
            && !text.contains('\t')
            && let Some(line) = plain(text).filter(|l| !l.is_empty())
        {
            self.whole_line(depth, &["/// ", line]);
            return;
        }
        for line in rustdoc_safe(&comment_safe(text)) {
            let line = line.trim_end_matches(' ');
            if line.is_empty() {
                self.whole_line(depth, &["///"]);
            } else {
                self.whole_line(depth, &["/// ", line]);
            }
        }
    }

    /// A constant, which prettyplease keeps on one line whatever its length.
    pub(crate) fn constant(&mut self, depth: usize, parts: &[&str]) {
        self.whole_line(depth, parts);
    }

    /// The text, or `None` when a line would not fit and prettyplease would break it.
    pub(crate) fn finish(self) -> Option<String> {
        self.fits.then_some(self.text)
    }
}

/// The width a line at `depth` has before prettyplease breaks it.
fn room(depth: usize) -> usize {
    MARGIN.saturating_sub(4 * depth).max(MIN_SPACE)
}

/// Whether prettyplease keeps `line` whole at `depth` (its closing `,` or `;` included), where
/// the writer chooses between a line and its broken form.
pub(crate) fn fits(depth: usize, line: &str) -> bool {
    line.len() <= room(depth)
}

/// `printed` with `lines` after its line `open`, when it has one.
pub(crate) fn insert_after(printed: &str, open: &str, lines: &str) -> Option<String> {
    let at = line_start(printed, open)? + open.len() + 1;
    Some([&printed[..at], lines, &printed[at..]].concat())
}

/// `printed` with its line `open` + `}` (an empty body) opened around `lines`.
pub(crate) fn fill_empty(printed: &str, open: &str, lines: &str) -> Option<String> {
    let empty = format!("{open}}}");
    let at = line_start(printed, &empty)?;
    let end = at + empty.len();
    Some([&printed[..at], open, "\n", lines, "}", &printed[end..]].concat())
}

/// `printed` with `lines` before its line `before`, when it has one.
pub(crate) fn insert_before(printed: &str, before: &str, lines: &str) -> Option<String> {
    let at = line_start(printed, before)?;
    Some([&printed[..at], lines, &printed[at..]].concat())
}

/// `printed` with its line `line` replaced by `by`.
pub(crate) fn replace_line(printed: &str, line: &str, by: &str) -> Option<String> {
    let at = line_start(printed, line)?;
    Some([&printed[..at], by, &printed[at + line.len()..]].concat())
}

/// Where the one line of `text` that is exactly `line` starts; `None` when none or several are.
fn line_start(text: &str, line: &str) -> Option<usize> {
    let mut found = None;
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        if l.strip_suffix('\n') == Some(line) {
            if found.is_some() {
                return None;
            }
            found = Some(at);
        }
        at += l.len();
    }
    found
}

/// A string literal exactly as `quote` writes one (and prettyplease prints it back).
pub(crate) fn string(s: &str) -> String {
    proc_macro2::Literal::string(s).to_string()
}

/// An identifier of the model (`r#type` for a keyword), checked as `quote` checks it: a name
/// that is no identifier panics here as it would in [`super::ident`].
pub(crate) fn id(name: &str) -> &str {
    let _ = super::ident(name);
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_margin_does_not_fit_and_a_doc_or_constant_always_does() {
        let mut code = Code::new();
        code.line(1, &[&"x".repeat(85)]);
        code.doc(1, &"y".repeat(200));
        code.constant(1, &["pub const A: &str = ", &string(&"z".repeat(200)), ";"]);
        assert!(code.finish().is_some());
        let mut code = Code::new();
        code.line(1, &[&"x".repeat(86)]);
        assert!(code.finish().is_none());
        // Deep lines keep at least sixty columns.
        let mut code = Code::new();
        code.line(10, &[&"x".repeat(60)]);
        assert!(code.finish().is_some());
    }

    #[test]
    fn strings_and_docs_are_escaped_as_quote_and_prettyplease_would() {
        assert_eq!(string("a\"b\\c\u{0}é"), r#""a\"b\\c\0é""#);
        let mut code = Code::new();
        code.doc(0, "One */ two \"three\"\n\n  - item  \n\u{202E}");
        assert_eq!(
            code.finish().as_deref(),
            Some("/// One */ two \"three\"\n///\n/// - item\n///   \\u{202E}\n")
        );
        // The one-line shortcut trims as the rules do; blank text is one empty line, none none.
        let mut code = Code::new();
        code.doc(1, "  padded  ");
        code.doc(1, " ");
        code.doc(1, "");
        assert_eq!(code.finish().as_deref(), Some("    /// padded\n    ///\n"));
    }

    #[test]
    #[should_panic]
    fn a_name_that_is_no_identifier_is_refused() {
        id("two words");
    }
}
