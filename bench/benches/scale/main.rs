//! The scale benchmark: the reference server (`mcp-workspace --http`) with many clients and
//! several instances, its state in memory against Redis, side by side in one run (issue 24;
//! see `docs/benchmarks.md`, "The scale benchmark").
//!
//! `cargo bench -p workspace-bench --bench scale [-- OPTIONS]`; `-- --help` lists them.
//!
//! 1. **Memory** of idle 2025-11-25 sessions: the resident set of one instance before and
//!    after opening 1,000 and then 10,000 sessions, once their workers idled out; with the
//!    Redis store also Redis's own memory per session.
//! 2. **Calls**: `tools/call` of `read_file` (a call that needs no state) from many clients
//!    at once, on 2026-07-28 and in 2025-11-25 sessions, against one and three instances,
//!    directly and through HAProxy: calls a second, p50 and p99, the servers' processor time
//!    per call, and the Redis commands each call cost (`INFO commandstats`).
//! 3. **Tasks**: a `search_text` task's create-to-complete latency (`tools/call` with
//!    `params.task`, then `tasks/result`).
//! 4. **The store**: each kind of call's Redis commands (`MONITOR`), one Redis's rates
//!    (`redis-benchmark`), and so how many calls of each kind one Redis serves.

mod client;
mod fleet;
mod front;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use client::{Endpoint, tool_result};
use fleet::{Fleet, Store};
use front::Front;
use futures::StreamExt as _;
use serde_json::{Value, json};
use workspace_bench::reference;
use workspace_bench::scale::{
    Rates, benchmark_rate, command_calls, command_growth, info_field, redis_info, tally, thousands,
};
use workspace_bench::stats::{Summary, millis};
use workspace_bench::table::Table;

const HELP: &str = "\
usage: cargo bench -p workspace-bench --bench scale [-- OPTIONS]

  --only LIST      memory, calls, tasks, store (comma-separated; default all four)
  --clients N      concurrent clients of each calls run (default 64)
  --seconds S      timed seconds of each calls run, after one second of warm-up (default 5)
  --sessions N     idle sessions of the memory figure (default 10000; above 1,000,
                   1,000 are measured first; then 1,000 more once they idled)
  --tasks N        tasks timed one after the other per configuration (default 200)
  --server PATH    an mcp-workspace binary to run instead of building one
  --appendfsync M  always, everysec or no: Redis's fsync of its append-only file (default
                   always, as mcp_contract::testing::RedisServer starts it)
";

/// How long a session's worker may live unused in the reference server: its worker idle time
/// (`SessionLimits::default`, 30 s), the period of the sweep that closes idle workers (half
/// of that), and a margin. After it, an idle session is only its record.
const WORKER_IDLE: Duration = Duration::from_secs(50);

/// The route of the read-only tools; `read_file` and `search_text` are there.
const READ: &str = "/mcp/read";
/// The route with `delete_path`.
const EDIT: &str = "/mcp/edit";
/// The files `read_file` rotates through.
const FILES: usize = 16;

struct Options {
    only: Vec<String>,
    clients: usize,
    seconds: f64,
    sessions: usize,
    tasks: usize,
    server: Option<PathBuf>,
    appendfsync: Option<String>,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        only: ["memory", "calls", "tasks", "store"]
            .map(String::from)
            .to_vec(),
        clients: 64,
        seconds: 5.0,
        sessions: 10_000,
        tasks: 200,
        server: None,
        appendfsync: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        let number = |v: String| {
            v.parse::<usize>()
                .map_err(|_| format!("{a}: not a number: {v}"))
        };
        match a.as_str() {
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "--only" => o.only = value()?.split(',').map(|s| s.trim().to_owned()).collect(),
            "--clients" => o.clients = number(value()?)?.max(1),
            "--seconds" => {
                o.seconds = (value()?.parse::<f64>()).map_err(|_| "--seconds S".to_owned())?
            }
            "--sessions" => o.sessions = number(value()?)?.max(1),
            "--tasks" => o.tasks = number(value()?)?.max(1),
            "--server" => o.server = Some(PathBuf::from(value()?)),
            "--appendfsync" => match value()?.as_str() {
                mode @ ("always" | "everysec" | "no") => o.appendfsync = Some(mode.to_owned()),
                other => return Err(format!("--appendfsync always|everysec|no, not {other}")),
            },
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown option {other}\n{HELP}")),
        }
    }
    Ok(o)
}

