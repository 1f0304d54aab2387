//! Sessions for 2025-11-25 clients ([`Host::sessions`](super::Host::sessions)). A session is
//! its record in the server's [`State`]; the worker that serves it in a process (rmcp's
//! [`LocalSessionManager`]: a task and its channels) is only a cache of that record.
//!
//! - **Opening.** `initialize` stores the session's record (revision, client capabilities and
//!   name) with [`SessionStore::create_session`](crate::state::SessionStore::create_session),
//!   under [`SessionLimits::max`], before its id is answered. Past the bound the `initialize`
//!   is answered `503 Service Unavailable` with `Retry-After` and a JSON-RPC error by its id.
//! - **Serving.** Each request of a session reads its record (a use, which starts its idle
//!   time again) and carries it to the server ([`Stored`]), whose log level and resource
//!   subscriptions are the record's. A session without a worker in this process, because its
//!   worker was closed or another process opened it, gets one: rmcp's restore reads the record
//!   (`StreamableHttpServerConfig::session_store`, [`Records`]), makes a worker
//!   ([`SessionManager::restore_session`]) and replays the session's `initialize` to it.
//! - **Idle.** A worker with no stream open is closed after [`SessionLimits::worker_idle`],
//!   while the record is kept for [`SessionLimits::idle`] after its last use, then forgotten
//!   by the store: an idle session costs only its record.
//! - **Asking the client.** A request of the server to the client (elicitation, sampling,
//!   roots) travels on the event stream of the call that asks, under an id unique in the
//!   session ([`Tracked`]: several processes may serve one session at once). The client's
//!   answer may reach any process: the one whose call waits for it takes it; any other
//!   publishes it on the state's bus ([`Event::ClientAnswered`]), from which the waiting
//!   process takes it. No worker is made for an answer. A request made outside any call (a
//!   task's handler asking, after the task's id was answered) goes to the client's standalone
//!   `GET` stream: where this process holds none, it is also published on the bus
//!   ([`Event::ToClient`]), and the process holding the stream sends it there.
//! - **Ending.** `DELETE` forgets the record and closes this process's worker: `204 No
//!   Content`, or `404 Not Found` for a session unknown or ended. A request of an ended
//!   session gets `404`, after which the client starts a new one. A store that cannot be
//!   reached gets `503` with `Retry-After`, never a guess. With feature `telemetry` the
//!   process the `DELETE` reaches measures the session (`mcp.server.session.duration`), from
//!   the opening time its record keeps, whichever process opened it.
//!
//! 2026-07-28 requests never reach the session manager: rmcp serves them statelessly.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use futures::{Stream, StreamExt as _};
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, InitializeRequestParams,
    JsonRpcMessage, NumberOrString, RequestId, ServerJsonRpcMessage, ServerNotification,
};
use rmcp::transport::Transport;
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker, SessionConfig,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager, SessionRestoreMarker,
    SessionState, SessionStore as RmcpSessionStore, SessionStoreError,
};

use crate::session::Stored;
use crate::state::{Event, Heard, Message, SessionRecord, State, StoreError, now_ms};

/// The header of a session's id.
const SESSION_ID: &str = "mcp-session-id";

/// The seconds a client refused for want of room or of the store waits before trying again.
const RETRY_AFTER_SECONDS: u64 = 5;

/// The bounds of a host's 2025-11-25 sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// The sessions kept at once by every route and process sharing the server's state; a
    /// client past it is answered `503` with `Retry-After` until one ends or idles out.
    pub max: usize,
    /// A session unused this long is forgotten; a call waiting longer for its client's answer
    /// ends with it.
    pub idle: Duration,
    /// A session's worker in a process (a task and its channels) with no stream open and
    /// unused this long is closed; the session lives on in its record, and its next request
    /// makes a worker again, in whichever process it reaches.
    pub worker_idle: Duration,
}

impl Default for SessionLimits {
    /// 10,000 sessions, each forgotten after 5 minutes unused, its worker closed after 30
    /// seconds.
    fn default() -> Self {
        SessionLimits {
            max: 10_000,
            idle: Duration::from_secs(300),
            worker_idle: Duration::from_secs(30),
        }
    }
}

