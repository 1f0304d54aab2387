//! `delete_path` with `recursive: true` asks the user to confirm when the client can elicit,
//! on both revisions over stdio: accepted, it deletes; declined or cancelled, nothing is
//! deleted (`not_confirmed`); a client that cannot elicit is not asked and deletes as before.
//! The same over the binary's HTTP routes is in `confirm_http.rs`.

mod support;

use mcp_contract::testing::{Lines, serve_lines};
use mcp_workspace::{Workspace, contract};
use serde_json::{Value, json};
use support::Fixture;

fn fixture() -> Fixture {
    Fixture::with(&[("notes/a.md", b"a\n"), ("notes/deep/b.md", b"b\n")])
}

fn serve(fixture: &Fixture) -> Lines {
    let workspace = Workspace::open(&fixture.root).expect("the workspace opens");
    serve_lines(contract::server(workspace))
}

fn recursive() -> Value {
    json!({"path": "notes", "recursive": true})
}

/// The error code of a tool result, or `None` when it succeeded.
fn error_code(result: &Value) -> Option<String> {
    if result["isError"] != true {
        return None;
    }
    let text = result["content"][0]["text"].as_str()?;
    let envelope: Value = serde_json::from_str(text).ok()?;
    envelope["errors"][0]["code"].as_str().map(str::to_owned)
}

/// One 2026-07-28 `tools/call` as a client declaring `capabilities`; its `result`.
async fn call_modern(lines: &mut Lines, id: u64, capabilities: Value, extra: Value) -> Value {
    let mut params = json!({
        "name": "delete_path",
        "arguments": recursive(),
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
    });
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        params[k] = v;
    }
    lines.request(id, "tools/call", params).await;
    loop {
        let line = lines.answer().await;
        if line["id"] == id {
            return line["result"].clone();
        }
    }
}

/// Two rounds on 2026-07-28: the question, then `answer` to it; the final result.
async fn two_rounds(fixture: &Fixture, answer: Value) -> Value {
    let mut lines = serve(fixture);
    let asked = call_modern(&mut lines, 1, json!({"elicitation": {}}), json!({})).await;
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    let question = &asked["inputRequests"]["confirm_delete"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert_eq!(
        question["params"]["message"],
        "Delete `notes` and everything under it?"
    );
    assert_eq!(
        question["params"]["requestedSchema"]["properties"]["confirm"]["type"],
        "boolean"
    );
    assert!(
        fixture.root.join("notes/deep/b.md").exists(),
        "nothing is deleted before the answer"
    );
    let state = asked["requestState"].clone();
    let retry = json!({"inputResponses": {"confirm_delete": answer}, "requestState": state});
    call_modern(&mut lines, 2, json!({"elicitation": {}}), retry).await
}

#[tokio::test]
async fn on_2026_07_28_an_accepted_confirmation_deletes() {
    let fixture = fixture();
    let done = two_rounds(
        &fixture,
        json!({"action": "accept", "content": {"confirm": true}}),
    )
    .await;
    assert_eq!(error_code(&done), None, "{done}");
    assert_eq!(done["structuredContent"]["kind"], "directory", "{done}");
    assert!(!fixture.root.join("notes").exists());
}

#[tokio::test]
async fn on_2026_07_28_declined_cancelled_or_unticked_keeps_the_files() {
    for answer in [
        json!({"action": "decline"}),
        json!({"action": "cancel"}),
        json!({"action": "accept", "content": {"confirm": false}}),
    ] {
        let fixture = fixture();
        let done = two_rounds(&fixture, answer.clone()).await;
        assert_eq!(
            error_code(&done).as_deref(),
            Some("not_confirmed"),
            "{answer}: {done}"
        );
        assert!(fixture.root.join("notes/deep/b.md").exists(), "{answer}");
    }
}

#[tokio::test]
async fn on_2026_07_28_a_client_that_cannot_elicit_is_not_asked() {
    let fixture = fixture();
    let mut lines = serve(&fixture);
    let done = call_modern(&mut lines, 1, json!({}), json!({})).await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(error_code(&done), None, "{done}");
    assert!(!fixture.root.join("notes").exists());
}

/// A 2025-11-25 session declaring `capabilities`; the call, with `answer` given to the
/// elicitation request the server sends (when `answer` is `Some`), and its result.
async fn call_legacy(fixture: &Fixture, capabilities: Value, answer: Option<Value>) -> Value {
    let mut lines = serve(fixture);
    lines
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                   "clientInfo": {"name": "confirm", "version": "0"}}),
        )
        .await;
    lines.answer().await;
    lines
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    lines
        .request(
            1,
            "tools/call",
            json!({"name": "delete_path", "arguments": recursive()}),
        )
        .await;
    let mut asked = false;
    loop {
        let line = lines.answer().await;
        if line["method"] == "elicitation/create" {
            assert!(fixture.root.join("notes/deep/b.md").exists());
            assert_eq!(
                line["params"]["message"],
                "Delete `notes` and everything under it?"
            );
            let answer = answer.clone().expect("asked only a client that can elicit");
            let reply = json!({"jsonrpc": "2.0", "id": line["id"], "result": answer});
            lines.send(&reply.to_string()).await;
            asked = true;
        } else if line["id"] == 1 {
            assert_eq!(asked, answer.is_some(), "asked exactly when it can elicit");
            return line["result"].clone();
        }
    }
}

#[tokio::test]
async fn on_2025_11_25_an_accepted_confirmation_deletes() {
    let fixture = fixture();
    let done = call_legacy(
        &fixture,
        json!({"elicitation": {}}),
        Some(json!({"action": "accept", "content": {"confirm": true}})),
    )
    .await;
    assert_eq!(error_code(&done), None, "{done}");
    assert!(!fixture.root.join("notes").exists());
}

#[tokio::test]
async fn on_2025_11_25_declined_or_cancelled_keeps_the_files() {
    for answer in [json!({"action": "decline"}), json!({"action": "cancel"})] {
        let fixture = fixture();
        let done = call_legacy(&fixture, json!({"elicitation": {}}), Some(answer.clone())).await;
        assert_eq!(
            error_code(&done).as_deref(),
            Some("not_confirmed"),
            "{answer}: {done}"
        );
        assert!(fixture.root.join("notes/deep/b.md").exists(), "{answer}");
    }
}

#[tokio::test]
async fn on_2025_11_25_a_client_that_cannot_elicit_is_not_asked() {
    let fixture = fixture();
    let done = call_legacy(&fixture, json!({}), None).await;
    assert_eq!(error_code(&done), None, "{done}");
    assert!(!fixture.root.join("notes").exists());
}
