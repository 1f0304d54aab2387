//! The instruments of one contract: made when a server is given its [`Telemetry`], with a
//! series for every tool, prompt and resource, and for each error code a tool declares,
//! already there.

use std::sync::Arc;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram, MeterProvider as _};

use super::Telemetry;
use super::gauges::Gauges;
use super::operation::Method;
use super::setup::SCOPE;
use crate::published::Published;

/// The conventions' bucket boundaries for every MCP duration, in seconds.
const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// What a server records each request into.
pub(crate) struct Instruments {
    /// `mcp.server.operation.duration`: the conventions' histogram.
    duration: Histogram<f64>,
    /// `mcp_contract.server.operations`: each request by method, target and `error.type`.
    operations: Counter<u64>,
    /// `mcp.server.session.duration`: the conventions' histogram, of each stdio connection
    /// and each 2025-11-25 HTTP session.
    sessions: Histogram<f64>,
    /// What the gauges of sessions open and live tasks read.
    pub(crate) gauges: Arc<Gauges>,
}

impl Instruments {
    /// The instruments of `published`'s contract, from `telemetry`'s meters, with the
    /// counter's series of every tool, prompt and resource at 0.
    pub(crate) fn new(telemetry: &Telemetry, published: &Published) -> Self {
        let meter = telemetry.meters().meter(SCOPE);
        let duration = meter
            .f64_histogram("mcp.server.operation.duration")
            .with_unit("s")
            .with_description("The duration of each MCP request the server handled.")
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build();
        let operations = meter
            .u64_counter("mcp_contract.server.operations")
            .with_description(
                "The MCP requests the server handled, by method, target and error.type.",
            )
            .build();
        let sessions = meter
            .f64_histogram("mcp.server.session.duration")
            .with_unit("s")
            .with_description("The duration of each MCP session the server served.")
            .with_boundaries(DURATION_BUCKETS.to_vec())
            .build();
        let spec = &published.spec;
        let tools = (spec.tools.iter().enumerate())
            .map(|(i, t)| (Method::CallTool, published.tool_name(i), t.errors));
        let prompts = spec
            .prompts
            .iter()
            .map(|p| (Method::GetPrompt, p.name, &[][..]));
        let resources = (spec.resources.iter()).map(|r| (Method::ReadResource, r.name, &[][..]));
        for (method, name, errors) in tools.chain(prompts).chain(resources) {
            let labels = method.labels(name);
            operations.add(0, &labels);
            // Each error a tool declares reads 0 until it happens, so that a rate or an alert
            // on it has a series from start-up.
            for code in errors {
                let mut failed = labels.clone();
                failed.push(KeyValue::new("error.type", *code));
                operations.add(0, &failed);
            }
        }
        let gauges = Arc::new(Gauges::default());
        Gauges::register(&gauges, &meter);
        Instruments {
            duration,
            operations,
            sessions,
            gauges,
        }
    }

    /// Records a session that lasted `seconds` on `transport` (`network.transport`).
    pub(crate) fn session_ended(&self, seconds: f64, transport: &'static str) {
        let labels = [KeyValue::new("network.transport", transport)];
        self.sessions.record(seconds, &labels);
    }

    /// Records a session opened at `opened_ms` (Unix milliseconds, of its record, written by
    /// whichever process opened it) that ends now; one whose opening is not known (0) is not
    /// measured.
    #[cfg(feature = "http")]
    pub(crate) fn session_ended_at(&self, opened_ms: u64, transport: &'static str) {
        if opened_ms > 0 {
            let millis = crate::state::now_ms().saturating_sub(opened_ms);
            let seconds = std::time::Duration::from_millis(millis).as_secs_f64();
            self.session_ended(seconds, transport);
        }
    }

    /// Records one request: `labels` are its method and target's, `more` what the request
    /// adds (`error.type`, the revision, the transport) to the duration.
    pub(crate) fn record(
        &self,
        seconds: f64,
        labels: &[KeyValue],
        error: Option<&str>,
        more: &[KeyValue],
    ) {
        let mut all = labels.to_vec();
        if let Some(error) = error {
            all.push(KeyValue::new("error.type", error.to_owned()));
        }
        self.operations.add(1, &all);
        all.extend_from_slice(more);
        self.duration.record(seconds, &all);
    }
}