/// Why a session operation failed.
#[derive(Debug)]
pub(super) enum Refused {
    /// The sessions are at their bound.
    Full(usize),
    /// The session ended (deleted, or idle past its time).
    Ended,
    /// The session's worker was being closed as the request came.
    Closing,
    Local(LocalSessionManagerError),
    /// The session's record was not read or written.
    Store(StoreError),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Full(max) => write!(f, "the server holds its maximum of {max} sessions"),
            Refused::Ended => f.write_str("the session has ended"),
            Refused::Closing => f.write_str("the session's worker is closing"),
            Refused::Local(e) => e.fmt(f),
            Refused::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Refused {}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
    }
}

impl From<LocalSessionManagerError> for Refused {
    fn from(e: LocalSessionManagerError) -> Self {
        Refused::Local(e)
    }
}

tokio::task_local! {
    /// What the session manager and the session store tell the middleware of the request
    /// they refused, which rmcp would answer `500` with its own sentence: rmcp calls both
    /// within the request's own task.
    static OUTCOME: Outcome;
}

#[derive(Clone, Default)]
struct Outcome(Arc<Mutex<Option<Noted>>>);

/// Why a request was refused, and its id.
type Noted = (Refusal, Option<RequestId>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    Full,
    Ended,
    Unavailable,
}

impl Outcome {
    /// Notes that the request being served, `message` when known, was refused for `why`.
    fn note(message: Option<&ClientJsonRpcMessage>, why: &Refused) {
        let refusal = match why {
            Refused::Full(_) => Refusal::Full,
            Refused::Ended => Refusal::Ended,
            Refused::Store(_) | Refused::Closing => Refusal::Unavailable,
            Refused::Local(_) => return,
        };
        let id = match message {
            Some(JsonRpcMessage::Request(r)) => Some(r.id.clone()),
            _ => None,
        };
        // Outside a request (rmcp closing a worker) there is nobody to answer.
        let _ = OUTCOME.try_with(|outcome| *lock(&outcome.0) = Some((refusal, id)));
    }
}

/// This process's worker of one session.
struct Worker {
    /// Streams open: a call's answer on its way, or the client's standalone stream.
    open: usize,
    /// The client's standalone streams among them.
    standalone: usize,
    /// Requests other processes made for the client, to send on the standalone stream.
    outbox: tokio::sync::mpsc::Sender<ServerJsonRpcMessage>,
    last: Instant,
    /// Which worker of the session this is: a closed one's end leaves a later one alone.
    generation: u64,
}

/// The server's requests to clients that wait for an answer in this process, by session and
/// the id they were sent with.
type Waiting = Mutex<HashSet<(String, RequestId)>>;

/// A route's sessions: see [the module](self).
pub(super) struct Sessions {
    inner: LocalSessionManager,
    limits: SessionLimits,
    state: State,
    workers: Mutex<HashMap<SessionId, Worker>>,
    /// Held while a worker is closed or made, so that closing an idle one never closes one
    /// made since for the same session.
    turnover: tokio::sync::Mutex<()>,
    generations: std::sync::atomic::AtomicU64,
    waiting: Arc<Waiting>,
    /// This route's name on the bus.
    origin: String,
    me: Weak<Sessions>,
    /// The sweep of idle workers and the relay of answers, once a session came.
    chores: OnceLock<[tokio::task::AbortHandle; 2]>,
    /// What the sessions' durations and the workers open are measured into.
    #[cfg(feature = "telemetry")]
    instruments: OnceLock<Arc<crate::telemetry::Instruments>>,
}

impl Drop for Sessions {
    fn drop(&mut self) {
        for chore in self.chores.get().into_iter().flatten() {
            chore.abort();
        }
    }
}

