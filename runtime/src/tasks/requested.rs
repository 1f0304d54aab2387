//! Tasks the client requests, as a client of a revision with the `initialize` handshake
//! (2025-11-25) asks for them: `tools/call` with `params.task`, answered
//! with a `CreateTaskResult` (`{task}`), then `tasks/get`, `tasks/result`, `tasks/list` and
//! `tasks/cancel`, all served from the same [`Tasks`](super::Tasks) as the 2026-07-28
//! extension.
//!
//! rmcp 3.11 reads `tools/call` into a type without `task`, and `tasks/get` and
//! `tasks/cancel` as the extension's, which it refuses `-32021` from a client that did not
//! declare it. So the transport [`reroute`]s such a request, seen in its raw bytes, as a
//! custom request, which reaches the server's `requested_task` whole.

use std::sync::atomic::{AtomicBool, Ordering};

use mcp_contract_spec::Revision;

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, CustomNotification, CustomRequest, ErrorCode,
    GetExtensions as _, ServerJsonRpcMessage, ServerNotification, ServerResult, TASKS_EXTENSION_ID,
    Task,
};
use rmcp::service::Peer;
use rmcp::{ErrorData, RoleServer};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use super::TaskSupport;
use crate::published::Published;

/// The most tasks one `tasks/list` page holds.
pub(crate) const PAGE: usize = 50;

/// The notification telling a 2025-11-25 client its task's new status.
const STATUS: &str = "notifications/tasks/status";

/// The `_meta` key tying a message to its task.
pub(crate) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// What [`task_request`] reads of a request's raw bytes.
#[derive(Deserialize)]
struct Peek {
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<PeekParams>,
}

#[derive(Deserialize, Default)]
struct PeekParams {
    #[serde(default)]
    task: Option<IgnoredAny>,
    #[serde(rename = "_meta", default)]
    meta: Option<PeekMeta>,
}

#[derive(Deserialize)]
struct PeekMeta {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
    version: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct Whole {
    #[serde(default)]
    params: Option<Value>,
}

/// The method of the 2025-11-25 task request `raw` holds, if it holds one: a `tools/call`
/// with a `task`, or one of the four `tasks/*`, from a client that names no 2026-07-28
/// revision in its `_meta`. Both transports decide by this alone.
pub(crate) fn task_request(raw: &[u8]) -> Option<&'static str> {
    let peek = serde_json::from_slice::<Peek>(raw).ok()?;
    let params = peek.params.unwrap_or_default();
    if params.meta.and_then(|m| m.version).is_some() {
        return None;
    }
    task_method(peek.method.as_deref()?, params.task.is_some())
}

/// `method` as one of the 2025-11-25 task requests, given whether its params carry a `task`:
/// the one list both [`task_request`] (on the bytes) and [`is_requested_task`] (on the parsed
/// request) decide by.
fn task_method(method: &str, has_task: bool) -> Option<&'static str> {
    match method {
        "tools/call" if has_task => Some("tools/call"),
        "tasks/get" => Some("tasks/get"),
        "tasks/result" => Some("tasks/result"),
        "tasks/list" => Some("tasks/list"),
        "tasks/cancel" => Some("tasks/cancel"),
        _ => None,
    }
}

/// `message`, read from `raw`, as the server must see it: a [`task_request`] rmcp read as one
/// of its own types (`tools/call`, `tasks/get`, `tasks/cancel`) becomes a custom request with
/// its params whole. Anything else is left as it is.
pub(crate) fn reroute(message: ClientJsonRpcMessage, raw: &[u8]) -> ClientJsonRpcMessage {
    let ClientJsonRpcMessage::Request(mut request) = message else {
        return message;
    };
    if !matches!(
        request.request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::GetTaskRequest(_)
            | ClientRequest::CancelTaskRequest(_)
    ) {
        return ClientJsonRpcMessage::Request(request);
    }
    if let Some(method) = task_request(raw)
        && let Ok(Whole { params }) = serde_json::from_slice::<Whole>(raw)
    {
        let mut custom = CustomRequest::new(method, params);
        custom.extensions = std::mem::take(request.request.extensions_mut());
        request.request = ClientRequest::CustomRequest(custom);
    }
    ClientJsonRpcMessage::Request(request)
}

