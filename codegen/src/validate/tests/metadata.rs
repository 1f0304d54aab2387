//! One test per diagnostic of the manifest's metadata declarations: artifacts, complete
//! operations, groups, resources and `header:` (x-mcp-header); then what a manifest that uses
//! them all loads into and publishes.
//!
//! As in `rules.rs`, each test starts from a manifest that loads, changes one thing, and pins
//! the rule's code, its exact message, where it points (`tools.yaml:LINE:COL`, counted by hand
//! from the text in the test) and, for most, its help; it also pins the number of diagnostics,
//! so a rule that fires twice, or drags another one along, fails here.

use super::{VALID, loads, refused, refused_at, related_at, single, with};
use crate::emit::wire::{tool_json, tools_list};
use crate::model::{ArtifactsDef, Field, Kind, OutputDef, ResourceUri, ToolDef};
use crate::{Contract, Revision, Source, render_all};
use mcp_contract_spec::planning::{Consumed, Encoding, Mode, Produced};
use serde_json::{Value, json};

/// A produced artifact as the model holds it; `json_array` sets the encoding.
fn produced(kind: &str, pointer: &str, json_array: bool) -> Produced {
    Produced {
        kind: kind.into(),
        pointer: pointer.into(),
        mode: Mode::Materialize,
        encoding: json_array.then_some(Encoding::JsonArray),
    }
}

/// A consumed artifact as the model holds it.
fn consumed(kind: &str, pointer: &str, required: bool) -> Consumed {
    Consumed {
        kind: kind.into(),
        pointer: pointer.into(),
        required,
    }
}

/// A tool with a string parameter and a structured output of a string, an array of strings
/// and an integer. Text appended to it starts on line 26; lines indented by four spaces
/// continue the tool.
const STRUCTURED: &str = "\
server:
  name: demo
tools:
  - name: find
    title: Find
    description: Finds items.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      path:
        type: string
        description: Where to look.
        example: src
    output:
      properties:
        dir:
          type: string
          description: The directory.
        ids:
          type: array
          description: The ids.
          items: {type: string}
        count:
          type: integer
          minimum: 0
          description: How many.
";

const HINTS: &str = "{read_only: true, destructive: false, idempotent: true, open_world: false}";

/// [`STRUCTURED`] followed by `extra`, whose first line is line 26.
fn structured(extra: &str) -> String {
    format!("{STRUCTURED}{extra}")
}

/// Another tool with text output, five lines long, then `extra`, which continues it.
fn tool(name: &str, extra: &str) -> String {
    format!(
        "  - name: {name}\n    title: Tool {name}\n    description: Does {name}.\n    hints: {HINTS}\n    output: text\n{extra}"
    )
}

/// A resource, five lines long: the name, then `address` (a `uri:` or `uri_template:`, on
/// the second line), title, description and MIME type.
fn resource(name: &str, address: &str) -> String {
    format!(
        "  - name: {name}\n    {address}\n    title: Resource {name}\n    description: Holds {name}.\n    mime_type: text/plain\n"
    )
}

/// [`STRUCTURED`] with one produced artifact: `- kind:` on line 28, `pointer:` on line 29
/// (the value at column 20), then `more`, which continues the entry.
fn produces(kind: &str, pointer: &str, more: &str) -> String {
    structured(&format!(
        "    artifacts:\n      produces:\n        - kind: {kind}\n          pointer: {pointer}\n{more}"
    ))
}

/// [`VALID`] with one parameter `name` (line 10, column 7) of the given property lines, each
/// written at eight spaces.
fn parameter(name: &str, lines: &str) -> String {
    with(&format!("    parameters:\n      {name}:\n{lines}"))
}

fn tool_named<'c>(contract: &'c Contract, name: &str) -> &'c ToolDef {
    contract
        .tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
}

fn field<'f>(fields: &'f [Field], name: &str) -> &'f Field {
    fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field `{name}`"))
}

// ---------------------------------------------------------------------------------------
// The artifact vocabulary and the `_meta` keys.

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

#[test]
fn bad_meta_key_and_reserved_meta_key_of_the_contracts() {
    single(
        &with("artifacts:\n  meta_key: io.modelcontextprotocol/artifacts\n"),
        "reserved-meta-key",
        "`io.modelcontextprotocol/artifacts` is not a valid `_meta` key",
        "tools.yaml:10:13",
    );
    single(
        &with("composition:\n  meta_key: com..example/composition\n"),
        "bad-meta-key",
        "`com..example/composition` is not a valid `_meta` key",
        "tools.yaml:10:13",
    );
}

// ---------------------------------------------------------------------------------------
// A tool's artifacts.

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

// ---------------------------------------------------------------------------------------
// Complete operations.

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

// ---------------------------------------------------------------------------------------
// Groups.

