//! `mcp-workspace`: serves the files of one directory to MCP clients over stdio, or over
//! streamable HTTP with `--http` (stateless on 2026-07-28; 2025-11-25 clients get sessions, so
//! that `delete_path` can ask them to confirm).

use std::io::{IsTerminal as _, Write as _};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use mcp_contract::auth::{Authorization, RateLimit};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::state::{RedisStore, State};
use mcp_contract::tasks::TaskLimits;
use mcp_contract::telemetry::Telemetry;
use mcp_workspace::Workspace;
use mcp_workspace::banner::{self, Transport};
use tracing_subscriber::Layer as _;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// A sandboxed workspace-files MCP server: list, read, search and edit the files under one
/// root, and nothing outside it.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// The workspace root; nothing outside it can be reached.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Serve streamable HTTP on this address (such as 127.0.0.1:8080) instead of stdio: each
    /// tool group at /mcp/GROUP.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Serve only the read-only tools: the write tools are absent from tools/list.
    #[arg(long)]
    read_only: bool,
    /// With --http, also accept requests whose Host is NAME (or NAME:PORT), beside the
    /// loopback names; repeat for several. Guards against DNS rebinding.
    #[arg(long = "allowed-host", value_name = "NAME", requires = "http")]
    allowed_hosts: Vec<String>,
    /// The requests handled at once: over stdio, past it the server stops reading until one
    /// is answered; over HTTP (all clients together), later requests wait their turn.
    #[arg(long, value_name = "N", default_value_t = mcp_contract::DEFAULT_MAX_IN_FLIGHT as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_in_flight: u64,
    /// With --http: accept only callers holding an access token from this OAuth authorization
    /// server (its issuer URL; its metadata names its key set). The groups need the scopes
    /// `tools.yaml` gives them.
    #[arg(long, value_name = "URL", requires_all = ["http", "resource"])]
    auth_issuer: Option<String>,
    /// With --auth-issuer: the authorization server's key set (JWKS) URL, when its metadata
    /// does not name one.
    #[arg(long, value_name = "URL", requires = "auth_issuer")]
    auth_jwks: Option<String>,
    /// With --auth-issuer: this server's resource identifier, its public URL without a route
    /// (such as https://files.example.com): the audience its tokens must name.
    #[arg(long, value_name = "URL", requires = "auth_issuer")]
    resource: Option<String>,
    /// With --http on an address beyond loopback: serve without authorization, to anyone who
    /// can reach the address. Without it, such a server needs --auth-issuer.
    #[arg(long, requires = "http", conflicts_with = "auth_issuer")]
    unprotected: bool,
    /// With --http: at most N requests a minute from each caller (by token subject, or by
    /// address without a valid token); past it, 429 with Retry-After.
    #[arg(long, value_name = "N", requires = "http",
          value_parser = clap::value_parser!(u32).range(1..))]
    rate_limit: Option<u32>,
    /// With --http: the 2025-11-25 sessions kept at once, by all routes together, each
    /// forgotten after 5 minutes unused; past it, a new client's initialize is answered 503
    /// with Retry-After. A session lets the server ask its client (delete_path's
    /// confirmation). An idle session is only a small record (docs/benchmarks.md), its worker
    /// closed after 30 seconds unused. 0: none, and 2025-11-25 is stateless too, its clients
    /// never asked.
    #[arg(long, value_name = "N", requires = "http",
          default_value_t = SessionLimits::default().max)]
    sessions: usize,
    /// With --http: let browser pages of this origin call the server, with CORS answers (such
    /// as https://app.example.com, http://localhost:3000, or http://localhost:* for any port);
    /// repeat for several. Every other origin is refused.
    #[arg(long = "allow-origin", value_name = "URL", requires = "http")]
    allowed_origins: Vec<String>,
    /// With --http: on SIGTERM or ctrl-c, how long the calls in flight and the tasks running
    /// get to finish before they are ended; keep it below the time your supervisor waits
    /// before it kills (Docker: 10 s).
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = mcp_contract::http::DEFAULT_GRACE_PERIOD.as_secs())]
    grace_period: u64,
    /// Keep what outlives a request (tasks, the request-state keys, resource updates,
    /// 2025-11-25 sessions) in the Redis at URL (redis://HOST:PORT[/DB]), shared by every
    /// instance given the same one; by default in this process's memory.
    #[arg(long, value_name = "URL")]
    state: Option<String>,
    /// How long the lease of a running task lasts unrenewed; the instance running it renews it
    /// every third of that. When an instance dies, another sharing the --state store fails its
    /// tasks once their leases lapsed: shorter finds them sooner, at one store write per
    /// running task per third of it.
    #[arg(long, value_name = "SECONDS", default_value_t = TaskLimits::default().lease.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    task_lease: u64,
    /// Export traces and metrics with OTLP over HTTP (protobuf) to the collector at URL (such
    /// as http://localhost:4318): spans to URL/v1/traces, metrics to URL/v1/metrics every 10
    /// seconds. See docs/observing.md.
    #[arg(long, value_name = "URL")]
    otlp: Option<String>,
    /// With --http: serve the metrics in the Prometheus text format at GET /metrics, beside the
    /// routes and outside their authorization: whoever reaches the address can read them (the
    /// tool names and their call and error counts). See docs/observing.md.
    #[arg(long, requires = "http")]
    metrics: bool,
    /// The log lines on stderr: `text` for a person, `json` (one object a line, with the
    /// trace id of the request each line belongs to) for a log collector.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// What the start-up line says of the server's state store: `memory`, the one it keeps in
