//! What a server remembers about one connection (its log level, its resource subscriptions),
//! and the subscriptions of every connection, to announce a resource's changes.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::{Peer, RoleServer};

use crate::context::LogLevel;

/// The most resources one connection may subscribe to: a bound on what a client can make the
/// server hold.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1024;

/// One connection: a stdio client, or one HTTP request of the stateless host.
pub(crate) struct Session {
    id: u64,
    /// Whether the manifest declares that the server logs to clients.
    logs: bool,
    /// The least severe level the client asked for with `logging/setLevel` (2025-11-25).
    level: Mutex<LogLevel>,
    updates: Arc<Updates>,
}

impl Session {
    /// A new connection's session; `updates` is shared by all of a server's connections.
    pub(crate) fn new(logs: bool, updates: Arc<Updates>) -> Self {
        Session {
            id: updates.next.fetch_add(1, Ordering::Relaxed),
            logs,
            // Until the client sets a level, the spec lets the server choose: `info` keeps
            // debugging detail out of a client that did not ask for it.
            level: Mutex::new(LogLevel::Info),
            updates,
        }
    }

    pub(crate) fn logs(&self) -> bool {
        self.logs
    }

    pub(crate) fn log_level(&self) -> LogLevel {
        *lock(&self.level)
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        *lock(&self.level) = level;
    }

    /// The subscriptions of every connection of the server.
    pub(crate) fn updates(&self) -> &Arc<Updates> {
        &self.updates
    }

    /// Subscribes this connection, reached through `peer`, to `uri`; `false` when it already
    /// holds [`MAX_SUBSCRIPTIONS`] others.
    pub(crate) fn subscribe(&self, peer: &Peer<RoleServer>, uri: &str) -> bool {
        let mut all = lock(&self.updates.subscribers);
        let subscriber = all.entry(self.id).or_insert_with(|| Subscriber {
            peer: peer.clone(),
            uris: HashSet::new(),
        });
        if subscriber.uris.len() >= MAX_SUBSCRIPTIONS && !subscriber.uris.contains(uri) {
            return false;
        }
        subscriber.uris.insert(uri.to_owned());
        true
    }

    pub(crate) fn unsubscribe(&self, uri: &str) {
        let mut all = lock(&self.updates.subscribers);
        if let Some(subscriber) = all.get_mut(&self.id) {
            subscriber.uris.remove(uri);
            if subscriber.uris.is_empty() {
                all.remove(&self.id);
            }
        }
    }
}

impl Drop for Session {
    /// A closed connection's subscriptions go with it.
    fn drop(&mut self) {
        lock(&self.updates.subscribers).remove(&self.id);
    }
}

/// The resource subscriptions of every connection of a server.
#[derive(Default)]
pub(crate) struct Updates {
    next: AtomicU64,
    subscribers: Mutex<HashMap<u64, Subscriber>>,
}

struct Subscriber {
    peer: Peer<RoleServer>,
    uris: HashSet<String>,
}

impl Updates {
    /// Sends `notifications/resources/updated` for `uri` to every connection subscribed to it.
    pub(crate) async fn resource_updated(&self, uri: &str) {
        let peers: Vec<Peer<RoleServer>> = lock(&self.subscribers)
            .values()
            .filter(|s| s.uris.contains(uri))
            .map(|s| s.peer.clone())
            .collect();
        for peer in peers {
            let param = ResourceUpdatedNotificationParam::new(uri);
            if let Err(e) = peer.notify_resource_updated(param).await {
                tracing::debug!(error = %e, uri, "a resource update was not sent");
            }
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
