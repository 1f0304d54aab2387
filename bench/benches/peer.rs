//! Runs one workload (list, read, find by glob, content search) over a generated tree against
//! `mcp-workspace` and, when Node.js and npm are there, against the official
//! `@modelcontextprotocol/server-filesystem`, both as child processes over stdio and both
//! driven by the same rmcp client. Prints the medians, the p95s and the ratio theirs / ours.
//!
//! `cargo bench -p workspace-bench --bench peer [-- OPTIONS]`; `-- --help` lists the options.
//! docs/benchmarks.md says what is measured and how to read it.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion, Tool,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};
use workspace_bench::reference;
use workspace_bench::stats::{Summary, millis, ratio};
use workspace_bench::table::Table;
use workspace_bench::tree::{self, MARKER, Tree, TreeSpec};

/// The official server's npm package, and the version the figures in docs/benchmarks.md used.
const PEER_PACKAGE: &str = "@modelcontextprotocol/server-filesystem";
const PEER_VERSION: &str = "2026.8.31";

/// The glob both servers are asked to find.
const GLOB: &str = "**/*.md";

/// How many different files the read operation cycles through.
const READ_SAMPLE: usize = 24;

const USAGE: &str = "\
usage: cargo bench -p workspace-bench --bench peer [-- OPTIONS]

  --files N          files in the generated tree (default 3000)
  --iters N          timed calls per light operation, list and read (default 300)
  --heavy-iters N    timed calls per tree-wide operation, find and search (default 30)
  --starts N         start-ups timed per server (default 10)
  --ours-only        do not run the official server
  --ours PATH        use this mcp-workspace binary instead of building one
  --peer-version V   the npm version of the official server (default 2026.8.31)
";

#[derive(Debug, Clone)]
struct Options {
    files: usize,
    iters: usize,
    heavy_iters: usize,
    starts: usize,
    ours_only: bool,
    ours: Option<PathBuf>,
    peer_version: String,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        files: TreeSpec::default().files,
        iters: 300,
        heavy_iters: 30,
        starts: 10,
        ours_only: false,
        ours: None,
        peer_version: PEER_VERSION.to_owned(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let mut number = |name: &str| -> Result<usize, String> {
            let v = value(name)?;
            match v.parse() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("{name} needs a positive number, not `{v}`")),
            }
        };
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "--files" => options.files = number("--files")?,
            "--iters" => options.iters = number("--iters")?,
            "--heavy-iters" => options.heavy_iters = number("--heavy-iters")?,
            "--starts" => options.starts = number("--starts")?,
            "--ours-only" => options.ours_only = true,
            "--ours" => options.ours = Some(value("--ours")?.into()),
            "--peer-version" => options.peer_version = value("--peer-version")?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

/// Which server a session talks to; the workload differs only in tool names and paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Ours,
    Theirs,
}

impl Side {
    fn label(self) -> &'static str {
        match self {
            Side::Ours => "mcp-workspace",
            Side::Theirs => "server-filesystem",
        }
    }
}

/// How to start one server.
#[derive(Debug, Clone)]
struct Launch {
    side: Side,
    program: PathBuf,
    args: Vec<OsString>,
    /// Where the child's stderr goes, to show when something fails.
    log: PathBuf,
}

/// A running server with its client.
struct Session {
    side: Side,
    client: RunningService<RoleClient, ClientConfig>,
    pid: Option<u32>,
    tools: Vec<Tool>,
    /// The tree's root as the server is asked about it: `.` for ours, absolute for theirs.
    root: PathBuf,
}

