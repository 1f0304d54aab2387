//! Schemas and their properties: names, descriptions, required and defaults, the type, the
//! constraint keywords that apply to it and their ranges, and enums.

use std::collections::HashMap;

use serde_json::Value;

use super::Validator;
use super::examples::{PendingExample, derive_nested_examples};
use super::names::{NameTable, Referent, is_property_name};
use crate::diagnostic::{codes, suggest};
use crate::ident;
use crate::keyword::{Bound, Format, KEYWORDS, Keyword, Limit};
use crate::manifest as raw;
use crate::model::*;
use crate::source::{Keyed, Span, Spanned};

/// The JSON types a `type:` may name besides the shared types.
const JSON_TYPES: [&str; 7] = [
    "string", "integer", "number", "boolean", "json", "array", "object",
];

/// Where a schema sits, which decides what it must carry.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// A tool's parameter or a field nested in one.
    Input,
    /// A field of a tool's output.
    Output,
    /// A shared type, usable on either side.
    Shared,
    /// A field of a form a tool asks the user to fill, whose title may say what it means.
    Question,
}

/// The shared types a `type:` may name: their indices by name, and the types as written.
pub(super) struct Scope<'m> {
    pub(super) index: &'m HashMap<String, usize>,
    pub(super) types: &'m [raw::TypeDef],
}

