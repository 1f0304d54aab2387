//! The cost benchmark's driver (written into the generated workspace by `workspace-bench`'s
//! `cost` binary, next to `servers.rs`, which it generates): for each size, one rmcp client per
//! style over an in-process duplex pipe; checks that every style answers alike (and that the
//! hand-written list is the contract's JSON), times every tool's first valid call, then times
//! `tools/list`, a valid `tools/call` and an invalid one in interleaved rounds.
//!
//! `driver [--rounds R] [--sizes 10,100,1000]`

mod servers;

use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, JsonObject, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

const STYLES: [&str; 3] = ["macros", "contract", "hand"];

type Client = RunningService<RoleClient, ()>;

async fn connect(style: usize, tools: usize) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    servers::spawn(style, tools, server_io);
    ().serve(client_io).await.expect("the server answers initialize")
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(o) => o,
        _ => unreachable!(),
    }
}

/// Valid arguments, varied by `i`.
fn valid(i: usize) -> JsonObject {
    let mut a = json!({
        "path": format!("src/{i}.rs"),
        "query": "todo",
        "limit": 1 + i % 100,
        "mode": if i % 2 == 0 { "fast" } else { "slow" },
    });
    if i % 3 != 0 {
        a["recursive"] = json!(i % 3 == 1);
    }
    object(a)
}

/// Invalid arguments, each refused for one reason or two.
fn invalid() -> Vec<(&'static str, JsonObject)> {
    let with = |key: &str, value: Value| {
        let mut a = valid(1);
        a.insert(key.into(), value);
        a
    };
    let mut missing_and_unknown = valid(1);
    missing_and_unknown.remove("path");
    missing_and_unknown.insert("extra".into(), json!(1));
    vec![
        ("a missing and an unknown argument", missing_and_unknown),
        ("limit 0", with("limit", json!(0))),
        ("limit 101", with("limit", json!(101))),
        ("limit a string", with("limit", json!("5"))),
        ("mode not in the enum", with("mode", json!("medium"))),
        ("an empty path", with("path", json!(""))),
        ("recursive a string", with("recursive", json!("yes"))),
        ("no arguments", JsonObject::new()),
    ]
}

/// The missing-and-unknown arguments the invalid-call latency row sends.
fn invalid_call() -> JsonObject {
    invalid().swap_remove(0).1
}

/// What a call comes to: the structured answer, or refused.
async fn outcome(client: &Client, tool: &str, arguments: JsonObject) -> Option<Value> {
    match client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
        .await
    {
        Ok(result) if result.is_error != Some(true) => Some(result.structured_content.unwrap_or(Value::Null)),
        _ => None,
    }
}

/// What `tools/list` says of a tool, in a form all styles share: the schemas differ in form
/// (schemars puts `$schema`, `$defs` and `format` in), not in their properties and required set.
fn shape(tool: &Tool) -> Value {
    let keys = |schema: &JsonObject, key: &str| -> Vec<String> {
        let mut names: Vec<String> = match schema.get(key) {
            Some(Value::Object(o)) => o.keys().cloned().collect(),
            Some(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
        names.sort();
        names
    };
    let annotations = tool.annotations.as_ref().map(|a| {
        json!([a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint])
    });
    json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "properties": keys(&tool.input_schema, "properties"),
        "required": keys(&tool.input_schema, "required"),
        "output": tool.output_schema.as_ref().map(|s| keys(s, "properties")),
        "annotations": annotations,
    })
}

/// Checks that every style answers alike; returns how many calls were compared.
async fn check(clients: &[Client], tools: usize) -> usize {
    let mut lists = Vec::new();
    for c in clients {
        let mut list: Vec<Value> = c.list_all_tools().await.expect("tools/list").iter().map(shape).collect();
        list.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        assert_eq!(list.len(), tools);
        lists.push(list);
    }
    for (s, list) in lists.iter().enumerate().skip(1) {
        for (theirs, ours) in lists[0].iter().zip(list) {
            assert_eq!(theirs, ours, "tools/list: {} and {} differ", STYLES[0], STYLES[s]);
        }
    }
    // The hand-written list is the contract's precomputed: the same JSON, tool for tool, so
    // that timing the two `tools/list` compares like for like.
    let whole = |c: &'static str, tools: Vec<Tool>| -> Vec<Value> {
        tools.iter().map(|t| serde_json::to_value(t).unwrap_or_else(|e| panic!("{c}: {e}"))).collect()
    };
    let contract = whole("contract", clients[1].list_all_tools().await.expect("tools/list"));
    let hand = whole("hand", clients[2].list_all_tools().await.expect("tools/list"));
    for (c, h) in contract.iter().zip(&hand) {
        assert_eq!(c, h, "tools/list: the contract's and the hand-written tool differ");
    }
    let mut compared = 0;
    let probes = [0, tools / 2, tools - 1];
    for &i in &probes {
        let tool = format!("tool_{i}");
        let mut inputs: Vec<(String, JsonObject, bool)> =
            (0..6).map(|k| (format!("valid {k}"), valid(i + k), true)).collect();
        inputs.extend(invalid().into_iter().map(|(what, a)| (what.to_string(), a, false)));
        for (what, arguments, ok) in inputs {
            let mut answers = Vec::new();
            for c in clients {
                answers.push(outcome(c, &tool, arguments.clone()).await);
            }
            assert_eq!(answers[0].is_some(), ok, "{tool} {what}: macros answered {:?}", answers[0]);
            for (s, a) in answers.iter().enumerate().skip(1) {
                assert_eq!(&answers[0], a, "{tool} {what}: {} and {} differ", STYLES[0], STYLES[s]);
            }
            compared += 1;
        }
    }
    for c in clients {
        assert!(outcome(c, "no_such_tool", valid(0)).await.is_none(), "an unknown tool is refused");
    }
    compared + 1
}

fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let i = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[i].as_secs_f64() * 1e6
}

/// Interleaved rounds of `op` over every style (who goes first rotates); medians and p90s in µs.
async fn rounds<F>(clients: &[Client], rounds: usize, op: F) -> Vec<(f64, f64)>
where
    F: AsyncFn(&Client, usize),
{
    rounds_over(clients, rounds.min(20), rounds, op).await
}

/// [`rounds`] after `warm` untimed ones.
async fn rounds_over<F>(clients: &[Client], warm: usize, rounds: usize, op: F) -> Vec<(f64, f64)>
where
    F: AsyncFn(&Client, usize),
{
    for r in 0..warm {
        for c in clients {
            op(c, r).await;
        }
    }
    let mut samples = vec![Vec::with_capacity(rounds); clients.len()];
    for r in 0..rounds {
        for k in 0..clients.len() {
            let s = (r + k) % clients.len();
            let start = Instant::now();
            op(&clients[s], r).await;
            samples[s].push(start.elapsed());
        }
    }
    samples.iter_mut().map(|s| (percentile(s, 0.5), percentile(s, 0.9))).collect()
}

fn row(figure: &str, tools: usize, rounds: usize, figures: &[(f64, f64)]) {
    let cell = |(m, p): (f64, f64)| format!("{m:.1} / {p:.1}");
    println!(
        "| {figure} | {tools} | {rounds} | {} | {} | {} | {:.2}x | {:.2}x |",
        cell(figures[0]),
        cell(figures[1]),
        cell(figures[2]),
        figures[1].0 / figures[0].0,
        figures[1].0 / figures[2].0
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut rounds_wanted = 300usize;
    let mut sizes: Vec<usize> = servers::SIZES.to_vec();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds_wanted = args.next().and_then(|v| v.parse().ok()).expect("--rounds N"),
            "--sizes" => {
                sizes = args.next().expect("--sizes A,B").split(',').map(|v| v.parse().expect("a size")).collect()
            }
            other => panic!("unknown option {other}"),
        }
    }
    println!("| figure | tools | rounds | macros median / p90 (µs) | contract | hand-written | contract / macros | contract / hand |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for tools in sizes {
        let mut clients = Vec::new();
        for s in 0..STYLES.len() {
            clients.push(connect(s, tools).await);
        }
        let compared = check(&clients, tools).await;
        eprintln!("{tools} tools: the three styles answer alike ({compared} calls and tools/list compared)");
        // Every tool's first call, interleaved as the rounds are (the contract compiles a
        // tool's checks on its first call); after it the timed calls are the steady state.
        let first = rounds_over(&clients, 0, tools, async |c: &Client, r| {
            let tool = format!("tool_{}", r * 7919 % tools);
            std::hint::black_box(outcome(c, &tool, valid(r)).await.expect("a valid call"));
        })
        .await;
        row("first valid tools/call of each tool", tools, tools, &first);
        let list_rounds = (rounds_wanted * 100 / tools).clamp(30, rounds_wanted);
        let list = rounds(&clients, list_rounds, async |c: &Client, _r| {
            std::hint::black_box(c.list_all_tools().await.expect("tools/list"));
        })
        .await;
        row("tools/list", tools, list_rounds, &list);
        let call = rounds(&clients, rounds_wanted, async |c: &Client, r| {
            let tool = format!("tool_{}", r * 7919 % tools);
            std::hint::black_box(outcome(c, &tool, valid(r)).await.expect("a valid call"));
        })
        .await;
        row("valid tools/call", tools, rounds_wanted, &call);
        let bad = rounds(&clients, rounds_wanted, async |c: &Client, r| {
            let tool = format!("tool_{}", r * 7919 % tools);
            assert!(outcome(c, &tool, invalid_call()).await.is_none());
        })
        .await;
        row("invalid tools/call (missing + unknown)", tools, rounds_wanted, &bad);
        for c in clients {
            let _ = c.cancel().await;
        }
    }
}
