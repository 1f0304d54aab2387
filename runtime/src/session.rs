//! What a server remembers about one connection (its log level, its resource subscriptions),
//! and the subscriptions of every connection, to announce a resource's changes: those made
//! through this server at once, those published by another server sharing its
//! [`State`] when they come on its bus.
//!
//! A 2025-11-25 HTTP session is a record in the [`State`] ([`SessionRecord`]), which every
//! request of it carries ([`Stored`]): its log level and subscriptions are read from the
//! record and written to it, so whichever process serves the session's next request, or
//! serves it again after its worker was closed, has them. The [`Session`] of such a worker
//! takes the session's id ([`Session::bind`]), so the tasks it makes belong to the session,
//! not to the worker.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use futures::StreamExt as _;

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{RequestContext, SubscriptionSink};
use rmcp::{Peer, RoleServer};
use tokio::sync::oneshot;

use crate::published::Published;
use crate::state::{Event, Heard, Message, SessionRecord, State, StoreError};

/// The most resources one connection may subscribe to: a bound on what a client can make the
/// server hold.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1024;

/// A 2025-11-25 HTTP session as each of its requests carries it (the host reads the record
/// for every request): the record, and where a change to it is written.
#[derive(Clone)]
pub(crate) struct Stored {
    pub(crate) record: SessionRecord,
    pub(crate) state: State,
    /// The session's idle time, which each write starts again.
    pub(crate) idle: Duration,
}

impl Stored {
    /// The session that `request` belongs to, when it is a 2025-11-25 HTTP session's.
    pub(crate) fn of(request: &RequestContext<RoleServer>) -> Option<&Stored> {
        request.extensions.get::<Stored>()
    }

    /// Changes the session's record by `change`. A session's requests come one after
    /// another, so reading the record again and writing it is enough; a session that ended
    /// meanwhile stays ended.
    async fn change(&self, change: impl FnOnce(&mut SessionRecord)) -> Result<(), StoreError> {
        let store = self.state.store();
        let Some(mut record) = store.session(&self.record.id).await? else {
            return Err(StoreError::new(format!(
                "the session {} has ended",
                self.record.id
            )));
        };
        change(&mut record);
        store.put_session(record, self.idle).await
    }

    /// The log level the record holds.
    fn log_level(&self) -> Option<LogLevel> {
        self.record
            .log_level
            .as_deref()
            .and_then(LogLevel::from_wire)
    }
}

/// One connection: a stdio client, one HTTP request of the stateless host, or the worker of a
/// 2025-11-25 HTTP session.
pub(crate) struct Session {
    /// Its id, random, or the 2025-11-25 HTTP session's it serves: what its tasks are bound
    /// to.
    id: Mutex<String>,
    /// Its place among the subscribers of [`Updates`].
    slot: u64,
    published: &'static Published,
    /// The least severe level the client asked for with `logging/setLevel` (2025-11-25).
    level: Mutex<LogLevel>,
    updates: Arc<Updates>,
    /// Dropped with the session, which tells the tasks following it that it ended.
    alive: Mutex<Vec<oneshot::Sender<()>>>,
}

impl Session {
    /// A new connection's session; `updates` is shared by all of a server's connections.
    pub(crate) fn new(published: &'static Published, updates: Arc<Updates>) -> Self {
        Session {
            id: Mutex::new(crate::state::random_id()),
            slot: updates.next.fetch_add(1, Ordering::Relaxed),
            published,
            // Until the client sets a level, the spec lets the server choose: `info` keeps
            // debugging detail out of a client that did not ask for it.
            level: Mutex::new(LogLevel::Info),
            updates,
            alive: Mutex::default(),
        }
    }

    /// The connection's id, unique across processes: what its tasks are bound to.
    pub(crate) fn id(&self) -> String {
        lock(&self.id).clone()
    }

    /// Makes this connection the worker of the 2025-11-25 HTTP session `stored`, reached
    /// through `peer`: its id and log level are the session's, and the resource updates its
    /// record subscribes to, made here or told by another server, are sent through `peer`.
    pub(crate) fn bind(&self, stored: &Stored, peer: &Peer<RoleServer>) {
        let id = stored.record.id.clone();
        *lock(&self.id) = id.clone();
        if let Some(level) = stored.log_level() {
            self.set_log_level(level);
        }
        let subscriber = Subscriber {
            to: To::Session(peer.clone(), id),
            uris: HashMap::new(),
        };
        lock(&self.updates.subscribers).insert(self.slot, subscriber);
        self.updates.follow(self.published);
    }

