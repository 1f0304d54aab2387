//! Calls that run as tasks ([`crate::tasks`]): a call to a tool that may run as a task (a
//! task where the client opted in and the handler does not finish, or ask, at once; a normal
//! call elsewhere), and the 2025-11-25 task requests (`tools/call` with `params.task`,
//! `tasks/*`), which the transports hand on whole.

use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CustomRequest, CustomResult,
    ErrorCode, JsonObject,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::{Dispatch, Retry, Server};
use crate::request::{self, InFlight, revision};
use crate::state::TaskRecord;
use crate::tasks::requested::{self, PAGE, RELATED_TASK, misfit, task_id, task_json, teller};
use crate::tasks::store::{Cancel, Made, Run, new_id};
use crate::tasks::{InTask, Mark, Owner, Publish, TaskSupport};

impl<D: Dispatch> Server<D> {
    /// Calls tool `name`, which declares `support`, for `request`: see [`crate::tasks`].
    pub(crate) async fn call_as_task(
        &self,
        support: TaskSupport,
        name: String,
        arguments: Option<JsonObject>,
        retry: Retry,
        request: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let opted_in = !revision(&request).has_initialize()
            && request
                .client_capabilities()
                .is_some_and(|c| c.supports_tasks());
        let tasks = Arc::clone(self.tasks());
        if !opted_in || !tasks.has_room().await? {
            return match support {
                TaskSupport::Required if revision(&request).has_initialize() => {
                    Err(requested::required(&name))
                }
                TaskSupport::Required if !opted_in => {
                    Err(ErrorData::missing_required_client_capability(
                        ClientCapabilities::builder().enable_tasks().build(),
                    ))
                }
                TaskSupport::Required => Err(ErrorData::internal_error(
                    format!(
                        "too many tasks are running (at most {}); try again later",
                        tasks.limits().max_live
                    ),
                    None,
                )),
                _ => self.call_in(&name, arguments, retry, Some(request)).await,
            };
        }
        let mut made = self.task_of(name, arguments, retry, request).await?;
        // Polled once here: what ends (or asks) at once is answered as any call is.
        let first = std::future::poll_fn(|cx| Poll::Ready(made.run.as_mut().poll(cx))).await;
        if let Poll::Ready(ended) = first {
            return ended;
        }
        match tasks.start(made).await? {
            Ok(task) => Ok(CallToolResponse::Task(task)),
            // The room went to another call meanwhile: this one runs to its end here.
            Err(run) => run.await,
        }
    }

    /// What a task of tool `name` for `request` is made of: its id and owner, what its
    /// record keeps (the arguments, and every answer the call carried), the cancellation of
    /// its handler and its first run (not polled yet); kept for the server's `TTL`, told of
    /// nobody. `-32602` for a request state that does not open.
    async fn task_of(
        &self,
        name: String,
        arguments: Option<JsonObject>,
        retry: Retry,
        request: RequestContext<RoleServer>,
    ) -> Result<Made, ErrorData> {
        let owner = self.owner(&request);
        let id = new_id();
        let stored = arguments.clone().unwrap_or_default();
        let answers = (self.pipeline)
            .answers(&request, &name, &stored, &retry)
            .await?;
        let (own, cancel) = self.detach(&id, request);
        let (server, tool) = (self.clone(), name.clone());
        let run: Run =
            Box::pin(async move { server.call_in(&name, arguments, retry, Some(own)).await });
        Ok(Made {
            id,
            owner,
            tool,
            arguments: stored,
            answers,
            cancel,
            run,
            ttl: None,
            tell: None,
        })
    }

