//! Every rule between manifest values, checked at once.
//!
//! [`validate`] walks the decoded manifest, records a diagnostic for each broken rule and
//! builds the [`Contract`] from whatever is sound, so one build reports every problem. Each
//! module holds one concept and reads only what the steps before it built: the server, the
//! hints, the vocabulary and the shared types first, then the tools (each tool's headers as
//! it is built), then what refers across tools (planning, groups), then resources, prompts and
//! who may call what, and last the examples, which need every shared type.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::manifest::Manifest;
use crate::model::Contract;
use crate::source::{Source, Span, Spanned};

pub(crate) use lifecycle::past_removal;

mod access;
mod apps;
mod content;
mod documents;
mod examples;
mod groups;
mod headers;
mod hints;
mod icons;
mod image;
mod key_paths;
mod lifecycle;
mod meta;
mod names;
mod placeholders;
mod planning;
mod prompts;
mod questions;
mod refused;
mod resources;
mod schema;
mod server;
mod tasks;
#[cfg(test)]
pub(crate) mod tests;
mod tools;
mod types;
mod unions;
mod vocabulary;

/// Checks a decoded manifest and builds the contract from it.
pub(crate) fn validate<'d>(
    manifest: &Manifest,
    source: &'d Source,
    diags: &'d mut Diagnostics,
) -> Contract {
    let mut v = Validator {
        text: &source.text,
        dir: source.dir(),
        diags,
        rust_types: names::NameTable::default(),
        examples: Vec::new(),
        refused: refused::Refused::default(),
        question_ids: names::NameTable::default(),
        document_files: Vec::new(),
    };
    let server = v.server(manifest.server.as_ref());
    let omit = v.policy(manifest.hint_policy.as_ref());
    let effects = v.effects(&manifest.effects);
    let sentences = v.sentences(&manifest.sentences);
    let argument_codes = v.argument_codes(manifest.argument_codes.as_ref());
    let errors = v.errors(&manifest.errors, &argument_codes);
    let index: HashMap<String, usize> = manifest
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.value.clone(), i))
        .collect();
    let scope = schema::Scope {
        index: &index,
        types: &manifest.types,
    };
    let types = v.types(&scope);
    let planning = v.planning(manifest);
    let mut contract = Contract {
        source_name: source.name.clone(),
        server,
        sentences,
        errors,
        argument_codes,
        types,
        tools: Vec::new(),
        planning,
        groups: Vec::new(),
        resources: Vec::new(),
        prompts: Vec::new(),
        access: None,
        document_files: Vec::new(),
    };
    let cx = tools::Context {
        manifest,
        effects: &effects,
        omit: &omit,
        scope: &scope,
    };
    let methods = v.tools(&cx, &mut contract);
    v.relations(manifest, &mut contract);
    contract.resources = v.resources(manifest, &methods, &scope);
    v.tool_apps(manifest, &mut contract);
    contract.prompts = v.prompts(manifest, &methods, &scope, &mut contract);
    v.lifecycles(manifest, &mut contract);
    v.access(manifest, &mut contract);
    v.unused_errors(manifest, &contract);
    v.placeholders_match_parameters(manifest, &contract);
    v.check_examples(&contract);
    contract.document_files = std::mem::take(&mut v.document_files);
    contract
}

/// The rules' shared state: where findings go, and what earlier rules claimed or refused.
struct Validator<'d> {
    /// The manifest's text, for rules that point inside a value (a placeholder in a block
    /// scalar, whose text is not the source's).
    text: &'d str,
    /// The manifest's folder, which icon files are relative to.
    dir: &'d std::path::Path,
    diags: &'d mut Diagnostics,
    /// Every Rust type name emitted, with where it comes from.
    rust_types: names::NameTable,
    /// Examples and defaults, checked once every shared type is built.
    examples: Vec<examples::PendingExample>,
    /// What earlier rules refused, which later ones skip.
    refused: refused::Refused,
    /// The question ids claimed so far, across tools.
    question_ids: names::NameTable,
    /// The JSON Schema document files read, for `cargo::rerun-if-changed`.
    document_files: Vec<std::path::PathBuf>,
}

impl Validator<'_> {
    /// Reports a finding whose help the registry fixes.
    fn report(&mut self, code: &'static Code, message: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::new(code, message, span));
    }

    /// Reports a finding with the help this case calls for.
    fn error(
        &mut self,
        code: &'static Code,
        message: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::new(code, message, span).help(help));
    }

    /// The trimmed text of an optional field; written but blank, it is reported
    /// (`empty-text`) with `message` and `help`.
    fn text(
        &mut self,
        field: &Option<Spanned<String>>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> String {
        let Some(f) = field else {
            return String::new();
        };
        let text = f.value.trim();
        if text.is_empty() {
            self.error(&crate::diagnostic::codes::EMPTY_TEXT, message, f.span, help);
        }
        text.to_owned()
    }
}
