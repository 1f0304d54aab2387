//! The tasks of one server: made, run in the background, looked up by their caller, answered,
//! cancelled and forgotten, within [`TaskLimits`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult, InputResponses, JsonObject,
    Task, TaskPayload, TaskStatus,
};

use super::{POLL_INTERVAL_MS, TaskLimits};

/// One run of a task's handler, to its end or its next questions.
pub(crate) type Run = BoxFuture<'static, Result<CallToolResponse, ErrorData>>;

/// Runs a task's handler again from the start with every answer its client gave.
pub(crate) type Rerun = Arc<dyn Fn(InputResponses) -> Run + Send + Sync>;

/// Fires a task's handler's cancellation.
pub(crate) type Cancel = Box<dyn Fn() + Send + Sync>;

/// Tells the task's client of each change of its status (2025-11-25's
/// `notifications/tasks/status`); called with the store locked, so it only queues.
pub(crate) type Tell = Box<dyn Fn(&Task) + Send + Sync>;

/// A task about to start: what [`Tasks::start`] keeps of it.
pub(crate) struct Made {
    /// Its id, chosen before its handler runs so the handler's context can name it.
    pub(crate) id: String,
    pub(crate) owner: Owner,
    pub(crate) cancel: Cancel,
    pub(crate) rerun: Rerun,
    pub(crate) run: Run,
    /// How long it is kept: the client's wish, at most [`TaskLimits::ttl`].
    pub(crate) ttl: Option<Duration>,
    pub(crate) tell: Option<Tell>,
}

/// Who may reach a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The verified caller, by subject.
    Caller(String),
    /// A stdio connection or an HTTP session, by id.
    Connection(u64),
    /// Whoever holds the id: a stateless request without a verified caller.
    Holder,
}

impl Owner {
    /// Whether `self`, asking, may reach a task `made_by`.
    fn reaches(&self, made_by: &Owner) -> bool {
        made_by == self || *made_by == Owner::Holder
    }
}

/// A server's tasks; shared by every connection and view of it.
pub(crate) struct Tasks {
    limits: TaskLimits,
    entries: Mutex<HashMap<String, Entry>>,
    /// Bumped whenever a task ends, for those waiting on one (`tasks/result`, 2025-11-25).
    ended: tokio::sync::watch::Sender<u64>,
}

struct Entry {
    owner: Owner,
    made: Instant,
    ttl: Duration,
    task: Task,
    payload: TaskPayload,
    /// Every answer the client gave, for the next run.
    answers: InputResponses,
    /// Fires the handler's cancellation, and runs it again; both dropped once it finished,
    /// so a finished task holds no server (nor its connection) alive.
    cancel: Option<Cancel>,
    rerun: Option<Rerun>,
    /// Dropped with the others once it finished, after telling of the end.
    tell: Option<Tell>,
}

impl Entry {
    fn live(&self) -> bool {
        !self.payload.status().is_terminal()
    }

    fn detailed(&self) -> DetailedTask {
        DetailedTask::new(self.task.clone(), self.payload.clone())
    }

    fn set(&mut self, payload: TaskPayload) {
        self.payload = payload;
        self.task.status = self.payload.status();
        self.task.last_updated_at = rmcp::task_manager::current_timestamp();
        if let Some(tell) = &self.tell {
            tell(&self.task);
        }
        if !self.live() {
            self.rerun = None;
            self.tell = None;
            if let Some(cancel) = self.cancel.take() {
                // Whatever the handler still does is for nobody now.
                cancel();
            }
        }
    }
}

impl Tasks {
    pub(crate) fn new(limits: TaskLimits) -> Self {
        Tasks {
            limits,
            entries: Mutex::default(),
            ended: tokio::sync::watch::Sender::new(0),
        }
    }

    pub(crate) fn limits(&self) -> TaskLimits {
        self.limits
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        // Forget what outlived its ttl; a task still running then is cancelled first.
        entries.retain(|_, entry| {
            let keep = entry.made.elapsed() < entry.ttl;
            if !keep && let Some(cancel) = &entry.cancel {
                cancel();
            }
            keep
        });
        entries
    }

