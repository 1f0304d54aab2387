//! Asking the client, end to end on both revisions over stdio and HTTP: 2026-07-28 rounds
//! (input-required results, a sealed request state) driven by raw requests, and 2025-11-25
//! requests to the client answered by an rmcp client handler.

#![allow(deprecated)] // rmcp marks sampling and roots deprecated (SEP-2577); both revisions have them.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_contract::ask::{Answer, Capability, Elicitation, NotAsked, Sampling};
use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
    ListRootsResult, Root, SamplingMessage,
};
use mcp_contract::rmcp::service::RequestContext;
use mcp_contract::rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt as _};
use mcp_contract::testing::{Lines, http_request, serve_lines, serve_on_loopback};
use mcp_contract::{Context, Server};
use serde_json::{Value, json};

const OBJECT: &str = r#""outputSchema":{"type":"object"}"#;

static TOOLS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    [
        r#"{"name":"confirm","description":"Deletes `path` once the user confirms.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false},"#,
        r#"{"name":"two_steps","description":"Asks a name, then a colour.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"#,
        r#"{"name":"together","description":"Asks a name, the model and the roots at once.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"#,
        r#"{"name":"needs_sampling","description":"Cannot do without sampling.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"#,
    ]
    .into_iter()
    .map(|tool| &*Box::leak(format!("{tool}{OBJECT}}}").into_boxed_str()))
    .collect()
});

static SPEC: LazyLock<ContractSpec> = LazyLock::new(|| ContractSpec {
    name: "asking",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: Box::leak(
        TOOLS
            .iter()
            .copied()
            .map(mcp_contract::codegen::ToolSpec::open)
            .collect(),
    ),
    resources: &[],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: false,
    prompts: &[],
    access: mcp_contract::codegen::AccessSpec::OPEN,
});
static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

/// The handler; counts its runs and the deletions it made.
#[derive(Default)]
struct Asker {
    runs: AtomicUsize,
    deleted: AtomicUsize,
}

fn name_form(id: &str, field: &str) -> Elicitation {
    Elicitation::form(
        id,
        format!("Your {field}?"),
        json!({"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}),
    )
}

/// An outcome as a word, for the result.
fn outcome<T>(answer: &Result<Answer<T>, NotAsked>) -> &'static str {
    match answer {
        Ok(Answer::Accept(_)) => "accept",
        Ok(Answer::Decline) => "decline",
        Ok(Answer::Cancel) => "cancel",
        Err(NotAsked::Unsupported(_)) => "unsupported",
        Err(NotAsked::Cancelled) => "cancelled",
        Err(NotAsked::Failed(_)) => "failed",
        Err(_) => "other",
    }
}

impl Asker {
    async fn confirm(&self, path: String, cx: Context) -> Value {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let question = Elicitation::form(
            "confirm",
            format!("Delete {path}?"),
            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
        );
        let answer = cx.elicit(question).await;
        let yes = matches!(&answer, Ok(Answer::Accept(content)) if content["ok"] == true);
        if yes {
            self.deleted.fetch_add(1, Ordering::SeqCst);
        }
        json!({"answer": outcome(&answer), "deleted": yes})
    }

    async fn two_steps(&self, cx: Context) -> Value {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let name = cx.elicit(name_form("step1", "name")).await;
        let name = name
            .ok()
            .and_then(Answer::accepted)
            .map(|c| c["name"].clone());
        let color = cx.elicit(name_form("step2", "color")).await;
        let color = color
            .ok()
            .and_then(Answer::accepted)
            .map(|c| c["color"].clone());
        json!({"name": name, "color": color})
    }

    async fn together(&self, cx: Context) -> Value {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let (name, sampled, roots) = tokio::join!(
            cx.elicit(name_form("user_name", "name")),
            cx.sample(Sampling::prompt("greeting", "Say hello", 20)),
            cx.roots("client_roots"),
        );
        json!({
            "name": outcome(&name),
            "sampled": sampled.map(|s| s.text).unwrap_or_else(|e| Some(format!("{e:?}"))),
            "roots": roots.map(|r| r.into_iter().map(|r| r.uri).collect::<Vec<_>>()).unwrap_or_default(),
        })
    }
}

/// The dispatcher of an [`Asker`] shared with the test.
struct Handler(Arc<Asker>);

impl Dispatch for Handler {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(
        &self,
        tool: usize,
        arguments: JsonObject,
        cx: Context,
    ) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async move {
            let value = match tool {
                0 => {
                    self.0
                        .confirm(arguments["path"].as_str().unwrap_or("").to_owned(), cx)
                        .await
                }
                1 => self.0.two_steps(cx).await,
                2 => self.0.together(cx).await,
                _ => {
                    if !cx.require(Capability::Sampling) {
                        return CallToolResult::structured(json!({}));
                    }
                    json!({"sampled": true})
                }
            };
            CallToolResult::structured(value)
        })
    }
}

