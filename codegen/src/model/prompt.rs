//! Prompts and completions, validated.

use crate::source::Span;

/// A prompt.
#[derive(Debug, Clone)]
pub(crate) struct PromptDef {
    /// The published name.
    pub name: String,
    /// The title.
    pub title: String,
    /// The description as published: as written, then each pinned sentence it lacks.
    pub description: String,
    /// Its icons.
    pub icons: Vec<super::IconDef>,
    /// The arguments, in order.
    pub arguments: Vec<PromptArgumentDef>,
    /// The handler method's name (`{name}_prompt`).
    pub method: String,
    /// The arguments struct (`{Prefix}PromptArgs`).
    pub args_type: String,
    /// Where the name is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
    /// The scopes a request requires, in manifest order.
    pub scopes: Vec<String>,
    /// The questions it may ask the user, in manifest order.
    pub questions: Vec<super::QuestionDef>,
    /// When it appeared, its deprecation, its former names.
    pub lifecycle: super::Lifecycle,
    /// Where each key of its mapping is written, for `diff` to point at a changed one.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub keys: Vec<(String, Span)>,
}

/// One argument of a prompt: a string.
#[derive(Debug, Clone)]
pub(crate) struct PromptArgumentDef {
    /// The published name.
    pub name: String,
    /// The Rust field of the arguments struct.
    pub field: String,
    /// What it holds.
    pub description: String,
    /// Whether `prompts/get` needs it.
    pub required: bool,
    /// How its values are completed.
    pub completion: Option<CompletionDef>,
    /// Where its name is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

/// How the values of a prompt argument or a template variable are completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CompletionDef {
    /// A fixed list, filtered by prefix.
    Values(Vec<String>),
    /// A generated handler method answers.
    Handler {
        /// The method's name.
        method: String,
    },
}

impl super::Contract {
    /// Every completion handler method, in the order the generated dispatch numbers them:
    /// the prompts' arguments, then the resources' variables, each in manifest order.
    pub(crate) fn completion_handlers(&self) -> Vec<&str> {
        let prompts = self
            .prompts
            .iter()
            .flat_map(|p| p.arguments.iter().filter_map(|a| a.completion.as_ref()));
        let resources = self
            .resources
            .iter()
            .flat_map(|r| r.completions.iter().map(|(_, c)| c));
        prompts
            .chain(resources)
            .filter_map(|c| match c {
                CompletionDef::Handler { method } => Some(method.as_str()),
                CompletionDef::Values(_) => None,
            })
            .collect()
    }
}
