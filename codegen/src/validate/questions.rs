//! The questions (`asks:`) of a tool, a prompt or a resource: ids, messages, modes, and form
//! fields held to the flat object of primitives that elicitation allows.

use super::Validator;
use super::names::is_tool_name;
use super::schema::{Place, Scope};
use crate::diagnostic::{Diagnostic, codes};
use crate::ident;
use crate::keyword::{Format, Keyword, Limit};
use crate::manifest as raw;
use crate::model::*;

/// The formats a form's string may have (the spec's `StringSchema.format`).
const FORM_FORMATS: [Format; 4] = [Format::Email, Format::Uri, Format::Date, Format::DateTime];

/// Words that mark a field as a secret, which a form must not ask for.
const SECRET_WORDS: [&str; 10] = [
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "cardnumber",
    "cvv",
    "ssn",
];

impl Validator<'_> {
    /// The questions of one tool, prompt or resource, each claimed across the manifest by its
    /// id.
    pub(super) fn questions(
        &mut self,
        asks: &[raw::Question],
        scope: &Scope<'_>,
    ) -> Vec<QuestionDef> {
        asks.iter()
            .filter_map(|q| self.question(q, scope))
            .collect()
    }

    fn question(&mut self, q: &raw::Question, scope: &Scope<'_>) -> Option<QuestionDef> {
        let id = &q.id;
        if !is_tool_name(&id.value) {
            self.report(
                &codes::BAD_QUESTION_ID,
                format!("`{}` is not a valid question id", id.value),
                id.span,
            );
            return None;
        }
        if let Err(first) = self.question_ids.claim(&id.value, id.span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_QUESTION,
                    format!("the question `{}` is declared twice", id.value),
                    id.span,
                )
                .label("declared again here")
                .related(first, "first declared here"),
            );
            return None;
        }
        let rust_name = ident::pascal(&id.value);
        let mut placeholders = Vec::new();
        let message = q.message.as_ref().and_then(|m| {
            if m.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the question's message is empty",
                    m.span,
                    "say what the user is asked",
                );
            }
            self.template(m, &mut placeholders)
        });
        let mode = self.mode(q, &rust_name, scope);
        // `ask` takes the context and, for a URL question, the URL before the placeholders.
        let taken: &[&str] = match mode {
            Some(QuestionMode::Url) => &["context", "url"],
            _ => &["context"],
        };
        if let (Some(m), Some(p)) = (
            &q.message,
            placeholders.iter().find(|p| taken.contains(&p.as_str())),
        ) {
            self.collision(
                format!(
                    "`{{{p}}}` becomes an argument of `{rust_name}::ask`, which already has `{p}`"
                ),
                m.span,
                None,
                "rename the placeholder",
            );
            return None;
        }
        let claimed = self.claim_type(rust_name.clone(), id.span, "question");
        Some(QuestionDef {
            id: id.value.clone(),
            rust_name,
            message: message?,
            placeholders,
            mode: mode?,
            span: id.span,
        })
        .filter(|_| claimed)
    }

    /// `form` with its fields, or `url` without any.
    fn mode(
        &mut self,
        q: &raw::Question,
        rust_name: &str,
        scope: &Scope<'_>,
    ) -> Option<QuestionMode> {
        match q.mode.as_ref().map(|m| m.value.as_str()) {
            None | Some("form") => {}
            Some("url") => {
                if let Some(fields) = &q.fields {
                    self.report(
                        &codes::BAD_QUESTION_MODE,
                        "a `mode: url` question has no fields: the user answers on the page",
                        fields.span,
                    );
                    return None;
                }
                return Some(QuestionMode::Url);
            }
            Some(other) => {
                let span = q.mode.as_ref().map_or(q.span, |m| m.span);
                self.report(
                    &codes::BAD_QUESTION_MODE,
                    format!("unknown question mode `{other}`"),
                    span,
                );
                return None;
            }
        }
        let written = q.fields.as_ref().map_or(&[][..], |f| &f.value[..]);
        let sound: Vec<&raw::QuestionField> =
            written.iter().filter(|f| self.form_field(f)).collect();
        let mut out = Vec::new();
        for f in &sound {
            let fields = self.fields(
                std::slice::from_ref(&f.property),
                rust_name,
                Place::Question,
                false,
                scope,
            );
            let Some(field) = fields.into_iter().next() else {
                continue;
            };
            let titles = self.titles(f, &field);
            out.push(FormField {
                field,
                title: f.title.as_ref().map(|t| t.value.trim().to_owned()),
                titles,
            });
        }
        (sound.len() == written.len() && out.len() == written.len())
            .then_some(QuestionMode::Form(out))
    }

    /// Whether a field is one a form may hold; each way it is not is reported.
    fn form_field(&mut self, f: &raw::QuestionField) -> bool {
        let p = &f.property;
        let s = &p.schema;
        let name = &p.name.value;
        let squashed: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(word) = SECRET_WORDS.iter().find(|w| squashed.contains(**w)) {
            self.report(
                &codes::SECRET_FORM_FIELD,
                format!("the form field `{name}` looks like a secret (`{word}`)"),
                p.name.span,
            );
        }
        let mut sound = true;
        let mut refuse = |v: &mut Self, message: String, span| {
            v.error(
                &codes::BAD_FORM_FIELD,
                message,
                span,
                "a form field is a string, number, integer, boolean, a string enum, or an array of a string enum; split anything else into fields",
            );
            sound = false;
        };
        if let Some(document) = &s.document {
            refuse(
                self,
                format!("the form field `{name}` cannot be a `json_schema:` document"),
                document.key,
            );
        }
        if let Some(one_of) = &s.one_of {
            refuse(
                self,
                format!("the form field `{name}` cannot be a `one_of` union"),
                one_of.key,
            );
        }
        let ty = s.ty.as_ref().map(|t| t.value.as_str());
        match ty {
            Some("string" | "integer" | "number" | "boolean") | None => {}
            Some("array") => {
                let items_enum = s.items.as_ref().is_some_and(|i| {
                    i.ty.as_ref().is_some_and(|t| t.value == "string") && i.enum_values.is_some()
                });
                if !items_enum {
                    let span = s.items.as_ref().map_or(p.name.span, |i| i.span);
                    refuse(
                        self,
                        format!(
                            "the array `{name}` is not a multi-select: its items are not a string enum"
                        ),
                        span,
                    );
                }
            }
            Some(other) => {
                let span = s.ty.as_ref().map_or(p.name.span, |t| t.span);
                refuse(
                    self,
                    format!("a form field cannot be `type: {other}`"),
                    span,
                );
            }
        }
        for (keyword, limit) in s
            .constraints
            .iter()
            .chain(s.items.iter().flat_map(|i| i.constraints.iter()))
        {
            match (keyword, &limit.value) {
                (Keyword::Pattern, _) => refuse(
                    self,
                    "a form field cannot have a `pattern`".into(),
                    s.keys.span("pattern").unwrap_or(limit.span),
                ),
                (Keyword::Format, Limit::Text(f))
                    if Format::parse(f).is_some_and(|f| !FORM_FORMATS.contains(&f)) =>
                {
                    refuse(
                        self,
                        format!("a form field cannot have `format: {f}`"),
                        limit.span,
                    )
                }
                _ => {}
            }
        }
        if let Some(e) = s.examples.first() {
            refuse(
                self,
                "a form field has no examples; its `default` fills the form".into(),
                s.keys
                    .span("example")
                    .or(s.keys.span("examples"))
                    .unwrap_or(e.span),
            );
        }
        sound
    }

    /// `titles:` as the schema publishes them, in the enum's order; each names a value.
    fn titles(&mut self, f: &raw::QuestionField, field: &Field) -> Vec<(String, String)> {
        let values = match &field.schema.kind {
            Kind::Enum(e) => Some(&e.values),
            Kind::Array(items) => match &items.kind {
                Kind::Enum(e) => Some(&e.values),
                _ => None,
            },
            _ => None,
        };
        let Some(span) = f.titles_span else {
            return Vec::new();
        };
        let Some(values) = values else {
            self.error(
                &codes::BAD_FORM_FIELD,
                format!("`{}` has `titles` but no enum", field.name),
                f.property.schema.keys.span("titles").unwrap_or(span),
                "titles label enum values; remove `titles:`, or give the field an `enum`",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (value, title) in &f.titles {
            if values.iter().any(|(v, _)| *v == value.value) {
                out.push((value.value.clone(), title.value.trim().to_owned()));
            } else {
                self.error(
                    &codes::BAD_FORM_FIELD,
                    format!("`{}` is not a value of `{}`", value.value, field.name),
                    value.span,
                    format!(
                        "the values are: {}",
                        values
                            .iter()
                            .map(|(v, _)| v.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        out.sort_by_key(|(v, _)| values.iter().position(|(w, _)| w == v));
        out
    }
}
