//! The test suite every [`Store`] passes: the consistency the runtime relies on, checked
//! against any implementation.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use std::panic::AssertUnwindSafe;

use futures::future::BoxFuture;
use futures::{FutureExt as _, StreamExt as _};
use rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use serde_json::json;

use crate::state::{
    Event, Heard, Key, KeyRing, ListKind, Message, Owner, Rotation, SessionRecord, State, Store,
    Swapped, TaskBounds, TaskRecord, Versioned, now_ms,
};

type Check = fn(State) -> BoxFuture<'static, ()>;

/// The suite's checks, each by its function's name.
macro_rules! checks {
    ($($check:ident),* $(,)?) => {
        &[$((stringify!($check), |s| Box::pin($check(s))),)*]
    };
}

/// Every check of the suite, by name.
const CHECKS: &[(&str, Check)] = checks![
    a_task_reads_back_as_it_was_stored,
    a_task_id_is_stored_once,
    a_change_names_the_version_it_read,
    of_racing_changes_exactly_one_wins,
    changes_read_again_after_a_conflict_lose_nothing,
    a_lapsed_lease_is_taken_over_by_one_process,
    live_tasks_are_bounded_and_the_oldest_finished_make_room,
    an_expired_task_is_never_answered,
    tasks_are_listed_by_owner_oldest_first,
    a_removed_task_is_gone,
    a_session_is_kept_while_used_and_forgotten_when_idle,
    sessions_are_bounded_and_idle_ones_make_room,
    every_listener_hears_every_event_in_order,
    the_key_ring_is_made_once_and_rotates,
];

/// The names of the suite's checks, in the order [`state_suite`] runs them.
pub fn state_checks() -> impl Iterator<Item = &'static str> {
    CHECKS.iter().map(|(name, _)| *name)
}

/// Runs every check of the suite, each on a new store from `make`, and panics naming the
/// first that fails. Each store must be empty and not shared with another check (a remote
/// store: a fresh namespace each time). Run it on the real clock (not tokio's paused one):
/// expiry is checked by waiting.
pub async fn state_suite<S: Store>(make: impl Fn() -> S) {
    for (name, check) in CHECKS {
        let ran = AssertUnwindSafe(check(State::new(make())))
            .catch_unwind()
            .await;
        if let Err(panic) = ran {
            let why = (panic.downcast_ref::<String>().cloned())
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            panic!("state suite, `{name}`: {why}");
        }
    }
}

const BOUNDS: TaskBounds = TaskBounds {
    max_live: 64,
    max_kept: 1024,
};

/// A working task of `owner`, made `made_ms`, kept a minute.
fn record(id: &str, owner: Owner, made_ms: u64) -> TaskRecord {
    let at = rmcp::task_manager::current_timestamp();
    let task = Task::new(id.to_owned(), TaskStatus::Working, at.clone(), at)
        .with_ttl_ms(60_000)
        .with_poll_interval_ms(500);
    TaskRecord {
        task: DetailedTask::new(task, TaskPayload::Working),
        owner,
        tool: "slow".to_owned(),
        arguments: json!({"n": 1, "deep": {"b": [1, 2]}})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        answers: Default::default(),
        made_ms,
        expires_ms: now_ms() + 60_000,
        lease: None,
    }
}

fn finished(mut record: TaskRecord) -> TaskRecord {
    let result = json!({"content": [], "isError": false});
    record.task = DetailedTask::new(
        record.task.task,
        TaskPayload::Completed {
            result: result.as_object().cloned().unwrap_or_default(),
        },
    );
    record
}

async fn read(state: &State, id: &str) -> Versioned<TaskRecord> {
    state
        .store()
        .task(id)
        .await
        .expect("the store answers")
        .unwrap_or_else(|| panic!("task {id} is stored"))
}

async fn a_task_reads_back_as_it_was_stored(state: State) {
    let store = state.store();
    let mut made = record("t1", Owner::Caller("alice".into()), now_ms());
    made.answers.insert("q".into(), json!({"action": "accept"}));
    made.lease = Some(crate::state::Lease {
        holder: "here".into(),
        until_ms: now_ms() + 1000,
    });
    assert_eq!(store.create_task(made.clone(), BOUNDS).await, Ok(true));
    // Stored before the call returned: the very next read finds it, whole.
    assert_eq!(read(&state, "t1").await.value, made);
    assert_eq!(store.task("t2").await, Ok(None), "an unknown id is none");
}

