//! Long-running tools as tasks (the tasks extension, 2026-07-28), end to end over stdio and
//! HTTP: a task made, polled and its result inlined; cancelled, with the handler seeing it;
//! parked on a question and resumed by `tasks/update`; bounded; another caller's task out of
//! reach; a client that did not opt in served a normal call. And 2025-11-25 tasks (`params.task`,
//! `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`), each message checked against
//! that revision's schema.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published, TaskSupport, ToolSpec,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::tasks::TaskLimits;
use mcp_contract::testing::{
    Fault, FaultyStore, Lines, Part, Revision, check_wire, http_request, serve_lines,
    serve_on_loopback,
};
use mcp_contract::{Context, Elicitation, Server};
use serde_json::{Value, json};
use tokio::sync::Notify;

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"slow","description":"Works until released or cancelled.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"must","description":"Only as a task.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"quick","description":"Answers at once.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"asks_later","description":"Works, then asks.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"breaks","description":"Works, then panics.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"plain","description":"Never a task.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

static SPEC: ContractSpec = ContractSpec {
    name: "tasks",
    title: None,
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: false,
    prompts: &[],
    access: mcp_contract::codegen::AccessSpec::OPEN,
};
static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

/// What the handlers did, for the tests to see.
#[derive(Default)]
struct Seen {
    release: Notify,
    cancelled: AtomicBool,
    runs: AtomicUsize,
}

struct Handler(Arc<Seen>);

impl Dispatch for Handler {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(&self, tool: usize, _: JsonObject, cx: Context) -> BoxFuture<'_, CallToolResult> {
        let seen = Arc::clone(&self.0);
        Box::pin(async move {
            seen.runs.fetch_add(1, Ordering::SeqCst);
            let text = match tool {
                0 => {
                    tokio::select! {
                        () = seen.release.notified() => "released".to_owned(),
                        () = cx.cancelled() => {
                            seen.cancelled.store(true, Ordering::SeqCst);
                            "cancelled".to_owned()
                        }
                    }
                }
                1 => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    "must done".to_owned()
                }
                2 | 5 => "quick done".to_owned(),
                4 => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    panic!("breaks, as it should");
                }
                _ => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    let question = Elicitation::form(
                        "sure",
                        "Sure?",
                        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
                    );
                    match cx.elicit(question).await {
                        Ok(answer) => format!("answered {}", json!(answer.accepted())),
                        Err(not) => format!("not asked: {not}"),
                    }
                }
            };
            CallToolResult::success(vec![mcp_contract::rmcp::model::ContentBlock::text(text)])
        })
    }

    fn task_support(&self, tool: usize) -> TaskSupport {
        match tool {
            0 | 2 | 3 | 4 => TaskSupport::Optional,
            1 => TaskSupport::Required,
            _ => TaskSupport::Forbidden,
        }
    }

    fn has_tasks(&self) -> bool {
        true
    }
}

fn server() -> (Arc<Seen>, Server<Handler>) {
    let seen = Arc::new(Seen::default());
    (Arc::clone(&seen), Server::new(Handler(Arc::clone(&seen))))
}

const OPTED_IN: &str = r#"{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#;
const NOT_OPTED_IN: &str = r#"{"elicitation":{}}"#;

/// A 2026-07-28 client over stdio or HTTP, sending raw requests.
enum Wire {
    Stdio(Lines, u64),
    Http(SocketAddr, Option<String>),
}

impl Wire {
    async fn open(server: Server<Handler>, http: bool) -> Wire {
        if http {
            Wire::Http(
                serve_on_loopback(Host::new().mount("/mcp", server)).await,
                None,
            )
        } else {
            Wire::Stdio(serve_lines(server), 0)
        }
    }

