//! Each question a tool, prompt or resource declares: a struct of its form's typed fields, its `Form` impl (the
//! `requestedSchema` the model states) and `ask`, which asks it with the manifest's id and
//! message.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// The items of every question of `t`.
pub(super) fn question_items(c: &Contract, t: &ToolDef) -> TokenStream {
    let items = t.questions.iter().map(|q| question(c, &t.name, q));
    quote!(#(#items)*)
}

/// The items of every question of the prompts and resources.
pub(super) fn other_question_items(c: &Contract) -> TokenStream {
    let prompts = c.prompts.iter().map(|p| (&p.name, &p.questions));
    let resources = c.resources.iter().map(|r| (&r.name, &r.questions));
    let items = prompts
        .chain(resources)
        .flat_map(|(owner, questions)| questions.iter().map(move |q| question(c, owner, q)));
    quote!(#(#items)*)
}

/// One question of the tool, prompt or resource `owner`.
fn question(c: &Contract, owner: &str, q: &QuestionDef) -> TokenStream {
    let name = ident(&q.rust_name);
    let id = &q.id;
    let args: Vec<syn::Ident> = q.placeholders.iter().map(|p| ident(&ident_of(p))).collect();
    let message = message(q);
    let summary = format!(
        "The answer to `{id}`, a question `{}` may ask: “{}”",
        owner, q.message.source
    );
    let ask_doc = doc(&format!(
        "Asks the user `{id}`{}. Await it before anything the answer decides: on 2026-07-28 the handler runs again from the start once the client answers.",
        if args.is_empty() {
            String::new()
        } else {
            format!(
                ", its message filled with {}",
                q.placeholders
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    ));
    let params = quote!(#(#args: impl ::std::fmt::Display),*);
    match &q.mode {
        QuestionMode::Form(fields) => {
            let plain: Vec<Field> = fields.iter().map(|f| f.field.clone()).collect();
            let s = struct_item(c, &q.rust_name, &plain, &summary, false, Role::Form);
            let nested = plain
                .iter()
                .map(|f| type_items(c, &f.schema, "", false, Role::Form));
            let schema = q
                .requested_schema()
                .map(|s| serde_json::to_string(&s).unwrap_or_default())
                .unwrap_or_default();
            let schema = json_literal(&schema);
            quote! {
                #s
                #(#nested)*
                impl ::mcp_contract::ask::Form for #name {
                    fn requested_schema() -> ::mcp_contract::serde_json::Value {
                        ::mcp_contract::serde_json::from_str(#schema).expect("the manifest's requestedSchema is JSON")
                    }
                }
                #[allow(dead_code)]
                impl #name {
                    /// The question's id, which keys it and its answer.
                    pub const ID: &str = #id;
                    #ask_doc
                    pub async fn ask(context: &::mcp_contract::Context, #params)
                        -> Result<::mcp_contract::ask::Answer<Self>, ::mcp_contract::ask::NotAsked>
                    {
                        context.elicit_form::<Self>(Self::ID, #message).await
                    }
                }
            }
        }
        QuestionMode::Url => {
            let summary = doc(&format!(
                "`{id}`, a question `{}` may ask on a page of its own (URL mode): “{}”",
                owner, q.message.source
            ));
            quote! {
                #summary
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct #name;
                #[allow(dead_code)]
                impl #name {
                    /// The question's id, which keys it and its answer.
                    pub const ID: &str = #id;
                    #ask_doc
                    /// The user is sent to `url`, where the server collects the answer itself.
                    pub async fn ask(context: &::mcp_contract::Context, url: &str, #params)
                        -> Result<::mcp_contract::ask::Answer<()>, ::mcp_contract::ask::NotAsked>
                    {
                        context.elicit_url(Self::ID, #message, url).await
                    }
                }
            }
        }
    }
}

/// A placeholder's Rust argument name.
fn ident_of(placeholder: &str) -> String {
    crate::ident::snake(placeholder)
}

/// The message as a `&str` expression over the `ask` arguments it names.
fn message(q: &QuestionDef) -> TokenStream {
    let (format, plain) = super::errors::format_string(&q.message, ident_of);
    if q.placeholders.is_empty() {
        quote!(#plain)
    } else {
        quote!(&format!(#format))
    }
}
