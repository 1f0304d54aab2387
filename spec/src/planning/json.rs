//! The contracts' published JSON, both ways. Reading refuses anything the generator would not
//! write (an unknown field, another version, a missing `mode`), naming where: a planner acting
//! on a half-understood contract is worse than one that ignores it.

use std::fmt;

use serde_json::{Map, Value, json};

use super::{ArtifactContract, Composition, Consumed, Encoding, Mode, Produced, VERSION, is_kind};

const ARTIFACT_FIELDS: &[&str] = &["version", "produces", "consumes"];
const PRODUCED_FIELDS: &[&str] = &["kind", "pointer", "mode", "encoding"];
const CONSUMED_FIELDS: &[&str] = &["kind", "pointer", "required"];
const COMPOSITION_FIELDS: &[&str] = &["version", "kind", "encapsulates"];
const ENCAPSULATED_FIELDS: &[&str] = &["kind", "method"];

/// The `kind` of every composition contract.
const COMPLETE_OPERATION: &str = "complete_operation";
/// The `kind` of every encapsulated capability: a tool, so far.
const TOOL: &str = "tool";

/// Why a published contract was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// Where, as a JSON pointer below the contract's `_meta` key (`""` for the whole entry).
    pub at: String,
    /// What is wrong there.
    pub problem: Problem,
}

/// What is wrong with one place of a published contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not a JSON object.
    NotAnObject,
    /// Not a JSON array.
    NotAnArray,
    /// Not [`VERSION`]: the version found, if any.
    Version(Option<u64>),
    /// A field the contract does not define.
    UnknownField {
        /// The field.
        field: String,
        /// The fields the place may hold.
        known: &'static [&'static str],
    },
    /// This field is missing, or not a non-empty string.
    NotText(&'static str),
    /// This field is missing, or not a string.
    NotAString(&'static str),
    /// A string that is not an [artifact kind](super::is_kind).
    NotAKind(String),
    /// A mode other than `materialize`: the string found, if any.
    Mode(Option<String>),
    /// An encoding other than `json_array`.
    Encoding(Value),
    /// `required` that is not a boolean.
    NotABool(Value),
    /// A composition whose kind is not `complete_operation`: the string found, if any.
    CompositionKind(Option<String>),
    /// An encapsulated capability that is not a tool.
    EntryKind,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotAnObject => f.write_str("must be an object"),
            Problem::NotAnArray => f.write_str("must be an array"),
            Problem::Version(found) => {
                write!(
                    f,
                    "version {VERSION} is the one understood, found {found:?}"
                )
            }
            Problem::UnknownField { field, known } => write!(
                f,
                "unknown field `{field}`; the fields are {}",
                known.join(", ")
            ),
            Problem::NotText(key) => write!(f, "`{key}` must be a non-empty string"),
            Problem::NotAString(key) => write!(f, "`{key}` must be a string"),
            Problem::NotAKind(kind) => write!(
                f,
                "`{kind}` is not a kind: dot-separated lowercase words, such as `workspace.directory`"
            ),
            Problem::Mode(found) => write!(
                f,
                "the mode must be `{}`, found {:?}",
                Mode::Materialize,
                found.as_deref()
            ),
            Problem::Encoding(found) => write!(
                f,
                "unknown encoding {found}; the only one is `{}`",
                Encoding::JsonArray
            ),
            Problem::NotABool(found) => write!(f, "must be true or false, found {found}"),
            Problem::CompositionKind(found) => write!(
                f,
                "the kind must be `{COMPLETE_OPERATION}`, found {:?}",
                found.as_deref()
            ),
            Problem::EntryKind => write!(f, "the kind must be `{TOOL}`"),
        }
    }
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.at, self.problem)
    }
}

impl std::error::Error for Malformed {}

impl ArtifactContract {
    /// The contract as published: `version`, then both lists, always present; `mode` always
    /// written, `encoding` only when set.
    pub fn to_json(&self) -> Value {
        let produces: Vec<Value> = self
            .produces
            .iter()
            .map(|p| {
                let mut entry =
                    json!({ "kind": p.kind, "pointer": p.pointer, "mode": p.mode.as_str() });
                if let Some(encoding) = p.encoding {
                    entry["encoding"] = encoding.as_str().into();
                }
                entry
            })
            .collect();
        let consumes: Vec<Value> = self
            .consumes
            .iter()
            .map(|c| json!({ "kind": c.kind, "pointer": c.pointer, "required": c.required }))
            .collect();
        json!({ "version": VERSION, "produces": produces, "consumes": consumes })
    }

