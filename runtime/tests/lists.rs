//! Lists that change at run time (`Server::lists`): switched-off entries vanish for every
//! connection and view, on both revisions, over stdio and HTTP; clients are told with
//! `notifications/*/list_changed` (2025-11-25 connections, 2026-07-28 listeners); the
//! capability and the cache hints say so only when the contract declares it.

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use mcp_contract::codegen::{
    BoxFuture, CacheHint, CallToolResult, ContractSpec, Dispatch, GroupSpec, JsonObject,
    PromptSpec, Published, ResourceSpec, ToolSpec,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ErrorCode, GetPromptRequestParams,
    Implementation, ReadResourceRequestParams, ServerNotification, SubscriptionFilter,
};
use mcp_contract::rmcp::service::{NotificationContext, RoleClient, RunningService};
use mcp_contract::rmcp::transport::StreamableHttpClientTransport;
use mcp_contract::rmcp::{ClientHandler, ServiceError, ServiceExt as _};
use mcp_contract::testing::{Client, Revision, connect, connect_http, serve_on_loopback};
use mcp_contract::{
    CHANGING_LIST_TTL_MS, Context, Entry, ListError, PromptError, PromptMessage, ResourceBody,
    ResourceError, Role, Server,
};
use serde_json::json;
use tokio::sync::mpsc;

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"get","description":"Reads one item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"find","description":"Searches.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"put","description":"Stores one item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"ping","description":"Answers; switches the tool `toggle` names off or on.","inputSchema":{"type":"object","properties":{"toggle":{"type":"string"}},"additionalProperties":false}}"#,
    ),
];

const NOTES: ResourceSpec = ResourceSpec {
    name: "notes",
    title: "Notes",
    description: "The notes.",
    mime_type: "text/plain",
    uri: "shelf://notes",
    template: false,
    subscribe: false,
    completions: &[],
    icons: &[],
    scopes: &[],
    meta: None,
    app: None,
};

/// `get` is in `read`, `find` in `read` and `write`, `put` in `write`, `ping` in none. No
/// cache hint: rmcp's 2026-07-28 client would keep a list for its `ttlMs`, and these tests
/// change lists without listening.
static CHANGING: ContractSpec = ContractSpec {
    name: "shelf",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[
        NOTES,
        ResourceSpec {
            name: "item",
            uri: "shelf://items/{id}",
            template: true,
            ..NOTES
        },
    ],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[
        GroupSpec {
            name: "read",
            description: "Reading.",
            tools: &["get", "find"],
            scopes: &[],
        },
        GroupSpec {
            name: "write",
            description: "Changing.",
            tools: &["find", "put"],
            scopes: &[],
        },
    ],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: true,
    prompts: &[PromptSpec {
        name: "tidy",
        title: "Tidy",
        description: "Tidies the shelf.",
        arguments: &[],
        icons: &[],
        scopes: &[],
        meta: None,
    }],
    access: mcp_contract::codegen::AccessSpec::OPEN,
};

/// A long public cache hint.
const LONG: Option<CacheHint> = Some(CacheHint {
    ttl_ms: 300_000,
    public: true,
});

/// The same contract, with the long cache hint.
static CACHED: ContractSpec = ContractSpec {
    name: "cached",
    cache: LONG,
    ..CHANGING
};

/// The same contract with the long cache hint, whose lists are fixed.
static FIXED: ContractSpec = ContractSpec {
    name: "fixed",
    list_changed: false,
    cache: LONG,
    ..CHANGING
};

static CHANGING_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&CHANGING));
static CACHED_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&CACHED));
static FIXED_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&FIXED));

