//! The store shared by every process that connects to one Redis under one namespace:
//! [`RedisStore`] (feature `redis`), whose documentation gives the keys, the consistency of
//! each operation, faults, Redis Cluster and the cost.

use std::future::Future;
use std::sync::LazyLock;
use std::time::Duration;

use futures::StreamExt as _;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{
    Client, Cmd, FromRedisValue, IntoConnectionInfo as _, ProtocolVersion, PushInfo, PushKind,
    Script, ScriptInvocation, Value,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, mpsc};

use super::{
    EventBus, Events, Heard, Key, KeyRing, KeyStore, Message, Owner, Rotation, SessionRecord,
    SessionStore, StoreError, StoreFuture, Swapped, TaskBounds, TaskRecord, TaskStore, Versioned,
    now_ms,
};

/// How long the key ring is kept after its last read: far longer than any request state
/// sealed with it lives, so it is forgotten only when nothing sealed with it is still good.
const KEY_RING_TTL: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How many events a listener may fall behind before it is told it missed some.
const BACKLOG: usize = 1024;

/// How often a listener's lost connection is tried again.
const RETRY: Duration = Duration::from_millis(200);

/// Everything a server keeps between requests, in Redis 7 or newer (or Valkey): shared by
/// every process that connects to the same Redis with the same namespace.
///
/// # Keys
///
/// Every key starts with the namespace (`NS` below; the reference server gives its contract's
/// name), so that servers of several contracts share one Redis, and every key expires: nothing
/// is kept without a time to live, so the store never grows without bound.
///
/// | key | type | holds | expires |
/// | --- | --- | --- | --- |
/// | `NS:task:{ID}` | hash: `v` version, `l` live (`1`/`0`), `r` the [`TaskRecord`] as JSON | one task | at its [`TaskRecord::expires_ms`] |
/// | `NS:{NS}:tasks` | sorted set: task id by expiry | every kept task: the `max_kept` bound | with its last task |
/// | `NS:{NS}:live`, `NS:{NS}:done` | sorted sets: task id by [`TaskRecord::made_ms`] | live and finished tasks: the `max_live` bound, the oldest finished | with their last task |
/// | `NS:{NS}:owners` | hash: task id to its owner's key | which owner list a forgotten task leaves | with its last task |
/// | `NS:{NS}:owner:OWNER` | sorted set: task id by `made_ms` (`OWNER` is the [`Owner`] as JSON) | [`TaskStore::tasks_of`], oldest first | with its owner's last task |
/// | `NS:session:{ID}` | hash: `r` the [`SessionRecord`] as JSON, `i` its idle time | one session | after its idle time, renewed by each use |
/// | `NS:{NS}:sessions` | sorted set: session id by the moment it goes idle | the bound of [`SessionStore::create_session`] | with its last session |
/// | `NS:{NS}:keys` | hash: `c` current key, `t` its [`KeyRing::since`], `p` previous key | the request-state [`KeyRing`] | 30 days after its last read |
///
/// Events are published on the channel `NS:events`, as JSON [`Message`]s; nothing is stored.
/// Records are stored as serde JSON of the runtime's own types, so a field or variant added
/// to them needs nothing here.
///
/// # Consistency, per operation
///
/// - [`TaskStore::create_task`]: one Lua script checks the bounds and takes the room
///   atomically (forgetting the oldest finished task when it must), then a second writes the
///   record if its key is free. It returns once Redis acknowledged the record: from then on
///   every process reads it. How far that survives a Redis restart is Redis's persistence
///   (`appendonly yes` with `appendfsync always` keeps every acknowledged task).
/// - [`TaskStore::swap_task`]: a compare-and-set in one Lua script on the task's key (the
///   version is a counter in the record's hash). When it finishes the task or changes its
///   expiry, a second script moves it in the bounds' sets.
/// - [`TaskStore::task`], [`TaskStore::tasks_of`]: reads; Redis expires a task's key at its
///   `expires_ms`, so an expired task is never answered.
/// - [`SessionStore::create_session`]: one script counts the sessions not yet idle and takes
///   room atomically, so processes creating sessions at once never keep more than the bound;
///   then the record is written.
/// - [`EventBus`]: Redis pub/sub, at most once, to listeners subscribed when it is published.
///   A listener is told [`Heard::Missed`] once its connection dropped and came back.
/// - [`KeyStore`]: the ring is made by the first reader with `HSETNX` (made once, whoever
///   reads first), and rotated in one script that checks the [`Rotation`]'s condition, so
///   every process reads the same ring and a rotation due for several at once happens once.
///
/// Expiry is by Redis's clock (the scripts read `TIME`); each process computes the
/// `expires_ms` it stores by its own, so the processes' clocks and Redis's should agree to
/// well within a task's time to live.
///
/// # Faults
///
/// Every operation gives up after the store's timeout (2 s unless
/// [`RedisStore::connect_with`] says) with a [`StoreError`], so a request that needs state
/// is answered an error rather than held. The connection reconnects by itself: once Redis
/// is back, the next operation succeeds, with the same store. A Redis that cannot be reached
/// at [`RedisStore::connect`] is an error there, naming it.
///
/// A write that spans two keys (a task's room, then its record) can be cut in the middle by a
/// lost connection. What is left is room taken in the bounds' sets for a task that was not
/// stored, which counts against the bounds until that task's expiry, never longer.
///
/// # Redis Cluster
///
/// The keys are laid out for a cluster: a task's record is hashed by its id (`{ID}`) and a
/// session's by its (`{ID}`), so tasks and sessions spread over the shards; everything an
/// operation must see at once (the bounds, the owner lists, the session count, the key ring)
/// shares the namespace's hash tag `{NS}`, one slot. Every command and script touches one
/// slot (a script over the bounds' sets also touches owner lists it finds there, in the same
/// slot); operations that touch both kinds do so in two steps, as above. What a cluster
/// would need beyond this store is its connection (the crate's cluster client, feature
/// `cluster-async`) in place of the connection manager; and the namespace's slot takes every
/// bounded write of one server, so one shard's throughput is the ceiling on task and session
/// creation however large the cluster.
///
/// # Round trips, and how far one Redis goes
///
/// Each operation is one round trip (a command, a pipeline or a script), except:
/// `create_task` 2 (room, then record; 3 when it forgets a finished task to make room),
/// `swap_task` 2 when the task finishes or its expiry changes, `tasks_of` 2, `remove_task` 2,
/// and a session's create and read 2. Counted with `MONITOR` on the reference server
/// (`tests/state.rs`, `cargo test -p mcp-workspace --test state -- --nocapture`):
///
/// - a call that needs no state (`read_file` on either revision) and `tools/list`: **none**;
/// - a task made, polled twice to its end and its result fetched: 11 (room checked 1, made 2,
///   each `tasks/get` 1, finished 2, its change published 1, `tasks/result` 2: it listens,
///   then reads);
/// - a sealed round of 2026-07-28 (asked, then retried with the answer): 2, one read of the
///   key ring to seal and one to open (and 1 more to publish the resource the call changed).
///
/// On the shared 2-core machine the tests run on, under a load average of 4.5, Redis 7.0
/// answered `redis-benchmark -c 50` at 13,100 `HMGET`, 9,400 compare-and-set scripts and
/// 11,300 `PUBLISH` a second; a dedicated core does several times that. So one Redis carries
/// on the order of a thousand tasks, or five thousand sealed rounds, a second on such a
/// machine, and calls that need no state not at all: it is rarely what limits a deployment.
/// Redis is one thread: past that, a deployment shards by namespace (or by task and session
/// on a cluster, above).
pub struct RedisStore {
    redis: ConnectionManager,
    keys: Keys,
    timeout: Duration,
    /// Where Redis is (host and port, never the URL: it may hold a password).
    at: String,
    heard: broadcast::Sender<Heard>,
    relay: tokio::task::AbortHandle,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("at", &self.at)
            .field("namespace", &self.keys.namespace)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        // The relay holds a handle on the connection: it would keep it open.
        self.relay.abort();
    }
}