// ---------------------------------------------------------------------------------------
// 2026-07-28: raw requests over stdio and HTTP.

/// A 2026-07-28 client end: stdio lines or an HTTP address.
enum Wire {
    Stdio(Lines, u64),
    Http(SocketAddr),
}

const EVERYTHING: &str = r#"{"elicitation":{},"sampling":{},"roots":{}}"#;

impl Wire {
    async fn open(server: Server<Handler>, http: bool) -> Wire {
        if http {
            Wire::Http(serve_on_loopback(Host::new().mount("/mcp", server)).await)
        } else {
            Wire::Stdio(serve_lines(server), 0)
        }
    }

    /// Calls `name` as a client declaring `capabilities`, with `extra` params merged in;
    /// returns the JSON-RPC `result` or `error` object, tagged.
    async fn call(
        &mut self,
        name: &str,
        arguments: Value,
        capabilities: &str,
        extra: Value,
    ) -> Reply {
        let mut params = json!({
            "name": name,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": serde_json::from_str::<Value>(capabilities).unwrap(),
            },
        });
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            params[k] = v;
        }
        let message = match self {
            Wire::Stdio(lines, id) => {
                *id += 1;
                lines.request(*id, "tools/call", params).await;
                loop {
                    let line = lines.answer().await;
                    if line.get("id").is_some() {
                        break line;
                    }
                }
            }
            Wire::Http(addr) => {
                let body =
                    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
                let response = http_request(
                    *addr,
                    "POST",
                    "/mcp",
                    &[
                        ("content-type", "application/json"),
                        ("accept", "application/json, text/event-stream"),
                        ("mcp-protocol-version", "2026-07-28"),
                        ("mcp-method", "tools/call"),
                        ("mcp-name", name),
                    ],
                    body.to_string(),
                )
                .await
                .expect("an HTTP answer");
                response.json().unwrap_or_else(|| {
                    let data = response
                        .body
                        .lines()
                        .rev()
                        .find_map(|l| l.strip_prefix("data:"));
                    serde_json::from_str(data.expect("a JSON or SSE body").trim()).expect("JSON")
                })
            }
        };
        match (message.get("result"), message.get("error")) {
            (Some(result), _) if result["resultType"] == "input_required" => {
                Reply::Asks(result.clone())
            }
            (Some(result), _) => Reply::Done(result.clone()),
            (_, Some(error)) => Reply::Error(error.clone()),
            _ => panic!("neither a result nor an error: {message}"),
        }
    }
}

#[derive(Debug)]
enum Reply {
    Done(Value),
    Asks(Value),
    Error(Value),
}

impl Reply {
    fn asks(self) -> (Value, String) {
        match self {
            Reply::Asks(result) => {
                let state = result["requestState"]
                    .as_str()
                    .expect("a requestState")
                    .to_owned();
                (result["inputRequests"].clone(), state)
            }
            other => panic!("expected an input-required result, got {other:?}"),
        }
    }

    fn done(self) -> Value {
        match self {
            Reply::Done(result) => {
                assert_ne!(result["isError"], true, "{result}");
                result["structuredContent"].clone()
            }
            other => panic!("expected a complete result, got {other:?}"),
        }
    }

