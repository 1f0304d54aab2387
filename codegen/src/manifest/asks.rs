//! `asks:` on a tool, a prompt or a resource: the elicitations it may put to the user while
//! it runs, as written.

use super::reader::Decoder;
use super::values::schema;
use super::{Literal, Property};
use crate::source::{Span, Spanned};
use crate::yaml::Node;

/// One question: `asks: {ID: {message, mode, fields}}`.
#[derive(Debug)]
pub(crate) struct Question {
    /// Its id, which keys the question and its answer, and names its Rust type.
    pub id: Spanned<String>,
    /// The question's mapping.
    pub span: Span,
    /// What the user is asked, with `{field}` placeholders the handler fills.
    pub message: Option<Spanned<String>>,
    /// `form` (the default) or `url`.
    pub mode: Option<Spanned<String>>,
    /// The form's fields, in order; `None` when `fields:` is not written.
    pub fields: Option<Spanned<Vec<QuestionField>>>,
}

/// One field of a form: a property, with what a form shows beside it.
#[derive(Debug)]
pub(crate) struct QuestionField {
    /// The field as a property (name, schema, `required`, `default`).
    pub property: Property,
    /// `title:` the label a client shows.
    pub title: Option<Spanned<String>>,
    /// `titles:` a label for each enum value, by value.
    pub titles: Vec<(Spanned<String>, Spanned<String>)>,
    /// Where `titles:` is written.
    pub titles_span: Option<Span>,
}

/// `asks:` on a tool, a prompt or a resource.
pub(super) fn asks(node: &Node, de: &mut Decoder<'_>) -> Vec<Question> {
    de.entries(node, "`asks`")
        .into_iter()
        .filter_map(|(id, node)| {
            let mut f = de.fields(node, "a question")?;
            let message = f
                .require(de, "message")
                .and_then(|n| de.string(n, "`message`"));
            let mode = f.get("mode").and_then(|n| de.string(n, "`mode`"));
            let fields = f.get("fields").map(|n| {
                let fields = de
                    .entries(n, "`fields`")
                    .into_iter()
                    .filter_map(|(name, node)| field(name, node, de))
                    .collect();
                Spanned::new(fields, n.span)
            });
            f.finish(de);
            Some(Question {
                id,
                span: node.span,
                message,
                mode,
                fields,
            })
        })
        .collect()
}

fn field(name: Spanned<String>, node: &Node, de: &mut Decoder<'_>) -> Option<QuestionField> {
    let mut f = de.fields(node, "a form field")?;
    let required = f.get("required").and_then(|n| de.bool(n, "`required`"));
    let default = f.get("default").map(Literal::new);
    let title = f.get("title").and_then(|n| de.string(n, "`title`"));
    let titles_node = f.get("titles");
    let titles = titles_node
        .map(|n| {
            de.entries(n, "`titles`")
                .into_iter()
                .filter_map(|(value, t)| Some((value, de.string(t, "a value's title")?)))
                .collect()
        })
        .unwrap_or_default();
    let schema = schema(&mut f, de);
    f.finish(de);
    Some(QuestionField {
        property: Property {
            name,
            schema,
            required,
            default,
            header: None,
            record: None,
        },
        title,
        titles,
        titles_span: titles_node.map(|n| n.span),
    })
}