impl RedisStore {
    /// How long an operation waits for Redis unless [`RedisStore::connect_with`] says.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// Connects to the Redis at `url` (`redis://[USER:PASSWORD@]HOST:PORT[/DB]`, or
    /// `redis+unix:///PATH`; TLS is not built in) and keeps the state of `namespace` there
    /// (every key starts with it: servers sharing one namespace share their state). Fails,
    /// naming the address, when Redis cannot be reached within
    /// [`RedisStore::DEFAULT_TIMEOUT`].
    pub async fn connect(url: &str, namespace: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, namespace, Self::DEFAULT_TIMEOUT).await
    }

    /// [`RedisStore::connect`], with every operation (and the connection itself) given up
    /// after `timeout`.
    pub async fn connect_with(
        url: &str,
        namespace: &str,
        timeout: Duration,
    ) -> Result<Self, StoreError> {
        if namespace.is_empty() || namespace.contains(['{', '}']) {
            return Err(StoreError::new(format!(
                "the Redis namespace `{namespace}` must be non-empty and without braces (they \
                 would change the keys' hash slots)"
            )));
        }
        let info = url
            .into_connection_info()
            .map_err(|e| StoreError::new(format!("the Redis URL is not valid: {e}")))?;
        let at = info.addr().to_string();
        // RESP3 lets one connection carry both the commands and the subscription.
        let settings = (info.redis_settings().clone()).set_protocol(ProtocolVersion::RESP3);
        let client = Client::open(info.set_redis_settings(settings))
            .map_err(|e| StoreError::new(format!("the Redis URL is not valid: {e}")))?;
        let (pushes, pushed) = mpsc::unbounded_channel();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(2)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(timeout / 2)
            .set_push_sender(pushes)
            .set_automatic_resubscription();
        let unreachable =
            |why: String| StoreError::new(format!("cannot reach the Redis store at {at}: {why}"));
        let redis =
            tokio::time::timeout(timeout, ConnectionManager::new_with_config(client, config))
                .await
                .map_err(|_| unreachable(format!("no answer within {timeout:?}")))?
                .map_err(|e| unreachable(e.to_string()))?;
        let heard = broadcast::Sender::new(BACKLOG);
        let relay = tokio::spawn(relay(pushed, heard.clone(), redis.clone(), timeout));
        Ok(RedisStore {
            redis,
            keys: Keys::new(namespace),
            timeout,
            at,
            heard,
            relay: relay.abort_handle(),
        })
    }

    /// The namespace every key of this store starts with.
    pub fn namespace(&self) -> &str {
        &self.keys.namespace
    }

    /// Runs `op` on the connection, giving up after the timeout; `what` names it in the error.
    async fn run<T, F>(
        &self,
        what: &str,
        op: impl FnOnce(ConnectionManager) -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = redis::RedisResult<T>>,
    {
        match tokio::time::timeout(self.timeout, op(self.redis.clone())).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(StoreError::new(format!(
                "Redis at {} failed to {what}: {e}",
                self.at
            ))),
            Err(_) => Err(StoreError::new(format!(
                "Redis at {} did not {what} within {:?}",
                self.at, self.timeout
            ))),
        }
    }

    /// Runs one command.
    async fn query<T: FromRedisValue>(&self, what: &str, cmd: Cmd) -> Result<T, StoreError> {
        self.run(what, |mut redis| async move {
            cmd.query_async(&mut redis).await
        })
        .await
    }

    /// Runs one script.
    async fn eval<T: FromRedisValue>(
        &self,
        what: &str,
        script: ScriptInvocation<'static>,
    ) -> Result<T, StoreError> {
        self.run(what, |mut redis| async move {
            script.invoke_async(&mut redis).await
        })
        .await
    }

    /// Forgets the task `id` in the bounds' sets and its owner's list.
    async fn unindex(&self, id: &str) -> Result<(), StoreError> {
        let mut forget = TASK_FORGET.prepare_invoke();
        forget.key(&self.keys.task_index()[..]).arg(id);
        self.eval("forget a task", forget).await
    }

    /// Writes a session's record, to be forgotten after `idle` unused.
    async fn write_session(
        &self,
        record: &SessionRecord,
        idle: Duration,
    ) -> Result<(), StoreError> {
        let (key, idle) = (self.keys.session(&record.id), millis(idle));
        let mut write = redis::pipe();
        (write.atomic())
            .cmd("HSET")
            .arg(&key)
            .arg("r")
            .arg(json(record))
            .arg("i")
            .arg(idle)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(idle)
            .ignore();
        self.run("store a session", |mut redis| async move {
            write.query_async::<()>(&mut redis).await
        })
        .await
    }

    /// Counts the session `id` as used now, to go idle after `idle` ms.
    async fn used(&self, id: &str, idle: u64) -> Result<(), StoreError> {
        let mut used = SESSION_USED.prepare_invoke();
        used.key(self.keys.sessions()).arg(id).arg(idle);
        self.eval("count a session", used).await
    }
}