    /// The JSON-RPC answer to `method` with `params` and the request `_meta` of a client
    /// declaring `capabilities`: its `result` or `error` object.
    async fn request(&mut self, method: &str, mut params: Value, capabilities: &str) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": serde_json::from_str::<Value>(capabilities).unwrap(),
        });
        let message = match self {
            Wire::Stdio(lines, id) => {
                *id += 1;
                lines.request(*id, method, params).await;
                loop {
                    let line = lines.answer().await;
                    if line.get("id").is_some() {
                        break line;
                    }
                }
            }
            Wire::Http(addr, token) => {
                let name = params
                    .get("name")
                    .or_else(|| params.get("taskId"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
                let bearer = token.as_ref().map(|t| format!("Bearer {t}"));
                let mut headers = vec![
                    ("content-type", "application/json"),
                    ("accept", "application/json, text/event-stream"),
                    ("mcp-protocol-version", "2026-07-28"),
                    ("mcp-method", method),
                ];
                if let Some(name) = &name {
                    headers.push(("mcp-name", name));
                }
                if let Some(bearer) = &bearer {
                    headers.push(("authorization", bearer));
                }
                let response = http_request(*addr, "POST", "/mcp", &headers, body.to_string())
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
        message
            .get("result")
            .or_else(|| message.get("error"))
            .cloned()
            .unwrap_or_else(|| panic!("neither a result nor an error: {message}"))
    }

    async fn call(&mut self, tool: &str, capabilities: &str) -> Value {
        self.request(
            "tools/call",
            json!({"name": tool, "arguments": {}}),
            capabilities,
        )
        .await
    }

    async fn get(&mut self, id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": id}), OPTED_IN)
            .await
    }

    /// Polls `tasks/get` until the task is no longer `working`.
    async fn settled(&mut self, id: &str) -> Value {
        for _ in 0..200 {
            let got = self.get(id).await;
            if got["status"] != "working" {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("task {id} still working");
    }
}

/// The task id of a `CreateTaskResult`.
fn task_id(created: &Value) -> String {
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working", "{created}");
    assert!(
        created["ttlMs"].as_u64().is_some_and(|t| t > 0),
        "{created}"
    );
    created["taskId"].as_str().expect("a taskId").to_owned()
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_task_is_made_polled_and_its_result_inlined() {
    for http in [false, true] {
        let (seen, server) = server();
        let mut wire = Wire::open(server, http).await;
        let id = task_id(&wire.call("slow", OPTED_IN).await);
        let working = wire.get(&id).await;
        assert_eq!(working["resultType"], "complete", "{working}");
        assert_eq!(working["status"], "working", "{working}");
        assert_eq!(working["taskId"], id.as_str());
        assert!(working.get("result").is_none(), "{working}");
        seen.release.notify_one();
        let done = wire.settled(&id).await;
        assert_eq!(done["status"], "completed", "http={http}: {done}");
        assert_eq!(text(&done["result"]), "released", "{done}");
        assert!(done.get("requestState").is_none());
        assert_eq!(seen.runs.load(Ordering::SeqCst), 1);
    }
}

#[tokio::test]
async fn a_cancelled_task_is_cancelled_and_its_handler_sees_it() {
    for http in [false, true] {
        let (seen, server) = server();
        let mut wire = Wire::open(server, http).await;
        let id = task_id(&wire.call("slow", OPTED_IN).await);
        let ack = wire
            .request("tasks/cancel", json!({"taskId": id}), OPTED_IN)
            .await;
        assert_eq!(ack, json!({"resultType": "complete"}), "http={http}");
        assert_eq!(wire.get(&id).await["status"], "cancelled");
        for _ in 0..100 {
            if seen.cancelled.load(Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(seen.cancelled.load(Ordering::SeqCst), "http={http}");
        // The handler's answer after its cancellation does not revive the task; cancelling
        // again is acknowledged the same.
        assert_eq!(wire.get(&id).await["status"], "cancelled");
        let again = wire
            .request("tasks/cancel", json!({"taskId": id}), OPTED_IN)
            .await;
        assert_eq!(again, json!({"resultType": "complete"}));
    }
}

#[tokio::test]
async fn a_question_in_a_task_parks_it_until_tasks_update_answers() {
    for http in [false, true] {
        let (seen, server) = server();
        let mut wire = Wire::open(server, http).await;
        let id = task_id(&wire.call("asks_later", OPTED_IN).await);
        let parked = wire.settled(&id).await;
        assert_eq!(parked["status"], "input_required", "http={http}: {parked}");
        assert_eq!(
            parked["inputRequests"]["sure"]["method"],
            "elicitation/create"
        );
        assert!(parked.get("requestState").is_none(), "{parked}");
        let ack = wire
            .request(
                "tasks/update",
                json!({"taskId": id, "inputResponses": {
                    "sure": {"action": "accept", "content": {"ok": true}},
                    "never_asked": {"action": "accept", "content": {}},
                }}),
                OPTED_IN,
            )
            .await;
        assert_eq!(ack, json!({"resultType": "complete"}));
        let done = wire.settled(&id).await;
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(text(&done["result"]), r#"answered {"ok":true}"#);
        assert_eq!(
            seen.runs.load(Ordering::SeqCst),
            2,
            "run again with the answer"
        );
    }
}

#[tokio::test]
async fn a_task_whose_handler_panics_fails_with_the_error() {
    for http in [false, true] {
        let (_, server) = server();
        let mut wire = Wire::open(server, http).await;
        let id = task_id(&wire.call("breaks", OPTED_IN).await);
        let failed = wire.settled(&id).await;
        assert_eq!(failed["status"], "failed", "http={http}: {failed}");
        assert_eq!(failed["error"]["code"], -32603, "{failed}");
        assert!(failed.get("result").is_none(), "{failed}");
        // Outside a task the same panic is a tool error, as for any tool.
        let plain = wire.call("breaks", NOT_OPTED_IN).await;
        assert_eq!(plain["isError"], true, "{plain}");
    }
}

#[tokio::test]
async fn a_client_that_did_not_opt_in_gets_a_normal_call_or_minus_32021() {
    for http in [false, true] {
        let (seen, server) = server();
        let mut wire = Wire::open(server, http).await;
        seen.release.notify_one();
        let plain = wire.call("slow", NOT_OPTED_IN).await;
        assert_eq!(plain["resultType"], "complete", "http={http}: {plain}");
        assert_eq!(text(&plain), "released");
        assert!(plain.get("taskId").is_none());
        let refused = wire.call("must", NOT_OPTED_IN).await;
        assert_eq!(refused["code"], -32021, "{refused}");
        assert!(
            refused["data"]["requiredCapabilities"]["extensions"]
                .get("io.modelcontextprotocol/tasks")
                .is_some(),
            "{refused}"
        );
        let gated = wire
            .request("tasks/get", json!({"taskId": "x"}), NOT_OPTED_IN)
            .await;
        assert_eq!(gated["code"], -32021, "{gated}");
        // Opted in, a required one is a task, and one that ends at once is a plain result.
        let id = task_id(&wire.call("must", OPTED_IN).await);
        assert_eq!(wire.settled(&id).await["status"], "completed");
        let quick = wire.call("quick", OPTED_IN).await;
        assert_eq!(quick["resultType"], "complete", "{quick}");
        assert_eq!(text(&quick), "quick done");
    }
}

#[tokio::test]
async fn live_tasks_are_bounded() {
    for http in [false, true] {
        let (seen, server) = server();
        let limits = TaskLimits {
            max_live: 1,
            ..TaskLimits::default()
        };
        let mut wire = Wire::open(server.task_limits(limits), http).await;
        let first = task_id(&wire.call("slow", OPTED_IN).await);
        // Full: a required task is refused, an optional one runs as a normal call.
        let refused = wire.call("must", OPTED_IN).await;
        assert_eq!(refused["code"], -32603, "http={http}: {refused}");
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .contains("too many tasks")
        );
        let releaser = {
            let seen = Arc::clone(&seen);
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                seen.release.notify_waiters();
            })
        };
        let plain = wire.call("slow", OPTED_IN).await;
        assert_eq!(plain["resultType"], "complete", "{plain}");
        releaser.await.unwrap();
        seen.release.notify_one();
        assert_eq!(wire.settled(&first).await["status"], "completed");
        // Room again.
        task_id(&wire.call("must", OPTED_IN).await);
    }
}

#[tokio::test]
async fn finished_tasks_are_forgotten_after_their_ttl() {
    let (_, server) = server();
    let limits = TaskLimits {
        ttl: Duration::from_millis(200),
        ..TaskLimits::default()
    };
    let mut wire = Wire::open(server.task_limits(limits), false).await;
    let id = task_id(&wire.call("must", OPTED_IN).await);
    assert_eq!(wire.settled(&id).await["status"], "completed");
    tokio::time::sleep(Duration::from_millis(250)).await;
    let gone = wire.get(&id).await;
    assert_eq!(gone["code"], -32602, "{gone}");
}

#[tokio::test]
async fn another_connection_cannot_reach_a_task() {
    let (seen, server) = server();
    let mut mine = Wire::open(server.clone(), false).await;
    let mut theirs = Wire::open(server, false).await;
    let id = task_id(&mine.call("slow", OPTED_IN).await);
    let unknown = theirs.get(&id).await;
    assert_eq!(unknown["code"], -32602, "{unknown}");
    let cancel = theirs
        .request("tasks/cancel", json!({"taskId": id}), OPTED_IN)
        .await;
    assert_eq!(cancel["code"], -32602, "{cancel}");
    assert_eq!(mine.get(&id).await["status"], "working");
    seen.release.notify_one();
    assert_eq!(mine.settled(&id).await["status"], "completed");
    let unknown = mine.get("no-such-task").await;
    assert_eq!(unknown["code"], -32602, "{unknown}");
}

#[tokio::test]
async fn another_verified_caller_cannot_reach_a_task_over_http() {
    use mcp_contract::auth::Authorization;
    use mcp_contract::testing::auth::TestIssuer;
    let issuer = TestIssuer::start().await;
    let (seen, server) = server();
    let auth = Authorization::new()
        .issuer(issuer.issuer())
        .resource("https://mcp.example.com");
    let addr = serve_on_loopback(Host::new().mount("/mcp", server).authorization(auth)).await;
    let token = |subject: &str| {
        issuer
            .token()
            .audience("https://mcp.example.com/mcp")
            .subject(subject)
            .sign()
    };
    let mut alice = Wire::Http(addr, Some(token("alice")));
    let mut bob = Wire::Http(addr, Some(token("bob")));
    let id = task_id(&alice.call("slow", OPTED_IN).await);
    assert_eq!(bob.get(&id).await["code"], -32602);
    assert_eq!(alice.get(&id).await["status"], "working");
    seen.release.notify_one();
    assert_eq!(alice.settled(&id).await["status"], "completed");
}

#[tokio::test]
async fn a_2025_11_25_client_gets_a_normal_call() {
    let (seen, server) = server();
    let mut lines = serve_lines(server);
    lines
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
                   "clientInfo": {"name": "old", "version": "1"}}),
        )
        .await;
    lines.answer().await;
    lines
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    seen.release.notify_one();
    lines
        .request(2, "tools/call", json!({"name": "slow", "arguments": {}}))
        .await;
    let answer = lines.answer().await;
    assert_eq!(
        answer["result"]["content"][0]["text"], "released",
        "{answer}"
    );
    assert!(answer["result"].get("taskId").is_none());
}

/// A 2025-11-25 client over stdio, checking every message it sends and receives against that
/// revision's schema.
struct Old {
    lines: Lines,
    id: u64,
    /// The `notifications/tasks/status` received, in order.
    told: Vec<Value>,
}

impl Old {
    async fn open(server: Server<Handler>) -> Old {
        let mut lines = serve_lines(server);
        lines
            .request(
                0,
                "initialize",
                json!({"protocolVersion": "2025-11-25",
                       "capabilities": {"tasks": {"list": {}, "cancel": {}}, "elicitation": {}},
                       "clientInfo": {"name": "old", "version": "1"}}),
            )
            .await;
        lines.answer().await;
        lines
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        Old {
            lines,
            id: 0,
            told: Vec::new(),
        }
    }

    /// The next message from the server that is not a `notifications/tasks/status`; those
    /// are checked and kept in `told`.
    async fn next(&mut self) -> Value {
        loop {
            let message = self.lines.answer().await;
            if message["method"] != "notifications/tasks/status" {
                return message;
            }
            wire("TaskStatusNotification", &message);
            self.told.push(message["params"].clone());
        }
    }

    /// The statuses `told` of task `id`, in order.
    fn statuses(&self, id: &str) -> Vec<&str> {
        let of = self.told.iter().filter(|t| t["taskId"] == id);
        of.map(|t| t["status"].as_str().unwrap_or("")).collect()
    }

    /// Sends `method` (checked as the schema's `request` definition) without awaiting it;
    /// its id.
    async fn send(&mut self, request: &str, method: &str, params: Value) -> u64 {
        self.id += 1;
        let message = json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params});
        wire(request, &message);
        self.lines.request(self.id, method, params).await;
        self.id
    }

    /// The answer to the request sent last: its `result`, checked as `result`, or its
    /// `error` object, checked as a JSON-RPC error.
    async fn answer(&mut self, result: &str) -> Value {
        let answer = self.next().await;
        if let Some(error) = answer.get("error") {
            wire("JSONRPCErrorResponse", &answer);
            return error.clone();
        }
        wire(result, &answer["result"]);
        answer["result"].clone()
    }

    async fn ask(&mut self, request: &str, method: &str, params: Value, result: &str) -> Value {
        self.send(request, method, params).await;
        self.answer(result).await
    }

    async fn task(&mut self, tool: &str) -> String {
        let created = self
            .ask(
                "CallToolRequest",
                "tools/call",
                json!({"name": tool, "arguments": {}, "task": {"ttl": 60000}}),
                "CreateTaskResult",
            )
            .await;
        assert_eq!(created["task"]["status"], "working", "{created}");
        created["task"]["taskId"]
            .as_str()
            .expect("a taskId")
            .to_owned()
    }

    async fn get(&mut self, id: &str) -> Value {
        self.ask(
            "GetTaskRequest",
            "tasks/get",
            json!({"taskId": id}),
            "GetTaskResult",
        )
        .await
    }
}