    /// Whether the manifest declares that the server logs to clients.
    pub(crate) fn logs(&self) -> bool {
        self.published.spec.logging
    }

    /// The log level of `request`'s session: its record's, which any process may have
    /// changed, for a 2025-11-25 HTTP session; otherwise this connection's.
    pub(crate) fn log_level(&self, request: &RequestContext<RoleServer>) -> LogLevel {
        Stored::of(request)
            .and_then(Stored::log_level)
            .unwrap_or_else(|| *lock(&self.level))
    }

    fn set_log_level(&self, level: LogLevel) {
        *lock(&self.level) = level;
    }

    /// Sets the log level of `request`'s session (`logging/setLevel`), in its record when it
    /// has one.
    pub(crate) async fn set_level(
        &self,
        level: LogLevel,
        request: &RequestContext<RoleServer>,
    ) -> Result<(), StoreError> {
        if let Some(stored) = Stored::of(request) {
            let wire = level.as_str().to_owned();
            stored.change(|r| r.log_level = Some(wire)).await?;
        }
        self.set_log_level(level);
        Ok(())
    }

    /// Resolves when this connection's session ends (its server value is dropped).
    pub(crate) fn ended(&self) -> oneshot::Receiver<()> {
        let (alive, ended) = oneshot::channel();
        lock(&self.alive).push(alive);
        ended
    }

    /// The subscriptions of every connection of the server.
    pub(crate) fn updates(&self) -> &Arc<Updates> {
        &self.updates
    }

    /// Subscribes `request`'s connection to the resource `uri` names; a 2025-11-25 HTTP
    /// session's subscriptions are in its record, which every server delivering an update
    /// reads.
    pub(crate) async fn subscribe(
        &self,
        request: &RequestContext<RoleServer>,
        uri: &str,
    ) -> Result<(), Refused> {
        let Some(stored) = Stored::of(request) else {
            return self.subscribe_here(&request.peer, uri);
        };
        let published = self.published;
        let key = ResourceKey::of(published, uri).ok_or(Refused::NotSubscribable)?;
        if !published.spec.resources[key.0].subscribe {
            return Err(Refused::NotSubscribable);
        }
        let held = &stored.record.subscriptions;
        let known = held
            .iter()
            .any(|s| ResourceKey::of(published, s).as_ref() == Some(&key));
        if !known && held.len() >= MAX_SUBSCRIPTIONS {
            return Err(Refused::TooMany);
        }
        stored
            .change(|r| {
                (r.subscriptions).retain(|s| ResourceKey::of(published, s).as_ref() != Some(&key));
                r.subscriptions.push(uri.to_owned());
            })
            .await
            .map_err(Refused::Store)
    }

    /// Subscribes this connection, reached through `peer`, to the resource `uri` names, in
    /// this process.
    fn subscribe_here(&self, peer: &Peer<RoleServer>, uri: &str) -> Result<(), Refused> {
        let key = ResourceKey::of(self.published, uri).ok_or(Refused::NotSubscribable)?;
        if !self.published.spec.resources[key.0].subscribe {
            return Err(Refused::NotSubscribable);
        }
        let mut all = lock(&self.updates.subscribers);
        let subscriber = all.entry(self.slot).or_insert_with(|| Subscriber {
            to: To::Connection(peer.clone()),
            uris: HashMap::new(),
        });
        if subscriber.uris.len() >= MAX_SUBSCRIPTIONS && !subscriber.uris.contains_key(&key) {
            return Err(Refused::TooMany);
        }
        subscriber.uris.insert(key, uri.to_owned());
        drop(all);
        self.updates.follow(self.published);
        Ok(())
    }

    /// Unsubscribes `request`'s connection from the resource `uri` names (in its session's
    /// record, for a 2025-11-25 HTTP session).
    pub(crate) async fn unsubscribe(
        &self,
        request: &RequestContext<RoleServer>,
        uri: &str,
    ) -> Result<(), StoreError> {
        let Some(stored) = Stored::of(request) else {
            self.unsubscribe_here(uri);
            return Ok(());
        };
        let published = self.published;
        let Some(key) = ResourceKey::of(published, uri) else {
            return Ok(());
        };
        stored
            .change(|r| {
                (r.subscriptions).retain(|s| ResourceKey::of(published, s).as_ref() != Some(&key));
            })
            .await
    }

