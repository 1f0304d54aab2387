//! Who sees what, path by path: an entry out of the route's view, out of the caller's scopes,
//! or switched off is invisible on every path (list, call, read, get, complete, subscribe,
//! listen) on both revisions, answered exactly as an entry the manifest does not have. Each
//! test also shows the entry visible to a caller who reaches it, so that what hides it is
//! the rule and nothing else.
//!
//! The caller is put in by a stand-in for the host's authorization (a layer reading
//! `X-Test-Scopes`), as in `access.rs`.

mod scoped;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::LazyLock;
use std::time::Duration;

use mcp_contract::rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ResourceUpdatedNotificationParam,
    SubscribeRequestParams,
};
use mcp_contract::rmcp::service::NotificationContext;
use mcp_contract::rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use tokio::sync::mpsc;

use mcp_contract::codegen::{
    AccessSpec, BoxFuture, CallToolResult, CompletionSpec, ContractSpec, Dispatch, JsonObject,
    PromptArgumentSpec, PromptSpec, Published, ResourceSpec, ScopeSpec, ToolSpec,
};
use mcp_contract::testing::http_request;
use mcp_contract::{
    Context, Entry, PromptError, PromptMessage, ResourceBody, ResourceError, Revision, Role, Server,
};
use serde_json::{Value, json};

use scoped::{heard_within, listen_as, serve};

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"get","description":"Reads.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"put","description":"Stores.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec {
        json: r#"{"name":"drop","description":"Deletes.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        scopes: &["admin"],
        errors: &[],
        recorded: &[],
    },
    ToolSpec::open(
        r#"{"name":"ping","description":"Answers.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

const FIXED: ResourceSpec = ResourceSpec {
    name: "all",
    title: "All",
    description: "Every item.",
    mime_type: "text/plain",
    uri: "shelf://all",
    template: false,
    subscribe: true,
    completions: &[],
    icons: &[],
    scopes: &[],
    meta: None,
    app: None,
};

const TEMPLATE: ResourceSpec = ResourceSpec {
    name: "item",
    uri: "items://{id}",
    template: true,
    subscribe: false,
    completions: &[("id", CompletionSpec::Values(&["one", "two"]))],
    ..FIXED
};

const PROMPT: PromptSpec = PromptSpec {
    name: "tidy",
    title: "Tidy",
    description: "Tidies.",
    arguments: &[PromptArgumentSpec {
        name: "how",
        description: "How.",
        required: false,
        completion: CompletionSpec::Values(&["neatly", "quickly"]),
    }],
    icons: &[],
    scopes: &[],
    meta: None,
};

/// For each kind, an entry every caller reaches (`get`, `shelf://all`, `items://{id}`,
/// `tidy`), one that needs the `admin` scope (`drop`, `shelf://secret`, `admin://{id}`,
/// `purge`) and one that [`served`] switches off (`ping`, `shelf://off`, `off://{id}`, `nap`);
/// `put` is left out of the route's view.
static SHELF: ContractSpec = ContractSpec {
    name: "shelf",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[
        FIXED,
        ResourceSpec {
            name: "secret",
            uri: "shelf://secret",
            scopes: &["admin"],
            ..FIXED
        },
        ResourceSpec {
            name: "off",
            uri: "shelf://off",
            ..FIXED
        },
        TEMPLATE,
        ResourceSpec {
            name: "admin",
            uri: "admin://{id}",
            scopes: &["admin"],
            ..TEMPLATE
        },
        ResourceSpec {
            name: "offs",
            uri: "off://{id}",
            ..TEMPLATE
        },
    ],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: true,
    prompts: &[
        PROMPT,
        PromptSpec {
            name: "purge",
            scopes: &["admin"],
            ..PROMPT
        },
        PromptSpec {
            name: "nap",
            ..PROMPT
        },
    ],
    access: AccessSpec {
        resource: None,
        authorization_servers: &[],
        scopes: &[ScopeSpec {
            name: "admin",
            description: "Everything.",
        }],
    },
};

static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SHELF));

/// Answers every call, read and get.
struct Shelf;

impl Dispatch for Shelf {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(&self, _: usize, _: JsonObject, _: Context) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async { CallToolResult::structured(json!({})) })
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

