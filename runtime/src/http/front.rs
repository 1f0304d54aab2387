//! What every request meets before rmcp's `StreamableHttpService` (rmcp 3.11,
//! `transport/streamable_http_server/tower.rs`), for what that service gets wrong:
//!
//! - **A bound on the requests served at once**, shared by every route of the host. A
//!   request past it waits, unread, for a request before it to finish (its body stays in the
//!   client's socket), and is then served as any other: clients see latency, never an error,
//!   as a stdio client sees its requests wait in the pipe. A session's standalone `GET`
//!   stream holds its slot only until it is answered: it is a client listening, not work. A `503` would fail the call instead
//!   (rmcp's own client turns one into an error and leaves retrying to its caller). rmcp
//!   serves every request at once: `StreamableHttpService::poll_ready` is always ready.
//! - **The server's own loopback page.** rmcp's `validate_origin_header` refuses every
//!   `Origin` its allow-list does not name, the server's own among them; a page served from
//!   `http://127.0.0.1:PORT` to the server at `127.0.0.1:PORT` is the same origin, not a
//!   rebinding attack (the conformance suite's `dns-rebinding-protection` sends exactly
//!   that). Such a request goes on without its `Origin`, so rmcp's checks of `Host` and of
//!   every other `Origin` stay as they are.
//! - **A body rmcp cannot read** (`expect_json` in `transport/common/server_side_http.rs`)
//!   is answered `415 Unsupported Media Type` with a plain-text body, although its media type
//!   was right. Such a body is answered `400` with the JSON-RPC error of `jsonrpc::read`, the
//!   one stdio answers the same bytes with. Each body is read by `jsonrpc::read` as it ends,
//!   beside rmcp's own reading, so no copy of it outlives that moment.

