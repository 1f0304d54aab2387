//! Each question a tool, prompt or resource declares: a struct of its form's typed fields, its
//! `Form` impl (the `requestedSchema` the model states) and `ask`, which asks it with the
//! manifest's id and message.

use super::*;

/// The items of every question of `t`.
pub(super) fn question_items(w: &mut Code, c: &Contract, t: &ToolDef) {
    for q in &t.questions {
        question(w, c, &t.name, q);
    }
}

/// The items of every question of the prompts and resources.
pub(super) fn other_question_items(w: &mut Code, c: &Contract) {
    let prompts = c.prompts.iter().map(|p| (&p.name, &p.questions));
    let resources = c.resources.iter().map(|r| (&r.name, &r.questions));
    for (owner, questions) in prompts.chain(resources) {
        for q in questions {
            question(w, c, owner, q);
        }
    }
}

/// One question of the tool, prompt or resource `owner`.
fn question(w: &mut Code, c: &Contract, owner: &str, q: &QuestionDef) {
    let name = &q.rust_name;
    let id = &q.id;
    let args: Vec<String> = q.placeholders.iter().map(|p| ident_of(p)).collect();
    let ask_doc = format!(
        "Asks the user `{id}`{}. Await it before anything the answer decides: on 2026-07-28 the handler runs again from the start once the client answers.",
        if args.is_empty() {
            String::new()
        } else {
            format!(
                ", its message filled with {}",
                q.placeholders
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let mut params = vec!["context: &::mcp_contract::Context".to_owned()];
    if matches!(q.mode, QuestionMode::Url) {
        params.push("url: &str".into());
    }
    params.extend(
        args.iter()
            .map(|a| format!("{a}: impl ::std::fmt::Display")),
    );
    let message = message(q);
    let answer = match &q.mode {
        QuestionMode::Form(fields) => {
            let summary = format!(
                "The answer to `{id}`, a question `{owner}` may ask: “{}”",
                q.message.source
            );
            let plain: Vec<Field> = fields.iter().map(|f| f.field.clone()).collect();
            struct_item(w, c, name, &plain, &summary, false, Role::Form);
            for f in &plain {
                type_items(w, c, &f.schema, "", false, Role::Form);
            }
            let schema = q
                .requested_schema()
                .map(|s| serde_json::to_string(&s).unwrap_or_default())
                .unwrap_or_default();
            // `Form` requires `Deserialize`: it reads the answer as arguments are read.
            ln!(
                w,
                0,
                "impl<'de> ::mcp_contract::serde::Deserialize<'de> for {name} {{"
            );
            w.line(
                1,
                &["fn deserialize<D: ::mcp_contract::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {"],
            );
            w.line(2, &["::mcp_contract::codegen::deserialize(d)"]);
            w.line(1, &["}"]);
            w.line(0, &["}"]);
            ln!(w, 0, "impl ::mcp_contract::ask::Form for {name} {{");
            w.line(
                1,
                &["fn requested_schema() -> ::mcp_contract::serde_json::Value {"],
            );
            ln!(
                w,
                2,
                "::mcp_contract::serde_json::from_str({})",
                text::json_text(&schema)
            );
            w.line(3, &[".expect(\"the manifest's requestedSchema is JSON\")"]);
            w.line(1, &["}"]);
            w.line(0, &["}"]);
            "Self"
        }
        QuestionMode::Url => {
            w.doc(
                0,
                &format!(
                    "`{id}`, a question `{owner}` may ask on a page of its own (URL mode): “{}”",
                    q.message.source
                ),
            );
            w.line(0, &["#[derive(Debug, Clone, Copy, PartialEq, Eq)]"]);
            ln!(w, 0, "pub struct {name};");
            "()"
        }
    };
    w.line(0, &["#[allow(dead_code)]"]);
    ln!(w, 0, "impl {name} {{");
    w.doc(1, "The question's id, which keys it and its answer.");
    ln!(w, 1, "pub const ID: &str = {};", string(id));
    w.doc(1, &ask_doc);
    let result =
        format!("Result<::mcp_contract::ask::Answer<{answer}>, ::mcp_contract::ask::NotAsked>");
    if matches!(q.mode, QuestionMode::Url) {
        w.doc(
            1,
            "The user is sent to `url`, where the server collects the answer itself.",
        );
    }
    w.list(
        1,
        "pub async fn ask(",
        &params,
        &format!(") -> {result} {{"),
    );
    let message = if q.placeholders.is_empty() {
        message
    } else {
        ln!(w, 2, "let message = {message};");
        "&message".into()
    };
    match q.mode {
        QuestionMode::Form(_) => ln!(w, 2, "context.elicit_form(Self::ID, {message}).await"),
        QuestionMode::Url => ln!(w, 2, "context.elicit_url(Self::ID, {message}, url).await"),
    }
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

/// A placeholder's Rust argument name.
fn ident_of(placeholder: &str) -> String {
    crate::ident::snake(placeholder)
}

/// The message as a `&str` literal, or a `String` expression over the `ask` arguments it names.
fn message(q: &QuestionDef) -> String {
    let (format, plain) = super::errors::format_string(&q.message, ident_of);
    if q.placeholders.is_empty() {
        string(&plain)
    } else {
        format!("format!({})", string(&format))
    }
}
