//! The HTTP host as an OAuth resource server: every answer to a request with no token, a bad
//! one, a good one without the route's scope and a good one, against the test issuer.

use std::net::SocketAddr;
use std::sync::LazyLock;
use std::time::Duration;

use mcp_contract::Server;
use mcp_contract::auth::{Authorization, RateLimit};
use mcp_contract::codegen::{
    AccessSpec, BoxFuture, CallToolResult, ContractSpec, Dispatch, GroupSpec, JsonObject,
    Published, ScopeSpec, ToolSpec,
};
use mcp_contract::http::Host;
use mcp_contract::testing::auth::TestIssuer;
use mcp_contract::testing::{RawResponse, http_request, serve_on_loopback};
use serde_json::{Value, json};

const TOOLS: &[ToolSpec] = &[
    ToolSpec::open(
        r#"{"name":"whoami","description":"Tells who called.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
    ),
    ToolSpec::open(
        r#"{"name":"put","description":"Stores one item.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"readOnlyHint":false}}"#,
    ),
];

static SPEC: ContractSpec = ContractSpec {
    name: "vault",
    title: Some("The vault"),
    icons: &[],
    version: "0.1.0",
    instructions: None,
    cache: None,
    tools: TOOLS,
    resources: &[],
    artifacts_key: &["com.example/artifacts"],
    composition_key: &["com.example/composition"],
    groups: &[
        GroupSpec {
            name: "read",
            description: "Reading.",
            tools: &["whoami"],
            scopes: &["vault:read"],
        },
        GroupSpec {
            name: "write",
            description: "Writing.",
            tools: &["put"],
            scopes: &["vault:read", "vault:write"],
        },
    ],
    argument_codes: mcp_contract::codegen::ArgumentCodes::DEFAULT,
    logging: false,
    list_changed: false,
    prompts: &[],
    access: AccessSpec {
        resource: None,
        authorization_servers: &[],
        scopes: &[
            ScopeSpec {
                name: "vault:read",
                description: "Read the vault.",
            },
            ScopeSpec {
                name: "vault:write",
                description: "Change the vault.",
            },
        ],
    },
};

static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

/// Answers every call with what the request's context holds of its caller.
struct Vault(&'static Published);

impl Dispatch for Vault {
    fn published(&self) -> &'static Published {
        self.0
    }

    fn call(
        &self,
        _tool: usize,
        _arguments: JsonObject,
        cx: mcp_contract::Context,
    ) -> BoxFuture<'_, CallToolResult> {
        let principal = cx.principal().cloned();
        let authorization = cx
            .headers()
            .map(|h| h.contains_key("authorization"))
            .unwrap_or(true);
        Box::pin(async move {
            CallToolResult::structured(json!({
                "subject": principal.as_ref().map(|p| p.subject.clone()),
                "scopes": principal.as_ref().map(|p| p.scopes.clone()),
                "client_id": principal.as_ref().and_then(|p| p.client_id.clone()),
                "claims": principal.as_ref().map(|p| Value::Object(p.claims.clone())),
                "authorization_header": authorization,
            }))
        })
    }
}

fn vault() -> Server<Vault> {
    Server::new(Vault(&PUBLISHED))
}

const RESOURCE: &str = "https://mcp.example.com";
const READ: &str = "https://mcp.example.com/mcp/read";
const WRITE: &str = "https://mcp.example.com/mcp/write";
const READ_METADATA: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp/read";
const WRITE_METADATA: &str =
    "https://mcp.example.com/.well-known/oauth-protected-resource/mcp/write";

/// A host serving the vault's groups behind `issuer`, configured further by `configure`.
async fn serve(
    issuer: &TestIssuer,
    configure: impl FnOnce(Authorization) -> Authorization,
    host: impl FnOnce(Host) -> Host,
) -> SocketAddr {
    let auth = configure(
        Authorization::new()
            .issuer(issuer.issuer())
            .resource(RESOURCE),
    );
    serve_on_loopback(host(Host::groups(vault()).authorization(auth))).await
}

