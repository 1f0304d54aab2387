//! The sealed `requestState` of a 2026-07-28 call that asked its client: the answers of the
//! rounds before, and an expiry, under an HMAC that binds them to the call.
//!
//! Sealing is rmcp's [`RequestStateCodec`] (HMAC-SHA256 with domain separation, the call's
//! binding as associated data, keys zeroized on drop); the expiry travels inside the sealed
//! payload and is checked here against the runtime's clock rather than the codec's, so a test
//! can move the clock.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How long a request state stays valid by default: long enough for a person to answer.
pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

/// The key of every server in this process that was not given one: random, made once.
static PROCESS_KEY: LazyLock<Arc<RequestStateCodec>> = LazyLock::new(|| {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).expect("the operating system's random source");
    Arc::new(RequestStateCodec::try_new(key.to_vec()).expect("a 32-byte key"))
});

/// Why a request state is refused; each is `-32602` to the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Not made by this server's key for this call: altered, forged, or another tool's or
    /// other arguments' state.
    Tampered,
    /// Made for this call, but past its expiry.
    Expired,
}

impl Refused {
    pub(crate) fn message(self) -> &'static str {
        match self {
            Refused::Tampered => {
                "requestState integrity check failed: it was altered, or belongs to another \
                 tool, other arguments or another caller"
            }
            Refused::Expired => "requestState expired: call again without it to start over",
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

/// Seals and opens request states with one key and lifetime.
#[derive(Clone)]
pub(crate) struct Sealer {
    codec: Arc<RequestStateCodec>,
    ttl: Duration,
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
        Sealer {
            codec: Arc::clone(&PROCESS_KEY),
            ttl: DEFAULT_TTL,
            now: system_now,
        }
    }
}

fn system_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Sealer {
    /// This sealer with `key` (at least 32 bytes), shared by every replica behind a balancer.
    pub(crate) fn with_key(&self, key: Vec<u8>) -> Result<Sealer, RequestStateError> {
        Ok(Sealer {
            codec: Arc::new(RequestStateCodec::try_new(key)?),
            ..self.clone()
        })
    }

    pub(crate) fn with_ttl(&self, ttl: Duration) -> Sealer {
        Sealer {
            ttl,
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

    /// `answers` sealed for the call `binding` names.
    pub(crate) fn seal(&self, binding: &[u8], answers: BTreeMap<String, Value>) -> String {
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let payload = Payload {
            exp: (self.now)().saturating_add(ttl),
            answers,
        };
        self.codec
            .seal_json_with(&payload, &SealOptions::new().associated_data(binding))
            .expect("answers are JSON values")
    }

    /// The answers `state` carries, when this server sealed it for the call `binding` names
    /// and it has not expired.
    pub(crate) fn open(
        &self,
        state: &str,
        binding: &[u8],
    ) -> Result<BTreeMap<String, Value>, Refused> {
        let payload: Payload = self
            .codec
            .open_json_with(state, binding)
            .map_err(|_| Refused::Tampered)?;
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

    static NOW: AtomicU64 = AtomicU64::new(1_000_000);

    fn now() -> u64 {
        NOW.load(Ordering::SeqCst)
    }

    fn answers() -> BTreeMap<String, Value> {
        BTreeMap::from([("name".to_owned(), json!({"action": "accept"}))])
    }

    #[test]
    fn a_state_opens_for_its_call_until_it_expires() {
        let sealer = Sealer::default()
            .with_ttl(Duration::from_secs(60))
            .with_clock(now);
        let call = binding(
            "tool",
            "greet",
            &json!({"a": 1, "b": [{"y": 2, "x": 1}]}),
            None,
        );
        let state = sealer.seal(&call, answers());
        // The same arguments in another key order are the same call.
        let reordered = binding(
            "tool",
            "greet",
            &json!({"b": [{"x": 1, "y": 2}], "a": 1}),
            None,
        );
        assert_eq!(sealer.open(&state, &reordered), Ok(answers()));

        NOW.fetch_add(60_000, Ordering::SeqCst);
        assert_eq!(
            sealer.open(&state, &call),
            Ok(answers()),
            "valid to its last ms"
        );
        NOW.fetch_add(1, Ordering::SeqCst);
        assert_eq!(sealer.open(&state, &call), Err(Refused::Expired));
    }

    #[test]
    fn another_call_key_or_a_changed_state_is_refused() {
        let sealer = Sealer::default();
        let call = binding("tool", "greet", &json!({"a": 1}), Some("alice"));
        let state = sealer.seal(&call, answers());
        for other in [
            binding("tool", "other", &json!({"a": 1}), Some("alice")),
            binding("tool", "greet", &json!({"a": 2}), Some("alice")),
            binding("tool", "greet", &json!({"a": 1}), Some("bob")),
            binding("prompt", "greet", &json!({"a": 1}), Some("alice")),
        ] {
            assert_eq!(sealer.open(&state, &other), Err(Refused::Tampered));
        }
        assert_eq!(
            sealer.open(&format!("{state}-TAMPERED"), &call),
            Err(Refused::Tampered)
        );
        let foreign = sealer.with_key(vec![7; 32]).expect("a long key");
        assert_eq!(foreign.open(&state, &call), Err(Refused::Tampered));
        assert!(
            sealer.with_key(vec![7; 31]).is_err(),
            "a short key is refused"
        );
    }
}
