//! Planning metadata: the artifact vocabulary, a tool's artifacts, and complete operations.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use mcp_contract_spec::planning::Consumed;

use super::{loads, produced, produces, refused, single, structured, tool, tool_named, with};
use crate::model::ArtifactsDef;
use crate::render_all;

#[test]
fn bad_kind() {
    let d = single(
        &with("artifacts:\n  kinds:\n    Fixture.Item: An item.\n"),
        "bad-kind",
        "`Fixture.Item` is not a valid artifact kind",
        "tools.yaml:11:5",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write dot-separated lowercase words, such as `workspace.file`")
    );
    for kind in [
        "item",
        "fixture..item",
        "fixture.1item",
        ".item",
        "fixture.item.",
    ] {
        if kind == "item" {
            // One lowercase word is a kind too.
            loads(&with(&format!(
                "artifacts:\n  kinds:\n    {kind}: An item.\n"
            )));
            continue;
        }
        single(
            &with(&format!("artifacts:\n  kinds:\n    \"{kind}\": An item.\n")),
            "bad-kind",
            &format!("`{kind}` is not a valid artifact kind"),
            "tools.yaml:11:5",
        );
    }
}

#[test]
fn bad_kind_is_not_reported_again_where_a_tool_uses_it() {
    // Lines 26-29 the tool's artifacts, 30 `artifacts:`, 31 `kinds:`, 32 the kind.
    single(
        &produces(
            "Fixture.Item",
            "/dir",
            "artifacts:\n  kinds:\n    Fixture.Item: An item.\n",
        ),
        "bad-kind",
        "`Fixture.Item` is not a valid artifact kind",
        "tools.yaml:32:5",
    );
}

#[test]
fn duplicate_kind() {
    let d = single(
        &with("artifacts:\n  kinds:\n    workspace.directory: A directory again.\n"),
        "duplicate-kind",
        "`workspace.directory` is a standard kind",
        "tools.yaml:11:5",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("remove it; standard kinds are always known")
    );
}

#[test]
fn empty_text_of_a_kind() {
    let d = single(
        &with("artifacts:\n  kinds:\n    demo.item: \" \"\n"),
        "empty-text",
        "the description of the kind `demo.item` is empty",
        "tools.yaml:11:16",
    );
    assert_eq!(d.help.as_deref(), Some("say what the kind stands for"));
}

#[test]
fn unknown_kind() {
    let d = single(
        &produces("workspace.directry", "/dir", ""),
        "unknown-kind",
        "unknown artifact kind `workspace.directry`",
        "tools.yaml:28:17",
    );
    assert_eq!(d.label.as_deref(), Some("no such artifact kind"));
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean `workspace.directory`?")
    );
    // A consumed kind is checked the same way; lines 28 `- kind:`.
    let d = single(
        &structured(
            "    artifacts:\n      consumes:\n        - kind: demo.item\n          pointer: /path\n",
        ),
        "unknown-kind",
        "unknown artifact kind `demo.item`",
        "tools.yaml:28:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the declared names are: workspace.directory")
    );
}

#[test]
fn unknown_mode() {
    let d = single(
        &produces("workspace.directory", "/dir", "          mode: copy\n"),
        "unknown-mode",
        "unknown artifact mode `copy`",
        "tools.yaml:30:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the only mode is `materialize` (the default)")
    );
    loads(&produces(
        "workspace.directory",
        "/dir",
        "          mode: materialize\n",
    ));
}

#[test]
fn unknown_encoding() {
    let d = single(
        &produces("workspace.directory", "/dir", "          encoding: csv\n"),
        "unknown-encoding",
        "unknown artifact encoding `csv`",
        "tools.yaml:30:21",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the only encoding is `json_array`, for a string field holding an exact JSON array")
    );
}

#[test]
fn artifact_without_output() {
    // Line 9 `artifacts:`, 10 `produces:`, 11 `- kind:`, 12 `pointer:`.
    let d = single(
        &with(
            "    artifacts:\n      produces:\n        - kind: workspace.directory\n          pointer: /dir\n",
        ),
        "artifact-without-output",
        "`ping` produces an artifact but has no structured output",
        "tools.yaml:12:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("an artifact is found in the structured output: declare `output:` with `properties:`")
    );
}

