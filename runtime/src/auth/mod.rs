//! Authorization for the HTTP host (feature `auth`): the host as an OAuth 2.1 resource
//! server, as the MCP specification's authorization section has it on both revisions.
//!
//! [`Host::authorization`](crate::http::Host::authorization) takes an [`Authorization`];
//! every mounted route then requires a valid bearer token, and each route is a protected
//! resource of its own:
//!
//! - **Its identifier** is the configured resource identifier (the public URL of the host's
//!   root, [`Authorization::resource`], or the manifest's `auth.resource`) followed by the
//!   route: `https://mcp.example.com/mcp/read` for `/mcp/read`. Its metadata (RFC 9728) is
//!   served to anyone at `/.well-known/oauth-protected-resource/mcp/read` (`GET`, JSON:
//!   `resource`, `authorization_servers` (the issuer), `scopes_supported` (every scope the
//!   contract declares, omitted when it declares none), `bearer_methods_supported:
//!   ["header"]`, `resource_name`), and advertised at that path inserted after the
//!   identifier's host. A token is accepted when its `aud` names the route's identifier or the
//!   configured identifier itself (one token for every route of a host), compared exactly.
//! - **The token** is read from the one `Authorization: Bearer` header only. A request with
//!   `access_token` in its query, two `Authorization` headers, `Bearer` without a token or a
//!   token that is not RFC 6750 `b64token` is answered `400` with `error="invalid_request"`;
//!   a header over [`Authorization::max_token_bytes`] (8 KiB) is refused `401 invalid_token`
//!   before it is parsed; no header or another scheme (`Basic`) is `401` without an error
//!   code. Every such answer carries `WWW-Authenticate: Bearer resource_metadata="…"` and,
//!   when the route requires scopes ([`Server::required_scopes`](crate::Server::required_scopes)),
//!   `scope="…"`.
//! - **A JWT** must be signed with an algorithm of the allow-list (asymmetric only: `none`
//!   and HMAC are never accepted, even when configured) by a key of the authorization
//!   server's key set whose type fits the algorithm (an RSA key never verifies `ES256`; a
//!   symmetric `oct` key of the set is ignored, so HMAC with a public key's bytes cannot
//!   pass) and whose `alg`, when the set gives one, is the token's; its `iss` must be the
//!   issuer, its `aud` the resource, its `exp` (required) and `nbf` must hold within the
//!   leeway (60 s), its `sub` must be a non-empty string. Any failure is `401` with
//!   `error="invalid_token"` and a short `error_description`.
//! - **With introspection** ([`Authorization::introspection`], RFC 7662) the server's answer
//!   must say `active: true`, name the issuer as `iss` when it names one, name the resource in
//!   `aud` (required), and hold `exp`/`nbf` within the leeway.
//! - **The key set** is found through the issuer's metadata (RFC 8414
//!   `/.well-known/oauth-authorization-server` with the issuer's path inserted, then OpenID
//!   `/.well-known/openid-configuration`; its `issuer` must be the configured one exactly)
//!   unless [`Authorization::jwks`] gives it; fetched on the first token, cached, and fetched
//!   again for a key id it lacks at most once per [`Authorization::refresh_interval`]
//!   (30 s), concurrent refreshes waiting for one fetch. Each fetch has a timeout (5 s) and
//!   a size bound (256 KiB), from `https` URLs (`http` only on loopback). While the set
//!   cannot be fetched, a token whose key is not cached is answered `503` with
//!   `Retry-After`: its validity cannot be told, and a `401` would send the client to
//!   re-authorize for nothing.
//! - **A valid token without the route's scopes** is answered `403` with
//!   `error="insufficient_scope"`, `scope="…"` (the route's required scopes) and
//!   `resource_metadata`, so a client can step up.
//! - **A valid token** goes on as a [`Principal`](crate::Principal) (subject from `sub`,
//!   scopes from `scope` or `scp`, client from `client_id` or `azp`, the claims named by
//!   [`Authorization::claims`]) in the request's extensions, which handlers read with
//!   [`Context::principal`](crate::Context::principal); the `Authorization` header is removed
//!   first, so no handler, log or downstream call sees the token.
//!
//! Not checked: the token's `typ` (RFC 9068 `at+jwt` is not required, as common
//! authorization servers issue `JWT`), `jti` replay, revocation of a JWT before its
//! expiry (use introspection for that), sender-constrained tokens (DPoP, mTLS). A cached
//! key the authorization server withdraws stays trusted until a refresh for an unknown key
//! replaces the set. Per-tool scopes are the server's to enforce, not the host's.
//!
//! [`RateLimit`] (with [`Host::rate_limit`](crate::http::Host::rate_limit), with or without
//! authorization) limits requests per caller: by the verified subject, or by client address
//! (an IPv6 one by its /64) for requests without a valid token and on hosts without
//! authorization; past it, `429` with `Retry-After`.

mod answer;
mod config;
mod fetch;
pub(crate) mod guard;
mod keys;
mod limit;
pub(crate) mod metadata;
mod verify;

pub use config::{
    Authorization, DEFAULT_ALGORITHMS, DEFAULT_FETCH_TIMEOUT, DEFAULT_LEEWAY,
    DEFAULT_MAX_TOKEN_BYTES, DEFAULT_REFRESH_INTERVAL,
};
pub use limit::RateLimit;