#[test]
fn empty_group() {
    // Line 9 the tool's groups, 10 `groups:`, 11 reads, 12 its description, 13 admin.
    let d = single(
        &with(
            "    groups: [reads]\ngroups:\n  reads:\n    description: Looks.\n  admin:\n    description: Changes.\n",
        ),
        "empty-group",
        "no tool belongs to the group `admin`",
        "tools.yaml:13:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("list the group under a tool's `groups:`, or remove it")
    );
}

#[test]
fn bad_group_name() {
    let d = single(
        &with("    groups: [Reads]\ngroups:\n  Reads:\n    description: Looks.\n"),
        "bad-group-name",
        "`Reads` is not a valid group name",
        "tools.yaml:11:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "a group's name is its HTTP route: a lowercase letter, then up to 63 lowercase letters, digits, `_` or `-`"
        )
    );
    let long = format!("g{}", "x".repeat(64));
    single(
        &with(&format!(
            "    groups: [{long}]\ngroups:\n  {long}:\n    description: Looks.\n"
        )),
        "bad-group-name",
        &format!("`{long}` is not a valid group name"),
        "tools.yaml:11:3",
    );
    for name in ["read-only", "r_2", &"g".repeat(64)] {
        loads(&with(&format!(
            "    groups: [{name}]\ngroups:\n  {name}:\n    description: Looks.\n"
        )));
    }
}

#[test]
fn duplicate_group() {
    let d = single(
        &with("    groups: [reads, reads]\ngroups:\n  reads:\n    description: Looks.\n"),
        "duplicate-group",
        "the group `reads` is listed twice",
        "tools.yaml:9:21",
    );
    assert_eq!(d.help.as_deref(), Some("list each group once"));
}

#[test]
fn missing_group() {
    // The group no tool lists is not reported too: adding the tool to it is the fix.
    let d = single(
        &with("groups:\n  reads:\n    description: Looks.\n"),
        "missing-group",
        "the tool `ping` belongs to no group",
        "tools.yaml:4:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "add `groups: [...]`; over HTTP each group is served at its own route, and a tool in none would be unreachable"
        )
    );
    single(
        &with("    groups: []\ngroups:\n  reads:\n    description: Looks.\n"),
        "missing-group",
        "the tool `ping` belongs to no group",
        "tools.yaml:4:11",
    );
    // Without declared groups, tools need none.
    loads(VALID);
}

#[test]
fn unknown_group() {
    // The misspelt group is not reported empty as well.
    let d = single(
        &with("    groups: [raeds]\ngroups:\n  reads:\n    description: Looks.\n"),
        "unknown-group",
        "unknown group `raeds`",
        "tools.yaml:9:14",
    );
    assert_eq!(d.label.as_deref(), Some("no such group"));
    assert_eq!(d.help.as_deref(), Some("did you mean `reads`?"));
    let d = single(
        &with("    groups: [reads]\n"),
        "unknown-group",
        "unknown group `reads`",
        "tools.yaml:9:14",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("no group is declared in the manifest")
    );
}

#[test]
fn empty_text_of_a_group() {
    let d = single(
        &with("    groups: [reads]\ngroups:\n  reads:\n    description: \" \"\n"),
        "empty-text",
        "the group's description is empty",
        "tools.yaml:12:18",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("say what the group's tools are for")
    );
    single(
        &with("    groups: [reads]\ngroups:\n  reads: {}\n"),
        "missing-field",
        "a group is missing the required key `description`",
        "tools.yaml:11:10",
    );
}

#[test]
fn ident_collision_of_group_constants() {
    // Lines 10 `groups:`, 11 `read-only`, 13 `read_only`.
    let text = with(
        "    groups: [read-only, read_only]\ngroups:\n  read-only:\n    description: Looks.\n  read_only:\n    description: Looks too.\n",
    );
    let d = single(
        &text,
        "ident-collision",
        "the group `read_only` becomes the Rust constant `groups::READ_ONLY`, which another group already has",
        "tools.yaml:13:3",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:3");
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the groups so they differ other than in `-` and `_`")
    );
}

#[test]
fn a_tool_skipped_for_its_name_keeps_no_relations() {
    // The second `ping` (10-14) is refused for its name; the first keeps its group, so
    // `reads` is not reported empty, and the second's unknown group is not looked at.
    let text = format!(
        "{}{}groups:\n  reads:\n    description: Looks.\n",
        with("    groups: [reads]\n"),
        tool("ping", "    groups: [admin]\n"),
    );
    single(
        &text,
        "duplicate-tool-name",
        "the tool name `ping` is used twice",
        "tools.yaml:10:11",
    );
}

// ---------------------------------------------------------------------------------------
// Resources.

#[test]
fn bad_resource_name() {
    let d = single(
        &with(&format!(
            "resources:\n{}",
            resource("Read-Me", "uri: x://a")
        )),
        "bad-resource-name",
        "`Read-Me` is not a valid resource name",
        "tools.yaml:10:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "resource names are snake_case: a lowercase letter, then lowercase letters, digits or `_`"
        )
    );
}

