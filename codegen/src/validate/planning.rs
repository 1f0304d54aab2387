//! Planning metadata: the artifact contract and complete operations, checked once
//! every tool is built, since they refer to each other; tools' groups are filled in here too.
//!
//! The rules come from `mcp_contract_spec::planning`, which the runtime's
//! `mcp_contract::client::metadata` parsers apply to any server's `tools/list`; here they are proved at
//! build time, with the manifest line to fix.

use std::collections::HashMap;

use mcp_contract_spec::check::InDocument;
use mcp_contract_spec::planning::{
    self as spec, CompositionProblem, Consumed, Encoding, Mode, Produced, WORKSPACE_DIRECTORY,
    is_kind,
};
use mcp_contract_spec::pointer::{self, SchemaNode};

use super::Validator;
use super::names::Referent;
use crate::diagnostic::codes;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::{Span, Spanned};

/// Kinds every manifest knows, with what each stands for.
pub(crate) const STANDARD_KINDS: [(&str, &str); 1] = [(
    WORKSPACE_DIRECTORY,
    "A validated workspace-relative directory.",
)];

impl Validator<'_> {
    /// The key paths and the kind vocabulary.
    pub(super) fn planning(&mut self, manifest: &Manifest) -> Planning {
        let (artifacts_key, composition_key) = self.planning_keys(manifest);
        Planning {
            artifacts_key,
            composition_key,
            kinds: self.kinds(manifest),
        }
    }

    /// The artifact kinds, standard ones first, with what each stands for.
    fn kinds(&mut self, manifest: &Manifest) -> Vec<(String, String)> {
        let mut kinds: Vec<(String, String)> = STANDARD_KINDS
            .iter()
            .map(|(k, d)| ((*k).to_owned(), (*d).to_owned()))
            .collect();
        for (name, description) in manifest.artifacts.iter().flat_map(|a| &a.kinds) {
            if !is_kind(&name.value) {
                self.report(
                    &codes::BAD_KIND,
                    format!("`{}` is not a valid artifact kind", name.value),
                    name.span,
                );
                self.refused.refuse(Referent::ArtifactKind, &name.value);
            } else if kinds.iter().any(|(k, _)| *k == name.value) {
                self.report(
                    &codes::DUPLICATE_KIND,
                    format!("`{}` is a standard kind", name.value),
                    name.span,
                );
            } else {
                if description.value.trim().is_empty() {
                    self.error(
                        &codes::EMPTY_TEXT,
                        format!("the description of the kind `{}` is empty", name.value),
                        description.span,
                        "say what the kind stands for",
                    );
                }
                kinds.push((name.value.clone(), description.value.trim().to_owned()));
            }
        }
        kinds
    }

    /// Fills each built tool's artifacts, composition and groups, and the contract's groups.
    pub(super) fn relations(&mut self, manifest: &Manifest, contract: &mut Contract) {
        let groups = self.groups(manifest);
        let mut membership_reported = false;
        // Built tools by where their name is written: a lookup per entry keeps this linear.
        let built: HashMap<Span, usize> = contract
            .tools
            .iter()
            .enumerate()
            .map(|(i, b)| (b.span, i))
            .collect();
        for t in &manifest.tools {
            // The tool this entry built; an entry skipped for its name (a duplicate, say) has
            // none, and must not overwrite the relations of the tool that took the name.
            let Some(&i) = t.name.as_ref().and_then(|n| built.get(&n.span)) else {
                continue;
            };
            let artifacts = t
                .artifacts
                .as_ref()
                .map(|a| self.artifacts(a, contract, &contract.tools[i]));
            let encapsulates = t
                .complete_operation
                .as_ref()
                .map(|list| self.encapsulates(list, &contract.tools[i].name, manifest))
                .unwrap_or_default();
            let (member_of, reported) = self.membership(t, &groups);
            membership_reported |= reported;
            self.planning_keys_are_free(t, &contract.planning, &artifacts, &encapsulates);
            let tool = &mut contract.tools[i];
            tool.artifacts = artifacts;
            tool.encapsulates = encapsulates;
            tool.groups = member_of;
        }
        self.cycles(manifest, contract);
        contract.groups = self.group_defs(manifest, contract, groups, membership_reported);
    }

    /// A tool's own `_meta` may not write the entries its planning metadata is published in.
    fn planning_keys_are_free(
        &mut self,
        t: &raw::Tool,
        planning: &Planning,
        artifacts: &Option<ArtifactsDef>,
        encapsulates: &[String],
    ) {
        // The first key of each path in use: the `_meta` entry the build writes.
        let published: Vec<&str> = [
            (artifacts.is_some(), &planning.artifacts_key),
            (!encapsulates.is_empty(), &planning.composition_key),
        ]
        .into_iter()
        .filter_map(|(used, path)| used.then(|| path.keys.first()).flatten())
        .map(String::as_str)
        .collect();
        for (key, _) in t
            .meta
            .iter()
            .filter(|(k, _)| published.contains(&k.value.as_str()))
        {
            self.error(
                &codes::DUPLICATE_META_KEY,
                format!(
                    "`{}` is where this tool's planning metadata is published",
                    key.value
                ),
                key.span,
                "remove this `_meta` entry; `artifacts:` and `complete_operation:` publish it",
            );
        }
    }

    /// Checks one tool's artifacts against its own published schemas, read from the model.
    fn artifacts(
        &mut self,
        a: &raw::ToolArtifacts,
        contract: &Contract,
        tool: &ToolDef,
    ) -> ArtifactsDef {
        let input = match &tool.input {
            Some(document) => SchemaRef::Document(InDocument::new(document)),
            None => SchemaRef::Fields(contract, &tool.parameters),
        };
        let output = match &tool.output {
            OutputDef::Text => None,
            OutputDef::Document(document) => Some(SchemaRef::Document(InDocument::new(document))),
            OutputDef::Object { fields, .. } => Some(SchemaRef::Fields(contract, fields)),
        };
        // A pointer into a schema that lost a property to a rule may lead to that property.
        let input_refused =
            self.refused
                .within_object(&contract.types, &tool.args_type(), &tool.parameters);
        let output_refused = match &tool.output {
            OutputDef::Text | OutputDef::Document(_) => false,
            OutputDef::Object { fields, .. } => {
                self.refused
                    .within_object(&contract.types, &tool.output_type(), fields)
            }
        };
        let mut def = ArtifactsDef::default();
        if a.produces.is_empty() && a.consumes.is_empty() {
            self.report(
                &codes::EMPTY_ARTIFACTS,
                format!("`{}` declares artifacts but lists none", tool.name),
                a.span,
            );
        }
        for p in &a.produces {
            let kind = self.kind(p.kind.as_ref(), &contract.planning);
            if let Some(mode) = &p.mode
                && Mode::from_name(&mode.value).is_none()
            {
                self.report(
                    &codes::UNKNOWN_MODE,
                    format!("unknown artifact mode `{}`", mode.value),
                    mode.span,
                );
            }
            let encoding = p.encoding.as_ref().and_then(|e| {
                let known = Encoding::from_name(&e.value);
                if known.is_none() {
                    self.report(
                        &codes::UNKNOWN_ENCODING,
                        format!("unknown artifact encoding `{}`", e.value),
                        e.span,
                    );
                }
                known
            });
            let Some(pointer) = &p.pointer else { continue };
            let Some(output) = output else {
                self.report(
                    &codes::ARTIFACT_WITHOUT_OUTPUT,
                    format!(
                        "`{}` produces an artifact but has no structured output",
                        tool.name
                    ),
                    pointer.span,
                );
                continue;
            };
            let Some(field) = self.pointer(pointer, output, "output", output_refused) else {
                continue;
            };
            // One report for one wrong field: the kind's own check waits for the encoding's.
            if encoding.is_some_and(|e| !e.fits(&field)) {
                self.report(
                    &codes::BAD_ENCODING,
                    format!("`{}` is not a string field", pointer.value),
                    pointer.span,
                );
            } else {
                self.kind_fits(kind.as_deref(), &field, pointer);
            }
            if let Some(kind) = kind {
                def.produces.push(Produced {
                    kind,
                    pointer: pointer.value.clone(),
                    mode: Mode::Materialize,
                    encoding,
                });
            }
        }
        for c in &a.consumes {
            let kind = self.kind(c.kind.as_ref(), &contract.planning);
            let Some(pointer) = &c.pointer else { continue };
            let Some(field) = self.pointer(pointer, input, "input", input_refused) else {
                continue;
            };
            self.kind_fits(kind.as_deref(), &field, pointer);
            if let Some(kind) = kind {
                def.consumes.push(Consumed {
                    kind,
                    pointer: pointer.value.clone(),
                    required: c.required.as_ref().is_some_and(|r| r.value),
                });
            }
        }
        def
    }

    /// A declared kind, or a diagnostic (none for a kind already refused where it is declared).
    fn kind(&mut self, kind: Option<&Spanned<String>>, planning: &Planning) -> Option<String> {
        let kind = kind?;
        if planning.kinds.iter().any(|(k, _)| *k == kind.value) {
            return Some(kind.value.clone());
        }
        self.unknown(
            kind,
            Referent::ArtifactKind,
            planning.kinds.iter().map(|(k, _)| k.as_str()),
        );
        None
    }

    /// The standard `workspace.directory` kind is a path: a string.
    fn kind_fits(&mut self, kind: Option<&str>, field: &SchemaRef<'_>, pointer: &Spanned<String>) {
        if kind == Some(WORKSPACE_DIRECTORY) && field.type_name() != Some("string") {
            self.report(
                &codes::BAD_ARTIFACT_FIELD,
                format!("`{}` is not a string field", pointer.value),
                pointer.span,
            );
        }
    }

    /// Resolves an instance pointer in a schema, or reports where it stops; in a `refused`
    /// schema (one that lost a property) it may stop at that property, so nothing is said.
    fn pointer<'c>(
        &mut self,
        pointer: &Spanned<String>,
        schema: SchemaRef<'c>,
        side: &str,
        refused: bool,
    ) -> Option<SchemaRef<'c>> {
        match pointer::resolve(schema, &pointer.value) {
            Ok(field) => Some(field),
            Err(_) if refused => None,
            Err(problem) => {
                self.error(
                    &codes::BAD_POINTER,
                    format!("`{}` does not resolve in the tool's {side} schema: {problem}", pointer.value),
                    pointer.span,
                    format!("write a JSON pointer to a property of the {side}, such as `/path`; array items are `/name/0`"),
                );
                None
            }
        }
    }

    /// The tools a complete operation encapsulates: same-server tools, each once, never itself.
    fn encapsulates(
        &mut self,
        list: &Spanned<Vec<Spanned<String>>>,
        tool: &str,
        manifest: &Manifest,
    ) -> Vec<String> {
        let names = || {
            manifest
                .tools
                .iter()
                .filter_map(|t| t.name.as_ref().map(|n| n.value.as_str()))
        };
        let methods: Vec<&str> = list.value.iter().map(|m| m.value.as_str()).collect();
        let (kept, problems) = spec::encapsulated(tool, &methods, |m| names().any(|n| n == m));
        for problem in problems {
            match problem {
                CompositionProblem::Empty => self.report(
                    &codes::EMPTY_COMPOSITION,
                    "a complete operation encapsulates at least one tool",
                    list.span,
                ),
                CompositionProblem::Itself { at } => self.report(
                    &codes::SELF_COMPOSITION,
                    format!("`{tool}` cannot encapsulate itself"),
                    list.value[at].span,
                ),
                CompositionProblem::Duplicate { at } => self.error(
                    &codes::DUPLICATE_TOOL_NAME,
                    format!("`{}` is listed twice", methods[at]),
                    list.value[at].span,
                    "list each tool once",
                ),
                CompositionProblem::UnknownTool { at } => {
                    self.unknown(&list.value[at], Referent::Tool, names())
                }
            }
        }
        kept.into_iter().map(str::to_owned).collect()
    }

    /// Refuses a tool that encapsulates itself through others: a planner would never finish.
    /// Each tool on a cycle is reported once, with a shortest path back to itself.
    fn cycles(&mut self, manifest: &Manifest, contract: &Contract) {
        let graph: Vec<(&str, &[String])> = contract
            .tools
            .iter()
            .map(|t| (t.name.as_str(), t.encapsulates.as_slice()))
            .collect();
        for cycle in spec::cycles(&graph) {
            let start = &contract.tools[cycle.tool];
            let span = manifest
                .tools
                .iter()
                .find(|t| t.name.as_ref().is_some_and(|n| n.span == start.span))
                .and_then(|t| t.complete_operation.as_ref())
                .map_or(start.span, |c| c.span);
            self.report(
                &codes::COMPOSITION_CYCLE,
                format!(
                    "`{}` encapsulates itself: {}",
                    start.name,
                    cycle.path.join(" → ")
                ),
                span,
            );
        }
    }
}

