//! A hand-written contract with tool groups (the generator does not emit groups yet): four
//! tools in two groups, and a handler that answers with the tool's name and arguments.

#![allow(dead_code)]

use std::sync::LazyLock;

use mcp_contract::Server;
use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, GroupSpec, JsonObject, Published, ToolSpec,
};
use mcp_contract::rmcp::ErrorData;
use mcp_contract::rmcp::model::ErrorCode;
use serde_json::json;

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"get","description":"Reads one item.","inputSchema":{"type":"object","properties":{"id":{"type":"string","x-mcp-header":"Id"}},"required":["id"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"find","description":"Searches the items.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}},"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"put","description":"Stores one item.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"}},"required":["id","value"],"additionalProperties":false},"annotations":{"readOnlyHint":false,"destructiveHint":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"drop","description":"Deletes every item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"readOnlyHint":false,"destructiveHint":true}}"#,
    ),
];

/// The manifest order of [`TOOLS`].
pub const ALL: [&str; 4] = ["get", "find", "put", "drop"];
pub const READ: [&str; 2] = ["get", "find"];
pub const WRITE: [&str; 2] = ["put", "drop"];

pub static GROUPED: ContractSpec = ContractSpec {
    name: "shelf",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[
        GroupSpec {
            name: "read",
            description: "Reading the shelf.",
            tools: &READ,
            scopes: &[],
        },
        GroupSpec {
            name: "write",
            description: "Changing the shelf.",
            tools: &WRITE,
            scopes: &[],
        },
    ],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: false,
    prompts: &[],
    access: mcp_contract::codegen::AccessSpec::OPEN,
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

    fn call(
        &self,
        tool: usize,
        arguments: JsonObject,
        _cx: mcp_contract::Context,
    ) -> BoxFuture<'_, CallToolResult> {
        let name = self.0.tools()[tool].name.to_string();
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

/// An input that is not a JSON-RPC message, and the error a server answers it with.
pub struct NotMessage {
    pub what: &'static str,
    pub input: &'static str,
    pub code: i32,
    /// The id of the answer: the input's own when it can be read, none otherwise.
    pub id: Option<i64>,
}

/// Every kind of input a transport must answer rather than drop.
pub const NOT_MESSAGES: &[NotMessage] = &[
    NotMessage {
        what: "a truncated request",
        input: r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","par"#,
        code: -32700,
        id: Some(7),
    },
    NotMessage {
        what: "a lone UTF-16 surrogate",
        input: r#"{"jsonrpc":"2.0","id":3920,"method":"tools/call","params":{"name":"get","arguments":{"id":"\ud800"}}}"#,
        code: -32700,
        id: Some(3920),
    },
    NotMessage {
        what: "a number beyond f64",
        input: r#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"find","arguments":{"query":1e400}}}"#,
        code: -32700,
        id: Some(12),
    },
    NotMessage {
        what: "text",
        input: "hello",
        code: -32700,
        id: None,
    },
    NotMessage {
        what: "a batch",
        input: r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
        code: -32600,
        id: None,
    },
    NotMessage {
        what: "a number",
        input: "42",
        code: -32600,
        id: None,
    },
    NotMessage {
        what: "no method",
        input: r#"{"jsonrpc":"2.0","id":8}"#,
        code: -32600,
        id: Some(8),
    },
    NotMessage {
        what: "another JSON-RPC version",
        input: r#"{"jsonrpc":"1.0","id":9,"method":"tools/list"}"#,
        code: -32600,
        id: Some(9),
    },
    NotMessage {
        what: "a method that is not a string",
        input: r#"{"jsonrpc":"2.0","id":10,"method":5}"#,
        code: -32600,
        id: Some(10),
    },
    NotMessage {
        what: "an id that is neither a string nor an integer",
        input: r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
        code: -32600,
        id: None,
    },
    NotMessage {
        what: "params that are not an object",
        input: r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":[1,2]}"#,
        code: -32602,
        id: Some(11),
    },
];

/// Asserts `answer` is error `code` answering `id` (none: no id), and returns its message.
pub fn assert_error(answer: &serde_json::Value, code: i32, id: Option<i64>, what: &str) -> String {
    assert_eq!(answer["jsonrpc"], "2.0", "{what}: {answer}");
    assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
    match id {
        Some(id) => assert_eq!(answer["id"], id, "{what}: {answer}"),
        None => assert!(
            answer.get("id").is_none(),
            "{what}: no id to answer: {answer}"
        ),
    }
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        !message.is_empty(),
        "{what}: the error says what is wrong: {answer}"
    );
    message.to_owned()
}

/// Requests whose params do not fit their method, and the member the error must name.
pub fn bad_params() -> Vec<(&'static str, serde_json::Value, &'static str)> {
    vec![
        (
            "tools/call",
            json!({"name": "find", "arguments": [1, 2]}),
            "arguments",
        ),
        (
            "tools/call",
            json!({"name": "find", "arguments": "str"}),
            "arguments",
        ),
        (
            "tools/call",
            json!({"name": "find", "arguments": 5}),
            "arguments",
        ),
        (
            "tools/call",
            json!({"name": "find", "arguments": true}),
            "arguments",
        ),
        ("tools/call", json!({"name": 5, "arguments": {}}), "name"),
        ("tools/call", json!({"arguments": {}}), "name"),
        ("tools/call", json!({}), "name"),
        ("resources/read", json!({}), "uri"),
        ("resources/read", json!({"uri": 5}), "uri"),
    ]
}

/// A dispatcher for [`FLAT`] whose every call waits until the test releases it, counting the
/// calls that reached it.
pub struct Gate {
    pub entered: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    pub release: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Gate {
    pub fn new() -> Gate {
        Gate {
            entered: Default::default(),
            release: std::sync::Arc::new(tokio::sync::Semaphore::new(0)),
        }
    }

    /// The number of calls that reached the handler so far.
    pub fn entered(&self) -> usize {
        self.entered.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// A server of [`FLAT`] whose calls go through a gate sharing this one's counter and
    /// release.
    pub fn server(&self) -> Server<Gate> {
        Server::new(Gate {
            entered: self.entered.clone(),
            release: self.release.clone(),
        })
    }
}

impl Dispatch for Gate {
    fn published(&self) -> &'static Published {
        &FLAT_PUBLISHED
    }

    fn call(
        &self,
        _tool: usize,
        _arguments: JsonObject,
        _cx: mcp_contract::Context,
    ) -> BoxFuture<'_, CallToolResult> {
        self.entered
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let release = self.release.clone();
        Box::pin(async move {
            if let Ok(permit) = release.acquire().await {
                permit.forget();
            }
            CallToolResult::structured(json!({"released": true}))
        })
    }
}