#[test]
fn duplicate_resource_name() {
    // The first `r` (10-14) is refused for its URI; its name still counts.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("r", "uri: /no-scheme"),
        resource("r", "uri: x://b")
    ));
    let (source, diags) = refused(&text);
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["bad-uri", "duplicate-resource"]);
    let d = &diags[1];
    assert_eq!(d.message, "the resource name `r` is used twice");
    assert_eq!(d.location(&source), "tools.yaml:15:11");
    assert_eq!(related_at(d, &text, 0), "tools.yaml:10:11");
    assert_eq!(
        d.help.as_deref(),
        Some("give each resource a name of its own")
    );
}

#[test]
fn duplicate_resource_uri() {
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a", "uri: x://same"),
        resource("b", "uri: x://same")
    ));
    let d = single(
        &text,
        "duplicate-resource",
        "`x://same` is declared twice",
        "tools.yaml:16:10",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:10");
    assert_eq!(d.related[0].1, "first declared here");
    assert_eq!(
        d.help.as_deref(),
        Some("each URI or template names one resource")
    );
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a", "uri_template: x:///{id}"),
        resource("b", "uri_template: x:///{id}")
    ));
    single(
        &text,
        "duplicate-resource",
        "`x:///{id}` is declared twice",
        "tools.yaml:16:19",
    );
}

#[test]
fn resource_uri() {
    // Line 10 the name, 11 `uri:`, 12 `uri_template:`.
    let d = single(
        &with(
            "resources:\n  - name: r\n    uri: x://a\n    uri_template: x://a/{b}\n    title: R\n    description: D.\n    mime_type: text/plain\n",
        ),
        "resource-uri",
        "a resource has `uri` or `uri_template`, not both",
        "tools.yaml:12:19",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("keep `uri` for one fixed resource, `uri_template` for a family of them")
    );
    let d = single(
        &with(
            "resources:\n  - name: r\n    title: R\n    description: D.\n    mime_type: text/plain\n",
        ),
        "resource-uri",
        "the resource `r` has no `uri` or `uri_template`",
        "tools.yaml:10:5",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("add `uri:` for one fixed resource, or `uri_template:` for a family of them")
    );
}

#[test]
fn bad_uri() {
    for (uri, problem) in [
        ("x://a b", "' ' cannot appear in a URI"),
        ("/a/b", "it has no scheme"),
        ("x://{a}", "'{' cannot appear in a URI"),
        ("1x://a", "`1x` is not a URI scheme"),
        ("x://a|b", "'|' cannot appear in a URI"),
        // `format: uri` in the official schemas is RFC 3986: ASCII only, `%` starts an escape.
        (
            "x://caf\u{e9}",
            "'\u{e9}' cannot appear in a URI; percent-encode it as `%C3%A9`",
        ),
        (
            "x://a%zz",
            "`%zz` is not a percent-escape; write `%25` for a `%` itself",
        ),
        (
            "x://a%2",
            "`%2` is not a percent-escape; write `%25` for a `%` itself",
        ),
        ("x://a#b#c", "it is not an RFC 3986 URI"),
        ("x://[a/b", "it is not an RFC 3986 URI"),
    ] {
        let d = single(
            &with(&format!(
                "resources:\n{}",
                resource("r", &format!("uri: \"{uri}\""))
            )),
            "bad-uri",
            &format!("`{uri}` is not a resource URI: {problem}"),
            "tools.yaml:11:10",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write an absolute URI with a scheme, such as `workspace:///README.md`; use `uri_template:` for one with `{variables}`"
            )
        );
    }
    for uri in [
        "workspace:///README.md",
        "x:a",
        "https://example.com/a?b=c#d",
        "x://caf%C3%A9/a%20b",
        "urn:isbn:0451450523",
    ] {
        loads(&with(&format!(
            "resources:\n{}",
            resource("r", &format!("uri: \"{uri}\""))
        )));
    }
}

#[test]
fn bad_uri_template() {
    for (template, problem) in [
        ("x://a/{+path}", "`{+…}` is a level-2 or level-3 operator"),
        ("x://a{/path}", "`{/…}` is a level-2 or level-3 operator"),
        ("x://a/{?q}", "`{?…}` is a level-2 or level-3 operator"),
        (
            "x://{a}{b}",
            "two variables touch; separate them with literal text such as `/`",
        ),
        (
            "x://a/{a:3}",
            "`{a:3}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/{a*}",
            "`{a*}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/{a,b}",
            "`{a,b}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/b",
            "it has no variable; use `uri:` for a fixed resource",
        ),
        ("x://a/{id", "a `{` is never closed"),
        ("x://a/}", "a `}` closes no variable"),
        ("/files/{id}", "before the first variable, it has no scheme"),
        ("{s}://a", "before the first variable, it has no scheme"),
        ("x://a b/{id}", "' ' cannot appear in a URI"),
        ("x://a/{id}/{id}", "`id` appears twice"),
        (
            "x://a/{}",
            "`{}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{1}",
            "`{1}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{_}",
            "`{_}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{a-b}",
            "`{a-b}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        // `format: uri-template` (RFC 6570), and what it expands to is a URI (RFC 3986).
        (
            "x://caf\u{e9}/{id}",
            "'\u{e9}' cannot appear in a URI; percent-encode it as `%C3%A9`",
        ),
        (
            "x://a/%zz/{id}",
            "`%zz` is not a percent-escape; write `%25` for a `%` itself",
        ),
        ("x://a/{id}#b#c", "it does not expand to an RFC 3986 URI"),
    ] {
        let d = single(
            &with(&format!(
                "resources:\n{}",
                resource("r", &format!("uri_template: \"{template}\""))
            )),
            "bad-uri-template",
            &format!("`{template}` is not a level-1 URI template: {problem}"),
            "tools.yaml:11:19",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write a URI with a scheme and `{name}` variables, each one path segment, such as `workspace:///files/{path}`"
            )
        );
    }
    for template in [
        "x://caf%C3%A9/{id}",
        "x://a/{id}?q=1#top",
        "urn:item:{id}",
        "x://a/it's/{id}",
    ] {
        loads(&with(&format!(
            "resources:\n{}",
            resource("r", &format!("uri_template: \"{template}\""))
        )));
    }
}