    /// Reads a published contract. Only its shape is checked here; whether each pointer
    /// resolves in the tool's schemas is [`resolve`](crate::pointer::resolve)'s to say.
    ///
    /// # Errors
    ///
    /// The first place that breaks the shape `to_json` writes.
    pub fn from_json(value: &Value) -> Result<Self, Malformed> {
        let map = versioned(value, ARTIFACT_FIELDS)?;
        let mut contract = ArtifactContract::default();
        for (at, entry) in entries(map, "produces")? {
            let entry = fields(entry, PRODUCED_FIELDS, &at)?;
            let kind = kind(entry, &at)?;
            let pointer = pointer(entry, &at)?;
            let mode = entry.get("mode").and_then(Value::as_str);
            let mode = mode
                .and_then(Mode::from_name)
                .ok_or_else(|| refused(&at, "/mode", Problem::Mode(mode.map(str::to_owned))))?;
            let encoding =
                match entry.get("encoding") {
                    None => None,
                    Some(found) => Some(found.as_str().and_then(Encoding::from_name).ok_or_else(
                        || refused(&at, "/encoding", Problem::Encoding(found.clone())),
                    )?),
                };
            contract.produces.push(Produced {
                kind,
                pointer,
                mode,
                encoding,
            });
        }
        for (at, entry) in entries(map, "consumes")? {
            let entry = fields(entry, CONSUMED_FIELDS, &at)?;
            let kind = kind(entry, &at)?;
            let pointer = pointer(entry, &at)?;
            let required = match entry.get("required") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(refused(&at, "/required", Problem::NotABool(other.clone())));
                }
            };
            contract.consumes.push(Consumed {
                kind,
                pointer,
                required,
            });
        }
        Ok(contract)
    }
}

impl Composition {
    /// The contract as published: `version`, `kind: complete_operation`, and each
    /// encapsulated tool as `{"kind": "tool", "method": NAME}`.
    pub fn to_json(&self) -> Value {
        let encapsulates: Vec<Value> = self
            .encapsulates
            .iter()
            .map(|m| json!({ "kind": TOOL, "method": m }))
            .collect();
        json!({ "version": VERSION, "kind": COMPLETE_OPERATION, "encapsulates": encapsulates })
    }

    /// Reads a published contract. Only its shape is checked here; which tools it may
    /// encapsulate is [`encapsulated`](super::encapsulated)'s to say.
    ///
    /// # Errors
    ///
    /// The first place that breaks the shape `to_json` writes.
    pub fn from_json(value: &Value) -> Result<Self, Malformed> {
        let map = versioned(value, COMPOSITION_FIELDS)?;
        match map.get("kind").and_then(Value::as_str) {
            Some(COMPLETE_OPERATION) => {}
            other => {
                return Err(refused(
                    "",
                    "/kind",
                    Problem::CompositionKind(other.map(str::to_owned)),
                ));
            }
        }
        let mut encapsulates = Vec::new();
        for (at, entry) in entries(map, "encapsulates")? {
            let entry = fields(entry, ENCAPSULATED_FIELDS, &at)?;
            if entry.get("kind").and_then(Value::as_str) != Some(TOOL) {
                return Err(refused(&at, "/kind", Problem::EntryKind));
            }
            encapsulates.push(text(entry, "method", &at)?);
        }
        Ok(Composition { encapsulates })
    }
}

fn refused(at: &str, below: &str, problem: Problem) -> Malformed {
    Malformed {
        at: format!("{at}{below}"),
        problem,
    }
}

/// The contract's object, of this version, with only `known` fields.
fn versioned<'v>(
    value: &'v Value,
    known: &'static [&'static str],
) -> Result<&'v Map<String, Value>, Malformed> {
    let map = value
        .as_object()
        .ok_or_else(|| refused("", "", Problem::NotAnObject))?;
    match map.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        other => return Err(refused("", "/version", Problem::Version(other))),
    }
    fields(value, known, "")
}

/// `value` as an object with only `known` fields.
fn fields<'v>(
    value: &'v Value,
    known: &'static [&'static str],
    at: &str,
) -> Result<&'v Map<String, Value>, Malformed> {
    let map = value
        .as_object()
        .ok_or_else(|| refused(at, "", Problem::NotAnObject))?;
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(field) => Err(refused(
            at,
            "",
            Problem::UnknownField {
                field: field.clone(),
                known,
            },
        )),
        None => Ok(map),
    }
}

/// The entries of the list `key` (none when it is absent), each with where it is.
fn entries<'m>(
    map: &'m Map<String, Value>,
    key: &str,
) -> Result<impl Iterator<Item = (String, &'m Value)>, Malformed> {
    let items: &[Value] = match map.get(key) {
        None => &[],
        Some(Value::Array(items)) => items,
        Some(_) => return Err(refused("", &format!("/{key}"), Problem::NotAnArray)),
    };
    Ok(items
        .iter()
        .enumerate()
        .map(move |(i, item)| (format!("/{key}/{i}"), item)))
}