async fn plain(issuer: &TestIssuer) -> SocketAddr {
    serve(issuer, |a| a, |h| h).await
}

/// A 2026-07-28 `tools/call` of the route's tool, with `headers`.
async fn call_with(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> RawResponse {
    let tool = if path.starts_with("/mcp/write") {
        "put"
    } else {
        "whoami"
    };
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    });
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ];
    all.extend_from_slice(headers);
    http_request(addr, "POST", path, &all, body.to_string())
        .await
        .expect("an HTTP response")
}

async fn call(addr: SocketAddr, path: &str, token: &str) -> RawResponse {
    let bearer = format!("Bearer {token}");
    call_with(addr, path, &[("Authorization", &bearer)]).await
}

/// Asserts the call was served, and returns what the handler saw.
fn served(response: &RawResponse) -> Value {
    assert_eq!(response.status, 200, "{response:?}");
    let answer = response.json().expect("a JSON answer");
    assert!(answer.get("error").is_none(), "{answer}");
    answer["result"]["structuredContent"].clone()
}

/// Asserts `response` is a `401 invalid_token` challenge of the read route.
fn invalid_token(response: &RawResponse, why: &str) {
    assert_eq!(response.status, 401, "{why}: {response:?}");
    let challenge = response.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.starts_with(&format!(
            "Bearer resource_metadata=\"{READ_METADATA}\", scope=\"vault:read\", error=\"invalid_token\", error_description=\""
        )),
        "{why}: {challenge}"
    );
    let body = response.json().expect("a JSON body");
    assert_eq!(body["error"], "invalid_token", "{why}");
    assert!(
        challenge.contains(body["error_description"].as_str().unwrap_or("?")),
        "{why}: {challenge} vs {body}"
    );
}

fn description(response: &RawResponse) -> String {
    response.json().expect("a JSON body")["error_description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_request_without_a_token_is_challenged_with_the_route_metadata_and_scopes() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let read = call_with(addr, "/mcp/read", &[]).await;
    assert_eq!(read.status, 401, "{read:?}");
    assert_eq!(
        read.header("www-authenticate"),
        Some(
            format!("Bearer resource_metadata=\"{READ_METADATA}\", scope=\"vault:read\"").as_str()
        )
    );
    let write = call_with(addr, "/mcp/write", &[]).await;
    assert_eq!(write.status, 401, "{write:?}");
    assert_eq!(
        write.header("www-authenticate"),
        Some(
            format!(
                "Bearer resource_metadata=\"{WRITE_METADATA}\", scope=\"vault:read vault:write\""
            )
            .as_str()
        )
    );
    // Another scheme is no bearer token: a bare challenge, no error code (RFC 6750 §3.1).
    let basic = call_with(
        addr,
        "/mcp/read",
        &[("Authorization", "Basic YWxpY2U6cHc=")],
    )
    .await;
    assert_eq!(basic.status, 401, "{basic:?}");
    assert_eq!(
        basic.header("www-authenticate"),
        read.header("www-authenticate")
    );
    assert_eq!(
        issuer.jwks_fetches(),
        0,
        "nothing to verify, nothing fetched"
    );
}

#[tokio::test]
async fn a_malformed_authorization_is_an_invalid_request() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let good = issuer.token().audience(READ).scope("vault:read").sign();
    let two = format!("Bearer {good}");
    for (what, headers) in [
        ("Bearer alone", vec![("Authorization", "Bearer")]),
        (
            "a token with a space",
            vec![("Authorization", "Bearer a b")],
        ),
        ("a token of = only", vec![("Authorization", "Bearer ===")]),
        (
            "two Authorization headers",
            vec![
                ("Authorization", two.as_str()),
                ("Authorization", two.as_str()),
            ],
        ),
    ] {
        let refused = call_with(addr, "/mcp/read", &headers).await;
        assert_eq!(refused.status, 400, "{what}: {refused:?}");
        let challenge = refused.header("www-authenticate").unwrap_or_default();
        assert!(
            challenge.starts_with(&format!(
                "Bearer resource_metadata=\"{READ_METADATA}\", scope=\"vault:read\", error=\"invalid_request\""
            )),
            "{what}: {challenge}"
        );
        assert_eq!(
            refused.json().expect("JSON")["error"],
            "invalid_request",
            "{what}"
        );
    }
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused_even_beside_a_good_header() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let token = issuer.token().audience(READ).scope("vault:read").sign();
    let path = format!("/mcp/read?access_token={token}");
    for headers in [vec![], vec![("Authorization", format!("Bearer {token}"))]] {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let refused = call_with(addr, &path, &headers).await;
        assert_eq!(refused.status, 400, "{refused:?}");
        assert_eq!(refused.json().expect("JSON")["error"], "invalid_request");
        assert!(
            description(&refused).contains("never in the URL"),
            "{refused:?}"
        );
    }
    // Without the query, the same token is served.
    served(&call(addr, "/mcp/read", &token).await);
}

