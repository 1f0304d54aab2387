//! The store of one process: everything in memory, behind locks held for one operation each,
//! so every operation is atomic and seen at once by every later one.

use std::collections::{BTreeSet, HashMap};
use std::sync::{LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use tokio::sync::broadcast;

use super::{
    EventBus, Events, Heard, Key, KeyRing, KeyStore, Message, Owner, Rotation, SessionRecord,
    SessionStore, StoreError, StoreFuture, Swapped, TaskBounds, TaskRecord, TaskStore, Versioned,
    now_ms,
};

/// How many events a listener may fall behind before it is told it missed some.
const BACKLOG: usize = 1024;

/// The request-state key ring every in-memory store of this process starts with: one random
/// key, made once, so that every server of the process opens what another sealed (until a
/// store rotates its own).
static PROCESS_RING: LazyLock<KeyRing> = LazyLock::new(|| {
    let mut key = vec![0u8; 32];
    getrandom::fill(&mut key).expect("the operating system's random source");
    KeyRing {
        current: Key(key),
        since: now_ms(),
        previous: None,
    }
});

/// Everything a server keeps between requests, in this process: the default store. A
/// deployment of several processes needs a store they share.
pub struct MemoryStore {
    tasks: Mutex<Tasks>,
    sessions: Mutex<Sessions>,
    events: broadcast::Sender<Message>,
    keys: Mutex<Option<KeyRing>>,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore {
            tasks: Mutex::default(),
            sessions: Mutex::default(),
            events: broadcast::Sender::new(BACKLOG),
            keys: Mutex::default(),
        }
    }
}

#[derive(Default)]
struct Tasks {
    entries: HashMap<String, Entry>,
    /// Bumped by every write: the next version, and the order of making among tasks made in
    /// the same millisecond.
    writes: u64,
}

struct Entry {
    record: TaskRecord,
    version: u64,
    made: u64,
}

impl Tasks {
    /// Forgets what expired.
    fn sweep(&mut self) {
        let now = now_ms();
        self.entries.retain(|_, e| e.record.expires_ms > now);
    }

    fn room(&mut self, bounds: TaskBounds, make: bool) -> bool {
        self.sweep();
        let live = self.entries.values().filter(|e| e.record.is_live()).count();
        if live >= bounds.max_live {
            return false;
        }
        if self.entries.len() < bounds.max_kept {
            return true;
        }
        let oldest = (self.entries.iter())
            .filter(|(_, e)| !e.record.is_live())
            .min_by_key(|(_, e)| (e.record.made_ms, e.made))
            .map(|(id, _)| id.clone());
        match oldest {
            Some(id) => {
                if make {
                    self.entries.remove(&id);
                }
                true
            }
            None => false,
        }
    }
}

/// The session records, and the moment each is forgotten in order, so that forgetting the
/// idle ones costs only what is forgotten, however many are kept.
#[derive(Default)]
struct Sessions {
    kept: HashMap<String, Kept>,
    /// `(until, id)` of every kept record, soonest first.
    expiry: BTreeSet<(Instant, String)>,
}

impl Sessions {
    /// Forgets the records idle past their time.
    fn sweep(&mut self, now: Instant) {
        while let Some(first) = self.expiry.first()
            && first.0 <= now
        {
            if let Some((_, id)) = self.expiry.pop_first() {
                self.kept.remove(&id);
            }
        }
    }

    fn put(&mut self, record: SessionRecord, idle: Duration, now: Instant) {
        self.remove(&record.id);
        let until = now + idle;
        self.expiry.insert((until, record.id.clone()));
        let id = record.id.clone();
        self.kept.insert(
            id,
            Kept {
                record,
                idle,
                until,
            },
        );
    }

    fn remove(&mut self, id: &str) -> bool {
        let Some(kept) = self.kept.remove(id) else {
            return false;
        };
        self.expiry.remove(&(kept.until, kept.record.id));
        true
    }
}

/// A session record, with the moment it is forgotten.
struct Kept {
    record: SessionRecord,
    idle: Duration,
    until: Instant,
}

/// The lock, whether or not a panicking holder poisoned it: every change is one assignment or
/// insertion, so the data stays consistent.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

fn ready<T: Send + 'static>(value: Result<T, StoreError>) -> StoreFuture<'static, T> {
    Box::pin(std::future::ready(value))
}

impl TaskStore for MemoryStore {
    fn create_task(&self, record: TaskRecord, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        let mut tasks = lock(&self.tasks);
        let id = record.id().to_owned();
        tasks.sweep();
        if tasks.entries.contains_key(&id) {
            return ready(Err(StoreError::new(format!("task {id} exists already"))));
        }
        if !tasks.room(bounds, true) {
            return ready(Ok(false));
        }
        tasks.writes += 1;
        let made = tasks.writes;
        let entry = Entry {
            record,
            version: made,
            made,
        };
        tasks.entries.insert(id, entry);
        ready(Ok(true))
    }

