//! The wire `Tool` objects and the `tools/list` result, from the contract; their schemas are
//! the model's own JSON Schema form (`model::json_schema`).

use serde_json::{Map, Value, json};

use mcp_contract_spec::Revision;

use crate::hint::Hint;
use crate::model::json_schema::HEADER;
use crate::model::*;

/// The `tools/list` result a client receives: on 2026-07-28 with `resultType` and the cache
/// hint (a server without one answers `ttlMs: 0`, `cacheScope: "private"`, as rmcp fills it),
/// on 2025-11-25 the tools alone.
pub(crate) fn tools_list(contract: &Contract, revision: Revision) -> Value {
    let tools: Vec<Value> = contract
        .tools
        .iter()
        .map(|t| tool_json(contract, t))
        .collect();
    if !revision.has_cache_hints() {
        let tools: Vec<Value> = tools.into_iter().map(legacy).collect();
        return json!({ "tools": tools });
    }
    let (ttl, scope) = contract.server.cache.map_or((0, "private"), |c| {
        (c.ttl_ms, if c.public { "public" } else { "private" })
    });
    json!({ "resultType": "complete", "ttlMs": ttl, "cacheScope": scope, "tools": tools })
}

/// A tool as a 2025-11-25 client receives it: without `x-mcp-header`, which that revision
/// does not define. Headers sit only on properties reached through `properties`.
pub(crate) fn legacy(mut tool: Value) -> Value {
    fn strip(schema: &mut Value) {
        if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            for p in props.values_mut() {
                if let Some(o) = p.as_object_mut() {
                    o.remove(HEADER);
                }
                strip(p);
            }
        }
    }
    if let Some(input) = tool.get_mut("inputSchema") {
        strip(input);
    }
    tool
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
    t.insert("inputSchema".into(), contract.input_schema(tool));
    if let Some(output) = contract.output_schema(tool) {
        t.insert("outputSchema".into(), output);
    }
    let mut annotations = Map::new();
    annotations.insert("title".into(), tool.title.clone().into());
    for hint in Hint::ALL {
        if let Some(v) = tool.published_hints.get(hint) {
            annotations.insert(hint.wire_name().into(), v.into());
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
        let produces: Vec<Value> = a
            .produces
            .iter()
            .map(|(kind, pointer, json_array)| {
                let mut p = json!({ "kind": kind, "pointer": pointer, "mode": "materialize" });
                if *json_array {
                    p["encoding"] = "json_array".into();
                }
                p
            })
            .collect();
        let consumes: Vec<Value> = a
            .consumes
            .iter()
            .map(|(kind, pointer, required)| {
                json!({ "kind": kind, "pointer": pointer, "required": required })
            })
            .collect();
        meta.insert(
            planning.artifacts_key.clone(),
            json!({ "version": 1, "produces": produces, "consumes": consumes }),
        );
    }
    if !tool.encapsulates.is_empty() {
        let encapsulates: Vec<Value> = tool
            .encapsulates
            .iter()
            .map(|m| json!({ "kind": "tool", "method": m }))
            .collect();
        meta.insert(
            planning.composition_key.clone(),
            json!({ "version": 1, "kind": "complete_operation", "encapsulates": encapsulates }),
        );
    }
    meta
}
