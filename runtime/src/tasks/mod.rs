//! Long-running tools as tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663, on
//! 2026-07-28; the tasks of 2025-11-25).
//!
//! A tool declares `task: optional` or `task: required` in the manifest ([`TaskSupport`]).
//! When the client opted in (`extensions["io.modelcontextprotocol/tasks"]` in the request's
//! client capabilities), a call to such a tool may become a task: the client gets a
//! `CreateTaskResult` with the task's id at once, polls `tasks/get` (status `working`,
//! `input_required`, `completed`, `failed` or `cancelled`; a finished task inlines its result
//! or its error), answers questions with `tasks/update` and stops it with `tasks/cancel`,
//! which fires the handler's [`Context`](crate::Context) cancellation.
//!
//! **When a call becomes a task.** The server decides per request, as SEP-2663 lets it: the
//! handler is polled once in the request. If it finishes there, the client gets its result
//! as from any call; if it asks its client there (before it waits on anything else), the call
//! answers input-required as any 2026-07-28 call does (no task yet, [`crate::ask`]); once it
//! waits on anything else, the call becomes a task and the handler keeps running in the
//! background. A question asked inside a task parks the task in `input_required`; the
//! client's `tasks/update` answers it, and once every question has its answer the handler
//! runs again from the start with them, as in an input-required round. The handler is the
//! same code either way: it takes a `Context`, and its progress and cancellation work inside
//! a task.
//!
//! **Elsewhere** (a 2026-07-28 client that did not opt in) a `task: optional` tool runs as a
//! normal call; a `task: required` one is refused with `-32021` naming the extension.
//!
//! **On 2025-11-25** the client decides, with `params.task` on `tools/call` (tasks the
//! client requests, the `requested` module): such a call to a task tool is always a task,
//! answered `{task}` at once, kept for the `ttl` the client asks (at most
//! [`TaskLimits::ttl`]); the client polls `tasks/get`,
//! awaits `tasks/result` (the tool's result or its error, once the task ended), lists its own
//! tasks with `tasks/list` (pages of 50) and cancels one with `tasks/cancel` (`-32602` once it
//! ended). A question inside such a task goes to the client as an `elicitation/create`
//! request, as in any 2025-11-25 call, and the task is `input_required` until it is answered.
//! Each change of status is sent as `notifications/tasks/status` to the connection or session
//! that made the task. `params.task` to a tool without task support, and a `task: required`
//! tool called without it, are `-32601`; without `params.task` an optional one is a normal
//! call. The server advertises `capabilities.tasks` (`list`, `cancel`, `requests.tools.call`)
//! in place of the extension, and its `tools/list` gives each task tool's
//! `execution.taskSupport`. rmcp 3.11's types carry none of this (it drops `params.task`), so
//! the transports read and write it around rmcp: stdio on its lines, HTTP in a layer on the
//! routes of servers with task tools (`http/requested_tasks.rs`; other routes read nothing
//! twice). A stdio connection that closes cancels its tasks and forgets them.

//! **Bounds.** At most [`TaskLimits::max_live`] tasks run at once (a `task: optional` call
//! beyond it runs as a normal call; a `task: required` one is refused with `-32603`), at most
//! [`TaskLimits::max_kept`] are remembered, and each is forgotten [`TaskLimits::ttl`] after it
//! was made (`ttlMs`; one still running is then cancelled). An unknown or forgotten id is
//! `-32602`.
//!
//! **Who sees a task.** The caller that made it: the verified principal when the host
//! verifies tokens; otherwise the stdio connection or the 2025-11-25 HTTP session. A
//! stateless HTTP request (2026-07-28, or 2025-11-25 on a host without sessions) has no
//! connection to bind to, so there the task's id, 128 random bits, is what a client must hold
//! to reach it, and a 2025-11-25 `tasks/list` lists none (it would hand the ids out).
//!
//! **Deployment.** A task's record lives in the server's [`State`](crate::state::State),
//! written before its id is answered: its status, tool, checked arguments, every answer its
//! client gave, its owner and its lease. Its running handler lives in the process running
//! it. With the default in-memory store, a deployment with several replicas needs the
//! client's `tasks/*` requests to reach the process that made the task (affinity on the
//! `Mcp-Name` header, which carries the task id), or one process. With a store they share,
//! any replica answers them:
//!
//! - **The lease.** The server running a task's handler holds the task's lease for
//!   [`TaskLimits::lease`] and renews it every third of that, by compare-and-set, while the
//!   handler runs. A server that stops without draining (killed, crashed, cut off from the
//!   store) stops renewing; once the lease lapsed, the first server to read the task
//!   (`tasks/get`, `tasks/update`, `tasks/cancel`, `tasks/result`, `tasks/list`) fails it, its
//!   status message saying the server running it stopped, and its waiters are told. Its
//!   handler never runs again: a tool that changes things must not run twice unasked.
//! - **Answers anywhere.** A task parked until its client answers holds no lease. The server
//!   whose `tasks/update` completes its answers takes the lease by compare-and-set and runs
//!   the handler again from the start, from the record alone (the tool, its arguments and
//!   every answer), in the context of that request; of servers completing the answers at
//!   once, one runs it.
//! - **Cancellation anywhere.** `tasks/cancel` on any server ends the task at once; the
//!   server running its handler hears the change on the state's bus and fires the handler's
//!   cancellation then (when the bus was away, at its next renewal, which finds the task
//!   ended).
//!
//! **When the HTTP host drains** (`SIGTERM`; `http::Bound::serve_until`), the handlers
//! running here get its grace period to finish. Then a task whose handler still runs is
//! cancelled and fails, its status message saying the server stopped before it finished: its
//! handler's work so far is lost with the process, and running it again elsewhere would run a
//! tool that changes things twice unasked. A task parked until its client answers keeps its
//! status and its answers, and holds no lease: whichever server sharing the store receives
//! its answers reruns it.

