//! Tasks as a 2025-11-25 client asks for them: `tools/call` with `params.task`, answered
//! with a `CreateTaskResult` (`{task}`), then `tasks/get`, `tasks/result`, `tasks/list` and
//! `tasks/cancel`, all served from the same [`Tasks`](super::Tasks) as the 2026-07-28
//! extension.
//!
//! rmcp 3.11 reads `tools/call` into a type without `task`, and `tasks/get` and
//! `tasks/cancel` as the extension's, which it refuses `-32021` from a client that did not
//! declare it. So the transport [`reroute`]s such a request, seen in its raw bytes, as a
//! custom request, which reaches [`Server::legacy_task`] whole.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mcp_contract_spec::Revision;

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, CustomRequest, CustomResult,
    ErrorCode, GetExtensions as _, ServerJsonRpcMessage, ServerResult, TASKS_EXTENSION_ID, Task,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use super::TaskSupport;
use crate::codegen::Dispatch;
use crate::server::{Retry, Server, revision};

/// The most tasks one `tasks/list` page holds.
const PAGE: usize = 50;

/// The `_meta` key tying a message to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// What [`reroute`] reads of a request's raw bytes.
#[derive(Deserialize)]
struct Peek {
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

/// `message`, read from `raw`, as the server must see it: a `tools/call` with a `task`, or a
/// `tasks/get` or `tasks/cancel`, from a client that names no 2026-07-28 revision in its
/// `_meta`, becomes a custom request with its params whole. Anything else is left as it is.
pub(crate) fn reroute(message: ClientJsonRpcMessage, raw: &[u8]) -> ClientJsonRpcMessage {
    let ClientJsonRpcMessage::Request(mut request) = message else {
        return message;
    };
    let method = match &request.request {
        ClientRequest::CallToolRequest(_) => "tools/call",
        ClientRequest::GetTaskRequest(_) => "tasks/get",
        ClientRequest::CancelTaskRequest(_) => "tasks/cancel",
        _ => return ClientJsonRpcMessage::Request(request),
    };
    let Ok(peek) = serde_json::from_slice::<Peek>(raw) else {
        return ClientJsonRpcMessage::Request(request);
    };
    let peek = peek.params.unwrap_or_default();
    let legacy = peek.meta.and_then(|m| m.version).is_none()
        && (method != "tools/call" || peek.task.is_some());
    if legacy && let Ok(Whole { params }) = serde_json::from_slice::<Whole>(raw) {
        let mut custom = CustomRequest::new(method, params);
        custom.extensions = std::mem::take(request.request.extensions_mut());
        request.request = ClientRequest::CustomRequest(custom);
    }
    ClientJsonRpcMessage::Request(request)
}

/// Whether `request` is one [`Server::legacy_task`] answers.
pub(crate) fn is_legacy_task(request: &CustomRequest) -> bool {
    match request.method.as_str() {
        "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel" => true,
        "tools/call" => request
            .params
            .as_ref()
            .and_then(|p| p.get("task"))
            .is_some_and(|t| !t.is_null()),
        _ => false,
    }
}

/// A task as 2025-11-25 shapes it (`ttl` and `pollInterval` rather than `ttlMs` and
/// `pollIntervalMs`).
fn task_json(task: &Task) -> Value {
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
fn task_id(method: &str, params: &Value) -> Result<String, ErrorData> {
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
fn misfit(why: String) -> ErrorData {
    ErrorData::new(ErrorCode::METHOD_NOT_FOUND, why, None)
}

/// The `-32601` of a `task: required` tool called by a 2025-11-25 client without `task`.
pub(crate) fn required(name: &str) -> ErrorData {
    misfit(format!(
        "Tool {name} runs only as a task: call it with `params.task`"
    ))
}

impl<D: Dispatch> Server<D> {
    /// Answers a request [`is_legacy_task`] from a 2025-11-25 client; see [the module](self).
    pub(crate) async fn legacy_task(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        if !self.dispatch().has_tasks() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                method.to_owned(),
                None,
            ));
        }
        let params = request.params.unwrap_or_else(|| json!({}));
        let tasks = Arc::clone(self.tasks());
        let owner = self.owner(&context);
        let answer = match method {
            "tools/call" => return self.legacy_call(params, context).await,
            "tasks/get" => task_json(&tasks.task(&task_id(method, &params)?, &owner)?),
            "tasks/cancel" => {
                let id = task_id(method, &params)?;
                if !tasks.cancel(&id, &owner)? {
                    return Err(ErrorData::invalid_params(
                        format!("Task {id} has already ended; it cannot be cancelled"),
                        None,
                    ));
                }
                task_json(&tasks.task(&id, &owner)?)
            }
            "tasks/result" => {
                let id = task_id(method, &params)?;
                let mut result = tasks.ended(&id, &owner).await?;
                let meta = result.entry("_meta").or_insert_with(|| json!({}));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(RELATED_TASK.to_owned(), json!({ "taskId": id }));
                }
                Value::Object(result)
            }
            _ => {
                let from = match params.get("cursor") {
                    None | Some(Value::Null) => 0,
                    Some(cursor) => cursor
                        .as_str()
                        .and_then(|c| c.parse::<usize>().ok())
                        .ok_or_else(|| {
                            ErrorData::invalid_params(format!("Invalid cursor: {cursor}"), None)
                        })?,
                };
                let mine = tasks.made_by(&owner);
                let page: Vec<Value> = mine.iter().skip(from).take(PAGE).map(task_json).collect();
                let mut answer = json!({ "tasks": page });
                if from + PAGE < mine.len() {
                    answer["nextCursor"] = (from + PAGE).to_string().into();
                }
                answer
            }
        };
        Ok(CustomResult(answer))
    }

    /// `tools/call` with `params.task`: the task made at once, its `CreateTaskResult`.
    async fn legacy_call(
        &self,
        params: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let call: CallToolRequestParams = serde_json::from_value(params.clone()).map_err(|e| {
            let problem = crate::params::problem("tools/call", Some(&params), revision(&context));
            ErrorData::invalid_params(problem.unwrap_or_else(|| e.to_string()), None)
        })?;
        let name = call.name.into_owned();
        match self.task_support(&name, &context) {
            TaskSupport::Forbidden if self.knows(&name, &context) => {
                return Err(misfit(format!(
                    "Tool {name} does not run as a task: call it without `params.task`"
                )));
            }
            TaskSupport::Forbidden => {
                return Err(ErrorData::invalid_params(
                    format!("Unknown tool: {name}"),
                    None,
                ));
            }
            TaskSupport::Optional | TaskSupport::Required => {}
        }
        let tasks = Arc::clone(self.tasks());
        let full = || {
            ErrorData::internal_error(
                format!(
                    "too many tasks are running (at most {}); try again later",
                    tasks.limits().max_live
                ),
                None,
            )
        };
        if !tasks.has_room() {
            return Err(full());
        }
        let (owner, cancel, rerun, run) =
            self.task_of(name, call.arguments, Retry::default(), context);
        // Never polled when there is no room: the handler has not run at all.
        let created = tasks.start(owner, cancel, rerun, run).map_err(|_| full())?;
        Ok(CustomResult(json!({ "task": task_json(&created.task) })))
    }
}