impl Validator<'_> {
    /// Resolves the properties of one object; `owner` names its Rust struct.
    pub(super) fn fields(
        &mut self,
        props: &[raw::Property],
        owner: &str,
        place: Place,
        top_level: bool,
        scope: &Scope<'_>,
    ) -> Vec<Field> {
        let mut idents = NameTable::default();
        let fields: Vec<Field> = props
            .iter()
            .filter_map(|p| self.field(p, owner, place, top_level, scope, &mut idents))
            .collect();
        if fields.len() < props.len() {
            self.refused.refuse_object(owner);
        }
        fields
    }

    /// One property; `idents` holds the Rust fields its struct already has.
    fn field(
        &mut self,
        p: &raw::Property,
        owner: &str,
        place: Place,
        top_level: bool,
        scope: &Scope<'_>,
        idents: &mut NameTable,
    ) -> Option<Field> {
        let name = &p.name;
        if !is_property_name(&name.value) {
            self.error(
                &codes::BAD_NAME,
                format!("`{}` is not a valid property name", name.value),
                name.span,
                "start with a letter; use letters, digits and `_`",
            );
            return None;
        }
        let field_ident = ident::snake(&name.value);
        if let Err(first) = idents.claim(&field_ident, name.span) {
            self.collision(
                format!(
                    "`{}` becomes the Rust field `{field_ident}`, which another property already has",
                    name.value
                ),
                name.span,
                Some((first, "this property has the same Rust name")),
                "rename one of the properties so their snake_case forms differ",
            );
            return None;
        }
        if p.schema.document.is_none() {
            self.documented(p, place, top_level);
        }
        let required = self.required(p);
        // A document is published as written, so no `Default: X.` can join its description.
        let default = match p.schema.document {
            None => self.default(p, place),
            Some(_) => None,
        };
        let rust_name = format!("{owner}{}", ident::pascal(&name.value));
        let schema = self.schema(&p.schema, &rust_name, place, scope)?;
        if let Kind::Document(document) = &schema.kind {
            self.documented_document(p, document, place, top_level);
        }
        if let Some(d) = &p.default
            && default.is_some()
        {
            self.examples.push(PendingExample {
                schema: schema.clone(),
                literal: d.clone(),
                what: "default",
            });
        }
        self.header_placement(p, place);
        let record = self.record(p, place, top_level);
        Some(Field {
            name: name.value.clone(),
            ident: field_ident,
            schema,
            required,
            default,
            header: p.header.as_ref().map(|h| Keyed {
                value: h.value.clone(),
                span: h.span,
                key: p.schema.keys.span("header").unwrap_or(h.span),
            }),
            record,
            span: name.span,
        })
    }

    /// Every property says what it means; a top-level parameter shows a model an example.
    fn documented(&mut self, p: &raw::Property, place: Place, top_level: bool) {
        let name = &p.name;
        if place != Place::Question
            && p.schema
                .description
                .as_ref()
                .is_none_or(|d| d.value.trim().is_empty())
        {
            self.report(
                &codes::MISSING_DESCRIPTION,
                format!("the property `{}` has no description", name.value),
                name.span,
            );
        }
        if place == Place::Input && top_level && p.schema.examples.is_empty() {
            self.report(
                &codes::MISSING_EXAMPLE,
                format!("the parameter `{}` has no example", name.value),
                name.span,
            );
        }
    }

    /// A property given as a document says what it means, and shows an example as a
    /// top-level parameter, in the document itself: it is published as written.
    fn documented_document(
        &mut self,
        p: &raw::Property,
        document: &Value,
        place: Place,
        top_level: bool,
    ) {
        let name = &p.name;
        let described = document
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty());
        if place != Place::Question && !described {
            self.report(
                &codes::MISSING_DESCRIPTION,
                format!(
                    "the property `{}` has no description, in its `json_schema:` document",
                    name.value
                ),
                name.span,
            );
        }
        let exemplified = document
            .get("examples")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty());
        if place == Place::Input && top_level && !exemplified {
            self.report(
                &codes::MISSING_EXAMPLE,
                format!(
                    "the parameter `{}` has no example, in its `json_schema:` document",
                    name.value
                ),
                name.span,
            );
        }
    }

    /// One rule everywhere: a property is required unless it says `required: false` or has
    /// a default.
    fn required(&mut self, p: &raw::Property) -> bool {
        match (&p.required, &p.default) {
            (Some(r), Some(d)) if r.value => {
                self.report(
                    &codes::REQUIRED_WITH_DEFAULT,
                    format!("`{}` is required and has a default", p.name.value),
                    d.span,
                );
                true
            }
            (Some(r), _) => r.value,
            (None, default) => default.is_none(),
        }
    }

    /// The default the handler receives, if one may be written here.
    fn default(&mut self, p: &raw::Property, place: Place) -> Option<Value> {
        match &p.default {
            None => None,
            Some(d) if place == Place::Output => {
                self.report(
                    &codes::DEFAULT_ON_OUTPUT,
                    "an output field cannot have a default",
                    p.schema.keys.span("default").unwrap_or(d.span),
                );
                None
            }
            Some(d) if d.value.is_null() => {
                self.report(
                    &codes::NULL_DEFAULT,
                    format!("the default of `{}` is null", p.name.value),
                    d.span,
                );
                None
            }
            Some(d) => Some(d.value.clone()),
        }
    }

    /// Only a tool's parameters are mirrored into HTTP headers.
    fn header_placement(&mut self, p: &raw::Property, place: Place) {
        if let Some(h) = &p.header
            && place != Place::Input
        {
            self.error(
                &codes::HEADER_PLACEMENT,
                format!("`{}` cannot carry `header`", p.name.value),
                p.schema.keys.span("header").unwrap_or(h.span),
                if place == Place::Output {
                    "only a tool's parameters are mirrored into HTTP headers, never its output; remove `header:`"
                } else {
                    "only a tool's parameters are mirrored into HTTP headers; move `header:` to the parameter that uses this type, or remove it"
                },
            );
        }
    }

    /// `record:`, which only a tool's own parameter may carry: the value recorded is the
    /// argument's, and a call's span has no place for a nested field or an output.
    fn record(&mut self, p: &raw::Property, place: Place, top_level: bool) -> bool {
        let Some(record) = &p.record else {
            return false;
        };
        if place == Place::Input && top_level {
            return record.value;
        }
        self.error(
            &codes::RECORD_PLACEMENT,
            format!("`{}` cannot carry `record`", p.name.value),
            p.schema.keys.span("record").unwrap_or(record.span),
            "only a tool's own parameters are recorded on its calls' spans; move `record:` to the parameter, or remove it",
        );
        false
    }

    /// Resolves one schema; `rust_name` names the struct or enum it may need.
    pub(super) fn schema(
        &mut self,
        s: &raw::Schema,
        rust_name: &str,
        place: Place,
        scope: &Scope<'_>,
    ) -> Option<Schema> {
        if let Some(document) = &s.document {
            return self.document_schema(s, document);
        }
        if let Some(one_of) = &s.one_of {
            return self.union_schema(s, one_of, rust_name, place, scope);
        }
        let Some(ty) = &s.ty else {
            self.error(
                &codes::MISSING_FIELD,
                "this schema is missing the required key `type`",
                s.span,
                "add `type:` — string, integer, number, boolean, array, object, or a shared type's name",
            );
            return None;
        };
        // Against a type that does not exist, no keyword can be judged.
        if JSON_TYPES.contains(&ty.value.as_str()) || scope.index.contains_key(&ty.value) {
            self.keywords_apply(s, ty);
        }
        self.ranges(s);
        self.pattern_and_format(s);
        let kind = self.type_kind(s, ty, rust_name, place, scope)?;
        let mut schema = Schema {
            kind,
            description: s.description.as_ref().map(|d| d.value.trim().to_owned()),
            examples: s.examples.iter().map(|e| e.value.clone()).collect(),
            constraints: constraints(s),
        };
        self.bounds_fit(s, &schema);
        for e in &s.examples {
            self.examples.push(PendingExample {
                schema: schema.clone(),
                literal: e.clone(),
                what: "example",
            });
        }
        derive_nested_examples(&mut schema);
        Some(schema)
    }

    /// A schema given as a document: nothing beside it but a property's `required`.
    fn document_schema(&mut self, s: &raw::Schema, document: &raw::Document) -> Option<Schema> {
        let beside: Vec<(String, Span)> = s
            .keys
            .all()
            .into_iter()
            .filter(|(k, _)| k != "json_schema" && k != "required")
            .collect();
        for (key, span) in &beside {
            self.error(
                &codes::JSON_SCHEMA_PLACEMENT,
                format!("`{key}` beside `json_schema:`: the document is the whole schema, published as written"),
                *span,
                match key.as_str() {
                    "default" => "a document takes no default: make the parameter required, or apply the default in the handler".to_owned(),
                    "header" => "only a typed parameter is mirrored into an HTTP header".to_owned(),
                    _ => format!("move `{key}` into the document"),
                },
            );
        }
        let value = self.document(document, super::documents::Role::Property)?;
        if !beside.is_empty() {
            return None;
        }
        Some(Schema {
            description: value
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            // Read from the document, which publishes them itself: for the docs and the
            // contract test's example call.
            examples: value
                .get("examples")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            constraints: Constraints::default(),
            kind: Kind::Document(Box::new(value)),
        })
    }

    /// Refuses each constraint keyword, and `enum`, `items` and `properties`, written on a
    /// type it does not apply to.
    fn keywords_apply(&mut self, s: &raw::Schema, ty: &Spanned<String>) {
        let structural = [
            ("enum", "string", s.enum_values.as_ref().map(|v| v.span)),
            ("items", "array", s.items.as_ref().map(|v| v.span)),
        ];
        let constraints = s.constraints.iter().map(|(k, v)| {
            (
                k.name(),
                k.def().applies_to.contains(&ty.value.as_str()),
                v.span,
            )
        });
        let misplaced = structural
            .into_iter()
            .filter_map(|(key, on, span)| span.map(|span| (key, on == ty.value, span)))
            .chain(constraints)
            .filter(|(_, applies, _)| !applies);
        for (key, _, span) in misplaced {
            let span = s.keys.span(key).unwrap_or(span);
            self.error(
                &codes::KEYWORD_TYPE_MISMATCH,
                format!("`{key}` does not apply to `type: {}`", ty.value),
                span,
                format!("remove `{key}`, or change the type it belongs to"),
            );
        }
        if s.properties.is_some() && ty.value != "object" {
            let span = s.keys.span("properties").unwrap_or(s.span);
            self.error(
                &codes::KEYWORD_TYPE_MISMATCH,
                format!("`properties` does not apply to `type: {}`", ty.value),
                span,
                "use `type: object` for a value with properties",
            );
        }
    }

    /// Each lower bound is at most its upper bound, so some value is valid.
    fn ranges(&mut self, s: &raw::Schema) {
        for def in &KEYWORDS {
            let Bound::Lower(upper) = def.bound else {
                continue;
            };
            let lo = s.constraint(def.keyword).and_then(|v| v.value.as_f64());
            let hi = s.constraint(upper);
            if let (Some(lo), Some(hi)) = (lo, hi)
                && hi.value.as_f64().is_some_and(|hi| lo > hi)
            {
                let (lo_name, hi_name) = (def.name, upper.name());
                self.error(
                    &codes::EMPTY_RANGE,
                    format!("`{hi_name}` is below `{lo_name}`, so no value is valid"),
                    hi.span,
                    format!("make `{lo_name}` at most `{hi_name}`"),
                );
            }
        }
    }

    /// An integer's bounds lie within its Rust type: the published schema states them, and a
    /// value past the type's own bound would pass the check and never reach the handler.
    fn bounds_fit(&mut self, s: &raw::Schema, schema: &Schema) {
        let Some(ty) = schema.rust_integer() else {
            return;
        };
        for keyword in [Keyword::Minimum, Keyword::Maximum] {
            let Some(Spanned {
                value: Limit::Number(n),
                span,
            }) = s.constraint(keyword)
            else {
                continue;
            };
            // An integer as written, exactly: YAML reads one beyond 64 bits as the nearest
            // float, and −2^63 − 1 rounds to −2^63, which the type holds.
            let written = self.text.get(span.start..span.end).unwrap_or_default();
            let (min, max) = (ty.min(), ty.max());
            let fits = match written.parse::<i128>() {
                Ok(whole) => ty.range().contains(&whole),
                Err(_) => ty.fits(n),
            };
            if fits {
                continue;
            }
            let name = keyword.name();
            let help = match ty {
                RustInteger::U64 => format!(
                    "the handler receives it as a `u64`, which holds {min} to {max}: keep `{name}` within that, or remove it and the published schema states `u64`'s own"
                ),
                // A narrower type is chosen to hold both bounds, so only the widest meets one
                // beyond it.
                _ => format!(
                    "the handler receives it as an `i64`, which holds {min} to {max}: keep `{name}` within that, or remove it and the published schema states `i64`'s own; with `minimum: 0` it is a `u64`"
                ),
            };
            // As written: `1e20` is how JSON would print `100000000000000000000`.
            self.error(
                &codes::BOUND_OUT_OF_RANGE,
                format!(
                    "`{name}: {written}` lies beyond what the generated `{}` holds",
                    ty.name()
                ),
                *span,
                help,
            );
        }
    }

    /// A pattern compiles, and a format is one JSON Schema defines.
    fn pattern_and_format(&mut self, s: &raw::Schema) {
        // The runtime checks arguments with this engine, so a pattern must compile there.
        if let Some(Spanned {
            value: Limit::Text(p),
            span,
        }) = s.constraint(Keyword::Pattern)
            && let Err(e) = mcp_contract_spec::pattern::compile(p)
        {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or_default().trim();
            // The engine says "not supported" of what is a regular expression elsewhere.
            let message = if reason.contains("not supported") {
                format!(
                    "the pattern does not compile for the run-time argument checks \
                     (Rust's `regex-lite`: no look-around, backreferences or `\\p{{...}}` \
                     classes): {reason}, in {p:?}"
                )
            } else {
                format!("the pattern is not a valid regular expression: {reason}, in {p:?}")
            };
            self.report(&codes::BAD_PATTERN, message, *span);
        }
        if let Some(Spanned {
            value: Limit::Text(f),
            span,
        }) = s.constraint(Keyword::Format)
            && Format::parse(f).is_none()
        {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
            let help = match suggest(f, &names) {
                Some(g) => format!("did you mean `{g}`?"),
                None => format!("the JSON Schema formats are: {}", names.join(", ")),
            };
            self.error(
                &codes::UNKNOWN_FORMAT,
                format!("unknown format `{f}`"),
                *span,
                help,
            );
        }
    }

    /// The schema's type, with the enum, items or fields it carries.
    fn type_kind(
        &mut self,
        s: &raw::Schema,
        ty: &Spanned<String>,
        rust_name: &str,
        place: Place,
        scope: &Scope<'_>,
    ) -> Option<Kind> {
        Some(match ty.value.as_str() {
            "string" => match &s.enum_values {
                None => Kind::String,
                Some(values) => {
                    Kind::Enum(self.enumeration(&values.value, rust_name, values.span)?)
                }
            },
            "integer" => Kind::Integer,
            "number" => Kind::Number,
            "boolean" => Kind::Boolean,
            "json" => Kind::Json,
            "array" => {
                let Some(items) = &s.items else {
                    self.error(
                        &codes::MISSING_FIELD,
                        "an array is missing the required key `items`",
                        ty.span,
                        "add `items:` with the items' schema, e.g. `items: {type: string}`",
                    );
                    return None;
                };
                Kind::Array(Box::new(self.schema(items, rust_name, place, scope)?))
            }
            "object" => {
                let Some(props) = &s.properties else {
                    self.error(
                        &codes::MISSING_FIELD,
                        "an object is missing the required key `properties`",
                        ty.span,
                        "list its fields under `properties:`",
                    );
                    return None;
                };
                self.claim_type(rust_name.to_owned(), ty.span, "nested");
                // A shared type's fields keep `Shared`, so `header:` on one is refused.
                let fields = self.fields(props, rust_name, place, false, scope);
                Kind::Object(ObjectDef {
                    rust_name: rust_name.to_owned(),
                    fields,
                })
            }
            other => match scope.index.get(other) {
                Some(&i) => Kind::Named(i),
                None => {
                    let mut known: Vec<&str> = JSON_TYPES.to_vec();
                    known.extend(scope.types.iter().map(|t| t.name.value.as_str()));
                    self.unknown(ty, Referent::Type, known.into_iter());
                    return None;
                }
            },
        })
    }

    /// A string enum's values and their Rust variants, which must differ.
    fn enumeration(
        &mut self,
        values: &[Spanned<String>],
        rust_name: &str,
        span: Span,
    ) -> Option<EnumDef> {
        if values.is_empty() {
            self.report(&codes::EMPTY_ENUM, "an enum needs at least one value", span);
            return None;
        }
        let mut variants = NameTable::default();
        let mut out = Vec::new();
        for (position, v) in values.iter().enumerate() {
            let variant = ident::variant(&v.value, position + 1);
            // The value stays: it is still on the wire, so an example naming it is valid.
            if let Err(first) = variants.claim(&variant, v.span) {
                self.collision(
                    format!(
                        "`{}` becomes the variant `{variant}`, which another value already has",
                        v.value
                    ),
                    v.span,
                    Some((first, "this value has the same Rust name")),
                    "enum values must differ after conversion to PascalCase",
                );
            }
            out.push((v.value.clone(), variant));
        }
        self.claim_type(rust_name.to_owned(), span, "enum");
        Some(EnumDef {
            rust_name: rust_name.to_owned(),
            values: out,
        })
    }
}

/// The constraint keywords as written, each `format` one of the closed list (an unknown one
/// is reported and left out).
fn constraints(s: &raw::Schema) -> Constraints {
    Constraints(
        s.constraints
            .iter()
            .filter_map(|(k, v)| match (&v.value, *k) {
                (Limit::Text(f), Keyword::Format) => {
                    Format::parse(f).map(|f| (*k, Limit::Format(f), Some(v.span)))
                }
                (value, k) => Some((k, value.clone(), Some(v.span))),
            })
            .collect(),
    )
}
