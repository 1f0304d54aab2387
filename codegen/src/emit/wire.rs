//! JSON Schema (2020-12) and the wire `Tool` objects, from the contract.
//!
//! Schemas are strict on input (`additionalProperties: false` on every object), carry a
//! description and examples on every property, keep manifest order, inline shared types
//! (several clients do not resolve `$ref`), and never contain a `default` keyword: a default
//! is stated in the description and applied by the generated code.

use serde_json::{Map, Value, json};

use mcp_contract_spec::planning::Composition;
use mcp_contract_spec::{CacheHint, MCP_HEADER, Revision, strip_mcp_headers};

use crate::model::*;

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Arguments: objects refuse unknown properties.
    Input,
    /// Results: objects stay open, so adding a field later does not break a validating client.
    Output,
}

/// The `tools/list` result a client receives: on 2026-07-28 with `resultType` and the cache
/// hint (a server without one answers what rmcp fills in), on 2025-11-25 the tools alone,
/// without `x-mcp-header`.
pub(crate) fn tools_list(contract: &Contract, revision: Revision) -> Value {
    let tools: Vec<Value> = contract
        .tools
        .iter()
        .map(|t| {
            let mut tool = tool_json(contract, t);
            if !revision.has_mcp_headers()
                && let Some(input) = tool.get_mut("inputSchema").and_then(Value::as_object_mut)
            {
                strip_mcp_headers(input);
            }
            tool
        })
        .collect();
    if !revision.has_cache_hints() {
        return json!({ "tools": tools });
    }
    let cache = contract.server.cache.unwrap_or(CacheHint::UNSTATED);
    json!({ "resultType": "complete", "ttlMs": cache.ttl_ms, "cacheScope": cache.scope(), "tools": tools })
}

/// The published `Tool` object, exactly as a 2026-07-28 `tools/list` carries it.
pub(crate) fn tool_json(contract: &Contract, tool: &ToolDef) -> Value {
    let mut t = Map::new();
    t.insert("name".into(), tool.name.clone().into());
    t.insert("title".into(), tool.title.clone().into());
    t.insert(
        "description".into(),
        tool.published_description.clone().into(),
    );
    t.insert("inputSchema".into(), input_schema(contract, tool));
    if let Some(output) = output_schema(contract, tool) {
        t.insert("outputSchema".into(), output);
    }
    let mut annotations = Map::new();
    annotations.insert("title".into(), tool.title.clone().into());
    for (key, value) in tool.published_hints.keyed() {
        if let Some(v) = value {
            annotations.insert(key.into(), v.into());
        }
    }
    t.insert("annotations".into(), annotations.into());
    let meta = published_meta(contract, tool);
    if !meta.is_empty() {
        t.insert("_meta".into(), meta.into());
    }
    t.into()
}

/// The tool's `_meta`: its static entries, then the versioned planning contracts.
pub(crate) fn published_meta(contract: &Contract, tool: &ToolDef) -> Map<String, Value> {
    let mut meta = tool.meta.clone();
    let planning = &contract.planning;
    if let Some(a) = &tool.artifacts {
        meta.insert(planning.artifacts_key.clone(), a.to_json());
    }
    if !tool.encapsulates.is_empty() {
        let composition = Composition {
            encapsulates: tool.encapsulates.clone(),
        };
        meta.insert(planning.composition_key.clone(), composition.to_json());
    }
    meta
}

/// The tool's `inputSchema`.
pub(crate) fn input_schema(contract: &Contract, tool: &ToolDef) -> Value {
    object_schema(contract, &tool.parameters, Side::Input)
}

/// The tool's `outputSchema`, when its output is structured.
pub(crate) fn output_schema(contract: &Contract, tool: &ToolDef) -> Option<Value> {
    match &tool.output {
        OutputDef::Text => None,
        OutputDef::Object {
            description,
            fields,
        } => {
            let mut schema = object_schema(contract, fields, Side::Output);
            if let (Some(d), Value::Object(map)) = (description, &mut schema) {
                map.insert("description".into(), d.clone().into());
            }
            Some(schema)
        }
    }
}

/// A standalone schema for one value (used to check examples and defaults).
pub(crate) fn value_schema(contract: &Contract, schema: &Schema) -> Value {
    node(contract, schema, Side::Input, None)
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
    if side == Side::Input {
        o.insert("additionalProperties".into(), false.into());
    }
    o.into()
}

fn property(contract: &Contract, field: &Field, side: Side) -> Value {
    let description = match side {
        Side::Input => field.published_description(),
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
    };
    if let Some(d) = description.or_else(|| schema.description.clone())
        && !d.is_empty()
    {
        o.insert("description".into(), d.into());
    }
    let c = &schema.constraints;
    let constraints: [(&str, Option<Value>); 8] = [
        ("minLength", c.min_length.map(Value::from)),
        ("maxLength", c.max_length.map(Value::from)),
        ("pattern", c.pattern.clone().map(Value::from)),
        ("format", c.format.clone().map(Value::from)),
        ("minimum", c.minimum.clone().map(Value::Number)),
        ("maximum", c.maximum.clone().map(Value::Number)),
        ("minItems", c.min_items.map(Value::from)),
        ("maxItems", c.max_items.map(Value::from)),
    ];
    for (key, value) in constraints {
        if let Some(v) = value {
            o.insert(key.into(), v);
        }
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