impl Sessions {
    pub(super) fn new(limits: SessionLimits, state: State) -> Arc<Self> {
        let mut inner = LocalSessionManager::default();
        let mut config = SessionConfig::default();
        // rmcp's own bound on a silent worker: a call waiting longer than this for its
        // client's answer ends, as the session would.
        config.keep_alive = Some(limits.idle);
        inner.session_config = config;
        Arc::new_cyclic(|me| Sessions {
            inner,
            limits,
            state,
            workers: Mutex::default(),
            turnover: tokio::sync::Mutex::new(()),
            generations: std::sync::atomic::AtomicU64::new(0),
            waiting: Arc::default(),
            origin: crate::state::random_id(),
            me: me.clone(),
            chores: OnceLock::new(),
            #[cfg(feature = "telemetry")]
            instruments: OnceLock::new(),
        })
    }

    /// Measures the sessions into `instruments` (a server's, once given its telemetry).
    #[cfg(feature = "telemetry")]
    pub(super) fn measured(&self, instruments: Option<Arc<crate::telemetry::Instruments>>) {
        if let Some(instruments) = instruments {
            let me = self.me.clone();
            let held = move || me.upgrade().map_or(0, |s| lock(&s.workers).len() as u64);
            instruments.gauges.watch_sessions(Box::new(held));
            let _ = self.instruments.set(instruments);
        }
    }

    /// What rmcp restores sessions from: the records in the state.
    pub(super) fn records(&self) -> Arc<dyn RmcpSessionStore> {
        Arc::new(Records(self.state.clone()))
    }

    /// Starts the sweep of idle workers and the relay of answers published by other
    /// processes, once.
    fn start(&self) {
        self.chores.get_or_init(|| {
            let sweep = tokio::spawn(sweep(self.me.clone(), self.limits.worker_idle));
            let relay = tokio::spawn(relay(self.me.clone(), self.state.clone()));
            [sweep.abort_handle(), relay.abort_handle()]
        });
    }

    /// A new worker of the session `id`, over `transport`.
    fn worker(&self, id: &SessionId, transport: WorkerTransport<LocalSessionWorker>) -> Tracked {
        self.start();
        let generation = (self.generations).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // A client answers a question before the next comes; a few more wait their turn.
        let (outbox, relayed) = tokio::sync::mpsc::channel(16);
        let worker = Worker {
            open: 0,
            standalone: 0,
            outbox,
            last: Instant::now(),
            generation,
        };
        lock(&self.workers).insert(id.clone(), worker);
        Tracked {
            inner: transport,
            session: id.to_string(),
            generation,
            sessions: self.me.clone(),
            waiting: Arc::clone(&self.waiting),
            sent: HashMap::new(),
            relayed,
        }
    }

    /// Closes this process's worker of the session `id`, if it has one.
    async fn close_worker(&self, id: &SessionId) {
        let _turnover = self.turnover.lock().await;
        lock(&self.workers).remove(id);
        if let Err(e) = self.inner.close_session(id).await {
            tracing::debug!(error = %e, session = %id, "a session's worker was not closed");
        }
    }

    /// The record of the session `id`, read as a use of it, for `message` (which is told why
    /// when there is none); the worker of an ended session is closed.
    async fn record(
        &self,
        id: &SessionId,
        message: Option<&ClientJsonRpcMessage>,
    ) -> Result<Stored, Refused> {
        let refused = |why: Refused| {
            Outcome::note(message, &why);
            why
        };
        match self.state.store().session(id).await {
            Ok(Some(record)) => Ok(self.stored(record)),
            Ok(None) => {
                self.close_worker(id).await;
                Err(refused(Refused::Ended))
            }
            Err(e) => Err(refused(Refused::Store(e))),
        }
    }

    fn stored(&self, record: SessionRecord) -> Stored {
        Stored {
            record,
            state: self.state.clone(),
            idle: self.limits.idle,
        }
    }

    /// Counts a stream of the session `id`'s worker open until the returned guard drops; with
    /// `standalone`, as the client's standalone stream.
    fn opened(&self, id: &SessionId, standalone: bool) -> Result<Open, Refused> {
        let mut workers = lock(&self.workers);
        let worker = workers.get_mut(id).ok_or(Refused::Closing)?;
        worker.open += 1;
        worker.standalone += usize::from(standalone);
        worker.last = Instant::now();
        Ok(Open {
            sessions: self.me.clone(),
            id: id.clone(),
            standalone,
        })
    }

