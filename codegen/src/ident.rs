//! Manifest names as Rust identifiers.
//!
//! Manifest names are published on the wire and must stay as written; their Rust spellings
//! are derived here, in one place, so collisions can be found before any code is emitted.

use heck::{ToPascalCase, ToShoutySnakeCase, ToSnakeCase};

/// Words that are keywords in some edition and cannot be used as plain identifiers.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot even be raw identifiers; they get a trailing underscore.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// A field or method name: `startLine` → `start_line`, `type` → `r#type`.
pub(crate) fn snake(name: &str) -> String {
    escape(name.to_snake_case())
}

/// Whether `name` is already in the form [`snake`] derives fields from (keywords aside), so
/// two such names never meet in one Rust name.
pub(crate) fn is_snake_form(name: &str) -> bool {
    name.to_snake_case() == name
}

/// A type or variant name: `read_file` → `ReadFile`.
pub(crate) fn pascal(name: &str) -> String {
    escape(bare_pascal(name))
}

/// A prefix for generated type names (`ReadFile` in `ReadFileArgs`): PascalCase without the
/// keyword escape, since a suffix always follows (`self` → `SelfArgs`, not `Self_Args`).
pub(crate) fn type_prefix(name: &str) -> String {
    bare_pascal(name)
}

/// An enum variant for a free-form value: its ASCII letters and digits in PascalCase, so no
/// character rustc would refuse or flag as confusable gets in; a value with none (`½`) is
/// named by its position instead (`V1`). The wire value is kept by `#[serde(rename)]`.
pub(crate) fn variant(value: &str, position: usize) -> String {
    if value.chars().any(|c| c.is_ascii_alphanumeric()) {
        pascal(value)
    } else {
        format!("V{position}")
    }
}

/// PascalCase of the ASCII letters and digits, with `V` before a leading digit.
fn bare_pascal(name: &str) -> String {
    // Non-ASCII characters become word breaks before casing, so none survives into the name.
    let ascii: String = name
        .chars()
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect();
    let mut s = ascii.to_pascal_case();
    s.retain(|c| c.is_ascii_alphanumeric());
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'V');
    }
    s
}

/// A constant name: `read_file` → `READ_FILE`.
pub(crate) fn shouty(name: &str) -> String {
    escape(name.to_shouty_snake_case())
}

/// A scope's constant: its ASCII letters and digits in SHOUTY_SNAKE_CASE (`files:read` →
/// `FILES_READ`), with `SCOPE_` in front when that is empty or starts with a digit.
pub(crate) fn scope_constant(name: &str) -> String {
    let s = bare_shouty(name);
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("SCOPE_{s}").trim_end_matches('_').to_owned()
    } else {
        s
    }
}

/// SHOUTY_SNAKE_CASE of the ASCII letters and digits, anything else a word break.
fn bare_shouty(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    ascii.to_shouty_snake_case()
}

fn escape(s: String) -> String {
    if NOT_RAW.contains(&s.as_str()) {
        format!("{s}_")
    } else if KEYWORDS.contains(&s.as_str()) {
        format!("r#{s}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_raw_identifiers() {
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(pascal("self"), "Self_");
        assert_eq!(snake("startLine"), "start_line");
        assert_eq!(pascal("read_file"), "ReadFile");
        assert_eq!(pascal("2d"), "V2d");
        assert_eq!(shouty("workspace_relative"), "WORKSPACE_RELATIVE");
        assert_eq!(type_prefix("self"), "Self");
        assert_eq!(variant("½", 1), "V1");
        assert_eq!(variant("µs", 2), "S");
        assert_eq!(variant("x²", 3), "X");
        assert_eq!(scope_constant("files:read"), "FILES_READ");
        assert_eq!(
            scope_constant("https://x.example/read"),
            "HTTPS_X_EXAMPLE_READ"
        );
        assert_eq!(scope_constant("2fa"), "SCOPE_2FA");
        assert_eq!(scope_constant("!~"), "SCOPE");
    }
}