fn wire(definition: &str, value: &Value) {
    check_wire(Revision::V2025_11_25, definition, value)
        .unwrap_or_else(|e| panic!("{definition}: {e:?}\n{value}"));
}

#[tokio::test]
async fn a_2025_11_25_task_is_made_polled_and_its_result_fetched() {
    let (seen, server) = server();
    let mut old = Old::open(server).await;
    let id = old.task("slow").await;
    let working = old.get(&id).await;
    assert_eq!(working["status"], "working", "{working}");
    assert_eq!(working["taskId"], id.as_str());
    assert!(working["ttl"].as_u64().is_some_and(|t| t > 0), "{working}");
    assert!(working.get("ttlMs").is_none(), "{working}");
    // `tasks/result` waits for the end.
    old.send(
        "GetTaskPayloadRequest",
        "tasks/result",
        json!({"taskId": id}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    seen.release.notify_one();
    let result = old.answer("CallToolResult").await;
    assert_eq!(text(&result), "released", "{result}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        id.as_str()
    );
    assert_eq!(old.get(&id).await["status"], "completed");
    // Asked again, the same result at once.
    let again = old
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": id}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&again), "released");
    assert_eq!(seen.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_2025_11_25_client_lists_only_its_own_tasks() {
    let (seen, server) = server();
    let mut mine = Old::open(server.clone()).await;
    let mut theirs = Old::open(server).await;
    let first = mine.task("slow").await;
    let second = mine.task("must").await;
    let other = theirs.task("slow").await;
    let listed = mine
        .ask(
            "ListTasksRequest",
            "tasks/list",
            json!({}),
            "ListTasksResult",
        )
        .await;
    let ids: Vec<&str> = listed["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["taskId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [first.as_str(), second.as_str()], "{listed}");
    assert!(listed.get("nextCursor").is_none());
    let unknown = mine.get(&other).await;
    assert_eq!(unknown["code"], -32602, "{unknown}");
    let bad = mine
        .ask(
            "ListTasksRequest",
            "tasks/list",
            json!({"cursor": "nope"}),
            "ListTasksResult",
        )
        .await;
    assert_eq!(bad["code"], -32602, "{bad}");
    seen.release.notify_waiters();
}

#[tokio::test]
async fn a_2025_11_25_task_cancelled_fires_its_handlers_cancellation() {
    let (seen, server) = server();
    let mut old = Old::open(server).await;
    let id = old.task("slow").await;
    let cancelled = old
        .ask(
            "CancelTaskRequest",
            "tasks/cancel",
            json!({"taskId": id}),
            "CancelTaskResult",
        )
        .await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    for _ in 0..100 {
        if seen.cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(seen.cancelled.load(Ordering::SeqCst));
    assert_eq!(old.get(&id).await["status"], "cancelled");
    // A task that has ended cannot be cancelled again; its result is an error.
    let again = old
        .ask(
            "CancelTaskRequest",
            "tasks/cancel",
            json!({"taskId": id}),
            "CancelTaskResult",
        )
        .await;
    assert_eq!(again["code"], -32602, "{again}");
    let result = old
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": id}),
            "CallToolResult",
        )
        .await;
    assert!(result["code"].is_i64(), "{result}");
}

#[tokio::test]
async fn a_2025_11_25_call_that_does_not_fit_the_tools_task_support_is_minus_32601() {
    let (_, server) = server();
    let mut old = Old::open(server).await;
    let required = old
        .ask(
            "CallToolRequest",
            "tools/call",
            json!({"name": "must", "arguments": {}}),
            "CallToolResult",
        )
        .await;
    assert_eq!(required["code"], -32601, "{required}");
    let forbidden = old
        .ask(
            "CallToolRequest",
            "tools/call",
            json!({"name": "plain", "arguments": {}, "task": {}}),
            "CreateTaskResult",
        )
        .await;
    assert_eq!(forbidden["code"], -32601, "{forbidden}");
    let unknown = old
        .ask(
            "CallToolRequest",
            "tools/call",
            json!({"name": "nope", "arguments": {}, "task": {}}),
            "CreateTaskResult",
        )
        .await;
    assert_eq!(unknown["code"], -32602, "{unknown}");
    // Without `task`, a tool that may run as one is a normal call; `plain` too.
    let plain = old
        .ask(
            "CallToolRequest",
            "tools/call",
            json!({"name": "plain", "arguments": {}}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&plain), "quick done", "{plain}");
}

#[tokio::test]
async fn a_2025_11_25_client_is_told_of_tasks_as_its_revision_says() {
    let (_, server) = server();
    let mut lines = serve_lines(server.clone());
    lines
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "old", "version": "1"}}),
        )
        .await;
    let initialized = lines.answer().await["result"].clone();
    wire("InitializeResult", &initialized);
    let capabilities = &initialized["capabilities"];
    assert_eq!(
        capabilities["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{initialized}"
    );
    assert!(
        capabilities
            .pointer("/extensions/io.modelcontextprotocol~1tasks")
            .is_none(),
        "{initialized}"
    );
    lines
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    lines.request(1, "tools/list", json!({})).await;
    let listed = lines.answer().await["result"].clone();
    wire("ListToolsResult", &listed);
    let support = |name: &str| {
        let tools = listed["tools"].as_array().unwrap();
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        tool.pointer("/execution/taskSupport").cloned()
    };
    assert_eq!(support("slow"), Some(json!("optional")), "{listed}");
    assert_eq!(support("must"), Some(json!("required")));
    assert_eq!(support("plain"), None);
    // 2026-07-28 lists carry no `execution`, and keep the extension.
    let mut modern = Wire::Stdio(serve_lines(server), 0);
    let listed = modern.request("tools/list", json!({}), OPTED_IN).await;
    assert!(
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("execution").is_none()),
        "{listed}"
    );
}