/// Answers every call with the tool's index, resources and prompts with a word; a call with
/// `toggle` switches that tool through the call's context, and answers whether it is now on.
struct Shelf(&'static Published);

impl Dispatch for Shelf {
    fn published(&self) -> &'static Published {
        self.0
    }

    fn call(&self, tool: usize, args: JsonObject, cx: Context) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async move {
            let Some(name) = args.get("toggle").and_then(|v| v.as_str()) else {
                return CallToolResult::structured(json!({ "tool": tool }));
            };
            let lists = cx
                .lists()
                .expect("a served call reaches the server's lists");
            let entry = Entry::Tool(name);
            let on = !lists.is_enabled(entry).expect("a tool of the manifest");
            let switched = if on {
                lists.enable(entry)
            } else {
                lists.disable(entry)
            };
            match switched {
                Ok(()) => CallToolResult::structured(json!({ "tool": tool, "on": on })),
                Err(e) => {
                    CallToolResult::error(vec![mcp_contract::rmcp::model::ContentBlock::text(
                        e.to_string(),
                    )])
                }
            }
        })
    }

    fn read_resource(
        &self,
        _: usize,
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'_, Result<ResourceBody, ResourceError>> {
        Box::pin(async { Ok(ResourceBody::Text("notes".into())) })
    }

    fn get_prompt(
        &self,
        _: usize,
        _: HashMap<String, String>,
        _: Context,
    ) -> BoxFuture<'_, Result<Vec<PromptMessage>, PromptError>> {
        Box::pin(async { Ok(vec![PromptMessage::text(Role::User, "tidy")]) })
    }
}

fn changing() -> Server<Shelf> {
    Server::new(Shelf(&CHANGING_PUBLISHED))
}

fn fixed() -> Server<Shelf> {
    Server::new(Shelf(&FIXED_PUBLISHED))
}

const WAIT: Duration = Duration::from_secs(10);

async fn tool_names(client: &Client) -> Vec<String> {
    let listed = client.list_all_tools().await.expect("tools/list");
    listed.iter().map(|t| t.name.to_string()).collect()
}

/// Asserts that calling `name` is exactly the unknown-tool error.
async fn assert_unknown_tool(client: &Client, name: &str, at: &str) {
    match client
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await
    {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{at}: {e:?}");
            assert_eq!(e.message, format!("Unknown tool: {name}"), "{at}: {e:?}");
        }
        other => panic!("{at}: `{name}` should be unknown, got {other:?}"),
    }
}

async fn assert_calls(client: &Client, name: &str, at: &str) {
    let called = client
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await;
    assert!(
        matches!(called, Ok(ref r) if r.is_error != Some(true)),
        "{at}: {called:?}"
    );
}

/// Disables `put` and checks it gone from `client`, re-enables it and checks it back.
async fn disable_and_enable_put(server: &Server<Shelf>, client: &Client, at: &str) {
    assert_eq!(
        tool_names(client).await,
        ["get", "find", "put", "ping"],
        "{at}"
    );
    server
        .lists()
        .disable(Entry::Tool("put"))
        .expect("declared");
    assert_eq!(tool_names(client).await, ["get", "find", "ping"], "{at}");
    assert_unknown_tool(client, "put", at).await;
    assert_calls(client, "get", at).await;
    server.lists().enable(Entry::Tool("put")).expect("declared");
    assert_eq!(
        tool_names(client).await,
        ["get", "find", "put", "ping"],
        "{at}"
    );
    assert_calls(client, "put", at).await;
}

#[tokio::test]
async fn a_disabled_tool_is_unknown_until_enabled_again_over_stdio() {
    for revision in Revision::ALL {
        let server = changing();
        let client = connect(server.clone(), revision).await.expect("connects");
        disable_and_enable_put(&server, &client, &format!("stdio {revision}")).await;
        let _ = client.cancel().await;
    }
}

