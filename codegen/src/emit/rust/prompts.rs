//! The prompts' and completions' part of the handler trait, its dispatch and `SPEC`.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::*;

/// A prompt's arguments struct: a `String` for each required argument, an `Option<String>`
/// for each other.
pub(super) fn prompt_args(p: &PromptDef) -> TokenStream {
    let name = ident(&p.args_type);
    let docs = doc(&format!("The arguments of the prompt `{}`.", p.name));
    let fields = p.arguments.iter().map(|a| {
        let f = ident(&a.field);
        let d = doc(&format!("`{}`: {}", a.name, a.description));
        let ty = if a.required {
            quote!(String)
        } else {
            quote!(Option<String>)
        };
        quote!(#d pub #f: #ty,)
    });
    quote! {
        #docs
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct #name { #(#fields)* }
    }
}

/// The trait methods: one per prompt, then one per completion handler.
pub(super) fn trait_methods(c: &Contract) -> Vec<TokenStream> {
    let prompts = c.prompts.iter().map(|p| {
        let method = ident(&p.method);
        let args = ident(&p.args_type);
        let docs = doc(&format!(
            "{}\n\n{}\n\nThe prompt `{}`.",
            p.title, p.description, p.name
        ));
        quote! {
            #docs
            fn #method(
                &self,
                args: #args,
                cx: ::mcp_contract::Context,
            ) -> impl ::core::future::Future<Output = Result<Vec<::mcp_contract::PromptMessage>, ::mcp_contract::PromptError>> + Send;
        }
    });
    let completions = completed(c)
        .into_iter()
        .filter_map(|(owner, argument, completion)| {
            let CompletionDef::Handler { method } = completion else {
                return None;
            };
            let method = ident(method);
            let docs = doc(&format!(
                "The values that complete `{argument}` of `{owner}`, given the value typed so far \
             and the arguments already given. The first 100 are sent, with how many there are."
            ));
            Some(quote! {
                #docs
                fn #method(
                    &self,
                    request: ::mcp_contract::Completing,
                    cx: ::mcp_contract::Context,
                ) -> impl ::core::future::Future<Output = Vec<String>> + Send;
            })
        });
    prompts.chain(completions).collect()
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
pub(super) fn dispatch(c: &Contract) -> TokenStream {
    let get_prompt = (!c.prompts.is_empty()).then(|| {
        let arms = c.prompts.iter().enumerate().map(|(i, p)| {
            let index = Literal::usize_unsuffixed(i);
            let method = ident(&p.method);
            let args = ident(&p.args_type);
            let fields = p.arguments.iter().map(|a| {
                let f = ident(&a.field);
                let name = &a.name;
                // The runtime has checked that every required argument is there.
                if a.required {
                    quote!(#f: arguments.remove(#name).unwrap_or_default(),)
                } else {
                    quote!(#f: arguments.remove(#name),)
                }
            });
            quote!(#index => Tools::#method(&self.0, #args { #(#fields)* }, cx).await,)
        });
        let bind = if c.prompts.iter().any(|p| !p.arguments.is_empty()) {
            quote!(let mut arguments = arguments;)
        } else {
            quote!(let _ = arguments;)
        };
        quote! {
            fn get_prompt(
                &self,
                prompt: usize,
                arguments: ::std::collections::HashMap<String, String>,
                cx: ::mcp_contract::Context,
            ) -> ::mcp_contract::codegen::BoxFuture<'_, Result<Vec<::mcp_contract::PromptMessage>, ::mcp_contract::PromptError>> {
                Box::pin(async move {
                    #bind
                    match prompt {
                        #(#arms)*
                        _ => Err(::mcp_contract::PromptError::Failed("no such prompt".into())),
                    }
                })
            }
        }
    });
    let handlers = c.completion_handlers();
    let complete = (!handlers.is_empty()).then(|| {
        let arms = handlers.iter().enumerate().map(|(i, m)| {
            let index = Literal::usize_unsuffixed(i);
            let method = ident(m);
            quote!(#index => Tools::#method(&self.0, request, cx).await,)
        });
        quote! {
            fn complete(
                &self,
                handler: usize,
                request: ::mcp_contract::Completing,
                cx: ::mcp_contract::Context,
            ) -> ::mcp_contract::codegen::BoxFuture<'_, Vec<String>> {
                Box::pin(async move {
                    match handler {
                        #(#arms)*
                        _ => Vec::new(),
                    }
                })
            }
        }
    });
    quote!(#get_prompt #complete)
}

/// `CompletionSpec` of one completion; `next` numbers the handlers in order.
fn completion_spec(completion: Option<&CompletionDef>, next: &mut usize) -> TokenStream {
    match completion {
        None => quote!(::mcp_contract::codegen::CompletionSpec::None),
        Some(CompletionDef::Values(values)) => {
            quote!(::mcp_contract::codegen::CompletionSpec::Values(&[#(#values),*]))
        }
        Some(CompletionDef::Handler { .. }) => {
            let index = Literal::usize_unsuffixed(*next);
            *next += 1;
            quote!(::mcp_contract::codegen::CompletionSpec::Handler(#index))
        }
    }
}

/// `SPEC.prompts`, and each resource's `completions`, with handlers numbered as
/// [`dispatch`] numbers them.
pub(super) fn specs(c: &Contract) -> (TokenStream, Vec<TokenStream>) {
    let mut next = 0;
    let prompts: Vec<TokenStream> = c
        .prompts
        .iter()
        .map(|p| {
            let (name, title, description) = (&p.name, &p.title, &p.description);
            let icons = super::icons::icon_specs(&p.icons);
            let arguments: Vec<TokenStream> = p
                .arguments
                .iter()
                .map(|a| {
                    let (name, description, required) = (&a.name, &a.description, a.required);
                    let completion = completion_spec(a.completion.as_ref(), &mut next);
                    quote! {
                        ::mcp_contract::codegen::PromptArgumentSpec {
                            name: #name,
                            description: #description,
                            required: #required,
                            completion: #completion,
                        }
                    }
                })
                .collect();
            quote! {
                ::mcp_contract::codegen::PromptSpec {
                    name: #name,
                    title: #title,
                    description: #description,
                    arguments: &[#(#arguments),*],
                    icons: #icons,
                }
            }
        })
        .collect();
    let resources = c
        .resources
        .iter()
        .map(|r| {
            let entries = r.completions.iter().map(|(v, comp)| {
                let spec = completion_spec(Some(comp), &mut next);
                quote!((#v, #spec))
            });
            quote!(&[#(#entries),*])
        })
        .collect();
    (quote!(&[#(#prompts),*]), resources)
}
