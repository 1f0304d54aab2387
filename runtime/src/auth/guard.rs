//! The middleware in front of every route: serves the metadata documents, takes the bearer
//! token of a request to a protected route, verifies it, counts the request against its
//! caller's rate limit, and hands the route the principal without the token.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;

use super::answer::{self, Problem};
use super::config::Authorization;
use super::fetch;
use super::limit::{Caller, Limiter, RateLimit};
use super::metadata::{self, Mounted, Resource};
use super::verify::{Refusal, Verifier};
use crate::access::Principal;

/// What every request of one host shares.
#[derive(Clone)]
pub(crate) struct Guard(Arc<Inner>);

struct Inner {
    /// With the resources, when the host has authorization.
    verifier: Option<Verifier>,
    /// Each protected route, by its path.
    resources: HashMap<String, Resource>,
    /// Each route's metadata document, by its well-known path.
    documents: HashMap<String, Vec<u8>>,
    limiter: Option<Limiter>,
    max_token_bytes: usize,
    /// The `Retry-After` of a `503`: until the keys may be fetched again.
    retry: Duration,
}

impl Guard {
    /// The guard of a host with `authorization` and `limit` serving `mounted`; `None` when
    /// it has neither.
    pub(crate) fn new(
        authorization: Option<&Authorization>,
        limit: Option<&RateLimit>,
        mounted: &[Mounted],
    ) -> Result<Option<Guard>, Vec<String>> {
        let mut problems = Vec::new();
        let limiter = match limit.map(Limiter::new) {
            Some(Err(e)) => {
                problems.push(e);
                None
            }
            Some(Ok(limiter)) => Some(limiter),
            None => None,
        };
        let mut inner = Inner {
            verifier: None,
            resources: HashMap::new(),
            documents: HashMap::new(),
            limiter,
            max_token_bytes: 0,
            retry: Duration::ZERO,
        };
        if let Some(config) = authorization {
            match protect(config, mounted, &mut inner) {
                Ok(()) => {}
                Err(e) => problems.extend(e),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok((inner.verifier.is_some() || inner.limiter.is_some()).then(|| Guard(Arc::new(inner))))
    }
}

/// Resolves the issuer and the resource identifier (configured, or the manifest's), and
/// makes each mounted route a protected resource.
fn protect(
    config: &Authorization,
    mounted: &[Mounted],
    inner: &mut Inner,
) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    let mut pick =
        |configured: &Option<String>,
         what: &str,
         method: &str,
         from: fn(&'static crate::contract::ContractSpec) -> &'static [&'static str]| {
            match configured {
                Some(value) => Some(value.clone()),
                None => match metadata::agreed(mounted, what, from) {
                    Ok(Some(value)) => Some(value.to_owned()),
                    Ok(None) => {
                        problems.push(format!(
                        "authorization needs the {what}: give it with `Authorization::{method}` or in the manifest's `auth:` block"
                    ));
                        None
                    }
                    Err(e) => {
                        problems.push(e);
                        None
                    }
                },
            }
        };
    let issuer = pick(&config.issuer, "authorization server", "issuer", |s| {
        s.access.authorization_servers
    });
    let resource = pick(&config.resource, "resource identifier", "resource", |s| {
        s.access.resource.as_slice()
    });
    let (Some(issuer), Some(resource)) = (issuer, resource) else {
        return Err(problems);
    };
    if let Err(e) = fetch::url("issuer", &issuer) {
        problems.push(e);
    }
    let base = match fetch::url("resource identifier", &resource) {
        Ok(base) if base.query().is_some() => {
            problems.push(format!(
                "the resource identifier `{resource}` must have no query"
            ));
            None
        }
        Ok(base) => Some(base),
        Err(e) => {
            problems.push(e);
            None
        }
    };
    for m in mounted {
        if m.route == "/.well-known" || m.route.starts_with("/.well-known/") {
            problems.push(format!(
                "the route `{}` is under `/.well-known/`, where the host serves the protected resource metadata",
                m.route
            ));
        }
    }
    match Verifier::new(config, issuer.clone(), resource) {
        Ok(verifier) => inner.verifier = Some(verifier),
        Err(e) => problems.extend(e),
    }
    let Some(base) = base.filter(|_| problems.is_empty()) else {
        return Err(problems);
    };
    for m in mounted {
        let resource = Resource::new(&base, &issuer, config.resource_name.as_deref(), m);
        inner.documents.insert(
            resource.metadata_path.clone(),
            resource.document.to_string().into_bytes(),
        );
        inner.resources.insert(m.route.clone(), resource);
    }
    inner.max_token_bytes = config.max_token_bytes;
    inner.retry = config.refresh_interval;
    Ok(())
}

/// The middleware.
pub(crate) async fn serve(
    State(guard): State<Guard>,
    mut request: Request,
    next: Next,
) -> Response {
    let guard = &guard.0;
    let address = Caller::address(
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip()),
    );
    let path = request.uri().path();
    if let Some(document) = guard.documents.get(path) {
        if let Err(wait) = limit(guard, &address) {
            return answer::too_many(wait);
        }
        return answer::metadata(request.method(), document);
    }
    let (Some(verifier), Some(resource)) = (&guard.verifier, guard.resources.get(path)) else {
        if let Err(wait) = limit(guard, &address) {
            return answer::too_many(wait);
        }
        return next.run(request).await;
    };
    let verdict = authorize(
        guard,
        verifier,
        resource,
        request.uri().query(),
        request.headers(),
    )
    .await;
    let caller = match &verdict {
        Ok(principal) => Caller::Subject(principal.subject.clone()),
        Err(_) => address,
    };
    if let Err(wait) = limit(guard, &caller) {
        return answer::too_many(wait);
    }
    let principal = match verdict {
        Ok(principal) => principal,
        Err(Denied::Unavailable) => return answer::unavailable(guard.retry),
        Err(Denied::Problem(problem)) => {
            tracing::debug!(route = %resource.uri, ?problem, "refused a request's bearer token");
            return answer::refusal(resource, Some(problem));
        }
        Err(Denied::NoToken) => return answer::refusal(resource, None),
    };
    if !principal.has_all(resource.required) {
        return answer::refusal(resource, Some(Problem::InsufficientScope));
    }
    // The token goes no further: handlers see the principal, never the credential.
    request.headers_mut().remove(AUTHORIZATION);
    request.extensions_mut().insert(principal);
    next.run(request).await
}

/// Answers `Err(wait)` when `caller` is past the host's rate limit.
fn limit(guard: &Inner, caller: &Caller) -> Result<(), Duration> {
    guard.limiter.as_ref().map_or(Ok(()), |l| l.check(caller))
}

/// Why a request is not let through.
enum Denied {
    /// It carries no bearer token.
    NoToken,
    Problem(Problem),
    /// Its token cannot be verified now.
    Unavailable,
}

/// The principal of a request to `resource`. A malformed request is answered before any
/// token is verified.
async fn authorize(
    guard: &Inner,
    verifier: &Verifier,
    resource: &Resource,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<Principal, Denied> {
    let token = match bearer(query, headers, guard.max_token_bytes) {
        Ok(Some(token)) => token,
        Ok(None) => return Err(Denied::NoToken),
        Err(problem) => return Err(Denied::Problem(problem)),
    };
    verifier
        .verify(token, &resource.uri)
        .await
        .map_err(|refusal| match refusal {
            Refusal::Invalid(why) => Denied::Problem(Problem::InvalidToken(why)),
            Refusal::Unavailable => Denied::Unavailable,
        })
}

/// The bearer token of a request: `Ok(None)` when it has no `Authorization` header or one of
/// another scheme (RFC 6750 §3.1: no error code then).
fn bearer<'a>(
    query: Option<&str>,
    headers: &'a HeaderMap,
    max_bytes: usize,
) -> Result<Option<&'a str>, Problem> {
    // RFC 6750 §2.3's query parameter is not supported: the URL is logged and cached where
    // a header is not.
    if query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    }) {
        return Err(Problem::InvalidRequest(
            "a token is accepted only in the Authorization header, never in the URL",
        ));
    }
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let value = match (values.next(), values.next()) {
        (None, _) => return Ok(None),
        (Some(_), Some(_)) => {
            return Err(Problem::InvalidRequest(
                "the request has more than one Authorization header",
            ));
        }
        (Some(value), None) => value,
    };
    if value.len() > max_bytes {
        return Err(Problem::InvalidToken("the token is too large"));
    }
    let Ok(value) = value.to_str() else {
        return Err(Problem::InvalidRequest(
            "the Authorization header is not ASCII",
        ));
    };
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Ok(None);
    }
    let token = token.trim_start_matches(' ');
    if token.is_empty() {
        return Err(Problem::InvalidRequest(
            "the Bearer credentials have no token",
        ));
    }
    if !is_b64token(token) {
        return Err(Problem::InvalidRequest("the bearer token is malformed"));
    }
    Ok(Some(token))
}

