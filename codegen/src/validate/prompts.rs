//! Prompts, and the completions of prompt arguments and template variables: each a handler
//! method or a fixed list.

use std::collections::HashSet;

use super::Validator;
use super::names::{NameTable, is_tool_name};
use super::schema::Scope;
use crate::diagnostic::{Diagnostic, codes};
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::Spanned;

impl Validator<'_> {
    /// Checks every prompt, then the resources' completions (set on `contract.resources`);
    /// `tool_methods` holds the tools' handler methods, which no prompt or completion method
    /// may repeat, nor a resource's.
    pub(super) fn prompts(
        &mut self,
        manifest: &Manifest,
        tool_methods: &NameTable,
        scope: &Scope<'_>,
        contract: &mut Contract,
    ) -> Vec<PromptDef> {
        let mut methods = Methods {
            tools: tool_methods,
            others: NameTable::default(),
        };
        for r in &contract.resources {
            let _ = methods.others.claim(&r.method, r.span);
        }
        let mut names = NameTable::default();
        let prompts = manifest
            .prompts
            .iter()
            .filter_map(|p| self.prompt(p, &mut names, &mut methods, scope, contract))
            .collect();
        for r in &manifest.resources {
            self.variable_completions(r, &mut methods, contract);
        }
        prompts
    }

    fn prompt(
        &mut self,
        p: &raw::Prompt,
        names: &mut NameTable,
        methods: &mut Methods<'_>,
        scope: &Scope<'_>,
        contract: &Contract,
    ) -> Option<PromptDef> {
        let name = p.name.as_ref()?;
        let questions = self.questions(&p.asks, scope);
        let [title, description] =
            [("title", &p.title), ("description", &p.description)].map(|(what, field)| {
                self.text(
                    field,
                    format!("the prompt's {what} is empty"),
                    format!("write the {what} a client lists"),
                )
            });
        let (_, description) = self.pinned(&p.sentences, &description, contract);
        if !is_tool_name(&name.value) {
            self.report(
                &codes::BAD_PROMPT_NAME,
                format!("`{}` is not a valid prompt name", name.value),
                name.span,
            );
            return None;
        }
        if let Err(first) = names.claim(&name.value, name.span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_PROMPT,
                    format!("the prompt name `{}` is used twice", name.value),
                    name.span,
                )
                .related(first, "first used here"),
            );
            return None;
        }
        let method = ident::snake(&format!("{}_prompt", name.value));
        // The method and the struct derive from one name: a clash is reported once.
        let args_type = format!("{}PromptArgs", ident::type_prefix(&name.value));
        let claimed = self.claim_method(methods, &method, name, "prompt")
            && self.claim_type(args_type.clone(), name.span, "prompt arguments");
        let mut fields = NameTable::default();
        let mut arguments = Vec::new();
        for a in &p.arguments {
            if let Some(arg) = self.argument(a, name, &mut fields, methods) {
                arguments.push(arg);
            }
        }
        let icons = self.icons(&p.icons);
        claimed.then(|| PromptDef {
            name: name.value.clone(),
            title,
            description,
            icons,
            arguments,
            method,
            args_type,
            span: name.span,
            scopes: Vec::new(),
            questions,
            lifecycle: Lifecycle::default(),
            keys: p.keys.all(),
        })
    }

    fn argument(
        &mut self,
        a: &raw::PromptArgument,
        prompt: &Spanned<String>,
        fields: &mut NameTable,
        methods: &mut Methods<'_>,
    ) -> Option<PromptArgumentDef> {
        let description = self.text(
            &a.description,
            "the argument's description is empty",
            "say what the argument holds",
        );
        let name = &a.name;
        let valid = name.value.starts_with(|c: char| c.is_ascii_alphabetic())
            && name
                .value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            self.report(
                &codes::BAD_PROMPT_NAME,
                format!("`{}` is not a valid prompt argument name", name.value),
                name.span,
            );
            return None;
        }
        let field = ident::snake(&name.value);
        if let Err(first) = fields.claim(&field, name.span) {
            self.collision(
                format!(
                    "the argument `{}` becomes the Rust field `{field}`, which another argument of `{}` already has",
                    name.value, prompt.value
                ),
                name.span,
                Some((first, "this argument has the same Rust name")),
                "rename one of the arguments so their snake_case forms differ",
            );
            return None;
        }
        let completion = match &a.completion {
            None => None,
            Some(c) => Some(self.completion(c, &prompt.value, name, methods)?),
        };
        Some(PromptArgumentDef {
            name: name.value.clone(),
            field,
            description,
            required: a.required.as_ref().is_some_and(|r| r.value),
            completion,
            span: name.span,
        })
    }

    /// A resource's `completion:`, each variable its template has.
    fn variable_completions(
        &mut self,
        r: &raw::Resource,
        methods: &mut Methods<'_>,
        contract: &mut Contract,
    ) {
        let Some(name) = &r.name else { return };
        let Some(index) = contract.resources.iter().position(|d| d.name == name.value) else {
            return;
        };
        let mut completions = Vec::new();
        for (variable, c) in &r.completion {
            let known = match &contract.resources[index].uri {
                ResourceUri::Template { variables, .. } => variables.contains(&variable.value),
                ResourceUri::Fixed(_) => false,
            };
            if !known {
                self.report(
                    &codes::BAD_COMPLETION,
                    format!(
                        "the resource `{}` has no template variable `{{{}}}` to complete",
                        name.value, variable.value
                    ),
                    variable.span,
                );
                continue;
            }
            if let Some(c) = self.completion(c, &name.value, variable, methods) {
                completions.push((variable.value.clone(), c));
            }
        }
        contract.resources[index].completions = completions;
    }

    /// One completion of `owner`'s `argument`: the values, or the handler method it gets.
    fn completion(
        &mut self,
        c: &raw::Completion,
        owner: &str,
        argument: &Spanned<String>,
        methods: &mut Methods<'_>,
    ) -> Option<CompletionDef> {
        match c {
            raw::Completion::Values(values) => {
                if values.value.is_empty() {
                    self.report(
                        &codes::BAD_COMPLETION,
                        "a completion list needs at least one value",
                        values.span,
                    );
                    return None;
                }
                let mut seen = HashSet::new();
                if let Some(twice) = values.value.iter().find(|v| !seen.insert(&v.value)) {
                    self.report(
                        &codes::BAD_COMPLETION,
                        format!("`{}` is listed twice", twice.value),
                        twice.span,
                    );
                    return None;
                }
                Some(CompletionDef::Values(
                    values.value.iter().map(|v| v.value.clone()).collect(),
                ))
            }
            raw::Completion::Handler => {
                let method = ident::snake(&format!("complete_{owner}_{}", argument.value));
                self.claim_method(methods, &method, argument, "completion")
                    .then_some(CompletionDef::Handler { method })
            }
        }
    }

    /// Claims a handler method for what `name` declares (`what`: "prompt", "completion").
    fn claim_method(
        &mut self,
        methods: &mut Methods<'_>,
        method: &str,
        name: &Spanned<String>,
        what: &str,
    ) -> bool {
        let first = match methods.tools.get(method) {
            Some(tool) => Err((tool, "a tool has the same Rust name")),
            None => methods
                .others
                .claim(method, name.span)
                .map_err(|first| (first, "this has the same Rust name")),
        };
        match first {
            Ok(()) => true,
            Err((at, label)) => {
                self.collision(
                    format!(
                        "the {what} `{}` becomes the Rust method `{method}`, which the handler trait already has",
                        name.value
                    ),
                    name.span,
                    Some((at, label)),
                    "rename it so the method names differ",
                );
                false
            }
        }
    }
}

/// The handler trait's methods: the tools' and every other claimed so far.
struct Methods<'a> {
    tools: &'a NameTable,
    others: NameTable,
}
