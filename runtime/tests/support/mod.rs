//! A hand-written contract with tool groups (the generator does not emit groups yet): four
//! tools in two groups, and a handler that answers with the tool's name and arguments.

#![allow(dead_code)]

use std::sync::LazyLock;

use mcp_contract::Server;
use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, GroupSpec, JsonObject, Published,
};
use mcp_contract::rmcp::ErrorData;
use mcp_contract::rmcp::model::ErrorCode;
use serde_json::json;

const TOOLS: &[&str] = &[
    r#"{"name":"get","description":"Reads one item.","inputSchema":{"type":"object","properties":{"id":{"type":"string","x-mcp-header":"Id"}},"required":["id"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
    r#"{"name":"find","description":"Searches the items.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}},"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
    r#"{"name":"put","description":"Stores one item.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"}},"required":["id","value"],"additionalProperties":false},"annotations":{"readOnlyHint":false,"destructiveHint":false}}"#,
    r#"{"name":"drop","description":"Deletes every item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"readOnlyHint":false,"destructiveHint":true}}"#,
];

/// The manifest order of [`TOOLS`].
pub const ALL: [&str; 4] = ["get", "find", "put", "drop"];
pub const READ: [&str; 2] = ["get", "find"];
pub const WRITE: [&str; 2] = ["put", "drop"];

pub static GROUPED: ContractSpec = ContractSpec {
    name: "shelf",
    title: None,
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[],
    artifacts_key: "com.example/artifacts",
    composition_key: "com.example/composition",
    groups: &[
        GroupSpec {
            name: "read",
            description: "Reading the shelf.",
            tools: &READ,
        },
        GroupSpec {
            name: "write",
            description: "Changing the shelf.",
            tools: &WRITE,
        },
    ],
};

/// The same tools without groups.
pub static FLAT: ContractSpec = ContractSpec {
    name: "shelf-flat",
    groups: &[],
    ..GROUPED
};

static GROUPED_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&GROUPED));
static FLAT_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&FLAT));

/// Answers every call with `{"tool": NAME, "arguments": ARGUMENTS}`.
pub struct Shelf(&'static Published);

impl Dispatch for Shelf {
    fn published(&self) -> &'static Published {
        self.0
    }

    fn call(&self, tool: usize, arguments: JsonObject) -> BoxFuture<'_, CallToolResult> {
        let name = self.0.tools[tool].name.to_string();
        Box::pin(async move {
            CallToolResult::structured(json!({ "tool": name, "arguments": arguments }))
        })
    }
}

/// The server of the contract with groups.
pub fn grouped() -> Server<Shelf> {
    Server::new(Shelf(&GROUPED_PUBLISHED))
}

/// The server of the same tools without groups.
pub fn flat() -> Server<Shelf> {
    Server::new(Shelf(&FLAT_PUBLISHED))
}

pub fn names(tools: &[mcp_contract::rmcp::model::Tool]) -> Vec<&str> {
    tools.iter().map(|t| t.name.as_ref()).collect()
}

pub fn args(value: serde_json::Value) -> JsonObject {
    match value {
        serde_json::Value::Object(map) => map,
        other => panic!("arguments must be an object, not {other}"),
    }
}

/// Asserts `error` is exactly the unknown-tool error for `name`.
pub fn assert_unknown_tool(error: &ErrorData, name: &str) {
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
    assert_eq!(error.message, format!("Unknown tool: {name}"), "{error:?}");
}