    fn error(self) -> Value {
        match self {
            Reply::Error(error) => error,
            other => panic!("expected an error, got {other:?}"),
        }
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn retry(responses: Value, state: &str) -> Value {
    json!({"inputResponses": responses, "requestState": state})
}

fn server() -> (Arc<Asker>, Server<Handler>) {
    let asker = Arc::new(Asker::default());
    (Arc::clone(&asker), Server::new(Handler(Arc::clone(&asker))))
}

#[tokio::test]
async fn a_2026_client_answers_in_two_rounds_and_the_handler_runs_again_with_both_answers() {
    for http in [false, true] {
        let (asker, server) = server();
        let mut wire = Wire::open(server, http).await;
        let (asked, s1) = wire
            .call("two_steps", json!({}), EVERYTHING, json!({}))
            .await
            .asks();
        assert_eq!(asked["step1"]["method"], "elicitation/create", "{asked}");
        assert_eq!(
            asked.as_object().unwrap().len(),
            1,
            "one question per await: {asked}"
        );

        let round2 = retry(json!({"step1": accept(json!({"name": "Alice"}))}), &s1);
        let (asked, s2) = wire
            .call("two_steps", json!({}), EVERYTHING, round2)
            .await
            .asks();
        assert_eq!(
            asked.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["step2"],
            "{asked}"
        );
        assert_ne!(s1, s2, "the new state carries the first answer");

        // The third round sends only the second answer: the first comes from the state.
        let round3 = retry(json!({"step2": accept(json!({"color": "blue"}))}), &s2);
        let done = wire
            .call("two_steps", json!({}), EVERYTHING, round3)
            .await
            .done();
        assert_eq!(
            done,
            json!({"name": "Alice", "color": "blue"}),
            "http={http}"
        );
        assert_eq!(asker.runs.load(Ordering::SeqCst), 3, "run once per round");
    }
}

#[tokio::test]
async fn questions_awaited_together_are_asked_in_one_round() {
    for http in [false, true] {
        let (_, server) = server();
        let mut wire = Wire::open(server, http).await;
        let (asked, state) = wire
            .call("together", json!({}), EVERYTHING, json!({}))
            .await
            .asks();
        let methods: Vec<_> = ["user_name", "greeting", "client_roots"]
            .iter()
            .map(|id| asked[id]["method"].as_str().unwrap_or("missing").to_owned())
            .collect();
        assert_eq!(
            methods,
            ["elicitation/create", "sampling/createMessage", "roots/list"]
        );
        let answers = json!({
            "user_name": accept(json!({"name": "Alice"})),
            "greeting": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"},
            "client_roots": {"roots": [{"uri": "file:///w", "name": "W"}]},
            "never_asked": accept(json!({"x": 1})),
        });
        let done = wire
            .call("together", json!({}), EVERYTHING, retry(answers, &state))
            .await
            .done();
        assert_eq!(
            done,
            json!({"name": "accept", "sampled": "Hi", "roots": ["file:///w"]}),
            "http={http}"
        );
    }
}

#[tokio::test]
async fn a_tampered_or_foreign_state_is_refused_and_nothing_happens() {
    for http in [false, true] {
        let (asker, server) = server();
        let mut wire = Wire::open(server, http).await;
        let args = json!({"path": "a.txt"});
        let (_, state) = wire
            .call("confirm", args.clone(), EVERYTHING, json!({}))
            .await
            .asks();
        let yes = json!({"confirm": accept(json!({"ok": true}))});
        let refusals = [
            ("confirm", args.clone(), format!("{state}-TAMPERED")),
            ("confirm", json!({"path": "b.txt"}), state.clone()),
            ("two_steps", json!({}), state.clone()),
        ];
        for (tool, args, state) in refusals {
            let error = wire
                .call(tool, args, EVERYTHING, retry(yes.clone(), &state))
                .await
                .error();
            assert_eq!(error["code"], -32602, "{tool}: {error}");
            assert!(
                error["message"].as_str().unwrap().contains("requestState"),
                "{error}"
            );
        }
        assert_eq!(asker.deleted.load(Ordering::SeqCst), 0, "http={http}");
        let done = wire
            .call("confirm", args, EVERYTHING, retry(yes, &state))
            .await
            .done();
        assert_eq!(done, json!({"answer": "accept", "deleted": true}));
    }
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    for http in [false, true] {
        let asker = Arc::new(Asker::default());
        let server =
            Server::new(Handler(Arc::clone(&asker))).request_state_ttl(Duration::from_millis(1));
        let mut wire = Wire::open(server, http).await;
        let args = json!({"path": "a.txt"});
        let (_, state) = wire
            .call("confirm", args.clone(), EVERYTHING, json!({}))
            .await
            .asks();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let yes = json!({"confirm": accept(json!({"ok": true}))});
        let error = wire
            .call("confirm", args, EVERYTHING, retry(yes, &state))
            .await
            .error();
        assert_eq!(error["code"], -32602, "{error}");
        assert!(
            error["message"].as_str().unwrap().contains("expired"),
            "{error}"
        );
        assert_eq!(asker.deleted.load(Ordering::SeqCst), 0);
    }
}

#[tokio::test]
async fn a_state_sealed_with_a_shared_key_opens_on_another_server_with_it() {
    let key = [9u8; 32];
    let (_, first) = server();
    let (_, second) = server();
    let mut first = Wire::open(first.request_state_key(key).unwrap(), true).await;
    let mut second = Wire::open(second.request_state_key(key).unwrap(), false).await;
    let (_, state) = first
        .call("two_steps", json!({}), EVERYTHING, json!({}))
        .await
        .asks();
    let round2 = retry(json!({"step1": accept(json!({"name": "Alice"}))}), &state);
    let (asked, _) = second
        .call("two_steps", json!({}), EVERYTHING, round2)
        .await
        .asks();
    assert!(asked.get("step2").is_some(), "{asked}");
    let (_, other) = server();
    let mut other = Wire::open(other, false).await;
    let round2 = retry(json!({"step1": accept(json!({"name": "Alice"}))}), &state);
    let error = other
        .call("two_steps", json!({}), EVERYTHING, round2)
        .await
        .error();
    assert_eq!(error["code"], -32602, "another key: {error}");
}

/// Without a key of their own, servers sharing a state store seal with its key ring: a
/// round made on one is retried on another, across one rotation of the ring but not two,
/// and refused by a server on another store.
#[tokio::test]
async fn a_state_sealed_with_a_shared_store_s_ring_opens_on_every_server_sharing_it() {
    use mcp_contract::state::{Key, Rotation, State, now_ms};

    let state = State::default();
    let store = state.store();
    store
        .rotate_keys(Key(vec![5; 32]), Rotation::now(now_ms()))
        .await
        .expect("rotated");
    let (_, first) = server();
    let (_, second) = server();
    let mut first = Wire::open(first.state(state.clone()), true).await;
    let mut second = Wire::open(second.state(state.clone()), false).await;
    let (_, sealed) = first
        .call("two_steps", json!({}), EVERYTHING, json!({}))
        .await
        .asks();
    let round2 = || retry(json!({"step1": accept(json!({"name": "Alice"}))}), &sealed);
    let (asked, _) = second
        .call("two_steps", json!({}), EVERYTHING, round2())
        .await
        .asks();
    assert!(asked.get("step2").is_some(), "{asked}");
    let (_, elsewhere) = server();
    let mut elsewhere = Wire::open(elsewhere, false).await;
    let error = elsewhere
        .call("two_steps", json!({}), EVERYTHING, round2())
        .await
        .error();
    assert_eq!(error["code"], -32602, "another store's keys: {error}");

    store
        .rotate_keys(Key(vec![6; 32]), Rotation::now(now_ms()))
        .await
        .expect("rotated");
    let (asked, _) = second
        .call("two_steps", json!({}), EVERYTHING, round2())
        .await
        .asks();
    assert!(
        asked.get("step2").is_some(),
        "the previous key opens: {asked}"
    );
    store
        .rotate_keys(Key(vec![7; 32]), Rotation::now(now_ms()))
        .await
        .expect("rotated");
    let error = second
        .call("two_steps", json!({}), EVERYTHING, round2())
        .await
        .error();
    assert_eq!(error["code"], -32602, "two rotations later: {error}");
}

#[tokio::test]
async fn a_client_without_the_capability_is_never_asked() {
    for http in [false, true] {
        let (_, server) = server();
        let mut wire = Wire::open(server, http).await;
        let done = wire
            .call("confirm", json!({"path": "a"}), "{}", json!({}))
            .await
            .done();
        assert_eq!(done, json!({"answer": "unsupported", "deleted": false}));

        // Only what it declared is asked; the rest is unsupported at once.
        let (asked, state) = wire
            .call("together", json!({}), r#"{"sampling":{}}"#, json!({}))
            .await
            .asks();
        assert_eq!(
            asked.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["greeting"],
            "{asked}"
        );
        let answer = json!({"greeting": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"}});
        let done = wire
            .call(
                "together",
                json!({}),
                r#"{"sampling":{}}"#,
                retry(answer, &state),
            )
            .await
            .done();
        assert_eq!(
            done,
            json!({"name": "unsupported", "sampled": "Hi", "roots": []})
        );

        // A tool that requires it is refused with -32021.
        let error = wire
            .call(
                "needs_sampling",
                json!({}),
                r#"{"elicitation":{}}"#,
                json!({}),
            )
            .await
            .error();
        assert_eq!(error["code"], -32021, "{error}");
        assert_eq!(
            error["data"]["requiredCapabilities"],
            json!({"sampling": {}})
        );
        let done = wire
            .call("needs_sampling", json!({}), EVERYTHING, json!({}))
            .await
            .done();
        assert_eq!(done, json!({"sampled": true}), "http={http}");
    }
}

#[tokio::test]
async fn decline_cancel_and_malformed_answers_are_distinct() {
    for http in [false, true] {
        let (asker, server) = server();
        let mut wire = Wire::open(server, http).await;
        let args = json!({"path": "a.txt"});
        let (_, state) = wire
            .call("confirm", args.clone(), EVERYTHING, json!({}))
            .await
            .asks();
        for action in ["decline", "cancel"] {
            let answer = json!({"confirm": {"action": action}});
            let done = wire
                .call("confirm", args.clone(), EVERYTHING, retry(answer, &state))
                .await
                .done();
            assert_eq!(done, json!({"answer": action, "deleted": false}));
        }
        for bad in [
            json!(12345),
            accept(json!({"ok": "yes"})),
            accept(json!({})),
        ] {
            let answer = json!({"confirm": bad});
            let error = wire
                .call("confirm", args.clone(), EVERYTHING, retry(answer, &state))
                .await
                .error();
            assert_eq!(error["code"], -32602, "{bad}: {error}");
        }
        // An answer without a state is a first-round answer; a wrong key asks again.
        let yes = json!({"inputResponses": {"confirm": accept(json!({"ok": true}))}});
        let done = wire
            .call("confirm", args.clone(), EVERYTHING, yes)
            .await
            .done();
        assert_eq!(done, json!({"answer": "accept", "deleted": true}));
        let wrong = json!({"inputResponses": {"wrong_key": accept(json!({"ok": true}))}});
        let (asked, _) = wire
            .call("confirm", args.clone(), EVERYTHING, wrong)
            .await
            .asks();
        assert!(asked.get("confirm").is_some());
        // The arguments pass the input schema on every round: answers do not bypass it (and
        // a state is bound to the arguments it was made for, so it cannot carry them).
        let yes = json!({"inputResponses": {"confirm": accept(json!({"ok": true}))}});
        match wire
            .call("confirm", json!({"path": 5}), EVERYTHING, yes)
            .await
        {
            Reply::Done(result) => assert_eq!(result["isError"], true, "{result}"),
            other => panic!("expected the arguments' tool error, got {other:?}"),
        }
        assert_eq!(asker.deleted.load(Ordering::SeqCst), 1, "http={http}");
    }
}

// ---------------------------------------------------------------------------------------
// 2025-11-25: requests to the client, answered by an rmcp client handler.

/// A client that answers every elicitation with `action` (`ok: true` when accepting), and
/// declares `capabilities`.
#[derive(Clone)]
struct Answerer {
    action: ElicitationAction,
    capabilities: ClientCapabilities,
    asked: Arc<AtomicUsize>,
}

impl Answerer {
    fn new(action: ElicitationAction, capabilities: &str) -> Self {
        Answerer {
            action,
            capabilities: serde_json::from_str(capabilities).unwrap(),
            asked: Arc::default(),
        }
    }
}

impl ClientHandler for Answerer {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            self.capabilities.clone(),
            Implementation::new("answerer", "1.0.0"),
        )
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = request
        else {
            return Err(ErrorData::invalid_params("a form", None));
        };
        let field = requested_schema
            .properties
            .keys()
            .next()
            .cloned()
            .unwrap_or_default();
        let content = if field == "ok" {
            json!({"ok": true})
        } else {
            json!({field: "Alice"})
        };
        let result = ElicitResult::new(self.action.clone());
        Ok(match self.action {
            ElicitationAction::Accept => result.with_content(content),
            _ => result,
        })
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("Hi"),
            "m".into(),
        ))
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(ListRootsResult::new(vec![Root::new("file:///w")]))
    }
}

/// `answerer` connected to `server` over stdio or HTTP (a host with sessions), on 2025-11-25.
async fn connect_2025(
    server: Server<Handler>,
    answerer: Answerer,
    http: bool,
) -> mcp_contract::rmcp::service::RunningService<RoleClient, Answerer> {
    if http {
        let host = Host::new()
            .mount("/mcp", server)
            .sessions(SessionLimits::default());
        let addr = serve_on_loopback(host).await;
        let transport = mcp_contract::rmcp::transport::StreamableHttpClientTransport::from_uri(
            format!("http://{addr}/mcp"),
        );
        answerer
            .serve(transport)
            .await
            .expect("connected over HTTP")
    } else {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        tokio::spawn(server.serve_stream(read, write, mcp_contract::stdio::Options::default()));
        answerer
            .serve(client_io)
            .await
            .expect("connected over stdio")
    }
}

async fn call_with_handler(
    client: &mcp_contract::rmcp::service::RunningService<RoleClient, Answerer>,
    name: &str,
    arguments: Value,
) -> Value {
    let Value::Object(arguments) = arguments else {
        unreachable!()
    };
    let result = tokio::time::timeout(
        Duration::from_secs(10),
        client.call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)),
    )
    .await
    .expect("an answer in time")
    .expect("a result");
    result.structured_content.expect("structured content")
}