    fn has_room(&self, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        ready(Ok(lock(&self.tasks).room(bounds, false)))
    }

    fn task(&self, id: &str) -> StoreFuture<'_, Option<Versioned<TaskRecord>>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep();
        let found = tasks.entries.get(id).map(|e| Versioned {
            value: e.record.clone(),
            version: e.version,
        });
        ready(Ok(found))
    }

    fn swap_task(&self, id: &str, version: u64, record: TaskRecord) -> StoreFuture<'_, Swapped> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep();
        tasks.writes += 1;
        let next = tasks.writes;
        let swapped = match tasks.entries.get_mut(id) {
            None => Swapped::Gone,
            Some(entry) if entry.version != version => Swapped::Conflict,
            Some(entry) => {
                entry.record = record;
                entry.version = next;
                Swapped::Done(next)
            }
        };
        ready(Ok(swapped))
    }

    fn remove_task(&self, id: &str) -> StoreFuture<'_, bool> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep();
        ready(Ok(tasks.entries.remove(id).is_some()))
    }

    fn tasks_of(&self, owner: &Owner) -> StoreFuture<'_, Vec<TaskRecord>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep();
        let mut mine: Vec<&Entry> = (tasks.entries.values())
            .filter(|e| e.record.owner == *owner)
            .collect();
        mine.sort_by_key(|e| (e.record.made_ms, e.made));
        ready(Ok(mine.into_iter().map(|e| e.record.clone()).collect()))
    }
}

impl SessionStore for MemoryStore {
    fn create_session(
        &self,
        record: SessionRecord,
        idle: Duration,
        max: usize,
    ) -> StoreFuture<'_, bool> {
        let mut sessions = lock(&self.sessions);
        let now = Instant::now();
        sessions.sweep(now);
        if sessions.kept.len() >= max {
            return ready(Ok(false));
        }
        sessions.put(record, idle, now);
        ready(Ok(true))
    }

    fn put_session(&self, record: SessionRecord, idle: Duration) -> StoreFuture<'_, ()> {
        let mut sessions = lock(&self.sessions);
        let now = Instant::now();
        sessions.sweep(now);
        sessions.put(record, idle, now);
        ready(Ok(()))
    }

    fn session(&self, id: &str) -> StoreFuture<'_, Option<SessionRecord>> {
        let mut sessions = lock(&self.sessions);
        let now = Instant::now();
        sessions.sweep(now);
        let Sessions { kept, expiry } = &mut *sessions;
        let found = kept.get_mut(id).map(|kept| {
            expiry.remove(&(kept.until, kept.record.id.clone()));
            kept.until = now + kept.idle;
            expiry.insert((kept.until, kept.record.id.clone()));
            kept.record.last_used_ms = now_ms();
            kept.record.clone()
        });
        ready(Ok(found))
    }

    fn remove_session(&self, id: &str) -> StoreFuture<'_, bool> {
        let mut sessions = lock(&self.sessions);
        sessions.sweep(Instant::now());
        ready(Ok(sessions.remove(id)))
    }
}

impl EventBus for MemoryStore {
    fn publish(&self, message: Message) -> StoreFuture<'_, ()> {
        // No listener is no error: nobody was there to hear it.
        let _ = self.events.send(message);
        ready(Ok(()))
    }

    fn subscribe(&self) -> StoreFuture<'_, Events> {
        let heard = futures::stream::unfold(self.events.subscribe(), |mut events| async move {
            let heard = match events.recv().await {
                Ok(message) => Heard::Message(message),
                Err(broadcast::error::RecvError::Lagged(_)) => Heard::Missed,
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            Some((heard, events))
        });
        ready(Ok(heard.boxed()))
    }
}

impl KeyStore for MemoryStore {
    fn keys(&self) -> StoreFuture<'_, KeyRing> {
        let mut keys = lock(&self.keys);
        ready(Ok(keys.get_or_insert_with(|| PROCESS_RING.clone()).clone()))
    }

    fn rotate_keys(&self, key: Key, rotation: Rotation) -> StoreFuture<'_, KeyRing> {
        let mut keys = lock(&self.keys);
        let ring = keys.get_or_insert_with(|| PROCESS_RING.clone());
        if rotation.is_due(ring) {
            ring.previous = Some(std::mem::replace(&mut ring.current, key));
            ring.since = rotation.at;
        }
        ready(Ok(ring.clone()))
    }
}