#[test]
fn bad_mime_type() {
    for mime in ["text", "text/", "/plain", "text/plain/x", "text plain"] {
        let text = with(&format!("resources:\n{}", resource("r", "uri: x://a")))
            .replace("mime_type: text/plain", &format!("mime_type: \"{mime}\""));
        let d = single(
            &text,
            "bad-mime-type",
            &format!("`{mime}` is not a MIME type"),
            "tools.yaml:14:16",
        );
        assert_eq!(
            d.help.as_deref(),
            Some("write `type/subtype`, such as `text/plain` or `application/json`")
        );
    }
    let text = with(&format!("resources:\n{}", resource("r", "uri: x://a"))).replace(
        "mime_type: text/plain",
        "mime_type: text/plain; charset=utf-8",
    );
    loads(&text);
}

#[test]
fn empty_text_of_a_resource() {
    let text = with(&format!("resources:\n{}", resource("r", "uri: x://a")));
    let d = single(
        &text.replace("title: Resource r", "title: \" \""),
        "empty-text",
        "the resource's title is empty",
        "tools.yaml:12:12",
    );
    assert_eq!(d.help.as_deref(), Some("write the title a client lists"));
    single(
        &text.replace("description: Holds r.", "description: \"\""),
        "empty-text",
        "the resource's description is empty",
        "tools.yaml:13:18",
    );
}

#[test]
fn ident_collision_of_a_resource_method() {
    // With a tool's method.
    let text = format!(
        "{}resources:\n{}",
        VALID.replace("name: ping", "name: ping_resource"),
        resource("ping", "uri: x://a")
    );
    let d = single(
        &text,
        "ident-collision",
        "the resource `ping` becomes the Rust method `ping_resource`, which a tool already has",
        "tools.yaml:10:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
    assert_eq!(d.help.as_deref(), Some("rename the resource or the tool"));
    // With another resource's: `a__b` and `a_b` are both `a_b_resource`.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a__b", "uri: x://1"),
        resource("a_b", "uri: x://2")
    ));
    let d = single(
        &text,
        "ident-collision",
        "the resource `a_b` becomes the Rust method `a_b_resource`, which another resource already has",
        "tools.yaml:15:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:10:11");
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the resources so their snake_case forms differ")
    );
}

#[test]
fn ident_collision_of_template_variables() {
    let d = single(
        &with(&format!(
            "resources:\n{}",
            resource("r", "uri_template: x:///{fooBar}/{foo_bar}")
        )),
        "ident-collision",
        "`{fooBar}` and `{foo_bar}` become the same Rust field `foo_bar`",
        "tools.yaml:11:19",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the variables so their snake_case forms differ")
    );
}

#[test]
fn ident_collision_of_a_resource_parameters_type() {
    // Lines 9-14 the shared type, 15 `resources:`, 16 the resource's name.
    let text = with(&format!(
        "types:\n  FileParams:\n    type: object\n    description: P.\n    properties:\n      x: {{type: string, description: X.}}\nresources:\n{}",
        resource("file", "uri_template: x:///{p}")
    ));
    let d = single(
        &text,
        "ident-collision",
        "the resource parameters type `FileParams` would be generated twice",
        "tools.yaml:16:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:11");
    // A fixed resource has no parameters type.
    loads(&text.replace("uri_template: x:///{p}", "uri: x:///p"));
}

// ---------------------------------------------------------------------------------------
// `header:`, the x-mcp-header of 2026-07-28.

