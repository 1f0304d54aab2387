//! Browser pages of other origins ([`Host::allowed_origins`](super::Host::allowed_origins)):
//! the one place that decides whether a request's `Origin` may call the server, and the CORS
//! answers that let such a page read what it is answered.
//!
//! A request whose one `Origin` is allowed goes on without it, so rmcp's own check, which
//! refuses every `Origin` it sees (its allow-list is left empty), lets it through; every
//! other `Origin` reaches rmcp and is refused `403` there, as before. A preflight (`OPTIONS`
//! with `Access-Control-Request-Method`) never reaches a route: it is answered here, `204`
//! for an allowed origin, `403` for any other. It sits outside the authorization guard, since
//! a browser sends a preflight without credentials, and its answers carry the headers a page
//! needs to read a `401` challenge or a `429`.
//!
//! Written here rather than with `tower-http`'s `CorsLayer`: that layer answers a preflight of
//! any origin `200` (only without the allow header), cannot allow the `Mcp-Param-*` family by
//! its prefix, and would be a second reading of the allowed origins beside the one that
//! refuses.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ACCESS_CONTROL_REQUEST_HEADERS,
    ACCESS_CONTROL_REQUEST_METHOD, CONTENT_TYPE, ORIGIN, VARY,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

/// The methods a streamable HTTP client uses.
const METHODS: &str = "POST, GET, DELETE";

/// The request headers an MCP client sends, lowercase: the transport's (`Mcp-Session-Id`,
/// `MCP-Protocol-Version`, `Last-Event-ID`, 2026-07-28's `Mcp-Method` and `Mcp-Name`),
/// the bearer token, and the two a JSON body needs. `Mcp-Param-*` ([`PARAM_PREFIX`]) too.
const REQUEST_HEADERS: &[&str] = &[
    "accept",
    "authorization",
    "content-type",
    "last-event-id",
    "mcp-method",
    "mcp-name",
    "mcp-protocol-version",
    "mcp-session-id",
];

/// The headers a tool's `x-mcp-header` arguments travel in.
const PARAM_PREFIX: &str = "mcp-param-";

/// The response headers a page may read besides the safelisted ones: the session it was
/// given, a `401`'s challenge, and how long a `429` or `503` asks it to wait.
const EXPOSED: &str = "Mcp-Session-Id, WWW-Authenticate, Retry-After";

/// How long a browser may keep a preflight's answer, in seconds: Chromium's cap (Firefox
/// keeps up to a day), so that a page does not preflight every call.
const MAX_AGE: &str = "7200";

/// The port an origin of `scheme` means when it names none (RFC 6454).
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

/// One allowed origin, as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Allowed {
    /// `null`: a sandboxed or local page.
    Null,
    Tuple {
        scheme: String,
        host: String,
        /// `None`: any port (`:*`).
        port: Option<u16>,
    },
}

/// A request's origin, or an allowed one without its port wildcard.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

/// Reads `scheme://host[:port]` (a trailing `/` tolerated), as a browser serializes an
/// origin; `None` for anything else (a path, a query, user information, no scheme).
fn origin(text: &str) -> Option<Origin> {
    let text = text.trim();
    let uri = Uri::try_from(text).ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?;
    let bare = text.strip_suffix('/').unwrap_or(text);
    let path_free = uri.path_and_query().is_none_or(|p| p.as_str() == "/")
        && bare.len() == scheme.len() + 3 + authority.as_str().len();
    if !path_free || authority.as_str().contains('@') || authority.host().is_empty() {
        return None;
    }
    let port = authority.port_u16().or_else(|| default_port(&scheme));
    Some(Origin {
        host: authority.host().to_ascii_lowercase(),
        scheme,
        port,
    })
}

impl Allowed {
    fn parse(entry: &str) -> Result<Allowed, String> {
        let refused = || {
            format!(
                "the allowed origin `{entry}` is not an origin: write scheme://host, \
                 scheme://host:port or scheme://host:* (any port), or null"
            )
        };
        let entry_trimmed = entry.trim();
        if entry_trimmed.eq_ignore_ascii_case("null") {
            return Ok(Allowed::Null);
        }
        if let Some(base) = entry_trimmed.strip_suffix(":*") {
            let parsed = origin(base).ok_or_else(refused)?;
            // `base` must not carry a port of its own.
            if Uri::try_from(base)
                .ok()
                .and_then(|u| u.port_u16())
                .is_some()
            {
                return Err(refused());
            }
            return Ok(Allowed::Tuple {
                scheme: parsed.scheme,
                host: parsed.host,
                port: None,
            });
        }
        let parsed = origin(entry_trimmed).ok_or_else(refused)?;
        if parsed.port.is_none() {
            // A scheme without a default port needs its port named.
            return Err(refused());
        }
        Ok(Allowed::Tuple {
            scheme: parsed.scheme,
            host: parsed.host,
            port: parsed.port,
        })
    }

    fn admits(&self, value: &str) -> bool {
        match self {
            Allowed::Null => value.trim().eq_ignore_ascii_case("null"),
            Allowed::Tuple { scheme, host, port } => origin(value).is_some_and(|o| {
                o.scheme == *scheme && o.host == *host && port.is_none_or(|p| o.port == Some(p))
            }),
        }
    }
}

