//! What a verified caller sees and may call: every list filtered by its scopes and marked
//! private, and everything outside them answered as if it did not exist. The caller is put in
//! by a stand-in for the host's authorization (a layer reading `X-Test-Scopes`), so these tests
//! hold the server's part alone.

mod scoped;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::LazyLock;
use std::time::Duration;

use mcp_contract::codegen::{
    AccessSpec, BoxFuture, CallToolResult, CompletionSpec, ContractSpec, Dispatch, GroupSpec,
    JsonObject, PromptSpec, Published, ResourceSpec, ScopeSpec, ToolSpec,
};
use mcp_contract::testing::http_request;
use mcp_contract::{
    Context, PromptError, PromptMessage, ResourceBody, ResourceError, Role, Server,
};
use serde_json::{Value, json};

use scoped::{heard_within, listen_as};

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"get","description":"Reads one item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"put","description":"Stores one item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec {
        json: r#"{"name":"drop","description":"Deletes every item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        scopes: &["admin"],
        errors: &[],
        recorded: &[],
    },
    ToolSpec::open(
        r#"{"name":"ping","description":"Answers.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

const RESOURCE: ResourceSpec = ResourceSpec {
    name: "all",
    title: "All",
    description: "Every item.",
    mime_type: "text/plain",
    uri: "shelf://all",
    template: false,
    subscribe: false,
    completions: &[],
    icons: &[],
    scopes: &[],
    meta: None,
    app: None,
};

const PROMPT: PromptSpec = PromptSpec {
    name: "tidy",
    title: "Tidy",
    description: "Tidies the shelf.",
    arguments: &[mcp_contract::codegen::PromptArgumentSpec {
        name: "how",
        description: "How.",
        required: false,
        completion: CompletionSpec::Values(&["neatly", "quickly"]),
    }],
    icons: &[],
    scopes: &[],
    meta: None,
};

/// `get` is in both groups, `put` only in `write`, `drop` in `write` and needs `admin` too,
/// `ping` is in no group and needs nothing. The `secret` resource, the `admin://{id}` template
/// and the `purge` prompt need `admin`.
static SHELF: ContractSpec = ContractSpec {
    name: "shelf",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: Some(mcp_contract::codegen::CacheHint {
        ttl_ms: 60_000,
        public: true,
    }),
    tools: TOOLS,
    resources: &[
        RESOURCE,
        ResourceSpec {
            name: "secret",
            uri: "shelf://secret",
            subscribe: true,
            scopes: &["admin"],
            ..RESOURCE
        },
        ResourceSpec {
            name: "item",
            uri: "shelf://items/{id}",
            template: true,
            ..RESOURCE
        },
        ResourceSpec {
            name: "admin",
            uri: "admin://{id}",
            template: true,
            completions: &[("id", CompletionSpec::Values(&["one", "two"]))],
            scopes: &["admin"],
            ..RESOURCE
        },
    ],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[
        GroupSpec {
            name: "read",
            description: "Reading.",
            tools: &["get"],
            scopes: &["read"],
        },
        GroupSpec {
            name: "write",
            description: "Changing.",
            tools: &["get", "put", "drop"],
            scopes: &["write"],
        },
    ],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: false,
    prompts: &[
        PROMPT,
        PromptSpec {
            name: "purge",
            scopes: &["admin"],
            ..PROMPT
        },
    ],
    access: AccessSpec {
        resource: None,
        authorization_servers: &[],
        scopes: &[
            ScopeSpec {
                name: "read",
                description: "Read.",
            },
            ScopeSpec {
                name: "write",
                description: "Write.",
            },
            ScopeSpec {
                name: "admin",
                description: "Everything.",
            },
        ],
    },
};

static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SHELF));

/// Answers calls with the tool's name and the caller's subject; resources and prompts with
/// their index.
struct Shelf;