/// The method an HTTP body held before [`hide`] renamed it, carried in the HTTP request's
/// extensions (and so in the `http::request::Parts` rmcp hands the server).
#[cfg(feature = "http")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hidden(pub(crate) &'static str);

/// The method a [`hide`]n body names: no client's method, and unknown (`-32601`) to a
/// request that does not carry its [`Hidden`] original.
#[cfg(feature = "http")]
const HIDDEN_METHOD: &str = "mcp-contract/2025-task";

/// The HTTP body `raw`, when it holds a [`task_request`], renamed so that rmcp reads it as a
/// custom request with its params whole, and the method it had. Over HTTP rmcp reads the body
/// itself, so this is done to the bytes before it does.
#[cfg(feature = "http")]
pub(crate) fn hide(raw: &[u8]) -> Option<(Hidden, Vec<u8>)> {
    let method = task_request(raw)?;
    let mut message = serde_json::from_slice::<serde_json::Map<String, Value>>(raw).ok()?;
    message.insert("method".to_owned(), HIDDEN_METHOD.into());
    Some((Hidden(method), serde_json::to_vec(&message).ok()?))
}

/// A [`hide`]n request given its own method back, before the server looks at it.
#[cfg(feature = "http")]
pub(crate) fn unhide(
    request: &mut CustomRequest,
    context: &rmcp::service::RequestContext<RoleServer>,
) {
    if request.method != HIDDEN_METHOD {
        return;
    }
    let hidden = context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Hidden>());
    if let Some(Hidden(method)) = hidden {
        request.method = (*method).to_owned();
    }
}

/// Whether `request` is one [`Server::requested_task`] answers.
pub(crate) fn is_requested_task(request: &CustomRequest) -> bool {
    let has_task = (request.params.as_ref())
        .and_then(|p| p.get("task"))
        .is_some_and(|t| !t.is_null());
    task_method(&request.method, has_task).is_some()
}

/// Sends `notifications/tasks/status` to the client of `peer`, in the order the status
/// changed (the store calls it locked: it only queues).
pub(crate) fn teller(peer: Peer<RoleServer>) -> super::store::Tell {
    let (queue, mut queued) = tokio::sync::mpsc::unbounded_channel::<Value>();
    tokio::spawn(async move {
        while let Some(task) = queued.recv().await {
            let status = CustomNotification::new(STATUS, Some(task));
            // A client gone is told nothing more; its task is cancelled or forgotten.
            if peer
                .send_notification(ServerNotification::CustomNotification(status))
                .await
                .is_err()
            {
                break;
            }
        }
    });
    Box::new(move |task| {
        let _ = queue.send(task_json(task));
    })
}

/// A task as 2025-11-25 shapes it (`ttl` and `pollInterval` rather than `ttlMs` and
/// `pollIntervalMs`).
pub(crate) fn task_json(task: &Task) -> Value {
    let mut shaped = json!({
        "taskId": task.task_id,
        "status": task.status,
        "createdAt": task.created_at,
        "lastUpdatedAt": task.last_updated_at,
        "ttl": task.ttl_ms,
    });
    if let Some(interval) = task.poll_interval_ms {
        shaped["pollInterval"] = interval.into();
    }
    if let Some(message) = &task.status_message {
        shaped["statusMessage"] = message.as_str().into();
    }
    shaped
}

/// The `taskId` of a `tasks/*` request's params, or `-32602`.
pub(crate) fn task_id(method: &str, params: &Value) -> Result<String, ErrorData> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("Invalid params for {method}: `taskId` is missing; it is a string"),
                None,
            )
        })
}

/// The `-32601` the 2025-11-25 spec prescribes for a call that does not fit the tool's
/// `execution.taskSupport`.
pub(crate) fn misfit(why: String) -> ErrorData {
    ErrorData::new(ErrorCode::METHOD_NOT_FOUND, why, None)
}

/// The `-32601` of a `task: required` tool called by a 2025-11-25 client without `task`.
pub(crate) fn required(name: &str) -> ErrorData {
    misfit(format!(
        "Tool {name} runs only as a task: call it with `params.task`"
    ))
}

