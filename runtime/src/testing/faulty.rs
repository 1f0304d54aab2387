//! A store that fails when a test says: the in-memory store, with parts of it refusing or
//! never answering, as a remote store does when it cannot be reached or hangs.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::state::{
    EventBus, Events, Key, KeyRing, KeyStore, MemoryStore, Message, Owner, Rotation, SessionRecord,
    SessionStore, StoreError, StoreFuture, Swapped, TaskBounds, TaskRecord, TaskStore, Versioned,
};

/// A part of a store a fault is put on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Writing tasks (made, changed, removed); reading them still works.
    TaskWrites,
    /// Every session operation.
    Sessions,
    /// Reading and rotating the request-state key ring.
    Keys,
}

/// How a part fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// At once, with a [`StoreError`] ("connection refused").
    Refuse,
    /// Never: the operation does not answer, as a store behind a lost connection.
    Hang,
}

/// A [`MemoryStore`] whose [`Part`]s fail while a test [`breaks`](FaultyStore::breaks) them,
/// until it [`mends`](FaultyStore::mend) them. Clones share the store and its faults: give
/// one to the server (`State::new`) and keep one.
#[derive(Clone, Default)]
pub struct FaultyStore {
    store: Arc<MemoryStore>,
    faults: Arc<Mutex<Vec<(Part, Fault)>>>,
}

impl FaultyStore {
    /// A store with nothing broken.
    pub fn new() -> Self {
        FaultyStore::default()
    }

    /// Makes `part` fail as `fault` says, from now on.
    pub fn breaks(&self, part: Part, fault: Fault) {
        let mut faults = self.faults();
        faults.retain(|(p, _)| *p != part);
        faults.push((part, fault));
    }

    /// Makes `part` work again.
    pub fn mend(&self, part: Part) {
        self.faults().retain(|(p, _)| *p != part);
    }

    fn faults(&self) -> MutexGuard<'_, Vec<(Part, Fault)>> {
        self.faults.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `works`, unless `part` is broken.
    fn or<'a, T: Send + 'static>(
        &'a self,
        part: Part,
        works: impl FnOnce() -> StoreFuture<'a, T>,
    ) -> StoreFuture<'a, T> {
        let fault = self.faults().iter().find(|(p, _)| *p == part).map(|f| f.1);
        match fault {
            None => works(),
            Some(Fault::Refuse) => Box::pin(async { Err(StoreError::new("connection refused")) }),
            Some(Fault::Hang) => Box::pin(std::future::pending()),
        }
    }
}

impl TaskStore for FaultyStore {
    fn create_task(&self, record: TaskRecord, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        self.or(Part::TaskWrites, || self.store.create_task(record, bounds))
    }
    fn has_room(&self, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        self.store.has_room(bounds)
    }
    fn task(&self, id: &str) -> StoreFuture<'_, Option<Versioned<TaskRecord>>> {
        self.store.task(id)
    }
    fn swap_task(&self, id: &str, version: u64, record: TaskRecord) -> StoreFuture<'_, Swapped> {
        self.or(Part::TaskWrites, || {
            self.store.swap_task(id, version, record)
        })
    }
    fn remove_task(&self, id: &str) -> StoreFuture<'_, bool> {
        self.or(Part::TaskWrites, || self.store.remove_task(id))
    }
    fn tasks_of(&self, owner: &Owner) -> StoreFuture<'_, Vec<TaskRecord>> {
        self.store.tasks_of(owner)
    }
}

impl SessionStore for FaultyStore {
    fn create_session(
        &self,
        record: SessionRecord,
        idle: Duration,
        max: usize,
    ) -> StoreFuture<'_, bool> {
        self.or(Part::Sessions, || {
            self.store.create_session(record, idle, max)
        })
    }
    fn put_session(&self, record: SessionRecord, idle: Duration) -> StoreFuture<'_, ()> {
        self.or(Part::Sessions, || self.store.put_session(record, idle))
    }
    fn session(&self, id: &str) -> StoreFuture<'_, Option<SessionRecord>> {
        self.or(Part::Sessions, || self.store.session(id))
    }
    fn remove_session(&self, id: &str) -> StoreFuture<'_, bool> {
        self.or(Part::Sessions, || self.store.remove_session(id))
    }
}

impl EventBus for FaultyStore {
    fn publish(&self, message: Message) -> StoreFuture<'_, ()> {
        self.store.publish(message)
    }
    fn subscribe(&self) -> StoreFuture<'_, Events> {
        self.store.subscribe()
    }
}

impl KeyStore for FaultyStore {
    fn keys(&self) -> StoreFuture<'_, KeyRing> {
        self.or(Part::Keys, || self.store.keys())
    }
    fn rotate_keys(&self, key: Key, rotation: Rotation) -> StoreFuture<'_, KeyRing> {
        self.or(Part::Keys, || self.store.rotate_keys(key, rotation))
    }
}
