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

// Questions on prompts and resources: a tool's rules, codes and places.

#[test]
fn a_prompt_and_a_resource_ask_typed_questions() {
    let text = with(&format!(
        "{}resources:\n  - name: about\n    uri: demo://about\n    title: About\n    description: What.\n    mime_type: text/plain\n    asks:\n      show_all: {{message: Show all of it?, fields: {{yes: {{type: boolean}}}}}}\n",
        prompt(
            "review",
            "    asks:\n      depth:\n        message: How deep?\n        fields:\n          level: {type: integer, minimum: 1}\n",
        )
    ));
    let c = loads(&text);
    let q = &c.prompts[0].questions[0];
    assert_eq!((q.id.as_str(), q.rust_name.as_str()), ("depth", "Depth"));
    assert_eq!(
        q.requested_schema().unwrap(),
        serde_json::json!({
            "type": "object",
            "properties": {"level": {"type": "integer", "minimum": 1}},
            "required": ["level"],
        })
    );
    assert_eq!(c.resources[0].questions[0].rust_name, "ShowAll");
}

#[test]
fn a_bad_form_field_of_a_prompt_is_located_at_its_line() {
    let text = with(&prompt(
        "review",
        "    asks:\n      depth:\n        message: How deep?\n        fields:\n          level: {type: object}\n",
    ));
    let d = single(
        &text,
        "bad-form-field",
        "a form field cannot be `type: object`",
        "tools.yaml:17:25",
    );
    assert!(d.help.unwrap().starts_with("a form field is a string"));
}

#[test]
fn a_bad_question_mode_of_a_resource_is_located() {
    let text = with(
        "resources:\n  - name: about\n    uri: demo://about\n    title: About\n    description: What.\n    mime_type: text/plain\n    asks:\n      a: {message: A?, mode: page}\n",
    );
    refused_at(&text, &[("bad-question-mode", "tools.yaml:16:30")]);
}

#[test]
fn a_question_id_is_the_manifests_across_tools_and_prompts() {
    let text = with(&format!(
        "    asks:\n      sure: {{message: Sure?}}\n{}",
        prompt("review", "    asks:\n      sure: {message: Really?}\n")
    ));
    let d = single(
        &text,
        "duplicate-question",
        "the question `sure` is declared twice",
        "tools.yaml:16:7",
    );
    assert_eq!(d.related[0].0.start, text.find("sure").unwrap());
}
