//! Tagged unions (`one_of`): a tag that is a property name, at least one variant, each an
//! object whose fields leave the tag to its key, and nothing beside `one_of` that would
//! describe one shape for all of them.

use super::Validator;
use super::examples::PendingExample;
use super::names::{NameTable, is_property_name};
use super::schema::{Place, Scope};
use crate::diagnostic::codes;
use crate::ident;
use crate::manifest as raw;
use crate::model::{Constraints, Kind, Schema, UnionDef, VariantDef};
use crate::source::Span;

/// The keys a schema holding `one_of` may have beside it: the property's own, and what
/// describes the union as a whole.
const BESIDE: [&str; 8] = [
    "one_of",
    "description",
    "example",
    "examples",
    "required",
    "default",
    "header",
    "record",
];

impl Validator<'_> {
    /// A `one_of` schema; `rust_name` names its enum, and each inline variant's struct is
    /// `{rust_name}{Variant}`.
    pub(super) fn union_schema(
        &mut self,
        s: &raw::Schema,
        one_of: &raw::OneOf,
        rust_name: &str,
        place: Place,
        scope: &Scope<'_>,
    ) -> Option<Schema> {
        let mut sound = true;
        for (key, span) in s.keys.all() {
            if !BESIDE.contains(&key.as_str()) {
                sound = false;
                self.error(
                    &codes::KEYWORD_TYPE_MISMATCH,
                    format!("`{key}` does not apply beside `one_of`"),
                    span,
                    format!(
                        "a union's fields and constraints are its variants'; move `{key}` into a variant, or remove it"
                    ),
                );
            }
        }
        // An untagged union was reported while reading.
        let tag = one_of.tag.as_ref()?;
        if !is_property_name(&tag.value) {
            sound = false;
            self.error(
                &codes::BAD_UNION_TAG,
                format!("the tag `{}` is not a property name", tag.value),
                tag.span,
                "name the tag as a property: a letter, then letters, digits and `_` (`kind`)",
            );
        }
        let variants = one_of.variants.as_ref()?;
        if variants.value.is_empty() {
            self.report(
                &codes::EMPTY_UNION,
                "`one_of` has no variants",
                variants.span,
            );
            return None;
        }
        self.claim_type(rust_name.to_owned(), one_of.key, "union");
        let mut idents = NameTable::default();
        let mut out = Vec::new();
        for (position, (value, body)) in variants.value.iter().enumerate() {
            let variant = ident::variant(&value.value, position + 1);
            if let Err(first) = idents.claim(&variant, value.span) {
                sound = false;
                self.collision(
                    format!(
                        "`{}` becomes the variant `{variant}`, which another variant already has",
                        value.value
                    ),
                    value.span,
                    Some((first, "this variant has the same Rust name")),
                    "tag values must differ after conversion to PascalCase",
                );
                continue;
            }
            let Some(schema) = self.schema(body, &format!("{rust_name}{variant}"), place, scope)
            else {
                sound = false;
                continue;
            };
            match variant_fields(&schema, scope) {
                None => {
                    sound = false;
                    let ty = body.ty.as_ref().map_or("?", |t| t.value.as_str());
                    self.error(
                        &codes::UNION_VARIANT_TYPE,
                        format!(
                            "the variant `{}` is `type: {ty}`, not an object",
                            value.value
                        ),
                        body.ty.as_ref().map_or(value.span, |t| t.span),
                        format!(
                            "a variant is an object its tag stands in: `{}: {{type: object, properties: {{…}}}}`, or a shared object type",
                            value.value
                        ),
                    );
                    continue;
                }
                Some(fields) => {
                    if let Some((_, span)) = fields.iter().find(|(name, _)| *name == tag.value) {
                        sound = false;
                        self.error(
                            &codes::BAD_UNION_TAG,
                            format!(
                                "the variant `{}` has a property `{}`, the union's tag",
                                value.value, tag.value
                            ),
                            *span,
                            format!(
                                "the tag's value is the variant's key (`{}`), published as a `const`; remove the property `{}`",
                                value.value, tag.value
                            ),
                        );
                        continue;
                    }
                }
            }
            out.push(VariantDef {
                value: value.value.clone(),
                ident: variant,
                schema,
                span: value.span,
            });
        }
        if !sound {
            self.refused.refuse_object(rust_name);
            return None;
        }
        let schema = Schema {
            kind: Kind::Union(UnionDef {
                rust_name: rust_name.to_owned(),
                tag: tag.value.clone(),
                variants: out,
            }),
            description: s.description.as_ref().map(|d| d.value.trim().to_owned()),
            examples: s.examples.iter().map(|e| e.value.clone()).collect(),
            constraints: Constraints::default(),
        };
        for e in &s.examples {
            self.examples.push(PendingExample {
                schema: schema.clone(),
                literal: e.clone(),
                what: "example",
            });
        }
        Some(schema)
    }
}

/// The names of a variant's properties, with where each is written, when it is an object:
/// written in place, or a shared type that is one (through any aliases).
fn variant_fields(schema: &Schema, scope: &Scope<'_>) -> Option<Vec<(String, Span)>> {
    match &schema.kind {
        Kind::Object(o) => Some(o.fields.iter().map(|f| (f.name.clone(), f.span)).collect()),
        Kind::Named(i) => {
            let mut at = *i;
            // An alias chain longer than the types is a cycle, reported as `recursive-type`.
            for _ in 0..=scope.types.len() {
                let t = &scope.types.get(at)?.schema;
                if t.one_of.is_some() || t.document.is_some() {
                    return None;
                }
                match t.ty.as_ref()?.value.as_str() {
                    "object" => {
                        return Some(
                            t.properties
                                .iter()
                                .flatten()
                                .map(|p| (p.name.value.clone(), p.name.span))
                                .collect(),
                        );
                    }
                    other => at = *scope.index.get(other)?,
                }
            }
            None
        }
        _ => None,
    }
}
