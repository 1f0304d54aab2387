//! `prompts:` and the `completion:` of prompt arguments and template variables, as written.

use super::reader::Decoder;
use crate::diagnostic::{Diagnostic, codes};
use crate::source::Spanned;
use crate::yaml::{Node, NodeKind};

/// A prompt: a named message template a client offers its user.
#[derive(Debug)]
pub(crate) struct Prompt {
    /// The published name, which names the handler method.
    pub name: Option<Spanned<String>>,
    /// The title for people.
    pub title: Option<Spanned<String>>,
    /// What it is for.
    pub description: Option<Spanned<String>>,
    /// Pinned sentences appended to the description.
    pub sentences: Vec<Spanned<String>>,
    /// Icons a client may show beside the prompt.
    pub icons: Vec<super::icons::Icon>,
    /// The arguments, in order.
    pub arguments: Vec<PromptArgument>,
    /// The scopes a request requires.
    pub scopes: super::ScopeList,
    /// `asks:` the elicitations it may put to the user, by id.
    pub asks: Vec<super::Question>,
    /// `since:`, `deprecated:` and `aliases:` (former names).
    pub lifecycle: super::Lifecycle,
    /// Every key of its mapping, with where it is written.
    pub keys: super::Keys,
}

/// One argument of a prompt: always a string on the wire.
#[derive(Debug)]
pub(crate) struct PromptArgument {
    /// Its published name.
    pub name: Spanned<String>,
    /// What it holds.
    pub description: Option<Spanned<String>>,
    /// Whether `prompts/get` needs it.
    pub required: Option<Spanned<bool>>,
    /// How `completion/complete` suggests its values.
    pub completion: Option<Completion>,
}

/// `completion:` a list of values, or `handler` for a generated method.
#[derive(Debug, Clone)]
pub(crate) enum Completion {
    /// The values, filtered by the prefix a client has typed.
    Values(Spanned<Vec<Spanned<String>>>),
    /// A handler method answers, given the partial value and the arguments already given.
    Handler,
}

/// Reads one prompt.
pub(crate) fn prompt(node: &Node, de: &mut Decoder<'_>) -> Option<Prompt> {
    let mut f = de.fields(node, "a prompt")?;
    let name = f
        .require(de, "name")
        .and_then(|n| de.string(n, "the prompt name"));
    let title = f
        .require(de, "title")
        .and_then(|n| de.string(n, "the prompt title"));
    let description = f
        .require(de, "description")
        .and_then(|n| de.string(n, "the description"));
    let sentences = f
        .get("sentences")
        .map(|n| de.strings(n, "a sentence name"))
        .unwrap_or_default();
    let icons = f
        .get("icons")
        .map(|n| super::icons::icons(n, de))
        .unwrap_or_default();
    let scopes = f.get("scopes").map(|n| super::values::scope_list(n, de));
    let asks = f
        .get("asks")
        .map(|n| super::asks::asks(n, de))
        .unwrap_or_default();
    let mut arguments = Vec::new();
    if let Some(n) = f.get("arguments") {
        for (name, node) in de.entries(n, "`arguments`") {
            let Some(mut a) = de.fields(node, "a prompt argument") else {
                continue;
            };
            let description = a
                .require(de, "description")
                .and_then(|n| de.string(n, "`description`"));
            let required = a.get("required").and_then(|n| de.bool(n, "`required`"));
            let completion = a.get("completion").and_then(|n| completion(n, de));
            a.finish(de);
            arguments.push(PromptArgument {
                name,
                description,
                required,
                completion,
            });
        }
    }
    let lifecycle = super::lifecycle(&mut f, de);
    let keys = f.keys();
    f.finish(de);
    Some(Prompt {
        keys,
        name,
        title,
        description,
        sentences,
        icons,
        arguments,
        scopes,
        asks,
        lifecycle,
    })
}

/// A resource's `completion:`, one entry per template variable.
pub(crate) fn variable_completions(
    node: &Node,
    de: &mut Decoder<'_>,
) -> Vec<(Spanned<String>, Completion)> {
    de.entries(node, "`completion`")
        .into_iter()
        .filter_map(|(name, n)| Some((name, completion(n, de)?)))
        .collect()
}

/// `completion: [values…]` or `completion: handler`.
pub(crate) fn completion(node: &Node, de: &mut Decoder<'_>) -> Option<Completion> {
    match &node.kind {
        NodeKind::Str(s) if s == "handler" => Some(Completion::Handler),
        NodeKind::Seq(_) => Some(Completion::Values(Spanned::new(
            de.strings(node, "a completion value"),
            node.span,
        ))),
        _ => {
            de.diags.push(
                Diagnostic::new(
                    &codes::BAD_COMPLETION,
                    "`completion` must be a list of values or `handler`",
                    node.span,
                )
                .label("not a completion"),
            );
            None
        }
    }
}