#[tokio::test]
async fn a_token_is_checked_for_expiry_and_not_before_within_the_leeway() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let token = || issuer.token().audience(READ).scope("vault:read");
    let expired = call(addr, "/mcp/read", &token().expires_in(-120).sign()).await;
    invalid_token(&expired, "expired");
    assert_eq!(description(&expired), "the token has expired");
    let early = call(addr, "/mcp/read", &token().not_before_in(120).sign()).await;
    invalid_token(&early, "not yet valid");
    assert_eq!(description(&early), "the token is not valid yet");
    let no_expiry = call(addr, "/mcp/read", &token().without("exp").sign()).await;
    invalid_token(&no_expiry, "no exp");
    assert_eq!(description(&no_expiry), "the token has no expiry (`exp`)");
    // Within the 60 s leeway, both are accepted.
    served(&call(addr, "/mcp/read", &token().expires_in(-30).sign()).await);
    served(&call(addr, "/mcp/read", &token().not_before_in(30).sign()).await);
}

#[tokio::test]
async fn a_smaller_leeway_refuses_what_the_default_accepts() {
    let issuer = TestIssuer::start().await;
    let addr = serve(&issuer, |a| a.leeway(Duration::from_secs(5)), |h| h).await;
    let token = issuer
        .token()
        .audience(READ)
        .scope("vault:read")
        .expires_in(-30)
        .sign();
    invalid_token(&call(addr, "/mcp/read", &token).await, "expired past 5 s");
}

#[tokio::test]
async fn a_token_of_another_issuer_or_for_another_resource_is_refused() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let token = || issuer.token().scope("vault:read vault:write");
    let other_issuer = call(
        addr,
        "/mcp/read",
        &token()
            .audience(READ)
            .claim("iss", "https://evil.example")
            .sign(),
    )
    .await;
    invalid_token(&other_issuer, "another issuer");
    assert_eq!(
        description(&other_issuer),
        "the token is not from the authorization server"
    );
    for (what, aud) in [
        ("another server", json!("https://other.example/mcp/read")),
        ("another route of this host", json!(WRITE)),
        ("a trailing slash", json!(format!("{READ}/"))),
        (
            "none of several",
            json!(["https://a.example", "https://b.example"]),
        ),
    ] {
        let refused = call(addr, "/mcp/read", &token().claim("aud", aud).sign()).await;
        invalid_token(&refused, what);
        assert_eq!(
            description(&refused),
            "the token is not for this resource",
            "{what}"
        );
    }
    let no_audience = call(addr, "/mcp/read", &token().sign()).await;
    invalid_token(&no_audience, "no aud");
    // The route's own identifier, the host's, or either among others.
    for aud in [
        json!(READ),
        json!(RESOURCE),
        json!(["https://a.example", READ]),
    ] {
        served(&call(addr, "/mcp/read", &token().claim("aud", aud).sign()).await);
    }
}

