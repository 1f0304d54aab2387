//! The authorization server's signing keys: found through its metadata or configured, fetched
//! on first need, cached, and fetched again for a key id the cache lacks, at most once per
//! refresh interval, one fetch at a time.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use reqwest::Url;
use serde_json::Value;
#[cfg(test)]
use serde_json::json;
use tokio::sync::Mutex;

use super::fetch::{self, Fetcher};

/// One verification key of the set.
pub(crate) struct Key {
    /// The algorithm the key is published for (`alg`), when it says.
    alg: Option<Algorithm>,
    /// The algorithms the key's type and curve can verify.
    fits: &'static [Algorithm],
    decoding: DecodingKey,
}

impl Key {
    /// Whether this key may verify a token signed with `alg`: its type fits the algorithm
    /// (an RSA key never verifies ES256, an EC key never HS256), and the key was published
    /// for that algorithm or for none in particular.
    fn verifies(&self, alg: Algorithm) -> bool {
        self.fits.contains(&alg) && self.alg.is_none_or(|a| a == alg)
    }

    pub(crate) fn decoding(&self) -> &DecodingKey {
        &self.decoding
    }
}

/// The keys of one fetch of the set.
#[derive(Default)]
struct Keys {
    by_id: HashMap<String, Arc<Key>>,
    /// Keys without a `kid`, for tokens without one.
    unnamed: Vec<Arc<Key>>,
    /// Counts fetches, so a caller that waited for another's fetch sees it happened.
    generation: u64,
}

/// What a lookup found.
pub(crate) enum Lookup {
    Found(Arc<Key>),
    /// The set, fetched, has no key for the token.
    Unknown,
    /// The set could not be fetched, or not since the interval began, and has no key for
    /// the token: whether it is valid cannot be told now.
    Unavailable,
}

/// Where the key set is: its URL once known, or the issuer whose metadata names it.
struct Source {
    jwks: Option<Url>,
    /// When the last fetch (of the metadata or the set) was tried, successful or not.
    last_try: Option<Instant>,
    /// Whether the last try failed.
    failed: bool,
}

/// The cached key set of one authorization server.
pub(crate) struct KeySet {
    issuer: String,
    fetcher: Fetcher,
    refresh_interval: Duration,
    keys: RwLock<Arc<Keys>>,
    /// Held by the one fetch under way; others wait on it instead of fetching again.
    source: Mutex<Source>,
    /// The number of fetches of the set tried, for the log.
    fetched: std::sync::atomic::AtomicU64,
}

impl KeySet {
    pub(crate) fn new(
        issuer: String,
        jwks: Option<Url>,
        fetcher: Fetcher,
        refresh_interval: Duration,
    ) -> Self {
        KeySet {
            issuer,
            fetcher,
            refresh_interval,
            keys: RwLock::new(Arc::new(Keys::default())),
            source: Mutex::new(Source {
                jwks,
                last_try: None,
                failed: false,
            }),
            fetched: Default::default(),
        }
    }

