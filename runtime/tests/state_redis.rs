//! The Redis store against a real `redis-server` that each test starts on a free loopback
//! port in a directory of its own, and stops: the shared state suite, the expiry of every key
//! it leaves, a Redis that cannot be reached at start, one lost and back while serving, a
//! task acknowledged before a restart, and stores of one namespace sharing everything (as the
//! processes of one deployment do) while another namespace shares nothing.

use std::net::{Ipv4Addr, TcpListener};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use mcp_contract::rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use mcp_contract::state::{
    Event, EventBus as _, Heard, KeyStore as _, ListKind, Message, Owner, RedisStore,
    SessionStore as _, TaskBounds, TaskRecord, TaskStore as _, now_ms,
};
use mcp_contract::testing::RedisServer;

/// A working task kept a minute.
fn record(id: &str) -> TaskRecord {
    let at = mcp_contract::rmcp::task_manager::current_timestamp();
    let task = Task::new(id.to_owned(), TaskStatus::Working, at.clone(), at).with_ttl_ms(60_000);
    TaskRecord {
        task: DetailedTask::new(task, TaskPayload::Working),
        owner: Owner::Holder,
        tool: "slow".to_owned(),
        arguments: Default::default(),
        answers: Default::default(),
        made_ms: now_ms(),
        expires_ms: now_ms() + 60_000,
        lease: None,
    }
}

