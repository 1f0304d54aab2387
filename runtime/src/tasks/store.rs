//! The tasks of one server: made, run in the background, looked up by their caller, answered,
//! cancelled and forgotten, within [`TaskLimits`].
//!
//! Each task's record lives in the server's [`State`], where any process reads it; what
//! cannot leave this process (its running handler, the closures that cancel it, rerun it and
//! tell its client of its statuses) lives here, by the task's id, while the task is live.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use futures::future::BoxFuture;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult, InputResponses, JsonObject,
    Task, TaskPayload, TaskStatus,
};

use super::{POLL_INTERVAL_MS, TaskLimits};
use crate::state::{
    Event, Heard, Lease, Message, Owner, State, StoreError, TaskBounds, TaskRecord, instance,
    now_ms,
};

/// One run of a task's handler, to its end or its next questions.
pub(crate) type Run = BoxFuture<'static, Result<CallToolResponse, ErrorData>>;

/// Runs a task's handler again from the start with every answer its client gave.
pub(crate) type Rerun = Arc<dyn Fn(InputResponses) -> Run + Send + Sync>;

/// Fires a task's handler's cancellation.
pub(crate) type Cancel = Box<dyn Fn() + Send + Sync>;

/// Tells the task's client of each change of its status (2025-11-25's
/// `notifications/tasks/status`); called in the order of the changes, so it only queues.
pub(crate) type Tell = Box<dyn Fn(&Task) + Send + Sync>;

/// A task about to start: what [`Tasks::start`] keeps of it.
pub(crate) struct Made {
    /// Its id, chosen before its handler runs so the handler's context can name it.
    pub(crate) id: String,
    pub(crate) owner: Owner,
    /// The tool called, with its arguments: stored with the task.
    pub(crate) tool: String,
    pub(crate) arguments: JsonObject,
    pub(crate) cancel: Cancel,
    pub(crate) rerun: Rerun,
    pub(crate) run: Run,
    /// How long it is kept: the client's wish, at most [`TaskLimits::ttl`].
    pub(crate) ttl: Option<Duration>,
    pub(crate) tell: Option<Tell>,
}

/// A server's tasks; shared by every connection and view of it.
pub(crate) struct Tasks {
    limits: TaskLimits,
    state: State,
    /// What of each live task made here cannot leave the process, by its id.
    running: Mutex<HashMap<String, Running>>,
    /// Held through each change of a task and the telling of it, so that this process tells
    /// the changes it makes in the order it made them, and a change never interleaves with
    /// the making of the task.
    order: tokio::sync::Mutex<()>,
    /// Told each time a run of a handler ends, for [`Tasks::idle`].
    ran: tokio::sync::Notify,
}

/// A live task's handler, as this process runs it; dropped once the task finished, so a
/// finished task holds no server (nor its connection) alive.
struct Running {
    cancel: Cancel,
    rerun: Rerun,
    tell: Option<Tell>,
    /// When its record expires: its handler is cancelled then.
    expires: Instant,
    /// The runs of its handler under way here: 0 while it is parked until its client
    /// answers (a rerun may start before the run it follows has been recorded as ended).
    runs: usize,
}

/// `payload` as the task's new status, now.
fn set(record: &mut TaskRecord, payload: TaskPayload) {
    let mut task = record.task.task.clone();
    task.last_updated_at = rmcp::task_manager::current_timestamp();
    record.task = DetailedTask::new(task, payload);
}

/// The `-32603` of a store that failed.
fn failed(e: StoreError) -> ErrorData {
    tracing::error!(error = %e, "a task's state was not read or written");
    ErrorData::internal_error(e.to_string(), None)
}

impl Tasks {
    pub(crate) fn new(limits: TaskLimits, state: State) -> Self {
        Tasks {
            limits,
            state,
            running: Mutex::default(),
            order: tokio::sync::Mutex::new(()),
            ran: tokio::sync::Notify::new(),
        }
    }

    pub(crate) fn limits(&self) -> TaskLimits {
        self.limits
    }

    /// The store the tasks' records are in.
    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    fn bounds(&self) -> TaskBounds {
        TaskBounds {
            max_live: self.limits.max_live,
            max_kept: self.limits.max_kept,
        }
    }

