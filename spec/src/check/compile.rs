//! Compiling a schema document into [`Node`]s: every keyword's value checked against what
//! JSON Schema 2020-12's metaschema allows for it, each error at its place in the document,
//! and every `$ref` resolved within the document (a JSON pointer or an `$anchor`) to a node
//! compiled once, so a recursive schema is a finite graph.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Node, Rule, SchemaError, UNSUPPORTED, Variants, types};
use crate::Format;
use crate::pointer;

/// The only dialect the checker reads: `$schema` may name it and no other.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The grammar of an `$anchor` (the 2020-12 metaschema's `anchorString`).
fn is_anchor(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// The subschemas a schema object holds, each with its pointer below it, by the 2020-12
/// applicators: where `$anchor`s may stand and what the document's walk visits.
fn subschemas<'v>(schema: &'v Value, at: &str) -> Vec<(String, &'v Value)> {
    let Value::Object(keywords) = schema else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (keyword, value) in keywords {
        let here = format!("{at}/{}", pointer::escape(keyword));
        match (keyword.as_str(), value) {
            (
                "items"
                | "not"
                | "if"
                | "then"
                | "else"
                | "additionalProperties"
                | "contains"
                | "propertyNames"
                | "unevaluatedItems"
                | "unevaluatedProperties",
                one,
            ) => out.push((here, one)),
            ("allOf" | "anyOf" | "oneOf" | "prefixItems", Value::Array(all)) => {
                out.extend(
                    all.iter()
                        .enumerate()
                        .map(|(i, s)| (format!("{here}/{i}"), s)),
                );
            }
            (
                "properties" | "patternProperties" | "$defs" | "dependentSchemas",
                Value::Object(named),
            ) => out.extend(
                named
                    .iter()
                    .map(|(n, s)| (format!("{here}/{}", pointer::escape(n)), s)),
            ),
            _ => {}
        }
    }
    out
}

/// Every schema object of `document`, its root first, each with its JSON pointer: where a
/// keyword may stand, found by the 2020-12 applicators (so a property named `$ref` is not one).
pub fn schema_objects(document: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), document)];
    while let Some((at, schema)) = stack.pop() {
        if let Value::Object(keywords) = schema {
            out.push((at.clone(), keywords));
        }
        let mut below = subschemas(schema, &at);
        below.reverse();
        stack.extend(below);
    }
    out
}

/// Compiles one document: its root, and the targets of its `$ref`s, each once.
pub(super) struct Compiler<'d> {
    document: &'d Value,
    /// Each `$anchor`'s pointer.
    anchors: HashMap<String, String>,
    /// The node compiled (or being compiled) for each pointer a `$ref` or `$defs` reaches.
    slots: HashMap<String, usize>,
    /// The nodes, by slot; `None` while one is being compiled.
    pub(super) targets: Vec<Option<Node>>,
}

fn error(at: &str, message: impl Into<String>) -> SchemaError {
    SchemaError {
        at: at.to_owned(),
        message: message.into(),
    }
}

