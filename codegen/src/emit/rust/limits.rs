//! The values a tool's parameters declare, each `default`, `minimum` and `maximum`, as
//! associated constants of its arguments struct (`FindFilesArgs::MAX_LIMIT`), so a handler
//! names the manifest's number instead of writing it a second time.

use serde_json::{Number, Value};

use super::*;
use crate::keyword::{Keyword, Limit};

/// A parameter's constants, and the expression of its default when the default is one of them.
#[derive(Default)]
pub(super) struct Declared {
    /// `pub const DEFAULT_…`, `MIN_…`, `MAX_…`, each documented.
    pub constants: Vec<Constant>,
    /// `Self::DEFAULT_…`, as the field's type.
    pub default: Option<String>,
}

/// `pub const NAME: TYPE = VALUE;` under its doc, as Rust text (type and value are a handful
/// of tokens: a literal, a path, a negative number).
pub(super) struct Constant {
    pub doc: String,
    pub name: String,
    pub ty: String,
    pub value: String,
}

impl Constant {
    pub(super) fn write(&self, w: &mut Code, depth: usize) {
        w.doc(depth, &self.doc);
        ln!(
            w,
            depth,
            "pub const {}: {} = {};",
            self.name,
            self.ty,
            self.value
        );
    }
}

/// The constants of one parameter. A default gets one when it is a value a constant can hold
/// (a string, number, boolean or enum value; not an array or object), a bound when the
/// parameter is a number and the bound fits its Rust type exactly.
pub(super) fn declared(c: &Contract, f: &Field) -> Declared {
    let name = &f.name;
    let upper = crate::ident::shouty(f.ident.trim_start_matches("r#"));
    let ty = rust_type(c, &f.schema);
    let schema = resolved(c, &f.schema);
    let mut constants = Vec::new();
    let default = f.default.as_ref().and_then(|value| {
        let (ty, value) = constant(c, &f.schema, value)?;
        let id = format!("DEFAULT_{upper}");
        let default = match schema.kind {
            Kind::String => format!("Self::{id}.into()"),
            _ => format!("Self::{id}"),
        };
        constants.push(Constant {
            doc: format!(
                "The default of `{name}`: what the handler receives when a call leaves it out."
            ),
            name: id,
            ty,
            value,
        });
        Some(default)
    });
    let bounds = [
        ("MIN", "smallest", Keyword::Minimum),
        ("MAX", "largest", Keyword::Maximum),
    ];
    for (prefix, which, keyword) in bounds {
        let bound = match schema.constraints.get(keyword) {
            Some(Limit::Number(n)) => n.clone(),
            Some(Limit::Count(n)) => Number::from(*n),
            _ => continue,
        };
        let Some(value) = number(schema, &bound) else {
            continue;
        };
        constants.push(Constant {
            doc: format!(
                "The {which} `{name}` a call may pass (`{}` in the input schema).",
                keyword.name()
            ),
            name: format!("{prefix}_{upper}"),
            ty: ty.clone(),
            value,
        });
    }
    Declared { constants, default }
}

/// A scalar value as a constant's type and expression; `None` for arrays and objects, which a
/// constant cannot hold as the field's type (`Vec`, a struct of `String`s).
fn constant(c: &Contract, schema: &Schema, value: &Value) -> Option<(String, String)> {
    match (&schema.kind, value) {
        (Kind::Named(i), v) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Enum(e) => Some((t.name.clone(), enum_text(&t.name, e, v)?)),
                _ => constant(c, &t.schema, v),
            }
        }
        (Kind::String, Value::String(s)) => Some(("&str".into(), string(s))),
        (Kind::Boolean, Value::Bool(b)) => Some(("bool".into(), b.to_string())),
        (Kind::Integer | Kind::Number, Value::Number(n)) => {
            Some((rust_type(c, schema), number(schema, n)?))
        }
        (Kind::Enum(e), v) => Some((e.rust_name.clone(), enum_text(&e.rust_name, e, v)?)),
        _ => None,
    }
}

/// A number as a literal of the schema's Rust type (`u64`, `i64` or `f64`), unsuffixed, since
/// the constant states its type; `None` for an integer bound that type cannot hold exactly
/// (`minimum: 0.5`, or beyond 64 bits).
fn number(schema: &Schema, n: &Number) -> Option<String> {
    let negative = |magnitude: String, below_zero: bool| {
        if below_zero {
            format!("-{magnitude}")
        } else {
            magnitude
        }
    };
    match schema.kind {
        Kind::Number => {
            let f = n.as_f64()?;
            Some(negative(format!("{:?}", f.abs()), f < 0.0))
        }
        _ => {
            if !schema.rust_integer().is_some_and(|ty| ty.fits(n)) {
                return None;
            }
            let whole = match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => i128::from(i),
                (None, Some(u), _) => i128::from(u),
                // A whole float within the type's range, as `fits` said.
                (None, None, Some(f)) if f.fract() == 0.0 => f as i128,
                _ => return None,
            };
            Some(negative(whole.unsigned_abs().to_string(), whole < 0))
        }
    }
}

/// The schema a shared type's name stands for; any other schema as it is.
fn resolved<'c>(c: &'c Contract, schema: &'c Schema) -> &'c Schema {
    match schema.kind {
        Kind::Named(i) => resolved(c, &c.types[i].schema),
        _ => schema,
    }
}