fn client_config() -> ClientConfig {
    // No capabilities: in particular no roots, so the official server keeps the directory it
    // was started with instead of asking the client for roots.
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("workspace-bench", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// Spawns the server and completes the initialize handshake; returns the session and the time
/// from spawn to `notifications/initialized` sent.
async fn start(launch: &Launch, root: &Path) -> Result<(Session, Duration), String> {
    let mut command = tokio::process::Command::new(&launch.program);
    command.args(&launch.args).current_dir(root);
    let log =
        fs::File::create(&launch.log).map_err(|e| format!("{}: {e}", launch.log.display()))?;
    let started = Instant::now();
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::from(log))
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", launch.program.display()))?;
    let pid = transport.id();
    let client = client_config().serve(transport).await.map_err(|e| {
        format!(
            "{}: initialize failed: {e}{}",
            launch.side.label(),
            log_tail(launch)
        )
    })?;
    let startup = started.elapsed();
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("{}: tools/list failed: {e}", launch.side.label()))?;
    let session_root = match launch.side {
        Side::Ours => PathBuf::from("."),
        Side::Theirs => root.to_owned(),
    };
    let session = Session {
        side: launch.side,
        client,
        pid,
        tools,
        root: session_root,
    };
    Ok((session, startup))
}

fn log_tail(launch: &Launch) -> String {
    let text = fs::read_to_string(&launch.log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(10)..].join("\n");
    if tail.is_empty() {
        String::new()
    } else {
        format!("\n--- its stderr ---\n{tail}")
    }
}

/// The peak resident set of a process, from /proc (Linux only).
fn peak_rss_kib(pid: Option<u32>) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One operation of the workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    List,
    Read,
    Find,
    Search,
}

impl Op {
    const ALL: [Op; 4] = [Op::List, Op::Read, Op::Find, Op::Search];

    fn label(self) -> &'static str {
        match self {
            Op::List => "list a directory",
            Op::Read => "read a file",
            Op::Find => "find files by glob",
            Op::Search => "search file contents",
        }
    }

    fn heavy(self) -> bool {
        matches!(self, Op::Find | Op::Search)
    }
}

/// What a call returned, reduced to what both servers can be compared on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// Entry names or workspace-relative paths.
    Names(BTreeSet<String>),
    Text(String),
    Count(usize),
}

/// The workload's inputs, fixed by the tree.
struct Workload<'t> {
    tree: &'t Tree,
    list_dirs: Vec<&'t str>,
    read_files: Vec<&'t str>,
}

impl<'t> Workload<'t> {
    fn new(tree: &'t Tree) -> Self {
        Self {
            tree,
            list_dirs: tree.module_dirs(),
            read_files: tree
                .sample_files(READ_SAMPLE)
                .into_iter()
                .map(|f| f.path.as_str())
                .collect(),
        }
    }

    /// How many distinct inputs an operation cycles through.
    fn inputs(&self, op: Op) -> usize {
        match op {
            Op::List => self.list_dirs.len(),
            Op::Read => self.read_files.len(),
            Op::Find | Op::Search => 1,
        }
    }

    /// The right answer for the `i`-th input, from the generator's record.
    fn expected(&self, op: Op, i: usize, root: &Path) -> Outcome {
        match op {
            Op::List => Outcome::Names(
                self.tree
                    .entry_names(self.list_dirs[i % self.list_dirs.len()]),
            ),
            Op::Read => {
                let path = root.join(self.read_files[i % self.read_files.len()]);
                Outcome::Text(fs::read_to_string(path).unwrap_or_default())
            }
            Op::Find => Outcome::Names(
                self.tree
                    .files
                    .iter()
                    .filter(|f| f.path.ends_with(".md"))
                    .map(|f| f.path.clone())
                    .collect(),
            ),
            Op::Search => Outcome::Count(self.tree.marker_lines()),
        }
    }
}

fn has_tool(session: &Session, name: &str) -> bool {
    session.tools.iter().any(|t| t.name == name)
}

fn tool<'s>(session: &'s Session, name: &str) -> Option<&'s Tool> {
    session.tools.iter().find(|t| t.name == name)
}