impl<'d> Compiler<'d> {
    pub(super) fn new(document: &'d Value) -> Result<Compiler<'d>, SchemaError> {
        let mut anchors = HashMap::new();
        let mut stack = vec![(String::new(), document)];
        while let Some((at, schema)) = stack.pop() {
            if let Some(anchor) = schema.get("$anchor") {
                let here = format!("{at}/$anchor");
                let name = anchor
                    .as_str()
                    .filter(|a| is_anchor(a))
                    .ok_or_else(|| error(&here, "is not an anchor name (a letter or `_`, then letters, digits, `-`, `.` or `_`)"))?;
                if anchors.insert(name.to_owned(), at.clone()).is_some() {
                    return Err(error(
                        &here,
                        format!("the anchor `{name}` is defined twice"),
                    ));
                }
            }
            stack.extend(subschemas(schema, &at));
        }
        Ok(Compiler {
            document,
            anchors,
            slots: HashMap::new(),
            targets: Vec::new(),
        })
    }

    /// The slot of the node at `pointer` in the document, compiled on first use.
    fn target(&mut self, pointer: &str, at: &str) -> Result<usize, SchemaError> {
        if let Some(&slot) = self.slots.get(pointer) {
            return Ok(slot);
        }
        let schema = resolve(self.document, pointer).ok_or_else(|| {
            error(
                at,
                format!("`#{pointer}` points at no schema of the document"),
            )
        })?;
        let slot = self.targets.len();
        self.targets.push(None);
        self.slots.insert(pointer.to_owned(), slot);
        let node = self.node(schema, pointer)?;
        self.targets[slot] = Some(node);
        Ok(slot)
    }

    /// The slot a `$ref` names: `#` and a JSON pointer (percent-encoded as a URI fragment),
    /// or `#` and an anchor.
    fn reference(&mut self, reference: &str, at: &str) -> Result<usize, SchemaError> {
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(error(
                at,
                format!(
                    "`{reference}` is not within the document: only `#…` references (a JSON pointer or an `$anchor`) are resolved"
                ),
            ));
        };
        let fragment =
            percent_decoded(fragment).ok_or_else(|| error(at, "is not a valid URI fragment"))?;
        if fragment.is_empty() || fragment.starts_with('/') {
            return self.target(&fragment, at);
        }
        let pointer = self
            .anchors
            .get(&fragment)
            .cloned()
            .ok_or_else(|| error(at, format!("no `$anchor` is named `{fragment}`")))?;
        self.target(&pointer, at)
    }