async fn a_task_id_is_stored_once(state: State) {
    let store = state.store();
    let first = record("t1", Owner::Holder, now_ms());
    assert_eq!(store.create_task(first.clone(), BOUNDS).await, Ok(true));
    let second = record("t1", Owner::Caller("mallory".into()), now_ms());
    assert!(
        store.create_task(second, BOUNDS).await.is_err(),
        "storing an id twice is an error, not an overwrite"
    );
    assert_eq!(read(&state, "t1").await.value, first);
}

async fn a_change_names_the_version_it_read(state: State) {
    let store = state.store();
    store
        .create_task(record("t1", Owner::Holder, now_ms()), BOUNDS)
        .await
        .expect("stored");
    let Versioned { value, version } = read(&state, "t1").await;
    let done = finished(value.clone());
    let Ok(Swapped::Done(next)) = store.swap_task("t1", version, done.clone()).await else {
        panic!("the version read is the version stored");
    };
    assert_ne!(next, version, "a write changes the version");
    let now = read(&state, "t1").await;
    assert_eq!((now.value, now.version), (done, next));
    assert_eq!(
        store.swap_task("t1", version, value.clone()).await,
        Ok(Swapped::Conflict),
        "a stale version changes nothing"
    );
    assert_eq!(read(&state, "t1").await.version, next);
    assert_eq!(
        store.swap_task("t9", version, value).await,
        Ok(Swapped::Gone)
    );
}

async fn of_racing_changes_exactly_one_wins(state: State) {
    let store = state.store();
    store
        .create_task(record("t1", Owner::Holder, now_ms()), BOUNDS)
        .await
        .expect("stored");
    let Versioned { value, version } = read(&state, "t1").await;
    let racers = (0..16).map(|i| {
        let mut mine = value.clone();
        mine.answers.insert(format!("racer{i}"), json!(i));
        store.swap_task("t1", version, mine)
    });
    let swapped = futures::future::join_all(racers).await;
    let won: Vec<usize> = (swapped.iter().enumerate())
        .filter(|(_, s)| matches!(s, Ok(Swapped::Done(_))))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(won.len(), 1, "{swapped:?}");
    assert!(
        swapped
            .iter()
            .all(|s| matches!(s, Ok(Swapped::Done(_) | Swapped::Conflict))),
        "{swapped:?}"
    );
    let stored = read(&state, "t1").await.value;
    assert_eq!(
        stored.answers.keys().collect::<Vec<_>>(),
        [&format!("racer{}", won[0])]
    );
}

async fn changes_read_again_after_a_conflict_lose_nothing(state: State) {
    state
        .store()
        .create_task(record("t1", Owner::Holder, now_ms()), BOUNDS)
        .await
        .expect("stored");
    let changes = (0..16).map(|i| {
        let state = state.clone();
        tokio::spawn(async move {
            state
                .change_task("t1", |r| {
                    r.answers.insert(format!("q{i}"), json!(i));
                    true
                })
                .await
        })
    });
    for changed in futures::future::join_all(changes).await {
        assert!(matches!(changed, Ok(Ok(Some(_)))), "{changed:?}");
    }
    let answers: BTreeSet<String> = read(&state, "t1").await.value.answers.into_keys().collect();
    assert_eq!(answers, (0..16).map(|i| format!("q{i}")).collect());
    assert_eq!(
        state.change_task("t9", |_| true).await,
        Ok(None),
        "no such task"
    );
}

