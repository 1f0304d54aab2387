//! The sealed `requestState` of a 2026-07-28 call that asked its client: the answers of the
//! rounds before, and an expiry, under an HMAC that binds them to the call.
//!
//! Sealing is rmcp's [`RequestStateCodec`] (HMAC-SHA256 with domain separation, the call's
//! binding as associated data, keys zeroized on drop); the expiry travels inside the sealed
//! payload and is checked here against the runtime's clock rather than the codec's, so a test
//! can move the clock.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::ErrorData;
use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::state::{Key, KeyRing, Rotation, State};

/// How long a request state stays valid by default: long enough for a person to answer.
pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

/// How long the store's key seals new request states by default before the first process
/// to find it older rotates it ([`Rotation`]).
pub const DEFAULT_ROTATION: Duration = Duration::from_secs(24 * 60 * 60);

/// Why a request state is refused; each is `-32602` to the client, but a store that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Not made by this server's key for this call: altered, forged, or another tool's or
    /// other arguments' state.
    Tampered,
    /// Made for this call, but past its expiry.
    Expired,
    /// The keys could not be read from the server's state store (`-32603`, logged).
    Unavailable,
}

impl Refused {
    pub(crate) fn message(self) -> &'static str {
        match self {
            Refused::Tampered => {
                "requestState integrity check failed: it was altered, or belongs to another \
                 tool, other arguments or another caller"
            }
            Refused::Expired => "requestState expired: call again without it to start over",
            Refused::Unavailable => {
                "the request-state keys could not be read from the server's state store; try \
                 again"
            }
        }
    }

    /// The error the client is answered.
    pub(crate) fn error(self) -> ErrorData {
        match self {
            Refused::Unavailable => ErrorData::internal_error(self.message(), None),
            _ => ErrorData::invalid_params(self.message(), None),
        }
    }
}

/// What a sealed state holds.
#[derive(Serialize, Deserialize)]
struct Payload {
    /// Unix milliseconds after which the state is refused.
    exp: u64,
    /// The earlier rounds' answers, by question id.
    answers: BTreeMap<String, Value>,
}

/// The codecs of a key ring: the current key seals, either opens.
#[derive(Clone)]
struct Codecs {
    current: Arc<RequestStateCodec>,
    previous: Option<Arc<RequestStateCodec>>,
}

/// Seals and opens request states with one key ring and lifetime: the key the server was
/// given, or else the ring of its state store, shared by every process that shares the store.
#[derive(Clone)]
pub(crate) struct Sealer {
    /// The key the server was given ([`Sealer::with_key`]); `None`: the store's ring.
    given: Option<Codecs>,
    state: State,
    /// The store's ring as last read, with its codecs, made again only when it changed.
    read: Arc<Mutex<Option<(KeyRing, Codecs)>>>,
    ttl: Duration,
    /// How old the store's current key may grow before it is rotated; never below `ttl`.
    rotation: Duration,
    /// Unix milliseconds now; a test replaces it.
    now: fn() -> u64,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sealer").field("ttl", &self.ttl).finish()
    }
}

impl Default for Sealer {
    fn default() -> Self {
        Sealer::new(State::default())
    }
}

