//! The URI templates of resources: RFC 6570 level 1 (simple `{name}` expansion), narrowed so
//! a URI splits one way only. The generator parses each template at build time to refuse a
//! bad one; the runtime parses it once at start-up and matches every read against it.
//!
//! - A template starts with a URI scheme (`workspace:`, `db:`) before its first variable.
//! - A variable is a name (a letter, then letters, digits or `_`), used once; level-2 and
//!   level-3 operators (`{+path}`), modifiers (`{name:3}`, `{list*}`) and lists are refused.
//! - Variables are separated by literal text, and each matches one path segment: a non-empty
//!   value without `/`, `?` or `#`, percent-decoded to UTF-8.
//!
//! Which characters a URI may hold is not checked here: the generator checks the whole
//! template as an RFC 3986 URI.

use std::fmt;

/// A parsed template: literal text and variables, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    parts: Vec<Part>,
}

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

/// Why a text is not a template of this grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateProblem {
    /// A `}` with no `{` before it.
    StrayClose,
    /// A `{` never closed.
    Unclosed,
    /// `{+…}` and the like: the operator.
    Operator(char),
    /// `{name:3}`, `{list*}` or `{a,b}`: what is between the braces.
    Modifier(String),
    /// Between the braces, something that is not a variable name.
    BadName(String),
    /// A variable used twice.
    Repeated(String),
    /// Two variables with no literal text between them.
    Touching,
    /// The text before the first variable does not start with a scheme.
    Scheme(SchemeProblem),
    /// No variable at all.
    NoVariable,
}

impl fmt::Display for TemplateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateProblem::StrayClose => f.write_str("a `}` closes no variable"),
            TemplateProblem::Unclosed => f.write_str("a `{` is never closed"),
            TemplateProblem::Operator(op) => {
                write!(f, "`{{{op}…}}` is a level-2 or level-3 operator")
            }
            TemplateProblem::Modifier(name) => {
                write!(f, "`{{{name}}}` uses a modifier or a list, beyond level 1")
            }
            TemplateProblem::BadName(name) => write!(
                f,
                "`{{{name}}}` is not a variable name (a letter, then letters, digits or `_`)"
            ),
            TemplateProblem::Repeated(name) => write!(f, "`{name}` appears twice"),
            TemplateProblem::Touching => {
                f.write_str("two variables touch; separate them with literal text such as `/`")
            }
            TemplateProblem::Scheme(problem) => write!(f, "before the first variable, {problem}"),
            TemplateProblem::NoVariable => {
                f.write_str("it has no variable; use `uri:` for a fixed resource")
            }
        }
    }
}

impl std::error::Error for TemplateProblem {}

/// Why a URI does not start with a scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeProblem {
    /// No `:` at all.
    Missing,
    /// What comes before the first `:` is not a scheme (a letter, then letters, digits, `+`,
    /// `-` or `.`).
    Invalid(String),
}

impl fmt::Display for SchemeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemeProblem::Missing => f.write_str("it has no scheme"),
            SchemeProblem::Invalid(scheme) => write!(f, "`{scheme}` is not a URI scheme"),
        }
    }
}

impl std::error::Error for SchemeProblem {}

/// The scheme `uri` starts with (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`,
/// up to the first `:`).
pub fn scheme(uri: &str) -> Result<&str, SchemeProblem> {
    let Some((scheme, _)) = uri.split_once(':') else {
        return Err(SchemeProblem::Missing);
    };
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if valid {
        Ok(scheme)
    } else {
        Err(SchemeProblem::Invalid(scheme.to_owned()))
    }
}

impl UriTemplate {
    /// Parses `template` by the grammar of the [module documentation](self).
    ///
    /// # Errors
    ///
    /// The first place that breaks it, reading from the left.
    pub fn parse(template: &str) -> Result<UriTemplate, TemplateProblem> {
        let mut parts = Vec::new();
        let mut variables: Vec<&str> = Vec::new();
        // The literal text since the previous variable.
        let mut literal = String::new();
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            literal.push_str(&rest[..open]);
            if rest[open..].starts_with('}') {
                return Err(TemplateProblem::StrayClose);
            }
            let Some(close) = rest[open..].find('}') else {
                return Err(TemplateProblem::Unclosed);
            };
            let name = &rest[open + 1..open + close];
            if let Some(op) = name.chars().next().filter(|c| "+#./;?&=,!@|".contains(*c)) {
                return Err(TemplateProblem::Operator(op));
            }
            if name.contains([':', '*', ',']) {
                return Err(TemplateProblem::Modifier(name.to_owned()));
            }
            // A variable names a Rust field, so it starts with a letter.
            let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(TemplateProblem::BadName(name.to_owned()));
            }
            if variables.contains(&name) {
                return Err(TemplateProblem::Repeated(name.to_owned()));
            }
            if variables.is_empty() {
                scheme(&literal).map_err(TemplateProblem::Scheme)?;
            } else if literal.is_empty() {
                return Err(TemplateProblem::Touching);
            }
            variables.push(name);
            parts.push(Part::Literal(std::mem::take(&mut literal)));
            parts.push(Part::Variable(name.to_owned()));
            rest = &rest[open + close + 1..];
        }
        if variables.is_empty() {
            return Err(TemplateProblem::NoVariable);
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(UriTemplate { parts })
    }

    /// The variables' names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The URI the template names with `values`, in template order, each percent-encoded:
    /// the inverse of [`UriTemplate::matches`]. Missing values expand to nothing.
    pub fn expand(&self, values: &[&str]) -> String {
        let mut values = values.iter();
        let mut uri = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => uri.push_str(text),
                Part::Variable(_) => uri.push_str(&escape(values.next().copied().unwrap_or(""))),
            }
        }
        uri
    }

    /// The variables' values in `uri`, percent-decoded, in template order; `None` when `uri`
    /// is not an expansion of the template.
    pub fn matches(&self, uri: &str) -> Option<Vec<String>> {
        let mut values = Vec::new();
        let mut rest = uri;
        for (i, part) in self.parts.iter().enumerate() {
            if let Part::Literal(text) = part {
                rest = rest.strip_prefix(text.as_str())?;
                continue;
            }
            // A variable is one segment: up to the next literal, never across `/`, `?` or `#`.
            let next = match self.parts.get(i + 1) {
                Some(Part::Literal(text)) => text.as_str(),
                _ => "",
            };
            let last = !self.parts[i + 1..]
                .iter()
                .any(|p| matches!(p, Part::Variable(_)));
            let end = if last {
                // The last variable runs up to the template's closing text, which ends the
                // URI: `{name}.json` reads `a.json.json` as `a.json`.
                rest.strip_suffix(next)?.len()
            } else {
                rest.find(next)?
            };
            let raw = &rest[..end];
            if raw.is_empty() || raw.contains(['/', '?', '#']) {
                return None;
            }
            values.push(unescape(raw)?);
            rest = &rest[end..];
        }
        rest.is_empty().then_some(values)
    }
}

