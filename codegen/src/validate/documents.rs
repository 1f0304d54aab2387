//! JSON Schema documents a manifest gives whole, for what its types do not model: one
//! parameter or field (`json_schema:`), or a tool's whole input (`input_schema:`) or output
//! (`output: {json_schema: …}`). Each is read (written in place, or a JSON file beside the
//! manifest), compiled by the checker that enforces it at run time (which checks each
//! keyword's value as the 2020-12 metaschema does), and held to what its place needs; it is
//! then published exactly as written.

use std::path::{Component, Path};

use serde_json::Value;

use super::Validator;
use crate::diagnostic::codes;
use crate::manifest::{self as raw, DocumentSource};
use crate::source::Span;
use mcp_contract_spec::check::{Checker, schema_objects};

/// Where a document stands, which decides what it must say.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// One parameter or field: a subschema of the tool's schema.
    Property,
    /// A tool's whole `inputSchema`.
    Input,
    /// A tool's whole `outputSchema`.
    Output,
}

/// Keywords that resolve against the root of the resource they stand in: in one property's
/// document, that root is the tool's whole schema, not the document.
const ROOT_KEYWORDS: [&str; 5] = ["$ref", "$defs", "$anchor", "$schema", "$id"];

impl Validator<'_> {
    /// The document, read and checked for `role`; `None` (reported) when it cannot be used.
    pub(super) fn document(&mut self, d: &raw::Document, role: Role) -> Option<Value> {
        let (value, place) = match &d.source {
            DocumentSource::Inline(literal) => (literal.value.clone(), Written::Inline(literal)),
            DocumentSource::File(file) => (self.document_file(file)?, Written::File(file)),
        };
        let at = |pointer: &str| match place {
            Written::Inline(literal) => (literal.span_at(pointer), String::new()),
            Written::File(file) => (file.span, format!("`{}`: ", file.value)),
        };
        if role == Role::Property {
            for (pointer, keywords) in schema_objects(&value) {
                if let Some(keyword) = ROOT_KEYWORDS.iter().find(|k| keywords.contains_key(**k)) {
                    let (span, file) = at(&format!("{pointer}/{keyword}"));
                    self.error(
                        &codes::JSON_SCHEMA_PLACEMENT,
                        format!("{file}`{keyword}` in the document of one parameter or field would resolve against the tool's whole schema"),
                        span,
                        "give the tool's whole input as `input_schema:` (or its output as `output: {json_schema: …}`), where the document is the root",
                    );
                    return None;
                }
            }
        } else {
            let which = if role == Role::Input {
                "inputSchema"
            } else {
                "outputSchema"
            };
            if value.get("type") != Some(&Value::from("object")) {
                let (span, file) = at("/type");
                self.error(
                    &codes::JSON_SCHEMA_PLACEMENT,
                    format!("{file}the root of a tool's `{which}` must say `type: object`"),
                    span,
                    "MCP publishes a tool's arguments and structured result as objects: write `type: object` at the document's root",
                );
                return None;
            }
            if role == Role::Input && value.get("additionalProperties") != Some(&Value::Bool(false))
            {
                let (span, file) = at("/additionalProperties");
                self.error(
                    &codes::JSON_SCHEMA_PLACEMENT,
                    format!("{file}the root of a tool's `inputSchema` must say `additionalProperties: false`"),
                    span,
                    "inputs are closed, so a misspelt argument is named instead of ignored: write `additionalProperties: false` at the document's root",
                );
                return None;
            }
        }
        if let Err(e) = Checker::compile(&value) {
            let (span, file) = at(&e.at);
            let place = if e.at.is_empty() {
                "the root".to_owned()
            } else {
                format!("`{}`", e.at)
            };
            self.error(
                &codes::BAD_JSON_SCHEMA,
                format!("{file}{place} {}", e.message),
                span,
                "the document must be JSON Schema 2020-12 that the run-time checks enforce as published",
            );
            return None;
        }
        self.document_examples(&value, &at);
        Some(value)
    }

    /// The document's own `examples`, each against the whole document.
    fn document_examples(&mut self, value: &Value, at: &dyn Fn(&str) -> (Span, String)) {
        let Ok(checker) = Checker::compile(value) else {
            return;
        };
        let examples = value.get("examples").and_then(Value::as_array);
        for (i, example) in examples.into_iter().flatten().enumerate() {
            let problems: Vec<String> = checker
                .failures(example)
                .into_iter()
                .map(|f| {
                    if f.at.is_empty() {
                        f.message
                    } else {
                        format!("at `{}`: {}", f.at, f.message)
                    }
                })
                .collect();
            if !problems.is_empty() {
                let (span, file) = at(&format!("/examples/{i}"));
                self.error(
                    &codes::INVALID_EXAMPLE,
                    format!(
                        "{file}this example does not match its own schema: {}",
                        problems.join("; ")
                    ),
                    span,
                    "change the example so it satisfies the document",
                );
            }
        }
    }

    /// The JSON of a document file beside the manifest.
    fn document_file(&mut self, file: &crate::source::Spanned<String>) -> Option<Value> {
        let relative = Path::new(&file.value);
        let inside = !file.value.is_empty()
            && !file.value.contains('\\')
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        let read = if inside {
            std::fs::read_to_string(self.dir.join(relative))
                .map_err(|e| format!("cannot read `{}`: {e}", file.value))
                .and_then(|text| {
                    serde_json::from_str(&text)
                        .map_err(|e| format!("`{}` is not JSON: {e}", file.value))
                })
        } else {
            Err(format!(
                "`{}` is not a path inside the manifest's folder",
                file.value
            ))
        };
        match read {
            Ok(value) => {
                self.document_files.push(self.dir.join(relative));
                Some(value)
            }
            Err(problem) => {
                self.error(
                    &codes::BAD_JSON_SCHEMA,
                    problem,
                    file.span,
                    format!(
                        "write a JSON file's path relative to the manifest's folder, `{}`, with `/` and without `..`",
                        self.dir.display()
                    ),
                );
                None
            }
        }
    }
}

/// Where a document's parts are written, for pointing at them.
#[derive(Clone, Copy)]
enum Written<'a> {
    Inline(&'a raw::Literal),
    File(&'a crate::source::Spanned<String>),
}