#[tokio::test]
async fn a_disabled_tool_is_unknown_until_enabled_again_over_http() {
    for sessions in [false, true] {
        let server = changing();
        let mut host = Host::new().mount("/mcp", server.clone());
        if sessions {
            host = host.sessions(SessionLimits::default());
        }
        let addr = serve_on_loopback(host).await;
        for revision in Revision::ALL {
            let url = format!("http://{addr}/mcp");
            let client = connect_http(&url, revision).await.expect("connects");
            let at = format!("http {revision}, sessions {sessions}");
            disable_and_enable_put(&server, &client, &at).await;
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn get_tool_does_not_find_a_disabled_tool() {
    use mcp_contract::rmcp::ServerHandler as _;
    let server = changing();
    assert!(server.get_tool("put").is_some());
    server
        .lists()
        .disable(Entry::Tool("put"))
        .expect("declared");
    assert!(server.get_tool("put").is_none());
    assert!(
        server
            .group("write")
            .expect("a group")
            .get_tool("put")
            .is_none()
    );
}

#[tokio::test]
async fn a_disabled_group_empties_its_route_and_hides_tools_no_other_group_serves() {
    let server = changing();
    let host = Host::new()
        .mount("/mcp", server.clone())
        .mount_groups("/mcp", server.clone());
    let addr = serve_on_loopback(host).await;
    server
        .lists()
        .disable(Entry::Group("write"))
        .expect("declared");
    for revision in Revision::ALL {
        let at = |route: &str| format!("{route} on {revision}");
        let write = connect_http(&format!("http://{addr}/mcp/write"), revision)
            .await
            .expect("connects");
        assert!(tool_names(&write).await.is_empty(), "{}", at("write"));
        assert_unknown_tool(&write, "find", &at("write")).await;
        let read = connect_http(&format!("http://{addr}/mcp/read"), revision)
            .await
            .expect("connects");
        assert_eq!(tool_names(&read).await, ["get", "find"], "{}", at("read"));
        // `find` is still served through `read`; `put` had only `write`.
        let all = connect_http(&format!("http://{addr}/mcp"), revision)
            .await
            .expect("connects");
        assert_eq!(
            tool_names(&all).await,
            ["get", "find", "ping"],
            "{}",
            at("all")
        );
        assert_unknown_tool(&all, "put", &at("all")).await;
        for client in [write, read, all] {
            let _ = client.cancel().await;
        }
    }
    server
        .lists()
        .enable(Entry::Group("write"))
        .expect("declared");
    let write = connect_http(&format!("http://{addr}/mcp/write"), Revision::V2026_07_28)
        .await
        .expect("connects");
    assert_eq!(tool_names(&write).await, ["find", "put"]);
    let _ = write.cancel().await;
}

#[tokio::test]
async fn disabled_prompts_and_resources_are_unknown() {
    for revision in Revision::ALL {
        let server = changing();
        let client = connect(server.clone(), revision).await.expect("connects");
        let lists = server.lists();
        lists.disable(Entry::Prompt("tidy")).expect("declared");
        lists.disable(Entry::Resource("notes")).expect("declared");
        lists.disable(Entry::Resource("item")).expect("declared");
        let prompts = client.list_all_prompts().await.expect("prompts/list");
        assert!(prompts.is_empty(), "{revision}: {prompts:?}");
        let got = client.get_prompt(GetPromptRequestParams::new("tidy")).await;
        match got {
            Err(ServiceError::McpError(e)) => assert_eq!(e.message, "Unknown prompt: tidy"),
            other => panic!("{revision}: {other:?}"),
        }
        let resources = client.list_all_resources().await.expect("resources/list");
        assert!(resources.is_empty(), "{revision}: {resources:?}");
        let templates = client
            .list_all_resource_templates()
            .await
            .expect("templates");
        assert!(templates.is_empty(), "{revision}: {templates:?}");
        for uri in ["shelf://notes", "shelf://items/1"] {
            let read = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await;
            match read {
                Err(ServiceError::McpError(e)) => {
                    assert_eq!(
                        e.message,
                        format!("Resource not found: {uri}"),
                        "{revision}"
                    )
                }
                other => panic!("{revision}: {uri} should be unknown, got {other:?}"),
            }
        }
        lists.enable(Entry::Prompt("tidy")).expect("declared");
        lists.enable(Entry::Resource("notes")).expect("declared");
        assert_eq!(client.list_all_prompts().await.expect("listed").len(), 1);
        assert_eq!(client.list_all_resources().await.expect("listed").len(), 1);
        assert!(
            (client
                .read_resource(ReadResourceRequestParams::new("shelf://notes"))
                .await)
                .is_ok()
        );
        let _ = client.cancel().await;
    }
}

#[test]
fn unknown_names_and_undeclared_changes_are_refused() {
    let lists = changing().lists();
    for (entry, what) in [
        (Entry::Tool("nope"), "tool `nope`"),
        (Entry::Group("nope"), "group `nope`"),
        (Entry::Prompt("nope"), "prompt `nope`"),
        (Entry::Resource("shelf://notes"), "resource `shelf://notes`"),
    ] {
        assert_eq!(lists.disable(entry), Err(ListError::Unknown(what.into())));
    }
    assert_eq!(lists.is_enabled(Entry::Tool("put")), Ok(true));
    let refused = fixed().lists().disable(Entry::Tool("put"));
    assert_eq!(refused, Err(ListError::Undeclared));
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("list_changed: true")
    );
}

/// What a capability says about `list`.
fn list_changed(capabilities: &serde_json::Value, list: &str) -> serde_json::Value {
    capabilities[list]["listChanged"].clone()
}

#[tokio::test]
async fn list_changed_is_advertised_exactly_when_declared() {
    for revision in Revision::ALL {
        for (server, declared) in [(changing(), true), (fixed(), false)] {
            let client = connect(server, revision).await.expect("connects");
            let info = client.peer_info().expect("server info");
            let capabilities = serde_json::to_value(&info.capabilities).expect("json");
            for list in ["tools", "prompts", "resources"] {
                let expected = if declared { json!(true) } else { json!(null) };
                assert_eq!(
                    list_changed(&capabilities, list),
                    expected,
                    "{revision}, declared {declared}: {capabilities}"
                );
            }
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn a_changing_list_is_cached_briefly_and_a_fixed_one_as_declared() {
    let cached = Server::new(Shelf(&CACHED_PUBLISHED));
    for (server, ttl) in [(cached, CHANGING_LIST_TTL_MS), (fixed(), 300_000)] {
        let client = connect(server, Revision::V2026_07_28)
            .await
            .expect("connects");
        let listed = client.list_tools(None).await.expect("tools/list");
        assert_eq!(listed.ttl_ms, Some(ttl));
        let scope = serde_json::to_value(listed.cache_scope).expect("json");
        assert_eq!(scope, "public", "the same for every caller");
        let prompts = client.list_prompts(None).await.expect("prompts/list");
        assert_eq!(prompts.ttl_ms, Some(ttl));
        let _ = client.cancel().await;
    }
}

/// A 2025-11-25 client that records every list change it is told of.
struct Recorder(mpsc::UnboundedSender<&'static str>);

impl ClientHandler for Recorder {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("tools");
    }
    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("prompts");
    }
    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("resources");
    }
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("recorder", "0"),
        )
    }
}

type Recording = (
    RunningService<RoleClient, Recorder>,
    mpsc::UnboundedReceiver<&'static str>,
);

async fn record_stdio(server: Server<Shelf>) -> Recording {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_stream(read, write, Default::default()));
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Recorder(tx).serve(client_io).await.expect("initialized");
    (client, rx)
}

