//! Tasks the client requests (2025-11-25's, [`crate::tasks`]) over HTTP, for a route whose
//! server has task tools; other routes do not pass through here.
//!
//! rmcp's `StreamableHttpService` reads the body and writes the answer itself, so what the
//! stdio transport does around rmcp is done here around the service, on the bytes: a POST
//! from a client of a revision with the `initialize` handshake (by its
//! `MCP-Protocol-Version` header) is read whole first; a task
//! request in it ([`crate::tasks::hide`]) reaches the server as a custom request; and the
//! answer to an `initialize` that chose 2025-11-25, or to a 2025-11-25 `tools/list`, is
//! rewritten as that revision tells of tasks, whether rmcp wrote it as JSON or as an event
//! stream.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use futures::{Stream, StreamExt as _};
use mcp_contract_spec::Revision;
use serde::Deserialize;
use serde_json::Value;

use crate::tasks::Publish;

/// What the middleware knows of its route.
pub(super) struct RequestedTasks {
    publish: Publish,
    /// The longest body read, rmcp's own limit for the route.
    max_body: usize,
}

impl RequestedTasks {
    /// For a route whose server has task tools (`publish`); `None` otherwise.
    pub(super) fn new(publish: Option<Publish>, max_body: usize) -> Option<Arc<RequestedTasks>> {
        let publish = publish?;
        Some(Arc::new(RequestedTasks { publish, max_body }))
    }
}

/// Which answer is rewritten.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Initialize,
    Tools,
}

#[derive(Deserialize)]
struct Named {
    #[serde(default)]
    method: Option<String>,
}

/// The middleware; see [the module](self).
pub(super) async fn serve(
    State(route): State<Arc<RequestedTasks>>,
    request: Request,
    next: Next,
) -> Response {
    let version = protocol_version(request.headers());
    if request.method() != Method::POST
        || version.is_some_and(|v| !Revision::negotiated(Some(v)).has_initialize())
    {
        return next.run(request).await;
    }
    // Only a client that named its handshake revision reads tools as it shapes them.
    let shapes_tools = crate::tasks::handshake_revision(version);
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, route.max_body).await else {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            "Payload Too Large: the request body is too long",
        )
            .into_response();
    };
    let method = serde_json::from_slice::<Named>(&bytes)
        .ok()
        .and_then(|m| m.method);
    let shape = match method.as_deref() {
        Some("initialize") => Some(Shape::Initialize),
        Some("tools/list") if shapes_tools => Some(Shape::Tools),
        _ => None,
    };
    let body = match crate::tasks::hide(&bytes) {
        Some((hidden, renamed)) => {
            parts.extensions.insert(hidden);
            Bytes::from(renamed)
        }
        None => bytes,
    };
    let response = next.run(Request::from_parts(parts, Body::from(body))).await;
    match shape {
        Some(shape) => reshape(&route, shape, response).await,
        None => response,
    }
}

fn protocol_version(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
}

/// `message` (a JSON-RPC message) as 2025-11-25 tells of tasks; whether it changed.
fn shaped(route: &RequestedTasks, shape: Shape, message: &mut Value) -> bool {
    match shape {
        Shape::Initialize => crate::tasks::shape_initialize(message),
        Shape::Tools => route.publish.shape_tools(message),
    }
}

/// The answer `response`, rewritten: a JSON body whole, an event stream event by event.
async fn reshape(route: &Arc<RequestedTasks>, shape: Shape, response: Response) -> Response {
    let media = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        });
    match media.as_deref() {
        Some("application/json") => {
            let (mut parts, body) = response.into_parts();
            // rmcp's own answer to one request, already in memory.
            let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            };
            let mut message = match serde_json::from_slice::<Value>(&bytes) {
                Ok(message) => message,
                Err(_) => return Response::from_parts(parts, Body::from(bytes)),
            };
            if !shaped(route, shape, &mut message) {
                return Response::from_parts(parts, Body::from(bytes));
            }
            parts.headers.remove(CONTENT_LENGTH);
            let body = serde_json::to_vec(&message).unwrap_or_else(|_| bytes.to_vec());
            Response::from_parts(parts, Body::from(body))
        }
        Some("text/event-stream") => {
            let (parts, body) = response.into_parts();
            let events = Events {
                route: Arc::clone(route),
                shape,
                pending: Vec::new(),
                done: false,
            };
            Response::from_parts(
                parts,
                Body::from_stream(events.over(body.into_data_stream())),
            )
        }
        _ => response,
    }
}

/// An event stream read event by event, each rewritten as it ends, until the answer is.
struct Events {
    route: Arc<RequestedTasks>,
    shape: Shape,
    /// What came of the event not ended yet.
    pending: Vec<u8>,
    /// Set once the answer was found: the rest passes as it comes.
    done: bool,
}

impl Events {
    fn over(
        self,
        body: impl Stream<Item = Result<Bytes, axum::Error>> + Send + Unpin + 'static,
    ) -> impl Stream<Item = Result<Bytes, axum::Error>> + Send + 'static {
        futures::stream::unfold(Some((body, self)), |state| async move {
            let (mut body, mut events) = state?;
            loop {
                if let Some(event) = events.next_event() {
                    return Some((Ok(event), Some((body, events))));
                }
                match body.next().await {
                    Some(Ok(chunk)) if events.done => {
                        return Some((Ok(chunk), Some((body, events))));
                    }
                    Some(Ok(chunk)) => events.pending.extend_from_slice(&chunk),
                    Some(Err(e)) => return Some((Err(e), None)),
                    None if events.pending.is_empty() => return None,
                    None => return Some((Ok(std::mem::take(&mut events.pending).into()), None)),
                }
            }
        })
    }

    /// The next whole event of `pending`, rewritten; `None` until one has ended.
    fn next_event(&mut self) -> Option<Bytes> {
        if self.pending.is_empty() {
            return None;
        }
        if self.done {
            return Some(std::mem::take(&mut self.pending).into());
        }
        let end = self.pending.windows(2).position(|w| w == b"\n\n")? + 2;
        let event: Vec<u8> = self.pending.drain(..end).collect();
        Some(match self.rewrite(&event) {
            Some(rewritten) => {
                self.done = true;
                rewritten.into()
            }
            None => event.into(),
        })
    }

    /// `event` with the JSON-RPC message of its one `data:` line shaped, when that is the
    /// answer to rewrite.
    fn rewrite(&self, event: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(event).ok()?.strip_suffix("\n\n")?;
        let mut data = text.lines().filter(|l| l.starts_with("data:"));
        let (line, None) = (data.next()?, data.next()) else {
            return None;
        };
        let payload = line["data:".len()..]
            .strip_prefix(' ')
            .unwrap_or(&line["data:".len()..]);
        let mut message = serde_json::from_str::<Value>(payload).ok()?;
        if !shaped(&self.route, self.shape, &mut message) {
            return None;
        }
        let mut rewritten = String::with_capacity(text.len() + 64);
        for l in text.lines() {
            if l == line {
                rewritten.push_str("data: ");
                rewritten.push_str(&message.to_string());
            } else {
                rewritten.push_str(l);
            }
            rewritten.push('\n');
        }
        rewritten.push('\n');
        Some(rewritten.into_bytes())
    }
}
