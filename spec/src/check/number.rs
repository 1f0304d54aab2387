//! Numbers as JSON Schema compares them: by value, exactly, whatever serde_json stored them
//! as (`u64`, `i64` or `f64`); `1` and `1.0` are equal, and `1.0` is an integer.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

/// A number as one of the two exact forms it can take.
#[derive(Clone, Copy)]
enum Exact {
    Int(i128),
    Float(f64),
}

fn exact(n: &Number) -> Exact {
    if let Some(u) = n.as_u64() {
        Exact::Int(i128::from(u))
    } else if let Some(i) = n.as_i64() {
        Exact::Int(i128::from(i))
    } else {
        Exact::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Whether `n` is an integer: stored as one, or a float without a fraction.
pub(super) fn is_integer(n: &Number) -> bool {
    n.is_u64() || n.is_i64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// `i` against `f`, exactly.
fn int_float(i: i128, f: f64) -> Ordering {
    // Every float beyond ±2^100 lies beyond every 64-bit integer.
    const BEYOND: f64 = 1_267_650_600_228_229_401_496_703_205_376.0;
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f >= BEYOND {
        return Ordering::Less;
    }
    if f <= -BEYOND {
        return Ordering::Greater;
    }
    let whole = f.floor();
    // Exact: a float below 2^100 in magnitude with no fraction is an integer i128 holds.
    let floor = whole as i128;
    match i.cmp(&floor) {
        Ordering::Equal if f > whole => Ordering::Less,
        other => other,
    }
}

fn compare(a: &Number, b: &Number) -> Ordering {
    match (exact(a), exact(b)) {
        (Exact::Int(x), Exact::Int(y)) => x.cmp(&y),
        (Exact::Float(x), Exact::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Exact::Int(x), Exact::Float(y)) => int_float(x, y),
        (Exact::Float(x), Exact::Int(y)) => int_float(y, x).reverse(),
    }
}

/// Whether `a < b`.
pub(super) fn less(a: &Number, b: &Number) -> bool {
    compare(a, b) == Ordering::Less
}

/// Whether `n` is a whole multiple of `of` (above 0).
pub(super) fn is_multiple(n: &Number, of: &Number) -> bool {
    match (exact(n), exact(of)) {
        (Exact::Int(x), Exact::Int(y)) => x % y == 0,
        // The remainder of two floats is exact, so this is the exact answer for the floats.
        _ => n.as_f64().unwrap_or(0.0) % of.as_f64().unwrap_or(1.0) == 0.0,
    }
}

/// JSON equality with numbers compared by value.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => equal_maps(x, y),
        _ => a == b,
    }
}

/// [`equal`] of two objects, in any order of keys.
pub(super) fn equal_maps(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| equal(v, w)))
}