#[test]
fn header_placement() {
    // On an output field: line 26 continues `count`.
    let d = single(
        &structured("          header: Count\n"),
        "header-placement",
        "`count` cannot carry `header`",
        "tools.yaml:26:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "only a tool's parameters are mirrored into HTTP headers, never its output; remove `header:`"
        )
    );
    // On a field of a shared type, even one used as a parameter. Lines 9-13 the parameter,
    // 14 `types:`, 15 `P:`, 16-18, 19 the field.
    let text = with(
        "    parameters:\n      a:\n        type: P\n        description: A.\n        example: {x: a}\n\
         types:\n  P:\n    type: object\n    description: P.\n    properties:\n      x: {type: string, description: X., header: X}\n",
    );
    let d = single(
        &text,
        "header-placement",
        "`x` cannot carry `header`",
        "tools.yaml:19:42",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "only a tool's parameters are mirrored into HTTP headers; move `header:` to the parameter that uses this type, or remove it"
        )
    );
}

#[test]
fn bad_header() {
    for (header, written) in [
        ("Bad Header", "Bad Header"),
        ("", "\"\""),
        ("Région", "Région"),
        ("a:b", "\"a:b\""),
    ] {
        let d = single(
            &parameter(
                "region",
                &format!(
                    "        type: string\n        description: R.\n        example: eu\n        header: {written}\n"
                ),
            ),
            "bad-header",
            &format!("`{header}` is not an HTTP header token"),
            "tools.yaml:14:17",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "use letters, digits and `-` (an RFC 9110 token), such as `Region`; it is sent as `Mcp-Param-{name}`"
            )
        );
    }
    // Every tchar is allowed.
    loads(&parameter(
        "region",
        "        type: string\n        description: R.\n        example: eu\n        header: \"X-Region_1.!#$%&'*+^`|~\"\n",
    ));
}

/// `tools.yaml:LINE:COL` of the value of the `n`-th `header:` in `text`, where diagnostics
/// about the header's name and type point.
fn header_at(text: &str, n: usize) -> String {
    at_header(text, n, true)
}

/// `tools.yaml:LINE:COL` of the `n`-th `header:` key in `text`, where diagnostics about where
/// a header may stand point.
fn header_key_at(text: &str, n: usize) -> String {
    at_header(text, n, false)
}

fn at_header(text: &str, n: usize, value: bool) -> String {
    let (offset, key) = text
        .match_indices("header: ")
        .nth(n)
        .expect("the manifest has that many headers");
    let offset = if value { offset + key.len() } else { offset };
    let (line, col) = Source::new("tools.yaml", text).line_col(offset);
    format!("tools.yaml:{line}:{col}")
}

#[test]
fn header_unreachable() {
    // Lines 10 `list:`, 14 `items:`, 15-16, 17 `x`.
    let d = single(
        &parameter(
            "list",
            "        type: array\n        description: L.\n        example: [{x: a}]\n        items:\n          type: object\n          properties:\n            x: {type: string, description: X., header: X}\n",
        ),
        "header-unreachable",
        "`x` sits inside an array, where a header cannot reach it",
        "tools.yaml:17:48",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("only parameters reached through object properties can be mirrored; remove `header:`")
    );
    // Inside an array of arrays, and inside an object inside the items: lines 14 `items:`,
    // 15 `type: array`, 16 `items:`, 17-18, 19 `o:`, 22 `properties:`, 23 `x`.
    let text = parameter(
        "grid",
        "        type: array\n        description: G.\n        example: [[{o: {x: a}}]]\n        items:\n          type: array\n          items:\n            type: object\n            properties:\n              o:\n                type: object\n                description: O.\n                properties:\n                  x: {type: string, description: X., header: X}\n",
    );
    single(
        &text,
        "header-unreachable",
        "`x` sits inside an array, where a header cannot reach it",
        &header_key_at(&text, 0),
    );
}

#[test]
fn duplicate_header() {
    let text = with(
        "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n\
         \x20     b:\n        type: string\n        description: B.\n        example: x\n        header: region\n",
    );
    let d = single(
        &text,
        "duplicate-header",
        "the header `region` is used twice in `ping`",
        "tools.yaml:19:17",
    );
    assert_eq!(related_at(&d, &text, 0), header_at(&text, 0));
    assert_eq!(d.related[0].1, "first used here (header names ignore case)");
    assert_eq!(
        d.help.as_deref(),
        Some("give each mirrored parameter a header of its own")
    );
    // Nested properties share the tool's header names: lines 16 `w:`, 21 `properties:`, 22 `c`.
    let text = with(
        "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n\
         \x20     w:\n        type: object\n        description: W.\n        example: {c: x}\n        properties:\n          c: {type: string, description: C., header: REGION}\n",
    );
    single(
        &text,
        "duplicate-header",
        "the header `REGION` is used twice in `ping`",
        &header_at(&text, 1),
    );
    // Two tools may use the same header.
    loads(&format!(
        "{}{}",
        parameter(
            "a",
            "        type: string\n        description: A.\n        example: x\n        header: Region\n"
        ),
        tool(
            "pong",
            "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n"
        )
    ));
}

