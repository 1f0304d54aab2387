//! Each entry's `since:`, `deprecated:` and `aliases:`, and `past-removal`.

use super::{loads, refused_at, related_at, second_tool, single, tool_json, with};
use crate::model::Date;
use crate::validate::past_removal;
use crate::{Severity, Source, load};

/// [`VALID`](super::VALID)'s `ping`, then `pong` deprecated in favour of it; lines from 14 on
/// continue `pong`.
fn deprecated_pong(deprecation: &str) -> String {
    format!(
        "{}    deprecated:\n{deprecation}",
        second_tool("pong", "Pong")
    )
}

#[test]
fn a_deprecated_tool_publishes_its_sentence_and_lifecycle() {
    let text = format!(
        "{}    since: 0.3.0\n",
        deprecated_pong(
            "      since: 0.4.0\n      reason: Pong is ping spelt backwards\n      replaced_by: ping\n      remove_after: 2027-06-30\n"
        )
    );
    let contract = loads(&text.replace(
        "    output: text\n  - name: pong",
        "    output: text\n    aliases: [ping_old]\n  - name: pong",
    ));
    let pong = tool_json(&contract, &contract.tools[1]);
    assert_eq!(
        pong["description"],
        "Answers pong again. Deprecated: Pong is ping spelt backwards. Use the tool `ping` \
         instead. It may be removed after 2027-06-30."
    );
    assert_eq!(
        pong["_meta"]["io.github.mcp-contract/lifecycle"],
        serde_json::json!({
            "state": "deprecated",
            "since": "0.3.0",
            "deprecatedSince": "0.4.0",
            "reason": "Pong is ping spelt backwards",
            "replacedBy": "ping",
            "removeAfter": "2027-06-30",
        })
    );
    let ping = &contract.tools[0];
    assert_eq!(ping.lifecycle.aliases[0].name, "ping_old");
    assert_eq!(ping.lifecycle.aliases[0].constant, "PING_OLD");
    // An alias alone publishes nothing: it is served, not listed.
    assert!(tool_json(&contract, ping).get("_meta").is_none());
}

#[test]
fn a_remove_after_that_is_no_day_is_located() {
    let d = single(
        &deprecated_pong("      reason: Use ping.\n      remove_after: 2027-02-30\n"),
        "bad-date",
        "`2027-02-30` is not a date",
        "tools.yaml:16:21",
    );
    assert!(d.help.unwrap().contains("YYYY-MM-DD"));
}