    fn unsubscribe_here(&self, uri: &str) {
        let Some(key) = ResourceKey::of(self.published, uri) else {
            return;
        };
        let mut all = lock(&self.updates.subscribers);
        if let Some(subscriber) = all.get_mut(&self.slot) {
            subscriber.uris.remove(&key);
            if subscriber.uris.is_empty() {
                all.remove(&self.slot);
            }
        }
    }

    /// Announces that the resource `uri` names changed, to every connection subscribed to it.
    pub(crate) async fn resource_updated(&self, uri: &str) {
        self.updates.resource_updated(self.published, uri).await;
    }
}

impl Drop for Session {
    /// A closed connection's subscriptions go with it.
    fn drop(&mut self) {
        lock(&self.updates.subscribers).remove(&self.slot);
    }
}

/// The resource subscriptions of every connection of a server, and the relay that delivers
/// to them the updates other servers sharing its [`State`] publish.
pub(crate) struct Updates {
    next: AtomicU64,
    subscribers: Mutex<HashMap<u64, Subscriber>>,
    state: State,
    /// This server's name on the bus: it delivers its own updates itself, at once, and passes
    /// over them when they come back.
    origin: String,
    /// The relay, once a client subscribed.
    relay: OnceLock<tokio::task::AbortHandle>,
}

impl Drop for Updates {
    fn drop(&mut self) {
        if let Some(relay) = self.relay.get() {
            relay.abort();
        }
    }
}

/// Why a subscription was refused.
pub(crate) enum Refused {
    /// The URI names no resource marked `subscribe: true`.
    NotSubscribable,
    /// The connection holds [`MAX_SUBSCRIPTIONS`] others.
    TooMany,
    /// The session's record was not read or written.
    Store(StoreError),
}

/// A resource as the server knows it, whatever escapes a client wrote (`a%2fb` and `a%2Fb`
/// are one resource): its index, with its template's values decoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ResourceKey(usize, Vec<String>);

impl ResourceKey {
    fn of(published: &Published, uri: &str) -> Option<ResourceKey> {
        published
            .resource(uri)
            .map(|(index, values)| ResourceKey(index, values))
    }
}

struct Subscriber {
    to: To,
    /// Each resource subscribed to, with the URI as the client wrote it: the one its updates
    /// carry.
    uris: HashMap<ResourceKey, String>,
}

/// Where a subscriber's updates go.
#[derive(Clone)]
enum To {
    /// A 2025-11-25 connection that called `resources/subscribe`.
    Connection(Peer<RoleServer>),
    /// A 2026-07-28 `subscriptions/listen` stream that asked for `resourceSubscriptions`.
    Stream(SubscriptionSink),
    /// The worker of a 2025-11-25 HTTP session, by the session's id: what it subscribes to is
    /// in its record.
    Session(Peer<RoleServer>, String),
}

/// A listen stream's resource subscriptions, held while it is open and dropped with it.
pub(crate) struct Listening {
    updates: Arc<Updates>,
    id: u64,
}

impl Drop for Listening {
    fn drop(&mut self) {
        lock(&self.updates.subscribers).remove(&self.id);
    }
}

impl Updates {
    /// The subscriptions of a server whose updates are published on `state`.
    pub(crate) fn new(state: State) -> Self {
        Updates {
            next: AtomicU64::default(),
            subscribers: Mutex::default(),
            state,
            origin: crate::state::random_id(),
            relay: OnceLock::new(),
        }
    }

    /// Tells every connection subscribed to the resource `uri` names, here and on every
    /// server sharing the state, that it changed.
    pub(crate) async fn resource_updated(&self, published: &Published, uri: &str) {
        self.deliver(published, uri).await;
        let message = Message {
            from: self.origin.clone(),
            event: Event::ResourceUpdated(uri.to_owned()),
        };
        if let Err(e) = self.state.store().publish(message).await {
            let why = "a resource update was not published to other servers";
            tracing::error!(error = %e, uri, "{why}");
        }
    }

