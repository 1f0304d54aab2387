//! `since:`, `deprecated:` and `aliases:` of a tool, prompt or resource, as written.

use super::reader::{Decoder, Fields};
use crate::source::{Span, Spanned};
use crate::yaml::{Node, NodeKind};

/// An entry's lifecycle: when it appeared, whether it is on its way out, its former names.
#[derive(Debug, Default)]
pub(crate) struct Lifecycle {
    /// `since:` the version it appeared in.
    pub since: Option<Spanned<String>>,
    /// `deprecated:` why and until when it is kept.
    pub deprecated: Option<Deprecation>,
    /// `aliases:` former names (a resource's: former URIs), still answered.
    pub aliases: Vec<AliasWritten>,
}

/// One entry of `aliases:`: a former name, or `{name, remove_after}`.
#[derive(Debug)]
pub(crate) struct AliasWritten {
    /// The former name.
    pub name: Spanned<String>,
    /// The day after which the alias may be removed, `YYYY-MM-DD`.
    pub remove_after: Option<Spanned<String>>,
}

/// `deprecated: {since, reason, replaced_by, remove_after}`.
#[derive(Debug)]
pub(crate) struct Deprecation {
    /// The mapping.
    pub span: Span,
    /// The version it was deprecated in.
    pub since: Option<Spanned<String>>,
    /// Why, for people and models.
    pub reason: Option<Spanned<String>>,
    /// The entry of the same kind to use instead.
    pub replaced_by: Option<Spanned<String>>,
    /// The first day it may be removed after, `YYYY-MM-DD`.
    pub remove_after: Option<Spanned<String>>,
}

/// Reads the three keys from an entry's mapping.
pub(crate) fn lifecycle(f: &mut Fields<'_>, de: &mut Decoder<'_>) -> Lifecycle {
    let since = f.get("since").and_then(|n| de.text(n, "`since`"));
    let deprecated = f.get("deprecated").and_then(|n| deprecation(n, de));
    let aliases = f.get("aliases").map(|n| aliases(n, de)).unwrap_or_default();
    Lifecycle {
        since,
        deprecated,
        aliases,
    }
}

/// `aliases:` one name, or a list of names and `{name, remove_after}` mappings.
fn aliases(node: &Node, de: &mut Decoder<'_>) -> Vec<AliasWritten> {
    let items = match &node.kind {
        NodeKind::Seq(items) => items.as_slice(),
        _ => std::slice::from_ref(node),
    };
    items
        .iter()
        .filter_map(|item| match &item.kind {
            NodeKind::Map(_) => {
                let mut f = de.fields(item, "an alias")?;
                let name = f.require(de, "name").and_then(|n| de.string(n, "`name`"));
                let remove_after = f
                    .get("remove_after")
                    .and_then(|n| de.text(n, "`remove_after`"));
                f.finish(de);
                Some(AliasWritten {
                    name: name?,
                    remove_after,
                })
            }
            _ => Some(AliasWritten {
                name: de.string(item, "an alias")?,
                remove_after: None,
            }),
        })
        .collect()
}

fn deprecation(node: &Node, de: &mut Decoder<'_>) -> Option<Deprecation> {
    let mut f = de.fields(node, "`deprecated`")?;
    let since = f.get("since").and_then(|n| de.text(n, "`since`"));
    let reason = f
        .require(de, "reason")
        .and_then(|n| de.string(n, "`reason`"));
    let replaced_by = f
        .get("replaced_by")
        .and_then(|n| de.string(n, "`replaced_by`"));
    let remove_after = f
        .get("remove_after")
        .and_then(|n| de.text(n, "`remove_after`"));
    f.finish(de);
    Some(Deprecation {
        span: node.span,
        since,
        reason,
        replaced_by,
        remove_after,
    })
}