fn system_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Sealer {
    /// Sealing with the key ring of `state`.
    pub(crate) fn new(state: State) -> Self {
        Sealer {
            given: None,
            state,
            read: Arc::default(),
            ttl: DEFAULT_TTL,
            rotation: DEFAULT_ROTATION,
            now: system_now,
        }
    }

    /// This sealer with `key` (at least 32 bytes), shared by every replica behind a balancer,
    /// in place of the store's ring.
    pub(crate) fn with_key(&self, key: Vec<u8>) -> Result<Sealer, RequestStateError> {
        let current = Arc::new(RequestStateCodec::try_new(key)?);
        Ok(Sealer {
            given: Some(Codecs {
                current,
                previous: None,
            }),
            ..self.clone()
        })
    }

    pub(crate) fn with_ttl(&self, ttl: Duration) -> Sealer {
        Sealer {
            ttl,
            ..self.clone()
        }
    }

    pub(crate) fn with_rotation(&self, rotation: Duration) -> Sealer {
        Sealer {
            rotation,
            ..self.clone()
        }
    }

    /// This sealer with the key ring of `state`, unless it was given a key.
    pub(crate) fn with_state(&self, state: State) -> Sealer {
        Sealer {
            state,
            read: Arc::default(),
            ..self.clone()
        }
    }

    #[cfg(test)]
    fn with_clock(&self, now: fn() -> u64) -> Sealer {
        Sealer {
            now,
            ..self.clone()
        }
    }

    /// The codecs to seal and open with.
    async fn codecs(&self) -> Result<Codecs, Refused> {
        if let Some(given) = &self.given {
            return Ok(given.clone());
        }
        let unavailable = |e: crate::state::StoreError| {
            tracing::error!(error = %e, "the request-state keys were not read");
            Refused::Unavailable
        };
        let store = self.state.store();
        let mut ring = store.keys().await.map_err(unavailable)?;
        // The previous key opens what was sealed just before a rotation until the next one:
        // a period no shorter than a state's lifetime lets every state live out its TTL.
        let due = Rotation::when_older_than((self.now)(), self.rotation.max(self.ttl));
        if due.is_due(&ring) {
            let mut fresh = vec![0u8; 32];
            getrandom::fill(&mut fresh).map_err(|e| {
                tracing::error!(error = %e, "no random request-state key");
                Refused::Unavailable
            })?;
            ring = store
                .rotate_keys(Key(fresh), due)
                .await
                .map_err(unavailable)?;
            tracing::info!("the request-state key was rotated");
        }
        let mut read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((known, codecs)) = &*read
            && *known == ring
        {
            return Ok(codecs.clone());
        }
        let codec = |key: &crate::state::Key| {
            RequestStateCodec::try_new(key.0.clone())
                .map(Arc::new)
                .map_err(|e| {
                    tracing::error!(error = %e, "the store's request-state key is refused");
                    Refused::Unavailable
                })
        };
        let codecs = Codecs {
            current: codec(&ring.current)?,
            previous: ring.previous.as_ref().map(codec).transpose()?,
        };
        *read = Some((ring, codecs.clone()));
        Ok(codecs)
    }

    /// `answers` sealed for the call `binding` names, with the current key.
    pub(crate) async fn seal(
        &self,
        binding: &[u8],
        answers: BTreeMap<String, Value>,
    ) -> Result<String, ErrorData> {
        let codecs = self.codecs().await.map_err(Refused::error)?;
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let payload = Payload {
            exp: (self.now)().saturating_add(ttl),
            answers,
        };
        Ok(codecs
            .current
            .seal_json_with(&payload, &SealOptions::new().associated_data(binding))
            .expect("answers are JSON values"))
    }

    /// The answers `state` carries, when this server sealed it (with the current key or the
    /// one before) for the call `binding` names and it has not expired.
    pub(crate) async fn open(
        &self,
        state: &str,
        binding: &[u8],
    ) -> Result<BTreeMap<String, Value>, Refused> {
        let codecs = self.codecs().await?;
        let opened = codecs.current.open_json_with::<Payload>(state, binding);
        let payload = match (opened, &codecs.previous) {
            (Ok(payload), _) => payload,
            (Err(_), Some(previous)) => previous
                .open_json_with(state, binding)
                .map_err(|_| Refused::Tampered)?,
            (Err(_), None) => return Err(Refused::Tampered),
        };
        if (self.now)() > payload.exp {
            return Err(Refused::Expired);
        }
        Ok(payload.answers)
    }
}

/// The bytes a state is bound to: the tool, prompt or resource, its arguments (a read's URI)
/// in a canonical form (keys sorted at every level, so a client re-sending them in another
/// order still matches), and the verified caller's subject, when there is one.
pub(crate) fn binding(kind: &str, name: &str, arguments: &Value, caller: Option<&str>) -> Vec<u8> {
    serde_json::to_vec(&(
        "mcp-contract/request-state/1",
        kind,
        name,
        canonical(arguments),
        caller,
    ))
    .expect("JSON values serialize")
}

