//! The tasks of one server: made, run in the background, looked up by their caller, answered,
//! cancelled and forgotten, within [`TaskLimits`].
//!
//! Each task's record lives in the server's [`State`], where any process reads it; what
//! cannot leave this process (its running handler, the closures that cancel it and tell its
//! client of its statuses) lives here, by the task's id, while the task is live.
//!
//! The server running a task's handler holds the task's lease ([`TaskLimits::lease`]) and
//! renews it while the handler runs; any server that reads a live task whose lease lapsed
//! fails it (its server stopped), and none ever runs that handler again. A task parked until
//! its client answers holds no lease: the server whose `tasks/update` completes its answers
//! takes the lease and reruns the handler from the task's record, wherever it was made.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use futures::future::{BoxFuture, Either};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult, InputResponses, JsonObject,
    Task, TaskPayload, TaskStatus,
};

use super::{POLL_INTERVAL_MS, TaskLimits};
use crate::state::{
    Event, Events, Heard, Lease, Message, Owner, State, StoreError, TaskBounds, TaskRecord,
    instance, now_ms,
};

/// One run of a task's handler, to its end or its next questions.
pub(crate) type Run = BoxFuture<'static, Result<CallToolResponse, ErrorData>>;

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
    /// The tool called, with its arguments and the answers the call carried (those of earlier
    /// rounds included): stored with the task, they are all a rerun needs.
    pub(crate) tool: String,
    pub(crate) arguments: JsonObject,
    pub(crate) answers: InputResponses,
    pub(crate) cancel: Cancel,
    pub(crate) run: Run,
    /// How long it is kept: the client's wish, at most [`TaskLimits::ttl`].
    pub(crate) ttl: Option<Duration>,
    pub(crate) tell: Option<Tell>,
}

