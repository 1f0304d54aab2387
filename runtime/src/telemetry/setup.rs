//! What a process exports to, built once at start-up: the tracer and meter providers, the
//! OTLP exporters and the Prometheus registry.

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider, SpanExporter, TracerProviderBuilder};
use tracing_opentelemetry::OpenTelemetryLayer;
use tracing_subscriber::registry::LookupSpan;

/// The instrumentation scope every span and instrument of the runtime is reported under.
pub(crate) const SCOPE: &str = "mcp-contract";

/// How long an OTLP export may take before it is given up: a collector that hangs must not
/// hold the spans of the next batch.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where a server's traces and metrics go: OTLP over HTTP, Prometheus text, or exporters of
/// your own. Build one at start-up ([`Telemetry::builder`]), give the tracing subscriber its
/// [`layer`](Telemetry::layer), give it to the server ([`Server::telemetry`](crate::Server::telemetry))
/// and to the HTTP host for `GET /metrics` ([`Host::metrics`](crate::http::Host::metrics)),
/// and [`shutdown`](Telemetry::shutdown) it before the process exits, so the last batch is
/// sent. Cheap to clone: clones share the providers.
#[derive(Clone, Debug)]
pub struct Telemetry {
    tracer: SdkTracerProvider,
    meters: SdkMeterProvider,
    registry: Option<prometheus::Registry>,
}

/// Builds a [`Telemetry`]; see [`Telemetry::builder`].
#[must_use]
pub struct TelemetryBuilder {
    service: String,
    otlp: Option<String>,
    prometheus: bool,
    /// Each adds an exporter of [`TelemetryBuilder::span_exporter`].
    spans: Vec<Box<dyn FnOnce(TracerProviderBuilder) -> TracerProviderBuilder>>,
}

impl std::fmt::Debug for TelemetryBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryBuilder")
            .field("service", &self.service)
            .field("otlp", &self.otlp)
            .field("prometheus", &self.prometheus)
            .finish_non_exhaustive()
    }
}

/// An exporter that could not be built.
#[derive(Debug)]
pub struct TelemetryError(String);

impl std::fmt::Display for TelemetryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TelemetryError {}

impl Telemetry {
    /// A builder for the process whose `service.name` is `service`. With nothing added, spans
    /// and metrics are made and go nowhere (the spans still give log lines their trace ids).
    pub fn builder(service: impl Into<String>) -> TelemetryBuilder {
        TelemetryBuilder {
            service: service.into(),
            otlp: None,
            prometheus: false,
            spans: Vec::new(),
        }
    }

    /// The `tracing` layer that turns the runtime's spans, and every span under them, into
    /// OpenTelemetry spans, with trace ids (a parent's, or new ones) even when nothing
    /// exports them: add it to the process's subscriber.
    pub fn layer<S>(&self) -> OpenTelemetryLayer<S, SdkTracer>
    where
        S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    {
        tracing_opentelemetry::layer()
            .with_tracer(self.tracer.tracer(SCOPE))
            // `busy_ns` and `idle_ns` on every span are no convention's attributes.
            .with_tracked_inactivity(false)
    }

    /// The meter provider the server's instruments are made from.
    pub(crate) fn meters(&self) -> &SdkMeterProvider {
        &self.meters
    }

    /// Every metric in the Prometheus text exposition format (version 0.0.4), or `None` when
    /// the builder did not ask for [`prometheus`](TelemetryBuilder::prometheus).
    pub fn prometheus_text(&self) -> Option<String> {
        use prometheus::Encoder as _;
        let families = self.registry.as_ref()?.gather();
        let mut text = Vec::new();
        // Encoding families the registry just gathered into memory cannot fail.
        let _ = prometheus::TextEncoder::new().encode(&families, &mut text);
        Some(String::from_utf8_lossy(&text).into_owned())
    }