/// `value` with every object's keys in sorted order.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, Value> =
                map.iter().map(|(k, v)| (k, canonical(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use serde_json::json;

    use super::*;
    use crate::state::now_ms;

    static NOW: AtomicU64 = AtomicU64::new(1_000_000);

    fn now() -> u64 {
        NOW.load(Ordering::SeqCst)
    }

    fn answers() -> BTreeMap<String, Value> {
        BTreeMap::from([("name".to_owned(), json!({"action": "accept"}))])
    }

    #[tokio::test]
    async fn a_state_opens_for_its_call_until_it_expires() {
        let sealer = Sealer::default()
            .with_ttl(Duration::from_secs(60))
            .with_clock(now);
        let call = binding(
            "tool",
            "greet",
            &json!({"a": 1, "b": [{"y": 2, "x": 1}]}),
            None,
        );
        let state = sealer.seal(&call, answers()).await.expect("sealed");
        // The same arguments in another key order are the same call.
        let reordered = binding(
            "tool",
            "greet",
            &json!({"b": [{"x": 1, "y": 2}], "a": 1}),
            None,
        );
        assert_eq!(sealer.open(&state, &reordered).await, Ok(answers()));

        NOW.fetch_add(60_000, Ordering::SeqCst);
        assert_eq!(
            sealer.open(&state, &call).await,
            Ok(answers()),
            "valid to its last ms"
        );
        NOW.fetch_add(1, Ordering::SeqCst);
        assert_eq!(sealer.open(&state, &call).await, Err(Refused::Expired));
    }

    #[tokio::test]
    async fn another_call_key_or_a_changed_state_is_refused() {
        let sealer = Sealer::default();
        let call = binding("tool", "greet", &json!({"a": 1}), Some("alice"));
        let state = sealer.seal(&call, answers()).await.expect("sealed");
        for other in [
            binding("tool", "other", &json!({"a": 1}), Some("alice")),
            binding("tool", "greet", &json!({"a": 2}), Some("alice")),
            binding("tool", "greet", &json!({"a": 1}), Some("bob")),
            binding("prompt", "greet", &json!({"a": 1}), Some("alice")),
        ] {
            assert_eq!(sealer.open(&state, &other).await, Err(Refused::Tampered));
        }
        assert_eq!(
            sealer.open(&format!("{state}-TAMPERED"), &call).await,
            Err(Refused::Tampered)
        );
        let foreign = sealer.with_key(vec![7; 32]).expect("a long key");
        assert_eq!(foreign.open(&state, &call).await, Err(Refused::Tampered));
        assert!(
            sealer.with_key(vec![7; 31]).is_err(),
            "a short key is refused"
        );
    }

    #[tokio::test]
    async fn a_state_sealed_before_a_rotation_opens_until_the_next() {
        let state = State::default();
        let sealer = Sealer::new(state.clone());
        let call = binding("tool", "greet", &json!({"a": 1}), None);
        let before = sealer.seal(&call, answers()).await.expect("sealed");
        let store = state.store();
        store
            .rotate_keys(Key(vec![1; 32]), Rotation::now(now_ms()))
            .await
            .expect("rotated");
        let after = sealer.seal(&call, answers()).await.expect("sealed");
        assert_ne!(before, after, "sealed with the new key");
        assert_eq!(sealer.open(&before, &call).await, Ok(answers()));
        // Another server on the same store opens what this one sealed.
        let other = Sealer::new(state.clone());
        assert_eq!(other.open(&after, &call).await, Ok(answers()));
        store
            .rotate_keys(Key(vec![2; 32]), Rotation::now(now_ms()))
            .await
            .expect("rotated");
        assert_eq!(sealer.open(&before, &call).await, Err(Refused::Tampered));
        assert_eq!(sealer.open(&after, &call).await, Ok(answers()));
        // A given key is used in place of the ring.
        let given = sealer.with_key(vec![3; 32]).expect("a long key");
        assert_eq!(given.open(&after, &call).await, Err(Refused::Tampered));
    }

    static LATER: AtomicU64 = AtomicU64::new(0);

    fn later() -> u64 {
        LATER.load(Ordering::SeqCst)
    }

    #[tokio::test]
    async fn the_stores_key_is_rotated_once_it_is_old_and_what_it_sealed_opens_for_a_ttl() {
        let state = State::default();
        let day = 24 * 3_600_000;
        LATER.store(now_ms() + day, Ordering::SeqCst);
        let sealer = Sealer::new(state.clone())
            .with_ttl(Duration::from_secs(60))
            .with_rotation(Duration::from_secs(3600))
            .with_clock(later);
        let call = binding("tool", "greet", &json!({"a": 1}), None);
        let made = state.store().keys().await.expect("a ring");

        // A day after the key was made, it is an hour past due: the first use rotates it.
        let first = sealer.seal(&call, answers()).await.expect("sealed");
        let ring = state.store().keys().await.expect("a ring");
        assert_eq!(
            (ring.since, ring.previous.as_ref()),
            (later(), Some(&made.current))
        );
        let second = sealer.seal(&call, answers()).await.expect("sealed");
        assert_eq!(
            state.store().keys().await,
            Ok(ring.clone()),
            "rotated once, not at every use"
        );

        // An hour on, the next rotation: what the key before sealed still opens (and is
        // refused only for its age); what the new one seals opens.
        LATER.fetch_add(3_600_000, Ordering::SeqCst);
        let third = sealer.seal(&call, answers()).await.expect("sealed");
        let rotated = state.store().keys().await.expect("a ring");
        assert_eq!(rotated.previous.as_ref(), Some(&ring.current));
        for sealed in [&first, &second] {
            assert_eq!(sealer.open(sealed, &call).await, Err(Refused::Expired));
        }
        assert_eq!(sealer.open(&third, &call).await, Ok(answers()));
        let short = Sealer::new(state.clone())
            .with_ttl(Duration::from_secs(7200))
            .with_rotation(Duration::from_secs(1))
            .with_clock(later);
        let sealed = short.seal(&call, answers()).await.expect("sealed");
        LATER.fetch_add(3_600_000, Ordering::SeqCst);
        assert_eq!(
            short.open(&sealed, &call).await,
            Ok(answers()),
            "a period shorter than the TTL is the TTL: the state outlives one rotation"
        );
        assert_eq!(state.store().keys().await, Ok(rotated), "not due yet");
    }
}
