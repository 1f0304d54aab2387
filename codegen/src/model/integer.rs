//! Which Rust type a number schema becomes, what that type holds, and whether a value fits it:
//! decided once here, for the validator (a default, an example and a bound must fit), the Rust
//! emitter (the field's type) and the published input schema (the bounds no manifest wrote).

use serde_json::{Number, Value};

use super::{Constraints, Contract, Kind, Schema};
use crate::keyword::{Keyword, Limit};

/// The Rust type of an `integer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RustInteger {
    /// Under `minimum` 0 or more: the value can never be negative.
    U64,
    /// Otherwise.
    I64,
}

impl RustInteger {
    /// The type's name, as the generated code spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RustInteger::U64 => "u64",
            RustInteger::I64 => "i64",
        }
    }

    /// The values the type holds.
    pub(crate) fn range(self) -> std::ops::RangeInclusive<i128> {
        match self {
            RustInteger::U64 => 0..=i128::from(u64::MAX),
            RustInteger::I64 => i128::from(i64::MIN)..=i128::from(i64::MAX),
        }
    }

    /// The smallest value the type holds.
    pub(crate) fn min(self) -> Number {
        match self {
            RustInteger::U64 => Number::from(u64::MIN),
            RustInteger::I64 => Number::from(i64::MIN),
        }
    }

    /// The largest value the type holds.
    pub(crate) fn max(self) -> Number {
        match self {
            RustInteger::U64 => Number::from(u64::MAX),
            RustInteger::I64 => Number::from(i64::MAX),
        }
    }

    /// Whether the type holds `n`; a whole float (`2.0`) is an integer in JSON Schema, and
    /// the generated code reads it as one.
    pub(crate) fn fits(self, n: &Number) -> bool {
        // 2^64 and 2^63, exactly representable as f64.
        match self {
            RustInteger::U64 => {
                n.as_u64().is_some()
                    || n.as_f64()
                        .is_some_and(|f| (0.0..18_446_744_073_709_551_616.0).contains(&f))
            }
            RustInteger::I64 => {
                n.as_i64().is_some()
                    || n.as_f64().is_some_and(|f| {
                        (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f)
                    })
            }
        }
    }
}

impl Schema {
    /// The Rust integer this schema becomes, when it is an `integer` written inline.
    pub(crate) fn rust_integer(&self) -> Option<RustInteger> {
        let Kind::Integer = self.kind else {
            return None;
        };
        let non_negative = self
            .constraints
            .number(Keyword::Minimum)
            .is_some_and(|m| m >= 0.0);
        Some(if non_negative {
            RustInteger::U64
        } else {
            RustInteger::I64
        })
    }
}

impl Schema {
    /// The constraints this schema publishes as an input: those written, and for a number
    /// whose manifest gives no `minimum` or `maximum` the bound of the Rust type the handler
    /// receives it as (`u64`, `i64` or `f64`), so the published schema never admits a value
    /// the handler cannot receive. An output's handler sets the value in that type, so an
    /// output publishes only what is written.
    pub(crate) fn input_constraints(&self) -> Constraints {
        let (min, max) = match (&self.kind, self.rust_integer()) {
            (_, Some(ty)) => (ty.min(), ty.max()),
            (Kind::Number, None) => {
                match (Number::from_f64(f64::MIN), Number::from_f64(f64::MAX)) {
                    (Some(min), Some(max)) => (min, max),
                    _ => return self.constraints.clone(),
                }
            }
            _ => return self.constraints.clone(),
        };
        // `minimum` and `maximum` are the only constraints a number takes, in this order.
        let out = [(Keyword::Minimum, min), (Keyword::Maximum, max)].map(|(keyword, implied)| {
            let written = self.constraints.get(keyword).cloned();
            (keyword, written.unwrap_or(Limit::Number(implied)))
        });
        Constraints(out.into())
    }
}

impl Contract {
    /// The first place in a (validated) value of `schema` that holds an integer its Rust type
    /// cannot, as a JSON pointer and that type; the generated code would otherwise saturate it.
    pub(crate) fn integer_out_of_range(
        &self,
        schema: &Schema,
        value: &Value,
        at: &str,
    ) -> Option<(String, RustInteger)> {
        match (&schema.kind, value) {
            (Kind::Named(i), v) => self.integer_out_of_range(&self.types[*i].schema, v, at),
            (Kind::Integer, Value::Number(n)) => schema
                .rust_integer()
                .filter(|ty| !ty.fits(n))
                .map(|ty| (at.to_owned(), ty)),
            (Kind::Array(items), Value::Array(values)) => values
                .iter()
                .enumerate()
                .find_map(|(i, v)| self.integer_out_of_range(items, v, &format!("{at}/{i}"))),
            (Kind::Object(o), Value::Object(given)) => o.fields.iter().find_map(|f| {
                given.get(&f.name).and_then(|v| {
                    self.integer_out_of_range(&f.schema, v, &format!("{at}/{}", f.name))
                })
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keyword::Limit;
    use crate::model::Constraints;

    fn integer(minimum: Option<i64>) -> Schema {
        Schema {
            kind: Kind::Integer,
            description: None,
            examples: Vec::new(),
            constraints: Constraints(
                minimum
                    .map(|m| (Keyword::Minimum, Limit::Number(m.into())))
                    .into_iter()
                    .collect(),
            ),
        }
    }

    #[test]
    fn an_integer_is_unsigned_exactly_when_its_minimum_is_not_negative() {
        assert_eq!(integer(Some(0)).rust_integer(), Some(RustInteger::U64));
        assert_eq!(integer(Some(-1)).rust_integer(), Some(RustInteger::I64));
        assert_eq!(integer(None).rust_integer(), Some(RustInteger::I64));
        let text = Schema {
            kind: Kind::String,
            ..integer(Some(0))
        };
        assert_eq!(text.rust_integer(), None);
    }

    #[test]
    fn a_value_fits_up_to_the_types_bounds_whole_floats_included() {
        let n = |v: Value| v.as_number().cloned().expect("a number");
        assert!(RustInteger::U64.fits(&n(serde_json::json!(u64::MAX))));
        assert!(!RustInteger::U64.fits(&n(serde_json::json!(-1))));
        assert!(RustInteger::U64.fits(&n(serde_json::json!(2.0))));
        assert!(RustInteger::I64.fits(&n(serde_json::json!(i64::MIN))));
        assert!(!RustInteger::I64.fits(&n(serde_json::json!(u64::MAX))));
        assert!(!RustInteger::I64.fits(&n(serde_json::json!(1e19))));
    }
}