    /// Whether this process holds a standalone stream of the session `id`.
    fn streams_to(&self, id: &str) -> bool {
        (lock(&self.workers).get(&SessionId::from(id))).is_some_and(|w| w.standalone > 0)
    }

    /// A request another process made for the client of the session `session`: sent on the
    /// standalone stream this process holds, if it holds one.
    fn to_client(&self, session: &str, request: serde_json::Value) {
        let Ok(request) = serde_json::from_value::<ServerJsonRpcMessage>(request) else {
            return;
        };
        let workers = lock(&self.workers);
        let Some(worker) = workers.get(&SessionId::from(session)) else {
            return;
        };
        if worker.standalone > 0 && worker.outbox.try_send(request).is_err() {
            tracing::warn!(
                session,
                "a request for the client was dropped: too many wait"
            );
        }
    }

    /// Notes a use of the session `id`'s worker.
    fn used(&self, id: &SessionId) {
        if let Some(worker) = lock(&self.workers).get_mut(id) {
            worker.last = Instant::now();
        }
    }

    /// The answer to `DELETE` of the session `id`, measured where it ends, which may be
    /// another process than the one that opened it.
    async fn end(&self, id: &str) -> Response {
        #[cfg(feature = "telemetry")]
        let opened = match self.instruments.get() {
            Some(_) => self.state.store().session(id).await.ok().flatten(),
            None => None,
        };
        match self.state.store().remove_session(id).await {
            Ok(true) => {
                #[cfg(feature = "telemetry")]
                if let (Some(instruments), Some(record)) = (self.instruments.get(), opened) {
                    instruments.session_ended_at(record.opened_ms, "tcp");
                }
                self.close_worker(&SessionId::from(id)).await;
                StatusCode::NO_CONTENT.into_response()
            }
            Ok(false) => not_found(),
            Err(e) => unavailable(&e.to_string(), None),
        }
    }

    /// Hands the client's `answer` in the session `id` to the call waiting for it: in this
    /// process, or through the bus in the one where it waits.
    async fn answered(&self, id: &str, answer: ClientJsonRpcMessage) -> Response {
        match self.state.store().session(id).await {
            Ok(Some(_)) => {}
            Ok(None) => return not_found(),
            Err(e) => return unavailable(&e.to_string(), None),
        }
        let Some(key) = answer_id(&answer).map(|n| (id.to_owned(), n)) else {
            // An error that names no request answers nothing.
            return StatusCode::ACCEPTED.into_response();
        };
        if lock(&self.waiting).contains(&key) {
            let session = SessionId::from(id);
            self.used(&session);
            if let Err(e) = self.inner.accept_message(&session, answer).await {
                tracing::debug!(error = %e, session = id, "an answer found no call");
            }
            return StatusCode::ACCEPTED.into_response();
        }
        self.start();
        let message = Message {
            from: self.origin.clone(),
            event: Event::ClientAnswered {
                session: id.to_owned(),
                answer: serde_json::to_value(&answer).unwrap_or_default(),
            },
        };
        match self.state.store().publish(message).await {
            Ok(()) => StatusCode::ACCEPTED.into_response(),
            Err(e) => unavailable(&e.to_string(), None),
        }
    }

    /// An answer published by another process: handed to its call if it waits here.
    async fn relayed(&self, session: String, answer: serde_json::Value) {
        let Ok(answer) = serde_json::from_value::<ClientJsonRpcMessage>(answer) else {
            return;
        };
        let Some(id) = answer_id(&answer) else {
            return;
        };
        if !lock(&self.waiting).contains(&(session.clone(), id)) {
            return;
        }
        let session = SessionId::from(session);
        self.used(&session);
        if let Err(e) = self.inner.accept_message(&session, answer).await {
            tracing::debug!(error = %e, session = %session, "an answer found no call");
        }
    }
}

/// The id of the request a client's answer answers.
fn answer_id(answer: &ClientJsonRpcMessage) -> Option<RequestId> {
    match answer {
        JsonRpcMessage::Response(r) => Some(r.id.clone()),
        JsonRpcMessage::Error(e) => e.id.clone(),
        _ => None,
    }
}

