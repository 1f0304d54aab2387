//! `meta_key` as a key path: both planning contracts in one parent object, as
//! `_meta.gnougo.artifacts` and `_meta.gnougo.composition`; the rules that keep the two paths
//! apart; a tool's own `_meta` that would write where its planning metadata goes; and the
//! nested `_meta` the build publishes.

use serde_json::json;

use super::{VALID, loads, produces, refused, refused_at, single, tool, tool_json, with};

/// Both contracts under `gnougo`. Line 4 is the artifacts path, line 6 the composition's.
const SHARED: &str = "\
server:
  name: demo
artifacts:
  meta_key: [gnougo, artifacts]
composition:
  meta_key: [gnougo, composition]
tools:
  - name: open
    title: Open
    description: Opens a workspace directory, after a ping.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output:
      properties:
        dir: {type: string, description: The directory.}
    artifacts:
      produces:
        - kind: workspace.directory
          pointer: /dir
    complete_operation: [ping]
    _meta:
      com.example/category: files
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
";

#[test]
fn two_contracts_share_a_parent_object_and_are_published_nested() {
    let c = loads(SHARED);
    assert_eq!(c.planning.artifacts_key.keys, ["gnougo", "artifacts"]);
    assert_eq!(c.planning.composition_key.keys, ["gnougo", "composition"]);
    let open = tool_json(&c, &c.tools[0]);
    assert_eq!(
        open["_meta"],
        json!({
            "com.example/category": "files",
            "gnougo": {
                "artifacts": {
                    "version": 1,
                    "produces": [{"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"}],
                    "consumes": []
                },
                "composition": {
                    "version": 1,
                    "kind": "complete_operation",
                    "encapsulates": [{"kind": "tool", "method": "ping"}]
                }
            }
        })
    );
    // The tool's own entries first, then the parent, which holds the artifacts first.
    let keys: Vec<&String> = open["_meta"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["com.example/category", "gnougo"]);
    let nested: Vec<&String> = open["_meta"]["gnougo"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(nested, ["artifacts", "composition"]);
    // A tool with no planning metadata gets no parent object.
    assert_eq!(tool_json(&c, &c.tools[1]).get("_meta"), None);
}

#[test]
fn a_plain_string_is_one_key_dots_and_all() {
    let c = loads(&with(
        "artifacts:\n  meta_key: com.example.planning/artifacts\ncomposition:\n  meta_key: [com.example.planning/artifacts.v1]\n",
    ));
    assert_eq!(
        c.planning.artifacts_key.keys,
        ["com.example.planning/artifacts"]
    );
    assert_eq!(
        c.planning.composition_key.keys,
        ["com.example.planning/artifacts.v1"]
    );
}

#[test]
fn an_empty_key_path_is_refused() {
    single(
        &with("artifacts:\n  meta_key: []\n"),
        "bad-meta-key",
        "`meta_key` is an empty key path: write one key, or a list of keys",
        "tools.yaml:10:13",
    );
}

#[test]
fn every_key_of_a_path_follows_the_key_grammar() {
    single(
        &with("artifacts:\n  meta_key: [gnougo, \"\"]\n"),
        "bad-meta-key",
        "`` is not a valid `_meta` key",
        "tools.yaml:10:22",
    );
    single(
        &with("composition:\n  meta_key: [io.mcp/gnougo, composition]\n"),
        "reserved-meta-key",
        "`io.mcp/gnougo` is not a valid `_meta` key",
        "tools.yaml:10:14",
    );
    // Each bad key is reported, all at once.
    refused_at(
        &with("artifacts:\n  meta_key: [-a, b-]\n"),
        &[
            ("bad-meta-key", "tools.yaml:10:14"),
            ("bad-meta-key", "tools.yaml:10:18"),
        ],
    );
}

#[test]
fn a_meta_key_that_is_neither_a_key_nor_a_list_of_keys_is_reported_once() {
    for (value, at) in [
        ("{a: 1}", "tools.yaml:10:13"),
        ("[gnougo, 5]", "tools.yaml:10:22"),
    ] {
        let (source, diags) = refused(&with(&format!("artifacts:\n  meta_key: {value}\n")));
        let found: Vec<(&str, String)> = diags
            .iter()
            .map(|d| (d.code.as_str(), d.location(&source)))
            .collect();
        assert_eq!(found, [("wrong-type", at.to_owned())], "{value}");
    }
}

#[test]
fn the_two_paths_may_not_be_the_same() {
    let d = single(
        &with("artifacts:\n  meta_key: [gnougo, plan]\ncomposition:\n  meta_key: [gnougo, plan]\n"),
        "duplicate-meta-key",
        "`[gnougo, plan]` is already the artifacts key",
        "tools.yaml:12:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("publish the two contracts under different `_meta` keys")
    );
}

#[test]
fn one_path_may_not_lie_inside_the_other() {
    let d = single(
        &with("artifacts:\n  meta_key: gnougo\ncomposition:\n  meta_key: [gnougo, composition]\n"),
        "nested-meta-key",
        "`[gnougo, composition]` lies inside the artifacts contract at `gnougo`",
        "tools.yaml:12:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "let the two paths part after their shared parent, such as `[com.example, artifacts]` and `[com.example, composition]`"
        )
    );
    single(
        &with("artifacts:\n  meta_key: [gnougo, artifacts]\ncomposition:\n  meta_key: [gnougo]\n"),
        "nested-meta-key",
        "`gnougo` holds the artifacts contract at `[gnougo, artifacts]`",
        "tools.yaml:12:13",
    );
    // Only the artifacts path written, inside the composition's default.
    let d = single(
        &with("artifacts:\n  meta_key: [io.github.mcp-contract/composition, artifacts]\n"),
        "nested-meta-key",
        "`[io.github.mcp-contract/composition, artifacts]` lies inside the composition contract at `io.github.mcp-contract/composition`",
        "tools.yaml:10:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "choose another key, or move the composition contract with `composition: {meta_key: ...}`"
        )
    );
    // Sharing a first key, then parting, is the point.
    loads(&with(
        "artifacts:\n  meta_key: [gnougo, planning, artifacts]\ncomposition:\n  meta_key: [gnougo, composition]\n",
    ));
}