async fn record_http(url: String) -> Recording {
    let (tx, rx) = mpsc::unbounded_channel();
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = Recorder(tx).serve(transport).await.expect("initialized");
    (client, rx)
}

/// Changes a tool, a prompt and a resource, and checks `recording` is told of each list.
async fn assert_told(server: &Server<Shelf>, recording: &mut Recording, at: &str) {
    let (client, heard) = recording;
    // The client's own requests go first, so the server has seen it initialized.
    assert_eq!(
        client.list_all_tools().await.expect("tools/list").len(),
        4,
        "{at}"
    );
    let lists = server.lists();
    for (entry, list) in [
        (Entry::Tool("put"), "tools"),
        (Entry::Prompt("tidy"), "prompts"),
        (Entry::Resource("notes"), "resources"),
    ] {
        lists.disable(entry).expect("declared");
        let told = tokio::time::timeout(WAIT, heard.recv()).await;
        assert_eq!(told, Ok(Some(list)), "{at}: {entry:?}");
        lists.enable(entry).expect("declared");
        let told = tokio::time::timeout(WAIT, heard.recv()).await;
        assert_eq!(told, Ok(Some(list)), "{at}: {entry:?} again");
    }
    // Switching on what is on changes nothing and tells no one.
    lists.enable(Entry::Tool("put")).expect("declared");
    let quiet = tokio::time::timeout(Duration::from_millis(200), heard.recv()).await;
    assert!(quiet.is_err(), "{at}: {quiet:?}");
}