#[test]
fn bad_pointer() {
    for (pointer, written, problem) in [
        ("/nope", "/nope", "there is no property `nope`"),
        ("dir", "dir", "a JSON pointer starts with `/`"),
        (
            "",
            "\"\"",
            "the empty pointer names the whole document, not a field",
        ),
        (
            "/dir/x",
            "/dir/x",
            "`x` goes into a string, which has no fields",
        ),
        ("/ids/x", "/ids/x", "`x` is not an array index"),
        ("/ids/-", "/ids/-", "`-` is not an array index"),
        ("/ids/01", "/ids/01", "`01` is not an array index"),
        (
            "/ids/0/x",
            "/ids/0/x",
            "`x` goes into a string, which has no fields",
        ),
    ] {
        let d = single(
            &produces("workspace.directory", written, ""),
            "bad-pointer",
            &format!("`{pointer}` does not resolve in the tool's output schema: {problem}"),
            "tools.yaml:29:20",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write a JSON pointer to a property of the output, such as `/path`; array items are `/name/0`"
            )
        );
    }
}

#[test]
fn bad_pointer_of_a_consumed_artifact_looks_in_the_input() {
    // The output has `/dir`; the input does not.
    let text = structured(
        "    artifacts:\n      consumes:\n        - kind: workspace.directory\n          pointer: /dir\n",
    );
    let d = single(
        &text,
        "bad-pointer",
        "`/dir` does not resolve in the tool's input schema: there is no property `dir`",
        "tools.yaml:29:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "write a JSON pointer to a property of the input, such as `/path`; array items are `/name/0`"
        )
    );
    // A text tool consumes from its arguments: no structured output is needed.
    loads(&with(
        "    parameters:\n      dir:\n        type: string\n        description: D.\n        example: src\n\
         \x20   artifacts:\n      consumes:\n        - kind: workspace.directory\n          pointer: /dir\n          required: true\n",
    ));
}

#[test]
fn a_pointer_reaches_the_items_of_an_array() {
    // `/ids/0` names an item of an array of strings, a string.
    let c = loads(&produces("workspace.directory", "/ids/0", ""));
    assert_eq!(
        tool_named(&c, "find").artifacts,
        Some(ArtifactsDef {
            produces: vec![produced("workspace.directory", "/ids/0", false)],
            consumes: vec![],
        })
    );
}

#[test]
fn bad_encoding() {
    // `json_array` on an array, with the directory kind too: one report, not two.
    let d = single(
        &produces(
            "workspace.directory",
            "/ids",
            "          encoding: json_array\n",
        ),
        "bad-encoding",
        "`/ids` is not a string field",
        "tools.yaml:29:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "`json_array` describes a string holding an exact JSON array; remove the encoding or point at a string"
        )
    );
    // On an integer, with a kind of the manifest's own.
    single(
        &produces(
            "demo.page",
            "/count",
            "          encoding: json_array\nartifacts:\n  kinds:\n    demo.page: A page of records.\n",
        ),
        "bad-encoding",
        "`/count` is not a string field",
        "tools.yaml:29:20",
    );
    // On a string it loads.
    let c = loads(&produces(
        "workspace.directory",
        "/dir",
        "          encoding: json_array\n",
    ));
    assert_eq!(
        tool_named(&c, "find")
            .artifacts
            .as_ref()
            .map(|a| a.produces.clone()),
        Some(vec![produced("workspace.directory", "/dir", true)])
    );
}

#[test]
fn bad_artifact_field() {
    let d = single(
        &produces("workspace.directory", "/count", ""),
        "bad-artifact-field",
        "`/count` is not a string field",
        "tools.yaml:29:20",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("a `workspace.directory` is a workspace-relative path: point at a string")
    );
    single(
        &produces("workspace.directory", "/ids", ""),
        "bad-artifact-field",
        "`/ids` is not a string field",
        "tools.yaml:29:20",
    );
    // A kind of the manifest's own may be any field.
    loads(&produces(
        "demo.count",
        "/count",
        "artifacts:\n  kinds:\n    demo.count: A count.\n",
    ));
}

