//! A test authorization server (feature `auth-testing`): signing keys generated in the
//! process, its RFC 8414 metadata and key set served on loopback, and access tokens minted
//! per case with the claims and header a test chooses, including the forged ones a resource
//! server must refuse.
//!
//! ```ignore
//! let issuer = TestIssuer::start().await;
//! let host = Host::groups(server).authorization(
//!     Authorization::new().issuer(issuer.issuer()).resource("http://127.0.0.1:8080"),
//! );
//! let token = issuer.token().audience("http://127.0.0.1:8080/mcp/read").scope("read").sign();
//! ```

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Map, Value, json};

/// One signing key of the test issuer.
struct TestKey {
    kid: String,
    alg: Algorithm,
    encoding: EncodingKey,
    jwk: Jwk,
    /// The public key's bytes as published (the EC point, or the Ed25519 key), for the HMAC
    /// confusion attack.
    public: Vec<u8>,
}

impl TestKey {
    /// A new key for `alg` (`ES256` or `EdDSA`), from the operating system's randomness.
    fn generate(kid: &str, alg: Algorithm) -> TestKey {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).expect("the operating system gives randomness");
        let (der, public) = match alg {
            Algorithm::ES256 => {
                use p256::pkcs8::EncodePrivateKey as _;
                let secret = loop {
                    if let Ok(secret) = p256::SecretKey::from_slice(&seed) {
                        break secret;
                    }
                    getrandom::fill(&mut seed).expect("the operating system gives randomness");
                };
                let der = secret.to_pkcs8_der().expect("a P-256 key encodes");
                (
                    der.as_bytes().to_vec(),
                    secret.public_key().to_sec1_bytes().to_vec(),
                )
            }
            Algorithm::EdDSA => {
                // RFC 8410's PKCS #8 v1 of an Ed25519 seed: a fixed prefix, then the seed.
                let mut der = vec![
                    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04,
                    0x22, 0x04, 0x20,
                ];
                der.extend_from_slice(&seed);
                (der, Vec::new())
            }
            other => panic!("the test issuer makes ES256 and EdDSA keys, not {other:?}"),
        };
        let encoding = match alg {
            Algorithm::ES256 => EncodingKey::from_ec_der(&der),
            _ => EncodingKey::from_ed_der(&der),
        };
        let mut jwk = Jwk::from_encoding_key(&encoding, alg).expect("a public JWK");
        jwk.common.key_id = Some(kid.to_owned());
        jwk.common.public_key_use = Some(PublicKeyUse::Signature);
        let public = match &jwk.algorithm {
            AlgorithmParameters::OctetKeyPair(okp) => URL_SAFE_NO_PAD
                .decode(&okp.x)
                .expect("the JWK's public key"),
            _ => public,
        };
        TestKey {
            kid: kid.to_owned(),
            alg,
            encoding,
            jwk,
            public,
        }
    }
}

/// The client id this issuer's introspection endpoint accepts, with [`CLIENT_SECRET`].
pub const CLIENT_ID: &str = "resource-server";
/// The secret of [`CLIENT_ID`].
pub const CLIENT_SECRET: &str = "resource-server-secret";

struct Inner {
    issuer: String,
    /// How long the key set takes to answer.
    jwks_delay: Mutex<Duration>,
    /// Every token [`TokenBuilder::sign`] made, which introspection knows, and those revoked.
    minted: Mutex<HashSet<String>>,
    revoked: Mutex<HashSet<String>>,
    introspections: AtomicUsize,
    /// The published keys; the last is the one tokens are signed with by default.
    keys: Mutex<Vec<Arc<TestKey>>>,
    jwks_fetches: AtomicUsize,
    /// The number of keys made, naming the next one.
    made: AtomicUsize,
}

/// An OAuth authorization server for tests, served on a free loopback port for the rest of
/// the test: its metadata at `/.well-known/oauth-authorization-server` (naming `issuer` and
/// `jwks_uri`), its key set at `/jwks`, which counts its fetches, and RFC 7662 introspection
/// at `/introspect` (for [`CLIENT_ID`] and [`CLIENT_SECRET`]), which knows the tokens
/// [`TokenBuilder::sign`] made. It starts with one ES256 key, `key-1`.
#[derive(Clone)]
pub struct TestIssuer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for TestIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestIssuer")
            .field("issuer", &self.inner.issuer)
            .finish_non_exhaustive()
    }
}