#[tokio::test]
async fn forged_tokens_are_refused() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let token = || issuer.token().audience(READ).scope("vault:read");
    served(&call(addr, "/mcp/read", &token().sign()).await);
    let bad_signature = call(addr, "/mcp/read", &token().forged("key-1")).await;
    invalid_token(&bad_signature, "signed by another key");
    assert_eq!(
        description(&bad_signature),
        "the token's signature is not valid"
    );
    let none = call(addr, "/mcp/read", &token().unsigned()).await;
    invalid_token(&none, "alg none");
    let confused = call(addr, "/mcp/read", &token().hmac_with_public_key()).await;
    invalid_token(&confused, "HS256 with the public key");
    assert_eq!(
        description(&confused),
        "the token's algorithm is not accepted"
    );
    let garbage = call(addr, "/mcp/read", "not-a.jwt.at-all").await;
    invalid_token(&garbage, "garbage");
    let no_subject = call(addr, "/mcp/read", &token().without("sub").sign()).await;
    invalid_token(&no_subject, "no sub");
    let empty_subject = call(addr, "/mcp/read", &token().subject("").sign()).await;
    invalid_token(&empty_subject, "an empty sub");
    assert_eq!(
        description(&empty_subject),
        "the token names no subject (`sub`)"
    );
}

#[tokio::test]
async fn an_algorithm_outside_the_allow_list_is_refused() {
    let issuer = TestIssuer::start().await;
    let addr = serve(&issuer, |a| a.algorithms(["ES256"]), |h| h).await;
    issuer.add_key("EdDSA");
    let eddsa = issuer.token().audience(READ).scope("vault:read").sign();
    let refused = call(addr, "/mcp/read", &eddsa).await;
    invalid_token(&refused, "EdDSA not allowed");
    assert_eq!(
        description(&refused),
        "the token's algorithm is not accepted"
    );
    // With the default list, the same token is served.
    let addr = plain(&issuer).await;
    served(&call(addr, "/mcp/read", &eddsa).await);
}

#[tokio::test]
async fn a_very_large_token_is_refused_before_it_is_parsed() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let huge = "a".repeat(16 * 1024);
    let refused = call(addr, "/mcp/read", &huge).await;
    invalid_token(&refused, "16 KiB");
    assert_eq!(description(&refused), "the token is too large");
    // A real token padded with a claim past the bound is refused the same way.
    let padded = issuer
        .token()
        .audience(READ)
        .scope("vault:read")
        .claim("padding", "x".repeat(9 * 1024))
        .sign();
    invalid_token(&call(addr, "/mcp/read", &padded).await, "a padded token");
    assert_eq!(
        issuer.jwks_fetches(),
        0,
        "no key is fetched for a token never parsed"
    );
}

#[tokio::test]
async fn a_token_without_the_route_scopes_is_answered_insufficient_scope() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    let reader = issuer.token().scope("vault:read").audience(RESOURCE).sign();
    served(&call(addr, "/mcp/read", &reader).await);
    let refused = call(addr, "/mcp/write", &reader).await;
    assert_eq!(refused.status, 403, "{refused:?}");
    assert_eq!(
        refused.header("www-authenticate"),
        Some(
            format!(
                "Bearer resource_metadata=\"{WRITE_METADATA}\", scope=\"vault:read vault:write\", error=\"insufficient_scope\", error_description=\"the token lacks a scope this resource requires\""
            )
            .as_str()
        )
    );
    assert_eq!(refused.json().expect("JSON")["error"], "insufficient_scope");
    let none = issuer.token().audience(RESOURCE).sign();
    assert_eq!(call(addr, "/mcp/read", &none).await.status, 403);
    // `scp` as an array counts as `scope` does.
    let writer = issuer
        .token()
        .audience(RESOURCE)
        .claim("scp", json!(["vault:read", "vault:write"]))
        .sign();
    served(&call(addr, "/mcp/write", &writer).await);
}

