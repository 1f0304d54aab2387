//! The questions a tool, prompt or resource may ask its user, compared by id. A client that cannot elicit is
//! never asked, so a question added or removed breaks no call; a form that now demands an
//! answer the old one did not (a field newly required, a field's kind or limits changed, a
//! form become a URL or back) breaks a client that answers it programmatically.

use serde_json::Value;

use super::compare::{Differ, Side};
use super::rules::*;
use crate::model::{QuestionDef, QuestionMode};

impl Differ<'_> {
    /// Each question of `owner` (`tool `x``, `prompt `x``, …) at `path`: added, removed,
    /// narrowed or otherwise changed.
    pub(super) fn questions(
        &mut self,
        owner: &str,
        old: &[QuestionDef],
        new: &[QuestionDef],
        path: &str,
    ) {
        for q in new {
            let at = format!("{path}.asks[{}]", q.id);
            match old.iter().find(|x| x.id == q.id) {
                None => self.push(
                    &QUESTION_ADDED,
                    format!("{owner} may now ask `{}`", q.id),
                    at,
                    Side::New,
                    q.span,
                ),
                Some(old) => {
                    if let Some(rule) = changed(old, q) {
                        let how = if std::ptr::eq(rule, &QUESTION_NARROWED) {
                            "now demands an answer its old form did not"
                        } else {
                            "changed what it shows"
                        };
                        self.push(
                            rule,
                            format!("the question `{}` of {owner} {how}", q.id),
                            at,
                            Side::New,
                            q.span,
                        );
                    }
                }
            }
        }
        for q in old.iter().filter(|q| !new.iter().any(|x| x.id == q.id)) {
            self.push(
                &QUESTION_REMOVED,
                format!("{owner} no longer asks `{}`", q.id),
                format!("{path}.asks[{}]", q.id),
                Side::Old,
                q.span,
            );
        }
    }
}

/// The rule a changed question falls under, if it changed at all.
fn changed(old: &QuestionDef, new: &QuestionDef) -> Option<&'static Rule> {
    let (os, ns) = (old.requested_schema(), new.requested_schema());
    if os == ns && old.message == new.message {
        return None;
    }
    let same_mode = matches!(
        (&old.mode, &new.mode),
        (QuestionMode::Url, QuestionMode::Url) | (QuestionMode::Form(_), QuestionMode::Form(_))
    );
    let narrowed = !same_mode
        || new.fields().iter().any(|f| {
            let name = &f.field.name;
            match old.fields().iter().find(|x| &x.field.name == name) {
                None => f.field.required,
                Some(x) => {
                    (f.field.required && !x.field.required)
                        || answers(&field(ns.as_ref(), name)) != answers(&field(os.as_ref(), name))
                }
            }
        });
    Some(if narrowed {
        &QUESTION_NARROWED
    } else {
        &QUESTION_CHANGED
    })
}

/// A field's schema in a form.
fn field(schema: Option<&Value>, name: &str) -> Value {
    schema
        .and_then(|s| {
            s.pointer(&format!(
                "/properties/{}",
                mcp_contract_spec::pointer::escape(name)
            ))
        })
        .cloned()
        .unwrap_or(Value::Null)
}

/// What of a field's schema decides which answers fit: all but what people read (its title,
/// description, the values' titles) and its default.
fn answers(schema: &Value) -> Value {
    fn strip(v: &Value) -> Value {
        match v {
            Value::Object(o) => Value::Object(
                o.iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "title" | "description" | "default"))
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    strip(schema)
}