/// What a 2025-11-25 client is told of tasks that rmcp 3.11's types cannot carry: the
/// `tasks` capability in `initialize` (in place of the 2026-07-28 extension) and each task
/// tool's `execution.taskSupport` in `tools/list`. The stdio transport writes the server's
/// answers through [`Publish::reshape`].
pub(crate) struct Publish {
    /// Each tool that may run as a task, by name, with its `taskSupport`.
    tools: Vec<(String, &'static str)>,
    /// Set once this connection's `initialize` chose a handshake revision, whose client
    /// requests its tasks.
    requests_tasks: AtomicBool,
}

impl Publish {
    /// For a server with task tools (`has_tasks`, each tool's `support`, by index, in
    /// `published`); `None` otherwise, when nothing is reshaped.
    pub(crate) fn new(
        published: &Published,
        has_tasks: bool,
        support: impl Fn(usize) -> TaskSupport,
    ) -> Option<Publish> {
        if !has_tasks {
            return None;
        }
        let names = published.tools().iter().enumerate();
        let tools = names
            .filter_map(|(i, tool)| {
                let support = match support(i) {
                    TaskSupport::Forbidden => return None,
                    TaskSupport::Optional => "optional",
                    TaskSupport::Required => "required",
                };
                Some((tool.name.to_string(), support))
            })
            .collect();
        Some(Publish {
            tools,
            requests_tasks: AtomicBool::new(false),
        })
    }

    /// `message` as a 2025-11-25 client must read it, when that differs from what rmcp
    /// writes: the `initialize` result that chose 2025-11-25, and every `tools/list` result
    /// after it (stdio, where the connection remembers its revision).
    pub(crate) fn reshape(&self, message: &ServerJsonRpcMessage) -> Option<Value> {
        let ServerJsonRpcMessage::Response(response) = message else {
            return None;
        };
        let mut shaped = match &response.result {
            ServerResult::InitializeResult(_) | ServerResult::ListToolsResult(_) => {
                serde_json::to_value(message).ok()?
            }
            _ => return None,
        };
        if shape_initialize(&mut shaped) {
            self.requests_tasks.store(true, Ordering::Relaxed);
            return Some(shaped);
        }
        (self.requests_tasks.load(Ordering::Relaxed) && self.shape_tools(&mut shaped))
            .then_some(shaped)
    }

    /// Gives each task tool of the `tools/list` answer `message` (a JSON-RPC response) its
    /// `execution.taskSupport`; whether `message` was such an answer.
    pub(crate) fn shape_tools(&self, message: &mut Value) -> bool {
        let Some(tools) = message
            .pointer_mut("/result/tools")
            .and_then(Value::as_array_mut)
        else {
            return false;
        };
        for tool in tools {
            let name = tool.get("name").and_then(Value::as_str);
            if let Some((_, support)) = self.tools.iter().find(|(n, _)| Some(n.as_str()) == name) {
                tool["execution"] = json!({ "taskSupport": support });
            }
        }
        true
    }
}

/// Whether `version` is a revision this runtime speaks whose clients open with the
/// `initialize` handshake: their tasks are the ones they request. An older version rmcp
/// negotiated, which had no tasks at all, is not.
pub(crate) fn handshake_revision(version: Option<&str>) -> bool {
    version
        .and_then(|v| v.parse::<Revision>().ok())
        .is_some_and(Revision::has_initialize)
}

/// Tells of tasks as 2025-11-25 does in the `initialize` answer `message` (a JSON-RPC
/// response) when it chose that revision: `capabilities.tasks` in place of the 2026-07-28
/// extension. Whether `message` was such an answer.
pub(crate) fn shape_initialize(message: &mut Value) -> bool {
    let chose = message
        .pointer("/result/protocolVersion")
        .and_then(Value::as_str);
    if !handshake_revision(chose) {
        return false;
    }
    let Some(capabilities) = message
        .pointer_mut("/result/capabilities")
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    if let Some(Value::Object(extensions)) = capabilities.get_mut("extensions") {
        extensions.remove(TASKS_EXTENSION_ID);
        if extensions.is_empty() {
            capabilities.remove("extensions");
        }
    }
    capabilities.insert(
        "tasks".to_owned(),
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
    );
    true
}