impl Dispatch for Shelf {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(&self, tool: usize, _: JsonObject, cx: Context) -> BoxFuture<'_, CallToolResult> {
        let subject = cx.principal().map(|p| p.subject.clone());
        Box::pin(async move {
            CallToolResult::structured(json!({ "tool": TOOLS[tool].json.len(), "caller": subject }))
        })
    }

    fn read_resource(
        &self,
        resource: usize,
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'_, Result<ResourceBody, ResourceError>> {
        Box::pin(async move { Ok(ResourceBody::Text(format!("resource {resource}"))) })
    }

    fn get_prompt(
        &self,
        prompt: usize,
        _: HashMap<String, String>,
        _: Context,
    ) -> BoxFuture<'_, Result<Vec<PromptMessage>, PromptError>> {
        Box::pin(async move { Ok(vec![PromptMessage::text(Role::User, format!("{prompt}"))]) })
    }
}

async fn serve() -> SocketAddr {
    scoped::serve(Server::new(Shelf)).await
}

/// Sends a 2025-11-25 request as a caller with `scopes` and returns the JSON-RPC answer.
async fn ask_legacy(addr: SocketAddr, scopes: &str, method: &str, params: Value) -> Value {
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2025-11-25"),
        ("X-Test-Scopes", scopes),
    ];
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = http_request(addr, "POST", "/mcp", &headers, body.to_string())
        .await
        .expect("an answer");
    response.json().expect("a JSON body")
}

/// Sends a 2026-07-28 request as a caller with `scopes` (no caller for `None`) and returns
/// the JSON-RPC answer.
async fn ask(addr: SocketAddr, scopes: Option<&str>, method: &str, mut params: Value) -> Value {
    params["_meta"] = mcp_contract::testing::request_meta();
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    let name = (params.get("name").or_else(|| params.get("uri")))
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(name) = &name {
        headers.push(("Mcp-Name", name));
    }
    if let Some(scopes) = scopes {
        headers.push(("X-Test-Scopes", scopes));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = http_request(addr, "POST", "/mcp", &headers, body.to_string())
        .await
        .expect("an answer");
    response.json().expect("a JSON body")
}

fn listed<'a>(answer: &'a Value, key: &str, field: &str) -> Vec<&'a str> {
    answer["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {answer}"))
        .iter()
        .map(|t| t[field].as_str().expect("a string"))
        .collect()
}

#[tokio::test]
async fn a_caller_lists_only_the_tools_its_scopes_allow_and_the_list_is_private() {
    let addr = serve().await;
    for (scopes, expected) in [
        (None, vec!["get", "put", "drop", "ping"]),
        (Some(""), vec!["ping"]),
        (Some("read"), vec!["get", "ping"]),
        (Some("write"), vec!["get", "put", "ping"]),
        (Some("admin"), vec!["ping"]),
        (Some("write admin"), vec!["get", "put", "drop", "ping"]),
    ] {
        let answer = ask(addr, scopes, "tools/list", json!({})).await;
        assert_eq!(listed(&answer, "tools", "name"), expected, "{scopes:?}");
        let scope = &answer["result"]["cacheScope"];
        let expected_scope = if scopes.is_some() {
            "private"
        } else {
            "public"
        };
        assert_eq!(scope, expected_scope, "{scopes:?}: {answer}");
        assert_eq!(answer["result"]["ttlMs"], 60_000, "{scopes:?}");
    }
}

#[tokio::test]
async fn a_call_outside_the_scopes_is_the_unknown_tool_error() {
    let addr = serve().await;
    let unknown = ask(addr, Some("read"), "tools/call", json!({"name": "xyz"})).await;
    for (scopes, tool) in [("read", "put"), ("write", "drop"), ("admin", "get")] {
        let refused = ask(addr, Some(scopes), "tools/call", json!({"name": tool})).await;
        assert_eq!(
            refused["error"]["code"], unknown["error"]["code"],
            "{refused}"
        );
        assert_eq!(
            refused["error"]["message"],
            format!("Unknown tool: {tool}"),
            "{refused}"
        );
    }
    let allowed = ask(
        addr,
        Some("write admin"),
        "tools/call",
        json!({"name": "drop"}),
    )
    .await;
    assert_eq!(
        allowed["result"]["structuredContent"]["caller"], "tester",
        "the handler sees the caller: {allowed}"
    );
}

