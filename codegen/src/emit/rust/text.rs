//! The one writer of the generated module: Rust text appended line by line to one `String`,
//! as prost-build writes, in a layout of its own that rustfmt would mostly leave alone: four
//! spaces a level, one field, variant, argument or statement a line, and no line broken to a
//! margin. Blank lines between items are added once per module ([`super::spaced`]).
//!
//! Everything written here is text the model already validated: identifiers are derived and
//! checked when the contract is built, literals are written by [`string`] and [`json_text`]
//! and prose by [`Code::doc`], so nothing needs parsing back.

use std::fmt::Write as _;

use super::rustdoc::{comment_safe, plain, rustdoc_safe};

/// The width a line is kept within where the writer has a choice (a list, a signature), as
/// rustfmt's default. Literals and identifiers are never broken, so a line may be longer.
const WIDTH: usize = 100;

/// Lines of Rust, each at a depth of four spaces a level.
pub(crate) struct Code {
    text: String,
}

/// A line of `Code` from format arguments: `ln!(w, 1, "pub {field}: {ty},")`.
macro_rules! ln {
    ($w:expr, $depth:expr, $($arg:tt)*) => {
        $w.put($depth, format_args!($($arg)*))
    };
}
pub(crate) use ln;

impl Code {
    pub(crate) fn new() -> Self {
        Code {
            text: String::with_capacity(1024),
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.text.push_str("    ");
        }
    }

    /// One line whose parts are written one after another.
    pub(crate) fn line(&mut self, depth: usize, parts: &[&str]) {
        self.indent(depth);
        for part in parts {
            self.text.push_str(part);
        }
        self.text.push('\n');
    }

    /// One line from format arguments (see [`ln`]).
    pub(crate) fn put(&mut self, depth: usize, args: std::fmt::Arguments<'_>) {
        self.indent(depth);
        let _ = self.text.write_fmt(args);
        self.text.push('\n');
    }

    /// Whether a line of `len` characters fits [`WIDTH`] at `depth`.
    pub(crate) fn fits(depth: usize, len: usize) -> bool {
        4 * depth + len <= WIDTH
    }

    /// `open`, the items separated by commas and `close` on one line when it fits, or else
    /// `open`, then each item and its comma on its own line a level deeper, then `close`.
    pub(crate) fn list(&mut self, depth: usize, open: &str, items: &[String], close: &str) {
        let one: usize = items.iter().map(|i| i.len() + 2).sum();
        if items.is_empty() || Self::fits(depth, open.len() + one + close.len()) {
            let joined = items.join(", ");
            self.line(depth, &[open, &joined, close]);
            return;
        }
        self.line(depth, &[open]);
        for item in items {
            self.line(depth + 1, &[item, ","]);
        }
        self.line(depth, &[close]);
    }

    /// A text as `///` lines: each line made safe for rustdoc, with a space after `///` and no
    /// trailing spaces.
    pub(crate) fn doc(&mut self, depth: usize, text: &str) {
        // What `comment_safe` leaves as it is (no tab, carriage return or, in ASCII, direction
        // control) and the rules leave as one line needs none of their allocations.
        if text.is_ascii()
            && !text.contains('\t')
            && let Some(line) = plain(text).filter(|l| !l.is_empty())
        {
            self.line(depth, &["/// ", line]);
            return;
        }
        for line in rustdoc_safe(&comment_safe(text)) {
            let line = line.trim_end_matches(' ');
            if line.is_empty() {
                self.line(depth, &["///"]);
            } else {
                self.line(depth, &["/// ", line]);
            }
        }
    }

    /// `#[allow(…)]` for each lint named.
    pub(crate) fn allows(&mut self, depth: usize, lints: impl IntoIterator<Item = &'static str>) {
        for lint in lints {
            self.line(depth, &["#[allow(", lint, ")]"]);
        }
    }

    /// Text another writer produced, as it is.
    pub(crate) fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// The text.
    pub(crate) fn finish(self) -> String {
        self.text
    }
}