    /// Sends what is buffered now, spans and metrics.
    ///
    /// # Errors
    ///
    /// An exporter that failed, named.
    pub fn flush(&self) -> Result<(), TelemetryError> {
        self.tracer
            .force_flush()
            .map_err(|e| TelemetryError(format!("the spans were not sent: {e}")))?;
        self.meters
            .force_flush()
            .map_err(|e| TelemetryError(format!("the metrics were not sent: {e}")))
    }

    /// Sends what is buffered and stops the exporters; call it before the process exits.
    ///
    /// # Errors
    ///
    /// An exporter that failed, named.
    pub fn shutdown(&self) -> Result<(), TelemetryError> {
        let spans = self.tracer.shutdown();
        let metrics = self.meters.shutdown();
        if let Err(e) = spans {
            return Err(TelemetryError(format!("the spans were not sent: {e}")));
        }
        metrics.map_err(|e| TelemetryError(format!("the metrics were not sent: {e}")))
    }
}

impl TelemetryBuilder {
    /// Exports spans and metrics with OTLP over HTTP (protobuf) to the collector at `base`
    /// (`http://localhost:4318`): spans to `{base}/v1/traces`, metrics to `{base}/v1/metrics`
    /// every 10 seconds, as `OTEL_EXPORTER_OTLP_ENDPOINT` is read by every SDK.
    pub fn otlp(mut self, base: impl Into<String>) -> Self {
        self.otlp = Some(base.into());
        self
    }

    /// Keeps the metrics for [`Telemetry::prometheus_text`] and `GET /metrics`.
    pub fn prometheus(mut self) -> Self {
        self.prometheus = true;
        self
    }

    /// Sends every span, as it ends, to `exporter` too (an in-memory exporter in a test, or
    /// one of your own).
    pub fn span_exporter(mut self, exporter: impl SpanExporter + 'static) -> Self {
        self.spans.push(Box::new(move |builder| {
            builder.with_simple_exporter(exporter)
        }));
        self
    }

    /// The providers, with their exporters.
    ///
    /// # Errors
    ///
    /// An OTLP endpoint that is not a URL, or a Prometheus registry that refuses the exporter.
    pub fn build(self) -> Result<Telemetry, TelemetryError> {
        let resource = Resource::builder().with_service_name(self.service).build();
        let mut tracer = SdkTracerProvider::builder().with_resource(resource.clone());
        let mut meters = SdkMeterProvider::builder().with_resource(resource);
        if let Some(base) = &self.otlp {
            let base = base.trim_end_matches('/');
            let spans = opentelemetry_otlp::SpanExporter::builder()
                .with_http()
                .with_endpoint(format!("{base}/v1/traces"))
                .with_timeout(EXPORT_TIMEOUT)
                .build()
                .map_err(|e| TelemetryError(format!("the OTLP span exporter for `{base}`: {e}")))?;
            tracer = tracer.with_batch_exporter(spans);
            let metrics = opentelemetry_otlp::MetricExporter::builder()
                .with_http()
                .with_endpoint(format!("{base}/v1/metrics"))
                .with_timeout(EXPORT_TIMEOUT)
                .build()
                .map_err(|e| {
                    TelemetryError(format!("the OTLP metric exporter for `{base}`: {e}"))
                })?;
            meters = meters.with_reader(PeriodicReader::builder(metrics).build());
        }
        for add in self.spans {
            tracer = add(tracer);
        }
        let registry = if self.prometheus {
            let registry = prometheus::Registry::new();
            let exporter = opentelemetry_prometheus::exporter()
                .with_registry(registry.clone())
                .scope_info_enabled(false)
                .build()
                .map_err(|e| TelemetryError(format!("the Prometheus exporter: {e}")))?;
            meters = meters.with_reader(exporter);
            Some(registry)
        } else {
            None
        };
        Ok(Telemetry {
            tracer: tracer.build(),
            meters: meters.build(),
            registry,
        })
    }
}