#[test]
fn a_replacement_must_be_another_active_entry_of_the_kind() {
    let d = single(
        &deprecated_pong("      reason: Use ping.\n      replaced_by: pnig\n"),
        "bad-replacement",
        "no tool is called `pnig`",
        "tools.yaml:16:20",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `ping`?"));
    single(
        &deprecated_pong("      reason: Gone.\n      replaced_by: pong\n"),
        "bad-replacement",
        "the tool `pong` names itself as its replacement",
        "tools.yaml:16:20",
    );
    let both = deprecated_pong("      reason: Use ping.\n      replaced_by: ping\n").replace(
        "    output: text\n  - name: pong",
        "    output: text\n    deprecated: {reason: Going too.}\n  - name: pong",
    );
    single(
        &both,
        "bad-replacement",
        "the replacement `ping` is deprecated too",
        "tools.yaml:17:20",
    );
}

#[test]
fn a_since_is_a_semantic_version() {
    let d = single(
        &format!("{}    since: 1.2\n", second_tool("pong", "Pong")),
        "bad-version",
        "`1.2` is not a semantic version",
        "tools.yaml:14:12",
    );
    assert!(d.help.unwrap().contains("`1.2.0`"));
    single(
        &deprecated_pong("      since: next\n      reason: Use ping.\n"),
        "bad-version",
        "`next` is not a semantic version",
        "tools.yaml:15:14",
    );
    // A pre-release is a version a crate can state.
    loads(&format!(
        "{}    since: 2.0.0-rc.1\n",
        second_tool("pong", "Pong")
    ));
}

#[test]
fn an_alias_collides_with_no_name_or_alias() {
    single(
        &format!("{}    aliases: [ping]\n", second_tool("pong", "Pong")),
        "alias-collision",
        "the alias `ping` is the name of a tool",
        "tools.yaml:14:15",
    );
    let twice = format!("{}    aliases: [old]\n", second_tool("pong", "Pong")).replace(
        "    output: text\n  - name: pong",
        "    output: text\n    aliases: old\n  - name: pong",
    );
    let diags = refused_at(&twice, &[("alias-collision", "tools.yaml:15:15")]);
    assert_eq!(related_at(&diags[0], &twice, 0), "tools.yaml:9:14");
}

#[test]
fn an_alias_follows_the_name_grammar() {
    single(
        &with("    aliases: [Old Ping]\n"),
        "bad-alias",
        "`Old Ping` cannot be an alias of the tool `ping`",
        "tools.yaml:9:15",
    );
}

#[test]
fn a_prompt_and_a_resource_have_lifecycles_too() {
    let contract = loads(&with(
        "prompts:
  - name: review
    title: Review
    description: Reviews a change.
    aliases: [critique]
  - name: summary
    title: Summary
    description: Sums up a change.
    deprecated: {reason: Reviews sum up too., replaced_by: review}
resources:
  - name: readme
    uri: file:///README.md
    title: Read me
    description: The project's read-me.
    mime_type: text/markdown
    aliases: ['file:///README']
",
    ));
    assert_eq!(contract.prompts[0].lifecycle.aliases[0].name, "critique");
    assert_eq!(
        contract.prompts[1].description,
        "Sums up a change. Deprecated: Reviews sum up too. Use the prompt `review` instead."
    );
    assert_eq!(
        contract.resources[0].lifecycle.aliases[0].name,
        "file:///README"
    );
    single(
        &with(
            "prompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    deprecated: {reason: Old., replaced_by: ping}\n",
        ),
        "bad-replacement",
        "no prompt is called `ping`",
        "tools.yaml:13:45",
    );
}

#[test]
fn past_its_remove_after_an_entry_is_a_warning_or_when_denied_an_error() {
    let text = deprecated_pong("      reason: Use ping.\n      remove_after: 2027-06-30\n");
    let source = Source::new("tools.yaml", text.as_str());
    let contract = load(&source).unwrap().contract;
    let day = |d| Date::parse(d).unwrap();
    assert!(past_removal(&contract, day("2027-06-30"), false).is_empty());
    let late = past_removal(&contract, day("2027-07-01"), false);
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].code, "past-removal");
    assert_eq!(late[0].severity, Severity::Warning);
    assert_eq!(
        late[0].message,
        "the tool `pong` may be removed: its `remove_after` (2027-06-30) has passed"
    );
    assert_eq!(late[0].location(&source), "tools.yaml:16:21");
    let denied = past_removal(&contract, day("2027-07-01"), true);
    assert_eq!(denied[0].severity, Severity::Error);
}

#[test]
fn an_alias_may_have_a_window_of_its_own() {
    let text =
        with("    aliases:\n      - pong\n      - {name: pingg, remove_after: 2027-01-31}\n");
    let source = Source::new("tools.yaml", text.as_str());
    let contract = load(&source).unwrap().contract;
    let aliases = &contract.tools[0].lifecycle.aliases;
    assert_eq!(aliases[0].remove_after, None);
    assert_eq!(aliases[1].remove_after, Date::parse("2027-01-31"));
    let late = past_removal(&contract, Date::parse("2027-02-01").unwrap(), false);
    assert_eq!(
        late[0].message,
        "the alias `pingg` of the tool `ping` may be removed: its `remove_after` (2027-01-31) has passed"
    );
    assert_eq!(late[0].location(&source), "tools.yaml:11:37");
    single(
        &with("    aliases: [{name: pong, remove_after: soon}]\n"),
        "bad-date",
        "`soon` is not a date",
        "tools.yaml:9:42",
    );
}