/// The key names of one namespace.
struct Keys {
    namespace: String,
}

impl Keys {
    fn new(namespace: &str) -> Self {
        Keys {
            namespace: namespace.to_owned(),
        }
    }

    /// A key in the namespace's own hash slot.
    fn shared(&self, name: &str) -> String {
        let ns = &self.namespace;
        format!("{ns}:{{{ns}}}:{name}")
    }

    fn task(&self, id: &str) -> String {
        format!("{}:task:{{{id}}}", self.namespace)
    }

    fn session(&self, id: &str) -> String {
        format!("{}:session:{{{id}}}", self.namespace)
    }

    /// The bounds' sets and the owners' hash, in the order the task scripts read them.
    fn task_index(&self) -> [String; 4] {
        ["tasks", "live", "done", "owners"].map(|name| self.shared(name))
    }

    fn owner(&self, owner: &Owner) -> String {
        self.shared(&format!("owner:{}", json(owner)))
    }

    fn sessions(&self) -> String {
        self.shared("sessions")
    }

    fn ring(&self) -> String {
        self.shared("keys")
    }

    fn channel(&self) -> String {
        format!("{}:events", self.namespace)
    }
}

fn json(value: &impl Serialize) -> String {
    // The runtime's records hold only JSON values and strings: they always serialize.
    serde_json::to_string(value).unwrap_or_default()
}

