//! Arguments that passed the input schema, read into the generated structs by the `Read`
//! impls the generator writes: each field taken out of the checked object and converted by
//! its type. The schema has already refused every wrong shape, so this is a handful of moves
//! and matches, not serde's visitors, which were most of a server crate's compile time.

use mcp_contract_spec::pointer;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::arguments::exact_integer;

/// A value read from arguments, or why it could not be.
pub type Reading<T> = Result<T, Unread>;

/// A value that does not fit its Rust type, where it is and what was expected there. The
/// schema checks first, so this is a generator fault; it is answered as an invalid argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Unread {
    /// The path to the value, innermost segment first (pushed as the error goes out).
    inside: Vec<Segment>,
    expected: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Field(&'static str),
    Index(usize),
}

impl Unread {
    fn expected(expected: &'static str) -> Self {
        Unread {
            inside: Vec::new(),
            expected,
        }
    }

    fn within(mut self, segment: Segment) -> Self {
        self.inside.push(segment);
        self
    }

    /// The JSON pointer of the value in the arguments (`/window/start`).
    pub(crate) fn at(&self) -> String {
        let mut at = String::new();
        for segment in self.inside.iter().rev() {
            match segment {
                Segment::Field(name) => {
                    at.push('/');
                    at.push_str(&pointer::escape(name));
                }
                Segment::Index(index) => at.push_str(&format!("/{index}")),
            }
        }
        at
    }

    /// What the Rust type needed (`an integer that fits u64`), for the log.
    pub(crate) fn expectation(&self) -> &'static str {
        self.expected
    }
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at().as_str() {
            "" => write!(f, "expected {}", self.expected),
            at => write!(f, "`{at}`: expected {}", self.expected),
        }
    }
}

/// Reads a `T` by its `Read` impl from what `deserializer` holds: the `Deserialize` of a
/// generated question form, so that a form's fields and their defaults are read as a call's
/// arguments are, by one mechanism.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Read,
{
    let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
    T::read(value).map_err(serde::de::Error::custom)
}

/// A Rust type generated arguments hold, read from JSON the input schema accepted.
pub trait Read: Sized {
    /// Reads a value.
    fn read(value: Value) -> Reading<Self>;

    /// The value of a field the call left out: none, unless the type is an `Option`.
    fn absent() -> Reading<Self> {
        Err(Unread::expected("a value"))
    }
}

/// An object whose fields a generated `Read` impl takes out one by one.
pub struct Object(JsonObject);

impl Object {
    /// The object `value` is.
    pub fn new(value: Value) -> Reading<Self> {
        match value {
            Value::Object(fields) => Ok(Object(fields)),
            _ => Err(Unread::expected("an object")),
        }
    }

    /// The field `name`, read as its type.
    pub fn field<T: Read>(&mut self, name: &'static str) -> Reading<T> {
        match self.0.remove(name) {
            Some(value) => T::read(value),
            None => T::absent(),
        }
        .map_err(|e| e.within(Segment::Field(name)))
    }

    /// The field `name`, or `default()` when the call left it out.
    pub fn field_or<T: Read>(&mut self, name: &'static str, default: fn() -> T) -> Reading<T> {
        match self.0.remove(name) {
            Some(value) => T::read(value).map_err(|e| e.within(Segment::Field(name))),
            None => Ok(default()),
        }
    }
}

/// The wire name an enum value is sent as, which a generated `Read` impl matches.
pub fn variant(value: Value) -> Reading<String> {
    String::read(value)
}

/// The value of a tagged union's tag, `name`, which names the variant a generated `Read` impl
/// reads the object as; the object is left whole, and its variant's struct takes its fields.
pub fn tag(value: &Value, name: &'static str) -> Reading<String> {
    match value.get(name) {
        Some(Value::String(tag)) => Ok(tag.clone()),
        Some(_) => Err(Unread::expected("a string").within(Segment::Field(name))),
        None => Err(Unread::expected("a value").within(Segment::Field(name))),
    }
}

/// A string that names none of the enum's values.
pub fn unknown_variant<T>() -> Reading<T> {
    Err(Unread::expected("one of the enum's values"))
}

impl Read for String {
    fn read(value: Value) -> Reading<Self> {
        match value {
            Value::String(s) => Ok(s),
            _ => Err(Unread::expected("a string")),
        }
    }
}

impl Read for bool {
    fn read(value: Value) -> Reading<Self> {
        value.as_bool().ok_or(Unread::expected("a boolean"))
    }
}