#[tokio::test]
async fn a_2025_client_over_stdio_is_told_of_each_change() {
    let server = changing();
    let mut recording = record_stdio(server.clone()).await;
    assert_told(&server, &mut recording, "stdio").await;
    let _ = recording.0.cancel().await;
}

#[tokio::test]
async fn a_2025_client_over_http_sessions_is_told_of_each_change() {
    let server = changing();
    let host = Host::new()
        .mount("/mcp", server.clone())
        .sessions(SessionLimits::default());
    let addr = serve_on_loopback(host).await;
    let mut first = record_http(format!("http://{addr}/mcp")).await;
    let mut second = record_http(format!("http://{addr}/mcp")).await;
    // One session gone: the change still reaches the other at once.
    let _ = second.0.cancel().await;
    assert_told(&server, &mut first, "http session").await;
    let told = second.1.try_recv();
    assert!(told.is_err(), "a closed session was told {told:?}");
    let _ = first.0.cancel().await;
}

/// Calls `ping` to switch `put`; whether `put` is now on.
async fn toggle_put(client: &RunningService<RoleClient, impl ClientHandler>) -> serde_json::Value {
    let args = json!({"toggle": "put"})
        .as_object()
        .cloned()
        .expect("an object");
    let done = client
        .call_tool(CallToolRequestParams::new("ping").with_arguments(args))
        .await
        .expect("called");
    done.structured_content
        .and_then(|s| s.get("on").cloned())
        .unwrap_or_else(|| json!(format!("{:?}", done.content)))
}

#[tokio::test]
async fn a_handler_switches_a_tool_through_its_context_and_clients_are_told() {
    let server = changing();
    let (client, mut heard) = record_stdio(server.clone()).await;
    assert_eq!(toggle_put(&client).await, json!(false));
    let told = tokio::time::timeout(WAIT, heard.recv()).await;
    assert_eq!(told, Ok(Some("tools")));
    let names: Vec<String> = (client.list_all_tools().await.expect("listed").iter())
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["get", "find", "ping"]);
    assert!(!server.lists().is_enabled(Entry::Tool("put")).unwrap());
    // Another connection sees it too, and the next call switches it back on.
    let other = connect(server.clone(), Revision::V2026_07_28)
        .await
        .expect("connects");
    assert_eq!(tool_names(&other).await, ["get", "find", "ping"]);
    assert_eq!(toggle_put(&client).await, json!(true));
    let told = tokio::time::timeout(WAIT, heard.recv()).await;
    assert_eq!(told, Ok(Some("tools")));
    assert_eq!(tool_names(&other).await, ["get", "find", "put", "ping"]);
    assert!(Context::detached().lists().is_none());
    let _ = other.cancel().await;
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_handler_of_a_fixed_contract_is_refused_a_change() {
    let (client, _heard) = record_stdio(fixed()).await;
    let refused = toggle_put(&client).await;
    assert!(
        refused
            .as_str()
            .is_some_and(|t| t.contains("list_changed: true")),
        "{refused}"
    );
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_fixed_contract_tells_no_one() {
    let server = fixed();
    let (client, mut heard) = record_stdio(server.clone()).await;
    assert_eq!(client.list_all_tools().await.expect("listed").len(), 4);
    assert!(server.lists().disable(Entry::Tool("put")).is_err());
    let quiet = tokio::time::timeout(Duration::from_millis(200), heard.recv()).await;
    assert!(quiet.is_err(), "{quiet:?}");
    assert_eq!(client.list_all_tools().await.expect("listed").len(), 4);
    let _ = client.cancel().await;
}

/// The next list change on `subscription`, within [`WAIT`].
async fn next_change(subscription: &mut mcp_contract::rmcp::service::Subscription) -> &'static str {
    let next = tokio::time::timeout(WAIT, subscription.next()).await;
    match next {
        Ok(Ok(Some(ServerNotification::ToolListChangedNotification(_)))) => "tools",
        Ok(Ok(Some(ServerNotification::PromptListChangedNotification(_)))) => "prompts",
        Ok(Ok(Some(ServerNotification::ResourceListChangedNotification(_)))) => "resources",
        other => panic!("expected a list change, got {other:?}"),
    }
}