    /// The handlers running here; those whose task outlived its ttl are cancelled first.
    fn running(&self) -> MutexGuard<'_, HashMap<String, Running>> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        running.retain(|_, run| {
            let keep = run.expires > now;
            if !keep {
                (run.cancel)();
            }
            keep
        });
        running
    }

    /// Whether one more task may run now.
    pub(crate) async fn has_room(&self) -> Result<bool, ErrorData> {
        drop(self.running());
        self.state
            .store()
            .has_room(self.bounds())
            .await
            .map_err(failed)
    }

    /// Makes the task `made`, whose handler is running, and drives it in the background:
    /// stored before this returns, so its id may be answered. Its run back when there is no
    /// room.
    pub(crate) async fn start(
        self: &Arc<Self>,
        made: Made,
    ) -> Result<Result<CreateTaskResult, Run>, ErrorData> {
        let Made {
            id,
            owner,
            tool,
            arguments,
            cancel,
            rerun,
            run,
            ttl,
            tell,
        } = made;
        let ttl = ttl.unwrap_or(self.limits.ttl).clamp(
            Duration::from_millis(1),
            self.limits.ttl.max(Duration::from_millis(1)),
        );
        let now = rmcp::task_manager::current_timestamp();
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        let task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(ttl_ms)
            .with_poll_interval_ms(POLL_INTERVAL_MS);
        let made_ms = now_ms();
        let expires_ms = made_ms.saturating_add(ttl_ms);
        let record = TaskRecord {
            task: DetailedTask::new(task.clone(), TaskPayload::Working),
            owner,
            tool,
            arguments,
            answers: InputResponses::default(),
            made_ms,
            expires_ms,
            lease: Some(Lease {
                holder: instance().to_owned(),
                until_ms: expires_ms,
            }),
        };
        {
            let _order = self.order.lock().await;
            drop(self.running());
            let stored = self.state.store().create_task(record, self.bounds());
            if !stored.await.map_err(failed)? {
                return Ok(Err(run));
            }
            let running = Running {
                cancel,
                rerun,
                tell,
                expires: Instant::now() + ttl,
                runs: 0,
            };
            self.running().insert(id.clone(), running);
        }
        self.drive(id, run);
        Ok(Ok(CreateTaskResult::new(task)))
    }

    /// Changes the task `id` by `change` (which says whether it changed anything), then tells
    /// its client of a new status, lets a finished one's handler go, and tells every waiter;
    /// the record after.
    /// Called with `order` held.
    async fn change(
        &self,
        id: &str,
        mut change: impl FnMut(&mut TaskRecord) -> bool + Send,
    ) -> Result<Option<TaskRecord>, StoreError> {
        let (mut wrote, mut before) = (false, None);
        let after = (self.state)
            .change_task(id, |record| {
                before = Some(record.task.status());
                wrote = change(record);
                wrote
            })
            .await?;
        let record = match after {
            Some(record) if wrote => record,
            unchanged => return Ok(unchanged),
        };
        let gone = {
            let mut running = self.running();
            // Told of each new status; a change within one (an answer to some of the
            // questions) is not one.
            if before != Some(record.task.status())
                && let Some(tell) = running.get(id).and_then(|r| r.tell.as_ref())
            {
                tell(&record.task.task);
            }
            if record.is_live() {
                None
            } else {
                running.remove(id)
            }
        };
        // Whatever the handler still does is for nobody now.
        if let Some(gone) = gone {
            (gone.cancel)();
        }
        self.state.store().publish(changed(id)).await?;
        Ok(Some(record))
    }

    /// A 2025-11-25 task's handler waits on its client (`asking`) or no longer does: the
    /// task is `input_required` meanwhile, as that revision's status says.
    pub(crate) async fn asking(&self, id: &str, asking: bool) -> Result<(), ErrorData> {
        let _order = self.order.lock().await;
        self.change(id, |record| match (&record.task.payload, asking) {
            (TaskPayload::Working, true) => {
                let input_requests = Default::default();
                set(record, TaskPayload::InputRequired { input_requests });
                true
            }
            (TaskPayload::InputRequired { .. }, false) => {
                set(record, TaskPayload::Working);
                true
            }
            _ => false,
        })
        .await
        .map_err(failed)?;
        Ok(())
    }

    /// Forgets every task of `owner`, whose connection closed; a running one is cancelled
    /// first, so its handler stops.
    pub(crate) async fn forget(&self, owner: &Owner) {
        let _order = self.order.lock().await;
        let store = self.state.store();
        let forgotten = async {
            for record in store.tasks_of(owner).await? {
                let id = record.id();
                let run = self.running().remove(id);
                if let Some(run) = run {
                    (run.cancel)();
                }
                store.remove_task(id).await?;
                store.publish(changed(id)).await?;
            }
            Ok::<_, StoreError>(())
        };
        if let Err(e) = forgotten.await {
            tracing::error!(error = %e, "a closed connection's tasks were not all forgotten");
        }
    }

    /// Runs `run` in the background and records how it ended.
    fn drive(self: &Arc<Self>, id: String, run: Run) {
        self.count_run(&id, true);
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let ended = run.await;
            if let Err(e) = tasks.settle(&id, ended).await {
                tracing::error!(task = id, error = %e, "how a task ended was not stored");
            }
            tasks.count_run(&id, false);
            tasks.ran.notify_waiters();
        });
    }

    /// Counts a run of the handler of the task `id` starting (`true`) or ending.
    fn count_run(&self, id: &str, starts: bool) {
        if let Some(running) = self.running().get_mut(id) {
            running.runs = if starts {
                running.runs + 1
            } else {
                running.runs.saturating_sub(1)
            };
        }
    }

    /// Resolves once no task's handler runs in this process: each has ended, or is parked
    /// until its client answers.
    #[cfg(feature = "http")]
    pub(crate) async fn idle(&self) {
        loop {
            let ran = self.ran.notified();
            tokio::pin!(ran);
            ran.as_mut().enable();
            if self.running().values().all(|r| r.runs == 0) {
                return;
            }
            ran.await;
        }
    }

    /// This process stops serving its tasks (the HTTP host's drain, once its grace is over):
    /// a task whose handler still runs here is cancelled and fails, its status message saying
    /// the server stopped; a task parked until its client answers keeps its status. Either
    /// way its lease is released and this process forgets it.
    ///
    /// A running task fails rather than run again elsewhere: what its handler did so far is
    /// lost, and a handler that changes things must never run twice on its own. A parked one
    /// loses nothing: its next run starts from the start with the answers its record holds.
    #[cfg(feature = "http")]
    pub(crate) async fn stop(&self) {
        let _order = self.order.lock().await;
        let held: Vec<(String, bool)> = (self.running().iter())
            .map(|(id, running)| (id.clone(), running.runs > 0))
            .collect();
        for (id, runs) in held {
            let stopped = self
                .change(&id, |record| {
                    if record
                        .lease
                        .as_ref()
                        .is_none_or(|lease| lease.holder != instance())
                    {
                        return false;
                    }
                    record.lease = None;
                    if runs && record.is_live() {
                        set(
                            record,
                            TaskPayload::Failed {
                                error: object(&ErrorData::internal_error(STOPPED, None)),
                            },
                        );
                        record.task.task.status_message = Some(STOPPED.to_owned());
                    }
                    true
                })
                .await;
            if let Err(e) = stopped {
                tracing::error!(task = id, error = %e, "a stopped task's record was not stored");
            }
        }
        let gone: Vec<Running> = self.running().drain().map(|(_, run)| run).collect();
        for run in gone {
            (run.cancel)();
        }
    }

    async fn settle(
        &self,
        id: &str,
        ended: Result<CallToolResponse, ErrorData>,
    ) -> Result<(), StoreError> {
        let payload = match ended {
            Ok(CallToolResponse::Complete(result)) => TaskPayload::Completed {
                result: object(&result),
            },
            Ok(CallToolResponse::InputRequired(asked)) => TaskPayload::InputRequired {
                input_requests: asked.input_requests.unwrap_or_default(),
            },
            Ok(_) => TaskPayload::Failed {
                error: object(&ErrorData::internal_error(
                    "a task's handler cannot make another task",
                    None,
                )),
            },
            Err(error) => TaskPayload::Failed {
                error: object(&error),
            },
        };
        let _order = self.order.lock().await;
        // A cancelled task stays cancelled, whatever its handler did after.
        self.change(id, |record| {
            record.is_live() && {
                set(record, payload.clone());
                true
            }
        })
        .await?;
        Ok(())
    }

    /// The task `id` when `owner` may reach it; `-32602` alike for an unknown one and another
    /// caller's, so that nobody learns which ids exist.
    async fn reachable(&self, id: &str, owner: &Owner) -> Result<TaskRecord, ErrorData> {
        drop(self.running());
        let found = self.state.store().task(id).await.map_err(failed)?;
        found
            .map(|v| v.value)
            .filter(|record| owner.reaches(&record.owner))
            .ok_or_else(|| ErrorData::invalid_params(format!("Unknown task: {id}"), None))
    }

    /// `tasks/get`: the task `id` of `owner`, or `-32602`.
    pub(crate) async fn get(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.reachable(id, owner).await?.task))
    }

    /// `tasks/update`: answers to the task's questions. Answers to questions it does not ask
    /// are ignored; once every question has its answer, the handler runs again with them.
    pub(crate) async fn update(
        self: &Arc<Self>,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
    ) -> Result<(), ErrorData> {
        let run = {
            let _order = self.order.lock().await;
            self.reachable(id, owner).await?;
            let rerun = self.running().get(id).map(|r| Arc::clone(&r.rerun));
            let mut all_answered = false;
            let after = self
                .change(id, |record| {
                    all_answered = false;
                    let TaskPayload::InputRequired { input_requests } = &record.task.payload else {
                        return false;
                    };
                    let mut asked = input_requests.clone();
                    for (key, answer) in &responses {
                        if asked.remove(key).is_some() {
                            record.answers.insert(key.clone(), answer.clone());
                        }
                    }
                    if !asked.is_empty() {
                        let input_requests = asked;
                        set(record, TaskPayload::InputRequired { input_requests });
                        return true;
                    }
                    if rerun.is_none() {
                        return false;
                    }
                    all_answered = true;
                    set(record, TaskPayload::Working);
                    true
                })
                .await
                .map_err(failed)?;
            match (after, rerun) {
                (Some(record), Some(rerun)) if all_answered => rerun(record.answers),
                _ => return Ok(()),
            }
        };
        self.drive(id.to_owned(), run);
        Ok(())
    }

    /// `tasks/cancel`: a task still running becomes `cancelled` and its handler's
    /// cancellation fires; a finished one stays as it is.
    /// `Ok(true)` when it was running.
    pub(crate) async fn cancel(&self, id: &str, owner: &Owner) -> Result<bool, ErrorData> {
        let _order = self.order.lock().await;
        self.reachable(id, owner).await?;
        let mut cancelled = false;
        self.change(id, |record| {
            // Setting a finished status fires the handler's cancellation.
            cancelled = record.is_live();
            if cancelled {
                set(record, TaskPayload::Cancelled);
            }
            cancelled
        })
        .await
        .map_err(failed)?;
        Ok(cancelled)
    }

    /// The task `id` of `owner` as it stands, or `-32602`.
    pub(crate) async fn task(&self, id: &str, owner: &Owner) -> Result<Task, ErrorData> {
        Ok(self.reachable(id, owner).await?.task.task)
    }

    /// The tasks `owner` made itself, oldest first (not those any holder reaches).
    pub(crate) async fn made_by(&self, owner: &Owner) -> Result<Vec<Task>, ErrorData> {
        drop(self.running());
        let mine = self.state.store().tasks_of(owner).await.map_err(failed)?;
        Ok(mine.into_iter().map(|r| r.task.task).collect())
    }

    /// How the task `id` of `owner` ended, once it has: its result, or its error; `-32602`
    /// for an unknown one (or one forgotten meanwhile).
    pub(crate) async fn ended(&self, id: &str, owner: &Owner) -> Result<JsonObject, ErrorData> {
        // Subscribed before looking, so an end between the two is not missed.
        let mut changes = self.state.store().subscribe().await.map_err(failed)?;
        loop {
            match self.reachable(id, owner).await?.task.payload {
                TaskPayload::Completed { result } => return Ok(result),
                TaskPayload::Failed { error } => {
                    return Err(serde_json::from_value(error.into())
                        .unwrap_or_else(|_| ErrorData::internal_error("the task failed", None)));
                }
                TaskPayload::Cancelled => {
                    return Err(ErrorData::internal_error("the task was cancelled", None));
                }
                _ => {}
            }
            // Until this task changes, or changes may have been missed.
            loop {
                match changes.next().await {
                    Some(Heard::Message(Message {
                        event: Event::TaskChanged(changed),
                        ..
                    })) if changed == id => break,
                    Some(Heard::Message(_)) => {}
                    Some(Heard::Missed) => break,
                    None => {
                        return Err(failed(StoreError::new("the task events ended")));
                    }
                }
            }
        }
    }
}

/// What a task whose server stopped while its handler ran says: its status message and its
/// error's.
#[cfg(feature = "http")]
const STOPPED: &str =
    "the server running this task stopped before it finished; call the tool again";

/// The message that the task `id` changed, for whoever waits on it in any process.
fn changed(id: &str) -> Message {
    Message {
        from: instance().to_owned(),
        event: Event::TaskChanged(id.to_owned()),
    }
}

fn object(value: &impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// 128 random bits, in hex: an id nobody guesses.
pub(crate) fn new_id() -> String {
    crate::state::random_id()
}