/// The whole server with `ping`, `shelf://off`, `off://{id}` and `nap` switched off.
fn switched() -> Server<Shelf> {
    let server = Server::new(Shelf);
    let lists = server.lists();
    for entry in [
        Entry::Tool("ping"),
        Entry::Resource("off"),
        Entry::Resource("offs"),
        Entry::Prompt("nap"),
    ] {
        lists.disable(entry).expect("declared");
    }
    server
}

/// The route of these tests: [`switched`], with `put` out of its view.
async fn route() -> SocketAddr {
    serve(switched().restrict(|t| t.name != "put")).await
}

/// Sends a request of `revision` as a caller with `scopes` and returns the JSON-RPC answer.
async fn ask(
    addr: SocketAddr,
    revision: Revision,
    scopes: &str,
    method: &str,
    mut params: Value,
) -> Value {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", revision.as_str()),
        ("X-Test-Scopes", scopes),
    ];
    let name = (params.get("name").or_else(|| params.get("uri")))
        .and_then(Value::as_str)
        .map(str::to_owned);
    if revision == Revision::V2026_07_28 {
        params["_meta"] = mcp_contract::testing::request_meta();
        headers.push(("Mcp-Method", method));
        if let Some(name) = &name {
            headers.push(("Mcp-Name", name));
        }
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let response = http_request(addr, "POST", "/mcp", &headers, body.to_string())
        .await
        .expect("an answer");
    response.json().expect("a JSON body")
}

fn listed(answer: &Value, key: &str, field: &str) -> Vec<String> {
    answer["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {answer}"))
        .iter()
        .map(|t| t[field].as_str().expect("a string").to_owned())
        .collect()
}

/// The callers: one without the `admin` scope, and one with it.
const READER: &str = "read";
const ADMIN: &str = "admin";

#[tokio::test]
async fn list_leaves_out_what_is_out_of_view_out_of_scope_or_switched_off() {
    let addr = route().await;
    for revision in Revision::ALL {
        let list = |scopes, method, key, field| async move {
            listed(
                &ask(addr, revision, scopes, method, json!({})).await,
                key,
                field,
            )
        };
        // `put` out of the view and `ping` switched off, for everyone; `drop` for the reader.
        let tools = ("tools/list", "tools", "name");
        assert_eq!(
            list(READER, tools.0, tools.1, tools.2).await,
            ["get"],
            "{revision}"
        );
        assert_eq!(
            list(ADMIN, tools.0, tools.1, tools.2).await,
            ["get", "drop"],
            "{revision}"
        );
        let fixed = ("resources/list", "resources", "uri");
        assert_eq!(
            list(READER, fixed.0, fixed.1, fixed.2).await,
            ["shelf://all"],
            "{revision}"
        );
        assert_eq!(
            list(ADMIN, fixed.0, fixed.1, fixed.2).await,
            ["shelf://all", "shelf://secret"],
            "{revision}"
        );
        let templates = (
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate",
        );
        assert_eq!(
            list(READER, templates.0, templates.1, templates.2).await,
            ["items://{id}"],
            "{revision}"
        );
        assert_eq!(
            list(ADMIN, templates.0, templates.1, templates.2).await,
            ["items://{id}", "admin://{id}"],
            "{revision}"
        );
        let prompts = ("prompts/list", "prompts", "name");
        assert_eq!(
            list(READER, prompts.0, prompts.1, prompts.2).await,
            ["tidy"],
            "{revision}"
        );
        assert_eq!(
            list(ADMIN, prompts.0, prompts.1, prompts.2).await,
            ["tidy", "purge"],
            "{revision}"
        );
    }
}

#[tokio::test]
async fn call_answers_a_tool_out_of_view_out_of_scope_or_switched_off_as_unknown() {
    let addr = route().await;
    for revision in Revision::ALL {
        let call = |scopes, tool: &'static str| async move {
            ask(
                addr,
                revision,
                scopes,
                "tools/call",
                json!({ "name": tool }),
            )
            .await
        };
        let unknown = call(ADMIN, "nothing").await;
        for (scopes, tool) in [(ADMIN, "put"), (READER, "drop"), (ADMIN, "ping")] {
            let refused = call(scopes, tool).await;
            assert_eq!(
                refused["error"]["code"], unknown["error"]["code"],
                "{revision}: {refused}"
            );
            assert_eq!(
                refused["error"]["message"],
                format!("Unknown tool: {tool}"),
                "{revision}: {refused}"
            );
        }
        for (scopes, tool) in [(READER, "get"), (ADMIN, "drop")] {
            let called = call(scopes, tool).await;
            assert_eq!(called["result"]["isError"], false, "{revision}: {called}");
        }
    }
}