/// The call for the `i`-th input of `op` on this server, or why it has none.
fn request(
    session: &Session,
    workload: &Workload,
    op: Op,
    i: usize,
) -> Result<CallToolRequestParams, String> {
    let path = |rel: &str| session.root.join(rel).to_string_lossy().into_owned();
    let root = session.root.to_string_lossy().into_owned();
    let (name, args) = match (session.side, op) {
        (_, Op::List) => (
            "list_directory",
            json!({"path": path(workload.list_dirs[i % workload.list_dirs.len()])}),
        ),
        (Side::Ours, Op::Read) => (
            "read_file",
            json!({"path": path(workload.read_files[i % workload.read_files.len()])}),
        ),
        (Side::Theirs, Op::Read) => (
            // read_file is their deprecated alias of read_text_file.
            if has_tool(session, "read_text_file") {
                "read_text_file"
            } else {
                "read_file"
            },
            json!({"path": path(workload.read_files[i % workload.read_files.len()])}),
        ),
        (Side::Ours, Op::Find) => {
            let mut args = json!({"pattern": GLOB, "path": root});
            // Ask for as many matches as the tool allows (its default is lower than the
            // tree's count; a truncated answer fails the check).
            for cap in ["limit", "max_results"] {
                if let Some(max) = integer_maximum(tool(session, "find_files"), cap) {
                    args[cap] = json!(max);
                }
            }
            ("find_files", args)
        }
        (Side::Theirs, Op::Find) => ("search_files", json!({"path": root, "pattern": GLOB})),
        (Side::Ours, Op::Search) => (
            "search_text",
            json!({"query": MARKER, "path": root, "max_results": 1000}),
        ),
        (Side::Theirs, Op::Search) => return Err("no content-search tool".into()),
    };
    if !has_tool(session, name) {
        return Err(format!("no `{name}` tool"));
    }
    let Value::Object(args) = args else {
        unreachable!("the arguments are an object")
    };
    Ok(CallToolRequestParams::new(name).with_arguments(args))
}

/// The `maximum` of an integer parameter in a tool's input schema.
fn integer_maximum(tool: Option<&Tool>, param: &str) -> Option<u64> {
    tool?
        .input_schema
        .get("properties")?
        .get(param)?
        .get("maximum")?
        .as_u64()
}