#[tokio::test]
async fn the_handler_gets_the_principal_and_never_the_token() {
    let issuer = TestIssuer::start().await;
    let addr = serve(&issuer, |a| a.claims(["email", "tenant"]), |h| h).await;
    let token = issuer
        .token()
        .audience(READ)
        .subject("user-42")
        .scope("vault:read extra")
        .claim("email", "u42@example.com")
        .claim("secret", "kept back")
        .claim("azp", "the-client")
        .sign();
    let seen = served(&call(addr, "/mcp/read", &token).await);
    assert_eq!(
        seen,
        json!({
            "subject": "user-42",
            "scopes": ["vault:read", "extra"],
            "client_id": "the-client",
            "claims": {"email": "u42@example.com"},
            "authorization_header": false,
        })
    );
    let with_client_id = issuer
        .token()
        .audience(READ)
        .scope("vault:read")
        .claim("client_id", "first")
        .claim("azp", "second")
        .sign();
    assert_eq!(
        served(&call(addr, "/mcp/read", &with_client_id).await)["client_id"],
        "first"
    );
}

#[tokio::test]
async fn each_route_publishes_its_protected_resource_metadata() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    for (path, resource) in [("/mcp/read", READ), ("/mcp/write", WRITE)] {
        let got = http_request(
            addr,
            "GET",
            &format!("/.well-known/oauth-protected-resource{path}"),
            &[],
            "",
        )
        .await
        .expect("an answer");
        assert_eq!(got.status, 200, "{got:?}");
        assert_eq!(got.header("content-type"), Some("application/json"));
        assert_eq!(got.header("access-control-allow-origin"), Some("*"));
        assert_eq!(
            got.body,
            json!({
                "resource": resource,
                "authorization_servers": [issuer.issuer()],
                "scopes_supported": ["vault:read", "vault:write"],
                "bearer_methods_supported": ["header"],
                "resource_name": "The vault",
            })
            .to_string(),
            "{path}"
        );
    }
    let post = http_request(
        addr,
        "POST",
        "/.well-known/oauth-protected-resource/mcp/read",
        &[],
        "",
    )
    .await
    .expect("an answer");
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    for unmounted in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp/nope",
        "/mcp/nope",
    ] {
        let got = http_request(addr, "GET", unmounted, &[], "")
            .await
            .expect("an answer");
        assert_eq!(got.status, 404, "{unmounted}: {got:?}");
    }
    let named = serve(&issuer, |a| a.resource_name("Vault (staging)"), |h| h).await;
    let got = http_request(
        named,
        "GET",
        "/.well-known/oauth-protected-resource/mcp/read",
        &[],
        "",
    )
    .await
    .expect("an answer");
    assert_eq!(
        got.json().expect("JSON")["resource_name"],
        "Vault (staging)"
    );
}

#[tokio::test]
async fn an_unknown_key_refreshes_the_set_at_most_once_per_interval() {
    let issuer = TestIssuer::start().await;
    let addr = plain(&issuer).await;
    // A flood of made-up key ids as the first requests: one fetch, shared by all.
    let floods = (0..20).map(|i| {
        let token = issuer
            .token()
            .audience(READ)
            .scope("vault:read")
            .forged(&format!("made-up-{i}"));
        async move { call(addr, "/mcp/read", &token).await }
    });
    for refused in futures::future::join_all(floods).await {
        invalid_token(&refused, "an unknown key id");
        assert_eq!(
            description(&refused),
            "the token's signing key is not the authorization server's"
        );
    }
    assert_eq!(issuer.jwks_fetches(), 1, "the flood fetched the set once");
    served(
        &call(
            addr,
            "/mcp/read",
            &issuer.token().audience(READ).scope("vault:read").sign(),
        )
        .await,
    );
    assert_eq!(issuer.jwks_fetches(), 1, "a known key needs no fetch");
    // A key rotated in within the interval is not fetched for yet.
    issuer.rotate();
    let rotated = issuer.token().audience(READ).scope("vault:read").sign();
    invalid_token(
        &call(addr, "/mcp/read", &rotated).await,
        "rotated within the interval",
    );
    assert_eq!(issuer.jwks_fetches(), 1);
}