/// RFC 6750 §2.1's `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/')
        })
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn with(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(AUTHORIZATION, HeaderValue::from_str(v).expect("a header"));
        }
        headers
    }

    #[test]
    fn only_one_bearer_header_carries_a_token() {
        let token = |query, values: &[&str]| {
            bearer(query, &with(values), 100).map(|t| t.map(str::to_owned))
        };
        assert_eq!(
            token(None, &["Bearer abc.DEF-_~+/=="]),
            Ok(Some("abc.DEF-_~+/==".into()))
        );
        assert_eq!(token(None, &["bearer  abc"]), Ok(Some("abc".into())));
        assert_eq!(token(None, &[]), Ok(None));
        assert_eq!(token(None, &["Basic dXNlcjpwdw=="]), Ok(None));
        assert!(matches!(
            token(None, &["Bearer"]),
            Err(Problem::InvalidRequest(_))
        ));
        assert!(matches!(
            token(None, &["Bearer "]),
            Err(Problem::InvalidRequest(_))
        ));
        assert!(matches!(
            token(None, &["Bearer a b"]),
            Err(Problem::InvalidRequest(_))
        ));
        assert!(matches!(
            token(None, &["Bearer =="]),
            Err(Problem::InvalidRequest(_))
        ));
        assert!(matches!(
            token(None, &["Bearer a", "Bearer b"]),
            Err(Problem::InvalidRequest(_))
        ));
        assert!(matches!(
            token(Some("x=1&access_token=a"), &[]),
            Err(Problem::InvalidRequest(_))
        ));
        assert_eq!(token(Some("x=access_token"), &[]), Ok(None));
        let long = format!("Bearer {}", "a".repeat(100));
        assert!(matches!(
            token(None, &[&long]),
            Err(Problem::InvalidToken(_))
        ));
    }
}