/// The allowed origins of one host.
#[derive(Clone)]
pub(super) struct Cors {
    allowed: Arc<[Allowed]>,
}

impl Cors {
    /// The origins `entries` names; each entry that is not one is a problem.
    pub(super) fn new(entries: &[String]) -> Result<Cors, Vec<String>> {
        let (allowed, problems): (Vec<_>, Vec<_>) = entries
            .iter()
            .map(|e| Allowed::parse(e))
            .partition(Result::is_ok);
        if !problems.is_empty() {
            return Err(problems.into_iter().filter_map(Result::err).collect());
        }
        Ok(Cors {
            allowed: allowed.into_iter().filter_map(Result::ok).collect(),
        })
    }

    /// The request's one `Origin`, when it is allowed.
    fn allowed_origin(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        let mut origins = headers.get_all(ORIGIN).iter();
        let (Some(origin), None) = (origins.next(), origins.next()) else {
            return None;
        };
        let text = origin.to_str().ok()?;
        self.allowed
            .iter()
            .any(|a| a.admits(text))
            .then(|| origin.clone())
    }
}

/// The middleware: answers preflights, and lets an allowed origin's page read its answers.
pub(super) async fn serve(State(cors): State<Cors>, mut request: Request, next: Next) -> Response {
    let preflight = request.method() == Method::OPTIONS
        && request.headers().contains_key(ORIGIN)
        && request
            .headers()
            .contains_key(ACCESS_CONTROL_REQUEST_METHOD);
    let allowed = cors.allowed_origin(request.headers());
    if preflight {
        return match allowed {
            Some(origin) => preflight_answer(origin, request.headers()),
            None => (
                StatusCode::FORBIDDEN,
                [(CONTENT_TYPE, "text/plain; charset=utf-8")],
                "Forbidden: Origin header is not allowed\n",
            )
                .into_response(),
        };
    }
    let Some(origin) = allowed else {
        return next.run(request).await;
    };
    request.headers_mut().remove(ORIGIN);
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSED),
    );
    headers.append(VARY, HeaderValue::from_static("Origin"));
    response
}

/// `204` for a preflight of `origin`: the methods, and the requested headers that a client of
/// MCP sends (a browser lists only the non-safelisted ones it will send, and refuses the call
/// when one is left out).
fn preflight_answer(origin: HeaderValue, request: &HeaderMap) -> Response {
    let requested: Vec<String> = request
        .get_all(ACCESS_CONTROL_REQUEST_HEADERS)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|h| h.trim().to_ascii_lowercase())
        .filter(|h| REQUEST_HEADERS.contains(&h.as_str()) || is_param_header(h))
        .collect();
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(METHODS),
    );
    if let Ok(allowed) = HeaderValue::from_str(&requested.join(", "))
        && !requested.is_empty()
    {
        headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, allowed);
    }
    headers.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
    headers.insert(
        VARY,
        HeaderValue::from_static(
            "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        ),
    );
    response
}

/// `Mcp-Param-{name}`, with a name of header characters.
fn is_param_header(header: &str) -> bool {
    header
        .strip_prefix(PARAM_PREFIX)
        .is_some_and(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admits(entry: &str, origin: &str) -> bool {
        Allowed::parse(entry).expect("an origin").admits(origin)
    }

    #[test]
    fn an_origin_matches_by_scheme_host_and_port() {
        for (entry, origin) in [
            ("https://app.example", "https://app.example"),
            ("https://app.example", "https://app.example:443"),
            ("https://app.example:443", "https://APP.example"),
            ("http://app.example:*", "http://app.example:3000"),
            ("http://app.example:*", "http://app.example"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("https://app.example/", "https://app.example"),
            ("null", "null"),
        ] {
            assert!(admits(entry, origin), "{entry} should admit {origin}");
        }
        for (entry, origin) in [
            ("https://app.example", "http://app.example"),
            ("https://app.example", "https://app.example:8443"),
            ("https://app.example", "https://app.example.evil"),
            ("https://app.example", "https://evil.app.example"),
            ("http://app.example:*", "https://app.example:3000"),
            ("http://localhost:8080", "http://localhost:8081"),
            ("https://app.example", "https://app.example/path"),
            ("https://app.example", "null"),
            ("null", "https://app.example"),
        ] {
            assert!(!admits(entry, origin), "{entry} should not admit {origin}");
        }
    }

    #[test]
    fn an_entry_that_is_no_origin_is_refused() {
        for bad in [
            "",
            "*",
            "app.example",
            "https://app.example/path",
            "https://app.example?x",
            "https://user@app.example",
            "https://app.example:8080:*",
            "custom://app.example",
        ] {
            let refused = Allowed::parse(bad).expect_err(bad);
            assert!(refused.contains(&format!("`{bad}`")), "{refused}");
        }
    }

    #[test]
    fn only_the_headers_of_mcp_are_allowed() {
        assert!(is_param_header("mcp-param-region"));
        assert!(!is_param_header("mcp-param-"));
        assert!(!is_param_header("x-mcp-param-region"));
    }
}