const BOUNDS: TaskBounds = TaskBounds {
    max_live: 16,
    max_kept: 64,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_store_passes_the_state_suite_and_leaves_no_key_without_expiry() {
    let redis = RedisServer::start();
    // The suite makes its stores without awaiting: each is connected beforehand, in a
    // namespace of its own.
    let mut stores = Vec::new();
    for check in mcp_contract::testing::state_checks() {
        let namespace = format!("suite-{check}");
        let store = RedisStore::connect(&redis.url(), &namespace).await;
        stores.push(store.expect("Redis is reachable"));
    }
    stores.reverse();
    let stores = Mutex::new(stores);
    mcp_contract::testing::state_suite(|| {
        let mut stores = stores.lock().unwrap_or_else(|p| p.into_inner());
        stores.pop().expect("a store for each check")
    })
    .await;

    let keys = redis.keys("suite-*").await;
    assert!(
        keys.len() > 10,
        "the suite left its state in Redis: {keys:?}"
    );
    for (key, ttl) in &keys {
        // -2: expired between the scan and the look, which is what expiry is for.
        assert!(*ttl > 0 || *ttl == -2, "`{key}` has no expiry ({ttl})");
    }
}

#[tokio::test]
async fn a_url_nothing_listens_on_fails_at_connect_with_one_clear_line() {
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let started = Instant::now();
    let connected = RedisStore::connect(&format!("redis://127.0.0.1:{port}/0"), "nowhere").await;
    let error = connected.expect_err("nothing listens there").to_string();
    assert!(
        started.elapsed() < RedisStore::DEFAULT_TIMEOUT + Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(
        error.contains(&format!("cannot reach the Redis store at 127.0.0.1:{port}")),
        "{error}"
    );
    assert!(!error.contains('\n'), "one line: {error}");

    let bad = RedisStore::connect("http://127.0.0.1/", "ns").await;
    let error = bad.expect_err("not a Redis URL").to_string();
    assert!(error.contains("the Redis URL is not valid"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_redis_is_an_error_within_the_timeout_and_the_store_recovers_by_itself() {
    let mut redis = RedisServer::start();
    let timeout = Duration::from_millis(500);
    let store = RedisStore::connect_with(&redis.url(), "faults", timeout)
        .await
        .expect("Redis is reachable");
    assert_eq!(store.create_task(record("before"), BOUNDS).await, Ok(true));
    let mut listener = store.subscribe().await.expect("subscribed");

    redis.kill();
    for attempt in 0..3 {
        let started = Instant::now();
        let read = store.task("before").await;
        assert!(read.is_err(), "attempt {attempt}: {read:?}");
        let made = store
            .create_task(record(&format!("during{attempt}")), BOUNDS)
            .await;
        assert!(made.is_err(), "attempt {attempt}: {made:?}");
        let session = store.session("s1").await;
        assert!(session.is_err(), "attempt {attempt}: {session:?}");
        // Each operation gives up within the timeout (and a little scheduling).
        let most = 3 * timeout + Duration::from_millis(500);
        assert!(started.elapsed() < most, "{:?}", started.elapsed());
    }
    let error = store.task("before").await.expect_err("Redis is down");
    assert!(error.to_string().contains("Redis at 127.0.0.1"), "{error}");

    redis.restart();
    // The same store: the connection comes back by itself within a few attempts.
    let started = Instant::now();
    let found = loop {
        match store.task("before").await {
            Ok(found) => break found,
            Err(e) => assert!(started.elapsed() < Duration::from_secs(10), "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        found.map(|f| f.value.id().to_owned()).as_deref(),
        Some("before")
    );
    assert_eq!(store.create_task(record("after"), BOUNDS).await, Ok(true));

    // The listener is told it may have missed events, then hears new ones.
    let heard = tokio::time::timeout(Duration::from_secs(10), listener.next()).await;
    assert_eq!(heard.expect("told in time"), Some(Heard::Missed));
    let message = Message {
        from: "here".into(),
        event: Event::ListChanged(ListKind::Tools),
    };
    store.publish(message.clone()).await.expect("published");
    let heard = tokio::time::timeout(Duration::from_secs(5), listener.next()).await;
    assert_eq!(heard.expect("heard in time"), Some(Heard::Message(message)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_acknowledged_before_a_restart_is_there_after() {
    let mut redis = RedisServer::start();
    let store = RedisStore::connect(&redis.url(), "durable")
        .await
        .expect("Redis is reachable");
    let made = record("kept");
    assert_eq!(store.create_task(made.clone(), BOUNDS).await, Ok(true));
    // Killed at once, with no chance to save on shutdown.
    redis.restart();
    let again = RedisStore::connect(&redis.url(), "durable")
        .await
        .expect("Redis is reachable");
    let found = again
        .task("kept")
        .await
        .expect("read")
        .expect("still there");
    assert_eq!(found.value, made);
    assert_eq!(
        again.tasks_of(&Owner::Holder).await.expect("listed").len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stores_on_one_namespace_share_everything_and_other_namespaces_nothing() {
    let redis = RedisServer::start();
    let url = redis.url();
    let connect = |namespace: &'static str| RedisStore::connect(&url, namespace);
    let (here, there) = (
        connect("shared").await.expect("connected"),
        connect("shared").await.expect("connected"),
    );
    let other = connect("other").await.expect("connected");

    assert_eq!(here.create_task(record("t1"), BOUNDS).await, Ok(true));
    assert!(
        matches!(there.task("t1").await, Ok(Some(_))),
        "made here, read there"
    );
    assert_eq!(other.task("t1").await, Ok(None), "another namespace");

    let ring = there.keys().await.expect("a ring");
    assert_eq!(here.keys().await, Ok(ring.clone()), "the same ring");
    assert_ne!(other.keys().await.expect("a ring").current, ring.current);

    let mut heard_there = there.subscribe().await.expect("subscribed");
    let mut heard_other = other.subscribe().await.expect("subscribed");
    let message = Message {
        from: "here".into(),
        event: Event::ResourceUpdated("file:///a".into()),
    };
    here.publish(message.clone()).await.expect("published");
    let heard = tokio::time::timeout(Duration::from_secs(5), heard_there.next()).await;
    assert_eq!(heard.expect("heard in time"), Some(Heard::Message(message)));
    let unheard = tokio::time::timeout(Duration::from_millis(300), heard_other.next()).await;
    assert!(
        unheard.is_err(),
        "another namespace hears nothing: {unheard:?}"
    );
}