async fn a_lapsed_lease_is_taken_over_by_one_process(state: State) {
    let mut made = record("t1", Owner::Holder, now_ms());
    made.lease = Some(crate::state::Lease {
        holder: "gone".into(),
        until_ms: now_ms().saturating_sub(1),
    });
    state
        .store()
        .create_task(made, BOUNDS)
        .await
        .expect("stored");
    let takers = (0..8).map(|i| {
        let state = state.clone();
        tokio::spawn(async move {
            let mut took = false;
            state
                .change_task("t1", |r| {
                    took = r.lease.as_ref().is_none_or(|l| l.until_ms < now_ms());
                    if took {
                        r.lease = Some(crate::state::Lease {
                            holder: format!("p{i}"),
                            until_ms: now_ms() + 60_000,
                        });
                    }
                    took
                })
                .await
                .expect("the store answers");
            took
        })
    });
    let took = futures::future::join_all(takers).await;
    let winners = took.iter().filter(|t| matches!(t, Ok(true))).count();
    assert_eq!(winners, 1, "{took:?}");
}

async fn live_tasks_are_bounded_and_the_oldest_finished_make_room(state: State) {
    let store = state.store();
    let bounds = TaskBounds {
        max_live: 2,
        max_kept: 3,
    };
    let t = now_ms();
    for (i, id) in ["a", "b"].into_iter().enumerate() {
        let made = record(id, Owner::Holder, t + i as u64);
        assert_eq!(store.create_task(made, bounds).await, Ok(true), "{id}");
    }
    assert_eq!(store.has_room(bounds).await, Ok(false), "two live of two");
    let refused = record("c", Owner::Holder, t + 2);
    assert_eq!(store.create_task(refused, bounds).await, Ok(false));
    assert_eq!(
        store.task("c").await,
        Ok(None),
        "a refused task is not stored"
    );
    // Both finish: three kept at most, the oldest finished goes first.
    for id in ["a", "b"] {
        let Versioned { value, version } = read(&state, id).await;
        let swapped = store.swap_task(id, version, finished(value)).await;
        assert!(matches!(swapped, Ok(Swapped::Done(_))), "{id}");
    }
    assert_eq!(store.has_room(bounds).await, Ok(true));
    for (i, id) in ["c", "d"].into_iter().enumerate() {
        let made = record(id, Owner::Holder, t + 2 + i as u64);
        assert_eq!(store.create_task(made, bounds).await, Ok(true), "{id}");
    }
    assert_eq!(
        store.task("a").await,
        Ok(None),
        "the oldest finished made room"
    );
    assert!(matches!(store.task("b").await, Ok(Some(_))));
    // Two live, nothing finished left to forget but `b`; then nothing at all.
    assert_eq!(store.has_room(bounds).await, Ok(false));
}

async fn an_expired_task_is_never_answered(state: State) {
    let store = state.store();
    let owner = Owner::Caller("alice".into());
    let mut short = record("short", owner.clone(), now_ms());
    short.expires_ms = now_ms() + 150;
    store.create_task(short, BOUNDS).await.expect("stored");
    store
        .create_task(record("long", owner.clone(), now_ms()), BOUNDS)
        .await
        .expect("stored");
    assert!(matches!(store.task("short").await, Ok(Some(_))));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(store.task("short").await, Ok(None));
    let Versioned { value, version } = read(&state, "long").await;
    let mine = store.tasks_of(&owner).await.expect("the store answers");
    assert_eq!(
        mine.iter().map(TaskRecord::id).collect::<Vec<_>>(),
        ["long"]
    );
    let mut revived = value;
    revived.task.task.task_id = "short".into();
    assert_eq!(
        store.swap_task("short", version, revived).await,
        Ok(Swapped::Gone),
        "an expired task cannot be changed back to life"
    );
}

async fn tasks_are_listed_by_owner_oldest_first(state: State) {
    let store = state.store();
    let (alice, bob) = (Owner::Caller("alice".into()), Owner::Session("s1".into()));
    let t = now_ms();
    // Made out of order, and by several owners.
    for (id, owner, made) in [
        ("a3", &alice, t + 3),
        ("b1", &bob, t + 1),
        ("a1", &alice, t + 1),
        ("h", &Owner::Holder, t),
        ("a2", &alice, t + 2),
    ] {
        store
            .create_task(record(id, owner.clone(), made), BOUNDS)
            .await
            .expect("stored");
    }
    let ids = |tasks: Vec<TaskRecord>| tasks.iter().map(|r| r.id().to_owned()).collect::<Vec<_>>();
    assert_eq!(
        ids(store.tasks_of(&alice).await.unwrap()),
        ["a1", "a2", "a3"]
    );
    assert_eq!(ids(store.tasks_of(&bob).await.unwrap()), ["b1"]);
    assert_eq!(
        ids(store
            .tasks_of(&Owner::Caller("carol".into()))
            .await
            .unwrap()),
        Vec::<String>::new()
    );
}

