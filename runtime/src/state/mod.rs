//! What a server keeps between requests, behind one interface: the [`Store`].
//!
//! A server holds one [`State`] handle, shared by every connection and view of it. Behind it
//! is a store, a value of any type implementing the four traits a [`Store`] is made of, one
//! per concept:
//!
//! - [`TaskStore`]: task records (status and payload, the typed arguments, every answer its
//!   client gave, who may reach it, its expiry and its lease). A record is written before its
//!   id is answered and changes only by compare-and-set on its version.
//! - [`SessionStore`]: the records of 2025-11-25 sessions and stdio connections (negotiated
//!   revision, client capabilities and name, log level, resource subscriptions, last use), each
//!   forgotten once idle too long.
//! - [`EventBus`]: events (a list changed, a resource changed, a task changed, a 2025-11-25
//!   client answered) published to every listener of every process that shares the store.
//! - [`KeyStore`]: the key ring that seals the `requestState` of 2026-07-28 calls: made once,
//!   shared, rotated, the previous key still accepted.
//!
//! One trait per concept keeps each small and lets a test or a store state the consistency
//! each operation needs in one place; one [`Store`] over all four keeps one value per server,
//! one connection for a remote store, and one shared test suite
//! (`testing::state_suite`, feature `testing`) that every implementation passes.
//!
//! Every operation is async and fallible ([`StoreError`]): a remote store can be slow or
//! gone, and a server answers what needs state with an error then, never with a guess. Every
//! record is plain data that serializes (serde), so a store that lives in another process
//! (Redis, a database) holds the same values as the in-memory one ([`MemoryStore`], the
//! default, which keeps everything in this process).
//!
//! What cannot leave a process stays out of the store, in a registry of the process keyed by
//! the stored id: a task's running handler and the closure that cancels it (any process reruns
//! a task from its record); the rmcp `Peer` or listen stream a notification is sent on; a
//! 2025-11-25 session's worker, its streams and its calls waiting for the client's answer.
//! The store holds what any process needs to answer a request about them.
//!
//! **Who uses what.** Tasks keep their records in the [`TaskStore`] and wake their waiters
//! (`tasks/result`) through the [`EventBus`] (`crate::tasks`). Request states are sealed with
//! the [`KeyStore`]'s ring unless the server was given a key. A resource update is delivered
//! to the server's own subscribers at once and published on the [`EventBus`], from which
//! every other server sharing the store delivers it to its own. A 2025-11-25 HTTP session
//! is its [`SessionRecord`] (revision, client capabilities and name, log level,
//! subscriptions, last use): stored before its id is answered, read by each of its requests
//! in whichever process, changed by `logging/setLevel` and `resources/subscribe`, removed
//! when it ends; the worker that serves it in a process is a cache of it, made again from it
//! when needed. A client's answer to a question, when it reaches a process other than the
//! one whose call waits, is carried there on the [`EventBus`] ([`Event::ClientAnswered`]); so is
//! a question a task's handler asks where the client's standalone stream is not
//! ([`Event::ToClient`]).
//! Which entries are switched
//! off ([`crate::Lists`]) is the process's own setting, and so are the list-change
//! notifications that follow from it: publishing [`Event::ListChanged`] is for when the
//! switches are shared.

mod memory;
#[cfg(feature = "redis")]
mod redis;

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use rmcp::model::{DetailedTask, InputResponses, JsonObject};
use serde::{Deserialize, Serialize};

#[cfg(feature = "redis")]
pub use self::redis::RedisStore;
pub use memory::MemoryStore;

/// The future of a store operation.
pub type StoreFuture<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// What a store can fail with: it could not be reached, or it answered something this
/// runtime cannot read. The request that needed it is answered an error; nothing is assumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What failed, for the log and the client's error message.
    pub message: String,
}

impl StoreError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the server's state store failed: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

/// Who may reach a task: stored with it, compared on every request about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Owner {
    /// The verified caller, by subject.
    Caller(String),
    /// A stdio connection or a 2025-11-25 HTTP session, by its [`SessionRecord::id`].
    Session(String),
    /// Whoever holds the id: a stateless request without a verified caller.
    Holder,
}