/// A schema of the model as pointers read it: the generator resolves an artifact's pointer on
/// what it will publish, before any JSON exists. Shared types are followed, as the published
/// schemas inline them.
#[derive(Clone, Copy)]
enum SchemaRef<'c> {
    /// An object's fields: a tool's arguments or structured output, or an inline object.
    Fields(&'c Contract, &'c [Field]),
    /// One schema.
    Schema(&'c Contract, &'c Schema),
    /// A schema of a JSON Schema document written as is, read by its own keywords.
    Document(InDocument<'c>),
}

impl<'c> SchemaRef<'c> {
    /// The schema with shared types looked up, objects as their fields and documents as
    /// documents, so `Named`, `Object` and `Document` never remain.
    fn resolved(self) -> SchemaRef<'c> {
        let SchemaRef::Schema(c, schema) = self else {
            return self;
        };
        match &schema.kind {
            Kind::Named(i) => SchemaRef::Schema(c, &c.types[*i].schema).resolved(),
            Kind::Object(o) => SchemaRef::Fields(c, &o.fields),
            Kind::Document(document) => SchemaRef::Document(InDocument::new(document)),
            _ => self,
        }
    }
}

impl SchemaNode for SchemaRef<'_> {
    fn type_name(&self) -> Option<&str> {
        Some(match self.resolved() {
            SchemaRef::Fields(..) => "object",
            SchemaRef::Document(document) => return document.json_type(),
            SchemaRef::Schema(_, s) => match s.kind {
                Kind::String | Kind::Enum(_) => "string",
                Kind::Integer => "integer",
                Kind::Number => "number",
                Kind::Boolean => "boolean",
                Kind::Json => "json",
                Kind::Array(_) => "array",
                // Left by `resolved` as `Fields` or `Document`, or as the shared type's own
                // schema; a union is an object whatever its variant.
                Kind::Object(_) | Kind::Named(_) | Kind::Document(_) | Kind::Union(_) => "object",
            },
        })
    }

    fn property(&self, name: &str) -> Option<Self> {
        match self.resolved() {
            SchemaRef::Fields(c, fields) => fields
                .iter()
                .find(|f| f.name == name)
                .map(|f| SchemaRef::Schema(c, &f.schema)),
            SchemaRef::Document(document) => document.property(name).map(SchemaRef::Document),
            SchemaRef::Schema(..) => None,
        }
    }

    fn items(&self) -> Option<Self> {
        let (c, schema) = match self.resolved() {
            SchemaRef::Schema(c, schema) => (c, schema),
            SchemaRef::Document(document) => return document.items().map(SchemaRef::Document),
            SchemaRef::Fields(..) => return None,
        };
        let Kind::Array(items) = &schema.kind else {
            return None;
        };
        Some(SchemaRef::Schema(c, items))
    }
}