#[tokio::test]
async fn resources_and_prompts_outside_the_scopes_do_not_exist() {
    let addr = serve().await;
    let listed_by = |scopes| async move {
        let resources = ask(addr, scopes, "resources/list", json!({})).await;
        let templates = ask(addr, scopes, "resources/templates/list", json!({})).await;
        let prompts = ask(addr, scopes, "prompts/list", json!({})).await;
        assert_eq!(resources["result"]["cacheScope"], "private", "{resources}");
        (
            listed(&resources, "resources", "uri")
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
            listed(&templates, "resourceTemplates", "uriTemplate")
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
            listed(&prompts, "prompts", "name")
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        )
    };
    let (resources, templates, prompts) = listed_by(Some("read")).await;
    assert_eq!(resources, ["shelf://all"]);
    assert_eq!(templates, ["shelf://items/{id}"]);
    assert_eq!(prompts, ["tidy"]);
    let (resources, templates, prompts) = listed_by(Some("admin")).await;
    assert_eq!(resources, ["shelf://all", "shelf://secret"]);
    assert_eq!(templates, ["shelf://items/{id}", "admin://{id}"]);
    assert_eq!(prompts, ["tidy", "purge"]);

    let read = |uri: &'static str, scopes| async move {
        ask(addr, Some(scopes), "resources/read", json!({ "uri": uri })).await
    };
    let missing = read("shelf://nothing", "read").await;
    for uri in ["shelf://secret", "admin://7"] {
        let hidden = read(uri, "read").await;
        assert_eq!(
            hidden["error"]["code"], missing["error"]["code"],
            "{hidden}"
        );
        assert!(read(uri, "admin").await["result"].is_object(), "{uri}");
    }

    let hidden = ask(addr, Some("read"), "prompts/get", json!({"name": "purge"})).await;
    assert_eq!(
        hidden["error"]["message"], "Unknown prompt: purge",
        "{hidden}"
    );
    let got = ask(addr, Some("admin"), "prompts/get", json!({"name": "purge"})).await;
    assert!(got["result"]["messages"].is_array(), "{got}");

    let complete = |r: Value, scopes| async move {
        let params = json!({"ref": r, "argument": {"name": "id", "value": ""}});
        ask(addr, Some(scopes), "completion/complete", params).await
    };
    let template = json!({"type": "ref/resource", "uri": "admin://{id}"});
    let hidden = complete(template.clone(), "read").await;
    assert_eq!(
        hidden["error"]["message"], "Unknown resource template: admin://{id}",
        "{hidden}"
    );
    let completed = complete(template, "admin").await;
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["one", "two"])
    );
    let prompt = json!({"type": "ref/prompt", "name": "purge"});
    let hidden = complete(prompt, "read").await;
    assert_eq!(
        hidden["error"]["message"], "Unknown prompt: purge",
        "{hidden}"
    );
}

#[tokio::test]
async fn a_resource_outside_the_scopes_cannot_be_subscribed_to() {
    let addr = serve().await;
    let params = json!({"uri": "shelf://secret"});
    let refused = ask_legacy(addr, "read", "resources/subscribe", params.clone()).await;
    assert_eq!(
        refused["error"]["message"],
        "`shelf://secret` is not a resource that announces its changes",
        "{refused}"
    );
    let subscribed = ask_legacy(addr, "admin", "resources/subscribe", params).await;
    assert!(subscribed["result"].is_object(), "{subscribed}");
}

#[tokio::test]
async fn a_2026_listener_hears_only_of_resources_its_scopes_allow() {
    let server = Server::new(Shelf);
    let addr = scoped::serve(server.clone()).await;

    let mut admin = listen_as(addr, "admin", "shelf://secret").await;
    let mut reader = listen_as(addr, "read", "shelf://secret").await;
    server.resource_updated("shelf://secret").await;
    let wait = Duration::from_secs(2);
    let updated = "notifications/resources/updated";
    let heard = heard_within(&mut admin, wait, updated).await;
    assert!(
        heard.contains(updated),
        "the admin hears the update: {heard}"
    );
    let heard = heard_within(&mut reader, Duration::from_millis(500), updated).await;
    assert!(!heard.contains(updated), "the reader does not: {heard}");
}
