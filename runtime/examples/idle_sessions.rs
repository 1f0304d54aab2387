//! Memory per idle 2025-11-25 session: opens N sessions (`initialize`, then
//! `notifications/initialized`, over loopback HTTP) against a host in this process, lets their
//! workers idle out, and reads the process's resident set (`/proc/self/statm`) before and
//! after. Linux only.
//!
//! ```sh
//! cargo run --release -p mcp-contract --features http-testing --example idle_sessions -- 10000
//! ```

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use mcp_contract::Server;
use mcp_contract::codegen::{
    BoxFuture, CallToolResult, ContractSpec, Dispatch, JsonObject, Published, ToolSpec,
};
use mcp_contract::http::{Host, SessionLimits};
use mcp_contract::testing::serve_on_loopback;
use serde_json::json;

static SPEC: ContractSpec = ContractSpec {
    name: "idle",
    version: "0.1.0",
    tools: &[ToolSpec::open(
        r#"{"name":"hello","description":"Says hello.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    )],
    ..ContractSpec::EMPTY
};
static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

struct Hello;

impl Dispatch for Hello {
    fn published(&self) -> &'static Published {
        &PUBLISHED
    }

    fn call(
        &self,
        _: usize,
        _: JsonObject,
        _: mcp_contract::Context,
    ) -> BoxFuture<'_, CallToolResult> {
        Box::pin(async { CallToolResult::structured(json!({"hello": true})) })
    }
}

/// The process's resident set, in KiB.
fn rss_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm (Linux)");
    let pages: u64 = (statm.split_whitespace().nth(1))
        .and_then(|p| p.parse().ok())
        .expect("the resident pages");
    pages * 4
}

/// Opens one session; its id.
async fn open(client: &reqwest::Client, url: &str) -> String {
    let post = |session: Option<&str>, body: serde_json::Value| {
        let mut request = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(body.to_string());
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.send()
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "idle", "version": "1"},
    }});
    let answer = post(None, initialize).await.expect("initialize");
    assert_eq!(answer.status(), 200, "initialize");
    let session = (answer.headers().get("mcp-session-id"))
        .and_then(|v| v.to_str().ok())
        .expect("a session")
        .to_owned();
    let _ = answer.bytes().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let answer = post(Some(&session), initialized)
        .await
        .expect("initialized");
    assert_eq!(answer.status(), 202, "initialized");
    session
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(1_000, |n| n.parse().expect("N, a number of sessions"));
    let worker_idle = Duration::from_secs(1);
    let limits = SessionLimits {
        max: n + 100,
        worker_idle,
        ..SessionLimits::default()
    };
    let host = Host::new()
        .mount("/mcp", Server::new(Hello))
        .max_in_flight(256)
        .sessions(limits);
    let addr = serve_on_loopback(host).await;
    let url = format!("http://{addr}/mcp");
    let client = reqwest::Client::new();
    // Warm up the allocator, the client's connections and the host's lazy parts.
    for _ in 0..50 {
        open(&client, &url).await;
    }
    tokio::time::sleep(worker_idle * 3).await;
    let before = rss_kib();
    let started = Instant::now();
    let opened: Vec<String> = futures::stream::iter(0..n)
        .map(|_| open(&client, &url))
        .buffer_unordered(32)
        .collect()
        .await;
    let took = started.elapsed();
    let open_kib = rss_kib();
    // The workers close once idle: what is left is what an idle session costs.
    tokio::time::sleep(worker_idle * 3).await;
    let idle_kib = rss_kib();
    let per = |kib: u64| kib.saturating_sub(before) as f64 / opened.len() as f64;
    println!(
        "{} sessions opened in {:.1} s; RSS {before} KiB before, {open_kib} KiB just after \
         ({:.1} KiB per session), {idle_kib} KiB once idle ({:.1} KiB per idle session)",
        opened.len(),
        took.as_secs_f64(),
        per(open_kib),
        per(idle_kib),
    );
}
