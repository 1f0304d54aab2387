//! Prompts and completions: each rule's code, message and place, and the model a valid
//! prompt builds.

use super::{loads, refused_at, single, with};
use crate::model::CompletionDef;

/// A prompt named `name` on line 10 (the name at column 11), then `extra`, which continues
/// it at four spaces.
fn prompt(name: &str, extra: &str) -> String {
    format!(
        "prompts:\n  - name: {name}\n    title: Prompt {name}\n    description: Does {name}.\n{extra}"
    )
}

/// One argument `name` (its key on line 14, column 7) with these lines at eight spaces.
fn argument(name: &str, lines: &str) -> String {
    format!("    arguments:\n      {name}:\n        description: The {name}.\n{lines}")
}

#[test]
fn a_prompt_builds_its_method_arguments_struct_and_completions() {
    let text = with(&format!(
        "sentences:\n  calm: It changes nothing.\n{}",
        prompt(
            "review_file",
            "    sentences: [calm]\n    arguments:\n      filePath:\n        description: The file.\n        required: true\n        completion: handler\n      tone:\n        description: The tone.\n        completion: [brief, formal]\n",
        )
    ));
    let contract = loads(&text);
    let p = &contract.prompts[0];
    assert_eq!(p.method, "review_file_prompt");
    assert_eq!(p.args_type, "ReviewFilePromptArgs");
    assert_eq!(p.description, "Does review_file. It changes nothing.");
    let [path, tone] = &p.arguments[..] else {
        panic!("two arguments")
    };
    assert_eq!((path.field.as_str(), path.required), ("file_path", true));
    assert_eq!(
        path.completion,
        Some(CompletionDef::Handler {
            method: "complete_review_file_file_path".into()
        })
    );
    assert!(!tone.required);
    assert_eq!(
        tone.completion,
        Some(CompletionDef::Values(vec!["brief".into(), "formal".into()]))
    );
    assert_eq!(
        contract.completion_handlers(),
        ["complete_review_file_file_path"]
    );
}

#[test]
fn bad_prompt_name() {
    let d = single(
        &with(&prompt("Review-File", "")),
        "bad-prompt-name",
        "`Review-File` is not a valid prompt name",
        "tools.yaml:10:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "prompt names are snake_case like tool names; argument names are a letter, then letters, digits or `_`"
        )
    );
    single(
        &with(&prompt("p", &argument("file-path", ""))),
        "bad-prompt-name",
        "`file-path` is not a valid prompt argument name",
        "tools.yaml:14:7",
    );
}

#[test]
fn duplicate_prompt() {
    let text = with(&format!(
        "{}{}",
        prompt("p", ""),
        prompt("p", "").replacen("prompts:\n", "", 1)
    ));
    refused_at(&text, &[("duplicate-prompt", "tools.yaml:13:11")]);
}

#[test]
fn bad_completion() {
    for (lines, message, at) in [
        (
            "        completion: maybe\n",
            "`completion` must be a list of values or `handler`",
            "tools.yaml:16:21",
        ),
        (
            "        completion: []\n",
            "a completion list needs at least one value",
            "tools.yaml:16:21",
        ),
        (
            "        completion: [a, b, a]\n",
            "`a` is listed twice",
            "tools.yaml:16:28",
        ),
    ] {
        single(
            &with(&prompt("p", &argument("x", lines))),
            "bad-completion",
            message,
            at,
        );
    }
    let resource = "resources:\n  - name: item\n    uri_template: x://items/{id}\n    title: Item\n    description: An item.\n    mime_type: text/plain\n    completion:\n      name: [a]\n";
    single(
        &with(resource),
        "bad-completion",
        "the resource `item` has no template variable `{name}` to complete",
        "tools.yaml:16:7",
    );
    let fixed = resource.replace("uri_template: x://items/{id}", "uri: x://items");
    single(
        &with(&fixed),
        "bad-completion",
        "the resource `item` has no template variable `{name}` to complete",
        "tools.yaml:16:7",
    );
}

#[test]
fn completion_methods_that_meet_are_an_ident_collision() {
    // `a` + `b_c` and `a_b` + `c` both give `complete_a_b_c`.
    let text = with(&format!(
        "{}{}",
        prompt("a", &argument("b_c", "        completion: handler\n")),
        prompt("a_b", &argument("c", "        completion: handler\n")).replacen(
            "prompts:\n",
            "",
            1
        )
    ));
    let diags = refused_at(&text, &[("ident-collision", "tools.yaml:21:7")]);
    assert!(
        diags[0].message.contains("complete_a_b_c"),
        "{}",
        diags[0].message
    );
}

#[test]
fn a_prompt_method_may_not_repeat_a_tools() {
    let text = with(&prompt("ping", "")).replace(
        "- name: ping\n    title: Ping",
        "- name: ping_prompt\n    title: Ping",
    );
    refused_at(&text, &[("ident-collision", "tools.yaml:10:11")]);
}