fn parse<T: DeserializeOwned>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes)
        .map_err(|e| StoreError::new(format!("a stored {what} is not readable: {e}")))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn flag(live: bool) -> &'static str {
    if live { "1" } else { "0" }
}

/// Redis's clock in milliseconds, and `extend`: a key's expiry pushed to `at`, never pulled
/// in (`NX` for a key without one, `GT` otherwise).
const LIB: &str = r"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function extend(key, at)
  redis.call('PEXPIREAT', key, at, 'NX')
  redis.call('PEXPIREAT', key, at, 'GT')
end
";

/// The task index's keys (`tasks`, `live`, `done`, `owners`), and `forget`, `prune`.
const TASK_LIB: &str = r"
local tasks, live, done, owners = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local function forget(id)
  redis.call('ZREM', tasks, id)
  redis.call('ZREM', live, id)
  redis.call('ZREM', done, id)
  local owner = redis.call('HGET', owners, id)
  if owner then
    redis.call('ZREM', owner, id)
    redis.call('HDEL', owners, id)
  end
end
local function prune()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', tasks, '-inf', now)) do forget(id) end
end
";

fn script(parts: &[&str]) -> Script {
    Script::new(&parts.concat())
}

/// Room for a task under the bounds `ARGV[1]` (live) and `ARGV[2]` (kept), after forgetting
/// what expired. With a fifth key (the owner's list) it takes the room for the task
/// `ARGV[3]` (made `ARGV[4]`, expiring `ARGV[5]`, live `ARGV[6]`), forgetting the oldest
/// finished task when it must. `{1, forgotten id or ''}`, `{0, ''}` without room, `{-1, ''}`
/// when the id is taken.
static TASK_ROOM: LazyLock<Script> = LazyLock::new(|| {
    script(&[
        LIB,
        TASK_LIB,
        r"
prune()
local make = #KEYS == 5
if make and redis.call('ZSCORE', tasks, ARGV[3]) then return {-1, ''} end
if redis.call('ZCARD', live) >= tonumber(ARGV[1]) then return {0, ''} end
local forgotten = ''
if redis.call('ZCARD', tasks) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', done, 0, 0)[1]
  if not oldest then return {0, ''} end
  if not make then return {1, ''} end
  forget(oldest)
  forgotten = oldest
end
if not make then return {1, ''} end
local id, made, expires, owner = ARGV[3], ARGV[4], ARGV[5], KEYS[5]
redis.call('ZADD', tasks, expires, id)
redis.call('ZADD', ARGV[6] == '1' and live or done, made, id)
redis.call('HSET', owners, id, owner)
redis.call('ZADD', owner, made, id)
for _, key in ipairs(KEYS) do extend(key, expires) end
return {1, forgotten}
",
    ])
});

