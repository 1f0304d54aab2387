//! The reference server's prompt and completions on both revisions: `review_file` hands the
//! model the file as an embedded resource, and paths complete from the workspace's files.

use mcp_contract::rmcp::model::{
    ArgumentInfo, CompleteRequestParams, GetPromptRequestParams, Reference,
};
use mcp_contract::testing::{Revision, check_wire, connect};
use mcp_workspace::{Workspace, contract};
use serde_json::json;

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(dir.path().join("src/bin")).expect("directories");
    for (path, text) in [
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib.rs", "pub fn f() {}\n"),
        ("src/bin/tool.rs", "fn main() {}\n"),
        ("README.md", "# Demo\n"),
    ] {
        std::fs::write(dir.path().join(path), text).expect("written");
    }
    let workspace = Workspace::open(dir.path()).expect("opened");
    (dir, workspace)
}

#[tokio::test]
async fn review_file_gives_the_file_and_asks_for_a_review() {
    for revision in Revision::ALL {
        let (_dir, workspace) = workspace();
        let client = connect(contract::server(workspace), revision)
            .await
            .expect("connected");
        let listed = client.list_prompts(None).await.expect("prompts/list");
        let names: Vec<&str> = listed.prompts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["review_file"], "{revision}");

        let arguments = json!({"path": "src/main.rs", "focus": "readability"});
        let got = client
            .get_prompt(
                GetPromptRequestParams::new("review_file")
                    .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
            )
            .await
            .expect("prompts/get");
        let wire = serde_json::to_value(&got).expect("serializable");
        check_wire(revision, "GetPromptResult", &wire).expect("official schema");
        let resource = &wire["messages"][0]["content"]["resource"];
        assert_eq!(resource["uri"], "workspace://files/src%2Fmain.rs", "{wire}");
        assert_eq!(resource["text"], "fn main() {}\n", "{wire}");
        let ask = wire["messages"][1]["content"]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            ask.contains("`src/main.rs`") && ask.contains("readability"),
            "{ask}"
        );

        let missing = json!({"path": "nope.rs"});
        let refused = client
            .get_prompt(
                GetPromptRequestParams::new("review_file")
                    .with_arguments(missing.as_object().cloned().unwrap_or_default()),
            )
            .await
            .expect_err("no such file");
        assert!(
            refused.to_string().contains("-32602"),
            "{revision}: {refused}"
        );
        client.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn paths_complete_from_the_workspace_files() {
    for revision in Revision::ALL {
        let (_dir, workspace) = workspace();
        let client = connect(contract::server(workspace), revision)
            .await
            .expect("connected");
        let prompt = Reference::for_prompt("review_file");
        let file = Reference::for_resource("workspace://files/{path}");
        for (reference, name, typed, expected) in [
            (
                &prompt,
                "path",
                "src/",
                &["src/bin/tool.rs", "src/lib.rs", "src/main.rs"][..],
            ),
            (&prompt, "path", "src/m", &["src/main.rs"][..]),
            (&file, "path", "R", &["README.md"][..]),
            (&file, "path", "src/bin/", &["src/bin/tool.rs"][..]),
            (&prompt, "path", "nowhere/", &[][..]),
            (&prompt, "focus", "re", &["readability"][..]),
        ] {
            let asked =
                CompleteRequestParams::new(reference.clone(), ArgumentInfo::new(name, typed));
            let answer = client.complete(asked).await.expect("completion/complete");
            assert_eq!(
                answer.completion.values, expected,
                "{revision}: {name} {typed}"
            );
        }
        client.cancel().await.expect("closed");
    }
}