    /// Delivers, from now on, the updates other servers publish to this one's subscribers.
    fn follow(self: &Arc<Self>, published: &'static Published) {
        self.relay.get_or_init(|| {
            let (updates, state) = (Arc::downgrade(self), self.state.clone());
            let origin = self.origin.clone();
            let relay = async move {
                let mut heard = match state.store().subscribe().await {
                    Ok(heard) => heard,
                    Err(e) => {
                        let why = "other servers' resource updates are not followed";
                        tracing::error!(error = %e, "{why}");
                        return;
                    }
                };
                while let Some(heard) = heard.next().await {
                    let Heard::Message(Message {
                        from,
                        event: Event::ResourceUpdated(uri),
                    }) = heard
                    else {
                        continue;
                    };
                    let Some(updates) = updates.upgrade() else {
                        return;
                    };
                    if from != origin {
                        updates.deliver(published, &uri).await;
                    }
                }
            };
            tokio::spawn(relay).abort_handle()
        });
    }

    /// Sends `notifications/resources/updated` to every connection of this server subscribed
    /// to the resource `uri` names, with the URI each subscribed with.
    async fn deliver(&self, published: &Published, uri: &str) {
        let Some(key) = ResourceKey::of(published, uri) else {
            return;
        };
        let mut subscribers: Vec<(To, String)> = Vec::new();
        let mut sessions: Vec<(Peer<RoleServer>, String)> = Vec::new();
        for s in lock(&self.subscribers).values() {
            match &s.to {
                To::Session(peer, id) => sessions.push((peer.clone(), id.clone())),
                to => subscribers.extend(s.uris.get(&key).map(|uri| (to.clone(), uri.clone()))),
            }
        }
        // Read now, several at a time (a remote store's round trips overlap, and a process
        // with many sessions does not flood it): the subscription may have been made through
        // another server.
        let store = self.state.store();
        let reads: Vec<_> = sessions.iter().map(|(_, id)| store.session(id)).collect();
        let records: Vec<_> = futures::stream::iter(reads).buffered(32).collect().await;
        for ((peer, id), record) in sessions.into_iter().zip(records) {
            let record = match record {
                Ok(Some(record)) => record,
                Ok(None) => continue,
                Err(e) => {
                    tracing::error!(error = %e, session = %id, "a session's subscriptions were not read");
                    continue;
                }
            };
            let subscribed = (record.subscriptions.into_iter())
                .find(|s| ResourceKey::of(published, s).as_ref() == Some(&key));
            subscribers.extend(subscribed.map(|uri| (To::Connection(peer), uri)));
        }
        for (to, uri) in subscribers {
            let sent = match to {
                To::Connection(peer) | To::Session(peer, _) => peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri.as_str()))
                    .await
                    .map_err(|e| e.to_string()),
                To::Stream(sink) => sink
                    .notify_resource_updated(uri.as_str())
                    .await
                    .map_err(|e| e.to_string()),
            };
            if let Err(e) = sent {
                tracing::debug!(error = %e, uri, "a resource update was not sent");
            }
        }
    }

    /// Subscribes a listen stream to the resources `uris` name (already accepted: each names
    /// a subscribable resource), until the returned guard is dropped.
    pub(crate) fn listen(
        self: &Arc<Self>,
        published: &'static Published,
        sink: SubscriptionSink,
        uris: impl IntoIterator<Item = String>,
    ) -> Listening {
        self.follow(published);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let uris: HashMap<ResourceKey, String> = uris
            .into_iter()
            .filter_map(|uri| Some((ResourceKey::of(published, &uri)?, uri)))
            .take(MAX_SUBSCRIPTIONS)
            .collect();
        if !uris.is_empty() {
            let to = To::Stream(sink);
            lock(&self.subscribers).insert(id, Subscriber { to, uris });
        }
        Listening {
            updates: Arc::clone(self),
            id,
        }
    }
}

/// The lock, whether or not a panicking holder poisoned it: the data stays consistent, each
/// change being one assignment or insertion.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The severity of a log message, least severe first (RFC 5424's levels, as MCP names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Normal events.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warnings.
    Warning,
    /// Errors.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The name on the wire, such as `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// The level named `name` on the wire.
    pub fn from_wire(name: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.as_str() == name)
    }
}