#[tokio::test]
async fn a_rotated_key_is_accepted_after_a_refresh() {
    let issuer = TestIssuer::start().await;
    let interval = Duration::from_millis(300);
    let addr = serve(&issuer, |a| a.refresh_interval(interval), |h| h).await;
    let old = issuer.token().audience(READ).scope("vault:read").sign();
    served(&call(addr, "/mcp/read", &old).await);
    assert_eq!(issuer.jwks_fetches(), 1);
    let kid = issuer.rotate();
    tokio::time::sleep(interval + Duration::from_millis(50)).await;
    assert_eq!(kid, "key-2");
    // Requests with the new key at once, meeting during the fetch: one fetch, and every
    // one that waited for it served.
    issuer.delay_jwks(Duration::from_millis(200));
    let new = issuer.token().audience(READ).scope("vault:read").sign();
    let together = (0..10).map(|_| call(addr, "/mcp/read", &new));
    for answer in futures::future::join_all(together).await {
        served(&answer);
    }
    assert_eq!(
        issuer.jwks_fetches(),
        2,
        "the unknown key id fetched the set again, once"
    );
    // The old key is gone from the set, and so from the cache.
    invalid_token(&call(addr, "/mcp/read", &old).await, "a withdrawn key");
}

#[tokio::test]
async fn an_unreachable_key_set_is_a_503_to_retry_not_a_401() {
    let issuer = TestIssuer::start().await;
    // Nothing listens there.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let dead = format!("http://{}/jwks", closed.local_addr().expect("an address"));
    drop(closed);
    let addr = serve(&issuer, |a| a.jwks(dead), |h| h).await;
    let token = issuer.token().audience(READ).scope("vault:read").sign();
    let refused = call(addr, "/mcp/read", &token).await;
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(refused.header("retry-after"), Some("30"));
    // The issuer's metadata must name the issuer exactly: a trailing slash is another one.
    let addr = serve(
        &issuer,
        |a| a.issuer(format!("{}/", issuer.issuer())),
        |h| h,
    )
    .await;
    assert_eq!(call(addr, "/mcp/read", &token).await.status, 503);
    assert_eq!(issuer.jwks_fetches(), 0);
    // Given the key set's URL, no metadata is needed.
    let addr = serve(&issuer, |a| a.jwks(issuer.jwks_url()), |h| h).await;
    served(&call(addr, "/mcp/read", &token).await);
}

#[tokio::test]
async fn a_caller_past_its_rate_limit_is_answered_429_with_retry_after() {
    let issuer = TestIssuer::start().await;
    let addr = serve(
        &issuer,
        |a| a,
        |h| h.rate_limit(RateLimit::new(2, Duration::from_secs(60))),
    )
    .await;
    let alice = issuer.token().audience(READ).scope("vault:read").sign();
    let bob = issuer
        .token()
        .audience(READ)
        .scope("vault:read")
        .subject("bob")
        .sign();
    served(&call(addr, "/mcp/read", &alice).await);
    served(&call(addr, "/mcp/read", &alice).await);
    let limited = call(addr, "/mcp/read", &alice).await;
    assert_eq!(limited.status, 429, "{limited:?}");
    let retry: u64 = limited
        .header("retry-after")
        .and_then(|s| s.parse().ok())
        .expect("Retry-After in seconds");
    assert!((25..=30).contains(&retry), "{retry}");
    // Another subject has its own limit, even from the same address.
    served(&call(addr, "/mcp/read", &bob).await);
    // Requests without a valid token count against the address.
    assert_eq!(call_with(addr, "/mcp/read", &[]).await.status, 401);
    assert_eq!(call_with(addr, "/mcp/read", &[]).await.status, 401);
    assert_eq!(call_with(addr, "/mcp/read", &[]).await.status, 429);
}