    pub(super) fn node(&mut self, schema: &Value, at: &str) -> Result<Node, SchemaError> {
        let keywords = match schema {
            Value::Bool(true) => {
                return Ok(Node {
                    rules: Box::new([]),
                });
            }
            Value::Bool(false) => {
                return Ok(Node {
                    rules: Box::new([Rule::False]),
                });
            }
            Value::Object(o) => o,
            _ => return Err(error(at, "is not a schema (an object or a boolean)")),
        };
        let mut rules = Vec::new();
        for (keyword, value) in keywords {
            let here = format!("{at}/{}", pointer::escape(keyword));
            if UNSUPPORTED.contains(&keyword.as_str()) {
                return Err(error(&here, format!("`{keyword}` is not supported")));
            }
            let count = || {
                value
                    .as_u64()
                    .ok_or_else(|| error(&here, "is not a whole number of 0 or more"))
            };
            let number = || match value {
                Value::Number(n) => Ok(n.clone()),
                _ => Err(error(&here, "is not a number")),
            };
            let string = || {
                value
                    .as_str()
                    .ok_or_else(|| error(&here, "is not a string"))
            };
            let names = || match value {
                Value::Array(names) => {
                    let names: Vec<String> = names
                        .iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect::<Option<_>>()
                        .ok_or_else(|| error(&here, "is not an array of names"))?;
                    match names
                        .iter()
                        .enumerate()
                        .find(|(i, n)| names[..*i].contains(n))
                    {
                        Some((_, twice)) => Err(error(&here, format!("names `{twice}` twice"))),
                        None => Ok(names),
                    }
                }
                _ => Err(error(&here, "is not an array")),
            };
            let rule = match keyword.as_str() {
                "type" => Rule::Type(types(value).map_err(|m| error(&here, m))?),
                "enum" => match value {
                    Value::Array(values) => Rule::Enum(values.clone()),
                    _ => return Err(error(&here, "is not an array")),
                },
                "const" => Rule::Const(value.clone()),
                "minLength" => Rule::MinLength(count()?),
                "maxLength" => Rule::MaxLength(count()?),
                "pattern" => {
                    let regex = crate::pattern::compile(string()?)
                        .map_err(|e| error(&here, format!("does not compile: {e}")))?;
                    Rule::Pattern(Box::new(regex))
                }
                "format" => match Format::parse(string()?) {
                    Some(f) => Rule::Format(f),
                    // An unknown format is an annotation.
                    None => continue,
                },
                "minimum" => Rule::Minimum(number()?),
                "maximum" => Rule::Maximum(number()?),
                "exclusiveMinimum" => Rule::ExclusiveMinimum(number()?),
                "exclusiveMaximum" => Rule::ExclusiveMaximum(number()?),
                "multipleOf" => match number()? {
                    n if n.as_f64().is_some_and(|f| f > 0.0) => Rule::MultipleOf(n),
                    _ => return Err(error(&here, "is not above 0")),
                },
                "items" => Rule::Items(Box::new(self.node(value, &here)?)),
                "minItems" => Rule::MinItems(count()?),
                "maxItems" => Rule::MaxItems(count()?),
                "uniqueItems" => match value {
                    Value::Bool(true) => Rule::UniqueItems,
                    Value::Bool(false) => continue,
                    _ => return Err(error(&here, "is not a boolean")),
                },
                "properties" => Rule::Properties(self.named(value, &here)?),
                "required" => Rule::Required(names()?),
                "additionalProperties" => {
                    let known = keywords
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default();
                    match value {
                        Value::Bool(false) => Rule::Additional(known, None),
                        other => Rule::Additional(known, Some(Box::new(self.node(other, &here)?))),
                    }
                }
                "minProperties" => Rule::MinProperties(count()?),
                "maxProperties" => Rule::MaxProperties(count()?),
                "allOf" => Rule::AllOf(self.schemas(value, &here)?),
                "anyOf" => Rule::AnyOf(self.schemas(value, &here)?),
                "oneOf" => Rule::OneOf(self.schemas(value, &here)?, Variants::of(value)),
                "not" => Rule::Not(Box::new(self.node(value, &here)?), value.clone()),
                "if" => {
                    let mut branch = |key: &str| {
                        keywords
                            .get(key)
                            .map(|s| self.node(s, &format!("{at}/{key}")).map(Box::new))
                            .transpose()
                    };
                    let then = branch("then")?;
                    let otherwise = branch("else")?;
                    Rule::If(Box::new(self.node(value, &here)?), then, otherwise)
                }
                // Without `if` they assert nothing, but they are still schemas.
                "then" | "else" => {
                    if !keywords.contains_key("if") {
                        self.node(value, &here)?;
                    }
                    continue;
                }
                "dependentRequired" => {
                    let Value::Object(dependents) = value else {
                        return Err(error(&here, "is not an object"));
                    };
                    let mut all = Vec::new();
                    for (name, required) in dependents {
                        let at = format!("{here}/{}", pointer::escape(name));
                        let Value::Array(list) = required else {
                            return Err(error(&at, "is not an array"));
                        };
                        let list: Vec<String> = list
                            .iter()
                            .map(|n| n.as_str().map(str::to_owned))
                            .collect::<Option<_>>()
                            .ok_or_else(|| error(&at, "is not an array of names"))?;
                        all.push((name.clone(), list));
                    }
                    Rule::DependentRequired(all)
                }
                "dependentSchemas" => Rule::DependentSchemas(self.named(value, &here)?),
                "$ref" => Rule::Ref(self.reference(string()?, &here)?),
                "$defs" => {
                    let Value::Object(defs) = value else {
                        return Err(error(&here, "is not an object"));
                    };
                    // Each definition is compiled, referred to or not: a broken one is an
                    // error of the document.
                    for name in defs.keys() {
                        self.target(&format!("{here}/{}", pointer::escape(name)), &here)?;
                    }
                    continue;
                }
                "$schema" => match string()? {
                    DIALECT => continue,
                    other => {
                        return Err(error(
                            &here,
                            format!(
                                "is `{other}`; the checker reads JSON Schema 2020-12, `{DIALECT}`"
                            ),
                        ));
                    }
                },
                "$id" if !at.is_empty() => {
                    return Err(error(
                        &here,
                        "`$id` below the root is not supported: it would move the base of the `$ref`s below it",
                    ));
                }
                "$id" | "$comment" | "title" | "description" | "contentEncoding"
                | "contentMediaType" => {
                    string()?;
                    continue;
                }
                // Checked while the anchors were gathered.
                "$anchor" => continue,
                "deprecated" | "readOnly" | "writeOnly" => match value {
                    Value::Bool(_) => continue,
                    _ => return Err(error(&here, "is not a boolean")),
                },
                "examples" => match value {
                    Value::Array(_) => continue,
                    _ => return Err(error(&here, "is not an array")),
                },
                // Annotations: defaults and `x-` extensions, and any keyword 2020-12 does
                // not define.
                _ => continue,
            };
            rules.push(rule);
        }
        Ok(Node {
            rules: rules.into_boxed_slice(),
        })
    }

