//! Planning metadata (seed 003): the artifact contract and complete operations, checked once
//! every tool is built, since they refer to each other; tools' groups are filled in here too.
//!
//! The runtime's `mcp_contract::metadata` parsers apply the same rules to any server's
//! `tools/list`; here they are proved at build time, with the manifest line to fix.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use super::Validator;
use super::names::Referent;
use crate::diagnostic::codes;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::Spanned;

/// Kinds every manifest knows, with what each stands for.
pub(crate) const STANDARD_KINDS: [(&str, &str); 1] = [(
    "workspace.directory",
    "A validated workspace-relative directory.",
)];

/// Where the artifact contract is published when the manifest does not say.
pub(crate) const DEFAULT_ARTIFACTS_KEY: &str = "io.github.mcp-contract/artifacts";
/// Where the composition contract is published when the manifest does not say.
pub(crate) const DEFAULT_COMPOSITION_KEY: &str = "io.github.mcp-contract/composition";

impl Validator<'_> {
    /// The `_meta` keys and the kind vocabulary.
    pub(super) fn planning(&mut self, manifest: &Manifest) -> Planning {
        let (artifacts_key, composition_key) = self.planning_keys(manifest);
        Planning {
            artifacts_key,
            composition_key,
            kinds: self.kinds(manifest),
        }
    }

    /// The `_meta` keys of the artifact and composition contracts, which must differ.
    fn planning_keys(&mut self, manifest: &Manifest) -> (String, String) {
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
                    &codes::DUPLICATE_META_KEY,
                    format!("`{}` is already the artifacts key", k.value),
                    k.span,
                    "publish the two contracts under different `_meta` keys",
                );
            } else if let Some(k) = artifacts.filter(|_| written(artifacts)) {
                self.error(
                    &codes::DUPLICATE_META_KEY,
                    format!("`{}` is where the composition contract is published", k.value),
                    k.span,
                    "choose another key, or move the composition contract with `composition: {meta_key: ...}`",
                );
            }
        }
        (artifacts_key, composition_key)
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

    /// A tool's own `_meta` may not write the keys its planning metadata is published under.
    fn planning_keys_are_free(
        &mut self,
        t: &raw::Tool,
        planning: &Planning,
        artifacts: &Option<ArtifactsDef>,
        encapsulates: &[String],
    ) {
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

    /// Checks one tool's artifacts against its own published schemas.
    fn artifacts(
        &mut self,
        a: &raw::ToolArtifacts,
        contract: &Contract,
        tool: &ToolDef,
    ) -> ArtifactsDef {
        let input = contract.input_schema(tool);
        let output = contract.output_schema(tool);
        // A pointer into a schema that lost a property to a rule may lead to that property.
        let input_refused =
            self.refused
                .within_object(&contract.types, &tool.args_type(), &tool.parameters);
        let output_refused = match &tool.output {
            OutputDef::Text => false,
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
                && mode.value != "materialize"
            {
                self.report(
                    &codes::UNKNOWN_MODE,
                    format!("unknown artifact mode `{}`", mode.value),
                    mode.span,
                );
            }
            let json_array = match &p.encoding {
                None => false,
                Some(e) if e.value == "json_array" => true,
                Some(e) => {
                    self.report(
                        &codes::UNKNOWN_ENCODING,
                        format!("unknown artifact encoding `{}`", e.value),
                        e.span,
                    );
                    false
                }
            };
            let Some(pointer) = &p.pointer else { continue };
            let Some(output) = &output else {
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
            let string = is_string(field);
            // One report for one wrong field: the kind's own check waits for the encoding's.
            if json_array && !string {
                self.report(
                    &codes::BAD_ENCODING,
                    format!("`{}` is not a string field", pointer.value),
                    pointer.span,
                );
            } else {
                self.kind_fits(kind.as_deref(), string, pointer);
            }
            if let Some(kind) = kind {
                def.produces.push((kind, pointer.value.clone(), json_array));
            }
        }
        for c in &a.consumes {
            let kind = self.kind(c.kind.as_ref(), &contract.planning);
            let Some(pointer) = &c.pointer else { continue };
            let Some(field) = self.pointer(pointer, &input, "input", input_refused) else {
                continue;
            };
            let string = is_string(field);
            self.kind_fits(kind.as_deref(), string, pointer);
            if let Some(kind) = kind {
                let required = c.required.as_ref().is_some_and(|r| r.value);
                def.consumes.push((kind, pointer.value.clone(), required));
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
    fn kind_fits(&mut self, kind: Option<&str>, string: bool, pointer: &Spanned<String>) {
        if kind == Some("workspace.directory") && !string {
            self.report(
                &codes::BAD_ARTIFACT_FIELD,
                format!("`{}` is not a string field", pointer.value),
                pointer.span,
            );
        }
    }

    /// Resolves an instance pointer in a schema, or reports where it stops; in a `refused`
    /// schema (one that lost a property) it may stop at that property, so nothing is said.
    fn pointer<'s>(
        &mut self,
        pointer: &Spanned<String>,
        schema: &'s Value,
        side: &str,
        refused: bool,
    ) -> Option<&'s Value> {
        match resolve(schema, &pointer.value) {
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
        if list.value.is_empty() {
            self.report(
                &codes::EMPTY_COMPOSITION,
                "a complete operation encapsulates at least one tool",
                list.span,
            );
        }
        let names = || {
            manifest
                .tools
                .iter()
                .filter_map(|t| t.name.as_ref().map(|n| n.value.as_str()))
        };
        let mut out: Vec<String> = Vec::new();
        for m in &list.value {
            if m.value == tool {
                self.report(
                    &codes::SELF_COMPOSITION,
                    format!("`{tool}` cannot encapsulate itself"),
                    m.span,
                );
            } else if out.contains(&m.value) {
                self.error(
                    &codes::DUPLICATE_TOOL_NAME,
                    format!("`{}` is listed twice", m.value),
                    m.span,
                    "list each tool once",
                );
            } else if names().any(|n| n == m.value) {
                out.push(m.value.clone());
            } else {
                self.unknown(m, Referent::Tool, names());
            }
        }
        out
    }

    /// Refuses a tool that encapsulates itself through others: a planner would never finish.
    /// Each tool on a cycle is reported once, with a shortest path back to itself.
    fn cycles(&mut self, manifest: &Manifest, contract: &Contract) {
        let wraps: HashMap<&str, &[String]> = contract
            .tools
            .iter()
            .map(|t| (t.name.as_str(), t.encapsulates.as_slice()))
            .collect();
        for start in &contract.tools {
            let root = start.name.as_str();
            // Breadth first from `start`: each tool is visited once, so this stays linear in
            // the compositions however densely the tools wrap each other.
            let mut parent: HashMap<&str, &str> = HashMap::new();
            let mut queue: VecDeque<&str> = VecDeque::from([root]);
            let mut back = None;
            'search: while let Some(at) = queue.pop_front() {
                for next in wraps.get(at).copied().unwrap_or_default() {
                    if next == root {
                        back = Some(at);
                        break 'search;
                    }
                    if !parent.contains_key(next.as_str()) {
                        parent.insert(next.as_str(), at);
                        queue.push_back(next);
                    }
                }
            }
            let Some(mut at) = back else { continue };
            let mut path = vec![root];
            while at != root {
                path.insert(1, at);
                at = parent[at];
            }
            path.push(root);
            let span = manifest
                .tools
                .iter()
                .find(|t| t.name.as_ref().is_some_and(|n| n.span == start.span))
                .and_then(|t| t.complete_operation.as_ref())
                .map_or(start.span, |c| c.span);
            self.report(
                &codes::COMPOSITION_CYCLE,
                format!("`{root}` encapsulates itself: {}", path.join(" → ")),
                span,
            );
        }
    }
}

/// Follows an instance pointer (RFC 6901) through `properties` and `items`.
pub(super) fn resolve<'s>(schema: &'s Value, pointer: &str) -> Result<&'s Value, String> {
    if pointer.is_empty() {
        return Err("the empty pointer names the whole document, not a field".into());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err("a JSON pointer starts with `/`".into());
    };
    let mut at = schema;
    for raw in rest.split('/') {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        at = match at.get("type").and_then(Value::as_str) {
            Some("object") => at
                .get("properties")
                .and_then(|p| p.get(&segment))
                .ok_or_else(|| format!("there is no property `{segment}`"))?,
            // RFC 6901: an array index is `0` or a number without leading zeros.
            Some("array") if is_index(&segment) => {
                at.get("items").ok_or("the array has no items")?
            }
            Some("array") => return Err(format!("`{segment}` is not an array index")),
            other => {
                return Err(format!(
                    "`{segment}` goes into a {}, which has no fields",
                    other.unwrap_or("value")
                ));
            }
        };
    }
    Ok(at)
}

fn is_index(segment: &str) -> bool {
    segment == "0"
        || (segment.bytes().all(|b| b.is_ascii_digit())
            && !segment.is_empty()
            && !segment.starts_with('0'))
}

fn is_string(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
}

fn is_kind(s: &str) -> bool {
    s.split('.').all(|part| {
        part.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    })
}