#[test]
fn header_integer_range() {
    for bounds in [
        "",
        "        minimum: 0\n",
        "        maximum: 10\n",
        "        minimum: 0\n        maximum: 9007199254740992\n",
        "        minimum: -9007199254740992\n        maximum: 0\n",
    ] {
        let text = parameter(
            "n",
            &format!(
                "        type: integer\n        description: N.\n        example: 0\n{bounds}        header: N\n"
            ),
        );
        let d = single(
            &text,
            "header-integer-range",
            "the header `N` carries an integer without bounds inside ±(2^53−1)",
            &header_at(&text, 0),
        );
        assert_eq!(
            d.help.as_deref(),
            Some("give the parameter `minimum:` and `maximum:` within ±9007199254740991")
        );
    }
    loads(&parameter(
        "n",
        "        type: integer\n        description: N.\n        example: 0\n        minimum: -9007199254740991\n        maximum: 9007199254740991\n        header: N\n",
    ));
}

#[test]
fn header_type() {
    let d = single(
        &parameter(
            "r",
            "        type: number\n        description: R.\n        example: 0.5\n        minimum: 0\n        maximum: 1\n        header: R\n",
        ),
        "header-type",
        "the header `R` is on a `number`",
        "tools.yaml:16:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "headers carry strings, integers and booleans only; use `type: integer` or drop `header:`"
        )
    );
    for (ty, example) in [
        ("array\n        items: {type: string}", "[a]"),
        (
            "object\n        properties:\n          x: {type: string, description: X.}",
            "{x: a}",
        ),
    ] {
        let text = parameter(
            "r",
            &format!(
                "        type: {ty}\n        description: R.\n        example: {example}\n        header: R\n"
            ),
        );
        let d = single(
            &text,
            "header-type",
            "the header `R` is on a value with structure",
            &header_at(&text, 0),
        );
        assert_eq!(
            d.help.as_deref(),
            Some("headers carry strings, integers and booleans only")
        );
    }
    // A shared type counts by its own kind: a shared number is refused too. Lines 9-14 the
    // parameter, 15 `types:`.
    let text = with(
        "    parameters:\n      r:\n        type: Ratio\n        description: R.\n        example: 0.5\n        header: R\n\
         types:\n  Ratio:\n    type: number\n    description: A ratio.\n",
    );
    single(
        &text,
        "header-type",
        "the header `R` is on a `number`",
        &header_at(&text, 0),
    );
}

// ---------------------------------------------------------------------------------------
// A manifest with every new key: what it loads into and what it publishes.

const EVERYTHING: &str = r#"server:
  name: demo
artifacts:
  meta_key: com.example/artifacts
  kinds:
    demo.item: An item id.
    demo.page: A JSON array of records.
composition:
  meta_key: com.example/composition
groups:
  reads:
    description: Tools that only look.
  admin:
    description: Tools that change things.
resources:
  - name: readme
    uri: demo:///README.md
    title: The readme
    description: The project's readme.
    mime_type: text/markdown
  - name: file
    uri_template: demo:///files/{dir}/{fileName}
    title: A file
    description: One file by directory and name.
    mime_type: text/plain
types:
  Region:
    type: string
    description: A region.
    pattern: "^[a-z]+$"
tools:
  - name: list_items
    title: List items
    description: Lists item ids.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    groups: [reads, admin]
    parameters:
      region:
        type: Region
        description: Where.
        example: eu
        header: Region
      limit:
        type: integer
        description: How many.
        minimum: 1
        maximum: 100
        example: 10
        header: Limit
      loud:
        type: boolean
        description: Whether to shout.
        required: false
        example: true
        header: Loud
      window:
        type: object
        description: A window.
        required: false
        example: {start: 1}
        properties:
          start:
            type: integer
            description: The first.
            minimum: 0
            maximum: 10
            header: Window-Start
    output:
      properties:
        dir:
          type: string
          description: Where they are.
        ids:
          type: array
          description: The ids.
          items: {type: string}
        page:
          type: string
          description: The records, as a JSON array.
    artifacts:
      produces:
        - kind: workspace.directory
          pointer: /dir
        - kind: demo.item
          pointer: /ids/0
        - kind: demo.page
          pointer: /page
          mode: materialize
          encoding: json_array
      consumes:
        - kind: workspace.directory
          pointer: /region
          required: true
        - kind: demo.item
          pointer: /window/start
  - name: reset
    title: Reset
    description: Resets everything.
    hints: {read_only: false, destructive: true, idempotent: true, open_world: false}
    groups: admin
    complete_operation: [list_items, match]
    output: text
  - name: match
    title: Match
    description: Matches.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    groups: [reads]
    output: text
"#;