/// Percent-encoding of one value: RFC 3986's unreserved characters stay, every other byte of
/// its UTF-8 is `%XX`, as level-1 expansion (simple string expansion) prescribes.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Percent-decoding of one segment; `None` for a bad escape or bytes that are not UTF-8.
fn unescape(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            // Two hex digits exactly: `from_str_radix` alone would take `%+1`.
            let hex = raw
                .get(i + 1..i + 3)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(text: &str) -> UriTemplate {
        UriTemplate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_template_names_its_variables_in_order() {
        let t = template("db://{schema}/tables/{table}.json");
        assert_eq!(t.variables().collect::<Vec<_>>(), ["schema", "table"]);
    }

    #[test]
    fn a_template_outside_the_grammar_is_refused_at_its_first_problem() {
        for (text, problem) in [
            ("x:///a}", TemplateProblem::StrayClose),
            ("x:///{a", TemplateProblem::Unclosed),
            ("x:///{+path}", TemplateProblem::Operator('+')),
            ("x:///{a:3}", TemplateProblem::Modifier("a:3".into())),
            ("x:///{a,b}", TemplateProblem::Modifier("a,b".into())),
            ("x:///{1a}", TemplateProblem::BadName("1a".into())),
            ("x:///{a}/{a}", TemplateProblem::Repeated("a".into())),
            ("x:///{a}{b}", TemplateProblem::Touching),
            (
                "/files/{a}",
                TemplateProblem::Scheme(SchemeProblem::Missing),
            ),
            (
                "1x:/{a}",
                TemplateProblem::Scheme(SchemeProblem::Invalid("1x".into())),
            ),
            ("x:///a", TemplateProblem::NoVariable),
        ] {
            assert_eq!(UriTemplate::parse(text), Err(problem), "{text}");
        }
    }

    #[test]
    fn expansion_escapes_each_value_and_matching_reads_it_back() {
        let t = template("db://{schema}/tables/{table}.json");
        for (schema, table, uri) in [
            ("main", "users", "db://main/tables/users.json"),
            ("a/b", "c d", "db://a%2Fb/tables/c%20d.json"),
            ("café", "x~y_z-1.2", "db://caf%C3%A9/tables/x~y_z-1.2.json"),
            ("100%", "?#", "db://100%25/tables/%3F%23.json"),
        ] {
            assert_eq!(t.expand(&[schema, table]), uri);
            assert_eq!(
                t.matches(uri),
                Some(vec![schema.to_owned(), table.to_owned()])
            );
        }
    }

    #[test]
    fn template_variables_are_one_unescaped_segment() {
        let r = template("workspace:///files/{path}");
        assert_eq!(
            r.matches("workspace:///files/src%2Fmain.rs"),
            Some(vec!["src/main.rs".to_owned()])
        );
        assert_eq!(
            r.matches("workspace:///files/caf%C3%A9"),
            Some(vec!["café".to_owned()])
        );
        for miss in [
            "workspace:///files/",
            "workspace:///files/src/main.rs",
            "workspace:///files/a?b",
            "workspace:///file/a",
            "workspace:///files/%zz",
            "workspace:///files/%ff",
            "workspace:///files/a%+0b",
            "workspace:///files/%+f",
            "other:///files/a",
        ] {
            assert_eq!(r.matches(miss), None, "{miss}");
        }
    }

    #[test]
    fn several_variables_split_at_their_literals() {
        let r = template("db://{schema}/tables/{table}.json");
        assert_eq!(
            r.matches("db://public/tables/users.json"),
            Some(vec!["public".to_owned(), "users".to_owned()])
        );
        assert_eq!(r.matches("db://public/tables/users.csv"), None);
        let r = template("x:///{name}.json");
        assert_eq!(
            r.matches("x:///a.json.json"),
            Some(vec!["a.json".to_owned()])
        );
        assert_eq!(r.matches("x:///.json"), None);
        assert_eq!(r.matches("db://public/views/users.json"), None);
    }
}