#[test]
fn a_tools_own_meta_may_not_write_the_parent_object() {
    // Line 21 is the entry of the `open` tool's `_meta`.
    let text = SHARED.replace("com.example/category: files", "gnougo: {artifacts: {}}");
    let d = single(
        &text,
        "duplicate-meta-key",
        "`gnougo` is where this tool's planning metadata is published",
        "tools.yaml:21:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove this `_meta` entry; `artifacts:` and `complete_operation:` publish it")
    );
    // A tool that publishes no planning metadata may write the key itself.
    loads(&format!(
        "{}    _meta:\n      gnougo: 1\nartifacts:\n  meta_key: [gnougo, artifacts]\n",
        VALID
    ));
}

#[test]
fn duplicate_meta_key_between_the_two_contracts() {
    // Both written: reported at the composition key.
    let d = single(
        &with(
            "artifacts:\n  meta_key: com.example/planning\ncomposition:\n  meta_key: com.example/planning\n",
        ),
        "duplicate-meta-key",
        "`com.example/planning` is already the artifacts key",
        "tools.yaml:12:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("publish the two contracts under different `_meta` keys")
    );
    // The composition key written as the artifacts' default.
    single(
        &with("composition:\n  meta_key: io.github.mcp-contract/artifacts\n"),
        "duplicate-meta-key",
        "`io.github.mcp-contract/artifacts` is already the artifacts key",
        "tools.yaml:10:13",
    );
    // The artifacts key written as the composition's default.
    let d = single(
        &with("artifacts:\n  meta_key: io.github.mcp-contract/composition\n"),
        "duplicate-meta-key",
        "`io.github.mcp-contract/composition` is where the composition contract is published",
        "tools.yaml:10:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "choose another key, or move the composition contract with `composition: {meta_key: ...}`"
        )
    );
    // Swapping the defaults is fine.
    loads(&with(
        "artifacts:\n  meta_key: io.github.mcp-contract/composition\n\
         composition:\n  meta_key: io.github.mcp-contract/artifacts\n",
    ));
}

#[test]
fn duplicate_meta_key_in_a_tools_own_meta() {
    // Lines 26-29 the artifacts, 30 `_meta:`, 31 the key.
    let d = single(
        &produces(
            "workspace.directory",
            "/dir",
            "    _meta:\n      io.github.mcp-contract/artifacts: {}\n",
        ),
        "duplicate-meta-key",
        "`io.github.mcp-contract/artifacts` is where this tool's planning metadata is published",
        "tools.yaml:31:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove this `_meta` entry; `artifacts:` and `complete_operation:` publish it")
    );
    // Line 9 the composition, 10 `_meta:`, 11 the configured key.
    let text = format!(
        "{}{}composition:\n  meta_key: com.example/plan\n",
        with("    complete_operation: [pong]\n    _meta:\n      com.example/plan: 1\n"),
        tool("pong", ""),
    );
    single(
        &text,
        "duplicate-meta-key",
        "`com.example/plan` is where this tool's planning metadata is published",
        "tools.yaml:11:7",
    );
    // A tool that publishes no planning metadata may use the key itself.
    loads(&with(
        "    _meta:\n      io.github.mcp-contract/artifacts: {}\n",
    ));
}