#[tokio::test]
async fn a_question_in_a_2025_11_25_task_is_asked_of_the_client() {
    let (seen, server) = server();
    let mut old = Old::open(server).await;
    let id = old.task("asks_later").await;
    let asked = old.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    wire("ElicitRequest", &asked);
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"],
                        "result": {"action": "accept", "content": {"ok": true}}});
    wire("JSONRPCResultResponse", &answer);
    old.lines.send(&answer.to_string()).await;
    let result = old
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": id}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&result), r#"answered {"ok":true}"#, "{result}");
    assert_eq!(seen.runs.load(Ordering::SeqCst), 1, "asked in the one run");
}

#[tokio::test]
async fn a_2025_11_25_task_keeps_the_ttl_its_client_asked_for_within_the_servers() {
    let (_, server) = server();
    let server = server.task_limits(TaskLimits {
        ttl: Duration::from_secs(60),
        ..TaskLimits::default()
    });
    let mut old = Old::open(server).await;
    let mut made = async |task: Value| {
        let created = old
            .ask(
                "CallToolRequest",
                "tools/call",
                json!({"name": "quick", "arguments": {}, "task": task}),
                "CreateTaskResult",
            )
            .await;
        let task = &created["task"];
        (
            task["taskId"].as_str().unwrap().to_owned(),
            task["ttl"].clone(),
        )
    };
    assert_eq!(made(json!({"ttl": 1500})).await.1, 1500);
    assert_eq!(
        made(json!({"ttl": 3_600_000})).await.1,
        60_000,
        "at most the server's"
    );
    assert_eq!(
        made(json!({})).await.1,
        60_000,
        "the server's when none is asked"
    );
    // Forgotten once the asked ttl has passed.
    let (short, _) = made(json!({"ttl": 30})).await;
    tokio::time::sleep(Duration::from_millis(80)).await;
    let gone = old.get(&short).await;
    assert_eq!(gone["code"], -32602, "{gone}");
}

