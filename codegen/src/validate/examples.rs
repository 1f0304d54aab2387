//! Examples and defaults, checked against their own schemas once every shared type is known.

use std::collections::HashMap;

use mcp_contract_spec::check::Checker;
use serde_json::Value;

use super::Validator;
use crate::diagnostic::codes;
use crate::manifest as raw;
use crate::model::{Contract, Kind, RustInteger, Schema};

/// An example or default waiting to be checked once every shared type is known.
pub(super) struct PendingExample {
    pub(super) schema: Schema,
    pub(super) literal: raw::Literal,
    pub(super) what: &'static str,
}

impl Validator<'_> {
    /// Validates every example and default against its own schema as published, with the
    /// checker the runtime checks calls with (held to the `jsonschema` crate in the tests), so
    /// an example the build accepts is one a call may copy.
    pub(super) fn check_examples(&mut self, contract: &Contract) {
        // Most values share their schema's assertions with others (the same `type: string,
        // minLength: 1` for every `path`): each distinct set is compiled once.
        let mut compiled = HashMap::new();
        for pending in std::mem::take(&mut self.examples) {
            // A broken type stands in as a plain string, a recursive one would inline
            // forever, and an object that lost a property refuses it; each is reported where
            // it is written, so values holding one wait.
            if self.refused.within(&contract.types, &pending.schema) {
                continue;
            }
            self.check_example(contract, &pending, &mut compiled);
        }
    }

    fn check_example(
        &mut self,
        contract: &Contract,
        pending: &PendingExample,
        compiled: &mut HashMap<String, Option<Checker>>,
    ) {
        let mut schema = contract.value_schema(&pending.schema);
        without_annotations(&mut schema);
        let checker = compiled
            .entry(schema.to_string())
            .or_insert_with(|| Checker::compile(&schema).ok());
        let Some(checker) = checker else {
            return; // a broken pattern is reported where it is written
        };
        let value = &pending.literal.value;
        let what = pending.what;
        let mut first = None;
        let problems: Vec<String> = checker
            .failures(value)
            .into_iter()
            .map(|f| {
                first.get_or_insert_with(|| pending.literal.span_at(&f.at));
                if f.at.is_empty() {
                    f.message
                } else {
                    format!("at `{}`: {}", f.at, f.message)
                }
            })
            .collect();
        // The caret goes under the part the first problem names (`0` at `/start`).
        if let Some(span) = first {
            self.error(
                &codes::INVALID_EXAMPLE,
                format!(
                    "this {what} does not match its own schema: {}",
                    problems.join("; ")
                ),
                span,
                format!(
                    "change the {what} so it satisfies the type and constraints declared beside it"
                ),
            );
        } else if let Some((at, ty)) = contract.integer_out_of_range(&pending.schema, value, "") {
            // A value a call could copy, or the handler receive, must fit its Rust type.
            let place = if at.is_empty() {
                String::new()
            } else {
                format!(" at `{at}`")
            };
            let code = if what == "default" {
                &codes::DEFAULT_OUT_OF_RANGE
            } else {
                &codes::INVALID_EXAMPLE
            };
            self.error(
                code,
                format!(
                    "this {what} holds an integer{place} that the generated `{}` cannot",
                    ty.name()
                ),
                pending.literal.span_at(&at),
                if ty == RustInteger::U64 {
                    format!(
                        "the handler receives the {what} as a `u64`: keep it at most 18446744073709551615"
                    )
                } else {
                    format!(
                        "the handler receives the {what} as an `i64`: keep it from -9223372036854775808 to 9223372036854775807, or add `minimum: 0` for a `u64`"
                    )
                },
            );
        }
    }
}

/// A schema with the annotations that never change what it accepts (`description`,
/// `examples`) removed from every node, so schemas that assert the same share a checker.
fn without_annotations(schema: &mut Value) {
    let Value::Object(node) = schema else {
        return;
    };
    node.remove("description");
    node.remove("examples");
    if let Some(items) = node.get_mut("items") {
        without_annotations(items);
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        properties.values_mut().for_each(without_annotations);
    }
    if let Some(Value::Array(variants)) = node.get_mut("oneOf") {
        variants.iter_mut().for_each(without_annotations);
    }
}

/// Gives nested properties that have no examples the values their parent's examples hold.
pub(super) fn derive_nested_examples(schema: &mut Schema) {
    let Kind::Object(obj) = &mut schema.kind else {
        return;
    };
    for field in &mut obj.fields {
        if field.schema.examples.is_empty() {
            field.schema.examples = schema
                .examples
                .iter()
                .filter_map(|e| e.get(&field.name).cloned())
                .collect();
        }
    }
}