#[tokio::test]
async fn a_rate_limit_works_without_authorization_by_address() {
    let host = Host::groups(vault()).rate_limit(RateLimit::new(1, Duration::from_secs(60)));
    let addr = serve_on_loopback(host).await;
    let first = call_with(addr, "/mcp/read", &[]).await;
    assert_eq!(first.status, 200, "{first:?}");
    assert_eq!(call_with(addr, "/mcp/read", &[]).await.status, 429);
}

#[tokio::test]
async fn a_configuration_that_cannot_be_enforced_is_refused() {
    let issuer = TestIssuer::start().await;
    let refused = |auth: Authorization| {
        Host::groups(vault())
            .authorization(auth)
            .into_router()
            .expect_err("refused")
            .to_string()
    };
    let ok = || {
        Authorization::new()
            .issuer(issuer.issuer())
            .resource(RESOURCE)
    };
    assert!(refused(ok().algorithms(["ES256", "HS256"])).contains("symmetric"));
    assert!(refused(ok().algorithms(["none"])).contains("`none`"));
    assert!(refused(ok().issuer("http://auth.example.com")).contains("https"));
    assert!(refused(ok().resource("https://mcp.example.com/?x=1")).contains("no query"));
    assert!(
        refused(Authorization::new().issuer(issuer.issuer())).contains("resource identifier"),
        "the manifest names no resource"
    );
    assert!(
        refused(Authorization::new().resource(RESOURCE)).contains("authorization server"),
        "the manifest names no authorization server"
    );
    assert!(
        Host::groups(vault())
            .authorization(ok())
            .into_router()
            .is_ok()
    );
}

#[tokio::test]
async fn introspection_verifies_by_asking_the_authorization_server() {
    use mcp_contract::testing::auth::{CLIENT_ID, CLIENT_SECRET};
    let issuer = TestIssuer::start().await;
    let introspected = |a: Authorization| {
        a.introspection(issuer.introspection_url(), CLIENT_ID, CLIENT_SECRET)
            .claims(["email"])
    };
    let addr = serve(&issuer, introspected, |h| h).await;
    let token = issuer
        .token()
        .audience(READ)
        .scope("vault:read")
        .claim("client_id", "the-client")
        .claim("email", "alice@example.com")
        .sign();
    let seen = served(&call(addr, "/mcp/read", &token).await);
    assert_eq!(
        seen,
        json!({
            "subject": "alice",
            "scopes": ["vault:read"],
            "client_id": "the-client",
            "claims": {"email": "alice@example.com"},
            "authorization_header": false,
        })
    );
    assert_eq!((issuer.introspections(), issuer.jwks_fetches()), (1, 0));
    issuer.revoke(&token);
    let revoked = call(addr, "/mcp/read", &token).await;
    invalid_token(&revoked, "revoked");
    assert_eq!(description(&revoked), "the token is not active");
    // A token the issuer never made is not active either, however it is signed.
    let forged = issuer.token().audience(READ).forged("key-1");
    invalid_token(
        &call(addr, "/mcp/read", &forged).await,
        "unknown to the issuer",
    );
    // What introspection answers is checked as a JWT's claims are.
    for (what, token, why) in [
        (
            "another resource",
            issuer.token().audience(WRITE).scope("vault:read").sign(),
            "the token is not for this resource",
        ),
        (
            "no audience",
            issuer.token().scope("vault:read").sign(),
            "the token is not for this resource",
        ),
        (
            "another issuer",
            issuer
                .token()
                .audience(READ)
                .claim("iss", "https://evil.example")
                .sign(),
            "the token is not from the authorization server",
        ),
        (
            "expired",
            issuer.token().audience(READ).expires_in(-120).sign(),
            "the token has expired",
        ),
    ] {
        let refused = call(addr, "/mcp/read", &token).await;
        invalid_token(&refused, what);
        assert_eq!(description(&refused), why, "{what}");
    }
    let reader = issuer.token().audience(RESOURCE).scope("vault:read").sign();
    assert_eq!(call(addr, "/mcp/write", &reader).await.status, 403);
    // Credentials the issuer refuses: nothing can be verified, so retry later.
    let addr = serve(
        &issuer,
        |a| a.introspection(issuer.introspection_url(), CLIENT_ID, "wrong"),
        |h| h,
    )
    .await;
    assert_eq!(call(addr, "/mcp/read", &reader).await.status, 503);
}