    fn current(&self) -> Arc<Keys> {
        self.keys
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The key to verify a token with `kid` and `alg`; fetches the set when the cache has
    /// none for it and the last fetch is older than the refresh interval.
    pub(crate) async fn lookup(&self, kid: Option<&str>, alg: Algorithm) -> Lookup {
        let seen = self.current();
        if let Some(key) = find(&seen, kid, alg) {
            return Lookup::Found(key);
        }
        let mut source = self.source.lock().await;
        let now = self.current();
        if now.generation != seen.generation {
            // Another request fetched while this one waited: its answer is this one's.
            return match find(&now, kid, alg) {
                Some(key) => Lookup::Found(key),
                None => Lookup::Unknown,
            };
        }
        if source
            .last_try
            .is_some_and(|at| at.elapsed() < self.refresh_interval)
        {
            return if source.failed {
                Lookup::Unavailable
            } else {
                Lookup::Unknown
            };
        }
        source.last_try = Some(Instant::now());
        match self.fetch(&mut source).await {
            Ok(mut keys) => {
                source.failed = false;
                keys.generation = now.generation + 1;
                let keys = Arc::new(keys);
                *self
                    .keys
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = keys.clone();
                match find(&keys, kid, alg) {
                    Some(key) => Lookup::Found(key),
                    None => Lookup::Unknown,
                }
            }
            Err(e) => {
                source.failed = true;
                tracing::warn!(issuer = %self.issuer, error = %e, "cannot fetch the authorization server's keys");
                Lookup::Unavailable
            }
        }
    }

    async fn fetch(&self, source: &mut Source) -> Result<Keys, String> {
        let jwks = match &source.jwks {
            Some(url) => url.clone(),
            None => {
                let url = discover(&self.fetcher, &self.issuer).await?;
                source.jwks = Some(url.clone());
                url
            }
        };
        let n = self
            .fetched
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::debug!(%jwks, fetch = n + 1, "fetching the authorization server's keys");
        let document = self.fetcher.get(&jwks).await?;
        let set: JwkSet =
            serde_json::from_value(document).map_err(|e| format!("{jwks}: not a key set: {e}"))?;
        Ok(keys(set))
    }
}

/// The verification keys of `set`: those for signatures whose type is asymmetric; symmetric
/// (`oct`) keys and keys for encryption are left out, whatever a token says.
fn keys(set: JwkSet) -> Keys {
    let mut keys = Keys::default();
    for jwk in set.keys {
        let Some(key) = key(&jwk) else { continue };
        let key = Arc::new(key);
        match jwk.common.key_id {
            Some(kid) => {
                keys.by_id.entry(kid).or_insert(key);
            }
            None => keys.unnamed.push(key),
        }
    }
    keys
}

fn key(jwk: &Jwk) -> Option<Key> {
    if jwk
        .common
        .public_key_use
        .as_ref()
        .is_some_and(|u| *u != PublicKeyUse::Signature)
    {
        return None;
    }
    let fits: &'static [Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &[
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => &[Algorithm::ES256],
            EllipticCurve::P384 => &[Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(okp) => match okp.curve {
            EllipticCurve::Ed25519 => &[Algorithm::EdDSA],
            _ => return None,
        },
        // A symmetric key in a public set is a mistake: HMAC is never accepted.
        _ => return None,
    };
    let alg = match jwk.common.key_algorithm {
        None => None,
        Some(a) => Some(Algorithm::try_from(a).ok()?),
    };
    let decoding = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        alg,
        fits,
        decoding,
    })
}

/// The key for a token with `kid` (or, without one, the one key of the set that fits
/// `alg`), when it fits `alg`.
fn find(keys: &Keys, kid: Option<&str>, alg: Algorithm) -> Option<Arc<Key>> {
    match kid {
        Some(kid) => keys.by_id.get(kid).filter(|k| k.verifies(alg)).cloned(),
        None => {
            let mut fitting = keys
                .unnamed
                .iter()
                .chain(keys.by_id.values())
                .filter(|k| k.verifies(alg));
            match (fitting.next(), fitting.next()) {
                (Some(one), None) => Some(one.clone()),
                _ => None,
            }
        }
    }
}

/// The `jwks_uri` of the issuer's metadata: RFC 8414's
/// `/.well-known/oauth-authorization-server`, then OpenID Connect's
/// `/.well-known/openid-configuration`, each inserted before the issuer's path (and the
/// latter also appended to it, as OpenID Connect Discovery has it). The metadata must name
/// the configured issuer exactly.
pub(crate) async fn discover(fetcher: &Fetcher, issuer: &str) -> Result<Url, String> {
    let mut problems = Vec::new();
    for candidate in metadata_urls(issuer)? {
        match fetcher.get(&candidate).await {
            Ok(metadata) => return jwks_uri(&metadata, issuer, &candidate),
            Err(e) => problems.push(e),
        }
    }
    Err(format!(
        "no metadata for the issuer `{issuer}`: {}",
        problems.join("; ")
    ))
}

