//! Readers of the value shapes several parts of the manifest share: a schema with its
//! properties, and a list of scopes. The decoders of tools, questions and prompts all call
//! them; they call nothing back.

use super::reader::{Decoder, Fields};
use super::{Document, DocumentSource, Literal, OneOf, Property, Schema};
use crate::diagnostic::{Diagnostic, codes};
use crate::keyword::{KEYWORDS, Limit, Operand};
use crate::source::Spanned;
use crate::yaml::{Node, NodeKind};

/// `scopes: [name, …]` on an entry (one name stands for a list of one).
pub(super) fn scope_list(node: &Node, de: &mut Decoder<'_>) -> Spanned<Vec<Spanned<String>>> {
    Spanned::new(de.strings(node, "a scope name"), node.span)
}

pub(super) fn properties(node: &Node, de: &mut Decoder<'_>, what: &str) -> Vec<Property> {
    de.entries(node, what)
        .into_iter()
        .filter_map(|(name, node)| {
            let mut f = de.fields(node, "a property")?;
            let required = f.get("required").and_then(|n| de.bool(n, "`required`"));
            let default = f.get("default").map(Literal::new);
            let header = f.get("header").and_then(|n| de.string(n, "`header`"));
            let record = f.get("record").and_then(|n| de.bool(n, "`record`"));
            let schema = schema(&mut f, de);
            f.finish(de);
            Some(Property {
                name,
                schema,
                required,
                default,
                header,
                record,
            })
        })
        .collect()
}

/// Reads the schema keys of a mapping; the caller reads any other keys it allows.
pub(super) fn schema(f: &mut Fields<'_>, de: &mut Decoder<'_>) -> Schema {
    let mut s = Schema {
        span: f.span,
        keys: f.keys(),
        ..Schema::default()
    };
    s.ty = f.get("type").and_then(|n| de.string(n, "`type`"));
    s.description = f
        .get("description")
        .and_then(|n| de.string(n, "`description`"));
    let example = f.get("example");
    let examples = f.get("examples");
    if let (Some(_), Some(both)) = (example, examples) {
        de.diags.push(Diagnostic::new(
            &codes::EXAMPLE_AND_EXAMPLES,
            "write `example` or `examples`, not both",
            both.span,
        ));
    }
    if let Some(n) = example {
        s.examples.push(Literal::new(n));
    }
    if let Some(n) = examples {
        for item in de.seq(n, "`examples`").unwrap_or_default() {
            s.examples.push(Literal::new(item));
        }
    }
    s.enum_values = f
        .get("enum")
        .map(|n| Spanned::new(de.strings(n, "an enum value"), n.span));
    s.items = f.get("items").and_then(|n| {
        let mut items = de.fields(n, "`items`")?;
        let schema = schema(&mut items, de);
        items.finish(de);
        Some(Box::new(schema))
    });
    s.properties = f
        .get("properties")
        .map(|n| properties(n, de, "`properties`"));
    s.document = f
        .get("json_schema")
        .and_then(|n| document(n, s.keys.span("json_schema").unwrap_or(n.span), de));
    s.one_of = f
        .get("one_of")
        .map(|n| one_of(n, s.keys.span("one_of").unwrap_or(n.span), de));
    for def in &KEYWORDS {
        let Some(n) = f.get(def.name) else { continue };
        let what = format!("`{}`", def.name);
        let limit = match def.operand {
            Operand::Count => de
                .count(n, &what)
                .map(|v| Spanned::new(Limit::Count(v.value), v.span)),
            Operand::Number => de
                .number(n, &what)
                .map(|v| Spanned::new(Limit::Number(v.value), v.span)),
            Operand::Text => de
                .string(n, &what)
                .map(|v| Spanned::new(Limit::Text(v.value), v.span)),
        };
        if let Some(limit) = limit {
            s.constraints.push((def.keyword, limit));
        }
    }
    s
}

/// A JSON Schema document: a mapping written in place, or the path of a JSON file.
pub(super) fn document(
    node: &Node,
    key: crate::source::Span,
    de: &mut Decoder<'_>,
) -> Option<Document> {
    let source = match &node.kind {
        NodeKind::Map(_) => DocumentSource::Inline(Literal::new(node)),
        NodeKind::Str(_) => DocumentSource::File(de.string(node, "a JSON Schema document")?),
        _ => {
            de.mismatch(
                node,
                "a JSON Schema document (a mapping) or the path of a JSON file",
                "`json_schema`",
            );
            return None;
        }
    };
    Some(Document { key, source })
}

/// `one_of: {tag, variants}`. The untagged forms, a list of schemas (JSON Schema's `oneOf`)
/// or a mapping without `tag:`, are refused here, with the tagged form as help: neither a
/// client nor a model can tell untagged shapes apart, nor can Rust read them unambiguously.
fn one_of(node: &Node, key: crate::source::Span, de: &mut Decoder<'_>) -> OneOf {
    let mut union = OneOf {
        key,
        tag: None,
        variants: None,
    };
    let untagged = |de: &mut Decoder<'_>, message: &str| {
        de.diags.push(
            Diagnostic::new(&codes::UNTAGGED_UNION, message, key)
                .label("no tag tells the variants apart"),
        );
    };
    if let NodeKind::Seq(_) = node.kind {
        untagged(de, "`one_of` is a list of schemas: an untagged union");
        return union;
    }
    let Some(mut f) = de.fields(node, "`one_of`") else {
        return union;
    };
    match f.get("tag") {
        None => untagged(de, "`one_of` has no `tag`: an untagged union"),
        Some(n) => match &n.kind {
            NodeKind::Str(tag) => union.tag = Some(Spanned::new(tag.clone(), n.span)),
            _ => de.diags.push(
                Diagnostic::new(
                    &codes::BAD_UNION_TAG,
                    format!(
                        "the tag of `one_of` must be the name of a property, found {}",
                        n.kind_name()
                    ),
                    n.span,
                )
                .label("expected a property name"),
            ),
        },
    }
    union.variants = f.require(de, "variants").map(|n| {
        let mut variants = Vec::new();
        let entries: &[(Node, Node)] = match &n.kind {
            NodeKind::Map(entries) => entries,
            _ => {
                de.mismatch(n, "a mapping", "`variants`");
                &[]
            }
        };
        for (value, body) in entries {
            // The tag's value is published as a string `const`: a key YAML reads as a number
            // or a boolean would be a string a client does not expect.
            if !matches!(value.kind, NodeKind::Str(_)) {
                de.diags.push(
                    Diagnostic::new(
                        &codes::BAD_UNION_TAG,
                        format!(
                            "the variant `{}` is {}, not a string: its tag is published as a string `const`",
                            value.key_text(),
                            value.kind_name()
                        ),
                        value.span,
                    )
                    .label("not a string")
                    .help(format!(
                        "quote it, if the tag's value is this text: `\"{}\":`",
                        value.key_text()
                    )),
                );
                continue;
            }
            let Some(mut v) = de.fields(body, "a variant") else {
                continue;
            };
            let schema = schema(&mut v, de);
            v.finish(de);
            variants.push((Spanned::new(value.key_text(), value.span), schema));
        }
        Spanned::new(variants, n.span)
    });
    f.finish(de);
    union
}