#[tokio::test]
async fn a_2025_11_25_task_waiting_on_its_client_is_input_required_and_tells_its_statuses() {
    let (_, server) = server();
    let mut old = Old::open(server).await;
    let id = old.task("asks_later").await;
    let asked = old.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let waiting = old.get(&id).await;
    assert_eq!(waiting["status"], "input_required", "{waiting}");
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"],
                        "result": {"action": "accept", "content": {"ok": true}}});
    old.lines.send(&answer.to_string()).await;
    let result = old
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": id}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&result), r#"answered {"ok":true}"#, "{result}");
    assert_eq!(old.get(&id).await["status"], "completed");
    // Each change told, in order (`tasks/get` read after the last one was queued).
    for _ in 0..100 {
        if old.statuses(&id).len() == 3 {
            break;
        }
        old.ask("PingRequest", "ping", json!({}), "EmptyResult")
            .await;
    }
    assert_eq!(
        old.statuses(&id),
        ["input_required", "working", "completed"],
        "{:?}",
        old.told
    );
}

#[tokio::test]
async fn a_closed_connections_2025_11_25_tasks_are_cancelled_and_forgotten() {
    let (seen, server) = server();
    let server = server.task_limits(TaskLimits {
        max_live: 1,
        ..TaskLimits::default()
    });
    let mut old = Old::open(server.clone()).await;
    old.task("slow").await;
    old.lines.close().await;
    for _ in 0..200 {
        if seen.cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(seen.cancelled.load(Ordering::SeqCst), "the handler saw it");
    // Its room is free: another connection's task runs.
    let mut next = Old::open(server).await;
    let id = next.task("quick").await;
    assert_ne!(next.get(&id).await["status"], "failed");
}

/// A 2025-11-25 client over HTTP, with a session when the host gives one; every message
/// checked against that revision's schema.
struct OldHttp {
    addr: SocketAddr,
    session: Option<String>,
    id: u64,
    /// The media type of the last answer.
    media: String,
}

impl OldHttp {
    /// Initializes; the client and its `initialize` result.
    async fn open(addr: SocketAddr) -> (OldHttp, Value) {
        let mut old = OldHttp {
            addr,
            session: None,
            id: 0,
            media: String::new(),
        };
        let initialized = old
            .ask(
                "InitializeRequest",
                "initialize",
                json!({"protocolVersion": "2025-11-25",
                       "capabilities": {"tasks": {"list": {}, "cancel": {}}},
                       "clientInfo": {"name": "old", "version": "1"}}),
                "InitializeResult",
            )
            .await;
        let mut headers = old.headers();
        headers.push(("content-type".into(), "application/json".into()));
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let sent = http_request(
            addr,
            "POST",
            "/mcp",
            &headers,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        )
        .await
        .expect("an HTTP answer");
        assert_eq!(sent.status, 202, "{sent:?}");
        (old, initialized)
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("mcp-protocol-version".into(), "2025-11-25".into()),
        ];
        if let Some(session) = &self.session {
            headers.push(("mcp-session-id".into(), session.clone()));
        }
        headers
    }

    /// The answer to `method`: its `result`, checked as `result`, or its `error` object.
    async fn ask(&mut self, request: &str, method: &str, params: Value, result: &str) -> Value {
        self.id += 1;
        let message = json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params});
        wire(request, &message);
        let mut headers = self.headers();
        if method == "initialize" {
            headers.retain(|(n, _)| n != "mcp-protocol-version");
        }
        headers.push(("content-type".into(), "application/json".into()));
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let sent = http_request(self.addr, "POST", "/mcp", &headers, message.to_string());
        let response = tokio::time::timeout(Duration::from_secs(10), sent)
            .await
            .unwrap_or_else(|_| panic!("no answer to {method} within 10 seconds"))
            .expect("an HTTP answer");
        if let Some(session) = response.header("mcp-session-id") {
            self.session = Some(session.to_owned());
        }
        self.media = response
            .header("content-type")
            .unwrap_or_default()
            .to_owned();
        let answer = response.json().unwrap_or_else(|| {
            let data = response
                .body
                .lines()
                .filter_map(|l| l.strip_prefix("data:"));
            data.filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .find(|m| m["id"] == self.id)
                .unwrap_or_else(|| panic!("no answer in {response:?}"))
        });
        if let Some(error) = answer.get("error") {
            wire("JSONRPCErrorResponse", &answer);
            return error.clone();
        }
        wire(result, &answer["result"]);
        answer["result"].clone()
    }

    async fn task(&mut self, tool: &str) -> String {
        let created = self
            .ask(
                "CallToolRequest",
                "tools/call",
                json!({"name": tool, "arguments": {}, "task": {"ttl": 60000}}),
                "CreateTaskResult",
            )
            .await;
        assert_eq!(created["task"]["status"], "working", "{created}");
        created["task"]["taskId"]
            .as_str()
            .expect("a taskId")
            .to_owned()
    }

    async fn get(&mut self, id: &str) -> Value {
        let params = json!({"taskId": id});
        self.ask("GetTaskRequest", "tasks/get", params, "GetTaskResult")
            .await
    }

    async fn list(&mut self) -> Vec<String> {
        let listed = self
            .ask(
                "ListTasksRequest",
                "tasks/list",
                json!({}),
                "ListTasksResult",
            )
            .await;
        let tasks = listed["tasks"].as_array().expect("tasks");
        tasks
            .iter()
            .map(|t| t["taskId"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// A host serving `server` at `/mcp`, with 2025-11-25 sessions or without.
async fn host<D: Dispatch>(server: Server<D>, sessions: bool) -> SocketAddr {
    let host = Host::new().mount("/mcp", server);
    let host = if sessions {
        host.sessions(SessionLimits::default())
    } else {
        host
    };
    serve_on_loopback(host).await
}

#[tokio::test]
async fn over_http_a_2025_11_25_client_is_told_of_tasks_in_json_and_in_event_streams() {
    for sessions in [true, false] {
        let (_, server) = server();
        let (mut old, initialized) = OldHttp::open(host(server, sessions).await).await;
        // With sessions rmcp answers in an event stream; without, as JSON.
        let media = if sessions {
            "text/event-stream"
        } else {
            "application/json"
        };
        assert!(old.media.starts_with(media), "{sessions}: {}", old.media);
        let capabilities = &initialized["capabilities"];
        assert_eq!(
            capabilities["tasks"],
            json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
            "{initialized}"
        );
        assert!(
            capabilities
                .pointer("/extensions/io.modelcontextprotocol~1tasks")
                .is_none(),
            "{initialized}"
        );
        let listed = old
            .ask(
                "ListToolsRequest",
                "tools/list",
                json!({}),
                "ListToolsResult",
            )
            .await;
        assert!(old.media.starts_with(media), "{sessions}: {}", old.media);
        let support = |name: &str| {
            let tools = listed["tools"].as_array().unwrap();
            let tool = tools.iter().find(|t| t["name"] == name).unwrap();
            tool.pointer("/execution/taskSupport").cloned()
        };
        assert_eq!(support("slow"), Some(json!("optional")), "{listed}");
        assert_eq!(support("must"), Some(json!("required")));
        assert_eq!(support("plain"), None);
    }
}

#[tokio::test]
async fn over_http_a_2025_11_25_task_is_made_polled_fetched_listed_and_cancelled() {
    let (seen, server) = server();
    let addr = host(server, true).await;
    let (mut mine, _) = OldHttp::open(addr).await;
    let (mut theirs, _) = OldHttp::open(addr).await;
    let slow = mine.task("slow").await;
    let working = mine.get(&slow).await;
    assert_eq!(working["status"], "working", "{working}");
    assert_eq!(working["ttl"], 60000, "{working}");
    assert_eq!(mine.list().await, std::slice::from_ref(&slow));
    // Another session neither sees nor reaches it.
    assert!(theirs.list().await.is_empty());
    assert_eq!(theirs.get(&slow).await["code"], -32602);
    let params = json!({"taskId": slow});
    let refused = theirs
        .ask(
            "CancelTaskRequest",
            "tasks/cancel",
            params.clone(),
            "CancelTaskResult",
        )
        .await;
    assert_eq!(refused["code"], -32602, "{refused}");
    let cancelled = mine
        .ask(
            "CancelTaskRequest",
            "tasks/cancel",
            params,
            "CancelTaskResult",
        )
        .await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    for _ in 0..200 {
        if seen.cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(seen.cancelled.load(Ordering::SeqCst), "the handler saw it");
    // `task: required`: as a task its result is fetched; without `task`, -32601.
    let must = mine.task("must").await;
    let result = mine
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": must}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&result), "must done", "{result}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        must.as_str()
    );
    let plain = json!({"name": "must", "arguments": {}});
    let required = mine
        .ask("CallToolRequest", "tools/call", plain, "CallToolResult")
        .await;
    assert_eq!(required["code"], -32601, "{required}");
}

#[tokio::test]
async fn over_stateless_http_a_2025_11_25_task_is_reached_by_its_id_and_listed_to_nobody() {
    let (seen, server) = server();
    let addr = host(server, false).await;
    let (mut one, _) = OldHttp::open(addr).await;
    let id = one.task("slow").await;
    // Every request is served on its own: the id is what reaches the task.
    let (mut other, _) = OldHttp::open(addr).await;
    assert_eq!(other.get(&id).await["status"], "working");
    assert!(one.list().await.is_empty(), "ids are not handed out");
    seen.release.notify_one();
    let result = one
        .ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            json!({"taskId": id}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&result), "released", "{result}");
}

/// The same tools, none of which runs as a task.
struct NoTasks(Handler);

impl Dispatch for NoTasks {
    fn published(&self) -> &'static Published {
        self.0.published()
    }

    fn call(
        &self,
        tool: usize,
        arguments: JsonObject,
        cx: Context,
    ) -> BoxFuture<'_, CallToolResult> {
        self.0.call(tool, arguments, cx)
    }
}