pub(crate) mod requested;
pub(crate) mod store;

use std::sync::Arc;
use std::time::Duration;

pub(crate) use crate::state::Owner;
pub(crate) use requested::{Publish, is_requested_task, reroute};
#[cfg(feature = "http")]
pub(crate) use requested::{handshake_revision, hide, shape_initialize, unhide};
pub(crate) use store::Tasks;

/// Whether a tool may run as a task: the manifest's `task:` (the 2025-11-25 spec's
/// `execution.taskSupport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never a task (no `task:` in the manifest).
    #[default]
    Forbidden,
    /// A task where the client opted in; a normal call elsewhere.
    Optional,
    /// Only as a task: a client that did not opt in is refused.
    Required,
}

/// The bounds of a server's tasks; see [the module](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskLimits {
    /// The most tasks running (or waiting for answers) at once.
    pub max_live: usize,
    /// The most tasks remembered, finished ones included; the oldest finished go first.
    pub max_kept: usize,
    /// How long a task is remembered after it was made (its `ttlMs`).
    pub ttl: Duration,
    /// How long the lease of a task whose handler runs lasts unrenewed: the server running it
    /// renews it every third of this, and another server sharing the store fails the task
    /// once it lapsed (its server stopped).
    pub lease: Duration,
}

impl Default for TaskLimits {
    fn default() -> Self {
        TaskLimits {
            max_live: 64,
            max_kept: 1024,
            ttl: Duration::from_secs(600),
            lease: Duration::from_secs(10),
        }
    }
}

/// How often a client is asked to poll, in milliseconds (`pollIntervalMs`).
pub(crate) const POLL_INTERVAL_MS: u64 = 500;

/// The marker in a task's request extensions: its handler runs as a task, where a panic fails
/// the task instead of becoming a tool error; and which task it is.
#[derive(Clone)]
pub(crate) struct InTask(pub(crate) Option<Arc<Mark>>);

/// The task a handler runs as.
pub(crate) struct Mark {
    tasks: std::sync::Weak<Tasks>,
    id: String,
}

impl Mark {
    /// The mark of task `id` of `tasks`.
    pub(crate) fn new(tasks: &Arc<Tasks>, id: String) -> Self {
        Mark {
            tasks: Arc::downgrade(tasks),
            id,
        }
    }
}

/// Held while a 2025-11-25 task's handler waits on its client: the task is
/// `input_required` until [`Asking::done`] (or until it is dropped, when the wait was).
pub(crate) struct Asking(Option<Arc<Mark>>);

/// The [`Asking`] of a request whose `extensions` are those of a task's handler, the task
/// marked `input_required` before the question goes out.
pub(crate) async fn asking(extensions: &rmcp::model::Extensions) -> Asking {
    let mark = extensions.get::<InTask>().and_then(|t| t.0.clone());
    if let Some(mark) = &mark {
        mark.asking(true).await;
    }
    Asking(mark)
}

impl Mark {
    async fn asking(&self, asking: bool) {
        if let Some(tasks) = self.tasks.upgrade()
            && let Err(e) = tasks.asking(&self.id, asking).await
        {
            tracing::error!(task = self.id, error = %e.message, "a task's status was not stored");
        }
    }
}

impl Asking {
    /// The client answered: the task is `working` again before the handler goes on.
    pub(crate) async fn done(mut self) {
        if let Some(mark) = self.0.take() {
            mark.asking(false).await;
        }
    }
}

impl Drop for Asking {
    fn drop(&mut self) {
        if let Some(mark) = self.0.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move { mark.asking(false).await });
        }
    }
}