/// this process, or the URL `--state` gave, without the credentials it may carry
/// (`redis://:PASSWORD@HOST`): the line goes to logs.
fn store_label(cli: &Cli) -> String {
    let Some(url) = &cli.state else {
        return "memory".to_owned();
    };
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            format!("{scheme}://{host}")
        }
        None => url.clone(),
    }
}

impl Cli {
    fn max_in_flight(&self) -> usize {
        usize::try_from(self.max_in_flight).unwrap_or(usize::MAX)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Built before the async runtime: the OTLP exporters send from threads of their own.
    let mut telemetry = Telemetry::builder(mcp_workspace::contract::SPEC.name);
    if let Some(url) = &cli.otlp {
        telemetry = telemetry.otlp(url);
    }
    if cli.metrics {
        telemetry = telemetry.prometheus();
    }
    let telemetry = match telemetry.build() {
        Ok(telemetry) => telemetry,
        Err(e) => {
            eprintln!("mcp-workspace: --otlp: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-workspace: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(cli, &telemetry));
    // A file operation still running on a blocking thread past the drain's grace (a long
    // search) must not hold the exit: its caller was answered or ended already.
    runtime.shutdown_timeout(Duration::from_millis(500));
    // The last spans and metrics, sent before the process exits.
    if let Err(e) = telemetry.shutdown() {
        let _ = writeln!(std::io::stderr(), "mcp-workspace: {e}");
    }
    code
}

async fn run(cli: Cli, telemetry: &Telemetry) -> ExitCode {
    // Colour only for a person at a terminal, never into a client's log file. A closed or
    // full stderr must not take the server down: by default a failed log write is reported
    // with `eprintln!`, which panics when stderr itself is the problem.
    let ansi = std::io::stderr().is_terminal();
    let log = match cli.log_format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(ansi)
            .log_internal_errors(false)
            .boxed(),
        // A JSON line carries the spans it was written in, the request's with its trace id.
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .with_span_list(true)
            .with_writer(std::io::stderr)
            .log_internal_errors(false)
            .boxed(),
    };
    // The log's level (RUST_LOG) filters the log alone: the spans exported keep every call.
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    // OpenTelemetry spans for an exporter, or for the trace ids of JSON lines; none
    // otherwise, as they cost a little on every call.
    let spans = (cli.otlp.is_some() || cli.log_format == LogFormat::Json)
        .then(|| telemetry.layer().with_filter(LevelFilter::INFO));
    tracing_subscriber::registry()
        .with(log.with_filter(filter))
        .with(spans)
        .init();
    let workspace = match Workspace::open(&cli.root) {
        Ok(w) => w,
        Err(e) => {
            eprintln!(
                "mcp-workspace: cannot open the workspace root `{}`: {e}",
                cli.root.display()
            );
            return ExitCode::FAILURE;
        }
    };
    let mut server = mcp_workspace::server(workspace, cli.read_only)
        .task_limits(TaskLimits {
            lease: Duration::from_secs(cli.task_lease),
            ..TaskLimits::default()
        })
        .telemetry(telemetry);
    if let Some(url) = &cli.state {
        match RedisStore::connect(url, mcp_workspace::contract::SPEC.name).await {
            Ok(store) => server = server.state(State::new(store)),
            Err(e) => {
                eprintln!("mcp-workspace: --state: {}", e.message);
                return ExitCode::FAILURE;
            }
        }
    }
    let served = match cli.http {
        Some(addr) => serve_http(server, addr, &cli, telemetry).await,
        None => {
            if std::io::stdin().is_terminal() {
                // A person started us by hand: say what this is; keep serving in case they
                // type JSON-RPC.
                eprint!(
                    "{}",
                    banner::render(&cli.root, server.tools(), &Transport::Stdio, cli.read_only)
                );
            }
            tracing::info!(root = %cli.root.display(), read_only = cli.read_only, "serving over stdio");
            let options =
                mcp_contract::stdio::Options::default().max_in_flight(cli.max_in_flight());
            server.serve_stdio_with(options).await
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-workspace: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_http(
    server: mcp_contract::Server<mcp_workspace::contract::Dispatcher<Workspace>>,
    addr: SocketAddr,
    cli: &Cli,
    telemetry: &Telemetry,
) -> std::io::Result<()> {
    if !addr.ip().is_loopback() && cli.auth_issuer.is_none() && !cli.unprotected {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "refusing to serve {addr} without authorization: anyone who can reach it could \
                 read and change the workspace. Pass --auth-issuer URL --resource URL, or \
                 --unprotected to serve it to everyone"
            ),
        ));
    }
    // Servers are cheap to clone (they share the handler); the banner reads this one's tools.
    let mut host = Host::groups(server.clone())
        .max_in_flight(cli.max_in_flight())
        .health()
        .grace_period(Duration::from_secs(cli.grace_period))
        .allowed_origins(cli.allowed_origins.clone());
    if let Some(issuer) = &cli.auth_issuer {
        let mut authorization = Authorization::new().issuer(issuer);
        if let Some(resource) = &cli.resource {
            authorization = authorization.resource(resource);
        }
        if let Some(jwks) = &cli.auth_jwks {
            authorization = authorization.jwks(jwks);
        }
        host = host.authorization(authorization);
    }
    if let Some(requests) = cli.rate_limit {
        host = host.rate_limit(RateLimit::new(requests, Duration::from_secs(60)));
    }
    if cli.metrics {
        host = host.metrics(telemetry);
    }
    let sessions = cli.sessions;
    if sessions > 0 {
        host = host.sessions(SessionLimits {
            max: sessions,
            ..SessionLimits::default()
        });
    }
    if !cli.allowed_hosts.is_empty() {
        let loopback = ["localhost", "127.0.0.1", "::1"].map(String::from);
        host = host.allowed_hosts(loopback.into_iter().chain(cli.allowed_hosts.clone()));
    } else if !addr.ip().is_loopback() {
        tracing::warn!(
            %addr,
            "only loopback Host names are accepted; pass --allowed-host NAME for the names clients use"
        );
    }
    let bound = host.bind(addr).await?;
    let address = bound.local_addr()?;
    if std::io::stderr().is_terminal() {
        let transport = Transport::Http(address, bound.routes().to_vec());
        eprint!(
            "{}",
            banner::render(&cli.root, server.tools(), &transport, cli.read_only)
        );
    }
    tracing::info!(
        root = %cli.root.display(),
        read_only = cli.read_only,
        authorization = cli.auth_issuer.as_deref().unwrap_or("none"),
        sessions,
        grace_period_s = cli.grace_period,
        "serving over HTTP"
    );
    // Listening for SIGTERM before saying it listens: a supervisor may stop it at once.
    let stop = mcp_contract::http::stop_signal();
    // Tests and scripts that bind port 0 read the address from this line. Written without
    // `eprintln!`, which panics when stderr cannot be written (a full disk, a closed pipe).
    let _ = writeln!(
        std::io::stderr(),
        "mcp-workspace: listening on http://{address} (routes {}; health {} {}; store {})",
        bound.routes().join(" "),
        mcp_contract::http::HEALTH_PATH,
        mcp_contract::http::READY_PATH,
        store_label(cli),
    );
    bound.serve_until(stop).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(args: &[&str]) -> String {
        store_label(&Cli::parse_from([&["mcp-workspace"], args].concat()))
    }

    #[test]
    fn the_start_line_names_the_store_without_its_credentials() {
        assert_eq!(label(&[]), "memory");
        assert_eq!(
            label(&["--state", "redis://127.0.0.1:6379/2"]),
            "redis://127.0.0.1:6379/2"
        );
        assert_eq!(
            label(&["--state", "redis://app:s3cret@cache.internal:6379"]),
            "redis://cache.internal:6379"
        );
        assert_eq!(label(&["--state", "redis://:p@ss@h:1"]), "redis://h:1");
    }
}