impl TestIssuer {
    /// Starts the issuer on `127.0.0.1`.
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound.
    pub async fn start() -> TestIssuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("cannot bind a loopback port: {e}"));
        let addr = listener.local_addr().expect("a bound address");
        let inner = Arc::new(Inner {
            issuer: format!("http://{addr}"),
            keys: Mutex::new(vec![Arc::new(TestKey::generate("key-1", Algorithm::ES256))]),
            jwks_fetches: AtomicUsize::new(0),
            made: AtomicUsize::new(1),
            jwks_delay: Mutex::new(Duration::ZERO),
            minted: Mutex::default(),
            revoked: Mutex::default(),
            introspections: AtomicUsize::new(0),
        });
        let router = Router::new()
            .route("/.well-known/oauth-authorization-server", get(metadata))
            .route("/jwks", get(jwks))
            .route("/introspect", post(introspect))
            .with_state(inner.clone());
        tokio::spawn(async move { axum::serve(listener, router).await });
        TestIssuer { inner }
    }

    /// The issuer identifier, `http://127.0.0.1:PORT`.
    pub fn issuer(&self) -> &str {
        &self.inner.issuer
    }

    /// The key set's URL.
    pub fn jwks_url(&self) -> String {
        format!("{}/jwks", self.inner.issuer)
    }

    /// How many times the key set has been fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.inner.jwks_fetches.load(Ordering::SeqCst)
    }

    /// The introspection endpoint's URL.
    pub fn introspection_url(&self) -> String {
        format!("{}/introspect", self.inner.issuer)
    }

    /// How many tokens have been introspected.
    pub fn introspections(&self) -> usize {
        self.inner.introspections.load(Ordering::SeqCst)
    }

    /// Revokes `token`: introspection answers it `active: false` from now on.
    pub fn revoke(&self, token: &str) {
        lock(&self.inner.revoked).insert(token.to_owned());
    }

    /// Makes the key set take `delay` to answer, so that requests meet during a fetch.
    pub fn delay_jwks(&self, delay: Duration) {
        *lock(&self.inner.jwks_delay) = delay;
    }

    /// Publishes a new key for `alg` (`ES256` or `EdDSA`) beside the others and signs with it
    /// from now on; returns its key id.
    pub fn add_key(&self, alg: &str) -> String {
        let alg: Algorithm = alg.parse().expect("a JOSE algorithm name");
        let kid = format!("key-{}", self.inner.made.fetch_add(1, Ordering::SeqCst) + 1);
        let key = Arc::new(TestKey::generate(&kid, alg));
        self.keys().push(key);
        kid
    }

    /// Rotates: a new ES256 key replaces every published one; returns its key id.
    pub fn rotate(&self) -> String {
        let kid = self.add_key("ES256");
        self.keys().retain(|k| k.kid == kid);
        kid
    }

    /// A token from this issuer: `iss`, `sub` `alice`, `iat` now, `exp` in five minutes, no
    /// audience and no scope until the builder adds them.
    pub fn token(&self) -> TokenBuilder {
        let now = now();
        let mut claims = Map::new();
        claims.insert("iss".into(), json!(self.inner.issuer));
        claims.insert("sub".into(), json!("alice"));
        claims.insert("iat".into(), json!(now));
        claims.insert("exp".into(), json!(now + 300));
        TokenBuilder {
            issuer: self.clone(),
            claims,
            kid: None,
        }
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, Vec<Arc<TestKey>>> {
        lock(&self.inner.keys)
    }

    fn key(&self, kid: Option<&str>) -> Arc<TestKey> {
        let keys = self.keys();
        match kid {
            Some(kid) => keys.iter().find(|k| k.kid == kid).cloned(),
            None => keys.last().cloned(),
        }
        .expect("the test issuer has that key")
    }
}

/// The claims and header of one token to mint. See [`TestIssuer::token`].
#[derive(Debug, Clone)]
pub struct TokenBuilder {
    issuer: TestIssuer,
    claims: Map<String, Value>,
    kid: Option<String>,
}

impl TokenBuilder {
    /// Sets claim `name`.
    pub fn claim(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.claims.insert(name.to_owned(), value.into());
        self
    }

