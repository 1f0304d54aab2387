//! Names: who claimed which name first, the Rust names the generated code keeps for itself,
//! the grammars manifest names follow, and what a name that refers to nothing is told.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::Validator;
use crate::diagnostic::{Code, Diagnostic, codes, suggest};
use crate::source::{Span, Spanned};

/// Types the generated module defines next to the shared types (see `emit::rust`), and the
/// prelude names it uses unqualified to stay short and readable: a shared type of the same
/// name would not compile.
pub(super) const RESERVED_TYPE_NAMES: [&str; 11] = [
    "Tools",
    "Dispatcher",
    "ContractError",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Send",
    "Sync",
    "Default",
];

/// One namespace of names (tool names, a struct's Rust fields, resource URIs, …), each with
/// where it was claimed first.
#[derive(Debug, Default)]
pub(super) struct NameTable {
    claimed: HashMap<String, Span>,
}

impl NameTable {
    /// Claims `name` for what is written at `span`; a name claimed before gives back where.
    pub(super) fn claim(&mut self, name: impl Into<String>, span: Span) -> Result<(), Span> {
        match self.claimed.entry(name.into()) {
            Entry::Occupied(first) => Err(*first.get()),
            Entry::Vacant(free) => {
                free.insert(span);
                Ok(())
            }
        }
    }

    /// Where `name` was claimed, if it was.
    pub(super) fn get(&self, name: &str) -> Option<Span> {
        self.claimed.get(name).copied()
    }
}

/// What a manifest name can refer to, each with the code reporting a name it does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Referent {
    Sentence,
    Effect,
    ErrorCode,
    Type,
    Group,
    Tool,
    ArtifactKind,
    Scope,
    App,
}

impl Referent {
    /// How a message names it: "unknown error code `x`".
    fn noun(self) -> &'static str {
        match self {
            Referent::Sentence => "sentence",
            Referent::Effect => "effect",
            Referent::ErrorCode => "error code",
            Referent::Type => "type",
            Referent::Group => "group",
            Referent::Tool => "tool",
            Referent::ArtifactKind => "artifact kind",
            Referent::Scope => "scope",
            Referent::App => "app",
        }
    }

    /// The code reporting a name that refers to nothing.
    fn unknown(self) -> &'static Code {
        match self {
            Referent::Sentence => &codes::UNKNOWN_SENTENCE,
            Referent::Effect => &codes::UNKNOWN_EFFECT,
            Referent::ErrorCode => &codes::UNKNOWN_ERROR_CODE,
            Referent::Type => &codes::UNKNOWN_TYPE,
            Referent::Group => &codes::UNKNOWN_GROUP,
            Referent::Tool => &codes::UNKNOWN_TOOL,
            Referent::ArtifactKind => &codes::UNKNOWN_KIND,
            Referent::Scope => &codes::UNKNOWN_SCOPE,
            Referent::App => &codes::UNKNOWN_APP,
        }
    }
}

impl Validator<'_> {
    /// Reports two manifest names that meet in one Rust name, at the second; `first` is the
    /// other name's place and what it is, when the generated code is not the other party.
    pub(super) fn collision(
        &mut self,
        message: String,
        span: Span,
        first: Option<(Span, &str)>,
        help: &str,
    ) {
        let mut d = Diagnostic::new(&codes::IDENT_COLLISION, message, span);
        if let Some((at, label)) = first {
            d = d.related(at, label);
        }
        self.diags.push(d.help(help));
    }

    /// Claims a Rust type name, refusing one the generated code keeps or a second type of
    /// the same name; false when refused.
    pub(super) fn claim_type(&mut self, name: String, span: Span, what: &str) -> bool {
        // A tool or nested type can land on a generated item's name too (a tool `contract`
        // gives `ContractError`), not only a shared type.
        if RESERVED_TYPE_NAMES.contains(&name.as_str()) {
            self.collision(
                format!("the {what} type `{name}` would clash with the generated `{name}`"),
                span,
                None,
                "rename the tool or the property this type is named after",
            );
            return false;
        }
        let message = format!("the {what} type `{name}` would be generated twice");
        match self.rust_types.claim(name, span) {
            Ok(()) => true,
            Err(first) => {
                self.collision(
                    message,
                    span,
                    Some((first, "the other type of that name comes from here")),
                    "rename the shared type or the tool so the generated Rust names differ",
                );
                false
            }
        }
    }

    /// Reports a name that refers to nothing of its kind, suggesting the closest that exists;
    /// a declaration refused where it is written was reported there, so its uses are not.
    pub(super) fn unknown<'a>(
        &mut self,
        name: &Spanned<String>,
        referent: Referent,
        known: impl Iterator<Item = &'a str>,
    ) {
        if self.refused.contains(referent, &name.value) {
            return;
        }
        let what = referent.noun();
        let known: Vec<&str> = known.collect();
        let help = match suggest(&name.value, &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None if known.is_empty() => format!("no {what} is declared in the manifest"),
            None => format!("the declared names are: {}", known.join(", ")),
        };
        self.diags.push(
            Diagnostic::new(
                referent.unknown(),
                format!("unknown {what} `{}`", name.value),
                name.span,
            )
            .label(format!("no such {what}"))
            .help(help),
        );
    }
}

/// A lowercase letter, then lowercase letters, digits and `_`: sentence names, error codes,
/// template placeholders.
pub(super) fn is_snake(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `^[a-z][a-z0-9_]{0,63}$`: inside the spec's name grammar and the conformance suite's 64
/// chars. Resource names follow it too.
pub(super) fn is_tool_name(s: &str) -> bool {
    is_snake(s) && s.len() <= 64
}

/// A shared type's name is already the Rust type's: an uppercase letter, then letters and
/// digits, unchanged by PascalCase.
pub(super) fn is_type_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
        && crate::ident::pascal(s) == s
}

/// A property is published as written and becomes a Rust field: a letter, then letters,
/// digits and `_`.
pub(super) fn is_property_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A group's name is its HTTP route: a lowercase letter, then up to 63 lowercase letters,
/// digits, `_` or `-`.
pub(super) fn is_group_name(s: &str) -> bool {
    s.len() <= 64
        && s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// An RFC 6749 scope token (§3.3): one or more printable ASCII characters other than space,
/// `"` and `\`.
pub(super) fn is_scope_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}
