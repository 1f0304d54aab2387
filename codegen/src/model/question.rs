//! A tool's questions: the elicitations it may put to the user, and the `requestedSchema`
//! each form publishes (the spec's flat object of primitive fields), stated once here for
//! the generated `Form` impl, the docs and `diff`.

use serde_json::{Map, Value, json};

use super::{Field, Kind, Template};
use crate::source::Span;

/// One question a tool may ask.
#[derive(Debug, Clone)]
pub(crate) struct QuestionDef {
    /// Its id, which keys the question and its answer.
    pub id: String,
    /// Its Rust type, PascalCase of the id.
    pub rust_name: String,
    /// What the user is asked; its fields are the generated `ask`'s arguments.
    pub message: Template,
    /// The template's fields, in first-use order.
    pub placeholders: Vec<String>,
    /// A form, or a URL the handler gives.
    pub mode: QuestionMode,
    /// Where the id is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

/// How a question is answered.
#[derive(Debug, Clone)]
pub(crate) enum QuestionMode {
    /// The user fills a form of these fields in the client.
    Form(Vec<FormField>),
    /// The user goes to a URL the handler gives (for sensitive data, which must not pass
    /// through the client).
    Url,
}

/// One field of a form.
#[derive(Debug, Clone)]
pub(crate) struct FormField {
    /// The field: a string, number, integer, boolean, enum or array of an enum.
    pub field: Field,
    /// The label a client shows.
    pub title: Option<String>,
    /// A label for each enum value, by value, in the enum's order; empty when none is written.
    pub titles: Vec<(String, String)>,
}

impl QuestionDef {
    /// The form's fields; none for a URL question.
    pub(crate) fn fields(&self) -> &[FormField] {
        match &self.mode {
            QuestionMode::Form(fields) => fields,
            QuestionMode::Url => &[],
        }
    }

    /// The `requestedSchema` of a form question: an object of the fields, each with its
    /// title, description, constraints and default; enums with titles as `oneOf` (single
    /// select) or `items.anyOf` (multi-select) of `{const, title}`. `None` for a URL question.
    pub(crate) fn requested_schema(&self) -> Option<Value> {
        let QuestionMode::Form(fields) = &self.mode else {
            return None;
        };
        let properties: Map<String, Value> = fields
            .iter()
            .map(|f| (f.field.name.clone(), f.schema()))
            .collect();
        let required: Vec<&str> = fields
            .iter()
            .filter(|f| f.field.required)
            .map(|f| f.field.name.as_str())
            .collect();
        let mut schema = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        Some(schema)
    }
}

impl FormField {
    /// The field's schema in the form.
    fn schema(&self) -> Value {
        let schema = &self.field.schema;
        // Untitled values are an `enum`; titled ones `{const, title}` choices.
        let plain = |values: &[(String, String)]| -> Value {
            json!({"type": "string", "enum": values.iter().map(|(v, _)| v).collect::<Vec<_>>()})
        };
        let titled = |values: &[(String, String)]| -> Value {
            values
                .iter()
                .map(|(v, _)| {
                    let title = self
                        .titles
                        .iter()
                        .find(|(t, _)| t == v)
                        .map_or(v.as_str(), |(_, t)| t.as_str());
                    json!({"const": v, "title": title})
                })
                .collect()
        };
        let mut o = match &schema.kind {
            Kind::Enum(e) if self.titles.is_empty() => as_map(plain(&e.values)),
            Kind::Enum(e) => as_map(json!({"type": "string", "oneOf": titled(&e.values)})),
            Kind::Array(items) => {
                let items = match &items.kind {
                    Kind::Enum(e) if self.titles.is_empty() => plain(&e.values),
                    Kind::Enum(e) => json!({"anyOf": titled(&e.values)}),
                    _ => json!({}),
                };
                as_map(json!({"type": "array", "items": items}))
            }
            Kind::String => as_map(json!({"type": "string"})),
            Kind::Integer => as_map(json!({"type": "integer"})),
            Kind::Number => as_map(json!({"type": "number"})),
            Kind::Boolean => as_map(json!({"type": "boolean"})),
            // Refused by validation: a form holds primitives only.
            Kind::Json | Kind::Document(_) | Kind::Object(_) | Kind::Named(_) | Kind::Union(_) => {
                Map::new()
            }
        };
        if let Some(title) = &self.title {
            o.insert("title".into(), title.clone().into());
        }
        if let Some(d) = schema.description.as_ref().filter(|d| !d.is_empty()) {
            o.insert("description".into(), d.clone().into());
        }
        for (keyword, value) in schema.constraints.iter() {
            o.insert(keyword.name().into(), value.to_json());
        }
        if let Some(d) = &self.field.default {
            o.insert("default".into(), d.clone());
        }
        o.into()
    }
}

fn as_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}