fn text(map: &Map<String, Value>, key: &'static str, at: &str) -> Result<String, Malformed> {
    match map.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(refused(at, &format!("/{key}"), Problem::NotText(key))),
    }
}

/// A pointer, whatever it says: which pointers name a field is [`resolve`]'s to say, the
/// empty one included.
///
/// [`resolve`]: crate::pointer::resolve
fn pointer(map: &Map<String, Value>, at: &str) -> Result<String, Malformed> {
    match map.get("pointer") {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(refused(at, "/pointer", Problem::NotAString("pointer"))),
    }
}

fn kind(map: &Map<String, Value>, at: &str) -> Result<String, Malformed> {
    let kind = text(map, "kind", at)?;
    if is_kind(&kind) {
        Ok(kind)
    } else {
        Err(refused(at, "/kind", Problem::NotAKind(kind)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artifacts() -> ArtifactContract {
        ArtifactContract {
            produces: vec![
                Produced {
                    kind: "workspace.directory".into(),
                    pointer: "/dir".into(),
                    mode: Mode::Materialize,
                    encoding: None,
                },
                Produced {
                    kind: "pages".into(),
                    pointer: "/pages".into(),
                    mode: Mode::Materialize,
                    encoding: Some(Encoding::JsonArray),
                },
            ],
            consumes: vec![Consumed {
                kind: "file".into(),
                pointer: "/files/0/path".into(),
                required: false,
            }],
        }
    }

    #[test]
    fn an_artifact_contract_is_published_as_documented_and_reads_back() {
        let json = artifacts().to_json();
        assert_eq!(
            json.to_string(),
            r#"{"version":1,"produces":[{"kind":"workspace.directory","pointer":"/dir","mode":"materialize"},{"kind":"pages","pointer":"/pages","mode":"materialize","encoding":"json_array"}],"consumes":[{"kind":"file","pointer":"/files/0/path","required":false}]}"#
        );
        assert_eq!(ArtifactContract::from_json(&json), Ok(artifacts()));
    }

    #[test]
    fn a_composition_is_published_as_documented_and_reads_back() {
        let composition = Composition {
            encapsulates: vec!["start".into(), "finish".into()],
        };
        let json = composition.to_json();
        assert_eq!(
            json.to_string(),
            r#"{"version":1,"kind":"complete_operation","encapsulates":[{"kind":"tool","method":"start"},{"kind":"tool","method":"finish"}]}"#
        );
        assert_eq!(Composition::from_json(&json), Ok(composition));
    }

    /// Where and why a reading was refused.
    fn refusal<T: std::fmt::Debug>(read: Result<T, Malformed>) -> (String, String) {
        let refused = read.expect_err("refused");
        (refused.at, refused.problem.to_string())
    }

    #[test]
    fn a_contract_of_another_shape_is_refused_where_it_breaks() {
        for (value, at, message) in [
            (json!([]), "", "must be an object"),
            (
                json!({"version": 2}),
                "/version",
                "version 1 is the one understood, found Some(2)",
            ),
            (
                json!({"version": 1, "extra": true}),
                "",
                "unknown field `extra`; the fields are version, produces, consumes",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/dir"}]}),
                "/produces/0/mode",
                "the mode must be `materialize`, found None",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/dir", "mode": "materialize", "encoding": "csv"}]}),
                "/produces/0/encoding",
                "unknown encoding \"csv\"; the only one is `json_array`",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "Work Dir", "pointer": "/dir", "mode": "materialize"}]}),
                "/produces/0/kind",
                "`Work Dir` is not a kind: dot-separated lowercase words, such as `workspace.directory`",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": 0}]}),
                "/consumes/0/pointer",
                "`pointer` must be a string",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": "/a", "required": "yes"}]}),
                "/consumes/0/required",
                "must be true or false, found \"yes\"",
            ),
            (
                json!({"version": 1, "consumes": {}}),
                "/consumes",
                "must be an array",
            ),
        ] {
            assert_eq!(
                refusal(ArtifactContract::from_json(&value)),
                (at.into(), message.into()),
                "{value}"
            );
        }
        for (value, at, message) in [
            (
                json!({"version": 1, "kind": "wrapper"}),
                "/kind",
                "the kind must be `complete_operation`, found Some(\"wrapper\")",
            ),
            (
                json!({"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "prompt", "method": "x"}]}),
                "/encapsulates/0/kind",
                "the kind must be `tool`",
            ),
            (
                json!({"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool"}]}),
                "/encapsulates/0/method",
                "`method` must be a non-empty string",
            ),
        ] {
            assert_eq!(
                refusal(Composition::from_json(&value)),
                (at.into(), message.into()),
                "{value}"
            );
        }
    }
}