#[test]
fn a_manifest_with_every_new_key_loads_into_the_contract() {
    let c = loads(EVERYTHING);

    assert_eq!(c.planning.artifacts_key.keys, ["com.example/artifacts"]);
    assert_eq!(c.planning.composition_key.keys, ["com.example/composition"]);
    assert_eq!(
        c.planning.kinds,
        [
            (
                "workspace.directory".to_owned(),
                "A validated workspace-relative directory.".to_owned()
            ),
            ("demo.item".to_owned(), "An item id.".to_owned()),
            (
                "demo.page".to_owned(),
                "A JSON array of records.".to_owned()
            ),
        ]
    );

    let groups: Vec<(&str, &str, &str, Vec<&str>)> = c
        .groups
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.description.as_str(),
                g.constant.as_str(),
                g.tools.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            (
                "reads",
                "Tools that only look.",
                "READS",
                vec!["list_items", "match"]
            ),
            (
                "admin",
                "Tools that change things.",
                "ADMIN",
                vec!["list_items", "reset"]
            ),
        ]
    );
    let memberships: Vec<(&str, &[String])> = c
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.groups.as_slice()))
        .collect();
    assert_eq!(
        memberships,
        [
            ("list_items", &["reads".to_owned(), "admin".to_owned()][..]),
            ("reset", &["admin".to_owned()][..]),
            ("match", &["reads".to_owned()][..]),
        ]
    );

    assert_eq!(c.resources.len(), 2);
    let readme = &c.resources[0];
    assert_eq!(readme.name, "readme");
    assert_eq!(readme.uri, ResourceUri::Fixed("demo:///README.md".into()));
    assert_eq!(readme.title, "The readme");
    assert_eq!(readme.description, "The project's readme.");
    assert_eq!(readme.mime_type, "text/markdown");
    assert_eq!(readme.method, "readme_resource");
    let file = &c.resources[1];
    assert_eq!(
        file.uri,
        ResourceUri::Template {
            template: "demo:///files/{dir}/{fileName}".into(),
            variables: vec!["dir".into(), "fileName".into()],
        }
    );
    assert_eq!(file.method, "file_resource");
    assert_eq!(file.params_type, "FileParams");

    let list = tool_named(&c, "list_items");
    assert_eq!(
        list.artifacts,
        Some(ArtifactsDef {
            produces: vec![
                produced("workspace.directory", "/dir", false),
                produced("demo.item", "/ids/0", false),
                produced("demo.page", "/page", true),
            ],
            consumes: vec![
                consumed("workspace.directory", "/region", true),
                consumed("demo.item", "/window/start", false),
            ],
        })
    );
    assert!(list.encapsulates.is_empty());
    assert_eq!(
        tool_named(&c, "reset").encapsulates,
        ["list_items", "match"]
    );
    assert_eq!(tool_named(&c, "reset").artifacts, None);
    assert!(tool_named(&c, "match").encapsulates.is_empty());

    let headers: Vec<(&str, Option<&str>)> = list
        .parameters
        .iter()
        .map(|f| (f.name.as_str(), f.header.as_ref().map(|h| h.value.as_str())))
        .collect();
    assert_eq!(
        headers,
        [
            ("region", Some("Region")),
            ("limit", Some("Limit")),
            ("loud", Some("Loud")),
            ("window", None),
        ]
    );
    // The header on a shared type's use keeps the reference.
    assert!(matches!(
        field(&list.parameters, "region").schema.kind,
        Kind::Named(_)
    ));
    let Kind::Object(window) = &field(&list.parameters, "window").schema.kind else {
        panic!("`window` is an object");
    };
    assert_eq!(
        field(&window.fields, "start")
            .header
            .as_ref()
            .map(|h| h.value.as_str()),
        Some("Window-Start")
    );
    let OutputDef::Object { fields, .. } = &list.output else {
        panic!("`list_items` has a structured output");
    };
    assert!(fields.iter().all(|f| f.header.is_none()));
}

#[test]
fn the_planning_metadata_is_published_under_the_configured_keys_with_version_1() {
    let c = loads(EVERYTHING);
    let meta = |name: &str| tool_json(&c, tool_named(&c, name)).get("_meta").cloned();
    assert_eq!(
        meta("list_items"),
        Some(json!({
            "com.example/artifacts": {
                "version": 1,
                "produces": [
                    {"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"},
                    {"kind": "demo.item", "pointer": "/ids/0", "mode": "materialize"},
                    {"kind": "demo.page", "pointer": "/page", "mode": "materialize", "encoding": "json_array"},
                ],
                "consumes": [
                    {"kind": "workspace.directory", "pointer": "/region", "required": true},
                    {"kind": "demo.item", "pointer": "/window/start", "required": false},
                ],
            }
        }))
    );
    assert_eq!(
        meta("reset"),
        Some(json!({
            "com.example/composition": {
                "version": 1,
                "kind": "complete_operation",
                "encapsulates": [
                    {"kind": "tool", "method": "list_items"},
                    {"kind": "tool", "method": "match"},
                ],
            }
        }))
    );
    // Groups and resources publish nothing on a tool.
    assert_eq!(meta("match"), None);
}

#[test]
fn the_planning_metadata_has_default_keys_and_joins_the_static_meta() {
    let text = format!(
        "{}{}",
        produces(
            "workspace.directory",
            "/dir",
            "    _meta:\n      com.example/category: search\n    complete_operation: [pong]\n"
        ),
        tool("pong", "")
    );
    let c = loads(&text);
    let published = tool_json(&c, tool_named(&c, "find"));
    assert_eq!(
        published["_meta"],
        json!({
            "com.example/category": "search",
            "io.github.mcp-contract/artifacts": {
                "version": 1,
                "produces": [{"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"}],
                "consumes": [],
            },
            "io.github.mcp-contract/composition": {
                "version": 1,
                "kind": "complete_operation",
                "encapsulates": [{"kind": "tool", "method": "pong"}],
            },
        })
    );
}