impl Owner {
    /// Whether `self`, asking, may reach a task `made_by`.
    pub fn reaches(&self, made_by: &Owner) -> bool {
        made_by == self || *made_by == Owner::Holder
    }
}

/// Which process runs a task's handler, and until when it has promised to: another process
/// may take a task over (or fail it) only once the lease has lapsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The id of the server holding it: random, one per server, so that servers sharing a
    /// store tell their leases apart.
    pub holder: String,
    /// Unix milliseconds.
    pub until_ms: u64,
}

/// One task, as every process sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The task as `tasks/get` gives it: its id, status, times, `ttlMs`, `pollIntervalMs`, and
    /// its questions, result or error.
    pub task: DetailedTask,
    /// Who may reach it.
    pub owner: Owner,
    /// The tool called.
    pub tool: String,
    /// The call's arguments, checked: a rerun needs nothing else.
    pub arguments: JsonObject,
    /// Every answer the client gave, for the next run.
    pub answers: InputResponses,
    /// When it was made, Unix milliseconds: tasks are listed oldest first.
    pub made_ms: u64,
    /// When it is forgotten, Unix milliseconds: the store never answers it after.
    pub expires_ms: u64,
    /// Who runs its handler, while one runs.
    pub lease: Option<Lease>,
}

impl TaskRecord {
    /// The task's id.
    pub fn id(&self) -> &str {
        &self.task.task.task_id
    }

    /// Whether it still runs or waits for answers (not completed, failed nor cancelled).
    pub fn is_live(&self) -> bool {
        !self.task.status().is_terminal()
    }
}

/// A record as read, with the version a change must name ([`TaskStore::swap_task`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned<T> {
    /// The value.
    pub value: T,
    /// Its version: changed by every write.
    pub version: u64,
}

/// The bounds a store keeps its tasks within, checked as a task is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskBounds {
    /// The most live tasks (working or waiting for answers).
    pub max_live: usize,
    /// The most tasks kept, finished ones included; the oldest finished make room.
    pub max_kept: usize,
}

/// What [`TaskStore::swap_task`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swapped {
    /// Written; the record's new version.
    Done(u64),
    /// Someone changed it since it was read: read it again and decide again.
    Conflict,
    /// No such task (never made, expired or removed).
    Gone,
}

/// Task records. Every write is atomic; [`TaskStore::create_task`] returns once the record
/// is stored where any process's [`TaskStore::task`] reads it (a task's id is answered only
/// after), and a record changes only by [`TaskStore::swap_task`], a compare-and-set.
pub trait TaskStore: Send + Sync {
    /// Stores `record` as a new task, if `bounds` leave room once the oldest finished tasks
    /// are forgotten to make it; `Ok(false)` when they do not (nothing is stored then).
    /// Durable before it returns: from then on every process reads it.
    fn create_task(&self, record: TaskRecord, bounds: TaskBounds) -> StoreFuture<'_, bool>;

    /// Whether [`TaskStore::create_task`] would find room now (a hint: another process may
    /// take the room before this one stores its task).
    fn has_room(&self, bounds: TaskBounds) -> StoreFuture<'_, bool>;

    /// The task `id` and its version, or `None` once it expired or was never made.
    fn task(&self, id: &str) -> StoreFuture<'_, Option<Versioned<TaskRecord>>>;

    /// Replaces the task `id` with `record` if its version is still `version`
    /// (compare-and-set): of two processes changing one task at once, one wins and the other
    /// is told [`Swapped::Conflict`].
    fn swap_task(&self, id: &str, version: u64, record: TaskRecord) -> StoreFuture<'_, Swapped>;

    /// Forgets the task `id`; whether it was there.
    fn remove_task(&self, id: &str) -> StoreFuture<'_, bool>;

    /// The tasks `owner` made (exactly that owner), oldest first.
    fn tasks_of(&self, owner: &Owner) -> StoreFuture<'_, Vec<TaskRecord>>;
}