#[test]
fn empty_artifacts() {
    for written in ["{}", "{produces: [], consumes: []}"] {
        let d = single(
            &with(&format!("    artifacts: {written}\n")),
            "empty-artifacts",
            "`ping` declares artifacts but lists none",
            "tools.yaml:9:16",
        );
        assert_eq!(
            d.help.as_deref(),
            Some("list what the tool `produces:` or `consumes:`, or remove `artifacts:`")
        );
    }
}

#[test]
fn empty_composition() {
    let d = single(
        &with("    complete_operation: []\n"),
        "empty-composition",
        "a complete operation encapsulates at least one tool",
        "tools.yaml:9:25",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("list the tools it wraps, or remove `complete_operation:`")
    );
}

#[test]
fn self_composition() {
    let d = single(
        &with("    complete_operation: [ping]\n"),
        "self-composition",
        "`ping` cannot encapsulate itself",
        "tools.yaml:9:26",
    );
    assert_eq!(d.help.as_deref(), Some("list the other tools it wraps"));
}

#[test]
fn duplicate_tool_name_in_a_composition() {
    let text = format!(
        "{}{}",
        with("    complete_operation: [a, a]\n"),
        tool("a", "")
    );
    let d = single(
        &text,
        "duplicate-tool-name",
        "`a` is listed twice",
        "tools.yaml:9:29",
    );
    assert_eq!(d.help.as_deref(), Some("list each tool once"));
}

#[test]
fn unknown_tool() {
    let text = format!(
        "{}{}",
        with("    complete_operation: [lst_items]\n"),
        tool("list_items", "")
    );
    let d = single(
        &text,
        "unknown-tool",
        "unknown tool `lst_items`",
        "tools.yaml:9:26",
    );
    assert_eq!(d.label.as_deref(), Some("no such tool"));
    assert_eq!(d.help.as_deref(), Some("did you mean `list_items`?"));
}

#[test]
fn composition_cycle_reports_each_tool_on_it_once() {
    // ping → a (line 9); a (10-14) → b (15); b (16-20) → c (21); c (22-26) → a (27).
    let text = format!(
        "{}{}{}{}",
        with("    complete_operation: [a]\n"),
        tool("a", "    complete_operation: [b]\n"),
        tool("b", "    complete_operation: [c]\n"),
        tool("c", "    complete_operation: [a]\n"),
    );
    let (source, diags) = refused(&text);
    let found: Vec<(&str, &str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.message.as_str(), d.location(&source)))
        .collect();
    // `ping` wraps the cycle but is not on it.
    assert_eq!(
        found,
        [
            (
                "composition-cycle",
                "`a` encapsulates itself: a → b → c → a",
                "tools.yaml:15:25".to_owned()
            ),
            (
                "composition-cycle",
                "`b` encapsulates itself: b → c → a → b",
                "tools.yaml:21:25".to_owned()
            ),
            (
                "composition-cycle",
                "`c` encapsulates itself: c → a → b → c",
                "tools.yaml:27:25".to_owned()
            ),
        ],
        "{}",
        render_all(&diags, &source)
    );
    assert_eq!(
        diags[0].help.as_deref(),
        Some("a complete operation wraps lower-level tools; break the cycle")
    );
}

#[test]
fn composition_cycle_of_two_reached_two_ways_is_reported_once_per_tool() {
    // ping (9) → a, b; a (10-14) → b (15); b (16-20) → a (21).
    let text = format!(
        "{}{}{}",
        with("    complete_operation: [a, b]\n"),
        tool("a", "    complete_operation: [b]\n"),
        tool("b", "    complete_operation: [a]\n"),
    );
    let (source, diags) = refused(&text);
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.message.as_str(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            (
                "`a` encapsulates itself: a → b → a",
                "tools.yaml:15:25".to_owned()
            ),
            (
                "`b` encapsulates itself: b → a → b",
                "tools.yaml:21:25".to_owned()
            ),
        ]
    );
}