    /// Whether one more task may run now.
    pub(crate) fn has_room(&self) -> bool {
        self.room(&mut self.lock())
    }

    /// Room for one more task, making it by forgetting the oldest finished one if need be.
    fn room(&self, entries: &mut HashMap<String, Entry>) -> bool {
        if entries.values().filter(|e| e.live()).count() >= self.limits.max_live {
            return false;
        }
        if entries.len() >= self.limits.max_kept {
            let oldest = entries
                .iter()
                .filter(|(_, e)| !e.live())
                .min_by_key(|(_, e)| e.made)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => {
                    entries.remove(&id);
                }
                None => return false,
            }
        }
        true
    }

    /// Makes the task `made`, whose handler is running, and drives it in the background;
    /// its run back when there is no room.
    pub(crate) fn start(self: &Arc<Self>, made: Made) -> Result<CreateTaskResult, Run> {
        let Made {
            id,
            owner,
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
        {
            let mut entries = self.lock();
            if !self.room(&mut entries) {
                return Err(run);
            }
            entries.insert(
                id.clone(),
                Entry {
                    owner,
                    made: Instant::now(),
                    ttl,
                    task: task.clone(),
                    payload: TaskPayload::Working,
                    answers: InputResponses::default(),
                    cancel: Some(cancel),
                    rerun: Some(rerun),
                    tell,
                },
            );
        }
        self.drive(id, run);
        Ok(CreateTaskResult::new(task))
    }

    /// A 2025-11-25 task's handler waits on its client (`asking`) or no longer does: the
    /// task is `input_required` meanwhile, as that revision's status says.
    pub(crate) fn asking(&self, id: &str, asking: bool) {
        let mut entries = self.lock();
        let Some(entry) = entries.get_mut(id).filter(|e| e.live()) else {
            return;
        };
        match (&entry.payload, asking) {
            (TaskPayload::Working, true) => entry.set(TaskPayload::InputRequired {
                input_requests: Default::default(),
            }),
            (TaskPayload::InputRequired { .. }, false) => entry.set(TaskPayload::Working),
            _ => {}
        }
    }

    /// Forgets every task of `owner`, whose connection closed; a running one is cancelled
    /// first, so its handler stops.
    pub(crate) fn forget(&self, owner: &Owner) {
        let mut entries = self.lock();
        entries.retain(|_, entry| {
            if entry.owner != *owner {
                return true;
            }
            if let Some(cancel) = &entry.cancel {
                cancel();
            }
            false
        });
        drop(entries);
        self.ended.send_modify(|n| *n += 1);
    }

    /// Runs `run` in the background and records how it ended.
    fn drive(self: &Arc<Self>, id: String, run: Run) {
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let ended = run.await;
            tasks.record(&id, ended);
        });
    }

    fn record(&self, id: &str, ended: Result<CallToolResponse, ErrorData>) {
        self.settle(id, ended);
        // Whoever waits on this task looks again, even when it was forgotten meanwhile.
        self.ended.send_modify(|n| *n += 1);
    }

    fn settle(&self, id: &str, ended: Result<CallToolResponse, ErrorData>) {
        let mut entries = self.lock();
        let Some(entry) = entries.get_mut(id) else {
            return;
        };
        // A cancelled task stays cancelled, whatever its handler did after.
        if !entry.live() {
            return;
        }
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
        entry.set(payload);
    }

    /// `tasks/get`: the task `id` of `owner`, or `-32602`.
    pub(crate) fn get(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, ErrorData> {
        let entries = self.lock();
        let entry = reachable(&entries, id, owner)?;
        Ok(GetTaskResult::new(entry.detailed()))
    }

    /// `tasks/update`: answers to the task's questions. Answers to questions it does not ask
    /// are ignored; once every question has its answer, the handler runs again with them.
    pub(crate) fn update(
        self: &Arc<Self>,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
    ) -> Result<(), ErrorData> {
        let rerun = {
            let mut entries = self.lock();
            reachable(&entries, id, owner)?;
            let Some(entry) = entries.get_mut(id) else {
                return Ok(());
            };
            let TaskPayload::InputRequired { input_requests } = &mut entry.payload else {
                return Ok(());
            };
            for (key, answer) in responses {
                if input_requests.remove(&key).is_some() {
                    entry.answers.insert(key, answer);
                }
            }
            if !input_requests.is_empty() {
                entry.task.last_updated_at = rmcp::task_manager::current_timestamp();
                return Ok(());
            }
            let Some(rerun) = &entry.rerun else {
                return Ok(());
            };
            let run = rerun(entry.answers.clone());
            entry.set(TaskPayload::Working);
            run
        };
        self.drive(id.to_owned(), rerun);
        Ok(())
    }

    /// `tasks/cancel`: a task still running becomes `cancelled` and its handler's
    /// cancellation fires; a finished one stays as it is.
    /// `Ok(true)` when it was running.
    pub(crate) fn cancel(&self, id: &str, owner: &Owner) -> Result<bool, ErrorData> {
        let mut entries = self.lock();
        reachable(&entries, id, owner)?;
        let Some(entry) = entries.get_mut(id).filter(|e| e.live()) else {
            return Ok(false);
        };
        // Setting a finished status fires the handler's cancellation.
        entry.set(TaskPayload::Cancelled);
        drop(entries);
        self.ended.send_modify(|n| *n += 1);
        Ok(true)
    }

    /// The task `id` of `owner` as it stands, or `-32602`.
    pub(crate) fn task(&self, id: &str, owner: &Owner) -> Result<Task, ErrorData> {
        Ok(reachable(&self.lock(), id, owner)?.task.clone())
    }

    /// The tasks `owner` made itself, oldest first (not those any holder reaches).
    pub(crate) fn made_by(&self, owner: &Owner) -> Vec<Task> {
        let entries = self.lock();
        let mut mine: Vec<&Entry> = entries.values().filter(|e| e.owner == *owner).collect();
        mine.sort_by_key(|e| e.made);
        mine.into_iter().map(|e| e.task.clone()).collect()
    }

    /// How the task `id` of `owner` ended, once it has: its result, or its error; `-32602`
    /// for an unknown one (or one forgotten meanwhile).
    pub(crate) async fn ended(&self, id: &str, owner: &Owner) -> Result<JsonObject, ErrorData> {
        let mut changed = self.ended.subscribe();
        loop {
            // Subscribed before looking, so an end between the two is not missed.
            changed.mark_unchanged();
            match &reachable(&self.lock(), id, owner)?.payload {
                TaskPayload::Completed { result } => return Ok(result.clone()),
                TaskPayload::Failed { error } => {
                    return Err(serde_json::from_value(error.clone().into())
                        .unwrap_or_else(|_| ErrorData::internal_error("the task failed", None)));
                }
                TaskPayload::Cancelled => {
                    return Err(ErrorData::internal_error("the task was cancelled", None));
                }
                _ => {}
            }
            // The tasks outlive every waiter: the sender is never dropped while we wait.
            let _ = changed.changed().await;
        }
    }
}

/// The task `id` when `owner` may reach it; `-32602` alike for an unknown one and another
/// caller's, so that nobody learns which ids exist.
fn reachable<'a>(
    entries: &'a HashMap<String, Entry>,
    id: &str,
    owner: &Owner,
) -> Result<&'a Entry, ErrorData> {
    entries
        .get(id)
        .filter(|entry| owner.reaches(&entry.owner))
        .ok_or_else(|| ErrorData::invalid_params(format!("Unknown task: {id}"), None))
}

fn object(value: &impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// 128 random bits, in hex: an id nobody guesses.
pub(crate) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    // The system's random source failing leaves zeros; the counter still keeps ids apart.
    let _ = getrandom::fill(&mut bytes);
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    bytes[..8]
        .iter_mut()
        .zip(n.to_le_bytes())
        .for_each(|(b, c)| *b ^= c);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