/// Writes a new task's record (`ARGV`: JSON, live, expiry) unless its key is taken.
static TASK_WRITE: LazyLock<Script> = LazyLock::new(|| {
    script(&[r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'l', ARGV[2], 'r', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1
"])
});

/// Compare-and-set: replaces the record (`ARGV[2]`, live `ARGV[3]`, expiring `ARGV[4]`) if
/// its version is `ARGV[1]`. `{new version, was live, expired at}`; `{-1}` gone, `{-2}`
/// changed since.
static TASK_SWAP: LazyLock<Script> = LazyLock::new(|| {
    script(&[r"
local version = redis.call('HGET', KEYS[1], 'v')
if not version then return {-1, '', 0} end
if version ~= ARGV[1] then return {-2, '', 0} end
local was = redis.call('HGET', KEYS[1], 'l')
local at = redis.call('PEXPIRETIME', KEYS[1])
local next = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 'l', ARGV[3], 'r', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return {next, was, at}
"])
});

/// Moves the task `ARGV[1]` to the live (`ARGV[2]` = 1) or finished set, expiring `ARGV[3]`.
static TASK_REINDEX: LazyLock<Script> = LazyLock::new(|| {
    script(&[
        LIB,
        TASK_LIB,
        r"
local id, expires = ARGV[1], ARGV[3]
if not redis.call('ZSCORE', tasks, id) then return 0 end
local made = redis.call('ZSCORE', live, id) or redis.call('ZSCORE', done, id) or '0'
redis.call('ZREM', live, id)
redis.call('ZREM', done, id)
local into = ARGV[2] == '1' and live or done
redis.call('ZADD', into, made, id)
redis.call('ZADD', tasks, expires, id)
for _, key in ipairs({tasks, into, owners}) do extend(key, expires) end
local owner = redis.call('HGET', owners, id)
if owner then extend(owner, expires) end
return 1
",
    ])
});

/// Forgets the task `ARGV[1]` in the index.
static TASK_FORGET: LazyLock<Script> =
    LazyLock::new(|| script(&[LIB, TASK_LIB, "forget(ARGV[1])\nreturn 1\n"]));

/// Takes room for the session `ARGV[1]` if fewer than `ARGV[2]` are not yet idle, to go idle
/// after `ARGV[3]` ms; 1 if taken.
static SESSION_ROOM: LazyLock<Script> = LazyLock::new(|| {
    script(&[
        LIB,
        r"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local idle = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], idle, ARGV[1])
extend(KEYS[1], idle)
return 1
",
    ])
});

/// Counts the session `ARGV[1]` as used now, to go idle after `ARGV[2]` ms.
static SESSION_USED: LazyLock<Script> = LazyLock::new(|| {
    script(&[
        LIB,
        r"
local idle = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], idle, ARGV[1])
extend(KEYS[1], idle)
return 1
",
    ])
});

/// Reads a session and restarts its idle time: `{record, idle ms}`, or nil.
static SESSION_READ: LazyLock<Script> = LazyLock::new(|| {
    script(&[r"
local got = redis.call('HMGET', KEYS[1], 'r', 'i')
if not got[1] then return false end
redis.call('PEXPIRE', KEYS[1], got[2])
return got
"])
});

/// The key ring, made with the key `ARGV[1]` current since `ARGV[3]` when there is none,
/// kept `ARGV[2]` ms more. Its expiry is pushed back only once half of it has passed, so
/// that reading it writes nothing (nor syncs the append-only file) almost every time.
static RING_READ: LazyLock<Script> = LazyLock::new(|| {
    script(&[r"
local made = redis.call('HSETNX', KEYS[1], 'c', ARGV[1]) == 1
if made then redis.call('HSET', KEYS[1], 't', ARGV[3]) end
if made or redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) / 2 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('HMGET', KEYS[1], 'c', 't', 'p')
"])
});

/// Rotates the key ring to `ARGV[1]`, current since `ARGV[3]`, when its current key is
/// current since before `ARGV[4]` (a ring without `t` is due); kept `ARGV[2]` ms more.
static RING_ROTATE: LazyLock<Script> = LazyLock::new(|| {
    script(&[r"
local current = redis.call('HGET', KEYS[1], 'c')
local since = tonumber(redis.call('HGET', KEYS[1], 't') or '0')
if current and since >= tonumber(ARGV[4]) then
  return redis.call('HMGET', KEYS[1], 'c', 't', 'p')
end
if current then redis.call('HSET', KEYS[1], 'p', current) else redis.call('HDEL', KEYS[1], 'p') end
redis.call('HSET', KEYS[1], 'c', ARGV[1], 't', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('HMGET', KEYS[1], 'c', 't', 'p')
"])
});

impl TaskStore for RedisStore {
    fn create_task(&self, record: TaskRecord, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let id = record.id();
            let (expires, live) = (record.expires_ms, flag(record.is_live()));
            let mut room = TASK_ROOM.prepare_invoke();
            (room.key(&self.keys.task_index()[..]))
                .key(self.keys.owner(&record.owner))
                .arg(bounds.max_live)
                .arg(bounds.max_kept)
                .arg(id)
                .arg(record.made_ms)
                .arg(expires)
                .arg(live);
            let (taken, forgotten): (i64, String) = self.eval("make room for a task", room).await?;
            match taken {
                1 => {}
                -1 => return Err(StoreError::new(format!("task {id} exists already"))),
                _ => return Ok(false),
            }
            if !forgotten.is_empty() {
                let mut del = redis::cmd("DEL");
                del.arg(self.keys.task(&forgotten));
                self.query::<()>("forget a finished task", del).await?;
            }
            let mut write = TASK_WRITE.prepare_invoke();
            (write.key(self.keys.task(id)))
                .arg(json(&record))
                .arg(live)
                .arg(expires);
            if !self.eval::<bool>("store a task", write).await? {
                self.unindex(id).await?;
                return Err(StoreError::new(format!("task {id} exists already")));
            }
            Ok(true)
        })
    }

    fn has_room(&self, bounds: TaskBounds) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let mut room = TASK_ROOM.prepare_invoke();
            (room.key(&self.keys.task_index()[..]))
                .arg(bounds.max_live)
                .arg(bounds.max_kept);
            let (room, _): (i64, String) = self.eval("count the tasks", room).await?;
            Ok(room == 1)
        })
    }

    fn task(&self, id: &str) -> StoreFuture<'_, Option<Versioned<TaskRecord>>> {
        let mut read = redis::cmd("HMGET");
        read.arg(self.keys.task(id)).arg("v").arg("r");
        Box::pin(async move {
            let (version, record): (Option<u64>, Option<Vec<u8>>) =
                self.query("read a task", read).await?;
            let (Some(version), Some(record)) = (version, record) else {
                return Ok(None);
            };
            let value = parse("task", &record)?;
            Ok(Some(Versioned { value, version }))
        })
    }

    fn swap_task(&self, id: &str, version: u64, record: TaskRecord) -> StoreFuture<'_, Swapped> {
        let id = id.to_owned();
        Box::pin(async move {
            let (expires, live) = (record.expires_ms, flag(record.is_live()));
            let mut swap = TASK_SWAP.prepare_invoke();
            (swap.key(self.keys.task(&id)))
                .arg(version)
                .arg(json(&record))
                .arg(live)
                .arg(expires);
            let (next, was, at): (i64, String, i64) = self.eval("change a task", swap).await?;
            let next = match next {
                -1 => return Ok(Swapped::Gone),
                -2 => return Ok(Swapped::Conflict),
                next => u64::try_from(next).unwrap_or_default(),
            };
            if was != live || u64::try_from(at).ok() != Some(expires) {
                let mut reindex = TASK_REINDEX.prepare_invoke();
                (reindex.key(&self.keys.task_index()[..]))
                    .arg(&id)
                    .arg(live)
                    .arg(expires);
                self.eval::<()>("move a task in the bounds", reindex)
                    .await?;
            }
            Ok(Swapped::Done(next))
        })
    }

    fn remove_task(&self, id: &str) -> StoreFuture<'_, bool> {
        let id = id.to_owned();
        Box::pin(async move {
            let mut del = redis::cmd("DEL");
            del.arg(self.keys.task(&id));
            let removed: i64 = self.query("remove a task", del).await?;
            self.unindex(&id).await?;
            Ok(removed == 1)
        })
    }

    fn tasks_of(&self, owner: &Owner) -> StoreFuture<'_, Vec<TaskRecord>> {
        let mut list = redis::cmd("ZRANGE");
        list.arg(self.keys.owner(owner)).arg(0).arg(-1);
        Box::pin(async move {
            let ids: Vec<String> = self.query("list a caller's tasks", list).await?;
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            let mut reads = redis::pipe();
            for id in &ids {
                reads.cmd("HGET").arg(self.keys.task(id)).arg("r");
            }
            let records: Vec<Option<Vec<u8>>> = self
                .run("read a caller's tasks", |mut redis| async move {
                    reads.query_async(&mut redis).await
                })
                .await?;
            // An id whose record expired since is forgotten by the next pruning.
            (records.iter().flatten())
                .map(|record| parse("task", record))
                .collect()
        })
    }
}