#[tokio::test]
async fn a_2025_client_is_asked_during_the_call_and_the_handler_runs_once() {
    for http in [false, true] {
        for (action, word, deleted) in [
            (ElicitationAction::Accept, "accept", true),
            (ElicitationAction::Decline, "decline", false),
            (ElicitationAction::Cancel, "cancel", false),
        ] {
            let (asker, server) = server();
            let answerer = Answerer::new(action, EVERYTHING);
            let asked = Arc::clone(&answerer.asked);
            let client = connect_2025(server, answerer, http).await;
            let done = call_with_handler(&client, "confirm", json!({"path": "a"})).await;
            assert_eq!(
                done,
                json!({"answer": word, "deleted": deleted}),
                "http={http}"
            );
            assert_eq!(asked.load(Ordering::SeqCst), 1);
            assert_eq!(
                asker.runs.load(Ordering::SeqCst),
                1,
                "no rounds on 2025-11-25"
            );

            let done = call_with_handler(&client, "together", json!({})).await;
            assert_eq!(done["roots"], json!(["file:///w"]), "http={http}");
            assert_eq!(done["sampled"], "Hi");
            assert_eq!(asked.load(Ordering::SeqCst), 4);
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn a_2025_client_without_the_capability_is_never_asked() {
    for http in [false, true] {
        let (_, server) = server();
        let answerer = Answerer::new(ElicitationAction::Accept, r#"{"roots":{}}"#);
        let asked = Arc::clone(&answerer.asked);
        let client = connect_2025(server, answerer, http).await;
        let done = call_with_handler(&client, "confirm", json!({"path": "a"})).await;
        assert_eq!(
            done,
            json!({"answer": "unsupported", "deleted": false}),
            "http={http}"
        );
        let done = call_with_handler(&client, "together", json!({})).await;
        assert_eq!(done["name"], "unsupported");
        assert_eq!(done["roots"], json!(["file:///w"]));
        assert_eq!(asked.load(Ordering::SeqCst), 1, "only roots were asked");
        let _ = client.cancel().await;
    }
}

/// A raw 2025-11-25 `initialize` POST; the session id the host gave, if any, and the status.
async fn initialize(addr: SocketAddr) -> (u16, Option<String>) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"},
    }});
    let response = http_request(
        addr,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
        ],
        body.to_string(),
    )
    .await
    .expect("an HTTP answer");
    let session = response.header("mcp-session-id").map(str::to_owned);
    (response.status, session)
}