impl Read for f64 {
    fn read(value: Value) -> Reading<Self> {
        value.as_f64().ok_or(Unread::expected("a number"))
    }
}

/// JSON Schema counts `5.0` as an integer, and clients (Python's among them) send such
/// numbers: a whole float reads as the integer it is, when a 64-bit integer holds it exactly.
fn integer(value: &Value) -> Option<Value> {
    let n = value.as_number()?;
    if n.is_i64() || n.is_u64() {
        None
    } else {
        n.as_f64().and_then(exact_integer)
    }
}

impl Read for u64 {
    fn read(value: Value) -> Reading<Self> {
        value
            .as_u64()
            .or_else(|| integer(&value)?.as_u64())
            .ok_or(Unread::expected("an integer that fits u64"))
    }
}

impl Read for i64 {
    fn read(value: Value) -> Reading<Self> {
        value
            .as_i64()
            .or_else(|| integer(&value)?.as_i64())
            .ok_or(Unread::expected("an integer that fits i64"))
    }
}

/// The narrower integers, which the generator chooses when the manifest bounds a parameter
/// (`minimum: 1, maximum: 50` is a `u8`). The input schema publishes those bounds and the
/// call was checked against them, so the value always fits: a failed narrowing cannot
/// happen, and if it did (a generator fault) it is refused as an unread argument, never
/// truncated or panicked on.
macro_rules! narrow {
    ($($ty:ty => $wide:ty, $expected:literal;)*) => {$(
        impl Read for $ty {
            fn read(value: Value) -> Reading<Self> {
                <$wide>::read(value)
                    .ok()
                    .and_then(|wide| <$ty>::try_from(wide).ok())
                    .ok_or(Unread::expected($expected))
            }
        }
    )*};
}

narrow! {
    u8 => u64, "an integer that fits u8";
    u16 => u64, "an integer that fits u16";
    u32 => u64, "an integer that fits u32";
    i8 => i64, "an integer that fits i8";
    i16 => i64, "an integer that fits i16";
    i32 => i64, "an integer that fits i32";
}

impl Read for Value {
    /// Any JSON, as sent, but for whole floats read as integers, as everywhere else.
    fn read(mut value: Value) -> Reading<Self> {
        whole_floats_as_integers(&mut value);
        Ok(value)
    }
}

fn whole_floats_as_integers(value: &mut Value) {
    match value {
        Value::Number(_) => {
            if let Some(integer) = integer(value) {
                *value = integer;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_floats_as_integers),
        Value::Object(map) => map.values_mut().for_each(whole_floats_as_integers),
        _ => {}
    }
}

impl<T: Read> Read for Option<T> {
    /// `null` reads as `None`, as a left-out field does.
    fn read(value: Value) -> Reading<Self> {
        match value {
            Value::Null => Ok(None),
            value => T::read(value).map(Some),
        }
    }

    fn absent() -> Reading<Self> {
        Ok(None)
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(value: Value) -> Reading<Self> {
        match value {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| T::read(item).map_err(|e| e.within(Segment::Index(i))))
                .collect(),
            _ => Err(Unread::expected("an array")),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_union_s_tag_is_read_in_place_and_its_absence_named_where_it_belongs() {
        let value = json!({"kind": "insert", "before": 1});
        assert_eq!(tag(&value, "kind"), Ok("insert".to_owned()));
        assert_eq!(value["before"], 1, "the object stays whole for its variant");
        let missing = tag(&json!({"before": 1}), "kind").expect_err("no tag");
        assert_eq!(
            (missing.at(), missing.expectation()),
            ("/kind".to_owned(), "a value")
        );
        let number = tag(&json!({"kind": 1}), "kind").expect_err("not a string");
        assert_eq!(number.expectation(), "a string");
    }

    #[test]
    fn a_narrow_integer_reads_what_fits_it_and_refuses_what_does_not() {
        assert_eq!(u8::read(json!(50)), Ok(50));
        assert_eq!(u8::read(json!(255.0)), Ok(255));
        assert_eq!(i8::read(json!(-128)), Ok(-128));
        assert_eq!(u32::read(json!(4_294_967_295u64)), Ok(u32::MAX));
        let refused = u8::read(json!(256)).expect_err("256 is no u8");
        assert_eq!(refused.expectation(), "an integer that fits u8");
        let refused = i16::read(json!(-40_000)).expect_err("-40000 is no i16");
        assert_eq!(refused.expectation(), "an integer that fits i16");
    }
}