/// Fails with one line when `program`, from the Debian package `package`, is missing.
fn require(program: &str, version_flag: &str, package: &str) -> Result<(), String> {
    let ran = Command::new(program)
        .arg(version_flag)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match ran {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "this benchmark needs `{program}`, which is not installed (Debian: `apt-get install {package}`)"
        )),
        _ => Ok(()),
    }
}

/// What the run prints, kept as Markdown too for `<target>/scale-bench.md`.
#[derive(Default)]
struct Report {
    markdown: String,
}

impl Report {
    fn heading(&mut self, text: &str) {
        println!("\n## {text}\n");
        let _ = write!(self.markdown, "\n## {text}\n\n");
    }

    fn table(&mut self, table: &Table) {
        print!("{}", table.plain());
        self.markdown.push_str(&table.markdown());
    }

    fn note(&mut self, text: &str) {
        println!("{text}");
        let _ = writeln!(self.markdown, "\n{text}");
    }
}

/// Everything the phases share.
struct Bench {
    options: Options,
    binary: PathBuf,
    root: tempfile::TempDir,
    report: Report,
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn now_utc() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// The workspace the servers serve: the files `read_file` reads and `search_text` searches.
fn workspace() -> Result<tempfile::TempDir, String> {
    let root = tempfile::tempdir().map_err(|e| format!("a temporary directory: {e}"))?;
    let notes = root.path().join("notes");
    std::fs::create_dir_all(&notes).map_err(|e| e.to_string())?;
    for i in 0..FILES {
        let mut text = String::new();
        for line in 0..24 {
            let _ = writeln!(text, "note {i}, line {line}: the quick brown fox jumps");
        }
        if i % 4 == 0 {
            text.push_str("a needle in the notes\n");
        }
        std::fs::write(notes.join(format!("n{i:02}.md")), text).map_err(|e| e.to_string())?;
    }
    Ok(root)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scale: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let options = parse_options()?;
    require("redis-server", "--version", "redis-server")?;
    require("redis-benchmark", "--version", "redis-tools")?;
    require("haproxy", "-v", "haproxy")?;
    let target = reference::target_dir()?;
    let binary = match &options.server {
        Some(path) => path.clone(),
        None => reference::build(&target)?,
    };
    let mut bench = Bench {
        options,
        binary,
        root: workspace()?,
        report: Report::default(),
    };
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    bench.report.note(&format!(
        "# Scale benchmark, {}: {cores} cores, load average {} at the start; release build of `{}`; Redis with appendonly yes, appendfsync {}",
        now_utc(),
        load_average(),
        bench.binary.display(),
        bench.options.appendfsync.as_deref().unwrap_or("always")
    ));
    let only = bench.options.only.clone();
    let wants = |phase: &str| only.iter().any(|o| o == phase);
    if wants("memory") {
        memory(&mut bench).await?;
    }
    if wants("calls") {
        calls(&mut bench).await?;
    }
    if wants("tasks") {
        tasks(&mut bench).await?;
    }
    if wants("store") {
        store(&mut bench).await?;
    }
    bench
        .report
        .note(&format!("(load average {} at the end)", load_average()));
    let written = target.join("scale-bench.md");
    std::fs::write(&written, &bench.report.markdown)
        .map_err(|e| format!("cannot write {}: {e}", written.display()))?;
    eprintln!("\nwritten to {}", written.display());
    Ok(())
}

// ---------------------------------------------------------------------------------------
// 1. Memory of idle sessions.

/// Opens `n` sessions at `route`, 32 at a time.
async fn open_many(endpoint: &Endpoint, n: usize) -> Result<Vec<String>, String> {
    futures::stream::iter(0..n)
        .map(|_| endpoint.open(READ))
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect()
}

/// Redis's `used_memory`, bytes.
fn redis_memory(fleet: &Fleet) -> Option<u64> {
    let port = fleet.redis.as_ref()?.port();
    let info = redis_info(port, "memory").ok()?;
    info_field(&info, "used_memory")?.parse().ok()
}

async fn memory(bench: &mut Bench) -> Result<(), String> {
    let n = bench.options.sessions;
    eprintln!(
        "memory: one instance with each store, 1,000, {} and 1,000 more idle sessions (about {} s)…",
        thousands(n as u64),
        WORKER_IDLE.as_secs() * 4 + 40
    );
    let cap = n + 2_000;
    let fsync = bench.options.appendfsync.as_deref();
    let fleets = [Store::Memory, Store::Redis]
        .map(|store| Fleet::start(&bench.binary, bench.root.path(), store, 1, cap, fsync));
    let [memory, redis] = fleets;
    let fleets = [memory?, redis?];
    let endpoints = fleets.each_ref().map(|f| Endpoint::new(f.bases()));
    // Warm up the allocator, the connections and the lazy parts of both, then let the warm-up
    // sessions' workers idle out.
    let warm = futures::future::join_all(endpoints.iter().map(|e| open_many(e, 50))).await;
    warm.into_iter().collect::<Result<Vec<_>, _>>()?;
    tokio::time::sleep(WORKER_IDLE).await;
    let rss = |fleets: &[Fleet; 2]| fleets.each_ref().map(|f| f.instances[0].rss_kib());
    let before = rss(&fleets);
    let redis_before = redis_memory(&fleets[1]).unwrap_or(0);
    // (sessions, RSS just after opening, RSS once idle, Redis used_memory once idle)
    let mut steps: Vec<(usize, [u64; 2], [u64; 2], u64)> = Vec::new();
    let mut opened = 0;
    // The last step opens 1,000 more once the others idled: whether the memory of the
    // workers closed since is used again, or each session keeps its own.
    let counts = if n > 1_000 {
        vec![1_000, n, n + 1_000]
    } else {
        vec![n, n + 1_000]
    };
    for step in counts {
        let started = Instant::now();
        let results =
            futures::future::join_all(endpoints.iter().map(|e| open_many(e, step - opened))).await;
        for result in results {
            result?;
        }
        eprintln!(
            "  {} sessions open on each in {:.1} s",
            thousands(step as u64),
            started.elapsed().as_secs_f64()
        );
        opened = step;
        let just_after = rss(&fleets);
        tokio::time::sleep(WORKER_IDLE).await;
        steps.push((
            step,
            just_after,
            rss(&fleets),
            redis_memory(&fleets[1]).unwrap_or(0),
        ));
    }
    bench.report.heading(&format!(
        "Idle 2025-11-25 sessions: one instance's resident set (VmRSS) before and after opening them, once their workers idled out ({} s)",
        WORKER_IDLE.as_secs()
    ));
    let mut table = Table::new(["figure", "memory store", "Redis store", "Redis / memory"]);
    let kib = |k: u64| format!("{} KiB", thousands(k));
    let per =
        |total: u64, base: u64, count: usize| (total.saturating_sub(base)) as f64 / count as f64;
    let ratio = |a: f64, b: f64| {
        if a > 0.0 {
            format!("{:.2}x", b / a)
        } else {
            "—".into()
        }
    };
    table.row([
        "RSS before".into(),
        kib(before[0]),
        kib(before[1]),
        String::new(),
    ]);
    for (count, just_after, idle, _) in &steps {
        let c = thousands(*count as u64);
        table.row([
            format!("RSS with {c} sessions, just opened"),
            kib(just_after[0]),
            kib(just_after[1]),
            String::new(),
        ]);
        table.row([
            format!("RSS with {c} sessions, idle"),
            kib(idle[0]),
            kib(idle[1]),
            String::new(),
        ]);
        let (a, b) = (
            per(idle[0], before[0], *count),
            per(idle[1], before[1], *count),
        );
        table.row([
            format!("per idle session, {c}"),
            format!("{a:.2} KiB"),
            format!("{b:.2} KiB"),
            ratio(a, b),
        ]);
    }
    for pair in steps.windows(2) {
        let [(small, _, first, _), (large, _, last, _)] = pair else {
            continue;
        };
        let between = large - small;
        let (a, b) = (
            per(last[0], first[0], between),
            per(last[1], first[1], between),
        );
        table.row([
            format!(
                "each of the {} sessions from {} to {}",
                thousands(between as u64),
                thousands(*small as u64),
                thousands(*large as u64)
            ),
            format!("{a:.2} KiB"),
            format!("{b:.2} KiB"),
            ratio(a, b),
        ]);
    }
    if let Some((count, _, _, used)) = steps.last() {
        table.row([
            format!(
                "Redis used_memory per session, {}",
                thousands(*count as u64)
            ),
            "—".into(),
            format!(
                "{:.2} KiB",
                used.saturating_sub(redis_before) as f64 / 1024.0 / *count as f64
            ),
            String::new(),
        ]);
    }
    bench.report.table(&table);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// 2. Calls from many clients.

/// What each client calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Workload {
    /// `read_file` on 2026-07-28: no session, nothing stored.
    Stateless,
    /// `read_file` in a 2025-11-25 session of the client's own.
    Session,
}

impl Workload {
    fn label(self) -> &'static str {
        match self {
            Workload::Stateless => "read_file, 2026-07-28 (stateless)",
            Workload::Session => "read_file in 2025-11-25 sessions",
        }
    }
}

