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

/// The limits the manifest's descriptions and the review notes state as numbers, for a model
/// or a reviewer to read, are the constants the workspace enforces: the places of one fact held
/// together. (The limits a tool's parameters declare have one place, the manifest: the
/// workspace takes them from the generated argument structs.)
#[test]
fn the_limits_stated_in_prose_are_the_ones_enforced() {
    use mcp_workspace::workspace::{
        DEFAULT_TREE_DEPTH, MAX_DIFF_BYTES, MAX_LINE_CHARS, MAX_LIST_ENTRIES, MAX_READ_BYTES,
        MAX_READ_FILES_BYTES, MAX_SEARCH_BYTES, MAX_TREE_ENTRIES, MAX_VISITED_ENTRIES,
    };
    let mib = |bytes: u64| bytes >> 20;
    let manifest = [
        format!("at {MAX_LIST_ENTRIES} entries, or after looking at {MAX_VISITED_ENTRIES} entries"),
        format!("at {MAX_TREE_ENTRIES} entries, or after looking at {MAX_VISITED_ENTRIES} entries"),
        format!("At most {MAX_TREE_ENTRIES} entries are returned"),
        format!("it looked at {MAX_VISITED_ENTRIES} entries"),
        format!(
            "after looking at {MAX_VISITED_ENTRIES} entries, or at {MAX_SEARCH_BYTES} bytes ({} \
             MiB) of files read",
            mib(MAX_SEARCH_BYTES)
        ),
        format!("cut to {MAX_LINE_CHARS} characters"),
        format!(
            "at most {MAX_READ_FILES_BYTES} bytes ({} MiB)",
            mib(MAX_READ_FILES_BYTES)
        ),
        format!("the contents returned, at most {MAX_READ_FILES_BYTES}."),
        format!("within {} KiB", MAX_DIFF_BYTES >> 10),
        format!("{DEFAULT_TREE_DEPTH} levels deep"),
    ];
    let read_tools = [
        format!(
            "{MAX_READ_BYTES} bytes ({} MiB) for a whole file",
            mib(MAX_READ_BYTES)
        ),
        format!(
            "{} MiB of content in all; {} MiB per file",
            mib(MAX_READ_FILES_BYTES),
            mib(MAX_READ_BYTES)
        ),
        format!("A file over {} MiB gets `too_large`", mib(MAX_READ_BYTES)),
        format!("{MAX_LIST_ENTRIES} entries returned; {MAX_VISITED_ENTRIES} entries looked at"),
        format!(
            "{MAX_SEARCH_BYTES} bytes ({} MiB) of files read; {MAX_LINE_CHARS} characters per line",
            mib(MAX_SEARCH_BYTES)
        ),
        format!("{MAX_TREE_ENTRIES} entries returned; {MAX_VISITED_ENTRIES} looked at"),
        format!("{MAX_TREE_ENTRIES} tree entries at default depth {DEFAULT_TREE_DEPTH}"),
        format!("{MAX_VISITED_ENTRIES} entries looked at bounds"),
        format!("{} MiB bounds a search", mib(MAX_SEARCH_BYTES)),
    ];
    let write_tools = [format!("most {} KiB of diff text", MAX_DIFF_BYTES >> 10)];
    let mut missing = Vec::new();
    for (path, text, stated) in [
        ("tools.yaml", include_str!("../tools.yaml"), &manifest[..]),
        (
            "docs/read-tools.md",
            include_str!("../docs/read-tools.md"),
            &read_tools[..],
        ),
        (
            "docs/write-tools.md",
            include_str!("../docs/write-tools.md"),
            &write_tools[..],
        ),
    ] {
        // Prose is reflowed at will: compare with every run of whitespace as one space.
        let prose = text.split_whitespace().collect::<Vec<_>>().join(" ");
        missing.extend(
            stated
                .iter()
                .filter(|s| !prose.contains(s.as_str()))
                .map(|s| format!("{path}: {s}")),
        );
    }
    assert!(missing.is_empty(), "no longer stated: {missing:#?}");
}
