//! A server on a byte stream, as `serve_stdio` serves stdin and stdout, spoken to in raw
//! JSON-RPC lines: every line that is not a message is answered, malformed params are
//! invalid params, and the requests in flight are bounded.

mod support;

use std::time::Duration;

use mcp_contract::stdio;
use mcp_contract::testing::{
    Lines, Revision, check_wire, request_meta, serve_lines, serve_lines_with,
};
use serde_json::{Value, json};
use support::{Gate, NOT_MESSAGES, assert_error, bad_params, flat};

/// Opens a conversation of `revision` on `lines`.
async fn open(lines: &mut Lines, revision: Revision) {
    if revision.has_initialize() {
        lines.initialize().await;
    } else {
        lines.discover().await;
    }
}

/// `params` as a client of `revision` sends them: with the request `_meta` on 2026-07-28.
fn params(revision: Revision, mut params: Value) -> Value {
    if !revision.has_initialize() {
        params["_meta"] = request_meta();
    }
    params
}

#[tokio::test]
async fn every_line_that_is_not_a_message_is_answered() {
    for revision in Revision::ALL {
        let mut lines = serve_lines(flat());
        open(&mut lines, revision).await;
        for case in NOT_MESSAGES {
            lines.send(case.input).await;
            let what = format!("{revision}: {}", case.what);
            let answer = lines.answer().await;
            assert_error(&answer, case.code, case.id, &what);
            check_wire(revision, "JSONRPCErrorResponse", &answer)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        }
        // The stream is still served.
        lines
            .request(99, "tools/list", params(revision, json!({})))
            .await;
        let listed = lines.answer().await;
        assert_eq!(listed["id"], 99, "{listed}");
        assert!(listed["result"]["tools"].is_array(), "{listed}");
    }
}

/// A client that writes its last line and closes the stream still gets its answer, whether
/// the line was a message or not, and with or without its newline.
#[tokio::test]
async fn the_last_line_is_answered_when_the_stream_ends() {
    for (last, refused) in [
        (&b"hello\n"[..], Some((-32700, None))),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/li"#,
            Some((-32700, Some(5))),
        ),
        (br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, None),
    ] {
        let mut lines = serve_lines(flat());
        open(&mut lines, Revision::V2025_11_25).await;
        lines.write_raw(last).await;
        lines.close().await;
        let what = String::from_utf8_lossy(last).into_owned();
        let answer = lines.answer().await;
        match refused {
            Some((code, id)) => drop(assert_error(&answer, code, id, &what)),
            None => assert!(answer["result"]["tools"].is_array(), "{what}: {answer}"),
        }
        assert_eq!(lines.next().await, None, "{what}: the server is done");
    }
}

#[tokio::test]
async fn malformed_params_are_invalid_params_naming_what_is_wrong() {
    for revision in Revision::ALL {
        let mut lines = serve_lines(flat());
        open(&mut lines, revision).await;
        for (id, (method, bad, named)) in (1..).zip(bad_params()) {
            let what = format!("{revision}: {method} {bad}");
            lines.request(id, method, params(revision, bad)).await;
            let answer = lines.answer().await;
            let message = assert_error(&answer, -32602, Some(id as i64), &what);
            assert!(message.contains(&format!("`{named}`")), "{what}: {message}");
        }
        // A method the revision removed is unknown, whatever its params.
        if !revision.has_initialize() {
            lines
                .request(40, "initialize", params(revision, json!({})))
                .await;
            assert_error(&lines.answer().await, -32601, Some(40), "2026 initialize");
        }
        // `arguments: null` is no arguments.
        lines
            .request(
                50,
                "tools/call",
                params(revision, json!({"name": "find", "arguments": null})),
            )
            .await;
        let answer = lines.answer().await;
        assert_eq!(
            answer["result"]["structuredContent"],
            json!({"tool": "find", "arguments": {}}),
            "{revision}: {answer}"
        );
    }
}

/// With the clock paused, a sleep ends only once every task is idle: the server has done all
/// it will do before the test acts again.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(1)).await;
}

/// The requests in flight the tests below allow.
const LIMIT: usize = 4;