#[tokio::test]
async fn the_manifest_names_the_issuer_and_resource_a_deployment_may_override() {
    let issuer = TestIssuer::start().await;
    let servers: &'static [&'static str] =
        Box::leak(Box::new([&*issuer.issuer().to_owned().leak()]));
    let spec: &'static ContractSpec = Box::leak(Box::new(ContractSpec {
        access: AccessSpec {
            resource: Some("https://vault.example"),
            authorization_servers: servers,
            ..SPEC.access
        },
        ..SPEC
    }));
    let published: &'static Published = Box::leak(Box::new(Published::new(spec)));
    let host = || Host::groups(Server::new(Vault(published)));
    let addr = serve_on_loopback(host().authorization(Authorization::new())).await;
    let metadata = http_request(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource/mcp/read",
        &[],
        "",
    )
    .await
    .expect("an answer")
    .json()
    .expect("JSON");
    assert_eq!(metadata["resource"], "https://vault.example/mcp/read");
    assert_eq!(metadata["authorization_servers"], json!([issuer.issuer()]));
    let token = issuer
        .token()
        .audience("https://vault.example/mcp/read")
        .scope("vault:read")
        .sign();
    served(&call(addr, "/mcp/read", &token).await);
    // The deployment's resource identifier wins over the manifest's.
    let addr =
        serve_on_loopback(host().authorization(Authorization::new().resource(RESOURCE))).await;
    invalid_token(
        &call(addr, "/mcp/read", &token).await,
        "the manifest's resource, overridden",
    );
    let token = issuer.token().audience(READ).scope("vault:read").sign();
    served(&call(addr, "/mcp/read", &token).await);
}

#[tokio::test]
async fn a_route_that_requires_no_scope_still_requires_a_token() {
    let issuer = TestIssuer::start().await;
    let auth = Authorization::new()
        .issuer(issuer.issuer())
        .resource(RESOURCE);
    let addr = serve_on_loopback(Host::new().mount("/", vault()).authorization(auth)).await;
    let refused = call_with(addr, "/", &[]).await;
    assert_eq!(refused.status, 401, "{refused:?}");
    assert_eq!(
        refused.header("www-authenticate"),
        Some(
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\""
        )
    );
    let metadata = http_request(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await
    .expect("an answer")
    .json()
    .expect("JSON");
    assert_eq!(metadata["resource"], RESOURCE);
    // The route lets any valid token in; the tool still needs its group's scope, and to a
    // token without it the tool does not exist.
    let scopeless = call(addr, "/", &issuer.token().audience(RESOURCE).sign()).await;
    assert_eq!(scopeless.status, 200, "{scopeless:?}");
    let answer = scopeless.json().expect("a JSON answer");
    assert_eq!(
        answer["error"]["message"], "Unknown tool: whoami",
        "{answer}"
    );
    let reader = issuer.token().audience(RESOURCE).scope("vault:read").sign();
    served(&call(addr, "/", &reader).await);
}
