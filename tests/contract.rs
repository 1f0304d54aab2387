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

/// The limits the manifest's descriptions state, written as numbers for the model to read,
/// are the constants the workspace enforces: the two places of one fact held together.
#[test]
fn the_limits_the_manifest_states_are_the_ones_enforced() {
    use mcp_workspace::workspace::{
        MAX_DIFF_BYTES, MAX_LIST_ENTRIES, MAX_READ_FILES_BYTES, MAX_SEARCH_BYTES, MAX_TREE_ENTRIES,
        MAX_VISITED_ENTRIES,
    };
    let manifest = include_str!("../tools.yaml");
    let stated = [
        format!("at {MAX_LIST_ENTRIES} entries, or after looking at {MAX_VISITED_ENTRIES}"),
        format!("at {MAX_TREE_ENTRIES} entries, or after looking at {MAX_VISITED_ENTRIES}"),
        format!(
            "at {MAX_SEARCH_BYTES} bytes ({} MiB) of files read",
            MAX_SEARCH_BYTES >> 20
        ),
        format!(
            "at most {MAX_READ_FILES_BYTES} bytes ({} MiB)",
            MAX_READ_FILES_BYTES >> 20
        ),
        format!("within {} KiB", MAX_DIFF_BYTES >> 10),
    ];
    let missing: Vec<&String> = stated.iter().filter(|s| !manifest.contains(*s)).collect();
    assert!(
        missing.is_empty(),
        "tools.yaml no longer states: {missing:?}"
    );
}