#[tokio::test]
async fn read_answers_a_resource_out_of_scope_or_switched_off_as_not_found() {
    let addr = route().await;
    for revision in Revision::ALL {
        let read = |scopes, uri: &'static str| async move {
            ask(
                addr,
                revision,
                scopes,
                "resources/read",
                json!({ "uri": uri }),
            )
            .await
        };
        let missing = read(ADMIN, "shelf://nothing").await;
        for (scopes, uri) in [
            (READER, "shelf://secret"),
            (READER, "admin://7"),
            (ADMIN, "shelf://off"),
            (ADMIN, "off://7"),
        ] {
            let hidden = read(scopes, uri).await;
            assert_eq!(
                hidden["error"]["code"], missing["error"]["code"],
                "{revision}: {hidden}"
            );
            assert_eq!(
                hidden["error"]["message"],
                format!("Resource not found: {uri}"),
                "{revision}: {hidden}"
            );
        }
        for (scopes, uri) in [(READER, "shelf://all"), (ADMIN, "admin://7")] {
            let contents = &read(scopes, uri).await["result"]["contents"];
            assert!(contents.is_array(), "{revision}: {uri}: {contents}");
        }
    }
}

#[tokio::test]
async fn get_answers_a_prompt_out_of_scope_or_switched_off_as_unknown() {
    let addr = route().await;
    for revision in Revision::ALL {
        let get = |scopes, name: &'static str| async move {
            ask(
                addr,
                revision,
                scopes,
                "prompts/get",
                json!({ "name": name }),
            )
            .await
        };
        let unknown = get(ADMIN, "nothing").await;
        for (scopes, name) in [(READER, "purge"), (ADMIN, "nap")] {
            let hidden = get(scopes, name).await;
            assert_eq!(
                hidden["error"]["code"], unknown["error"]["code"],
                "{revision}: {hidden}"
            );
            assert_eq!(
                hidden["error"]["message"],
                format!("Unknown prompt: {name}"),
                "{revision}: {hidden}"
            );
        }
        let got = get(ADMIN, "purge").await;
        assert!(got["result"]["messages"].is_array(), "{revision}: {got}");
    }
}

#[tokio::test]
async fn complete_answers_an_entry_out_of_scope_or_switched_off_as_unknown() {
    let addr = route().await;
    for revision in Revision::ALL {
        let complete = |scopes, reference: Value, argument: &'static str| async move {
            let params = json!({"ref": reference, "argument": {"name": argument, "value": ""}});
            ask(addr, revision, scopes, "completion/complete", params).await
        };
        let prompt = |name| json!({"type": "ref/prompt", "name": name});
        let template = |uri| json!({"type": "ref/resource", "uri": uri});
        for (scopes, reference, argument, message) in [
            (READER, prompt("purge"), "how", "Unknown prompt: purge"),
            (ADMIN, prompt("nap"), "how", "Unknown prompt: nap"),
            (
                READER,
                template("admin://{id}"),
                "id",
                "Unknown resource template: admin://{id}",
            ),
            (
                ADMIN,
                template("off://{id}"),
                "id",
                "Unknown resource template: off://{id}",
            ),
        ] {
            let hidden = complete(scopes, reference, argument).await;
            assert_eq!(hidden["error"]["message"], message, "{revision}: {hidden}");
        }
        for (reference, argument, values) in [
            (prompt("purge"), "how", json!(["neatly", "quickly"])),
            (template("admin://{id}"), "id", json!(["one", "two"])),
        ] {
            let completed = complete(ADMIN, reference, argument).await;
            assert_eq!(
                completed["result"]["completion"]["values"], values,
                "{revision}: {completed}"
            );
        }
    }
}

