//! `Server::restrict` and `Server::group`: a view serves only its tools, in process and
//! through an rmcp client on both revisions.

mod support;

use mcp_contract::rmcp::ServerHandler as _;
use mcp_contract::rmcp::ServiceError;
use mcp_contract::rmcp::model::{CallToolRequestParams, Tool};
use mcp_contract::testing::{Revision, connect};
use serde_json::json;
use support::{ALL, READ, WRITE, args, assert_unknown_tool, flat, grouped, names};

fn read_only(tool: &Tool) -> bool {
    tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
}

#[test]
fn a_new_server_serves_every_tool() {
    assert_eq!(names(grouped().tools()), ALL);
}

#[test]
fn restrict_keeps_manifest_order() {
    // Asked for in the reverse order, listed in the manifest's.
    let view = grouped().restrict(|t| ["drop", "get"].contains(&t.name.as_ref()));
    assert_eq!(names(view.tools()), ["get", "drop"]);
}

#[tokio::test]
async fn restrict_lists_only_the_kept_tools_on_both_revisions() {
    let view = grouped().restrict(read_only);
    for revision in Revision::ALL {
        let client = connect(view.clone(), revision).await.expect("connects");
        let listed = client.list_all_tools().await.expect("tools/list");
        assert_eq!(names(&listed), READ, "{}", revision.as_str());
        let _ = client.cancel().await;
    }
}

#[tokio::test]
async fn a_tool_outside_the_view_is_an_unknown_tool() {
    let view = grouped().restrict(read_only);
    for name in WRITE {
        let error = view
            .call(name, Some(args(json!({"id": "a", "value": "b"}))))
            .await
            .expect_err("outside the view");
        assert_unknown_tool(&error, name);
        assert_eq!(view.get_tool(name), None);
    }
    // The same error as a tool that does not exist at all.
    let missing = view.call("nope", None).await.expect_err("no such tool");
    assert_unknown_tool(&missing, "nope");

    for revision in Revision::ALL {
        let client = connect(view.clone(), revision).await.expect("connects");
        let error = client
            .call_tool(CallToolRequestParams::new("drop"))
            .await
            .expect_err("outside the view");
        match error {
            ServiceError::McpError(e) => assert_unknown_tool(&e, "drop"),
            other => panic!("{}: expected -32602, got {other:?}", revision.as_str()),
        }
        let _ = client.cancel().await;
    }
}

#[tokio::test]
async fn a_tool_inside_the_view_works_as_in_the_whole_server() {
    let whole = grouped();
    let view = whole.restrict(read_only);
    let arguments = json!({"id": "a-1"});
    let through_view = view
        .call("get", Some(args(arguments.clone())))
        .await
        .expect("served");
    let through_whole = whole
        .call("get", Some(args(arguments.clone())))
        .await
        .expect("served");
    assert_eq!(through_view, through_whole);
    assert_eq!(
        through_view.structured_content,
        Some(json!({"tool": "get", "arguments": arguments}))
    );
    assert!(view.get_tool("get").is_some());
    // Arguments are still checked in a view.
    let refused = view
        .call("get", Some(args(json!({"id": 7}))))
        .await
        .expect("a tool error, not a protocol error");
    assert_eq!(refused.is_error, Some(true));
}

#[test]
fn restricting_a_view_narrows_it() {
    let view = grouped().restrict(read_only);
    assert_eq!(names(view.restrict(|_| true).tools()), READ);
    assert_eq!(names(view.restrict(|t| t.name != "get").tools()), ["find"]);
    // A tool the view hides cannot be brought back.
    assert!(view.restrict(|t| t.name == "put").tools().is_empty());
}

#[test]
fn groups_are_views() {
    let server = grouped();
    let read = server.group("read").expect("declared");
    let write = server.group("write").expect("declared");
    assert_eq!(names(read.tools()), READ);
    assert_eq!(names(write.tools()), WRITE);
    assert!(server.group("nope").is_none());
    assert!(flat().group("read").is_none());
    // A group of a view serves what both serve.
    let read_only_view = server.restrict(read_only);
    assert!(
        read_only_view
            .group("write")
            .expect("declared")
            .tools()
            .is_empty()
    );
}

#[tokio::test]
async fn a_group_refuses_the_other_groups_tools() {
    let read = grouped().group("read").expect("declared");
    let error = read.call("put", None).await.expect_err("in another group");
    assert_unknown_tool(&error, "put");
}
