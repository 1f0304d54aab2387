//! Questions a tool asks (`asks:`): ids, modes, form fields, and their templates.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{loads, refused, refused_at, single, with};
use crate::{Severity, Source, load, render_all};

/// [`VALID`] with one question on its tool, whose `fields:` lines (indented by ten
/// spaces) start on line 12.
fn asking(fields: &str) -> String {
    with(&format!(
        "    asks:\n      confirm_ping:\n        message: Ping `{{host}}`?\n        fields:\n{fields}"
    ))
}

#[test]
fn a_question_of_every_field_kind_loads() {
    let c = loads(&asking(
        "          ok: {type: boolean, title: Ping, default: false}
          email: {type: string, format: email, maxLength: 64, required: false}
          count: {type: integer, minimum: 1, maximum: 9}
          ratio: {type: number, description: How much.}
          size: {type: string, enum: [s, m], titles: {s: Small}, default: m}
          tags: {type: array, items: {type: string, enum: [a, b]}, minItems: 1, maxItems: 2}
",
    ));
    let q = &c.tools[0].questions[0];
    assert_eq!(
        (q.id.as_str(), q.rust_name.as_str()),
        ("confirm_ping", "ConfirmPing")
    );
    assert_eq!(q.placeholders, ["host"]);
    assert_eq!(
        q.requested_schema().unwrap(),
        serde_json::json!({
            "type": "object",
            "properties": {
                "ok": {"type": "boolean", "title": "Ping", "default": false},
                "email": {"type": "string", "format": "email", "maxLength": 64},
                "count": {"type": "integer", "minimum": 1, "maximum": 9},
                "ratio": {"type": "number", "description": "How much."},
                "size": {"type": "string", "oneOf": [
                    {"const": "s", "title": "Small"}, {"const": "m", "title": "m"}
                ], "default": "m"},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]},
                         "minItems": 1, "maxItems": 2},
            },
            "required": ["count", "ratio", "tags"],
        })
    );
}

#[test]
fn a_url_question_has_no_fields_and_no_schema() {
    let c = loads(&with(
        "    asks:\n      sign_in:\n        message: Sign in to continue.\n        mode: url\n",
    ));
    let q = &c.tools[0].questions[0];
    assert!(matches!(q.mode, crate::model::QuestionMode::Url));
    assert_eq!(q.requested_schema(), None);
}

#[test]
fn bad_question_id() {
    let text = with("    asks:\n      Confirm-Ping:\n        message: Sure?\n");
    let d = single(
        &text,
        "bad-question-id",
        "`Confirm-Ping` is not a valid question id",
        "tools.yaml:10:7",
    );
    assert!(d.help.unwrap().starts_with("question ids are snake_case"));
}

#[test]
fn duplicate_question_across_tools() {
    let text = with(
        "    asks:\n      sure: {message: Sure?}
  - name: pong
    title: Pong
    description: Answers ping.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    asks:
      sure: {message: Really?}
",
    );
    let d = single(
        &text,
        "duplicate-question",
        "the question `sure` is declared twice",
        "tools.yaml:17:7",
    );
    assert_eq!(d.related[0].0.start, text.find("sure").unwrap());
}

#[test]
fn a_question_type_clashing_with_another_is_an_ident_collision() {
    let text = with("    asks:\n      ping_args: {message: Sure?}\n");
    single(
        &text,
        "ident-collision",
        "the arguments type `PingArgs` would be generated twice",
        "tools.yaml:4:11",
    );
}

#[test]
fn bad_question_mode() {
    refused_at(
        &with(
            "    asks:\n      a: {message: A?, mode: page}\n      b: {message: B?, mode: url, fields: {x: {type: string}}}\n",
        ),
        &[
            ("bad-question-mode", "tools.yaml:10:30"),
            ("bad-question-mode", "tools.yaml:11:43"),
        ],
    );
}

#[test]
fn bad_form_field_kinds() {
    let diags = refused_at(
        &asking(
            "          a: {type: object, properties: {x: {type: string}}}
          b: {type: json}
          c: {type: array, items: {type: string}}
          d: {type: string, pattern: \"^x$\"}
          e: {type: string, format: ipv4}
          f: {type: string, example: x}
          g: {type: boolean, titles: {x: X}}
          h: {type: string, enum: [x], titles: {y: Y}}
",
        ),
        &[
            ("bad-form-field", "tools.yaml:13:21"),
            ("bad-form-field", "tools.yaml:14:21"),
            ("bad-form-field", "tools.yaml:15:35"),
            ("bad-form-field", "tools.yaml:16:29"),
            ("bad-form-field", "tools.yaml:17:37"),
            ("bad-form-field", "tools.yaml:18:29"),
            ("bad-form-field", "tools.yaml:19:30"),
            ("bad-form-field", "tools.yaml:20:49"),
        ],
    );
    assert_eq!(diags[0].message, "a form field cannot be `type: object`");
    assert_eq!(
        diags[2].message,
        "the array `c` is not a multi-select: its items are not a string enum"
    );
    assert_eq!(diags[3].message, "a form field cannot have a `pattern`");
    assert_eq!(diags[4].message, "a form field cannot have `format: ipv4`");
    assert_eq!(diags[6].message, "`g` has `titles` but no enum");
    assert_eq!(diags[7].message, "`y` is not a value of `h`");
    assert_eq!(diags[7].help.as_deref(), Some("the values are: x"));
}

#[test]
fn a_form_default_must_fit_its_field() {
    let (source, diags) = refused(&asking(
        "          size: {type: string, enum: [s, m], default: l}
          n: {type: integer, maximum: 3, default: 4}
",
    ));
    let at: Vec<String> = diags.iter().map(|d| d.location(&source)).collect();
    assert_eq!(
        at,
        ["tools.yaml:13:55", "tools.yaml:14:51"],
        "{}",
        render_all(&diags, &source)
    );
}

#[test]
fn a_secret_form_field_is_warned_about() {
    let source = Source::new(
        "tools.yaml",
        asking("          api_key: {type: string}\n          user_password: {type: string}\n"),
    );
    let loaded = load(&source).expect("warnings only");
    let found: Vec<(&str, String, String)> = loaded
        .warnings
        .iter()
        .map(|d| (d.code.as_str(), d.message.clone(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            (
                "secret-form-field",
                "the form field `api_key` looks like a secret (`apikey`)".to_owned(),
                "tools.yaml:13:11".to_owned()
            ),
            (
                "secret-form-field",
                "the form field `user_password` looks like a secret (`password`)".to_owned(),
                "tools.yaml:14:11".to_owned()
            ),
        ]
    );
    assert_eq!(loaded.warnings[0].severity, Severity::Warning);
}

#[test]
fn a_question_message_is_a_template() {
    let text = with("    asks:\n      sure: {message: \"Sure {Host}?\"}\n");
    let (_, diags) = refused(&text);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "bad-template");
}

#[test]
fn a_placeholder_that_is_an_argument_of_ask_is_an_ident_collision() {
    single(
        &with("    asks:\n      sign_in: {message: \"Go to {url}\", mode: url}\n"),
        "ident-collision",
        "`{url}` becomes an argument of `SignIn::ask`, which already has `url`",
        "tools.yaml:10:26",
    );
    // In a form question, `url` is a placeholder like any other.
    loads(&with(
        "    asks:\n      sign_in: {message: \"Go to {url}\"}\n",
    ));
}