/// One `read_file` of the `i`th file.
async fn read_file(endpoint: &Endpoint, session: Option<&str>, i: usize) -> Result<Value, String> {
    let params =
        json!({"name": "read_file", "arguments": {"path": format!("notes/n{:02}.md", i % FILES)}});
    let result = match session {
        None => endpoint.request_2026(READ, "tools/call", params).await?,
        Some(session) => {
            endpoint
                .request_2025(READ, session, "tools/call", params)
                .await?
        }
    };
    tool_result(result)
}

/// What one run measured.
struct Run {
    /// Each timed call's latency.
    latencies: Vec<Duration>,
    /// The timed seconds.
    seconds: f64,
    /// Every call made, warm-up included: what the processor time and the Redis commands are
    /// divided by.
    made: u64,
    errors: u64,
    first_error: Option<String>,
    /// The instances' processor time, all calls.
    server_cpu: Duration,
    /// HAProxy's processor time, all calls.
    front_cpu: Option<Duration>,
    /// Redis's commands by name (scripts' own commands included) and processor time, all
    /// calls.
    redis_commands: Option<BTreeMap<String, u64>>,
    redis_cpu: Option<Duration>,
}

/// Redis's processor time so far (`INFO cpu`).
fn redis_cpu(port: u16) -> Option<Duration> {
    let info = redis_info(port, "cpu").ok()?;
    let field = |name| info_field(&info, name)?.parse::<f64>().ok();
    Some(Duration::from_secs_f64(
        field("used_cpu_user")? + field("used_cpu_sys")?,
    ))
}