/// Closes the workers idle past `idle`, every half of it, while the sessions live.
async fn sweep(sessions: Weak<Sessions>, idle: Duration) {
    let every = (idle / 2).max(Duration::from_millis(10));
    loop {
        tokio::time::sleep(every).await;
        let Some(sessions) = sessions.upgrade() else {
            return;
        };
        let _turnover = sessions.turnover.lock().await;
        let closing: Vec<SessionId> = {
            let mut workers = lock(&sessions.workers);
            let idle: Vec<SessionId> = (workers.iter())
                .filter(|(_, w)| w.open == 0 && w.last.elapsed() >= idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in &idle {
                workers.remove(id);
            }
            idle
        };
        for id in closing {
            if let Err(e) = sessions.inner.close_session(&id).await {
                tracing::debug!(error = %e, session = %id, "an idle worker was not closed");
            }
        }
    }
}

/// Hands the answers other processes publish to the calls waiting here, and the requests
/// they make for clients whose standalone stream is here to that stream.
async fn relay(sessions: Weak<Sessions>, state: State) {
    let mut heard = match state.store().subscribe().await {
        Ok(heard) => heard,
        Err(e) => {
            let why = "clients' answers received by other servers are not followed";
            tracing::error!(error = %e, "{why}");
            return;
        }
    };
    while let Some(heard) = heard.next().await {
        let Heard::Message(Message { from, event }) = heard else {
            continue;
        };
        let Some(sessions) = sessions.upgrade() else {
            return;
        };
        if from == sessions.origin {
            continue;
        }
        match event {
            Event::ClientAnswered { session, answer } => sessions.relayed(session, answer).await,
            Event::ToClient { session, request } => sessions.to_client(&session, request),
            _ => {}
        }
    }
}

/// A stream of a worker, counted open until dropped.
struct Open {
    sessions: Weak<Sessions>,
    id: SessionId,
    standalone: bool,
}

impl Drop for Open {
    fn drop(&mut self) {
        if let Some(sessions) = self.sessions.upgrade()
            && let Some(worker) = lock(&sessions.workers).get_mut(&self.id)
        {
            worker.open = worker.open.saturating_sub(1);
            worker.standalone = worker
                .standalone
                .saturating_sub(usize::from(self.standalone));
            worker.last = Instant::now();
        }
    }
}

/// `stream`, counted open while it lives.
fn counted<S: Stream<Item = ServerSseMessage> + Send + Sync + 'static>(
    stream: S,
    open: Open,
) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static {
    stream.map(move |message| {
        let _open = &open;
        message
    })
}

/// The record of the session `id` that `message`, its `initialize`, opens.
fn record(id: &SessionId, message: &ClientJsonRpcMessage) -> SessionRecord {
    let initialize = match message {
        ClientJsonRpcMessage::Request(request) => match &request.request {
            ClientRequest::InitializeRequest(initialize) => Some(&initialize.params),
            _ => None,
        },
        _ => None,
    };
    SessionRecord {
        id: id.to_string(),
        revision: initialize.map(|i| i.protocol_version.to_string()),
        client_capabilities: initialize.and_then(|i| serde_json::to_value(&i.capabilities).ok()),
        client_info: initialize.and_then(|i| serde_json::to_value(&i.client_info).ok()),
        log_level: None,
        subscriptions: Vec::new(),
        last_used_ms: now_ms(),
        opened_ms: now_ms(),
    }
}

impl SessionManager for Sessions {
    type Error = Refused;
    type Transport = Tracked;

