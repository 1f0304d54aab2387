//! The reference server's published contract: the generated contract test, and a snapshot of
//! the exact `tools/list` wire JSON so every contract change shows up as a reviewable diff.

use mcp_contract::testing::{Revision, connect};
use mcp_workspace::{Workspace, contract};

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let workspace = Workspace::open(dir.path()).expect("the workspace opens");
    (dir, workspace)
}

#[test]
fn the_reference_server_keeps_its_contract() {
    let (_dir, workspace) = workspace();
    mcp_contract::testing::assert_contract(contract::server(workspace), contract::FIXTURES);
}

#[tokio::test]
async fn tools_list_wire_json_matches_the_snapshot() {
    for revision in Revision::ALL {
        let (_dir, workspace) = workspace();
        let client = connect(contract::server(workspace), revision)
            .await
            .expect("connected");
        let listed = client.list_tools(None).await.expect("tools/list");
        let wire = serde_json::to_value(&listed).expect("serializable");
        insta::assert_json_snapshot!(format!("tools_list_{}", revision.as_str()), wire);
        client.cancel().await.expect("closed");
    }
}