/// `clients` clients calling as `workload` says through `endpoint`, for a second of warm-up
/// and then `seconds`.
async fn load(
    front: &Front,
    fleet: &Fleet,
    workload: Workload,
    clients: usize,
    seconds: f64,
) -> Result<Run, String> {
    let endpoint = Arc::new(front.endpoint());
    let sessions: Vec<Option<String>> = match workload {
        Workload::Stateless => vec![None; clients],
        Workload::Session => open_many(&endpoint, clients)
            .await?
            .into_iter()
            .map(Some)
            .collect(),
    };
    let redis_port = fleet.redis.as_ref().map(|r| r.port());
    let commands_before = redis_port
        .map(|p| redis_info(p, "commandstats"))
        .transpose()?;
    let redis_cpu_before = redis_port.and_then(redis_cpu);
    let cpu_before = fleet.cpu();
    let front_cpu_before = front.cpu();
    let timed_from = Instant::now() + Duration::from_secs(1);
    let end = timed_from + Duration::from_secs_f64(seconds);
    let handles: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(k, session)| {
            let endpoint = endpoint.clone();
            tokio::spawn(async move {
                let (mut latencies, mut made, mut errors, mut first_error) =
                    (Vec::new(), 0u64, 0u64, None);
                let mut i = k;
                loop {
                    let start = Instant::now();
                    if start >= end {
                        break;
                    }
                    let answered = read_file(&endpoint, session.as_deref(), i).await;
                    let took = start.elapsed();
                    made += 1;
                    i += 1;
                    match answered {
                        Ok(_) if start >= timed_from && start + took <= end => latencies.push(took),
                        Ok(_) => {}
                        Err(e) => {
                            errors += 1;
                            first_error.get_or_insert(e);
                        }
                    }
                }
                (latencies, made, errors, first_error)
            })
        })
        .collect();
    let mut run = Run {
        latencies: Vec::new(),
        seconds,
        made: 0,
        errors: 0,
        first_error: None,
        server_cpu: Duration::ZERO,
        front_cpu: None,
        redis_commands: None,
        redis_cpu: None,
    };
    for handle in handles {
        let (latencies, made, errors, first_error) = handle.await.map_err(|e| e.to_string())?;
        run.latencies.extend(latencies);
        run.made += made;
        run.errors += errors;
        if run.first_error.is_none() {
            run.first_error = first_error;
        }
    }
    run.server_cpu = fleet.cpu().saturating_sub(cpu_before);
    run.front_cpu = front
        .cpu()
        .zip(front_cpu_before)
        .map(|(a, b)| a.saturating_sub(b));
    if let (Some(port), Some(before)) = (redis_port, commands_before) {
        let after = redis_info(port, "commandstats")?;
        run.redis_commands = Some(command_growth(
            &command_calls(&before),
            &command_calls(&after),
        ));
        run.redis_cpu = redis_cpu(port)
            .zip(redis_cpu_before)
            .map(|(after, before)| after.saturating_sub(before));
    }
    Ok(run)
}

