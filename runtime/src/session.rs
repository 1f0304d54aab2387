//! What a server remembers about one connection (its log level, its resource subscriptions),
//! and the subscriptions of every connection, to announce a resource's changes: those made
//! through this server at once, those published by another server sharing its
//! [`State`] when they come on its bus.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use futures::StreamExt as _;

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};
use tokio::sync::oneshot;

use crate::published::Published;
use crate::state::{Event, Heard, Message, State};

/// The most resources one connection may subscribe to: a bound on what a client can make the
/// server hold.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1024;

/// One connection: a stdio client, or one HTTP request of the stateless host.
pub(crate) struct Session {
    /// Its id, random: what its tasks are bound to.
    id: String,
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
            id: crate::state::random_id(),
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
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// Whether the manifest declares that the server logs to clients.
    pub(crate) fn logs(&self) -> bool {
        self.published.spec.logging
    }

    pub(crate) fn log_level(&self) -> LogLevel {
        *lock(&self.level)
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        *lock(&self.level) = level;
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

    /// Subscribes this connection, reached through `peer`, to the resource `uri` names.
    pub(crate) fn subscribe(&self, peer: &Peer<RoleServer>, uri: &str) -> Result<(), Refused> {
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

    pub(crate) fn unsubscribe(&self, uri: &str) {
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
        let subscribers: Vec<(To, String)> = lock(&self.subscribers)
            .values()
            .filter_map(|s| Some((s.to.clone(), s.uris.get(&key)?.clone())))
            .collect();
        for (to, uri) in subscribers {
            let sent = match to {
                To::Connection(peer) => peer
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