    async fn create_session(&self) -> Result<(SessionId, Tracked), Refused> {
        let (id, transport) = self.inner.create_session().await?;
        let tracked = self.worker(&id, transport);
        Ok((id, tracked))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Refused> {
        let restoring = match &message {
            JsonRpcMessage::Request(r) => {
                use rmcp::model::GetExtensions as _;
                r.request
                    .extensions()
                    .get::<SessionRestoreMarker>()
                    .is_some()
            }
            _ => false,
        };
        if restoring {
            let stored = self.record(id, Some(&message)).await?;
            message.insert_extension(stored);
            return Ok(self.inner.initialize_session(id, message).await?);
        }
        let record = record(id, &message);
        let (idle, max) = (self.limits.idle, self.limits.max);
        let created = self.state.store().create_session(record.clone(), idle, max);
        let refused = match created.await {
            Ok(true) => None,
            Ok(false) => Some(Refused::Full(max)),
            Err(e) => Some(Refused::Store(e)),
        };
        if let Some(refused) = refused {
            Outcome::note(Some(&message), &refused);
            self.close_worker(id).await;
            return Err(refused);
        }
        message.insert_extension(self.stored(record));
        match self.inner.initialize_session(id, message).await {
            Ok(answer) => Ok(answer),
            Err(e) => {
                let _ = self.state.store().remove_session(id).await;
                Err(e.into())
            }
        }
    }

    /// Whether this process has a worker of the session `id`; rmcp restores one otherwise.
    async fn has_session(&self, id: &SessionId) -> Result<bool, Refused> {
        Ok(lock(&self.workers).contains_key(id))
    }

    /// rmcp's word that a worker of the session ended (or, were it not answered before rmcp,
    /// a `DELETE`): the session itself lives on in its record, and a worker made for it
    /// since stays.
    async fn close_session(&self, id: &SessionId) -> Result<(), Refused> {
        let _turnover = self.turnover.lock().await;
        if !lock(&self.workers).contains_key(id) {
            self.inner.close_session(id).await?;
        }
        Ok(())
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        let stored = self.record(id, Some(&message)).await?;
        message.insert_extension(stored);
        let open = self
            .opened(id, false)
            .inspect_err(|e| Outcome::note(Some(&message), e))?;
        let stream = self.inner.create_stream(id, message).await?;
        Ok(counted(stream, open))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<(), Refused> {
        let stored = self.record(id, Some(&message)).await?;
        message.insert_extension(stored);
        self.used(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        self.record(id, None).await?;
        let open = self.opened(id, true)?;
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(counted(stream, open))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        self.record(id, None).await?;
        let open = self.opened(id, false)?;
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(counted(stream, open))
    }

    async fn restore_session(&self, id: SessionId) -> Result<RestoreOutcome<Tracked>, Refused> {
        let _turnover = self.turnover.lock().await;
        if lock(&self.workers).contains_key(&id) {
            return Ok(RestoreOutcome::AlreadyPresent);
        }
        // A worker still closing goes first: the session gets a fresh one.
        self.inner.close_session(&id).await?;
        match self.inner.restore_session(id.clone()).await? {
            RestoreOutcome::Restored(transport) => {
                Ok(RestoreOutcome::Restored(self.worker(&id, transport)))
            }
            RestoreOutcome::AlreadyPresent => Ok(RestoreOutcome::AlreadyPresent),
            _ => Ok(RestoreOutcome::NotSupported),
        }
    }
}

/// A worker's transport, which sends each request of the server to the client under an id
/// unique in the session (the workers of one session in several processes each count their
/// requests from 0) and notes it as waiting here until the client answers.
pub(super) struct Tracked {
    inner: WorkerTransport<LocalSessionWorker>,
    session: String,
    generation: u64,
    sessions: Weak<Sessions>,
    waiting: Arc<Waiting>,
    /// The server's own id of each request waiting for its answer, by the id it was sent
    /// with.
    sent: HashMap<RequestId, RequestId>,
    /// Requests other processes made for the client, for the standalone stream held here.
    relayed: tokio::sync::mpsc::Receiver<ServerJsonRpcMessage>,
}

/// An id no other worker of the session sends: 52 random bits, a number every client reads.
fn unique_id() -> RequestId {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    let n = u64::from_le_bytes(bytes) >> 12;
    NumberOrString::Number(i64::try_from(n).unwrap_or_default())
}

impl Transport<RoleServer> for Tracked {
    type Error = <WorkerTransport<LocalSessionWorker> as Transport<RoleServer>>::Error;

    fn send(
        &mut self,
        mut item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let mut publish = None;
        match &mut item {
            JsonRpcMessage::Request(request) => {
                let sent = unique_id();
                let own = std::mem::replace(&mut request.id, sent.clone());
                self.sent.insert(sent.clone(), own);
                lock(&self.waiting).insert((self.session.clone(), sent));
                // Outside any call (rmcp then sends it on the standalone stream), with that
                // stream held by another process: it goes there too.
                use rmcp::model::GetExtensions as _;
                let in_call = (request.request.extensions())
                    .get::<rmcp::service::OriginatingRequestId>()
                    .is_some();
                if let Some(sessions) = self.sessions.upgrade()
                    && !in_call
                    && !sessions.streams_to(&self.session)
                {
                    let message = Message {
                        from: sessions.origin.clone(),
                        event: Event::ToClient {
                            session: self.session.clone(),
                            request: serde_json::to_value(&*request).unwrap_or_default(),
                        },
                    };
                    publish = Some((sessions.state.clone(), message));
                }
            }
            JsonRpcMessage::Notification(notification) => {
                // The server giving up a request names it as the client knows it.
                if let ServerNotification::CancelledNotification(cancelled) =
                    &mut notification.notification
                    && let Some(own) = &cancelled.params.request_id
                    && let Some(sent) = (self.sent.iter())
                        .find(|(_, o)| *o == own)
                        .map(|(s, _)| s.clone())
                {
                    self.sent.remove(&sent);
                    lock(&self.waiting).remove(&(self.session.clone(), sent.clone()));
                    cancelled.params.request_id = Some(sent);
                }
            }
            _ => {}
        }
        // Sent here as well: the client may open its standalone stream here later.
        let sent = self.inner.send(item);
        async move {
            if let Some((state, message)) = publish
                && let Err(e) = state.store().publish(message).await
            {
                tracing::error!(error = %e, "a request for a client was not published to other servers");
            }
            sent.await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        let mut message = loop {
            tokio::select! {
                message = self.inner.receive() => break message?,
                Some(request) = self.relayed.recv() => {
                    // Not awaited here: the worker may be waiting for this loop to take a
                    // client message first.
                    let sent = self.inner.send(request);
                    tokio::spawn(async move {
                        if let Err(e) = sent.await {
                            tracing::debug!(error = %e, "a relayed request was not sent");
                        }
                    });
                }
            }
        };
        let id = match &mut message {
            JsonRpcMessage::Response(r) => Some(&mut r.id),
            JsonRpcMessage::Error(e) => e.id.as_mut(),
            _ => None,
        };
        if let Some(id) = id
            && let Some(own) = self.sent.remove(id)
        {
            lock(&self.waiting).remove(&(self.session.clone(), id.clone()));
            *id = own;
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

impl Drop for Tracked {
    /// A worker gone waits for nothing; it is no longer this process's worker of the
    /// session, unless one was made since.
    fn drop(&mut self) {
        let mut waiting = lock(&self.waiting);
        for sent in self.sent.keys() {
            waiting.remove(&(self.session.clone(), sent.clone()));
        }
        drop(waiting);
        if let Some(sessions) = self.sessions.upgrade() {
            let mut workers = lock(&sessions.workers);
            let id = SessionId::from(self.session.as_str());
            if workers
                .get(&id)
                .is_some_and(|w| w.generation == self.generation)
            {
                workers.remove(&id);
            }
        }
    }
}

/// rmcp's view of the session records: what a worker made again replays its `initialize`
/// from.
struct Records(State);

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

impl RmcpSessionStore for Records {
    fn load<'a, 'b, 'c>(&'a self, id: &'b str) -> Boxed<'c, Option<SessionState>>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        Box::pin(async move {
            let record = match self.0.store().session(id).await {
                Ok(Some(record)) => record,
                Ok(None) => return Ok(None),
                Err(e) => {
                    let refused = Refused::Store(e);
                    Outcome::note(None, &refused);
                    return Err(refused.into());
                }
            };
            let params = serde_json::json!({
                "protocolVersion": record.revision,
                "capabilities": record.client_capabilities.unwrap_or_else(|| serde_json::json!({})),
                "clientInfo": record.client_info
                    .unwrap_or_else(|| serde_json::json!({"name": "unknown", "version": "0"})),
            });
            let params: InitializeRequestParams = serde_json::from_value(params)?;
            Ok(Some(SessionState::new(params)))
        })
    }

    /// Nothing to do: the record was stored before the session's id was answered.
    fn store<'a, 'b, 'c, 'd>(&'a self, _id: &'b str, _state: &'c SessionState) -> Boxed<'d, ()>
    where
        'a: 'd,
        'b: 'd,
        'c: 'd,
        Self: 'd,
    {
        Box::pin(std::future::ready(Ok(())))
    }

    fn delete<'a, 'b, 'c>(&'a self, id: &'b str) -> Boxed<'c, ()>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        Box::pin(async move {
            self.0.store().remove_session(id).await?;
            Ok(())
        })
    }
}

/// The middleware of a route with sessions: answers `DELETE` and the client's answers
/// itself, and turns what the session manager refused into the answer it deserves, rather
/// than rmcp's `500`.
pub(super) async fn serve(
    axum::extract::State((sessions, max_body)): axum::extract::State<(Arc<Sessions>, usize)>,
    request: Request,
    next: Next,
) -> Response {
    let session = (request.headers().get(SESSION_ID))
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut request_id = None;
    let request = match (request.method(), session) {
        (&Method::DELETE, Some(id)) => return sessions.end(&id).await,
        (&Method::POST, Some(id)) => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, max_body).await else {
                return (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Payload Too Large: the request body is too long",
                )
                    .into_response();
            };
            match peek(&bytes) {
                Peeked::Answer(answer) => return sessions.answered(&id, *answer).await,
                Peeked::Request(id) => request_id = id,
            }
            Request::from_parts(parts, Body::from(bytes))
        }
        _ => request,
    };
    let outcome = Outcome::default();
    let response = OUTCOME.scope(outcome.clone(), next.run(request)).await;
    let refused = lock(&outcome.0).take();
    match refused.map(|(why, id)| (why, id.or(request_id))) {
        None => response,
        Some((Refusal::Ended, _)) => not_found(),
        Some((Refusal::Full, id)) => {
            let max = sessions.limits.max;
            let why = format!(
                "the server holds its maximum of {max} sessions; try again later, or end an \
                 unused session (DELETE)"
            );
            unavailable(&why, id)
        }
        Some((Refusal::Unavailable, id)) => unavailable(
            "the server cannot reach its session store now; try again later",
            id,
        ),
    }
}

/// What a session's POST holds, as far as the middleware reads it.
enum Peeked {
    /// The client's answer to a request of the server.
    Answer(Box<ClientJsonRpcMessage>),
    /// Anything else, with the request's id when it has one.
    Request(Option<RequestId>),
}

fn peek(body: &Bytes) -> Peeked {
    #[derive(serde::Deserialize)]
    struct Peek {
        method: Option<serde::de::IgnoredAny>,
        id: Option<RequestId>,
    }
    let Ok(peek) = serde_json::from_slice::<Peek>(body) else {
        return Peeked::Request(None);
    };
    if peek.method.is_none()
        && let Ok(message) = serde_json::from_slice::<ClientJsonRpcMessage>(body)
        && answer_id(&message).is_some()
    {
        return Peeked::Answer(Box::new(message));
    }
    Peeked::Request(peek.id)
}

/// `404` for a session unknown or ended: the client starts a new one.
fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// `503` with `Retry-After` and the JSON-RPC error saying `why`, by the request's `id`.
fn unavailable(why: &str, id: Option<RequestId>) -> Response {
    let error = ErrorData::new(ErrorCode::INTERNAL_ERROR, why.to_owned(), None);
    let message = ServerJsonRpcMessage::error(error, id);
    let body = serde_json::to_vec(&message).unwrap_or_default();
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (CONTENT_TYPE, "application/json".to_owned()),
            (RETRY_AFTER, RETRY_AFTER_SECONDS.to_string()),
        ],
        body,
    )
        .into_response()
}

/// The lock, whether or not a panicking holder poisoned it: every change is one assignment,
/// insertion or removal.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}
