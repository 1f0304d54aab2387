//! Planning metadata and groups: the artifact contract, complete operations and tool groups
//! (seed 003), checked once every tool is built, since they refer to each other.
//!
//! The rules come from `mcp_contract_spec::planning`, which the runtime's
//! `mcp_contract::metadata` parsers apply to any server's `tools/list`; here they are proved at
//! build time, with the manifest line to fix.

use std::collections::{HashMap, HashSet};

use mcp_contract_spec::planning::{
    self as spec, CompositionProblem, Consumed, Encoding, Mode, Produced, WORKSPACE_DIRECTORY,
    is_kind,
};
use mcp_contract_spec::pointer::{self, SchemaNode};

use super::Validator;
use crate::diagnostic::Diagnostic;
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::{Span, Spanned};

/// Kinds every manifest knows, with what each stands for.
pub(crate) const STANDARD_KINDS: [(&str, &str); 1] = [(
    WORKSPACE_DIRECTORY,
    "A validated workspace-relative directory.",
)];

/// Where the artifact contract is published when the manifest does not say.
pub(crate) const DEFAULT_ARTIFACTS_KEY: &str = "io.github.mcp-contract/artifacts";
/// Where the composition contract is published when the manifest does not say.
pub(crate) const DEFAULT_COMPOSITION_KEY: &str = "io.github.mcp-contract/composition";