async fn calls(bench: &mut Bench) -> Result<(), String> {
    let (clients, seconds) = (bench.options.clients, bench.options.seconds);
    let configurations = [
        (Store::Memory, 1),
        (Store::Redis, 1),
        (Store::Redis, 3),
        (Store::Memory, 3),
    ];
    // rows[workload]: (configuration, front, run)
    let mut rows: [Vec<(String, String, Run)>; 2] = [Vec::new(), Vec::new()];
    for (store, count) in configurations {
        let fleet = Fleet::start(
            &bench.binary,
            bench.root.path(),
            store,
            count,
            10_000,
            bench.options.appendfsync.as_deref(),
        )?;
        for way in 0..Front::WAYS.len() {
            let front = Front::start(way, &fleet);
            for (w, workload) in [Workload::Stateless, Workload::Session]
                .into_iter()
                .enumerate()
            {
                // Instances that each keep their own sessions cannot serve a session's requests
                // spread over them: that takes a shared store (or affinity, not measured).
                if workload == Workload::Session && store == Store::Memory && count > 1 {
                    continue;
                }
                eprintln!(
                    "calls: {} via {}, {}…",
                    fleet.label(),
                    front.label(),
                    workload.label()
                );
                let run = load(&front, &fleet, workload, clients, seconds).await?;
                rows[w].push((fleet.label(), front.label().to_owned(), run));
            }
        }
    }
    for (w, workload) in [Workload::Stateless, Workload::Session]
        .into_iter()
        .enumerate()
    {
        bench.report.heading(&format!(
            "tools/call {}: {clients} clients, each calling again once answered, {seconds} s after 1 s of warm-up (load average {})",
            workload.label(),
            load_average()
        ));
        let mut table = Table::new([
            "instances × store",
            "via",
            "calls/s",
            "vs first",
            "p50",
            "p99",
            "errors",
            "servers' CPU per call",
            "HAProxy CPU per call",
            "Redis commands per call",
            "Redis CPU per call",
        ]);
        let first = rows[w]
            .first()
            .map(|(_, _, r)| r.latencies.len() as f64 / r.seconds);
        for (configuration, front, run) in &rows[w] {
            let rate = run.latencies.len() as f64 / run.seconds;
            let summary = Summary::of(&run.latencies);
            let per_call =
                |d: Duration| format!("{:.0} µs", d.as_secs_f64() * 1e6 / run.made.max(1) as f64);
            table.row([
                configuration.clone(),
                front.clone(),
                format!("{rate:.0}"),
                first.map_or("—".into(), |f| format!("{:.2}x", rate / f)),
                summary.map_or("—".into(), |s| millis(s.median)),
                summary.map_or("—".into(), |s| millis(s.p99)),
                run.errors.to_string(),
                per_call(run.server_cpu),
                run.front_cpu.map_or("—".into(), per_call),
                run.redis_commands.as_ref().map_or("—".into(), |c| {
                    format!(
                        "{:.3}",
                        c.values().sum::<u64>() as f64 / run.made.max(1) as f64
                    )
                }),
                run.redis_cpu.map_or("—".into(), per_call),
            ]);
        }
        bench.report.table(&table);
        for (configuration, front, run) in &rows[w] {
            if let Some(commands) = &run.redis_commands {
                let names: Vec<String> =
                    commands.iter().map(|(n, c)| format!("{n} ×{c}")).collect();
                bench.report.note(&format!(
                    "{configuration} via {front}: {} calls made (warm-up included), Redis commands: {}",
                    thousands(run.made),
                    if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                ));
            }
            if let Some(error) = &run.first_error {
                bench.report.note(&format!(
                    "{configuration} via {front}: {} errors, the first: {error}",
                    run.errors
                ));
            }
        }
    }
    bench.report.note(
        "3 × memory runs only the stateless calls: instances that each keep their own \
         sessions would answer a session's requests spread over them 404 where they do not \
         know it.",
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// 3. Tasks.

/// One `search_text` task in `session`: the time until its `CreateTaskResult` and until
/// `tasks/result` answered.
async fn task(endpoint: &Endpoint, session: &str) -> Result<(Duration, Duration), String> {
    let started = Instant::now();
    let call =
        json!({"name": "search_text", "arguments": {"query": "needle"}, "task": {"ttl": 60000}});
    let created = endpoint
        .request_2025(READ, session, "tools/call", call)
        .await?;
    let made = started.elapsed();
    let id = created["task"]["taskId"]
        .as_str()
        .ok_or_else(|| format!("no task in {created}"))?
        .to_owned();
    let result = endpoint
        .request_2025(READ, session, "tasks/result", json!({"taskId": id}))
        .await?;
    let result = tool_result(result)?;
    if result["structuredContent"]["matches"]
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        return Err(format!("the search found nothing: {result}"));
    }
    Ok((made, started.elapsed()))
}

async fn tasks(bench: &mut Bench) -> Result<(), String> {
    let n = bench.options.tasks;
    let mut rows = Vec::new();
    for (store, count) in [(Store::Memory, 1), (Store::Redis, 1), (Store::Redis, 3)] {
        let fleet = Fleet::start(
            &bench.binary,
            bench.root.path(),
            store,
            count,
            1_000,
            bench.options.appendfsync.as_deref(),
        )?;
        for way in 0..Front::WAYS.len() {
            let front = Front::start(way, &fleet);
            eprintln!("tasks: {} via {}…", fleet.label(), front.label());
            let endpoint = front.endpoint();
            let session = endpoint.open(READ).await?;
            for _ in 0..10 {
                task(&endpoint, &session).await?;
            }
            let (mut made, mut done) = (Vec::new(), Vec::new());
            for _ in 0..n {
                let (m, d) = task(&endpoint, &session).await?;
                made.push(m);
                done.push(d);
            }
            rows.push((fleet.label(), front.label().to_owned(), made, done));
        }
    }
    bench.report.heading(&format!(
        "A search_text task, one after another in one 2025-11-25 session: tools/call with params.task, then tasks/result; {n} after 10 untimed (load average {})",
        load_average()
    ));
    let mut table = Table::new([
        "instances × store",
        "via",
        "created p50",
        "created p99",
        "create to complete p50",
        "p99",
        "vs first",
    ]);
    let first = rows.first().and_then(|(_, _, _, done)| Summary::of(done));
    for (configuration, front, made, done) in &rows {
        let (made, done) = (Summary::of(made), Summary::of(done));
        table.row([
            configuration.clone(),
            front.clone(),
            made.map_or("—".into(), |s| millis(s.median)),
            made.map_or("—".into(), |s| millis(s.p99)),
            done.map_or("—".into(), |s| millis(s.median)),
            done.map_or("—".into(), |s| millis(s.p99)),
            first.zip(done).map_or("—".into(), |(f, d)| {
                format!("{:.2}x", d.median.as_secs_f64() / f.median.as_secs_f64())
            }),
        ]);
    }
    bench.report.table(&table);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// 4. The store: commands per call, and one Redis's rates.

/// A directory `delete_path` may delete, made on disk for one confirmed round.
fn doomed(root: &Path, i: usize) -> Result<String, String> {
    let dir = format!("doomed/d{i}");
    std::fs::create_dir_all(root.join(&dir).join("deep")).map_err(|e| e.to_string())?;
    std::fs::write(root.join(&dir).join("deep/x.md"), "x\n").map_err(|e| e.to_string())?;
    Ok(dir)
}

/// A confirmed recursive delete on 2026-07-28: the question, then the retry with the sealed
/// request state and the answer.
async fn sealed_round(endpoint: &Endpoint, path: &str) -> Result<(), String> {
    let call = json!({"name": "delete_path", "arguments": {"path": path, "recursive": true}});
    let asked = endpoint
        .request_2026(EDIT, "tools/call", call.clone())
        .await?;
    if asked["resultType"] != "input_required" {
        return Err(format!("delete_path did not ask: {asked}"));
    }
    let mut retry = call;
    retry["inputResponses"] =
        json!({"confirm_delete": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = asked["requestState"].clone();
    tool_result(endpoint.request_2026(EDIT, "tools/call", retry).await?)?;
    Ok(())
}

/// `redis-benchmark` against the Redis on `port`: requests a second of each test.
fn redis_benchmark(port: u16, args: &[&str]) -> Result<Vec<(String, f64)>, String> {
    let output = Command::new("redis-benchmark")
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-q", "-c", "32"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("redis-benchmark: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let rates: Vec<(String, f64)> = text.lines().filter_map(benchmark_rate).collect();
    if rates.is_empty() {
        return Err(format!(
            "redis-benchmark reported nothing: {text}{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(rates)
}

/// A compare-and-set on a hash with an expiry, as the store's task scripts do.
const SCRIPT: &str = "local v = redis.call('HGET', KEYS[1], 'v') \
    if v == false or v == ARGV[1] then \
    redis.call('HSET', KEYS[1], 'v', ARGV[1], 'r', ARGV[1]) \
    redis.call('PEXPIRE', KEYS[1], 60000) return 1 end return 0";

async fn store(bench: &mut Bench) -> Result<(), String> {
    const N: usize = 20;
    eprintln!("store: commands of each kind of call (MONITOR), then redis-benchmark…");
    let fleet = Fleet::start(
        &bench.binary,
        bench.root.path(),
        Store::Redis,
        1,
        1_000,
        bench.options.appendfsync.as_deref(),
    )?;
    let redis = fleet.redis.as_ref().expect("a Redis fleet");
    let endpoint = Endpoint::new(fleet.bases());
    // Warm: the key ring made, the connections open.
    let session = endpoint.open(READ).await?;
    read_file(&endpoint, Some(&session), 0).await?;
    read_file(&endpoint, None, 0).await?;
    task(&endpoint, &session).await?;
    sealed_round(&endpoint, &doomed(bench.root.path(), 0)?).await?;
    let mut monitor = redis.monitor().await;
    monitor.sent().await;
    // (what, calls made, the commands of all of them)
    let mut kinds: Vec<(&str, usize, Vec<String>)> = Vec::new();
    for i in 0..N {
        read_file(&endpoint, None, i).await?;
    }
    kinds.push(("read_file, 2026-07-28", N, monitor.sent().await));
    let mut sessions = Vec::new();
    for _ in 0..N {
        sessions.push(endpoint.open(READ).await?);
    }
    kinds.push((
        "open a 2025-11-25 session (initialize, initialized)",
        N,
        monitor.sent().await,
    ));
    for (i, session) in sessions.iter().enumerate() {
        read_file(&endpoint, Some(session), i).await?;
    }
    kinds.push(("read_file in a 2025-11-25 session", N, monitor.sent().await));
    for _ in 0..N {
        task(&endpoint, &session).await?;
    }
    kinds.push((
        "a task: tools/call with params.task, then tasks/result",
        N,
        monitor.sent().await,
    ));
    for i in 0..N {
        sealed_round(&endpoint, &doomed(bench.root.path(), i + 1)?).await?;
    }
    kinds.push((
        "a confirmed delete_path, 2026-07-28: asked, then retried with requestState",
        N,
        monitor.sent().await,
    ));
    drop(monitor);

    let port = redis.port();
    let simple = redis_benchmark(port, &["-n", "200000", "-t", "get,set,hset"])?;
    let script = redis_benchmark(
        port,
        &[
            "-n",
            "50000",
            "-r",
            "100000",
            "eval",
            SCRIPT,
            "1",
            "bench:{__rand_int__}",
            "1",
        ],
    )?;
    let rate = |name: &str, list: &[(String, f64)]| {
        list.iter()
            .find(|(n, _)| n.to_uppercase().starts_with(name))
            .map(|(_, r)| *r)
    };
    let rates = Rates {
        read: rate("GET", &simple).ok_or("no GET rate")?,
        write: rate("SET", &simple).ok_or("no SET rate")?,
        script: script.first().map(|(_, r)| *r).ok_or("no script rate")?,
    };
    bench.report.heading(&format!(
        "One Redis on this machine (redis-benchmark, 32 connections, no pipelining; the run's Redis: appendonly yes, appendfsync {}) (load average {})",
        bench.options.appendfsync.as_deref().unwrap_or("always"),
        load_average()
    ));
    let mut table = Table::new(["test", "requests/s"]);
    for (name, r) in &simple {
        table.row([name.clone(), format!("{r:.0}")]);
    }
    table.row([
        "a compare-and-set script on a hash with an expiry (EVAL)".to_owned(),
        format!("{:.0}", rates.script),
    ]);
    bench.report.table(&table);

    bench.report.heading(&format!(
        "Redis commands each kind of call sends (MONITOR, {N} calls each, one instance), and so the calls one Redis serves"
    ));
    let mut table = Table::new([
        "call",
        "commands per call",
        "which (all calls)",
        "calls/s one Redis serves",
    ]);
    for (what, made, commands) in &kinds {
        table.row([
            (*what).to_owned(),
            format!("{:.2}", commands.len() as f64 / *made as f64),
            tally(commands),
            rates
                .calls_per_second(commands)
                .map_or("unbounded (none sent)".into(), |r| {
                    thousands((r * *made as f64) as u64)
                }),
        ]);
    }
    bench.report.table(&table);
    bench.report.note(
        "Each command is costed at the rate of its kind above (scripts at the script's, reads at \
         GET's, writes and PUBLISH at SET's); a call's capacity is the inverse of the sum.",
    );
    Ok(())
}
