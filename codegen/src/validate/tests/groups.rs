//! Groups: their names, descriptions and constants, and the tools that list them.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{VALID, loads, related_at, single, tool, with};

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