async fn assert_listener_told(client: &Client, server: &Server<Shelf>, at: &str) {
    let filter = SubscriptionFilter::builder()
        .tools_list_changed()
        .resources_list_changed()
        .build();
    let mut subscription = client.peer().listen(filter).await.expect("listening");
    assert_eq!(
        subscription.acknowledged().tools_list_changed,
        Some(true),
        "{at}"
    );
    assert_eq!(
        subscription.acknowledged().prompts_list_changed,
        None,
        "{at}"
    );
    let lists = server.lists();
    lists.disable(Entry::Tool("put")).expect("declared");
    assert_eq!(next_change(&mut subscription).await, "tools", "{at}");
    // A prompt change was not asked for: the next one heard is the resource's.
    lists.disable(Entry::Prompt("tidy")).expect("declared");
    lists.disable(Entry::Resource("notes")).expect("declared");
    assert_eq!(next_change(&mut subscription).await, "resources", "{at}");
    subscription.cancel().await.expect("stopped listening");
}

#[tokio::test]
async fn a_2026_listener_over_stdio_hears_the_changes_it_asked_for() {
    let server = changing();
    let client = connect(server.clone(), Revision::V2026_07_28)
        .await
        .expect("connects");
    assert_listener_told(&client, &server, "stdio").await;
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_2026_listener_over_http_hears_the_changes_it_asked_for() {
    let server = changing();
    let addr = serve_on_loopback(Host::new().mount("/mcp", server.clone())).await;
    let client = connect_http(&format!("http://{addr}/mcp"), Revision::V2026_07_28)
        .await
        .expect("connects");
    assert_listener_told(&client, &server, "http").await;
    let _ = client.cancel().await;
}

#[tokio::test]
async fn listening_to_a_fixed_contract_is_method_not_found() {
    let client = connect(fixed(), Revision::V2026_07_28)
        .await
        .expect("connects");
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    match client.peer().listen(filter).await {
        Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::METHOD_NOT_FOUND),
        other => panic!("expected -32601, got {:?}", other.map(|s| s.id().clone())),
    }
    let _ = client.cancel().await;
}

#[tokio::test]
async fn listeners_are_bounded() {
    let server = changing();
    let client = connect(server.clone(), Revision::V2026_07_28)
        .await
        .expect("connects");
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut held = Vec::new();
    for _ in 0..mcp_contract::MAX_LISTENERS {
        held.push(
            client
                .peer()
                .listen(filter.clone())
                .await
                .expect("listening"),
        );
    }
    let mut past = client
        .peer()
        .listen(filter.clone())
        .await
        .expect("acknowledged");
    let ended = tokio::time::timeout(WAIT, past.next()).await;
    assert!(
        matches!(ended, Ok(Err(_)) | Ok(Ok(None))),
        "the listener past the bound is ended: {ended:?}"
    );
    // One stops listening: its place is free again.
    held.pop().expect("one").cancel().await.expect("stopped");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = client.peer().listen(filter).await.expect("listening");
    server
        .lists()
        .disable(Entry::Tool("put"))
        .expect("declared");
    assert_eq!(next_change(&mut again).await, "tools");
    let _ = client.cancel().await;
}
