//! The prompts' and completions' part of the handler trait, its dispatch and `SPEC`.

use super::*;

/// A prompt's arguments struct: a `String` for each required argument, an `Option<String>`
/// for each other.
pub(super) fn prompt_args(w: &mut Code, p: &PromptDef) {
    w.doc(0, &format!("The arguments of the prompt `{}`.", p.name));
    w.line(0, &["#[derive(Debug, Clone, Default, PartialEq, Eq)]"]);
    if p.arguments.is_empty() {
        ln!(w, 0, "pub struct {} {{}}", p.args_type);
        return;
    }
    ln!(w, 0, "pub struct {} {{", p.args_type);
    for a in &p.arguments {
        w.doc(1, &format!("`{}`: {}", a.name, a.description));
        if a.required {
            ln!(w, 1, "pub {}: String,", a.field);
        } else {
            ln!(w, 1, "pub {}: Option<String>,", a.field);
        }
    }
    w.line(0, &["}"]);
}

/// The trait methods: one per prompt, then one per completion handler.
pub(super) fn trait_methods(w: &mut Code, c: &Contract) {
    for p in &c.prompts {
        w.doc(
            1,
            &format!(
                "{}\n\n{}\n\nThe prompt `{}`.",
                p.title, p.description, p.name
            ),
        );
        handler_signature(
            w,
            &p.method,
            &format!("args: {}", p.args_type),
            "Result<Vec<::mcp_contract::PromptMessage>, ::mcp_contract::PromptError>",
        );
    }
    for (owner, argument, completion) in completed(c) {
        let CompletionDef::Handler { method } = completion else {
            continue;
        };
        w.doc(
            1,
            &format!(
                "The values that complete `{argument}` of `{owner}`, given the value typed so far \
                 and the arguments already given. The first 100 are sent, with how many there are."
            ),
        );
        handler_signature(
            w,
            method,
            "request: ::mcp_contract::Completing",
            "Vec<String>",
        );
    }
}

/// Every completion with its owner (a prompt's or a resource's name) and argument, in the
/// order of [`Contract::completion_handlers`].
fn completed(c: &Contract) -> Vec<(&str, &str, &CompletionDef)> {
    let prompts = c.prompts.iter().flat_map(|p| {
        p.arguments
            .iter()
            .filter_map(|a| Some((p.name.as_str(), a.name.as_str(), a.completion.as_ref()?)))
    });
    let resources = c.resources.iter().flat_map(|r| {
        r.completions
            .iter()
            .map(|(v, comp)| (r.name.as_str(), v.as_str(), comp))
    });
    prompts.chain(resources).collect()
}

/// `get_prompt` and `complete` of the dispatcher, when there is something to dispatch.
pub(super) fn dispatch(w: &mut Code, c: &Contract) {
    if !c.prompts.is_empty() {
        w.line(1, &["fn get_prompt("]);
        w.line(2, &["&self,"]);
        w.line(2, &["prompt: usize,"]);
        w.line(
            2,
            &["arguments: ::std::collections::HashMap<String, String>,"],
        );
        w.line(2, &["cx: ::mcp_contract::Context,"]);
        box_future(
            w,
            "Result<Vec<::mcp_contract::PromptMessage>, ::mcp_contract::PromptError>",
        );
        w.line(2, &["Box::pin(async move {"]);
        if c.prompts.iter().any(|p| !p.arguments.is_empty()) {
            w.line(3, &["let mut arguments = arguments;"]);
        } else {
            w.line(3, &["let _ = arguments;"]);
        }
        w.line(3, &["match prompt {"]);
        for (index, p) in c.prompts.iter().enumerate() {
            if p.arguments.is_empty() {
                ln!(
                    w,
                    4,
                    "{index} => Tools::{}(&self.0, {} {{}}, cx).await,",
                    p.method,
                    p.args_type
                );
                continue;
            }
            ln!(w, 4, "{index} => {{");
            ln!(w, 5, "let args = {} {{", p.args_type);
            for a in &p.arguments {
                // The runtime has checked that every required argument is there.
                if a.required {
                    ln!(
                        w,
                        6,
                        "{}: arguments.remove({}).unwrap_or_default(),",
                        a.field,
                        string(&a.name)
                    );
                } else {
                    ln!(w, 6, "{}: arguments.remove({}),", a.field, string(&a.name));
                }
            }
            w.line(5, &["};"]);
            ln!(w, 5, "Tools::{}(&self.0, args, cx).await", p.method);
            w.line(4, &["}"]);
        }
        w.line(
            4,
            &["_ => Err(::mcp_contract::PromptError::Failed(\"no such prompt\".into())),"],
        );
        w.line(3, &["}"]);
        w.line(2, &["})"]);
        w.line(1, &["}"]);
    }
    let handlers = c.completion_handlers();
    if !handlers.is_empty() {
        w.line(1, &["fn complete("]);
        w.line(2, &["&self,"]);
        w.line(2, &["handler: usize,"]);
        w.line(2, &["request: ::mcp_contract::Completing,"]);
        w.line(2, &["cx: ::mcp_contract::Context,"]);
        box_future(w, "Vec<String>");
        w.line(2, &["Box::pin(async move {"]);
        w.line(3, &["match handler {"]);
        for (index, m) in handlers.iter().enumerate() {
            ln!(w, 4, "{index} => Tools::{m}(&self.0, request, cx).await,");
        }
        w.line(4, &["_ => Vec::new(),"]);
        w.line(3, &["}"]);
        w.line(2, &["})"]);
        w.line(1, &["}"]);
    }
}

