//! The shared vocabulary tools draw on: pinned sentences, and the error codes with their
//! message and hint templates.

use mcp_contract_spec::error_codes;

use super::Validator;
use super::names::{NameTable, Referent, is_snake};
use crate::diagnostic::Diagnostic;
use crate::diagnostic::codes;
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::{
    ARGUMENT_FIELD, ArgumentCodes, Contract, ErrorDef, SentenceDef, Template, TemplatePart,
};
use crate::source::{Span, Spanned};

impl Validator<'_> {
    /// The pinned sentences, each with the constant naming it.
    pub(super) fn sentences(&mut self, sentences: &[raw::Sentence]) -> Vec<SentenceDef> {
        let mut constants = NameTable::default();
        let mut out = Vec::new();
        for s in sentences {
            if !is_snake(&s.name.value) {
                self.error(
                    &codes::BAD_NAME,
                    format!("the sentence name `{}` is not snake_case", s.name.value),
                    s.name.span,
                    "use lowercase letters, digits and `_`, starting with a letter",
                );
                self.refused.refuse(Referent::Sentence, &s.name.value);
                continue;
            }
            if s.text.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the pinned sentence is empty",
                    s.text.span,
                    "write the sentence",
                );
            }
            let constant = ident::shouty(&s.name.value);
            if let Err(first) = constants.claim(&constant, s.name.span) {
                self.collision(
                    format!("the constant `{constant}` would be generated twice"),
                    s.name.span,
                    Some((first, "this sentence has the same constant")),
                    "rename one of the sentences",
                );
            }
            out.push(SentenceDef {
                name: s.name.value.clone(),
                constant,
                text: s.text.value.trim().to_owned(),
                span: s.name.span,
            });
        }
        out
    }

    /// The argument envelope's codes: the runtime's, or the ones the manifest gives, each
    /// snake_case and each different.
    pub(super) fn argument_codes(&mut self, named: Option<&raw::ArgumentCodes>) -> ArgumentCodes {
        let defaults = error_codes::ArgumentCodes::DEFAULT;
        let mut seen: Vec<Spanned<String>> = Vec::new();
        let mut code = |v: &mut Self, given: Option<&Spanned<String>>, default: &str| {
            let Some(given) = given else {
                return default.to_owned();
            };
            if !is_snake(&given.value) {
                v.error(
                    &codes::BAD_NAME,
                    format!("the error code `{}` is not snake_case", given.value),
                    given.span,
                    "use lowercase letters, digits and `_`, starting with a letter",
                );
            } else if given.value == error_codes::INTERNAL_ERROR {
                v.report(
                    &codes::RESERVED_ERROR_CODE,
                    format!(
                        "the error code `{}` is reserved for the runtime",
                        given.value
                    ),
                    given.span,
                );
            } else if let Some(first) = seen.iter().find(|s| s.value == given.value) {
                v.diags.push(
                    Diagnostic::new(
                        &codes::DUPLICATE_ERROR_CODE,
                        format!("`{}` names two kinds of argument error", given.value),
                        given.span,
                    )
                    .related(first.span, "first named here"),
                );
            }
            seen.push(given.clone());
            given.value.clone()
        };
        let (missing, invalid, unknown) = match named {
            Some(n) => (n.missing.as_ref(), n.invalid.as_ref(), n.unknown.as_ref()),
            None => (None, None, None),
        };
        ArgumentCodes {
            missing: code(self, missing, defaults.missing),
            invalid: code(self, invalid, defaults.invalid),
            unknown: code(self, unknown, defaults.unknown),
        }
    }

    /// The error vocabulary, each code with its variant and its templates' fields.
    pub(super) fn errors(
        &mut self,
        errors: &[raw::ErrorDef],
        arguments: &ArgumentCodes,
    ) -> Vec<ErrorDef> {
        let reserved = [
            arguments.missing.as_str(),
            arguments.invalid.as_str(),
            arguments.unknown.as_str(),
            error_codes::INTERNAL_ERROR,
        ];
        let mut variants = NameTable::default();
        let mut out = Vec::new();
        for e in errors {
            let code = &e.code;
            if !is_snake(&code.value) {
                self.error(
                    &codes::BAD_NAME,
                    format!("the error code `{}` is not snake_case", code.value),
                    code.span,
                    "use lowercase letters, digits and `_`, starting with a letter",
                );
            } else if reserved.contains(&code.value.as_str()) {
                self.report(
                    &codes::RESERVED_ERROR_CODE,
                    format!(
                        "the error code `{}` is reserved for the runtime",
                        code.value
                    ),
                    code.span,
                );
            }
            let variant = ident::pascal(&code.value);
            if let Err(first) = variants.claim(&variant, code.span) {
                self.collision(
                    format!("the variant `{variant}` would be generated twice"),
                    code.span,
                    Some((first, "this code has the same variant")),
                    "rename one of the error codes",
                );
            }
            let mut fields = Vec::new();
            let message = e
                .message
                .as_ref()
                .and_then(|m| self.template(m, &mut fields));
            let hint = e.hint.as_ref().and_then(|h| self.template(h, &mut fields));
            if let Some(m) = &e.message
                && m.value.trim().is_empty()
            {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the error message is empty",
                    m.span,
                    "say what went wrong",
                );
            }
            let names_argument = self.names_argument(e, &fields);
            // A template that did not parse gave only some of its fields.
            let parsed =
                e.message.is_none() == message.is_none() && e.hint.is_none() == hint.is_none();
            let fields = self.template_fields(e, &fields, parsed);
            out.push(ErrorDef {
                code: code.value.clone(),
                variant,
                message: message.unwrap_or(Template {
                    source: String::new(),
                    parts: Vec::new(),
                }),
                hint,
                fields,
                names_argument,
            });
        }
        out
    }

    /// Whether the error names its argument: `argument: true`, whose generated field
    /// `argument` no placeholder may also be.
    fn names_argument(&mut self, e: &raw::ErrorDef, fields: &[String]) -> bool {
        let Some(argument) = e.argument.as_ref().filter(|a| a.value) else {
            return false;
        };
        if fields.iter().any(|f| f == ARGUMENT_FIELD) {
            let placeholder = format!("{{{ARGUMENT_FIELD}}}");
            let text = [&e.message, &e.hint]
                .into_iter()
                .flatten()
                .find(|t| t.value.contains(&placeholder));
            let at = text.map_or(argument.span, |t| self.written(t, &placeholder));
            self.collision(
                format!(
                    "`{placeholder}` becomes the field `{ARGUMENT_FIELD}`, which `argument: true` gives the variant for the argument it names"
                ),
                at,
                Some((argument.span, "this adds the field `argument`")),
                "rename the placeholder, such as `{name}`",
            );
        }
        true
    }

    /// Warns about each error code no tool lists.
    pub(super) fn unused_errors(&mut self, manifest: &Manifest, contract: &Contract) {
        let used: Vec<usize> = contract
            .tools
            .iter()
            .flat_map(|t| t.errors.iter().copied())
            .collect();
        for (i, e) in manifest.errors.iter().enumerate() {
            if !used.contains(&i) && contract.errors.get(i).is_some() {
                self.report(
                    &codes::UNUSED_ERROR,
                    format!("no tool lists the error `{}`", e.code.value),
                    e.code.span,
                );
            }
        }
    }

    /// Parses `{field}` placeholders (`{{` and `}}` stand for braces), adding each field to
    /// `fields` in first-use order.
    pub(super) fn template(
        &mut self,
        text: &Spanned<String>,
        fields: &mut Vec<String>,
    ) -> Option<Template> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.value.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    literal.push('}');
                }
                '{' => {
                    let name = self.placeholder(text, &mut chars)?;
                    if !literal.is_empty() {
                        parts.push(TemplatePart::Literal(std::mem::take(&mut literal)));
                    }
                    if !fields.contains(&name) {
                        fields.push(name.clone());
                    }
                    parts.push(TemplatePart::Field(name));
                }
                '}' => {
                    self.error(
                        &codes::BAD_TEMPLATE,
                        "a lone `}` in a template",
                        text.span,
                        "write `}}` for a brace",
                    );
                    return None;
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(TemplatePart::Literal(literal));
        }
        Some(Template {
            source: text.value.clone(),
            parts,
        })
    }

    /// Where `piece` of a template is written: found in the manifest's own text, since a
    /// folded or literal block scalar's value does not line up with its source. The whole
    /// text when it is not found verbatim (an escape in a quoted string, a fold inside it).
    pub(super) fn written(&self, text: &Spanned<String>, piece: &str) -> Span {
        let source = self
            .text
            .get(text.span.start..text.span.end)
            .unwrap_or_default();
        source
            .match_indices(piece)
            .find(|(i, _)| !source[..*i].ends_with('{'))
            .map_or(text.span, |(i, _)| {
                Span::new(text.span.start + i, text.span.start + i + piece.len())
            })
    }

    /// The field name of a placeholder whose `{` was just read, up to and past its `}`.
    fn placeholder(
        &mut self,
        text: &Spanned<String>,
        chars: &mut impl Iterator<Item = char>,
    ) -> Option<String> {
        let mut name = String::new();
        let mut closed = false;
        for c in chars.by_ref() {
            if c == '}' {
                closed = true;
                break;
            }
            name.push(c);
        }
        // Without its `}` the rest of the text is not a field name, even when it reads like
        // one (`No {path`).
        if !closed {
            // Up to the first space: a folded scalar's lines join with one.
            let opening = name.split_whitespace().next().unwrap_or_default();
            let at = self.written(text, &format!("{{{opening}"));
            self.error(
                &codes::BAD_TEMPLATE,
                "an unclosed `{` in a template",
                at,
                "close the placeholder with `}`, or write `{{` for a brace",
            );
            return None;
        }
        // The placeholder becomes a field as written, so it must already be in the form
        // `ident::snake` gives (`a__b` would become `a_b`, and collide).
        if !is_snake(&name) || !ident::is_snake_form(&name) {
            let at = self.written(text, &format!("{{{name}}}"));
            self.error(
                &codes::BAD_TEMPLATE,
                format!("`{{{name}}}` is not a valid placeholder"),
                at,
                "placeholders are snake_case field names in braces, like `{path}`; write `{{` for a brace",
            );
            return None;
        }
        Some(name)
    }
}