/// A spec's `meta` field: the text of the `_meta` object, or `None`.
pub(crate) fn meta_field(meta: Option<serde_json::Map<String, serde_json::Value>>) -> String {
    match meta {
        Some(meta) => format!(
            "Some({})",
            string(&serde_json::Value::Object(meta).to_string())
        ),
        None => "None".to_owned(),
    }
}

/// A string literal: `"…"` with quotes, backslashes and control characters escaped, and
/// every character that is not printable (a direction control among them) as `\u{…}`.
pub(crate) fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\'' => out.push('\''),
            c => out.extend(c.escape_debug()),
        }
    }
    out.push('"');
    out
}

/// An optional string as `Some("…")` or `None`.
pub(crate) fn option(s: Option<&str>) -> String {
    s.map_or_else(|| "None".into(), |s| format!("Some({})", string(s)))
}

/// String literals as the items of a slice: `"a", "b"`.
pub(crate) fn strings<'a>(values: impl IntoIterator<Item = &'a String>) -> String {
    let literals: Vec<String> = values.into_iter().map(|v| string(v)).collect();
    literals.join(", ")
}

/// JSON text as a string literal that reads as the JSON it is: raw (`r#"{"a":1}"#`, with as
/// many `#`s as the text needs) when it holds quotes or backslashes. serde_json escapes every
/// control character; the characters that change the direction of text, which rustc denies in
/// a literal, are escaped here the JSON way (`\u202e`), which leaves the value as it was.
pub(crate) fn json_text(json: &str) -> String {
    // One pass over the bytes: whether the text needs a raw string, and the longest run of
    // `#`s after a `"` in it (a raw string ends at a `"` followed by as many as it opened with).
    let (mut raw, mut longest) = (false, 0);
    let bytes = json.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => {
                raw = true;
                let run = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                longest = longest.max(run);
            }
            b'\\' => raw = true,
            _ => {}
        }
    }
    if !raw {
        return string(json);
    }
    let hashes = "#".repeat(longest + 1);
    let mut text = String::with_capacity(json.len() + 2 * hashes.len() + 3);
    text.push('r');
    text.push_str(&hashes);
    text.push('"');
    // Only non-ASCII text can hold a direction control.
    if json.is_ascii() {
        text.push_str(json);
    } else {
        for c in json.chars() {
            match c {
                '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                    text.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => text.push(c),
            }
        }
    }
    text.push('"');
    text.push_str(&hashes);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_docs_are_escaped_for_rustc() {
        assert_eq!(string("a\"b\\c\u{0}é'\n"), r#""a\"b\\c\0é'\n""#);
        assert_eq!(string("\u{202E}"), r#""\u{202e}""#);
        let mut code = Code::new();
        code.doc(0, "One */ two \"three\"\n\n  - item  \n\u{202E}");
        assert_eq!(
            code.finish(),
            "/// One */ two \"three\"\n///\n/// - item\n///   \\u{202E}\n"
        );
        // The one-line shortcut trims as the rules do; blank text is one empty line, none none.
        let mut code = Code::new();
        code.doc(1, "  padded  ");
        code.doc(1, " ");
        code.doc(1, "");
        assert_eq!(code.finish(), "    /// padded\n    ///\n");
    }

    #[test]
    fn json_becomes_a_raw_string_with_enough_hashes() {
        assert_eq!(json_text("1"), r#""1""#);
        assert_eq!(json_text(r#"{"a":1}"#), r##"r#"{"a":1}"#"##);
        assert_eq!(
            json_text(r###"{"a":"x\"## y"}"###),
            r####"r###"{"a":"x\"## y"}"###"####
        );
    }

    #[test]
    fn json_in_a_raw_string_escapes_what_changes_the_direction_of_text() {
        assert_eq!(json_text("[\"a\u{202E}b\"]"), r##"r#"["a\u202eb"]"#"##);
    }
}