/// `CompletionSpec` of one completion; `next` numbers the handlers in order.
fn completion_spec(completion: Option<&CompletionDef>, next: &mut usize) -> String {
    match completion {
        None => "::mcp_contract::codegen::CompletionSpec::None".into(),
        Some(CompletionDef::Values(values)) => {
            format!(
                "::mcp_contract::codegen::CompletionSpec::Values(&[{}])",
                strings(values)
            )
        }
        Some(CompletionDef::Handler { .. }) => {
            *next += 1;
            format!(
                "::mcp_contract::codegen::CompletionSpec::Handler({})",
                *next - 1
            )
        }
    }
}

/// `SPEC.prompts` at `depth`, and each resource's `completions`, with handlers numbered as
/// [`dispatch`] numbers them.
pub(super) fn specs(w: &mut Code, c: &Contract, depth: usize) -> Vec<String> {
    let mut next = 0;
    if c.prompts.is_empty() {
        w.line(depth, &["prompts: &[],"]);
    } else {
        w.line(depth, &["prompts: &["]);
        for p in &c.prompts {
            w.line(depth + 1, &["::mcp_contract::codegen::PromptSpec {"]);
            let d = depth + 2;
            ln!(w, d, "name: {},", string(&p.name));
            ln!(w, d, "title: {},", string(&p.title));
            ln!(w, d, "description: {},", string(&p.description));
            if p.arguments.is_empty() {
                w.line(d, &["arguments: &[],"]);
            } else {
                w.line(d, &["arguments: &["]);
                for a in &p.arguments {
                    w.line(d + 1, &["::mcp_contract::codegen::PromptArgumentSpec {"]);
                    ln!(w, d + 2, "name: {},", string(&a.name));
                    ln!(w, d + 2, "description: {},", string(&a.description));
                    ln!(w, d + 2, "required: {},", a.required);
                    let completion = completion_spec(a.completion.as_ref(), &mut next);
                    ln!(w, d + 2, "completion: {completion},");
                    w.line(d + 1, &["},"]);
                }
                w.line(d, &["],"]);
            }
            super::icons::icon_specs(w, d, &p.icons);
            ln!(w, d, "scopes: &[{}],", strings(&p.scopes));
            ln!(
                w,
                d,
                "meta: {},",
                meta_field(crate::emit::wire::entry_meta(&p.lifecycle))
            );
            w.line(depth + 1, &["},"]);
        }
        w.line(depth, &["],"]);
    }
    c.resources
        .iter()
        .map(|r| {
            let entries: Vec<String> = r
                .completions
                .iter()
                .map(|(v, comp)| {
                    format!(
                        "({}, {})",
                        string(v),
                        completion_spec(Some(comp), &mut next)
                    )
                })
                .collect();
            format!("&[{}]", entries.join(", "))
        })
        .collect()
}