#[tokio::test]
async fn over_http_a_server_without_task_tools_is_unchanged() {
    let seen = Arc::new(Seen::default());
    let server = Server::new(NoTasks(Handler(seen)));
    let (mut old, initialized) = OldHttp::open(host(server, true).await).await;
    assert!(
        initialized["capabilities"].get("tasks").is_none(),
        "{initialized}"
    );
    assert!(
        initialized["capabilities"].get("extensions").is_none(),
        "{initialized}"
    );
    let listed = old
        .ask(
            "ListToolsRequest",
            "tools/list",
            json!({}),
            "ListToolsResult",
        )
        .await;
    let tools = listed["tools"].as_array().unwrap();
    assert!(
        tools.iter().all(|t| t.get("execution").is_none()),
        "{listed}"
    );
    // `params.task` is not read: a normal call.
    let called = old
        .ask(
            "CallToolRequest",
            "tools/call",
            json!({"name": "quick", "arguments": {}, "task": {}}),
            "CallToolResult",
        )
        .await;
    assert_eq!(text(&called), "quick done", "{called}");
}

#[tokio::test]
async fn a_task_whose_record_cannot_be_stored_is_an_error_never_an_id() {
    use mcp_contract::state::State;

    for http in [false, true] {
        let (seen, server) = server();
        // Task writes fail, as a remote store's that cannot be reached; the rest works.
        let store = FaultyStore::new();
        store.breaks(Part::TaskWrites, Fault::Refuse);
        let server = server.state(State::new(store));
        let mut wire = Wire::open(server.clone(), http).await;
        for tool in ["slow", "must"] {
            let refused = wire.call(tool, OPTED_IN).await;
            assert_eq!(refused["code"], -32603, "http={http} {tool}: {refused}");
            let message = refused["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("state store") && message.contains("connection refused"),
                "{message}"
            );
        }
        // Nothing was stored to be reached.
        assert_eq!(
            seen.runs.load(Ordering::SeqCst),
            2,
            "each handler ran once, then no more"
        );
        // A 2025-11-25 client asking for a task is refused the same way.
        let mut old = Old::open(server).await;
        let refused = old
            .ask(
                "CallToolRequest",
                "tools/call",
                json!({"name": "quick", "arguments": {}, "task": {"ttl": 60000}}),
                "CreateTaskResult",
            )
            .await;
        assert_eq!(refused["code"], -32603, "{refused}");
    }
}

