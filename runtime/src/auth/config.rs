//! What a deployment configures: the authorization server, this server's resource
//! identifier, and how tokens are verified.

use std::time::Duration;

/// The tokens' signing algorithms accepted unless [`Authorization::algorithms`] says
/// otherwise: every asymmetric one `jsonwebtoken` verifies.
pub const DEFAULT_ALGORITHMS: &[&str] = &[
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA",
];

/// The clock skew allowed on `exp` and `nbf` unless [`Authorization::leeway`] says otherwise.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);

/// The shortest time between two fetches of the key set unless
/// [`Authorization::refresh_interval`] says otherwise.
///
/// A token naming a key the cached set lacks makes the set be fetched again, at most this
/// often: a flood of made-up key ids costs the authorization server two fetches a minute, and
/// a key an authorization server starts signing with before publishing it is refused for at
/// most this long.
pub const DEFAULT_REFRESH_INTERVAL: Duration = Duration::from_secs(30);

/// How long one fetch of metadata, keys or an introspection may take unless
/// [`Authorization::fetch_timeout`] says otherwise.
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest `Authorization` header value read unless [`Authorization::max_token_bytes`]
/// says otherwise; a longer one is refused before it is parsed.
pub const DEFAULT_MAX_TOKEN_BYTES: usize = 8 * 1024;

/// How the HTTP host verifies bearer tokens: a builder given to
/// [`Host::authorization`](crate::http::Host::authorization). See the
/// [module documentation](super) for what is checked.
///
/// ```ignore
/// let auth = Authorization::new()
///     .issuer("https://auth.example.com")
///     .resource("https://mcp.example.com");
/// Host::groups(server).authorization(auth).serve(addr).await?;
/// ```
#[derive(Debug, Clone)]
pub struct Authorization {
    pub(crate) issuer: Option<String>,
    pub(crate) resource: Option<String>,
    pub(crate) jwks: Option<String>,
    pub(crate) introspection: Option<Introspection>,
    pub(crate) algorithms: Vec<String>,
    pub(crate) leeway: Duration,
    pub(crate) claims: Vec<String>,
    pub(crate) refresh_interval: Duration,
    pub(crate) fetch_timeout: Duration,
    pub(crate) max_token_bytes: usize,
    pub(crate) resource_name: Option<String>,
}

/// RFC 7662 token introspection: where, and the credentials of this server as a client.
#[derive(Clone)]
pub(crate) struct Introspection {
    pub(crate) endpoint: String,
    pub(crate) client_id: String,
    pub(crate) client_secret: String,
}

impl std::fmt::Debug for Introspection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl Default for Authorization {
    fn default() -> Self {
        Authorization::new()
    }
}

impl Authorization {
    /// Verification of JWT access tokens, with the issuer and the resource identifier the
    /// manifest's `auth:` block names (its one authorization server, its `resource`) until
    /// [`Authorization::issuer`] and [`Authorization::resource`] say otherwise.
    pub fn new() -> Self {
        Authorization {
            issuer: None,
            resource: None,
            jwks: None,
            introspection: None,
            algorithms: DEFAULT_ALGORITHMS.iter().map(|&a| a.to_owned()).collect(),
            leeway: DEFAULT_LEEWAY,
            claims: Vec::new(),
            refresh_interval: DEFAULT_REFRESH_INTERVAL,
            fetch_timeout: DEFAULT_FETCH_TIMEOUT,
            max_token_bytes: DEFAULT_MAX_TOKEN_BYTES,
            resource_name: None,
        }
    }

    /// The authorization server whose tokens are accepted, by its issuer identifier (RFC
    /// 8414), such as `https://auth.example.com` or `https://idp.example.com/realms/mcp`:
    /// tokens must carry it as `iss`, and the protected resource metadata names it. An
    /// `https` URL, or `http` on a loopback address.
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// This server's resource identifier (RFC 8707): the public URL at which the host's root
    /// `/` is reached, such as `https://mcp.example.com`. The route `/mcp/read` is then the
    /// resource `https://mcp.example.com/mcp/read`, which its metadata publishes and clients
    /// request tokens for; a token's `aud` must name that URI or this identifier itself.
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// The authorization server's key set (JWKS), when it is not to be found through its
    /// metadata (`jwks_uri` of `/.well-known/oauth-authorization-server`, or of
    /// `/.well-known/openid-configuration`).
    pub fn jwks(mut self, url: impl Into<String>) -> Self {
        self.jwks = Some(url.into());
        self
    }

    /// Verifies tokens by asking the authorization server (RFC 7662 introspection at
    /// `endpoint`, authenticated with HTTP Basic as `client_id`) instead of as JWTs: each
    /// request is one introspection, not cached.
    pub fn introspection(
        mut self,
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        self.introspection = Some(Introspection {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        });
        self
    }

    /// The JWT signing algorithms accepted, by their JOSE names (`RS256`, `PS256`, `ES256`,
    /// `ES384`, `EdDSA`, …); [`DEFAULT_ALGORITHMS`] by default. `none` and the HMAC ones
    /// (`HS256`, …) are never accepted: naming one, or an unknown name, is refused when
    /// serving.
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.algorithms = algorithms.into_iter().map(Into::into).collect();
        self
    }

    /// The clock skew allowed on `exp` and `nbf`; [`DEFAULT_LEEWAY`] by default.
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The token claims passed on to handlers in [`Principal::claims`](crate::Principal),
    /// by name (such as `email`); none by default.
    pub fn claims(mut self, claims: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.claims = claims.into_iter().map(Into::into).collect();
        self
    }

    /// The shortest time between two fetches of the key set (and of the metadata that names
    /// it); [`DEFAULT_REFRESH_INTERVAL`] by default.
    pub fn refresh_interval(mut self, interval: Duration) -> Self {
        self.refresh_interval = interval;
        self
    }

    /// How long one fetch from the authorization server may take;
    /// [`DEFAULT_FETCH_TIMEOUT`] by default.
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.fetch_timeout = timeout;
        self
    }

    /// The longest `Authorization` header accepted, in bytes;
    /// [`DEFAULT_MAX_TOKEN_BYTES`] by default.
    pub fn max_token_bytes(mut self, bytes: usize) -> Self {
        self.max_token_bytes = bytes;
        self
    }

    /// The `resource_name` of the protected resource metadata; by default the contract's
    /// title, or its name.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }
}
