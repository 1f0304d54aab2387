//! Who may call what: the `auth:` block, validated.

use crate::source::Span;

/// The `auth:` block: this server as an OAuth resource server and the scopes it declares.
/// Each entry's own requirement is its `scopes` field ([`ToolDef`](super::ToolDef),
/// [`GroupDef`](super::GroupDef), [`ResourceDef`](super::ResourceDef),
/// [`PromptDef`](super::PromptDef)).
#[derive(Debug, Clone)]
pub(crate) struct AccessDef {
    /// This server's resource identifier, when the manifest fixes it, and where.
    pub resource: Option<(String, Span)>,
    /// The authorization servers that issue its tokens, in manifest order, and where each is
    /// written.
    pub authorization_servers: Vec<(String, Span)>,
    /// The declared scopes, in manifest order, never none.
    pub scopes: Vec<ScopeDef>,
    /// Where the block is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

/// A declared scope.
#[derive(Debug, Clone)]
pub(crate) struct ScopeDef {
    /// The scope as tokens carry it.
    pub name: String,
    /// What it grants.
    pub description: String,
    /// The constant naming it in `scopes::`.
    pub constant: String,
    /// Where the name is written.
    pub span: Span,
}

impl super::Contract {
    /// What a call of `tool` requires, as alternatives a caller's scopes must hold one of
    /// wholly: its own scopes with those of one of its groups, or its own alone when it is
    /// in no group that requires any. Empty alternatives are none: any caller may call it.
    pub(crate) fn tool_requirement<'c>(&'c self, tool: &'c super::ToolDef) -> Vec<Vec<&'c str>> {
        let own: Vec<&str> = tool.scopes.iter().map(String::as_str).collect();
        let mut alternatives: Vec<Vec<&str>> = Vec::new();
        for g in self.groups.iter().filter(|g| tool.groups.contains(&g.name)) {
            let mut all = own.clone();
            all.extend(
                g.scopes
                    .iter()
                    .map(String::as_str)
                    .filter(|s| !own.contains(s)),
            );
            if all.len() == own.len() {
                // A group that adds nothing: the tool's own scopes suffice.
                return vec![own];
            }
            if !alternatives.contains(&all) {
                alternatives.push(all);
            }
        }
        if alternatives.is_empty() {
            alternatives.push(own);
        }
        alternatives
    }
}
