//! The reference server's resources and planning metadata, in process, on both revisions.

use mcp_contract::client::metadata;
use mcp_contract::rmcp::ServiceError;
use mcp_contract::rmcp::model::{ErrorCode, ReadResourceRequestParams, ResourceContents};
use mcp_contract::testing::{Client, Revision, call, structured};
use serde_json::json;
use support::{Fixture, client};

mod support;

/// A workspace with a nested file, and a secret beside it that must never be read.
fn fixture() -> Fixture {
    let fixture = Fixture::with(&[
        ("src/main.rs", b"fn main() {}\n"),
        ("notes.txt", "café\n".as_bytes()),
        ("blob.bin", &[0, 159, 146, 150]),
    ]);
    #[cfg(unix)]
    std::os::unix::fs::symlink("../secret.txt", fixture.root.join("escape")).expect("linked");
    fixture
}

/// The text of a read, or the protocol error code.
async fn read(client: &Client, uri: &str) -> Result<String, ErrorCode> {
    match client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
    {
        Ok(result) => match result.contents.as_slice() {
            [ResourceContents::TextResourceContents { text, .. }] => Ok(text.clone()),
            other => panic!("one text content expected: {other:?}"),
        },
        Err(ServiceError::McpError(e)) => Err(e.code),
        Err(other) => panic!("a protocol error expected: {other}"),
    }
}

#[tokio::test]
async fn the_tree_and_files_are_readable_as_resources() {
    let fixture = fixture();
    for revision in Revision::ALL {
        let client = client(&fixture, revision).await;
        let tree = read(&client, "workspace://tree").await.expect("the tree");
        assert!(tree.contains("src/\n  main.rs\n"), "{tree}");
        assert!(tree.contains("notes.txt\n"), "{tree}");
        assert_eq!(
            read(&client, "workspace://files/src%2Fmain.rs").await,
            Ok("fn main() {}\n".to_owned())
        );
        assert_eq!(
            read(&client, "workspace://files/notes.txt").await,
            Ok("café\n".to_owned())
        );
        client.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn a_missing_or_refused_file_is_a_protocol_error_and_nothing_leaks() {
    let fixture = fixture();
    for revision in Revision::ALL {
        let client = client(&fixture, revision).await;
        let not_found = match revision {
            Revision::V2025_11_25 => ErrorCode(-32002),
            Revision::V2026_07_28 => ErrorCode::INVALID_PARAMS,
        };
        assert_eq!(
            read(&client, "workspace://files/nothing.txt").await,
            Err(not_found)
        );
        for refused in [
            "workspace://files/..%2Fsecret.txt",
            "workspace://files/%2Fetc%2Fpasswd",
            "workspace://files/escape",
            "workspace://files/src",
            "workspace://files/blob.bin",
            "workspace://files/a%00b",
        ] {
            assert_eq!(
                read(&client, refused).await,
                Err(ErrorCode::INVALID_PARAMS),
                "{refused}"
            );
        }
        // Not one segment: no resource has this URI at all.
        assert_eq!(
            read(&client, "workspace://files/src/main.rs").await,
            Err(not_found)
        );
        client.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn a_created_directory_is_an_artifact_the_listing_tools_consume() {
    let fixture = fixture();
    let client = client(&fixture, Revision::V2026_07_28).await;
    let tools = client.list_tools(None).await.expect("tools/list").tools;
    let key = &["io.github.mcp-workspace/artifacts"];
    let producers: Vec<String> = tools
        .iter()
        .filter_map(|t| {
            let contract = metadata::artifacts(t, key).expect("valid")?;
            contract
                .produces
                .iter()
                .any(|p| p.kind == "workspace.directory")
                .then(|| format!("{}{}", t.name, contract.produces[0].pointer))
        })
        .collect();
    assert_eq!(producers, ["create_directory/path"]);
    let mut consumers: Vec<String> = tools
        .iter()
        .filter(|t| {
            metadata::artifacts(t, key)
                .expect("valid")
                .is_some_and(|c| c.consumes.iter().any(|c| c.kind == "workspace.directory"))
        })
        .map(|t| t.name.to_string())
        .collect();
    consumers.sort();
    assert_eq!(
        consumers,
        [
            "directory_tree",
            "find_files",
            "list_directory",
            "search_text"
        ]
    );

    // The chain a planner would follow: the produced value is what the consumer takes.
    let created = structured(&call(&client, "create_directory", json!({"path": "docs/new"})).await);
    let listed = call(&client, "list_directory", json!({"path": created["path"]})).await;
    assert_eq!(listed.is_error, Some(false), "{listed:?}");

    let compositions =
        metadata::compositions(&tools, &["io.github.mcp-workspace/composition"]).expect("valid");
    assert_eq!(compositions.len(), 1);
    assert_eq!(compositions[0].0, "apply_edits");
    assert_eq!(compositions[0].1.encapsulates, ["edit_file"]);
    client.cancel().await.expect("closed");
}