async fn a_removed_task_is_gone(state: State) {
    let store = state.store();
    store
        .create_task(record("t1", Owner::Holder, now_ms()), BOUNDS)
        .await
        .expect("stored");
    assert_eq!(store.remove_task("t1").await, Ok(true));
    assert_eq!(store.task("t1").await, Ok(None));
    assert_eq!(store.remove_task("t1").await, Ok(false));
    assert_eq!(store.tasks_of(&Owner::Holder).await, Ok(Vec::new()));
}

async fn a_session_is_kept_while_used_and_forgotten_when_idle(state: State) {
    let store = state.store();
    let session = SessionRecord {
        id: "s1".into(),
        revision: Some("2025-11-25".into()),
        client_capabilities: Some(json!({"elicitation": {}})),
        client_info: Some(json!({"name": "c", "version": "1"})),
        log_level: Some("warning".into()),
        subscriptions: vec!["file:///a%2Fb".into()],
        last_used_ms: now_ms(),
        opened_ms: now_ms(),
    };
    let idle = Duration::from_millis(400);
    store.put_session(session.clone(), idle).await.expect("put");
    let read = store.session("s1").await.expect("read").expect("kept");
    assert_eq!(
        SessionRecord {
            last_used_ms: session.last_used_ms,
            ..read.clone()
        },
        session
    );
    assert!(read.last_used_ms >= session.last_used_ms, "a read is a use");
    // Used within its idle time, again and again: kept past it.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(store.session("s1").await.expect("read").is_some());
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(store.session("s1").await, Ok(None), "idle too long");
    // A change is a put; a removed session is gone.
    store.put_session(session.clone(), idle).await.expect("put");
    let changed = SessionRecord {
        log_level: Some("debug".into()),
        ..session
    };
    store.put_session(changed.clone(), idle).await.expect("put");
    let read = store.session("s1").await.expect("read").expect("kept");
    assert_eq!(read.log_level.as_deref(), Some("debug"));
    assert_eq!(store.remove_session("s1").await, Ok(true));
    assert_eq!(store.session("s1").await, Ok(None));
    assert_eq!(store.remove_session("s1").await, Ok(false));
}

async fn sessions_are_bounded_and_idle_ones_make_room(state: State) {
    let store = state.store();
    let session = |id: &str| SessionRecord {
        id: id.into(),
        revision: Some("2025-11-25".into()),
        client_capabilities: None,
        client_info: None,
        log_level: None,
        subscriptions: Vec::new(),
        last_used_ms: now_ms(),
        opened_ms: now_ms(),
    };
    let (short, long) = (Duration::from_millis(300), Duration::from_secs(60));
    assert_eq!(
        store.create_session(session("s1"), short, 2).await,
        Ok(true)
    );
    assert_eq!(store.create_session(session("s2"), long, 2).await, Ok(true));
    assert_eq!(
        store.create_session(session("s3"), long, 2).await,
        Ok(false),
        "two are kept"
    );
    assert_eq!(
        store.session("s3").await,
        Ok(None),
        "a refused session is not stored"
    );
    // A change to a kept session is not a new one.
    store.put_session(session("s2"), long).await.expect("put");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        store.create_session(session("s3"), long, 2).await,
        Ok(true),
        "the idle one made room"
    );
    assert_eq!(store.session("s1").await, Ok(None));
    assert!(store.remove_session("s2").await.expect("remove"));
    assert_eq!(store.create_session(session("s4"), long, 2).await, Ok(true));
    // Racing creations never keep more than the bound.
    let racing = (5..25).map(|i| {
        let state = state.clone();
        async move {
            let id = format!("r{i}");
            state.store().create_session(session(&id), long, 4).await
        }
    });
    let made = futures::future::join_all(racing).await;
    let made = made.into_iter().filter(|m| *m == Ok(true)).count();
    assert_eq!(made, 2, "two more fit under a bound of four");
}

