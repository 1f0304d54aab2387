//! The gauges, read when the metrics are collected: the sessions open and the live tasks, of
//! this process. The state interface has no cheap count of what every process shares (a
//! count would scan the store), so each process tells its own, and a dashboard sums them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use opentelemetry::KeyValue;
use opentelemetry::metrics::Meter;

use super::Instruments;
use crate::tasks::Tasks;

/// A count of this process, read at each collection.
type Count = Box<dyn Fn() -> u64 + Send + Sync>;

/// What the gauges read.
#[derive(Default)]
pub(crate) struct Gauges {
    /// The stdio connections open.
    pipes: AtomicU64,
    /// Each HTTP route's 2025-11-25 sessions with a worker in this process.
    http: Mutex<Vec<Count>>,
    /// The server's tasks, whose live ones this process runs.
    tasks: Mutex<Weak<Tasks>>,
}

impl Gauges {
    /// Registers the gauges on `meter`, reading `gauges`.
    pub(super) fn register(gauges: &Arc<Gauges>, meter: &Meter) {
        let read = Arc::clone(gauges);
        let _sessions = meter
            .u64_observable_gauge("mcp_contract.server.sessions")
            .with_description(
                "The sessions open in this process: stdio connections (pipe), and 2025-11-25 \
                 HTTP sessions it holds a worker for (tcp).",
            )
            .with_callback(move |observer| {
                let pipes = read.pipes.load(Ordering::Relaxed);
                observer.observe(pipes, &[KeyValue::new("network.transport", "pipe")]);
                let http = lock(&read.http).iter().map(|count| count()).sum();
                observer.observe(http, &[KeyValue::new("network.transport", "tcp")]);
            })
            .build();
        let read = Arc::clone(gauges);
        let _tasks = meter
            .u64_observable_gauge("mcp_contract.server.tasks")
            .with_description("The live tasks this process runs, by status.")
            .with_callback(move |observer| {
                let tasks = lock(&read.tasks).upgrade();
                let (working, parked) = tasks.map_or((0, 0), |t| t.live_here());
                let status = |s: &'static str| [KeyValue::new("mcp_contract.task.status", s)];
                observer.observe(working, &status("working"));
                observer.observe(parked, &status("input_required"));
            })
            .build();
    }

    /// Counts the tasks of `tasks` from now on, in place of any counted before.
    pub(crate) fn watch_tasks(&self, tasks: &Arc<Tasks>) {
        *lock(&self.tasks) = Arc::downgrade(tasks);
    }

    /// Adds `count`, an HTTP route's sessions held here, to the sessions open.
    #[cfg(feature = "http")]
    pub(crate) fn watch_sessions(&self, count: Count) {
        lock(&self.http).push(count);
    }
}

/// A stdio connection open, counted until it drops.
pub(crate) struct PipeOpen {
    instruments: Arc<Instruments>,
    started: Instant,
}

impl PipeOpen {
    /// Counts a stdio connection of `instruments`'s server open.
    pub(crate) fn new(instruments: Arc<Instruments>) -> Self {
        instruments.gauges.pipes.fetch_add(1, Ordering::Relaxed);
        PipeOpen {
            instruments,
            started: Instant::now(),
        }
    }

    /// The connection ended after its `initialize`: a session, measured.
    pub(crate) fn ended(self) {
        let seconds = self.started.elapsed().as_secs_f64();
        self.instruments.session_ended(seconds, "pipe");
    }
}

impl Drop for PipeOpen {
    fn drop(&mut self) {
        self.instruments
            .gauges
            .pipes
            .fetch_sub(1, Ordering::Relaxed);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