    /// Removes claim `name`.
    pub fn without(mut self, name: &str) -> Self {
        self.claims.remove(name);
        self
    }

    /// Sets `aud`.
    pub fn audience(self, audience: &str) -> Self {
        self.claim("aud", audience)
    }

    /// Sets `scope`, space-separated scopes.
    pub fn scope(self, scope: &str) -> Self {
        self.claim("scope", scope)
    }

    /// Sets `sub`.
    pub fn subject(self, subject: &str) -> Self {
        self.claim("sub", subject)
    }

    /// Sets `exp` to `seconds` from now (negative: in the past).
    pub fn expires_in(self, seconds: i64) -> Self {
        self.claim("exp", now() + seconds)
    }

    /// Sets `nbf` to `seconds` from now.
    pub fn not_before_in(self, seconds: i64) -> Self {
        self.claim("nbf", now() + seconds)
    }

    /// Signs with the published key `kid` instead of the newest one.
    pub fn signed_by(mut self, kid: &str) -> Self {
        self.kid = Some(kid.to_owned());
        self
    }

    /// The token, signed by the newest key (or [`TokenBuilder::signed_by`]'s) with its
    /// algorithm, its header naming its key id.
    pub fn sign(self) -> String {
        let key = self.issuer.key(self.kid.as_deref());
        let issuer = self.issuer.clone();
        let token = self.sign_as(&key.kid, key.alg, &key.encoding);
        lock(&issuer.inner.minted).insert(token.clone());
        token
    }

    /// The token signed by a key of the same type that the issuer never published, its
    /// header naming key id `kid` (a published one: a bad signature; another: an unknown key).
    pub fn forged(self, kid: &str) -> String {
        let key = TestKey::generate(kid, Algorithm::ES256);
        self.sign_as(kid, key.alg, &key.encoding)
    }

    /// The token with `alg: none` and no signature, naming the newest key.
    pub fn unsigned(self) -> String {
        let kid = self.issuer.key(None).kid.clone();
        let header = json!({ "alg": "none", "typ": "JWT", "kid": kid });
        format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(Value::Object(self.claims).to_string())
        )
    }

    /// The token signed `HS256` with the newest key's public bytes as the secret, its header
    /// naming that key: the algorithm confusion attack.
    pub fn hmac_with_public_key(self) -> String {
        let key = self.issuer.key(None);
        let secret = EncodingKey::from_secret(&key.public).expect("an HMAC key");
        self.sign_as(&key.kid, Algorithm::HS256, &secret)
    }

    fn sign_as(self, kid: &str, alg: Algorithm, key: &EncodingKey) -> String {
        let mut header = Header::new(alg);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, &Value::Object(self.claims), key).expect("a signed token")
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

async fn metadata(State(inner): State<Arc<Inner>>) -> impl IntoResponse {
    let issuer = &inner.issuer;
    let body = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    });
    ([(CONTENT_TYPE, "application/json")], body.to_string())
}

async fn jwks(State(inner): State<Arc<Inner>>) -> impl IntoResponse {
    inner.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    let delay = *lock(&inner.jwks_delay);
    tokio::time::sleep(delay).await;
    let set = JwkSet {
        keys: lock(&inner.keys).iter().map(|k| k.jwk.clone()).collect(),
    };
    (
        [(CONTENT_TYPE, "application/json")],
        serde_json::to_string(&set).expect("a key set serializes"),
    )
}

/// RFC 7662: the claims of a token this issuer made and did not revoke, with `active: true`;
/// `active: false` for any other.
async fn introspect(
    State(inner): State<Arc<Inner>>,
    headers: HeaderMap,
    body: String,
) -> axum::response::Response {
    inner.introspections.fetch_add(1, Ordering::SeqCst);
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    if headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let token = body
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .map(percent_decoded)
        .unwrap_or_default();
    let known = lock(&inner.minted).contains(&token) && !lock(&inner.revoked).contains(&token);
    let answer = match jsonwebtoken::dangerous::insecure_decode_claims::<Map<String, Value>>(&token)
    {
        Ok(mut claims) if known => {
            claims.insert("active".into(), Value::Bool(true));
            Value::Object(claims)
        }
        _ => json!({ "active": false }),
    };
    ([(CONTENT_TYPE, "application/json")], answer.to_string()).into_response()
}

fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
