//! The model's schemas in JSON Schema (2020-12): what `tools/list` publishes and what
//! examples and defaults are checked against, so both read one form. (Artifact pointers
//! resolve on the model itself, through `validate::planning::SchemaRef`.)
//!
//! Schemas are strict on input (`additionalProperties: false` on every object, and every
//! number bounded by what its Rust type holds: `Schema::input_constraints`), carry a
//! description and examples on every property, keep manifest order, inline shared types
//! (several clients do not resolve `$ref`), and never contain a `default` keyword: a default
//! is stated in the description and applied by the generated code.

use mcp_contract_spec::MCP_HEADER;
use serde_json::{Map, Value, json};

use super::*;

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Arguments: objects refuse unknown properties, and numbers are bounded by their Rust
    /// types.
    Input,
    /// Results: objects stay open, so adding a field later does not break a validating client.
    Output,
    /// An example or default: an argument, with only the constraints written; whether its
    /// numbers fit their Rust types is checked on its own (`Contract::integer_out_of_range`),
    /// for a message that names the type.
    Value,
}

impl Contract {
    /// A tool's `inputSchema`.
    pub(crate) fn input_schema(&self, tool: &ToolDef) -> Value {
        match &tool.input {
            Some(document) => document.clone(),
            None => object_schema(self, &tool.parameters, Side::Input),
        }
    }

    /// A tool's `outputSchema`, when its output is structured.
    pub(crate) fn output_schema(&self, tool: &ToolDef) -> Option<Value> {
        match &tool.output {
            OutputDef::Text => None,
            OutputDef::Document(document) => Some(document.clone()),
            OutputDef::Object {
                description,
                fields,
            } => {
                let mut schema = object_schema(self, fields, Side::Output);
                if let (Some(d), Value::Object(map)) = (description, &mut schema) {
                    map.insert("description".into(), d.clone().into());
                }
                Some(schema)
            }
        }
    }

    /// A standalone schema for one value, as an argument: what examples and defaults are
    /// checked against.
    pub(crate) fn value_schema(&self, schema: &Schema) -> Value {
        node(self, schema, Side::Value, None)
    }
}

fn object_schema(contract: &Contract, fields: &[Field], side: Side) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), "object".into());
    let properties: Map<String, Value> = fields
        .iter()
        .map(|f| (f.name.clone(), property(contract, f, side)))
        .collect();
    o.insert("properties".into(), properties.into());
    // A defaulted field is optional to a caller, but a handler always returns it.
    let required: Vec<Value> = fields
        .iter()
        .filter(|f| f.required || (side == Side::Output && f.default.is_some()))
        .map(|f| f.name.clone().into())
        .collect();
    if !required.is_empty() {
        o.insert("required".into(), required.into());
    }
    if side != Side::Output {
        o.insert("additionalProperties".into(), false.into());
    }
    o.into()
}

fn property(contract: &Contract, field: &Field, side: Side) -> Value {
    let description = match side {
        Side::Input | Side::Value => field.published_description(),
        Side::Output => field.schema.description.clone().unwrap_or_default(),
    };
    let mut p = node(contract, &field.schema, side, Some(description));
    if let (Some(h), Value::Object(o)) = (&field.header, &mut p) {
        o.insert(MCP_HEADER.into(), h.value.clone().into());
    }
    p
}

/// One schema node. `description` overrides the schema's own (a property's text, with its default).
fn node(contract: &Contract, schema: &Schema, side: Side, description: Option<String>) -> Value {
    let mut o = match &schema.kind {
        // As written: the document carries its own description and examples.
        Kind::Document(document) => return (**document).clone(),
        Kind::Named(i) => {
            let shared = &contract.types[*i].schema;
            let mut inner = node(contract, shared, side, None);
            if let Value::Object(map) = &mut inner {
                // The reference's own text and examples describe this use of the type.
                if let Some(d) = description.clone().or_else(|| schema.description.clone()) {
                    map.insert("description".into(), d.into());
                }
                if !schema.examples.is_empty() {
                    map.insert("examples".into(), schema.examples.clone().into());
                }
            }
            return inner;
        }
        Kind::String => type_only("string"),
        Kind::Integer => type_only("integer"),
        Kind::Number => type_only("number"),
        Kind::Boolean => type_only("boolean"),
        // Any JSON value: the honest schema states no type at all.
        Kind::Json => Map::new(),
        Kind::Enum(e) => {
            let mut o = type_only("string");
            o.insert(
                "enum".into(),
                e.values
                    .iter()
                    .map(|(v, _)| Value::from(v.clone()))
                    .collect(),
            );
            o
        }
        Kind::Array(items) => {
            let mut o = type_only("array");
            o.insert("items".into(), node(contract, items, side, None));
            o
        }
        Kind::Object(obj) => match object_schema(contract, &obj.fields, side) {
            Value::Object(o) => o,
            _ => Map::new(),
        },
        Kind::Union(union) => union_schema(contract, union, side),
    };
    if let Some(d) = description.or_else(|| schema.description.clone())
        && !d.is_empty()
    {
        o.insert("description".into(), d.into());
    }
    let constraints = match side {
        Side::Input => schema.input_constraints(),
        Side::Output | Side::Value => schema.constraints.clone(),
    };
    for (keyword, value) in constraints.iter() {
        o.insert(keyword.name().into(), value.to_json());
    }
    if !schema.examples.is_empty() {
        o.insert("examples".into(), schema.examples.clone().into());
    }
    o.into()
}

fn type_only(ty: &str) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("type".into(), json!(ty));
    o
}

/// A tagged union: `oneOf` its variants, each an object whose tag is a required string
/// `const`, first among its properties and in `required`; so a value matches one variant at
/// most, and the tag says which. A variant's examples, written without the tag, are published
/// with it.
fn union_schema(contract: &Contract, union: &UnionDef, side: Side) -> Map<String, Value> {
    let variants = union.variants.iter().map(|variant| {
        let tag = Value::from(variant.value.clone());
        let tagged = |rest: &Value| {
            let mut o = Map::new();
            o.insert(union.tag.clone(), tag.clone());
            o.extend(rest.as_object().cloned().unwrap_or_default());
            Value::from(o)
        };
        let Value::Object(object) = node(contract, &variant.schema, side, None) else {
            return Value::Null; // an object's node is always an object
        };
        let lists_required = object.contains_key("required");
        let mut out = Map::new();
        for (key, value) in object {
            let value = match key.as_str() {
                "properties" => {
                    let mut properties = Map::new();
                    properties.insert(
                        union.tag.clone(),
                        json!({"type": "string", "const": tag.clone()}),
                    );
                    properties.extend(value.as_object().cloned().unwrap_or_default());
                    properties.into()
                }
                "required" => {
                    let mut names = vec![Value::from(union.tag.clone())];
                    names.extend(value.as_array().cloned().unwrap_or_default());
                    names.into()
                }
                "examples" => value.as_array().into_iter().flatten().map(tagged).collect(),
                _ => value,
            };
            let properties = key == "properties";
            out.insert(key, value);
            if properties && !lists_required {
                out.insert("required".into(), json!([union.tag]));
            }
        }
        Value::from(out)
    });
    let mut o = type_only("object");
    o.insert("oneOf".into(), variants.collect::<Vec<_>>().into());
    o
}
