//! A call to a tool that may run as a task: a task where the client opted in and the handler
//! does not finish (or ask) at once; a normal call elsewhere.

use std::sync::Arc;
use std::task::Poll;

use rmcp::model::{CallToolResponse, ClientCapabilities, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::store::{Made, Rerun, Run, new_id};
use super::{InTask, Owner, TaskSupport};
use crate::codegen::Dispatch;
use crate::server::{Retry, Server, revision};

impl<D: Dispatch> Server<D> {
    /// Calls tool `name`, which declares `support`, for `request`: see [the module](super).
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
                    Err(super::requested::required(&name))
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
        let mut made = self.task_of(name, arguments, retry, request);
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

    /// What a task of tool `name` for `request` is made of: its id and owner, the
    /// cancellation of its handler, its rerun with answers, and its first run (not polled
    /// yet); kept for the server's `TTL`, told of nobody.
    pub(super) fn task_of(
        &self,
        name: String,
        arguments: Option<JsonObject>,
        retry: Retry,
        request: RequestContext<RoleServer>,
    ) -> Made {
        let owner = self.owner(&request);
        let id = new_id();
        // The task outlives its request: its own cancellation, no stdio slot, and the marker.
        let mut own = request;
        own.ct = Default::default();
        own.extensions.remove::<crate::stdio::InFlight>();
        own.extensions.insert(InTask(Some(Arc::new(super::Mark {
            tasks: Arc::downgrade(self.tasks()),
            id: id.clone(),
        }))));
        let (tool, stored) = (name.clone(), arguments.clone().unwrap_or_default());
        let token = own.ct.clone();
        let cancel = Box::new(move || token.cancel());
        let rerun: Rerun = {
            let (server, name, arguments, own) =
                (self.clone(), name.clone(), arguments.clone(), own.clone());
            let (first, state) = (retry.responses.clone(), retry.state.clone());
            Arc::new(move |answers| {
                let (server, name, arguments, own) =
                    (server.clone(), name.clone(), arguments.clone(), own.clone());
                let mut responses = first.clone().unwrap_or_default();
                responses.extend(answers);
                let retry = Retry {
                    responses: Some(responses),
                    state: state.clone(),
                };
                Box::pin(async move { server.call_in(&name, arguments, retry, Some(own)).await })
            })
        };
        let server = self.clone();
        let run: Run =
            Box::pin(async move { server.call_in(&name, arguments, retry, Some(own)).await });
        Made {
            id,
            owner,
            tool,
            arguments: stored,
            cancel,
            rerun,
            run,
            ttl: None,
            tell: None,
        }
    }

    /// Who may reach the tasks `request` makes; see [the module](super).
    pub(crate) fn owner(&self, request: &RequestContext<RoleServer>) -> Owner {
        if let Some(caller) = crate::access::caller(request) {
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
}