impl SessionStore for RedisStore {
    fn create_session(
        &self,
        record: SessionRecord,
        idle: Duration,
        max: usize,
    ) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let mut room = SESSION_ROOM.prepare_invoke();
            (room.key(self.keys.sessions()))
                .arg(&record.id)
                .arg(max)
                .arg(millis(idle));
            let taken: bool = self.eval("make room for a session", room).await?;
            if taken {
                self.write_session(&record, idle).await?;
            }
            Ok(taken)
        })
    }

    fn put_session(&self, record: SessionRecord, idle: Duration) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let (written, used) = futures::join!(
                self.write_session(&record, idle),
                self.used(&record.id, millis(idle))
            );
            written.and(used)
        })
    }

    fn session(&self, id: &str) -> StoreFuture<'_, Option<SessionRecord>> {
        let id = id.to_owned();
        Box::pin(async move {
            let mut read = SESSION_READ.prepare_invoke();
            read.key(self.keys.session(&id));
            let read: Option<(Vec<u8>, u64)> = self.eval("read a session", read).await?;
            let Some((record, idle)) = read else {
                return Ok(None);
            };
            self.used(&id, idle).await?;
            let mut record: SessionRecord = parse("session", &record)?;
            record.last_used_ms = now_ms();
            Ok(Some(record))
        })
    }

    fn remove_session(&self, id: &str) -> StoreFuture<'_, bool> {
        let mut remove = redis::pipe();
        (remove.cmd("DEL").arg(self.keys.session(id)))
            .cmd("ZREM")
            .arg(self.keys.sessions())
            .arg(id);
        Box::pin(async move {
            let (removed, _): (i64, i64) = self
                .run("remove a session", |mut redis| async move {
                    remove.query_async(&mut redis).await
                })
                .await?;
            Ok(removed == 1)
        })
    }
}