fn jwks_uri(metadata: &Value, issuer: &str, from: &Url) -> Result<Url, String> {
    if metadata.get("issuer").and_then(Value::as_str) != Some(issuer) {
        return Err(format!(
            "{from}: the metadata's `issuer` is {}, not `{issuer}`",
            metadata.get("issuer").unwrap_or(&Value::Null)
        ));
    }
    let Some(jwks) = metadata.get("jwks_uri").and_then(Value::as_str) else {
        return Err(format!("{from}: the metadata has no `jwks_uri`"));
    };
    fetch::url("jwks_uri", jwks)
}

/// Where the issuer's metadata may be, in the order tried.
pub(crate) fn metadata_urls(issuer: &str) -> Result<Vec<Url>, String> {
    let url = fetch::url("issuer", issuer)?;
    let path = url.path().trim_end_matches('/').to_owned();
    let at = |well_known: &str| {
        let mut candidate = url.clone();
        candidate.set_path(&format!("/.well-known/{well_known}{path}"));
        candidate.set_query(None);
        candidate
    };
    let mut urls = vec![at("oauth-authorization-server"), at("openid-configuration")];
    if !path.is_empty() {
        let mut appended = url.clone();
        appended.set_path(&format!("{path}/.well-known/openid-configuration"));
        appended.set_query(None);
        urls.push(appended);
    }
    Ok(urls)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(published: Value) -> Keys {
        keys(serde_json::from_value(json!({ "keys": published })).expect("a key set"))
    }

    const P256: (&str, &str) = (
        "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    );

    #[test]
    fn a_key_verifies_only_the_algorithms_of_its_type() {
        let keys = set(json!([
            {"kty": "EC", "crv": "P-256", "x": P256.0, "y": P256.1, "kid": "ec"},
            {"kty": "EC", "crv": "P-256", "x": P256.0, "y": P256.1, "kid": "ec-for-384", "alg": "ES384"},
            {"kty": "EC", "crv": "P-256", "x": P256.0, "y": P256.1, "kid": "ec-enc", "use": "enc"},
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
        ]));
        assert!(find(&keys, Some("ec"), Algorithm::ES256).is_some());
        for alg in [
            Algorithm::HS256,
            Algorithm::RS256,
            Algorithm::ES384,
            Algorithm::EdDSA,
        ] {
            assert!(find(&keys, Some("ec"), alg).is_none(), "{alg:?}");
        }
        assert!(
            find(&keys, Some("ec-for-384"), Algorithm::ES256).is_none(),
            "published for another alg"
        );
        assert!(
            !keys.by_id.contains_key("ec-enc"),
            "an encryption key is no signing key"
        );
        assert!(
            !keys.by_id.contains_key("hmac"),
            "a symmetric key is never loaded"
        );
        // Without a kid, the one key that fits.
        assert!(find(&keys, None, Algorithm::ES256).is_some());
    }

    #[test]
    fn a_token_without_a_kid_needs_exactly_one_fitting_key() {
        let two = set(json!([
            {"kty": "EC", "crv": "P-256", "x": P256.0, "y": P256.1, "kid": "a"},
            {"kty": "EC", "crv": "P-256", "x": P256.0, "y": P256.1},
        ]));
        assert!(find(&two, None, Algorithm::ES256).is_none());
    }

    #[test]
    fn metadata_is_looked_for_with_the_path_inserted() {
        let urls = |issuer| {
            metadata_urls(issuer)
                .expect("an issuer")
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            urls("https://idp.example.com/realms/mcp/"),
            [
                "https://idp.example.com/.well-known/oauth-authorization-server/realms/mcp",
                "https://idp.example.com/.well-known/openid-configuration/realms/mcp",
                "https://idp.example.com/realms/mcp/.well-known/openid-configuration",
            ]
        );
        assert!(metadata_urls("http://auth.example.com").is_err());
        assert!(metadata_urls("http://127.0.0.1:9000").is_ok());
    }
}