/// What a 2025-11-25 client is told of tasks that rmcp 3.11's types cannot carry: the
/// `tasks` capability in `initialize` (in place of the 2026-07-28 extension) and each task
/// tool's `execution.taskSupport` in `tools/list`. The stdio transport writes the server's
/// answers through [`Publish::reshape`].
pub(crate) struct Publish {
    /// Each tool that may run as a task, by name, with its `taskSupport`.
    tools: Vec<(String, &'static str)>,
    /// Set once this connection's `initialize` answered 2025-11-25.
    legacy: AtomicBool,
}

impl Publish {
    /// For a server with task tools; `None` otherwise, when nothing is reshaped.
    pub(crate) fn new<D: Dispatch>(dispatch: &D) -> Option<Publish> {
        if !dispatch.has_tasks() {
            return None;
        }
        let names = dispatch.published().tools.iter().enumerate();
        let tools = names
            .filter_map(|(i, tool)| {
                let support = match dispatch.task_support(i) {
                    TaskSupport::Forbidden => return None,
                    TaskSupport::Optional => "optional",
                    TaskSupport::Required => "required",
                };
                Some((tool.name.to_string(), support))
            })
            .collect();
        Some(Publish {
            tools,
            legacy: AtomicBool::new(false),
        })
    }

    /// `message` as a 2025-11-25 client must read it, when that differs from what rmcp
    /// writes: the `initialize` result that chose 2025-11-25, and every `tools/list` result
    /// after it.
    pub(crate) fn reshape(&self, message: &ServerJsonRpcMessage) -> Option<Value> {
        let ServerJsonRpcMessage::Response(response) = message else {
            return None;
        };
        match &response.result {
            ServerResult::InitializeResult(result)
                if result.protocol_version.as_str() == Revision::V2025_11_25.as_str() =>
            {
                self.legacy.store(true, Ordering::Relaxed);
                let mut shaped = serde_json::to_value(message).ok()?;
                let capabilities = shaped
                    .pointer_mut("/result/capabilities")?
                    .as_object_mut()?;
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
                Some(shaped)
            }
            ServerResult::ListToolsResult(_) if self.legacy.load(Ordering::Relaxed) => {
                let mut shaped = serde_json::to_value(message).ok()?;
                let tools = shaped.pointer_mut("/result/tools")?.as_array_mut()?;
                for tool in tools {
                    let name = tool.get("name").and_then(Value::as_str);
                    if let Some((_, support)) =
                        self.tools.iter().find(|(n, _)| Some(n.as_str()) == name)
                    {
                        tool["execution"] = json!({ "taskSupport": support });
                    }
                }
                Some(shaped)
            }
            _ => None,
        }
    }
}