impl Validator<'_> {
    /// The `_meta` keys and the kind vocabulary.
    pub(super) fn planning(&mut self, manifest: &Manifest) -> Planning {
        let mut key = |written: Option<&Spanned<String>>, default: &str| match written {
            Some(k) if self.meta_key(k) => k.value.clone(),
            _ => default.to_owned(),
        };
        let artifacts_key = key(
            manifest
                .artifacts
                .as_ref()
                .and_then(|a| a.meta_key.as_ref()),
            DEFAULT_ARTIFACTS_KEY,
        );
        let composition_key = key(
            manifest
                .composition
                .as_ref()
                .and_then(|c| c.meta_key.as_ref()),
            DEFAULT_COMPOSITION_KEY,
        );
        if artifacts_key == composition_key {
            let written =
                |k: Option<&Spanned<String>>| k.is_some_and(|k| k.value == composition_key);
            let composition = manifest
                .composition
                .as_ref()
                .and_then(|c| c.meta_key.as_ref());
            let artifacts = manifest
                .artifacts
                .as_ref()
                .and_then(|a| a.meta_key.as_ref());
            // Reported where the clash is written: at the composition key, or, when only the
            // artifacts key is written, at that key, which takes the composition's default.
            if let Some(k) = composition.filter(|_| written(composition)) {
                self.error(
                    "duplicate-meta-key",
                    format!("`{}` is already the artifacts key", k.value),
                    k.span,
                    "publish the two contracts under different `_meta` keys",
                );
            } else if let Some(k) = artifacts.filter(|_| written(artifacts)) {
                self.error(
                    "duplicate-meta-key",
                    format!("`{}` is where the composition contract is published", k.value),
                    k.span,
                    "choose another key, or move the composition contract with `composition: {meta_key: ...}`",
                );
            }
        }
        let mut kinds: Vec<(String, String)> = STANDARD_KINDS
            .iter()
            .map(|(k, d)| ((*k).to_owned(), (*d).to_owned()))
            .collect();
        for (name, description) in manifest.artifacts.iter().flat_map(|a| &a.kinds) {
            if !is_kind(&name.value) {
                self.error(
                    "bad-kind",
                    format!("`{}` is not a valid artifact kind", name.value),
                    name.span,
                    "write dot-separated lowercase words, such as `workspace.file`",
                );
            } else if kinds.iter().any(|(k, _)| *k == name.value) {
                self.error(
                    "duplicate-kind",
                    format!("`{}` is a standard kind", name.value),
                    name.span,
                    "remove it; standard kinds are always known",
                );
            } else {
                if description.value.trim().is_empty() {
                    self.error(
                        "empty-text",
                        format!("the description of the kind `{}` is empty", name.value),
                        description.span,
                        "say what the kind stands for",
                    );
                }
                kinds.push((name.value.clone(), description.value.trim().to_owned()));
            }
        }
        Planning {
            artifacts_key,
            composition_key,
            kinds,
        }
    }

    /// Fills each built tool's artifacts, composition and groups, and the contract's groups.
    pub(super) fn relations(&mut self, manifest: &Manifest, contract: &mut Contract) {
        let groups = self.groups(manifest);
        // Names already refused where they are declared: a tool that uses one is not told again.
        let refused_groups: Vec<&str> = manifest
            .groups
            .iter()
            .map(|g| g.name.value.as_str())
            .filter(|n| !is_group_name(n))
            .collect();
        let refused_kinds: Vec<&str> = manifest
            .artifacts
            .iter()
            .flat_map(|a| &a.kinds)
            .map(|(k, _)| k.value.as_str())
            .filter(|k| !is_kind(k))
            .collect();
        let mut membership_reported = false;
        for t in &manifest.tools {
            // The tool this entry built; an entry skipped for its name (a duplicate, say) has
            // none, and must not overwrite the relations of the tool that took the name.
            let Some(i) = t
                .name
                .as_ref()
                .and_then(|n| contract.tools.iter().position(|b| b.span == n.span))
            else {
                continue;
            };
            let artifacts = t
                .artifacts
                .as_ref()
                .map(|a| self.artifacts(a, contract, &contract.tools[i], &refused_kinds));
            let encapsulates = t
                .complete_operation
                .as_ref()
                .map(|list| self.encapsulates(list, &contract.tools[i].name, manifest))
                .unwrap_or_default();
            let (member_of, reported) = self.membership(t, &groups, &refused_groups);
            membership_reported |= reported;
            let planning = &contract.planning;
            let published: Vec<&str> = [
                (artifacts.is_some(), planning.artifacts_key.as_str()),
                (!encapsulates.is_empty(), planning.composition_key.as_str()),
            ]
            .into_iter()
            .filter_map(|(used, key)| used.then_some(key))
            .collect();
            for (key, _) in t
                .meta
                .iter()
                .filter(|(k, _)| published.contains(&k.value.as_str()))
            {
                self.error(
                    "duplicate-meta-key",
                    format!(
                        "`{}` is where this tool's planning metadata is published",
                        key.value
                    ),
                    key.span,
                    "remove this `_meta` entry; `artifacts:` and `complete_operation:` publish it",
                );
            }
            let tool = &mut contract.tools[i];
            tool.artifacts = artifacts;
            tool.encapsulates = encapsulates;
            tool.groups = member_of;
        }
        self.cycles(manifest, contract);
        // A group is empty when no tool entry lists it, built or not. While some tool's groups
        // are wrong the report waits: fixing them (a misspelt name, a missing list) may be
        // what fills the group.
        let listed: HashSet<&str> = manifest
            .tools
            .iter()
            .flat_map(|t| &t.groups)
            .map(|g| g.value.as_str())
            .collect();
        let report_empty = !membership_reported && !manifest.tools.is_empty();
        contract.groups = groups
            .into_iter()
            .map(|(name, description, span)| {
                let tools: Vec<String> = contract
                    .tools
                    .iter()
                    .filter(|t| t.groups.contains(&name))
                    .map(|t| t.name.clone())
                    .collect();
                if report_empty && !listed.contains(name.as_str()) {
                    self.error(
                        "empty-group",
                        format!("no tool belongs to the group `{name}`"),
                        span,
                        "list the group under a tool's `groups:`, or remove it",
                    );
                }
                GroupDef {
                    constant: ident::shouty(&name),
                    name,
                    description,
                    tools,
                    span,
                }
            })
            .collect();
    }

    /// The declared groups: name, description and where the name is written.
    fn groups(&mut self, manifest: &Manifest) -> Vec<(String, String, Span)> {
        let mut out = Vec::new();
        // Each group becomes a constant of the generated `groups` module.
        let mut constants: HashMap<String, Span> = HashMap::new();
        for g in &manifest.groups {
            if !is_group_name(&g.name.value) {
                self.error(
                    "bad-group-name",
                    format!("`{}` is not a valid group name", g.name.value),
                    g.name.span,
                    "a group's name is its HTTP route: a lowercase letter, then up to 63 lowercase letters, digits, `_` or `-`",
                );
                continue;
            }
            let constant = ident::shouty(&g.name.value);
            if let Some(&first) = constants.get(&constant) {
                // Still a group: the tools that list it are not told it is unknown.
                self.diags.push(
                    Diagnostic::error(
                        "ident-collision",
                        format!(
                            "the group `{}` becomes the Rust constant `groups::{constant}`, which another group already has",
                            g.name.value
                        ),
                        g.name.span,
                    )
                    .related(first, "this group has the same Rust name")
                    .help("rename one of the groups so they differ other than in `-` and `_`"),
                );
            } else {
                constants.insert(constant, g.name.span);
            }
            let description = g
                .description
                .as_ref()
                .map(|d| d.value.trim().to_owned())
                .unwrap_or_default();
            if let Some(d) = &g.description
                && description.is_empty()
            {
                self.error(
                    "empty-text",
                    "the group's description is empty",
                    d.span,
                    "say what the group's tools are for",
                );
            }
            out.push((g.name.value.clone(), description, g.name.span));
        }
        out
    }

    /// The groups a tool lists; once groups are declared, every tool belongs to one. Also
    /// says whether a listed group was unknown or the list was missing.
    fn membership(
        &mut self,
        t: &raw::Tool,
        groups: &[(String, String, Span)],
        refused: &[&str],
    ) -> (Vec<String>, bool) {
        let mut out: Vec<String> = Vec::new();
        let mut reported = false;
        for g in &t.groups {
            if out.contains(&g.value) {
                self.error(
                    "duplicate-group",
                    format!("the group `{}` is listed twice", g.value),
                    g.span,
                    "list each group once",
                );
            } else if groups.iter().any(|(n, _, _)| *n == g.value) {
                out.push(g.value.clone());
            } else if !refused.contains(&g.value.as_str()) {
                self.unknown(g, "group", groups.iter().map(|(n, _, _)| n.as_str()));
                reported = true;
            }
        }
        if t.groups.is_empty()
            && !groups.is_empty()
            && let Some(name) = &t.name
        {
            self.error(
                "missing-group",
                format!("the tool `{}` belongs to no group", name.value),
                name.span,
                "add `groups: [...]`; over HTTP each group is served at its own route, and a tool in none would be unreachable",
            );
            reported = true;
        }
        (out, reported)
    }

    /// Checks one tool's artifacts against its own published schemas, read from the model.
    fn artifacts(
        &mut self,
        a: &raw::ToolArtifacts,
        contract: &Contract,
        tool: &ToolDef,
        refused_kinds: &[&str],
    ) -> ArtifactsDef {
        let input = SchemaRef::Fields(contract, &tool.parameters);
        let output = match &tool.output {
            OutputDef::Text => None,
            OutputDef::Object { fields, .. } => Some(SchemaRef::Fields(contract, fields)),
        };
        let mut def = ArtifactsDef::default();
        if a.produces.is_empty() && a.consumes.is_empty() {
            self.error(
                "empty-artifacts",
                format!("`{}` declares artifacts but lists none", tool.name),
                a.span,
                "list what the tool `produces:` or `consumes:`, or remove `artifacts:`",
            );
        }
        for p in &a.produces {
            let kind = self.kind(p.kind.as_ref(), &contract.planning, refused_kinds);
            if let Some(mode) = &p.mode
                && Mode::from_name(&mode.value).is_none()
            {
                self.error(
                    "unknown-mode",
                    format!("unknown artifact mode `{}`", mode.value),
                    mode.span,
                    "the only mode is `materialize` (the default)",
                );
            }
            let encoding = p.encoding.as_ref().and_then(|e| {
                let known = Encoding::from_name(&e.value);
                if known.is_none() {
                    self.error(
                        "unknown-encoding",
                        format!("unknown artifact encoding `{}`", e.value),
                        e.span,
                        "the only encoding is `json_array`, for a string field holding an exact JSON array",
                    );
                }
                known
            });
            let Some(pointer) = &p.pointer else { continue };
            let Some(output) = output else {
                self.error(
                    "artifact-without-output",
                    format!("`{}` produces an artifact but has no structured output", tool.name),
                    pointer.span,
                    "an artifact is found in the structured output: declare `output:` with `properties:`",
                );
                continue;
            };
            let Some(field) = self.pointer(pointer, output, "output") else {
                continue;
            };
            // One report for one wrong field: the kind's own check waits for the encoding's.
            if let Some(encoding) = encoding.filter(|e| !e.fits(&field)) {
                self.error(
                    "bad-encoding",
                    format!("`{}` is not a string field", pointer.value),
                    pointer.span,
                    format!("`{encoding}` describes a string holding an exact JSON array; remove the encoding or point at a string"),
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
            let kind = self.kind(c.kind.as_ref(), &contract.planning, refused_kinds);
            let Some(pointer) = &c.pointer else { continue };
            let Some(field) = self.pointer(pointer, input, "input") else {
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
    fn kind(
        &mut self,
        kind: Option<&Spanned<String>>,
        planning: &Planning,
        refused: &[&str],
    ) -> Option<String> {
        let kind = kind?;
        if planning.kinds.iter().any(|(k, _)| *k == kind.value) {
            return Some(kind.value.clone());
        }
        if !refused.contains(&kind.value.as_str()) {
            self.unknown(
                kind,
                "artifact kind",
                planning.kinds.iter().map(|(k, _)| k.as_str()),
            );
        }
        None
    }

    /// The standard `workspace.directory` kind is a path: a string.
    fn kind_fits(&mut self, kind: Option<&str>, field: &SchemaRef<'_>, pointer: &Spanned<String>) {
        if kind == Some(WORKSPACE_DIRECTORY) && field.type_name() != Some("string") {
            self.error(
                "bad-artifact-field",
                format!("`{}` is not a string field", pointer.value),
                pointer.span,
                "a `workspace.directory` is a workspace-relative path: point at a string",
            );
        }
    }

    /// Resolves an instance pointer in a schema, or reports where it stops.
    fn pointer<'c>(
        &mut self,
        pointer: &Spanned<String>,
        schema: SchemaRef<'c>,
        side: &str,
    ) -> Option<SchemaRef<'c>> {
        match pointer::resolve(schema, &pointer.value) {
            Ok(field) => Some(field),
            Err(problem) => {
                self.error(
                    "bad-pointer",
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
                CompositionProblem::Empty => self.error(
                    "empty-composition",
                    "a complete operation encapsulates at least one tool",
                    list.span,
                    "list the tools it wraps, or remove `complete_operation:`",
                ),
                CompositionProblem::Itself { at } => self.error(
                    "self-composition",
                    format!("`{tool}` cannot encapsulate itself"),
                    list.value[at].span,
                    "list the other tools it wraps",
                ),
                CompositionProblem::Duplicate { at } => self.error(
                    "duplicate-tool-name",
                    format!("`{}` is listed twice", methods[at]),
                    list.value[at].span,
                    "list each tool once",
                ),
                CompositionProblem::UnknownTool { at } => {
                    self.unknown(&list.value[at], "tool", names())
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
            self.error(
                "composition-cycle",
                format!(
                    "`{}` encapsulates itself: {}",
                    start.name,
                    cycle.path.join(" → ")
                ),
                span,
                "a complete operation wraps lower-level tools; break the cycle",
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
}

impl<'c> SchemaRef<'c> {
    /// The schema with shared types looked up and objects as their fields, so `Named` and
    /// `Object` never remain.
    fn resolved(self) -> SchemaRef<'c> {
        let SchemaRef::Schema(c, schema) = self else {
            return self;
        };
        match &schema.kind {
            Kind::Named(i) => SchemaRef::Schema(c, &c.types[*i].schema).resolved(),
            Kind::Object(o) => SchemaRef::Fields(c, &o.fields),
            _ => self,
        }
    }
}

impl SchemaNode for SchemaRef<'_> {
    fn type_name(&self) -> Option<&str> {
        Some(match self.resolved() {
            SchemaRef::Fields(..) => "object",
            SchemaRef::Schema(_, s) => match s.kind {
                Kind::String | Kind::Enum(_) => "string",
                Kind::Integer => "integer",
                Kind::Number => "number",
                Kind::Boolean => "boolean",
                Kind::Array(_) => "array",
                // Left by `resolved` as `Fields`, or as the shared type's own schema.
                Kind::Object(_) | Kind::Named(_) => "object",
            },
        })
    }

    fn property(&self, name: &str) -> Option<Self> {
        match self.resolved() {
            SchemaRef::Fields(c, fields) => fields
                .iter()
                .find(|f| f.name == name)
                .map(|f| SchemaRef::Schema(c, &f.schema)),
            SchemaRef::Schema(..) => None,
        }
    }

    fn items(&self) -> Option<Self> {
        let SchemaRef::Schema(c, schema) = self.resolved() else {
            return None;
        };
        let Kind::Array(items) = &schema.kind else {
            return None;
        };
        Some(SchemaRef::Schema(c, items))
    }
}

fn is_group_name(s: &str) -> bool {
    s.len() <= 64
        && s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}
