//! `GET /healthz` and `GET /readyz` ([`Host::health`](super::Host::health)), for a load
//! balancer or an orchestrator.
//!
//! `/healthz` says the process serves HTTP: `200` whenever it can answer at all (a probe
//! that restarts the process on failure must not fire because the store is away, since a
//! restart does not bring it back). `/readyz` says whether to send it work: `200` when every
//! mounted server's state store answers a read of its key ring within [`READY_WITHIN`] and
//! the host is not draining, `503` with a one-line reason otherwise.
//!
//! They are answered before anything else the host does: whatever the `Host` header (a load
//! balancer probes by address), without a token or a rate limit, without waiting for a slot
//! of [`Host::max_in_flight`](super::Host::max_in_flight). They tell nothing a caller could
//! use: the reason a store failed goes to the log, not into the answer.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State as Extracted};
use axum::http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

use super::drain::Drain;
use crate::state::State;

/// Where liveness is served.
pub const HEALTH_PATH: &str = "/healthz";

/// Where readiness is served.
pub const READY_PATH: &str = "/readyz";

/// How long `/readyz` waits for a store: longer, and a store that slow is not ready.
pub const READY_WITHIN: Duration = Duration::from_secs(2);

/// What the answers of one host read.
#[derive(Clone)]
pub(super) struct Health {
    /// The stores of the mounted servers, each once.
    stores: Arc<[State]>,
    drain: Drain,
}

impl Health {
    pub(super) fn new(stores: Vec<State>, drain: Drain) -> Health {
        Health {
            stores: stores.into(),
            drain,
        }
    }

    /// Why the host is not ready, or `None` when it is.
    async fn not_ready(&self) -> Option<&'static str> {
        if self.drain.is_draining() {
            return Some("draining: the server is shutting down");
        }
        let reads = self.stores.iter().map(|state| async move {
            match tokio::time::timeout(READY_WITHIN, state.store().keys()).await {
                Ok(Ok(_)) => None,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "not ready: the state store failed");
                    Some("the state store failed")
                }
                Err(_) => {
                    tracing::warn!(within = ?READY_WITHIN, "not ready: the state store did not answer");
                    Some("the state store did not answer in time")
                }
            }
        });
        futures::future::join_all(reads)
            .await
            .into_iter()
            .flatten()
            .next()
    }
}

/// The middleware: answers the two paths, and passes every other request on.
pub(super) async fn serve(
    Extracted(health): Extracted<Health>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    if path != HEALTH_PATH && path != READY_PATH {
        return next.run(request).await;
    }
    if let Some(refused) = only_read(&request) {
        return refused;
    }
    let (status, body) = if path == HEALTH_PATH {
        (StatusCode::OK, "ok\n".to_owned())
    } else {
        match health.not_ready().await {
            None => (StatusCode::OK, "ready\n".to_owned()),
            Some(why) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("not ready: {why}\n"),
            ),
        }
    };
    (
        status,
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// `405` with `Allow`, unless `request` is a `GET` or a `HEAD`: the endpoints beside the
/// routes (health, metrics) are read-only.
pub(super) fn only_read(request: &Request) -> Option<Response> {
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return None;
    }
    let refused = (
        StatusCode::METHOD_NOT_ALLOWED,
        [(ALLOW, "GET, HEAD")],
        "Method Not Allowed\n",
    );
    Some(refused.into_response())
}
