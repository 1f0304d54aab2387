//! The wire `Tool` objects and the `tools/list` result, from the contract; their schemas are
//! the model's own JSON Schema form (`model::json_schema`).

use serde_json::{Map, Value, json};

use mcp_contract_spec::planning::{Composition, key_path};
use mcp_contract_spec::{CacheHint, Hint, Revision, strip_mcp_headers};

use crate::model::*;

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
    // Built by hand: `json!` would serialize the tools into a second copy of them.
    let mut result = Map::new();
    if revision.has_cache_hints() {
        let cache = contract.server.cache.unwrap_or(CacheHint::UNSTATED);
        result.insert("resultType".into(), "complete".into());
        result.insert("ttlMs".into(), json!(cache.ttl_ms));
        result.insert("cacheScope".into(), json!(cache.scope()));
    }
    result.insert("tools".into(), Value::Array(tools));
    result.into()
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
    if let Some(icons) = IconDef::list_json(&tool.icons) {
        t.insert("icons".into(), icons);
    }
    let meta = published_meta(contract, tool);
    if !meta.is_empty() {
        t.insert("_meta".into(), meta.into());
    }
    t.into()
}

/// The `_meta` a prompt or a resource publishes on its list: its lifecycle, when it has one.
pub(crate) fn entry_meta(lifecycle: &Lifecycle) -> Option<Map<String, Value>> {
    let lifecycle = lifecycle.meta()?;
    let mut meta = Map::new();
    meta.insert(mcp_contract_spec::LIFECYCLE_META_KEY.into(), lifecycle);
    Some(meta)
}

/// The tool's `_meta`: its static entries, then the versioned planning contracts, each at its
/// key path (two paths may share a parent object, which then holds both), then its lifecycle,
/// then its app (MCP Apps' `ui`).
pub(crate) fn published_meta(contract: &Contract, tool: &ToolDef) -> Map<String, Value> {
    let mut meta = tool.meta.clone();
    let planning = &contract.planning;
    if let Some(a) = &tool.artifacts {
        key_path::place(&mut meta, &planning.artifacts_key.keys, a.to_json());
    }
    if !tool.encapsulates.is_empty() {
        let composition = Composition {
            encapsulates: tool.encapsulates.clone(),
        };
        key_path::place(
            &mut meta,
            &planning.composition_key.keys,
            composition.to_json(),
        );
    }
    if let Some(lifecycle) = tool.lifecycle.meta() {
        meta.insert(mcp_contract_spec::LIFECYCLE_META_KEY.into(), lifecycle);
    }
    if let Some(app) = &tool.app {
        meta.insert("ui".into(), app.meta());
    }
    meta
}
