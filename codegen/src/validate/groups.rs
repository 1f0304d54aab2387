//! Tool groups: each served at its own HTTP route, so every tool belongs to one once any is
//! declared, and none is empty.

use std::collections::HashSet;

use super::Validator;
use super::names::{NameTable, Referent, is_group_name};
use crate::diagnostic::codes;
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::{Contract, GroupDef};
use crate::source::Span;

/// A declared group, before its tools are known.
pub(super) struct Declared {
    name: String,
    description: String,
    span: Span,
}

impl Validator<'_> {
    /// The declared groups with a valid name.
    pub(super) fn groups(&mut self, manifest: &Manifest) -> Vec<Declared> {
        let mut out = Vec::new();
        // Each group becomes a constant of the generated `groups` module.
        let mut constants = NameTable::default();
        for g in &manifest.groups {
            if !is_group_name(&g.name.value) {
                self.report(
                    &codes::BAD_GROUP_NAME,
                    format!("`{}` is not a valid group name", g.name.value),
                    g.name.span,
                );
                self.refused.refuse(Referent::Group, &g.name.value);
                continue;
            }
            let constant = ident::shouty(&g.name.value);
            // Still a group: the tools that list it are not told it is unknown.
            if let Err(first) = constants.claim(&constant, g.name.span) {
                self.collision(
                    format!(
                        "the group `{}` becomes the Rust constant `groups::{constant}`, which another group already has",
                        g.name.value
                    ),
                    g.name.span,
                    Some((first, "this group has the same Rust name")),
                    "rename one of the groups so they differ other than in `-` and `_`",
                );
            }
            let description = self.text(
                &g.description,
                "the group's description is empty",
                "say what the group's tools are for",
            );
            out.push(Declared {
                name: g.name.value.clone(),
                description,
                span: g.name.span,
            });
        }
        out
    }

    /// The groups a tool lists; once groups are declared, every tool belongs to one. Also
    /// says whether a listed group was unknown or the list was missing.
    pub(super) fn membership(&mut self, t: &raw::Tool, groups: &[Declared]) -> (Vec<String>, bool) {
        let mut out: Vec<String> = Vec::new();
        let mut reported = false;
        for g in &t.groups {
            if out.contains(&g.value) {
                self.report(
                    &codes::DUPLICATE_GROUP,
                    format!("the group `{}` is listed twice", g.value),
                    g.span,
                );
            } else if groups.iter().any(|d| d.name == g.value) {
                out.push(g.value.clone());
            } else if !self.refused.contains(Referent::Group, &g.value) {
                self.unknown(g, Referent::Group, groups.iter().map(|d| d.name.as_str()));
                reported = true;
            }
        }
        if t.groups.is_empty()
            && !groups.is_empty()
            && let Some(name) = &t.name
        {
            self.report(
                &codes::MISSING_GROUP,
                format!("the tool `{}` belongs to no group", name.value),
                name.span,
            );
            reported = true;
        }
        (out, reported)
    }

    /// The contract's groups with their tools. A group is empty when no tool entry lists it,
    /// built or not; while some tool's groups are wrong (`membership_reported`) the report
    /// waits, since fixing them (a misspelt name, a missing list) may be what fills it.
    pub(super) fn group_defs(
        &mut self,
        manifest: &Manifest,
        contract: &Contract,
        groups: Vec<Declared>,
        membership_reported: bool,
    ) -> Vec<GroupDef> {
        let listed: HashSet<&str> = manifest
            .tools
            .iter()
            .flat_map(|t| &t.groups)
            .map(|g| g.value.as_str())
            .collect();
        let report_empty = !membership_reported && !manifest.tools.is_empty();
        groups
            .into_iter()
            .map(
                |Declared {
                     name,
                     description,
                     span,
                 }| {
                    let tools: Vec<String> = contract
                        .tools
                        .iter()
                        .filter(|t| t.groups.contains(&name))
                        .map(|t| t.name.clone())
                        .collect();
                    if report_empty && !listed.contains(name.as_str()) {
                        self.report(
                            &codes::EMPTY_GROUP,
                            format!("no tool belongs to the group `{name}`"),
                            span,
                        );
                    }
                    GroupDef {
                        constant: ident::shouty(&name),
                        name,
                        description,
                        tools,
                        scopes: Vec::new(),
                        span,
                    }
                },
            )
            .collect()
    }
}