#[tokio::test]
async fn sessions_are_bounded_and_expire_while_2026_stays_stateless() {
    let idle = Duration::from_millis(1000);
    let limits = SessionLimits {
        max: 1,
        idle,
        ..SessionLimits::default()
    };
    let (_, server) = server();
    let addr = serve_on_loopback(Host::new().mount("/mcp", server).sessions(limits)).await;
    // The first session is last used no earlier than this.
    let opened = std::time::Instant::now();
    let (status, first) = initialize(addr).await;
    assert_eq!((status, first.is_some()), (200, true), "a session is given");
    let (status, second) = initialize(addr).await;
    assert_eq!((status, second), (503, None), "past the bound, no session");

    // 2026-07-28 requests on the same route are served without a session meanwhile.
    let mut wire = Wire::Http(addr);
    let done = wire
        .call("confirm", json!({"path": "a"}), "{}", json!({}))
        .await
        .done();
    assert_eq!(done["answer"], "unsupported");

    // The idle session is closed once idle for `idle`, by a sweep whose timing is rmcp's: ask
    // again until there is room, which never comes before the idle time has passed.
    let third = loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (status, third) = initialize(addr).await;
        if status == 200 {
            break third;
        }
        assert!(
            opened.elapsed() < Duration::from_secs(10),
            "the idle session was never closed"
        );
    };
    assert!(third.is_some(), "a session is given once there is room");
    assert!(opened.elapsed() >= idle, "room came before the idle time");
    assert_ne!(third, first);
}