#[test]
fn composition_cycle_among_many_tools_that_wrap_each_other_is_found_quickly() {
    // Twelve tools, each wrapping all the others: 11! paths from each one, so a search of
    // every path would not finish; each tool is still reported once.
    let names: Vec<String> = (0..12).map(|i| format!("t{i}")).collect();
    let mut text = with("");
    for name in &names {
        let others: Vec<&str> = names
            .iter()
            .filter(|n| *n != name)
            .map(String::as_str)
            .collect();
        text.push_str(&tool(
            name,
            &format!("    complete_operation: [{}]\n", others.join(", ")),
        ));
    }
    let (source, diags) = refused(&text);
    assert_eq!(diags.len(), 12, "{}", render_all(&diags, &source));
    assert!(diags.iter().all(|d| d.code == "composition-cycle"));
    assert_eq!(diags[0].message, "`t0` encapsulates itself: t0 → t1 → t0");
}

/// A tool whose whole input and output are JSON Schema documents that reach their objects
/// through `$ref` (a JSON pointer in the input, an `$anchor` in the output) and `allOf`;
/// `artifacts` continues the tool from line 30.
fn documents(artifacts: &str) -> String {
    format!(
        "\
server:
  name: demo
tools:
  - name: fetch
    title: Fetch
    description: Fetches a folder.
    hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}
    input_schema:
      type: object
      properties:
        target: {{$ref: '#/$defs/target'}}
      $defs:
        target:
          type: object
          properties:
            dir: {{type: string}}
      additionalProperties: false
    output:
      json_schema:
        type: object
        properties:
          folder: {{$ref: '#folder'}}
        allOf: [{{properties: {{ids: {{type: array, items: {{type: string}}}}}}}}]
        $defs:
          folder:
            $anchor: folder
            type: object
            properties:
              path: {{type: string}}
{artifacts}"
    )
}

#[test]
fn a_pointer_follows_a_document_s_properties_items_and_refs() {
    let c = loads(&documents(
        "    artifacts:
      produces:
        - kind: workspace.directory
          pointer: /folder/path
        - kind: workspace.directory
          pointer: /ids/0
      consumes:
        - kind: workspace.directory
          pointer: /target/dir
",
    ));
    assert_eq!(
        tool_named(&c, "fetch").artifacts,
        Some(ArtifactsDef {
            produces: vec![
                produced("workspace.directory", "/folder/path", false),
                produced("workspace.directory", "/ids/0", false),
            ],
            consumes: vec![Consumed {
                kind: "workspace.directory".into(),
                pointer: "/target/dir".into(),
                required: false,
            }],
        })
    );
}

#[test]
fn a_pointer_into_a_document_is_held_to_it() {
    // Line 33 is the produced pointer, 36 the consumed one.
    let artifacts = |produced: &str, consumed: &str| {
        documents(&format!(
            "    artifacts:
      produces:
        - kind: workspace.directory
          pointer: {produced}
      consumes:
        - kind: workspace.directory
          pointer: {consumed}
"
        ))
    };
    single(
        &artifacts("/folder/nope", "/target/dir"),
        "bad-pointer",
        "`/folder/nope` does not resolve in the tool's output schema: there is no property `nope`",
        "tools.yaml:33:20",
    );
    single(
        &artifacts("/folder/path", "/target/dir/x"),
        "bad-pointer",
        "`/target/dir/x` does not resolve in the tool's input schema: `x` goes into a string, which has no fields",
        "tools.yaml:36:20",
    );
    single(
        &artifacts("/folder", "/target/dir"),
        "bad-artifact-field",
        "`/folder` is not a string field",
        "tools.yaml:33:20",
    );
}

#[test]
fn a_pointer_reaches_into_a_parameter_document() {
    let text = structured(
        "    artifacts:
      consumes:
        - kind: workspace.directory
          pointer: /where/dir
",
    )
    .replace(
        "      path:\n        type: string\n        description: Where to look.\n        example: src\n",
        "      where:\n        json_schema:\n          description: Where to look.\n          type: object\n          properties:\n            dir: {type: string}\n          examples: [{dir: src}]\n",
    );
    let c = loads(&text);
    assert_eq!(
        tool_named(&c, "find")
            .artifacts
            .as_ref()
            .map(|a| &a.consumes[0].pointer),
        Some(&"/where/dir".to_owned())
    );
}