/// What a server remembers of a 2025-11-25 session or a stdio connection between its
/// requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// Its id: random, unique across processes.
    pub id: String,
    /// The protocol version it negotiated, once it has.
    pub revision: Option<String>,
    /// The client capabilities it declared in `initialize`.
    pub client_capabilities: Option<serde_json::Value>,
    /// The client's name and version as it gave them in `initialize` (`clientInfo`): with
    /// the revision and the capabilities, what a process that never saw the session replays
    /// its `initialize` from.
    #[serde(default)]
    pub client_info: Option<serde_json::Value>,
    /// The least severe log level it asked for (`logging/setLevel`), by its wire name.
    pub log_level: Option<String>,
    /// The resources it subscribed to, with the URI as the client wrote it.
    pub subscriptions: Vec<String>,
    /// When it was last used, Unix milliseconds.
    pub last_used_ms: u64,
    /// When it was opened, Unix milliseconds (0 when not known): whichever process ends it
    /// measures its duration from this.
    #[serde(default)]
    pub opened_ms: u64,
}

/// Session records, each forgotten once unused for the idle time it was stored with. A write
/// is seen by every later read of any process (read-your-writes is enough: a session's
/// requests come one after another).
pub trait SessionStore: Send + Sync {
    /// Stores `record` as a new session, to be forgotten after `idle` unused, if fewer than
    /// `max` sessions are kept (idle ones forgotten first); `Ok(false)` when `max` are
    /// (nothing is stored then). Atomic: of processes creating sessions at once, no more
    /// than `max` are ever kept.
    fn create_session(
        &self,
        record: SessionRecord,
        idle: Duration,
        max: usize,
    ) -> StoreFuture<'_, bool>;

    /// Stores `record` (a change to a session), to be forgotten after `idle` without a
    /// [`SessionStore::put_session`] or [`SessionStore::session`].
    fn put_session(&self, record: SessionRecord, idle: Duration) -> StoreFuture<'_, ()>;

    /// The session `id`, which counts as a use: its idle time starts again.
    fn session(&self, id: &str) -> StoreFuture<'_, Option<SessionRecord>>;

    /// Forgets the session `id`; whether it was there.
    fn remove_session(&self, id: &str) -> StoreFuture<'_, bool>;
}

/// Which list changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ListKind {
    /// `tools/list`.
    Tools,
    /// `prompts/list`.
    Prompts,
    /// `resources/list` (and its templates).
    Resources,
}

/// Something that happened that listeners in any process may have to tell their clients of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A list changed: `notifications/*/list_changed`.
    ListChanged(ListKind),
    /// The resource `uri` names changed: `notifications/resources/updated`.
    ResourceUpdated(String),
    /// The task of this id changed status or was forgotten.
    TaskChanged(String),
    /// A 2025-11-25 client answered (a JSON-RPC response or error, as it sent it) a request
    /// of the session `session`'s server, in a process other than the one whose call waits
    /// for it: that process hands it to the call.
    ClientAnswered {
        /// The session's id.
        session: String,
        /// The client's message.
        answer: serde_json::Value,
    },
    /// A request of the session `session`'s server to its client (an elicitation, sampling or
    /// roots) made where it has no standalone stream, as a task's handler makes one: the
    /// process holding the client's standalone `GET` stream sends it there.
    ToClient {
        /// The session's id.
        session: String,
        /// The request, as it goes to the client.
        request: serde_json::Value,
    },
}

/// An event as the bus carries it, with who published it: a publisher that told its own
/// listeners already passes over its own messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The publisher, by an id of its choosing (random, so unique across processes).
    pub from: String,
    /// What happened.
    pub event: Event,
}

/// What a listener hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A message, from this process or another.
    Message(Message),
    /// Events were lost (the listener fell behind, or the store reconnected): a listener
    /// looks again at whatever it follows.
    Missed,
}

/// The events one listener hears, from the moment it subscribed, in the order each
/// publisher published them.
pub type Events = BoxStream<'static, Heard>;

/// Events, published to every listener of every process sharing the store. Nothing is kept:
/// a listener hears what is published after it subscribed, and is told [`Heard::Missed`]
/// when it may have missed some.
pub trait EventBus: Send + Sync {
    /// Publishes `message` to every listener subscribed now.
    fn publish(&self, message: Message) -> StoreFuture<'_, ()>;

    /// A new listener.
    fn subscribe(&self) -> StoreFuture<'_, Events>;
}

/// A secret key of at least 32 bytes.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key(pub Vec<u8>);

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(..)")
    }
}