impl EventBus for RedisStore {
    fn publish(&self, message: Message) -> StoreFuture<'_, ()> {
        let mut publish = redis::cmd("PUBLISH");
        publish.arg(self.keys.channel()).arg(json(&message));
        Box::pin(self.query("publish an event", publish))
    }

    fn subscribe(&self) -> StoreFuture<'_, Events> {
        let channel = self.keys.channel();
        Box::pin(async move {
            // Subscribed before it returns: what is published after is heard. Subscribing
            // again is harmless, and makes sure of the connection.
            let events = self.heard.subscribe();
            self.run("subscribe to events", |mut redis| async move {
                redis.subscribe(channel).await
            })
            .await?;
            let heard = futures::stream::unfold(events, |mut events| async move {
                let heard = match events.recv().await {
                    Ok(heard) => heard,
                    Err(broadcast::error::RecvError::Lagged(_)) => Heard::Missed,
                    Err(broadcast::error::RecvError::Closed) => return None,
                };
                Some((heard, events))
            });
            Ok(heard.boxed())
        })
    }
}

/// Passes what Redis pushes to the listeners: each message, and [`Heard::Missed`] once a lost
/// connection is back (and resubscribed, which the connection manager does as it reconnects).
async fn relay(
    mut pushed: mpsc::UnboundedReceiver<PushInfo>,
    heard: broadcast::Sender<Heard>,
    mut redis: ConnectionManager,
    timeout: Duration,
) {
    while let Some(push) = pushed.recv().await {
        match push.kind {
            PushKind::Message => {
                let Some(Value::BulkString(payload)) = push.data.get(1) else {
                    continue;
                };
                match serde_json::from_slice::<Message>(payload) {
                    // Nobody listening is no error.
                    Ok(message) => {
                        let _ = heard.send(Heard::Message(message));
                    }
                    Err(e) => tracing::warn!(error = %e, "an event on Redis is not readable"),
                }
            }
            PushKind::Disconnection if heard.receiver_count() > 0 => {
                tracing::warn!(
                    "the connection to Redis dropped; listeners are told they missed events once it is back"
                );
                // The manager reconnects at each command that finds it down.
                let ping = redis::cmd("PING");
                loop {
                    let pong = ping.query_async::<()>(&mut redis);
                    if let Ok(Ok(())) = tokio::time::timeout(timeout, pong).await {
                        break;
                    }
                    tokio::time::sleep(RETRY).await;
                }
                let _ = heard.send(Heard::Missed);
            }
            _ => {}
        }
    }
}