    fn schemas(&mut self, value: &Value, at: &str) -> Result<Vec<Node>, SchemaError> {
        match value {
            Value::Array(all) if !all.is_empty() => all
                .iter()
                .enumerate()
                .map(|(i, s)| self.node(s, &format!("{at}/{i}")))
                .collect(),
            _ => Err(error(at, "is not a non-empty array of schemas")),
        }
    }

    fn named(&mut self, value: &Value, at: &str) -> Result<Vec<(String, Node)>, SchemaError> {
        let Value::Object(named) = value else {
            return Err(error(at, "is not an object"));
        };
        named
            .iter()
            .map(|(name, s)| {
                let at = format!("{at}/{}", pointer::escape(name));
                Ok((name.clone(), self.node(s, &at)?))
            })
            .collect()
    }
}

/// The schema a `$ref` names within `document`: `#` and a JSON pointer (percent-encoded as a
/// URI fragment), or `#` and an `$anchor`; `None` when it names none.
pub(super) fn referenced<'v>(document: &'v Value, reference: &str) -> Option<&'v Value> {
    let fragment = percent_decoded(reference.strip_prefix('#')?)?;
    if fragment.is_empty() || fragment.starts_with('/') {
        return resolve(document, &fragment);
    }
    schema_objects(document)
        .into_iter()
        .find(|(_, schema)| schema.get("$anchor").and_then(Value::as_str) == Some(&fragment))
        .and_then(|(at, _)| resolve(document, &at))
}

/// The value at JSON `pointer` in `document`.
fn resolve<'v>(document: &'v Value, pointer: &str) -> Option<&'v Value> {
    document.pointer(pointer)
}

/// A URI fragment with its `%XX` escapes decoded; `None` when one is broken or the bytes are
/// not UTF-8.
fn percent_decoded(fragment: &str) -> Option<String> {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl Compiler<'_> {
    /// Refuses `$ref`s that reach themselves without reading deeper into the value (`{"$ref":
    /// "#"}` at the root): checking would never end. One that goes through `properties` or
    /// `items` ends with the value.
    pub(super) fn refuse_loops(&self) -> Result<(), SchemaError> {
        let reached = |slot: usize| {
            let mut seen = vec![false; self.targets.len()];
            let mut stack = Vec::new();
            if let Some(node) = &self.targets[slot] {
                node.refs_in_place(&mut stack);
            }
            while let Some(next) = stack.pop() {
                if next == slot {
                    return true;
                }
                if !std::mem::replace(&mut seen[next], true)
                    && let Some(node) = &self.targets[next]
                {
                    node.refs_in_place(&mut stack);
                }
            }
            false
        };
        let mut slots: Vec<(&String, &usize)> = self.slots.iter().collect();
        slots.sort();
        match slots.into_iter().find(|(_, slot)| reached(**slot)) {
            Some((pointer, _)) => Err(error(
                pointer,
                "refers back to itself through `$ref` without reading into the value",
            )),
            None => Ok(()),
        }
    }
}