/// Every `x-mcp-header` in a JSON value, as (JSON pointer of the annotated schema, name).
fn headers_in(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "x-mcp-header" {
                    out.push((at.to_owned(), v.as_str().unwrap_or_default().to_owned()));
                } else {
                    headers_in(v, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                headers_in(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// `value` without any `x-mcp-header` key.
fn without_headers(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "x-mcp-header")
                .map(|(k, v)| (k.clone(), without_headers(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_headers).collect()),
        other => other.clone(),
    }
}

#[test]
fn x_mcp_header_is_published_on_2026_07_28_only() {
    let c = loads(EVERYTHING);
    let modern = tools_list(&c, Revision::V2026_07_28);
    let mut found = Vec::new();
    headers_in(&modern, "", &mut found);
    let found: Vec<(&str, &str)> = found
        .iter()
        .map(|(at, name)| (at.as_str(), name.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/tools/0/inputSchema/properties/region", "Region"),
            ("/tools/0/inputSchema/properties/limit", "Limit"),
            ("/tools/0/inputSchema/properties/loud", "Loud"),
            (
                "/tools/0/inputSchema/properties/window/properties/start",
                "Window-Start"
            ),
        ]
    );
    // The shared type is inlined beside its header.
    assert_eq!(
        modern["tools"][0]["inputSchema"]["properties"]["region"],
        json!({
            "type": "string",
            "description": "Where.",
            "pattern": "^[a-z]+$",
            "examples": ["eu"],
            "x-mcp-header": "Region",
        })
    );
    assert_eq!(
        tool_json(&c, tool_named(&c, "list_items")),
        modern["tools"][0]
    );

    // 2025-11-25 does not define the annotation: the same tools without it, `_meta` kept.
    let legacy = tools_list(&c, Revision::V2025_11_25);
    let mut found = Vec::new();
    headers_in(&legacy, "", &mut found);
    assert_eq!(found, []);
    assert_eq!(legacy["tools"], without_headers(&modern["tools"]));
    assert!(legacy["tools"][0]["_meta"]["com.example/artifacts"].is_object());
}

// ---------------------------------------------------------------------------------------
// The reference lists every code.

/// The reference's table is the registry's, word for word: every code the loader can report
/// is a constant of the registry (no call site writes one as text), so nothing else can drift.
#[test]
fn the_reference_carries_the_registry_of_codes_verbatim() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("../docs/manifest.md"))
        .expect("docs/manifest.md is readable");
    let table = crate::diagnostic::codes::table();
    assert!(
        reference.contains(&table),
        "the Diagnostics section of docs/manifest.md must carry this table verbatim:\n{table}"
    );
}

#[test]
fn each_code_is_registered_once_in_kebab_case() {
    let mut seen = std::collections::BTreeSet::new();
    for code in crate::diagnostic::codes::CODES {
        let id = code.as_str();
        assert!(
            id.split('-').all(|w| !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
            "`{id}` is not lowercase words (or numbers, as in `utf-8`) joined by `-`"
        );
        assert!(seen.insert(id), "`{id}` is registered twice");
    }
}

// ---------------------------------------------------------------------------------------
// Every problem of a resource is reported, each once.

#[test]
fn a_bad_uri_hides_no_other_problem_of_its_resource() {
    let text = with(&format!("resources:\n{}", resource("r", "uri: /no-scheme")))
        .replace("title: Resource r", "title: \" \"")
        .replace("mime_type: text/plain", "mime_type: text");
    refused_at(
        &text,
        &[
            ("bad-uri", "tools.yaml:11:10"),
            ("empty-text", "tools.yaml:12:12"),
            ("bad-mime-type", "tools.yaml:14:16"),
        ],
    );
}

#[test]
fn a_duplicate_resource_name_hides_no_other_problem() {
    // The second `r` repeats the name (line 15) and has a bad template (line 16); its method,
    // the first's, is not reported as a second collision.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("r", "uri: x://a"),
        resource("r", "uri_template: x:///{+path}")
    ));
    refused_at(
        &text,
        &[
            ("duplicate-resource", "tools.yaml:15:11"),
            ("bad-uri-template", "tools.yaml:16:19"),
        ],
    );
}

#[test]
fn a_pointer_to_a_refused_property_is_not_also_unresolved() {
    // `dir` (line 16) has an unknown type, so it is not in the output the pointer resolves in.
    let text = produces("workspace.directory", "/dir", "").replacen(
        "type: string\n          description: The directory.",
        "type: Strng\n          description: The directory.",
        1,
    );
    single(
        &text,
        "unknown-type",
        "unknown type `Strng`",
        "tools.yaml:16:17",
    );
}