#[tokio::test]
async fn servers_sharing_a_state_reach_each_others_tasks() {
    use mcp_contract::state::State;

    let state = State::default();
    let (seen, one) = server();
    let (_, other) = server();
    let mut made_on = Wire::open(one.state(state.clone()), true).await;
    let mut read_on = Wire::open(other.state(state), true).await;
    let id = task_id(&made_on.call("slow", OPTED_IN).await);
    // Stored before its id was answered: the other server reads it at once.
    assert_eq!(read_on.get(&id).await["status"], "working");
    seen.release.notify_one();
    assert_eq!(read_on.settled(&id).await["status"], "completed");
}

/// A server on a runtime of its own, as another process would be: [`Instance::kill`] stops
/// everything it runs at once (its listener, its handlers and the renewal of their leases),
/// as `SIGKILL` stops a process.
struct Instance {
    addr: SocketAddr,
    runtime: tokio::runtime::Runtime,
}

impl Instance {
    async fn start(server: Server<Handler>) -> Instance {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let addr = runtime
            .spawn(host(server, false))
            .await
            .expect("the host serves");
        Instance { addr, runtime }
    }

    fn kill(self) {
        self.runtime.shutdown_background();
    }
}

/// Servers of one handler (one [`Seen`]) sharing one store, with a short lease.
fn sharing(seen: &Arc<Seen>, state: &mcp_contract::state::State) -> Server<Handler> {
    Server::new(Handler(Arc::clone(seen)))
        .state(state.clone())
        .task_limits(TaskLimits {
            lease: Duration::from_millis(500),
            ..TaskLimits::default()
        })
}