#[tokio::test]
async fn subscribe_refuses_a_resource_out_of_scope_or_switched_off() {
    // `resources/subscribe` is a 2025-11-25 request; 2026-07-28 subscribes by listening.
    let addr = route().await;
    let subscribe = |scopes, uri: &'static str| async move {
        let params = json!({ "uri": uri });
        ask(
            addr,
            Revision::V2025_11_25,
            scopes,
            "resources/subscribe",
            params,
        )
        .await
    };
    let unknown = subscribe(ADMIN, "shelf://nothing").await;
    for (scopes, uri) in [(READER, "shelf://secret"), (ADMIN, "shelf://off")] {
        let refused = subscribe(scopes, uri).await;
        assert_eq!(
            refused["error"]["code"], unknown["error"]["code"],
            "{refused}"
        );
        assert_eq!(
            refused["error"]["message"],
            format!("`{uri}` is not a resource that announces its changes"),
            "{refused}"
        );
    }
    let subscribed = subscribe(ADMIN, "shelf://secret").await;
    assert!(subscribed["result"].is_object(), "{subscribed}");
}

const UPDATED: &str = "notifications/resources/updated";
const HEARD: Duration = Duration::from_secs(5);
const QUIET: Duration = Duration::from_millis(500);

#[tokio::test]
async fn listen_hears_nothing_of_a_resource_out_of_scope_or_switched_off() {
    let server = switched();
    let addr = serve(server.clone()).await;
    let mut secret = listen_as(addr, READER, "shelf://secret").await;
    let mut off = listen_as(addr, ADMIN, "shelf://off").await;
    let mut all = listen_as(addr, READER, "shelf://all").await;
    for uri in ["shelf://secret", "shelf://off", "shelf://all"] {
        server.resource_updated(uri).await;
    }
    let heard = heard_within(&mut all, HEARD, UPDATED).await;
    assert!(heard.contains("shelf://all"), "in reach, heard: {heard}");
    let heard = heard_within(&mut secret, QUIET, UPDATED).await;
    assert!(!heard.contains(UPDATED), "out of scope: {heard}");
    let heard = heard_within(&mut off, QUIET, UPDATED).await;
    assert!(!heard.contains(UPDATED), "switched off: {heard}");
}

#[tokio::test]
async fn a_listener_hears_nothing_of_a_resource_while_it_is_switched_off() {
    let server = switched();
    let addr = serve(server.clone()).await;
    let mut stream = listen_as(addr, ADMIN, "shelf://all").await;
    let lists = server.lists();
    lists.disable(Entry::Resource("all")).expect("declared");
    server.resource_updated("shelf://all").await;
    let heard = heard_within(&mut stream, QUIET, UPDATED).await;
    assert!(!heard.contains(UPDATED), "switched off: {heard}");
    // The subscription is kept: switched back on, its changes are heard again.
    lists.enable(Entry::Resource("all")).expect("declared");
    server.resource_updated("shelf://all").await;
    let heard = heard_within(&mut stream, HEARD, UPDATED).await;
    assert!(heard.contains("shelf://all"), "switched on again: {heard}");
}

/// A 2025-11-25 client that records the resources it is told changed.
struct Recorder(mpsc::UnboundedSender<String>);

impl ClientHandler for Recorder {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("recorder", "0"),
        )
    }
}

#[tokio::test]
async fn a_subscriber_hears_nothing_of_a_resource_while_it_is_switched_off() {
    let server = switched();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.clone().serve_stream(read, write, Default::default()));
    let (tx, mut heard) = mpsc::unbounded_channel();
    let client = Recorder(tx).serve(client_io).await.expect("initialized");
    #[allow(deprecated)] // rmcp marks `resources/subscribe` legacy: it is 2025-11-25's request.
    client
        .subscribe(SubscribeRequestParams::new("shelf://all"))
        .await
        .expect("subscribed");
    let lists = server.lists();
    lists.disable(Entry::Resource("all")).expect("declared");
    server.resource_updated("shelf://all").await;
    let quiet = tokio::time::timeout(QUIET, heard.recv()).await;
    assert!(quiet.is_err(), "switched off: {quiet:?}");
    lists.enable(Entry::Resource("all")).expect("declared");
    server.resource_updated("shelf://all").await;
    let told = tokio::time::timeout(HEARD, heard.recv()).await;
    assert_eq!(
        told,
        Ok(Some("shelf://all".to_owned())),
        "switched on again"
    );
    let _ = client.cancel().await;
}