/// The keys that seal request states: the current one seals, either one opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRing {
    /// Seals every new request state.
    pub current: Key,
    /// Unix milliseconds at which `current` was made or rotated in: what a scheduled
    /// rotation ([`Rotation::when_older_than`]) compares.
    pub since: u64,
    /// The one before the last rotation, still accepted so that states sealed just before
    /// it stay good until they expire.
    pub previous: Option<Key>,
}

/// When [`KeyStore::rotate_keys`] rotates: at once, or only when the current key is old
/// enough. The condition is checked in the store, in the same step as the rotation, so that
/// of several processes finding the ring due at once exactly one rotates it; the others get
/// the ring it made (a second rotation would drop a key states were sealed with moments ago).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    /// Unix milliseconds now: the new key's [`KeyRing::since`].
    pub at: u64,
    /// Rotates only when the current key's `since` is before this (unix milliseconds).
    pub if_since_before: u64,
}

impl Rotation {
    /// Rotates at once, whatever the current key's age: for a key that may have leaked.
    pub fn now(at: u64) -> Self {
        Rotation {
            at,
            if_since_before: u64::MAX,
        }
    }

    /// Rotates when the current key became current `age` or longer before `at`.
    pub fn when_older_than(at: u64, age: Duration) -> Self {
        let age = u64::try_from(age.as_millis()).unwrap_or(u64::MAX);
        Rotation {
            at,
            if_since_before: at.saturating_sub(age).saturating_add(1),
        }
    }

    /// Whether `ring` is rotated.
    pub fn is_due(&self, ring: &KeyRing) -> bool {
        ring.since < self.if_since_before
    }
}

/// The request-state key ring, shared by every process. Made once, at the first read of any
/// process; every process reads the same ring after a rotation.
pub trait KeyStore: Send + Sync {
    /// The ring; made with a random key, current since now, when there is none yet (the
    /// first reader makes it, and every other reader gets the same).
    fn keys(&self) -> StoreFuture<'_, KeyRing>;

    /// Makes `key` the current key and the current one the previous (the one before it is
    /// dropped), when `rotation` says the ring is due ([`Rotation::is_due`]); the ring after,
    /// rotated or not.
    fn rotate_keys(&self, key: Key, rotation: Rotation) -> StoreFuture<'_, KeyRing>;
}

/// A store of everything a server keeps between requests; see [the module](self). Any type
/// implementing the four concepts is one.
pub trait Store: TaskStore + SessionStore + EventBus + KeyStore + 'static {}

impl<T: TaskStore + SessionStore + EventBus + KeyStore + 'static> Store for T {}

/// A server's handle on its store; cheap to clone, shared by every connection and view.
#[derive(Clone)]
pub struct State(std::sync::Arc<dyn Store>);

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("State(..)")
    }
}

impl Default for State {
    /// A [`MemoryStore`].
    fn default() -> Self {
        State::new(MemoryStore::default())
    }
}

impl State {
    /// The handle on `store`.
    pub fn new(store: impl Store) -> Self {
        State(std::sync::Arc::new(store))
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        &*self.0
    }

    /// Changes the task `id` by `change`, by compare-and-set, reading again after a conflict:
    /// `change` returns whether it changed anything (nothing is written otherwise). The
    /// record as it stands after, or `None` when there is no such task.
    pub async fn change_task(
        &self,
        id: &str,
        mut change: impl FnMut(&mut TaskRecord) -> bool + Send,
    ) -> Result<Option<TaskRecord>, StoreError> {
        loop {
            let Some(Versioned { mut value, version }) = self.0.task(id).await? else {
                return Ok(None);
            };
            if !change(&mut value) {
                return Ok(Some(value));
            }
            match self.0.swap_task(id, version, value.clone()).await? {
                Swapped::Done(_) => return Ok(Some(value)),
                Swapped::Conflict => continue,
                Swapped::Gone => return Ok(None),
            }
        }
    }
}

/// Unix milliseconds now, the clock of every stored time.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// This process's id, as it names itself in [`Message::from`]: random, made once.
pub fn instance() -> &'static str {
    static INSTANCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(random_id);
    &INSTANCE
}

/// 128 random bits, in hex: an id nobody guesses.
pub(crate) fn random_id() -> String {
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
