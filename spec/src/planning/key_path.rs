//! Where a planning contract sits in a tool's `_meta`: a key path. The first key is a `_meta`
//! key, each next one a key of the object the one before names, so `["gnougo", "artifacts"]`
//! is `_meta.gnougo.artifacts`. A path of one key is the common case.
//!
//! A list, not a dotted string: `_meta` keys such as `com.example/artifacts` contain dots.
//! Two contracts may share a parent object (`gnougo`); the generator publishes both in it,
//! and a reader follows the path down.

use serde_json::{Map, Value};

/// The value at `path` in `meta`; `None` when a key is missing or leads into a non-object,
/// and for the empty path, which names no entry.
pub fn lookup<'m, K: AsRef<str>>(meta: &'m Map<String, Value>, path: &[K]) -> Option<&'m Value> {
    let (last, parents) = path.split_last()?;
    let mut object = meta;
    for key in parents {
        object = object.get(key.as_ref())?.as_object()?;
    }
    object.get(last.as_ref())
}

/// Puts `value` at `path` in `meta`, creating the parent objects it needs and keeping what
/// an existing parent object already holds (a contract published there before). A parent
/// that is not an object is replaced: the generator refuses a manifest that would write one.
/// The empty path puts nothing.
pub fn place<K: AsRef<str>>(meta: &mut Map<String, Value>, path: &[K], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut object = meta;
    for key in parents {
        let entry = object
            .entry(key.as_ref())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        object = entry.as_object_mut().expect("made an object above");
    }
    object.insert(last.as_ref().to_owned(), value);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().expect("an object").clone()
    }

    #[test]
    fn two_contracts_share_their_parent_and_read_back() {
        let mut meta = map(json!({"com.example/category": "docs"}));
        place(&mut meta, &["gnougo", "artifacts"], json!({"version": 1}));
        place(&mut meta, &["gnougo", "composition"], json!({"version": 1}));
        assert_eq!(
            Value::Object(meta.clone()),
            json!({"com.example/category": "docs",
                   "gnougo": {"artifacts": {"version": 1}, "composition": {"version": 1}}})
        );
        assert_eq!(
            lookup(&meta, &["gnougo", "composition"]),
            Some(&json!({"version": 1}))
        );
        assert_eq!(lookup(&meta, &["gnougo"]).map(Value::is_object), Some(true));
    }

    #[test]
    fn one_key_is_a_plain_entry_with_its_dots() {
        let mut meta = Map::new();
        place(&mut meta, &["com.example/artifacts"], json!(1));
        assert_eq!(
            Value::Object(meta.clone()),
            json!({"com.example/artifacts": 1})
        );
        assert_eq!(lookup(&meta, &["com.example/artifacts"]), Some(&json!(1)));
        assert_eq!(lookup(&meta, &["com", "example/artifacts"]), None);
    }

    #[test]
    fn a_missing_key_or_a_non_object_parent_finds_nothing() {
        let meta = map(json!({"gnougo": 3, "a": {"b": {}}}));
        assert_eq!(lookup(&meta, &["gnougo", "artifacts"]), None);
        assert_eq!(lookup(&meta, &["a", "c"]), None);
        assert_eq!(lookup(&meta, &["a", "b"]), Some(&json!({})));
        assert_eq!(lookup::<&str>(&meta, &[]), None);
        let mut replaced = meta.clone();
        place(&mut replaced, &["gnougo", "artifacts"], json!(1));
        assert_eq!(replaced["gnougo"], json!({"artifacts": 1}));
        place::<&str>(&mut replaced, &[], json!(1));
        assert_eq!(replaced.len(), 2);
    }
}