impl KeyStore for RedisStore {
    fn keys(&self) -> StoreFuture<'_, KeyRing> {
        Box::pin(async move {
            let mut fresh = vec![0u8; 32];
            getrandom::fill(&mut fresh)
                .map_err(|e| StoreError::new(format!("no random key: {e}")))?;
            let mut read = RING_READ.prepare_invoke();
            (read.key(self.keys.ring()))
                .arg(fresh)
                .arg(millis(KEY_RING_TTL))
                .arg(now_ms());
            ring_of(self.eval("read the key ring", read).await?)
        })
    }

    fn rotate_keys(&self, key: Key, rotation: Rotation) -> StoreFuture<'_, KeyRing> {
        Box::pin(async move {
            let mut rotate = RING_ROTATE.prepare_invoke();
            (rotate.key(self.keys.ring()))
                .arg(key.0)
                .arg(millis(KEY_RING_TTL))
                .arg(rotation.at)
                .arg(rotation.if_since_before);
            ring_of(self.eval("rotate the key ring", rotate).await?)
        })
    }
}

/// The ring of the scripts' answer: current key, its `since` (none: before `since` was kept,
/// so due), previous key.
fn ring_of(
    (current, since, previous): (Option<Vec<u8>>, Option<u64>, Option<Vec<u8>>),
) -> Result<KeyRing, StoreError> {
    let current = current.ok_or_else(|| StoreError::new("the key ring has no current key"))?;
    Ok(KeyRing {
        current: Key(current),
        since: since.unwrap_or(0),
        previous: previous.map(Key),
    })
}