use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HOST, ORIGIN};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use http_body::{Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::jsonrpc;

/// The state every request shares: the slots of the requests served at once.
#[derive(Clone)]
pub(super) struct Front {
    slots: Arc<Semaphore>,
}

impl Front {
    pub(super) fn new(max_in_flight: usize) -> Front {
        Front {
            slots: Arc::new(Semaphore::new(
                max_in_flight.clamp(1, Semaphore::MAX_PERMITS),
            )),
        }
    }
}

/// The middleware: waits for a slot, lets the server's own page in, runs the route, and
/// answers a body rmcp could not read; the slot is held until the response is sent whole.
pub(super) async fn serve(
    State(front): State<Front>,
    mut request: Request,
    next: Next,
) -> Response {
    let Ok(slot) = front.slots.acquire_owned().await else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    if own_loopback_page(request.headers()) {
        request.headers_mut().remove(ORIGIN);
    }
    let seen = Arc::new(Mutex::new(Seen::default()));
    let request = request.map(|body| {
        Body::new(Watched {
            inner: body,
            seen: Some(seen.clone()),
            slot: None,
        })
    });
    // A 2025-11-25 session's standalone stream (`GET`) is open for as long as the client
    // listens, serving no request: its slot goes once it is answered, so that listening
    // clients never hold the slots of requests.
    let listens = request.method() == Method::GET;
    let mut response = next.run(request).await;
    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
        && let Some(refused) = refusal(&seen)
    {
        response = refused;
    }
    let slot = (!listens).then_some(slot);
    response.map(|body| {
        Body::new(Watched {
            inner: body,
            seen: None,
            slot,
        })
    })
}

/// Whether the request comes from a page of this very server on loopback: its one `Origin`
/// is `http://` followed by exactly its `Host` (any case, the port defaulting to 80), and
/// that host is `localhost` or a loopback address.
fn own_loopback_page(headers: &HeaderMap) -> bool {
    let mut origins = headers.get_all(ORIGIN).iter();
    let (Some(origin), None, Some(host)) = (origins.next(), origins.next(), headers.get(HOST))
    else {
        return false;
    };
    let (Ok(origin), Ok(host)) = (origin.to_str(), host.to_str()) else {
        return false;
    };
    let Some(origin) = origin.strip_prefix("http://") else {
        return false;
    };
    let (Ok(origin), Ok(host)) = (Authority::try_from(origin), Authority::try_from(host)) else {
        return false;
    };
    let bare = host.host().trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    loopback
        && !origin.as_str().contains('@')
        && origin.host().eq_ignore_ascii_case(host.host())
        && origin.port_u16().unwrap_or(80) == host.port_u16().unwrap_or(80)
}

/// The request body as rmcp reads it, until it ends; then only why it is no message, if it
/// is none, and no longer the bytes.
#[derive(Default)]
struct Seen {
    data: Vec<Bytes>,
    /// The answer to a body read whole that is no message: a 415 rmcp gives after that is
    /// about the body, not its media type, which rmcp checks before reading anything.
    refusal: Option<Box<jsonrpc::Refusal>>,
}

impl Seen {
    /// The body has ended: reads it as rmcp is about to, and lets the bytes go.
    fn ended(&mut self) {
        let data = std::mem::take(&mut self.data);
        let body = match data.as_slice() {
            [one] => one.clone(),
            _ => data.concat().into(),
        };
        self.refusal = jsonrpc::read(&body).err();
    }
}

/// The answer to a body rmcp read whole and could not take as a message.
fn refusal(seen: &Mutex<Seen>) -> Option<Response> {
    let refusal = seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .refusal
        .take()?;
    let answer = serde_json::to_vec(&refusal.into_message()).ok()?;
    Some(
        (
            StatusCode::BAD_REQUEST,
            [(CONTENT_TYPE, "application/json")],
            answer,
        )
            .into_response(),
    )
}

/// A body passed through as it is, noting what a request body held, or holding a response's
/// slot until the response has been sent.
struct Watched {
    inner: Body,
    seen: Option<Arc<Mutex<Seen>>>,
    slot: Option<OwnedSemaphorePermit>,
}

impl HttpBody for Watched {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let frame = ready!(Pin::new(&mut this.inner).poll_frame(cx));
        if let Some(seen) = &this.seen {
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            match &frame {
                Some(Ok(frame)) => seen.data.extend(frame.data_ref().cloned()),
                Some(Err(_)) => {}
                None => seen.ended(),
            }
        }
        if frame.is_none() {
            this.slot = None;
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn page(origin: &str, host: &str) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert(ORIGIN, HeaderValue::from_str(origin).expect("a header"));
        headers.insert(HOST, HeaderValue::from_str(host).expect("a header"));
        own_loopback_page(&headers)
    }

    #[test]
    fn only_the_same_loopback_origin_is_the_server_own_page() {
        for (origin, host) in [
            ("http://127.0.0.1:8080", "127.0.0.1:8080"),
            ("http://localhost:8080", "LocalHost:8080"),
            ("http://[::1]:8080", "[::1]:8080"),
            ("http://localhost", "localhost:80"),
            ("http://127.0.0.2:9", "127.0.0.2:9"),
        ] {
            assert!(page(origin, host), "{origin} at {host}");
        }
        for (origin, host) in [
            ("http://127.0.0.1:8081", "127.0.0.1:8080"),
            ("http://localhost:8080", "127.0.0.1:8080"),
            ("https://127.0.0.1:8080", "127.0.0.1:8080"),
            ("http://evil.example", "evil.example"),
            ("http://user@127.0.0.1:8080", "127.0.0.1:8080"),
            ("http://127.0.0.1:8080/", "127.0.0.1:8080"),
            ("null", "127.0.0.1:8080"),
        ] {
            assert!(!page(origin, host), "{origin} at {host}");
        }
        let mut two = HeaderMap::new();
        two.append(ORIGIN, HeaderValue::from_static("http://127.0.0.1:8080"));
        two.append(ORIGIN, HeaderValue::from_static("http://evil.example"));
        two.insert(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(!own_loopback_page(&two), "two origins are no page's");
    }
}
