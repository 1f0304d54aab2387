//! The call profile's driver (written into the generated workspace by `workspace-bench`'s
//! `callgrind` binary, next to `servers.rs`, which it generates): one rmcp client over an
//! in-process duplex pipe to one server, every tool called once (so each has compiled its
//! checks) and the list asked once, then `calls` calls of one kind inside [`measured`], the only function callgrind
//! counts (`--toggle-collect`). Client, transport and server all run on this one thread.
//!
//! `callgrind-driver STYLE TOOLS KIND CALLS` (STYLE `contract` or `hand`, KIND `valid`, `invalid`
//! or `list`, the whole `tools/list`)

mod servers;

use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(o) => o,
        _ => unreachable!(),
    }
}

/// Valid arguments, varied by `i` (as the cost benchmark's).
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

/// A missing and an unknown argument (the cost benchmark's invalid call).
fn invalid(i: usize) -> JsonObject {
    let mut a = valid(i);
    a.remove("path");
    a.insert("extra".into(), json!(1));
    a
}

async fn call(client: &Client, tools: usize, r: usize, valid_call: bool) {
    let tool = format!("tool_{}", r * 7919 % tools);
    let arguments = if valid_call { valid(r) } else { invalid(r) };
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
        .await
        .expect("an answer");
    assert_eq!(result.is_error == Some(true), !valid_call, "{result:?}");
    std::hint::black_box(result);
}

/// What is measured: a valid call, an invalid one, or the whole `tools/list`.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Valid,
    Invalid,
    List,
}

async fn list(client: &Client, tools: usize) {
    let listed = client.list_all_tools().await.expect("tools/list");
    assert_eq!(listed.len(), tools);
    std::hint::black_box(listed);
}

/// The calls callgrind counts.
#[inline(never)]
fn measured(rt: &tokio::runtime::Runtime, client: &Client, tools: usize, calls: usize, kind: Kind) {
    rt.block_on(async {
        for r in 0..calls {
            match kind {
                Kind::List => list(client, tools).await,
                _ => call(client, tools, r, kind == Kind::Valid).await,
            }
        }
    });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [style, tools, kind, calls] = args.as_slice() else {
        panic!("callgrind-driver STYLE TOOLS KIND CALLS");
    };
    let style = ["contract", "hand"].iter().position(|s| s == style).expect("contract or hand");
    let tools: usize = tools.parse().expect("TOOLS");
    let calls: usize = calls.parse().expect("CALLS");
    let kind = match kind.as_str() {
        "valid" => Kind::Valid,
        "invalid" => Kind::Invalid,
        "list" => Kind::List,
        other => panic!("KIND is valid, invalid or list, not {other}"),
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let client = rt.block_on(async {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        servers::spawn(style, tools, server_io);
        let client = ().serve(client_io).await.expect("the server answers initialize");
        for i in 0..tools.max(20) {
            call(&client, tools, i, true).await;
            call(&client, tools, i, false).await;
        }
        list(&client, tools).await;
        client
    });
    measured(&rt, &client, tools, calls, kind);
    rt.block_on(async {
        let _ = client.cancel().await;
    });
}