async fn every_listener_hears_every_event_in_order(state: State) {
    let store = state.store();
    // Published before anyone listened: heard by nobody.
    store
        .publish(from_here(Event::ListChanged(ListKind::Prompts)))
        .await
        .expect("published");
    let mut first = store.subscribe().await.expect("subscribed");
    let mut second = store.subscribe().await.expect("subscribed");
    let events = [
        Event::ListChanged(ListKind::Tools),
        Event::ResourceUpdated("file:///a".into()),
        Event::TaskChanged("t1".into()),
        Event::ListChanged(ListKind::Resources),
    ];
    for event in &events {
        store
            .publish(from_here(event.clone()))
            .await
            .expect("published");
    }
    for listener in [&mut first, &mut second] {
        for event in &events {
            let heard = tokio::time::timeout(Duration::from_secs(5), listener.next())
                .await
                .expect("heard in time");
            assert_eq!(heard, Some(Heard::Message(from_here(event.clone()))));
        }
    }
    // A listener dropped does not stop the others.
    drop(first);
    store
        .publish(from_here(Event::TaskChanged("t2".into())))
        .await
        .expect("published");
    let heard = tokio::time::timeout(Duration::from_secs(5), second.next()).await;
    assert_eq!(
        heard.expect("heard in time"),
        Some(Heard::Message(from_here(Event::TaskChanged("t2".into()))))
    );
}

fn from_here(event: Event) -> Message {
    Message {
        from: "here".to_owned(),
        event,
    }
}

async fn the_key_ring_is_made_once_and_rotates(state: State) {
    let store = state.store();
    let before = now_ms();
    let ring = store.keys().await.expect("a ring");
    assert!(ring.current.0.len() >= 32, "a key of at least 32 bytes");
    assert!(
        ring.since <= now_ms(),
        "current since it was made, or earlier"
    );
    let again = Arc::new(state.clone());
    let reads = (0..8).map(|_| {
        let state = Arc::clone(&again);
        tokio::spawn(async move { state.store().keys().await })
    });
    for read in futures::future::join_all(reads).await {
        assert_eq!(read.expect("joined"), Ok(ring.clone()), "made once");
    }
    let next = Key(vec![7; 32]);
    let rotated = store
        .rotate_keys(next.clone(), Rotation::now(before + 1))
        .await
        .expect("rotated");
    assert_eq!(
        (&rotated.current, rotated.since, rotated.previous.as_ref()),
        (&next, before + 1, Some(&ring.current))
    );
    assert_eq!(store.keys().await, Ok(rotated.clone()));
    let last = Key(vec![9; 40]);
    let rotated = store
        .rotate_keys(last.clone(), Rotation::now(before + 2))
        .await
        .expect("rotated");
    assert_eq!(
        (rotated.current.clone(), rotated.previous.clone()),
        (last.clone(), Some(next)),
        "only the one before is kept"
    );

    // A scheduled rotation happens once the key is old enough, and once however many
    // processes find it due at the same moment.
    let hour = Duration::from_secs(3600);
    let young = store
        .rotate_keys(
            Key(vec![1; 32]),
            Rotation::when_older_than(before + 2, hour),
        )
        .await
        .expect("read");
    assert_eq!(young, rotated, "not due: the ring is unchanged");
    let later = before + 2 + 3_600_000;
    let racers = (0..8u8).map(|n| {
        let state = Arc::clone(&again);
        tokio::spawn(async move {
            let key = Key(vec![100 + n; 32]);
            let due = Rotation::when_older_than(later, hour);
            state.store().rotate_keys(key, due).await
        })
    });
    let rings: Vec<KeyRing> = futures::future::join_all(racers)
        .await
        .into_iter()
        .map(|ring| ring.expect("joined").expect("rotated"))
        .collect();
    assert!(
        rings.iter().all(|ring| *ring == rings[0]),
        "every racer gets the one rotated ring: {rings:?}"
    );
    assert_eq!(
        (rings[0].since, rings[0].previous.as_ref()),
        (later, Some(&last)),
        "rotated once: the key before is the one every racer saw"
    );
}

#[cfg(test)]
mod tests {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_memory_store_passes_the_state_suite() {
        super::state_suite(crate::state::MemoryStore::default).await;
    }
}