/// The text of a result: the structured `content` field if there is one, else the text blocks.
fn result_text(result: &CallToolResult) -> String {
    if let Some(Value::String(s)) = result
        .structured_content
        .as_ref()
        .and_then(|v| v.get("content"))
    {
        return s.clone();
    }
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn structured(result: &CallToolResult) -> Result<&Map<String, Value>, String> {
    result
        .structured_content
        .as_ref()
        .and_then(Value::as_object)
        .ok_or_else(|| "no structured content".to_owned())
}

/// Reduces a result to an [`Outcome`].
fn outcome(session: &Session, op: Op, result: &CallToolResult) -> Result<Outcome, String> {
    if result.is_error == Some(true) {
        return Err(format!("tool error: {}", result_text(result)));
    }
    let root = session.root.to_string_lossy().into_owned();
    match (session.side, op) {
        (Side::Ours, Op::List) => {
            let entries = structured(result)?.get("entries").and_then(Value::as_array);
            let names = entries.ok_or("no `entries`")?.iter().filter_map(|e| {
                let path = e.get("path")?.as_str()?;
                Some(path.rsplit('/').next().unwrap_or(path).to_owned())
            });
            Ok(Outcome::Names(names.collect()))
        }
        (Side::Theirs, Op::List) => {
            // One `[FILE] name` or `[DIR] name` line per entry, in directory order.
            let text = result_text(result);
            let names = text
                .lines()
                .filter_map(|l| l.split_once("] ").map(|(_, n)| n.to_owned()));
            Ok(Outcome::Names(names.collect()))
        }
        (_, Op::Read) => Ok(Outcome::Text(result_text(result))),
        (Side::Ours, Op::Find) => {
            // `files: [{path, size}]`, paths relative to the root; any array of paths will do.
            let object = structured(result)?;
            if object.get("truncated") == Some(&Value::Bool(true)) {
                return Err("the result was truncated".into());
            }
            let items = object
                .get("files")
                .and_then(Value::as_array)
                .or_else(|| object.values().find_map(Value::as_array))
                .ok_or("no array in the result")?;
            let paths = items.iter().filter_map(|item| match item {
                Value::String(s) => Some(s.clone()),
                other => other.get("path")?.as_str().map(str::to_owned),
            });
            Ok(Outcome::Names(paths.collect()))
        }
        (Side::Theirs, Op::Find) => {
            // Absolute paths, one a line, or "No matches found".
            let text = result_text(result);
            let prefix = format!("{root}/");
            let paths = text
                .lines()
                .filter_map(|l| l.strip_prefix(&prefix).map(str::to_owned));
            Ok(Outcome::Names(paths.collect()))
        }
        (Side::Ours, Op::Search) => {
            let object = structured(result)?;
            if object.get("truncated") == Some(&Value::Bool(true)) {
                return Err("the result was truncated".into());
            }
            let matches = object
                .get("matches")
                .and_then(Value::as_array)
                .ok_or("no `matches`")?;
            Ok(Outcome::Count(matches.len()))
        }
        (Side::Theirs, Op::Search) => Err("no content search".into()),
    }
}

async fn call(
    session: &Session,
    params: CallToolRequestParams,
) -> Result<(CallToolResult, Duration), String> {
    let started = Instant::now();
    let result = session
        .client
        .call_tool(params)
        .await
        .map_err(|e| format!("{}: {e}", session.side.label()))?;
    Ok((result, started.elapsed()))
}

/// Calls every input of `op` once and checks the answer against the generator's record.
/// `Err`: a call failed or answered wrongly; `Ok(Err(why))`: the server has no tool for it.
async fn check(
    session: &Session,
    workload: &Workload<'_>,
    op: Op,
    tree_root: &Path,
) -> Result<Result<(), String>, String> {
    for i in 0..workload.inputs(op) {
        let params = match request(session, workload, op, i) {
            Ok(p) => p,
            Err(why) => return Ok(Err(why)),
        };
        let tool = params.name.clone();
        let (result, _) = call(session, params).await?;
        let got = outcome(session, op, &result)
            .map_err(|e| format!("{}: {tool}: {e}", session.side.label()))?;
        let want = workload.expected(op, i, tree_root);
        if got != want {
            return Err(format!(
                "{}: {tool} (input {i}) answered differently from the generated tree: {}",
                session.side.label(),
                difference(&got, &want)
            ));
        }
    }
    Ok(Ok(()))
}

fn difference(got: &Outcome, want: &Outcome) -> String {
    match (got, want) {
        (Outcome::Names(g), Outcome::Names(w)) => format!(
            "{} entries instead of {}; missing e.g. {:?}, extra e.g. {:?}",
            g.len(),
            w.len(),
            w.difference(g).next(),
            g.difference(w).next()
        ),
        (Outcome::Text(g), Outcome::Text(w)) => format!("{} bytes instead of {}", g.len(), w.len()),
        (Outcome::Count(g), Outcome::Count(w)) => format!("{g} instead of {w}"),
        _ => "a different kind of answer".into(),
    }
}

/// Timings of one operation on one server.
#[derive(Debug, Default, Clone)]
struct Series {
    samples: Vec<Duration>,
    /// Why the operation was not run, if it was not.
    skipped: Option<String>,
}

/// Runs `op` on every session, interleaved call by call so that background load (other builds
/// on this machine) falls on all of them alike: warm-up first, then `iters` timed calls each.
async fn run_op(
    sessions: &[Session],
    workload: &Workload<'_>,
    op: Op,
    warmup: usize,
    iters: usize,
) -> Result<Vec<Series>, String> {
    let mut series = vec![Series::default(); sessions.len()];
    let mut live = Vec::new();
    for (k, session) in sessions.iter().enumerate() {
        match request(session, workload, op, 0) {
            Ok(_) => live.push(k),
            Err(why) => series[k].skipped = Some(why),
        }
    }
    for round in 0..warmup + iters {
        // Alternate who goes first.
        let order: Vec<usize> = if round % 2 == 0 {
            live.clone()
        } else {
            live.iter().rev().copied().collect()
        };
        for k in order {
            let session = &sessions[k];
            let params = request(session, workload, op, round).expect("checked above");
            let (result, elapsed) = call(session, params).await?;
            if result.is_error == Some(true) {
                return Err(format!(
                    "{}: {}: {}",
                    session.side.label(),
                    op.label(),
                    result_text(&result)
                ));
            }
            if round >= warmup {
                series[k].samples.push(elapsed);
            }
        }
    }
    Ok(series)
}

/// Finds Node.js and installs the official server under `<target>/peer-node` (once per
/// version); returns `node` and the server's `dist/index.js`, or why it cannot.
fn install_theirs(target: &Path, version: &str) -> Result<(PathBuf, PathBuf), String> {
    let node_version = std::process::Command::new("node")
        .arg("--version")
        .output()
        .map_err(|e| format!("Node.js is not available (`node --version`: {e})"))?;
    if !node_version.status.success() {
        return Err("Node.js is not available (`node --version` failed)".into());
    }
    let dir = target.join("peer-node");
    let package = dir.join("node_modules").join(PEER_PACKAGE);
    let installed = fs::read_to_string(package.join("package.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        .and_then(|v| v.get("version")?.as_str().map(str::to_owned));
    if installed.as_deref() != Some(version) {
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // A package.json of its own keeps npm from walking up into another project.
        let manifest = dir.join("package.json");
        if !manifest.exists() {
            fs::write(&manifest, "{\"private\": true}\n")
                .map_err(|e| format!("{}: {e}", manifest.display()))?;
        }
        eprintln!(
            "installing {PEER_PACKAGE}@{version} into {}…",
            dir.display()
        );
        let output = std::process::Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                "--prefix",
            ])
            .arg(&dir)
            .arg(format!("{PEER_PACKAGE}@{version}"))
            .output()
            .map_err(|e| format!("npm is not available ({e})"))?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            return Err(format!(
                "npm install {PEER_PACKAGE}@{version} failed: {}",
                stderr.trim()
            ));
        }
    }
    let entry = package.join("dist").join("index.js");
    if !entry.is_file() {
        return Err(format!("{} is missing after the install", entry.display()));
    }
    Ok((PathBuf::from("node"), entry))
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to a civil date, in 400-year eras of 146,097 days from 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn cell(summary: Option<Summary>, pick: fn(&Summary) -> Duration) -> String {
    summary
        .map(|s| millis(pick(&s)))
        .unwrap_or_else(|| "—".into())
}

fn ratio_cell(ours: Option<Summary>, theirs: Option<Summary>) -> String {
    match (ours, theirs) {
        (Some(o), Some(t)) => {
            ratio(t.median, o.median).map_or("—".into(), |r| format!("{r:.2}x"))
        }
        _ => "—".into(),
    }
}

async fn run(options: Options) -> Result<(), String> {
    let target = reference::target_dir()?;
    let ours_binary = match &options.ours {
        Some(path) => path.clone(),
        None => reference::build(&target)?,
    };
    let theirs = if options.ours_only {
        Err("--ours-only was given".to_owned())
    } else {
        install_theirs(&target, &options.peer_version)
    };
    if let Err(why) = &theirs {
        eprintln!("the official server is left out: {why}");
    }

    let scratch =
        tempfile::tempdir().map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let root = scratch.path().join("tree");
    fs::create_dir(&root).map_err(|e| e.to_string())?;
    // Their server resolves symlinks in its allowed directory; compare against the real path.
    let root = root.canonicalize().map_err(|e| e.to_string())?;
    let spec = TreeSpec {
        files: options.files,
        ..TreeSpec::default()
    };
    let generated = Instant::now();
    let tree =
        tree::generate(&root, &spec).map_err(|e| format!("cannot generate the tree: {e}"))?;
    eprintln!(
        "generated {} files ({:.1} MiB) in {} directories in {:.1} s",
        tree.files.len(),
        tree.total_bytes() as f64 / (1024.0 * 1024.0),
        tree.dirs.len(),
        generated.elapsed().as_secs_f64()
    );

    let mut launches = vec![Launch {
        side: Side::Ours,
        program: ours_binary.clone(),
        args: vec!["--root".into(), root.clone().into()],
        log: scratch.path().join("ours.stderr"),
    }];
    if let Ok((node, entry)) = &theirs {
        launches.push(Launch {
            side: Side::Theirs,
            program: node.clone(),
            args: vec![entry.clone().into(), root.clone().into()],
            log: scratch.path().join("theirs.stderr"),
        });
    }
    let load_before = load_average();

    // Start-up: spawn to initialized, interleaved, each process shut down before the next.
    let mut startups = vec![Vec::new(); launches.len()];
    for round in 0..options.starts + 1 {
        for (k, launch) in launches.iter().enumerate() {
            let (session, took) = start(launch, &root).await?;
            if round > 0 {
                startups[k].push(took);
            }
            let _ = session.client.cancel().await;
        }
    }

    let mut sessions = Vec::new();
    for launch in &launches {
        sessions.push(start(launch, &root).await?.0);
    }
    for session in &sessions {
        let version = session
            .client
            .peer_info()
            .map(|i| i.protocol_version.to_string());
        eprintln!(
            "{}: protocol {}, {} tools",
            session.side.label(),
            version.as_deref().unwrap_or("?"),
            session.tools.len()
        );
    }

    let workload = Workload::new(&tree);
    let mut notes = Vec::new();
    for op in Op::ALL {
        for session in &sessions {
            if let Err(why) = check(session, &workload, op, &root).await? {
                notes.push(format!(
                    "{} on {}: skipped, {why}",
                    op.label(),
                    session.side.label()
                ));
            }
        }
    }

    let mut results = Vec::new();
    for op in Op::ALL {
        let (warmup, iters) = if op.heavy() {
            (3, options.heavy_iters)
        } else {
            (20, options.iters)
        };
        eprintln!("timing {} ({iters} calls per server)…", op.label());
        results.push((op, run_op(&sessions, &workload, op, warmup, iters).await?));
    }
    let peaks: Vec<Option<u64>> = sessions.iter().map(|s| peak_rss_kib(s.pid)).collect();
    let load_after = load_average();
    for session in sessions {
        let _ = session.client.cancel().await;
    }

    // The table.
    let both = launches.len() == 2;
    let mut header = vec!["operation", "ours median", "ours p95"];
    if both {
        header.extend(["theirs median", "theirs p95", "theirs / ours"]);
    }
    let mut table = Table::new(header);
    // Sums over the operations every server ran, so that they compare like with like.
    let mut totals = vec![Duration::ZERO; launches.len()];
    let mut shared_ops = Vec::new();
    for (op, series) in &results {
        let label = match op {
            Op::List => format!(
                "list_directory ({} dirs, ~{} entries)",
                workload.list_dirs.len(),
                tree.entry_names(workload.list_dirs[0]).len()
            ),
            Op::Read => format!("read a file ({} files)", workload.read_files.len()),
            Op::Find => format!("find `{GLOB}` ({} files)", tree.files_with_extension("md")),
            Op::Search => format!(
                "search_text ({} lines in {} files)",
                tree.marker_lines(),
                tree.marker_files()
            ),
        };
        let summaries: Vec<Option<Summary>> =
            series.iter().map(|s| Summary::of(&s.samples)).collect();
        if series.iter().all(|s| s.skipped.is_none()) {
            shared_ops.push(op.label());
            for (total, s) in totals.iter_mut().zip(series) {
                *total += s.samples.iter().sum::<Duration>();
            }
        }
        for (k, s) in series.iter().enumerate() {
            if let Some(why) = &s.skipped {
                let note = format!(
                    "{} on {}: skipped, {why}",
                    op.label(),
                    launches[k].side.label()
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        let mut row = vec![
            label,
            cell(summaries[0], |s| s.median),
            cell(summaries[0], |s| s.p95),
        ];
        if both {
            row.extend([
                cell(summaries[1], |s| s.median),
                cell(summaries[1], |s| s.p95),
                ratio_cell(summaries[0], summaries[1]),
            ]);
        }
        table.row(row);
    }
    let start_summaries: Vec<Option<Summary>> = startups.iter().map(|s| Summary::of(s)).collect();
    let mut row = vec![
        format!("start-up, spawn to initialized ({}x)", options.starts),
        cell(start_summaries[0], |s| s.median),
        cell(start_summaries[0], |s| s.p95),
    ];
    if both {
        row.extend([
            cell(start_summaries[1], |s| s.median),
            cell(start_summaries[1], |s| s.p95),
            ratio_cell(start_summaries[0], start_summaries[1]),
        ]);
    }
    table.row(row);
    let rss =
        |kib: Option<u64>| kib.map_or("—".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
    let mut row = vec!["peak RSS (VmHWM)".to_owned(), rss(peaks[0]), String::new()];
    if both {
        let r = match (peaks[0], peaks[1]) {
            (Some(o), Some(t)) if o > 0 => format!("{:.2}x", t as f64 / o as f64),
            _ => "—".into(),
        };
        row.extend([rss(peaks[1]), String::new(), r]);
    }
    table.row(row);

    let mut about = String::new();
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let _ = writeln!(
        about,
        "date: {}; {cores} cores; load average before {load_before}, after {load_after}",
        today()
    );
    let _ = writeln!(
        about,
        "tree: {} files, {:.1} MiB, {} directories; {} timed calls per list/read, {} per find/search, {} start-ups; interleaved",
        tree.files.len(),
        tree.total_bytes() as f64 / (1024.0 * 1024.0),
        tree.dirs.len(),
        options.iters,
        options.heavy_iters,
        options.starts
    );
    let _ = writeln!(about, "ours: {}", ours_binary.display());
    match &theirs {
        Ok((_, entry)) => {
            let _ = writeln!(
                about,
                "theirs: {PEER_PACKAGE}@{} on node ({})",
                options.peer_version,
                entry.display()
            );
        }
        Err(why) => {
            let _ = writeln!(about, "theirs: not run: {why}");
        }
    }
    let shared = shared_ops.join(", ");
    let sum_note = if both {
        let r = ratio(totals[1], totals[0]).map_or("—".into(), |r| format!("{r:.2}x"));
        format!(
            "sum of the timed calls of the operations both ran ({shared}): ours {}, theirs {} ({r})",
            millis(totals[0]),
            millis(totals[1])
        )
    } else {
        format!(
            "sum of the timed calls ({shared}): ours {}",
            millis(totals[0])
        )
    };

    println!();
    print!("{about}");
    println!();
    print!("{}", table.plain());
    println!();
    println!("{sum_note}");
    for note in &notes {
        println!("note: {note}");
    }

    let mut report = String::from("# Peer benchmark\n\n");
    for line in about.lines() {
        let _ = writeln!(report, "- {line}");
    }
    let _ = writeln!(report, "\n{}\n{sum_note}\n", table.markdown());
    for note in &notes {
        let _ = writeln!(report, "- note: {note}");
    }
    let path = target.join("peer-bench.md");
    fs::write(&path, report).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("\nwritten to {}", path.display());
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("peer: {why}\n");
            }
            eprint!("{USAGE}");
            return if why.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("peer: {why}");
            ExitCode::FAILURE
        }
    }
}
