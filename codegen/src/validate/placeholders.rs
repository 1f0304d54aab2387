//! What an error's placeholders hold: `string` unless its `placeholders:` gives another of the
//! parameters' scalar types, an `integer` sized by its bounds as a parameter is. A declared
//! placeholder must be in a template, and one named like a parameter of a tool that lists the
//! error should hold the same kind of value, so a handler passes the argument on as it is: a
//! warning, since a manifest from before `placeholders:` (every field a string) is still sound.

use super::Validator;
use crate::diagnostic::{Diagnostic, codes, suggest};
use crate::keyword::{Keyword, Limit};
use crate::manifest::{self as raw, Manifest};
use crate::model::{
    Constraints, Contract, Kind, PlaceholderType, RustInteger, Schema, TemplateField,
};
use crate::source::Spanned;

/// The types a placeholder may hold, as a parameter's `type` names them.
const TYPES: [&str; 4] = ["string", "integer", "number", "boolean"];

impl Validator<'_> {
    /// The fields of an error's templates, `names` in first-use order, each typed by the
    /// error's `placeholders:` (a `String` when it does not name it). When the templates
    /// `parsed`, each placeholder declared must be one of them.
    pub(super) fn template_fields(
        &mut self,
        e: &raw::ErrorDef,
        names: &[String],
        parsed: bool,
    ) -> Vec<TemplateField> {
        for p in &e.placeholders {
            if parsed && !names.contains(&p.name.value) {
                let fields: Vec<&str> = names.iter().map(String::as_str).collect();
                let help = match suggest(&p.name.value, &fields) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "write `{{{}}}` in the message or the hint, or remove it from `placeholders:`",
                        p.name.value
                    ),
                };
                self.error(
                    &codes::UNKNOWN_PLACEHOLDER,
                    format!(
                        "`{}` is not a placeholder of the message or the hint of `{}`",
                        p.name.value, e.code.value
                    ),
                    p.name.span,
                    help,
                );
            }
        }
        names
            .iter()
            .map(|name| {
                let declared = e.placeholders.iter().find(|p| &p.name.value == name);
                TemplateField {
                    name: name.clone(),
                    ty: declared.map_or(PlaceholderType::String, |p| self.placeholder_type(p)),
                }
            })
            .collect()
    }

    /// The type a placeholder declares; `string` after a finding, so the rest still builds.
    fn placeholder_type(&mut self, p: &raw::Placeholder) -> PlaceholderType {
        let Some(ty) = &p.ty else {
            return PlaceholderType::String;
        };
        let bounds = [
            (Keyword::Minimum, &p.minimum),
            (Keyword::Maximum, &p.maximum),
        ];
        let written: Vec<_> = bounds
            .iter()
            .filter_map(|(k, b)| b.as_ref().map(|b| (*k, b)))
            .collect();
        let placeholder = match ty.value.as_str() {
            "string" => PlaceholderType::String,
            "number" => PlaceholderType::Number,
            "boolean" => PlaceholderType::Boolean,
            "integer" => return self.integer_placeholder(&written),
            other => {
                let help = match suggest(other, &TYPES) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "a placeholder holds a `string` (the default), an `integer`, a `number` or a `boolean`".into(),
                };
                self.error(
                    &codes::UNKNOWN_TYPE,
                    format!("`{other}` is not a type a placeholder can hold"),
                    ty.span,
                    help,
                );
                return PlaceholderType::String;
            }
        };
        for (keyword, bound) in written {
            self.error(
                &codes::KEYWORD_TYPE_MISMATCH,
                format!(
                    "`{}` does not apply to a `{}` placeholder",
                    keyword.name(),
                    ty.value
                ),
                bound.span,
                format!(
                    "bounds choose an integer placeholder's Rust type; remove `{}`",
                    keyword.name()
                ),
            );
        }
        placeholder
    }

    /// An `integer` placeholder: the Rust integer its bounds choose, as for a parameter, the
    /// bounds in order and within that type.
    fn integer_placeholder(
        &mut self,
        bounds: &[(Keyword, &Spanned<serde_json::Number>)],
    ) -> PlaceholderType {
        let schema = Schema {
            kind: Kind::Integer,
            description: None,
            examples: Vec::new(),
            constraints: Constraints(
                bounds
                    .iter()
                    .map(|(k, b)| (*k, Limit::Number(b.value.clone()), Some(b.span)))
                    .collect(),
            ),
        };
        let ty = schema.rust_integer().unwrap_or(RustInteger::I64);
        if let [(_, lo), (_, hi)] = bounds
            && lo.value.as_f64() > hi.value.as_f64()
        {
            self.error(
                &codes::EMPTY_RANGE,
                "`maximum` is below `minimum`, so no value is valid",
                hi.span,
                "make `minimum` at most `maximum`",
            );
            return PlaceholderType::Integer(ty);
        }
        for (keyword, bound) in bounds {
            if !ty.fits(&bound.value) {
                let written = self
                    .text
                    .get(bound.span.start..bound.span.end)
                    .unwrap_or_default();
                self.error(
                    &codes::BOUND_OUT_OF_RANGE,
                    format!(
                        "`{}: {written}` lies beyond what the generated `{}` holds",
                        keyword.name(),
                        ty.name()
                    ),
                    bound.span,
                    format!(
                        "the field is the widest Rust integer, `{}`; write a bound within it",
                        ty.name()
                    ),
                );
            }
        }
        PlaceholderType::Integer(ty)
    }

    /// Each placeholder named like a parameter of a tool that lists its error holds the same
    /// kind of value as the parameter (`string`, `integer`, `number` or `boolean`; an integer
    /// of any width), so the handler passes the argument on without converting it.
    pub(super) fn placeholders_match_parameters(&mut self, manifest: &Manifest, c: &Contract) {
        for t in &c.tools {
            for &i in &t.errors {
                let (Some(e), Some(written)) = (c.errors.get(i), manifest.errors.get(i)) else {
                    continue;
                };
                for field in &e.fields {
                    let Some(parameter) = t.parameters.iter().find(|p| p.name == field.name) else {
                        continue;
                    };
                    let Some(held) = scalar(c, &parameter.schema) else {
                        continue;
                    };
                    if held == field.ty.manifest_name() {
                        continue;
                    }
                    let declared = written
                        .placeholders
                        .iter()
                        .find(|p| p.name.value == field.name);
                    let (at, help) = match declared {
                        Some(p) => (
                            p.ty.as_ref().map_or(p.name.span, |ty| ty.span),
                            format!(
                                "declare it `{}: {held}`, as the parameter is, or rename the placeholder",
                                field.name
                            ),
                        ),
                        None => (
                            self.placeholder_at(written, &field.name),
                            format!(
                                "declare its type under the error's `placeholders:`, `{}: {held}`, or rename the placeholder",
                                field.name
                            ),
                        ),
                    };
                    self.diags.push(
                        Diagnostic::new(
                            &codes::PLACEHOLDER_TYPE,
                            format!(
                                "the placeholder `{{{}}}` of `{}` holds a {}, but the parameter `{}` of `{}` is {} {held}",
                                field.name,
                                e.code,
                                field.ty.manifest_name(),
                                parameter.name,
                                t.name,
                                if held == "integer" { "an" } else { "a" },
                            ),
                            at,
                        )
                        .related(parameter.span, "the parameter")
                        .help(help),
                    );
                }
            }
        }
    }

    /// Where the templates of `e` write the placeholder `name`: in the message, else the hint.
    fn placeholder_at(&self, e: &raw::ErrorDef, name: &str) -> crate::source::Span {
        let placeholder = format!("{{{name}}}");
        let text = [&e.message, &e.hint]
            .into_iter()
            .flatten()
            .find(|t| t.value.contains(&placeholder));
        text.map_or(e.code.span, |t| self.written(t, &placeholder))
    }
}

/// The placeholder type a parameter's values are, when it is one of them.
fn scalar(c: &Contract, schema: &Schema) -> Option<&'static str> {
    match &schema.kind {
        Kind::String => Some("string"),
        Kind::Integer => Some("integer"),
        Kind::Number => Some("number"),
        Kind::Boolean => Some("boolean"),
        Kind::Named(i) => scalar(c, &c.types.get(*i)?.schema),
        Kind::Json
        | Kind::Document(_)
        | Kind::Enum(_)
        | Kind::Array(_)
        | Kind::Object(_)
        | Kind::Union(_) => None,
    }
}