/// A 2025-11-25 conversation with a server of `gate` that handles [`LIMIT`] requests at once.
async fn gated(gate: &Gate) -> Lines {
    let options = stdio::Options::default().max_in_flight(LIMIT);
    let mut lines = serve_lines_with(gate.server(), options);
    open(&mut lines, Revision::V2025_11_25).await;
    lines
}

async fn call(lines: &mut Lines, id: u64) {
    let call = json!({"name": "find", "arguments": {}});
    lines.request(id, "tools/call", call).await;
}

#[tokio::test(start_paused = true)]
async fn the_requests_in_flight_are_bounded_and_the_rest_wait_unread() {
    let gate = Gate::new();
    let mut lines = gated(&gate).await;
    let sent = LIMIT + 6;
    for id in 1..=sent as u64 {
        call(&mut lines, id).await;
    }
    settle().await;
    assert_eq!(gate.entered(), LIMIT, "only the limit reaches the handler");

    gate.release.add_permits(sent);
    let mut answered: Vec<u64> = Vec::new();
    for _ in 0..sent {
        let answer = lines.answer().await;
        assert_eq!(answer["result"]["structuredContent"]["released"], true);
        answered.push(answer["id"].as_u64().expect("an id"));
    }
    answered.sort_unstable();
    assert_eq!(answered, (1..=sent as u64).collect::<Vec<_>>());
    assert_eq!(gate.entered(), sent);
}

/// A cancelled request is not answered, but its handler still runs: it keeps its place until
/// the handler ends, so cancelling cannot let more work in than the limit.
#[tokio::test(start_paused = true)]
async fn a_cancelled_request_keeps_its_place_until_its_handler_ends() {
    let gate = Gate::new();
    let mut lines = gated(&gate).await;
    let last = LIMIT as u64;
    for id in 1..last {
        call(&mut lines, id).await;
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": id}});
        lines.send(&cancel.to_string()).await;
    }
    // The last place; nothing more is read, not even a notification, until one is free.
    call(&mut lines, last).await;
    call(&mut lines, 100).await;
    settle().await;
    assert_eq!(gate.entered(), LIMIT, "the cancelled handlers still run");

    gate.release.add_permits(LIMIT + 1);
    let mut answered = vec![
        lines.answer().await["id"].clone(),
        lines.answer().await["id"].clone(),
    ];
    answered.sort_by_key(|id| id.as_u64());
    assert_eq!(answered, [json!(last), json!(100)]);
    assert_eq!(
        lines.next().await,
        None,
        "the cancelled requests are not answered"
    );
    assert_eq!(gate.entered(), LIMIT + 1);
}

/// Requests sharing an id are each handled, answered once (by rmcp), and each frees its place.
#[tokio::test(start_paused = true)]
async fn requests_sharing_an_id_free_their_places() {
    let gate = Gate::new();
    let mut lines = gated(&gate).await;
    for _ in 0..LIMIT {
        call(&mut lines, 7).await;
    }
    settle().await;
    gate.release.add_permits(LIMIT);
    assert_eq!(lines.answer().await["id"], 7);
    settle().await;
    assert_eq!(gate.entered(), LIMIT);

    for id in 1..=LIMIT as u64 {
        call(&mut lines, id).await;
    }
    settle().await;
    assert_eq!(gate.entered(), 2 * LIMIT, "every place was freed");
    gate.release.add_permits(LIMIT);
    for _ in 0..LIMIT {
        assert!(lines.answer().await["result"].is_object());
    }
}

/// A line longer than the limit is not read, and is answered by the id it starts with.
#[tokio::test]
async fn a_line_too_long_is_refused_by_its_id() {
    let options = stdio::Options::default().max_line_bytes(1024);
    let mut lines = serve_lines_with(flat(), options);
    open(&mut lines, Revision::V2025_11_25).await;
    let long = json!({"name": "find", "arguments": {"query": "x".repeat(2000)}});
    lines.request(5, "tools/call", long).await;
    let answer = lines.answer().await;
    let message = assert_error(&answer, -32600, Some(5), "too long");
    assert!(message.contains("1024 bytes"), "{message}");
    lines.request(6, "tools/list", json!({})).await;
    assert_eq!(lines.answer().await["id"], 6, "still serving");
}
