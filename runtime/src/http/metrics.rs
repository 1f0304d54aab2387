//! `GET /metrics` ([`Host::metrics`](super::Host::metrics)): the server's metrics in the
//! Prometheus text format, for a Prometheus server's scrape.
//!
//! Answered before the MCP routes and their guards, as the health checks are: whatever the
//! `Host` header (Prometheus scrapes by address), without a token or a rate limit, without
//! waiting for a slot of [`Host::max_in_flight`](super::Host::max_in_flight), while draining
//! too. It tells the contract's tool, prompt and resource names, how often each was called
//! and failed with which code, and how long they took; never an argument, a result or a
//! caller. Whoever reaches the port can read it: keep it private where the port is public
//! (see `docs/observing.md`).

use axum::extract::{Request, State as Extracted};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};

use crate::telemetry::Telemetry;

/// Where the metrics are served.
pub const METRICS_PATH: &str = "/metrics";

/// The middleware: answers [`METRICS_PATH`], and passes every other request on.
pub(super) async fn serve(
    Extracted(telemetry): Extracted<Telemetry>,
    request: Request,
    next: Next,
) -> Response {
    if request.uri().path() != METRICS_PATH {
        return next.run(request).await;
    }
    if let Some(refused) = super::health::only_read(&request) {
        return refused;
    }
    // `Host::metrics` takes only a telemetry that keeps Prometheus text.
    let text = telemetry.prometheus_text().unwrap_or_default();
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}
