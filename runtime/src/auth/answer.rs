//! The answers of the authorization layer: bearer challenges (RFC 6750 §3, with RFC 9728's
//! `resource_metadata`), `429` with `Retry-After`, and the metadata documents.

use std::time::Duration;

use axum::body::Body;
use axum::http::header::{
    ACCESS_CONTROL_ALLOW_ORIGIN, ALLOW, CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE,
};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse as _, Response};
use serde_json::json;

use super::metadata::Resource;

/// An RFC 6750 error code and what the client is told about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Problem {
    /// `400 invalid_request`: the request is malformed (a token in the query, two
    /// `Authorization` headers, `Bearer` with no token).
    InvalidRequest(&'static str),
    /// `401 invalid_token`: a token was given and is not valid here.
    InvalidToken(&'static str),
    /// `403 insufficient_scope`: the token is valid but lacks a scope the route requires.
    InsufficientScope,
}

impl Problem {
    fn parts(self) -> (StatusCode, &'static str, &'static str) {
        match self {
            Problem::InvalidRequest(why) => (StatusCode::BAD_REQUEST, "invalid_request", why),
            Problem::InvalidToken(why) => (StatusCode::UNAUTHORIZED, "invalid_token", why),
            Problem::InsufficientScope => (
                StatusCode::FORBIDDEN,
                "insufficient_scope",
                "the token lacks a scope this resource requires",
            ),
        }
    }
}

/// The answer to a request `resource` refuses: `401` with a bare challenge when it carried
/// no bearer token (RFC 6750 §3.1: no error code then), else the problem's status, with the
/// challenge naming it. Every challenge names the resource's metadata and, when it requires
/// any, its scopes.
pub(crate) fn refusal(resource: &Resource, problem: Option<Problem>) -> Response {
    let mut challenge = format!("Bearer resource_metadata=\"{}\"", resource.metadata_url);
    if let Some(scope) = &resource.scope {
        challenge.push_str(&format!(", scope=\"{scope}\""));
    }
    let (status, body) = match problem {
        None => (
            StatusCode::UNAUTHORIZED,
            json!({
                "error_description": "this resource requires a bearer token in the Authorization header",
            }),
        ),
        Some(problem) => {
            let (status, code, why) = problem.parts();
            challenge.push_str(&format!(", error=\"{code}\", error_description=\"{why}\""));
            (status, json!({ "error": code, "error_description": why }))
        }
    };
    let mut response = json_response(status, &body);
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// `503`: whether the token is valid cannot be told while the authorization server cannot
/// be reached; the client may retry after `retry`.
pub(crate) fn unavailable(retry: Duration) -> Response {
    let mut response = json_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &json!({
            "error_description": "the authorization server cannot be reached to verify the token; retry later",
        }),
    );
    response.headers_mut().insert(RETRY_AFTER, seconds(retry));
    response
}

/// `429`: the caller is past its rate limit for `wait`.
pub(crate) fn too_many(wait: Duration) -> Response {
    let mut response = json_response(
        StatusCode::TOO_MANY_REQUESTS,
        &json!({ "error_description": "too many requests; retry later" }),
    );
    response.headers_mut().insert(RETRY_AFTER, seconds(wait));
    response
}

fn json_response(status: StatusCode, body: &serde_json::Value) -> Response {
    (
        status,
        [(CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// `Retry-After` in whole seconds, rounded up, at least 1.
fn seconds(wait: Duration) -> HeaderValue {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    HeaderValue::from(secs.max(1))
}

/// The metadata document, to a `GET` or `HEAD`; `405` to anything else. Any origin may read
/// it, as browser-based clients fetch it from theirs.
pub(crate) fn metadata(method: &Method, document: &[u8]) -> Response {
    if method != Method::GET && method != Method::HEAD {
        let mut response = StatusCode::METHOD_NOT_ALLOWED.into_response();
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let mut response = Response::new(Body::from(document.to_vec()));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("max-age=3600"));
    response
}