#[tokio::test]
async fn rmcps_own_2026_client_drives_the_rounds_through_its_handler() {
    use mcp_contract::rmcp::model::ProtocolVersion;
    use mcp_contract::rmcp::{ClientLifecycleMode, ClientServiceExt as _};

    let (asker, server) = server();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_stream(read, write, mcp_contract::stdio::Options::default()));
    let answerer = Answerer::new(ElicitationAction::Accept, EVERYTHING);
    let asked = Arc::clone(&answerer.asked);
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = answerer
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("connected");
    let done = call_with_handler(&client, "two_steps", json!({})).await;
    assert_eq!(done, json!({"name": "Alice", "color": "Alice"}));
    assert_eq!(asked.load(Ordering::SeqCst), 2, "one question per round");
    assert_eq!(asker.runs.load(Ordering::SeqCst), 3, "three rounds");
    let done = call_with_handler(&client, "together", json!({})).await;
    assert_eq!(
        done,
        json!({"name": "accept", "sampled": "Hi", "roots": ["file:///w"]})
    );
    let _ = client.cancel().await;
}

/// A 2025-11-25 session's record (revision, client capabilities) is in the server's state
/// once its id is answered, and forgotten when the client ends the session.
#[tokio::test]
async fn a_session_s_record_is_stored_when_it_opens_and_forgotten_when_it_ends() {
    let state = mcp_contract::state::State::default();
    let (_, server) = server();
    let limits = SessionLimits {
        max: 4,
        idle: Duration::from_secs(60),
        ..SessionLimits::default()
    };
    let host = Host::new().mount("/mcp", server.state(state.clone()));
    let addr = serve_on_loopback(host.sessions(limits)).await;
    let (status, session) = initialize(addr).await;
    assert_eq!(status, 200);
    let session = session.expect("a session");
    let record = (state.store().session(&session).await)
        .expect("the store answers")
        .expect("the session's record");
    assert_eq!(record.revision.as_deref(), Some("2025-11-25"));
    assert_eq!(record.client_capabilities, Some(json!({})));
    let ended = http_request(
        addr,
        "DELETE",
        "/mcp",
        &[("mcp-session-id", &session)],
        String::new(),
    )
    .await
    .expect("an HTTP answer");
    assert!(ended.status < 300, "{}", ended.status);
    assert_eq!(state.store().session(&session).await, Ok(None));
}