/// A server's tasks; shared by every connection and view of it.
pub(crate) struct Tasks {
    limits: TaskLimits,
    state: State,
    /// Who this server is in the leases it holds: random, so that servers sharing a store
    /// (in one process or several) tell theirs apart.
    holder: String,
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
    /// Fires the cancellation of its latest run here.
    cancel: Cancel,
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

/// Fails `record`, whose server stopped while its handler ran, and releases its lease.
fn stopped(record: &mut TaskRecord) {
    let error = object(&ErrorData::internal_error(STOPPED, None));
    set(record, TaskPayload::Failed { error });
    record.task.task.status_message = Some(STOPPED.to_owned());
    record.lease = None;
}

/// Whether `record` is live and its lease lapsed: the server running its handler stopped
/// renewing it.
fn lapsed(record: &TaskRecord) -> bool {
    record.is_live() && (record.lease.as_ref()).is_some_and(|lease| lease.until_ms < now_ms())
}

/// The `-32602` of a task nobody may reach.
fn unknown(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown task: {id}"), None)
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
            holder: crate::state::random_id(),
            running: Mutex::default(),
            order: tokio::sync::Mutex::new(()),
            ran: tokio::sync::Notify::new(),
        }
    }

    pub(crate) fn limits(&self) -> TaskLimits {
        self.limits
    }

    /// The live tasks this process runs, as `(working, input_required)`: those whose handler
    /// runs here, and those parked here until their client answers.
    #[cfg(feature = "telemetry")]
    pub(crate) fn live_here(&self) -> (u64, u64) {
        let running = self.running();
        let working = running.values().filter(|run| run.runs > 0).count();
        let parked = running.len() - working;
        (working as u64, parked as u64)
    }

    /// The store the tasks' records are in.
    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    /// A lease held by this server for [`TaskLimits::lease`] from now.
    fn lease(&self) -> Lease {
        let lease = u64::try_from(self.limits.lease.as_millis()).unwrap_or(u64::MAX);
        Lease {
            holder: self.holder.clone(),
            until_ms: now_ms().saturating_add(lease),
        }
    }

    /// Whether the handler of `record` is this server's to run: live, and leased here.
    fn holds(&self, record: &TaskRecord) -> bool {
        record.is_live() && (record.lease.as_ref()).is_some_and(|lease| lease.holder == self.holder)
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
            answers,
            cancel,
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
            answers,
            made_ms,
            expires_ms,
            lease: Some(self.lease()),
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

    /// Runs `run` in the background, renewing the task's lease while it runs, and records how
    /// it ended.
    fn drive(self: &Arc<Self>, id: String, mut run: Run) {
        self.count_run(&id, true);
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let beat = Box::pin(tasks.heartbeat(&id));
            let ended = match futures::future::select(&mut run, beat).await {
                Either::Left((ended, _)) => ended,
                // Whatever the handler still does is for nobody now; it is told so and
                // awaited, so that the drain's wait for runs here counts it.
                Either::Right((record, run)) => {
                    tasks.lost(&id, record);
                    run.await
                }
            };
            if let Err(e) = tasks.settle(&id, ended).await {
                tracing::error!(task = id, error = %e, "how a task ended was not stored");
            }
            tasks.count_run(&id, false);
            tasks.ran.notify_waiters();
        });
    }

    /// Renews the lease of the task `id`, whose handler runs here, every third of
    /// [`TaskLimits::lease`], by compare-and-set; returns once the task is no longer this
    /// server's to run (it ended, was cancelled or failed by another server, or was
    /// forgotten), with its record as it stands (`None` once forgotten). A change of the task
    /// published on the store's bus (another server's `tasks/cancel`) is looked at when it is
    /// heard, so a cancellation reaches the handler at once rather than at the next beat. A
    /// renewal the store does not take is tried at the next beat: the lease lapses if the
    /// store stays away.
    async fn heartbeat(&self, id: &str) -> Option<TaskRecord> {
        let every = (self.limits.lease / 3).max(Duration::from_millis(1));
        let mut changes = match self.state.store().subscribe().await {
            Ok(changes) => Some(changes),
            Err(e) => {
                tracing::warn!(task = id, error = %e, "a task's changes are noticed at its beats only");
                None
            }
        };
        let mut beat = tokio::time::Instant::now() + every;
        loop {
            if self.changed_before(id, beat, &mut changes).await {
                match self.state.store().task(id).await {
                    Ok(Some(record)) if self.holds(&record.value) => continue,
                    Ok(record) => return record.map(|r| r.value),
                    // Looked at again at the beat.
                    Err(_) => continue,
                }
            }
            beat += every;
            let mut ours = false;
            let renewed = self.state.change_task(id, |record| {
                ours = self.holds(record);
                if ours {
                    record.lease = Some(self.lease());
                }
                ours
            });
            match renewed.await {
                Ok(Some(_)) if ours => {}
                Ok(record) => return record,
                Err(e) => tracing::warn!(task = id, error = %e, "a task's lease was not renewed"),
            }
        }
    }

    /// Waits until `beat` (`false`) or until the task `id` is heard to change, or changes may
    /// have been missed (`true`). Without `changes` (the bus was not reached), until `beat`.
    async fn changed_before(
        &self,
        id: &str,
        beat: tokio::time::Instant,
        changes: &mut Option<Events>,
    ) -> bool {
        let Some(events) = changes else {
            tokio::time::sleep_until(beat).await;
            return false;
        };
        let heard = async {
            loop {
                match events.next().await {
                    Some(Heard::Message(Message {
                        event: Event::TaskChanged(changed),
                        ..
                    })) if changed == id => return true,
                    Some(Heard::Message(_)) => {}
                    Some(Heard::Missed) => return true,
                    // The bus ended: beats only from now on.
                    None => return false,
                }
            }
        };
        match tokio::time::timeout_at(beat, heard).await {
            Ok(true) => true,
            Ok(false) => {
                *changes = None;
                tokio::time::sleep_until(beat).await;
                false
            }
            Err(_) => false,
        }
    }

    /// The task `id`, whose handler runs here, was ended or failed by another server
    /// (`record` as it stands, `None` once forgotten): this process's client is told its new
    /// status, and its handler's cancellation fires.
    fn lost(&self, id: &str, record: Option<TaskRecord>) {
        let Some(running) = self.running().remove(id) else {
            return;
        };
        if let (Some(tell), Some(record)) = (&running.tell, &record) {
            tell(&record.task.task);
        }
        (running.cancel)();
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
                    if !self.holds(record) {
                        return false;
                    }
                    if runs {
                        stopped(record);
                    } else {
                        record.lease = None;
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
        // A cancelled task stays cancelled, whatever its handler did after; one failed by
        // another server because its lease lapsed stays failed. A parked task holds no lease:
        // whichever server completes its answers takes it.
        self.change(id, |record| {
            self.holds(record) && {
                set(record, payload.clone());
                record.lease = None;
                true
            }
        })
        .await?;
        Ok(())
    }

    /// The task `id` as stored, when `owner` may reach it; `-32602` alike for an unknown one
    /// and another caller's, so that nobody learns which ids exist.
    async fn read(&self, id: &str, owner: &Owner) -> Result<TaskRecord, ErrorData> {
        drop(self.running());
        let found = self.state.store().task(id).await.map_err(failed)?;
        found
            .map(|v| v.value)
            .filter(|record| owner.reaches(&record.owner))
            .ok_or_else(|| unknown(id))
    }

    /// `record` as it stands once failed if its lease lapsed while its handler ran (the
    /// server running it stopped): by compare-and-set, so that of several servers reading it
    /// at once one fails it, and its waiters are told. `None` once forgotten.
    /// Called with `order` held.
    async fn fail_lapsed(&self, record: TaskRecord) -> Result<Option<TaskRecord>, StoreError> {
        if !lapsed(&record) {
            return Ok(Some(record));
        }
        self.change(record.id(), |record| {
            lapsed(record) && {
                stopped(record);
                true
            }
        })
        .await
    }

    /// [`Tasks::read`], a lapsed lease failed first ([`Tasks::fail_lapsed`]).
    /// Called without `order` held.
    async fn reachable(&self, id: &str, owner: &Owner) -> Result<TaskRecord, ErrorData> {
        let record = self.read(id, owner).await?;
        if !lapsed(&record) {
            return Ok(record);
        }
        let _order = self.order.lock().await;
        let record = self.fail_lapsed(record).await.map_err(failed)?;
        record.ok_or_else(|| unknown(id))
    }

    /// `tasks/get`: the task `id` of `owner`, or `-32602`.
    pub(crate) async fn get(&self, id: &str, owner: &Owner) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.reachable(id, owner).await?.task))
    }

    /// `tasks/update`: answers to the task's questions. Answers to questions it does not ask
    /// are ignored; once every question has its answer, this server takes the task's lease
    /// and runs its handler again, `rerun` of its record (which holds every answer) giving
    /// the run and its cancellation. Of servers completing the answers at once, one reruns
    /// it; the others' answers were acknowledged and are not needed.
    pub(crate) async fn update(
        self: &Arc<Self>,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
        rerun: impl FnOnce(&TaskRecord) -> (Run, Cancel) + Send,
    ) -> Result<(), ErrorData> {
        let run = {
            let _order = self.order.lock().await;
            let record = self.read(id, owner).await?;
            self.fail_lapsed(record).await.map_err(failed)?;
            let mut takes = false;
            let after = self
                .change(id, |record| {
                    takes = false;
                    // Parked, no run holding its lease: a 2025-11-25 task waiting on its
                    // client is `input_required` too, its run asking the client itself.
                    let TaskPayload::InputRequired { input_requests } = &record.task.payload else {
                        return false;
                    };
                    if record.lease.is_some() {
                        return false;
                    }
                    let mut asked = input_requests.clone();
                    for (key, answer) in &responses {
                        if asked.remove(key).is_some() {
                            record.answers.insert(key.clone(), answer.clone());
                        }
                    }
                    if asked.is_empty() {
                        takes = true;
                        record.lease = Some(self.lease());
                        set(record, TaskPayload::Working);
                    } else {
                        let input_requests = asked;
                        set(record, TaskPayload::InputRequired { input_requests });
                    }
                    true
                })
                .await
                .map_err(failed)?;
            let Some(record) = after.filter(|_| takes) else {
                return Ok(());
            };
            let (run, cancel) = rerun(&record);
            self.hold(&record, cancel);
            run
        };
        self.drive(id.to_owned(), run);
        Ok(())
    }

    /// Keeps what of the run here of the task `record` cannot leave the process: `cancel`
    /// fires its handler's cancellation. A task made here keeps how its client is told.
    fn hold(&self, record: &TaskRecord, cancel: Cancel) {
        let left = Duration::from_millis(record.expires_ms.saturating_sub(now_ms()));
        let mut running = self.running();
        let held = running
            .entry(record.id().to_owned())
            .or_insert_with(|| Running {
                cancel: Box::new(|| {}),
                tell: None,
                expires: Instant::now() + left,
                runs: 0,
            });
        held.cancel = cancel;
    }

    /// `tasks/cancel`: a task still running becomes `cancelled` and its handler's
    /// cancellation fires; a finished one stays as it is.
    /// `Ok(true)` when it was running.
    pub(crate) async fn cancel(&self, id: &str, owner: &Owner) -> Result<bool, ErrorData> {
        let _order = self.order.lock().await;
        let record = self.read(id, owner).await?;
        self.fail_lapsed(record).await.map_err(failed)?;
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

    /// The tasks `owner` made itself, oldest first (not those any holder reaches); those
    /// whose lease lapsed failed first.
    pub(crate) async fn made_by(&self, owner: &Owner) -> Result<Vec<Task>, ErrorData> {
        drop(self.running());
        let mine = self.state.store().tasks_of(owner).await.map_err(failed)?;
        let mut tasks = Vec::with_capacity(mine.len());
        for record in mine {
            let record = if lapsed(&record) {
                let _order = self.order.lock().await;
                self.fail_lapsed(record).await.map_err(failed)?
            } else {
                Some(record)
            };
            tasks.extend(record.map(|r| r.task.task));
        }
        Ok(tasks)
    }

    /// How the task `id` of `owner` ended, once it has: its result, or its error; `-32602`
    /// for an unknown one (or one forgotten meanwhile).
    pub(crate) async fn ended(&self, id: &str, owner: &Owner) -> Result<JsonObject, ErrorData> {
        // Subscribed before looking, so an end between the two is not missed.
        let mut changes = self.state.store().subscribe().await.map_err(failed)?;
        loop {
            let record = self.reachable(id, owner).await?;
            // A lease that lapses is looked at again: its server may have stopped, and
            // nobody else would publish that.
            let lapses = (record.lease.as_ref()).map(|lease| {
                let left = lease.until_ms.saturating_sub(now_ms()).saturating_add(1);
                tokio::time::Instant::now() + Duration::from_millis(left)
            });
            match record.task.payload {
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
            // Until this task changes, changes may have been missed, or its lease lapses.
            loop {
                let next = changes.next();
                let heard = match lapses {
                    Some(at) => tokio::time::timeout_at(at, next).await.ok(),
                    None => Some(next.await),
                };
                let Some(heard) = heard else {
                    break;
                };
                match heard {
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

/// What a task whose server stopped while its handler ran says (drained, or gone without
/// renewing its lease): its status message and its error's.
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