#[tokio::test]
async fn a_task_whose_server_is_gone_fails_once_its_lease_lapsed_and_never_runs_again() {
    let state = mcp_contract::state::State::default();
    let seen = Arc::new(Seen::default());
    let made = Instance::start(sharing(&seen, &state)).await;
    let other = host(sharing(&seen, &state), false).await;
    let mut made_on = Wire::Http(made.addr, None);
    let mut read_on = Wire::Http(other, None);
    let id = task_id(&made_on.call("slow", OPTED_IN).await);
    let (mut old, _) = OldHttp::open(made.addr).await;
    let old_id = old.task("slow").await;
    // While its server lives, it renews the lease: the task works on, well past one lease.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(read_on.get(&id).await["status"], "working");
    let (mut waiter, _) = OldHttp::open(other).await;
    let waiting = tokio::spawn(async move {
        let params = json!({"taskId": old_id});
        let ended = waiter.ask(
            "GetTaskPayloadRequest",
            "tasks/result",
            params,
            "CallToolResult",
        );
        tokio::time::timeout(Duration::from_secs(5), ended).await
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    made.kill();
    // Two servers reading it at once once its lease lapsed: one fails it, both see that.
    let mut also_on = Wire::Http(host(sharing(&seen, &state), false).await, None);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (failed, also) = tokio::join!(read_on.get(&id), also_on.get(&id));
    assert_eq!(failed, also, "one failure, written once");
    assert_eq!(failed["status"], "failed", "{failed}");
    let message = failed["statusMessage"].as_str().unwrap_or_default();
    assert!(
        message.contains("server running this task stopped"),
        "{failed}"
    );
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    // The waiter on the other server is told, with the same error.
    let told = waiting.await.unwrap().expect("the waiter is told");
    assert_eq!(told["code"], -32603, "{told}");
    let told = told["message"].as_str().unwrap_or_default();
    assert!(told.contains("server running this task stopped"), "{told}");
    // Failed for good; neither handler ever ran again.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(read_on.get(&id).await["status"], "failed");
    assert_eq!(seen.runs.load(Ordering::SeqCst), 2, "each handler ran once");
}

/// `tasks/update` answering task `id`'s question, on `wire`.
async fn answer(wire: &mut Wire, id: &str) -> Value {
    let answers = json!({"sure": {"action": "accept", "content": {"ok": true}}});
    wire.request(
        "tasks/update",
        json!({"taskId": id, "inputResponses": answers}),
        OPTED_IN,
    )
    .await
}

#[tokio::test]
async fn a_task_parked_on_one_server_is_rerun_with_its_answers_where_they_arrive() {
    let state = mcp_contract::state::State::default();
    let (seen_a, seen_b) = (Arc::new(Seen::default()), Arc::new(Seen::default()));
    let mut on_a = Wire::Http(host(sharing(&seen_a, &state), false).await, None);
    let mut on_b = Wire::Http(host(sharing(&seen_b, &state), false).await, None);
    let id = task_id(&on_a.call("asks_later", OPTED_IN).await);
    let parked = on_a.settled(&id).await;
    assert_eq!(parked["status"], "input_required", "{parked}");
    assert_eq!(
        answer(&mut on_b, &id).await,
        json!({"resultType": "complete"})
    );
    let done = on_b.settled(&id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(text(&done["result"]), r#"answered {"ok":true}"#);
    assert_eq!(on_a.get(&id).await, done, "the same task on either server");
    assert_eq!(seen_a.runs.load(Ordering::SeqCst), 1, "asked on A");
    assert_eq!(seen_b.runs.load(Ordering::SeqCst), 1, "rerun on B");
}

#[tokio::test]
async fn of_two_servers_answering_a_parked_task_at_once_one_reruns_it() {
    let state = mcp_contract::state::State::default();
    let seen: [Arc<Seen>; 3] = Default::default();
    let mut made_on = Wire::Http(host(sharing(&seen[0], &state), false).await, None);
    let mut one = Wire::Http(host(sharing(&seen[1], &state), false).await, None);
    let mut two = Wire::Http(host(sharing(&seen[2], &state), false).await, None);
    let rounds = 5;
    for _ in 0..rounds {
        let id = task_id(&made_on.call("asks_later", OPTED_IN).await);
        assert_eq!(made_on.settled(&id).await["status"], "input_required");
        let (a, b) = tokio::join!(answer(&mut one, &id), answer(&mut two, &id));
        assert_eq!((&a, &b), (&json!({"resultType": "complete"}), &a));
        let done = made_on.settled(&id).await;
        assert_eq!(text(&done["result"]), r#"answered {"ok":true}"#, "{done}");
    }
    let runs = |s: &Seen| s.runs.load(Ordering::SeqCst);
    assert_eq!(runs(&seen[0]), rounds, "each asked once");
    assert_eq!(runs(&seen[1]) + runs(&seen[2]), rounds, "each rerun once");
}

#[tokio::test]
async fn a_task_cancelled_on_another_server_has_its_handler_cancelled() {
    let state = mcp_contract::state::State::default();
    let (seen_a, seen_b) = (Arc::new(Seen::default()), Arc::new(Seen::default()));
    let mut on_a = Wire::Http(host(sharing(&seen_a, &state), false).await, None);
    let mut on_b = Wire::Http(host(sharing(&seen_b, &state), false).await, None);
    let id = task_id(&on_a.call("slow", OPTED_IN).await);
    let ack = on_b
        .request("tasks/cancel", json!({"taskId": id}), OPTED_IN)
        .await;
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert_eq!(on_a.get(&id).await["status"], "cancelled");
    // Within a renewal of its lease (a third of 500 ms), A's handler sees it.
    for _ in 0..100 {
        if seen_a.cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        seen_a.cancelled.load(Ordering::SeqCst),
        "A's handler cancelled"
    );
    assert_eq!(on_b.get(&id).await["status"], "cancelled");
}

#[tokio::test]
async fn a_cancellation_on_another_server_reaches_the_handler_at_once_not_at_a_renewal() {
    let state = mcp_contract::state::State::default();
    let (seen_a, seen_b) = (Arc::new(Seen::default()), Arc::new(Seen::default()));
    // A lease of a minute: the next renewal, where a cancellation would otherwise be
    // noticed, is 20 seconds away.
    let long = |seen: &Arc<Seen>| {
        Server::new(Handler(Arc::clone(seen)))
            .state(state.clone())
            .task_limits(TaskLimits {
                lease: Duration::from_secs(60),
                ..TaskLimits::default()
            })
    };
    let mut on_a = Wire::Http(host(long(&seen_a), false).await, None);
    let mut on_b = Wire::Http(host(long(&seen_b), false).await, None);
    let id = task_id(&on_a.call("slow", OPTED_IN).await);
    on_b.request("tasks/cancel", json!({"taskId": id}), OPTED_IN)
        .await;
    let asked = std::time::Instant::now();
    while !seen_a.cancelled.load(Ordering::SeqCst) && asked.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        seen_a.cancelled.load(Ordering::SeqCst),
        "A's handler cancelled within 5 s, not at its next renewal"
    );
}