    /// The run of the task `record` from the start, with its arguments and every answer it
    /// holds, in the context of `request` (the same client's request that completed its
    /// answers), and its cancellation. Built from the record alone, so that any server
    /// sharing the store reruns a task any of them made, as its maker would.
    pub(crate) fn rerun(
        &self,
        record: &TaskRecord,
        request: RequestContext<RoleServer>,
    ) -> (Run, Cancel) {
        let (own, cancel) = self.detach(record.id(), request);
        let (server, name) = (self.clone(), record.tool.clone());
        let arguments = Some(record.arguments.clone());
        let retry = Retry {
            responses: Some(record.answers.clone()),
            state: None,
        };
        let run: Run =
            Box::pin(async move { server.call_in(&name, arguments, retry, Some(own)).await });
        (run, cancel)
    }

    /// `request` as the context of a run of the task `id`, which outlives the request: its
    /// own cancellation (fired by the closure returned), no stdio slot, and the marker.
    fn detach(
        &self,
        id: &str,
        mut request: RequestContext<RoleServer>,
    ) -> (RequestContext<RoleServer>, Cancel) {
        request.ct = Default::default();
        request.extensions.remove::<InFlight>();
        let mark = Mark::new(self.tasks(), id.to_owned());
        request.extensions.insert(InTask(Some(Arc::new(mark))));
        let token = request.ct.clone();
        (request, Box::new(move || token.cancel()))
    }

    /// Who may reach the tasks `request` makes; see [`crate::tasks`].
    pub(crate) fn owner(&self, request: &RequestContext<RoleServer>) -> Owner {
        if let Some(caller) = request::caller(request) {
            return Owner::Caller(caller.subject.clone());
        }
        // Over HTTP, a 2025-11-25 request outside a session (a host without sessions) is as
        // stateless as a 2026-07-28 one: its server lives for that one request.
        #[cfg(feature = "http")]
        if let Some(parts) = request.extensions.get::<axum::http::request::Parts>()
            && (!revision(request).has_initialize()
                || !parts.headers.contains_key("mcp-session-id"))
        {
            return Owner::Holder;
        }
        Owner::Session(self.connection_id())
    }

    /// Answers a request [`is_requested_task`](crate::tasks::is_requested_task) from a 2025-11-25
    /// client; see [`crate::tasks`].
    pub(crate) async fn requested_task(
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
            "tools/call" => return self.requested_call(params, context).await,
            "tasks/get" => task_json(&tasks.task(&task_id(method, &params)?, &owner).await?),
            "tasks/cancel" => {
                let id = task_id(method, &params)?;
                if !tasks.cancel(&id, &owner).await? {
                    return Err(ErrorData::invalid_params(
                        format!("Task {id} has already ended; it cannot be cancelled"),
                        None,
                    ));
                }
                task_json(&tasks.task(&id, &owner).await?)
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
                // Ids are the capability on a stateless host: listing them would hand them out.
                let mine = match owner {
                    Owner::Holder => Vec::new(),
                    _ => tasks.made_by(&owner).await?,
                };
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
    async fn requested_call(
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
        if !tasks.has_room().await? {
            return Err(full());
        }
        let peer = context.peer.clone();
        let mut made = self
            .task_of(name, call.arguments, Retry::default(), context)
            .await?;
        made.ttl = params
            .pointer("/task/ttl")
            .and_then(Value::as_u64)
            .map(Duration::from_millis);
        // Told where a connection or session outlives the request: not a stateless one.
        if made.owner != Owner::Holder {
            made.tell = Some(teller(peer));
        }
        // Never polled when there is no room: the handler has not run at all.
        let created = tasks.start(made).await?.map_err(|_| full())?;
        Ok(CustomResult(json!({ "task": task_json(&created.task) })))
    }
}

impl<D: Dispatch> Server<D> {
    /// What a 2025-11-25 client of this server is told of tasks beside rmcp's answers; `None`
    /// without task tools.
    pub(crate) fn task_publish(&self) -> Option<Publish> {
        let dispatch = self.dispatch();
        Publish::new(dispatch.published(), dispatch.has_tasks(), |i| {
            dispatch.task_support(i)
        })
    }
}
