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
    /// The authorization servers that issue its tokens, in manifest order.
    pub authorization_servers: Vec<String>,
    /// The declared scopes, in manifest order, never none.
    pub scopes: Vec<ScopeDef>,
    /// Where the block is written.
    pub span: Span,
}

/// A declared scope.
#[derive(Debug, Clone)]
pub(crate) struct ScopeDef {
    /// The scope as tokens carry it.
    pub name: String,
    /// What it grants.
    pub description: String,
    /// Where the name is written.
    pub span: Span,
}
