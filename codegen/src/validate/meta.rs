//! `_meta` keys: the key grammar of the MCP specification (basic/index, "_meta"), checked on
//! every key a tool writes and on the keys the planning contracts are published under.
//!
//! A key is an optional prefix — dot-separated labels ending in `/` — and a name. Prefixes
//! whose second label is `modelcontextprotocol` or `mcp` are reserved for the spec itself.

use super::Validator;
use crate::diagnostic::codes;
use crate::source::Spanned;

impl Validator<'_> {
    /// Checks a `_meta` key's grammar and prefix; false when it is refused.
    pub(super) fn meta_key(&mut self, key: &Spanned<String>) -> bool {
        let Err(problem) = check(&key.value) else {
            return true;
        };
        let code = match problem {
            Problem::Reserved => &codes::RESERVED_META_KEY,
            Problem::Syntax => &codes::BAD_META_KEY,
        };
        self.report(
            code,
            format!("`{}` is not a valid `_meta` key", key.value),
            key.span,
        );
        false
    }
}

/// Why a key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    /// The key does not follow the grammar.
    Syntax,
    /// The prefix is reserved for the specification.
    Reserved,
}

/// Checks one `_meta` key.
fn check(key: &str) -> Result<(), Problem> {
    let (prefix, name) = match key.rfind('/') {
        Some(i) => (Some(&key[..i]), &key[i + 1..]),
        None => (None, key),
    };
    if !name.is_empty() && !is_name(name) {
        return Err(Problem::Syntax);
    }
    let Some(prefix) = prefix else {
        return if name.is_empty() {
            Err(Problem::Syntax)
        } else {
            Ok(())
        };
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    if !labels.iter().all(|l| is_label(l)) {
        return Err(Problem::Syntax);
    }
    if matches!(labels.get(1), Some(&"modelcontextprotocol") | Some(&"mcp")) {
        return Err(Problem::Reserved);
    }
    Ok(())
}

/// A label starts with a letter, ends with a letter or digit, and holds letters, digits and `-`.
fn is_label(l: &str) -> bool {
    let b = l.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
}

/// A name starts and ends with a letter or digit and holds letters, digits, `-`, `_` and `.`.
fn is_name(n: &str) -> bool {
    let b = n.as_bytes();
    b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_spec_grammar() {
        for ok in [
            "name",
            "com.example/name",
            "com.example.api/x-y_z.1",
            "ui",
            "com.example.mcp/a",
            "com.example/",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for bad in [
            "-name",
            "name-",
            "com..example/x",
            "1com/x",
            "com.example-/x",
            "",
            "/x",
            "a b",
        ] {
            assert_eq!(check(bad), Err(Problem::Syntax), "{bad}");
        }
        for reserved in [
            "io.modelcontextprotocol/x",
            "dev.mcp/x",
            "org.modelcontextprotocol.api/x",
            "com.mcp.tools/x",
        ] {
            assert_eq!(check(reserved), Err(Problem::Reserved), "{reserved}");
        }
    }
}
