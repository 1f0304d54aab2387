//! Which Rust type a number schema becomes, what that type holds, and whether a value fits it:
//! decided once here, for the validator (a default, an example and a bound must fit), the Rust
//! emitter (the field's type) and the published input schema (the bounds no manifest wrote).

use serde_json::{Number, Value};

use super::{Constraints, Contract, Kind, Schema};
use crate::keyword::{Keyword, Limit};

/// The Rust type of an `integer`: the smallest that holds both bounds the manifest gives,
/// unsigned when `minimum` is 0 or more; with a bound missing, `u64` (under `minimum` 0 or
/// more) or `i64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RustInteger {
    U8,
    U16,
    U32,
    /// Under `minimum` 0 or more: the value can never be negative.
    U64,
    I8,
    I16,
    I32,
    /// Otherwise.
    I64,
}

impl RustInteger {
    /// The unsigned types, then the signed, each narrowest first.
    const UNSIGNED: [RustInteger; 4] = [Self::U8, Self::U16, Self::U32, Self::U64];
    const SIGNED: [RustInteger; 4] = [Self::I8, Self::I16, Self::I32, Self::I64];

    /// The type's name, as the generated code spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RustInteger::U8 => "u8",
            RustInteger::U16 => "u16",
            RustInteger::U32 => "u32",
            RustInteger::U64 => "u64",
            RustInteger::I8 => "i8",
            RustInteger::I16 => "i16",
            RustInteger::I32 => "i32",
            RustInteger::I64 => "i64",
        }
    }

    /// The bytes a value takes.
    pub(crate) fn bytes(self) -> usize {
        match self {
            RustInteger::U8 | RustInteger::I8 => 1,
            RustInteger::U16 | RustInteger::I16 => 2,
            RustInteger::U32 | RustInteger::I32 => 4,
            RustInteger::U64 | RustInteger::I64 => 8,
        }
    }

    /// The values the type holds.
    pub(crate) fn range(self) -> std::ops::RangeInclusive<i128> {
        match self {
            RustInteger::U8 => 0..=i128::from(u8::MAX),
            RustInteger::U16 => 0..=i128::from(u16::MAX),
            RustInteger::U32 => 0..=i128::from(u32::MAX),
            RustInteger::U64 => 0..=i128::from(u64::MAX),
            RustInteger::I8 => i128::from(i8::MIN)..=i128::from(i8::MAX),
            RustInteger::I16 => i128::from(i16::MIN)..=i128::from(i16::MAX),
            RustInteger::I32 => i128::from(i32::MIN)..=i128::from(i32::MAX),
            RustInteger::I64 => i128::from(i64::MIN)..=i128::from(i64::MAX),
        }
    }

    /// The smallest value the type holds.
    pub(crate) fn min(self) -> Number {
        // Every type's bounds are within i64 and u64.
        let min = *self.range().start();
        i64::try_from(min).map_or(Number::from(u64::MIN), Number::from)
    }

    /// The largest value the type holds.
    pub(crate) fn max(self) -> Number {
        let max = *self.range().end();
        u64::try_from(max).map_or(Number::from(i64::MAX), Number::from)
    }

    /// Whether the type holds `n`; a whole float (`2.0`) is an integer in JSON Schema, and
    /// the generated code reads it as one.
    pub(crate) fn fits(self, n: &Number) -> bool {
        let range = self.range();
        if let Some(i) = n.as_i64() {
            return range.contains(&i128::from(i));
        }
        if let Some(u) = n.as_u64() {
            return range.contains(&i128::from(u));
        }
        // A float: within the range's ends, which are exact as f64 but for 2^64 − 1 and
        // 2^63 − 1, whose next representable values (2^64, 2^63) lie outside.
        n.as_f64().is_some_and(|f| {
            let (lo, hi) = (*range.start() as f64, *range.end() as f64);
            f >= lo && (f < hi || (f == hi && *range.end() < (1 << 53)))
        })
    }
}

impl Schema {
    /// The Rust integer this schema becomes, when it is an `integer` written inline: see
    /// [`RustInteger`].
    pub(crate) fn rust_integer(&self) -> Option<RustInteger> {
        let Kind::Integer = self.kind else {
            return None;
        };
        let min = self.constraints.number(Keyword::Minimum);
        let max = self.constraints.number(Keyword::Maximum);
        let types = if min.is_some_and(|m| m >= 0.0) {
            RustInteger::UNSIGNED
        } else {
            RustInteger::SIGNED
        };
        let widest = types[3];
        let (Some(min), Some(max)) = (min, max) else {
            return Some(widest);
        };
        let holds = |ty: &RustInteger| {
            let range = ty.range();
            min >= *range.start() as f64 && max <= *range.end() as f64
        };
        // The narrower types' ends are exact as f64; the widest is what a bound beyond it
        // is checked against (`bounds_fit`).
        Some(types[..3].iter().copied().find(holds).unwrap_or(widest))
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
            let span = self.constraints.span(keyword);
            (keyword, written.unwrap_or(Limit::Number(implied)), span)
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
            (Kind::Union(u), v) => u
                .variant(v)
                .and_then(|variant| self.integer_out_of_range(&variant.schema, v, at)),
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
                    .map(|m| (Keyword::Minimum, Limit::Number(m.into()), None))
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

    fn bounded(minimum: f64, maximum: f64) -> Option<RustInteger> {
        let mut schema = integer(None);
        schema.constraints = Constraints(
            [(Keyword::Minimum, minimum), (Keyword::Maximum, maximum)]
                .map(|(k, v)| (k, Limit::Number(Number::from_f64(v).expect("finite")), None))
                .into(),
        );
        schema.rust_integer()
    }

    #[test]
    fn an_integer_with_both_bounds_is_the_narrowest_type_that_holds_them() {
        assert_eq!(bounded(1.0, 50.0), Some(RustInteger::U8));
        assert_eq!(bounded(0.0, 255.0), Some(RustInteger::U8));
        assert_eq!(bounded(0.0, 256.0), Some(RustInteger::U16));
        assert_eq!(bounded(0.0, 65_536.0), Some(RustInteger::U32));
        assert_eq!(bounded(0.0, 4_294_967_296.0), Some(RustInteger::U64));
        assert_eq!(bounded(-10.0, 10.0), Some(RustInteger::I8));
        assert_eq!(bounded(-129.0, 0.0), Some(RustInteger::I16));
        assert_eq!(bounded(-1.0, 40_000.0), Some(RustInteger::I32));
        assert_eq!(bounded(-1.0, 1e10), Some(RustInteger::I64));
        // Past 64 bits the widest type stays, and its bound is refused (`bounds_fit`).
        assert_eq!(bounded(0.0, 1e20), Some(RustInteger::U64));
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
        assert!(RustInteger::U8.fits(&n(serde_json::json!(255.0))));
        assert!(!RustInteger::U8.fits(&n(serde_json::json!(256))));
        assert!(RustInteger::I8.fits(&n(serde_json::json!(-128))));
        assert_eq!(RustInteger::U8.max(), Number::from(255));
        assert_eq!(RustInteger::I16.min(), Number::from(-32_768));
    }
}
