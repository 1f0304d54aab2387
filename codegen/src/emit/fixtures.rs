//! Contract fixtures: each tool's declared contract as literal data in the generated module,
//! taken from the model rather than from the emitted schemas, so a contract test comparing
//! the two catches an emitter that drifts.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Value};

use crate::emit::rust::json_literal;
use crate::hint::Hint;
use crate::model::*;

/// `pub static FIXTURES: &[ToolFixture]`, one per tool in manifest order.
pub(crate) fn fixtures(c: &Contract) -> TokenStream {
    let items = c.tools.iter().map(|t| {
        let name = &t.name;
        let title = &t.title;
        let hints = Hint::ALL.map(|h| {
            let field = format_ident!("{}", h.key());
            match t.published_hints.get(h) {
                Some(b) => quote!(#field: Some(#b)),
                None => quote!(#field: None),
            }
        });
        let properties = t.parameters.iter().map(|f| &f.name);
        let required = t.parameters.iter().filter(|f| f.required).map(|f| &f.name);
        let sentences = t.sentences.iter().map(|&i| &c.sentences[i].text);
        let defaults = t.parameters.iter().filter_map(|f| {
            let name = &f.name;
            f.default.as_ref().map(|d| {
                let json = json_literal(&d.to_string());
                quote!((#name, #json))
            })
        });
        let example_call = json_literal(&example_call(t).to_string());
        let structured = matches!(t.output, OutputDef::Object { .. });
        quote! {
            ::mcp_contract::codegen::ToolFixture {
                name: #name,
                title: #title,
                hints: ::mcp_contract::codegen::PublishedHints { #(#hints),* },
                properties: &[#(#properties),*],
                required: &[#(#required),*],
                sentences: &[#(#sentences),*],
                defaults: &[#(#defaults),*],
                example_call: #example_call,
                structured_output: #structured,
            }
        }
    });
    quote! {
        /// Each tool's contract as `tools.yaml` declares it, for contract tests
        /// (`mcp_contract::testing::assert_contract`).
        #[allow(dead_code)]
        pub static FIXTURES: &[::mcp_contract::codegen::ToolFixture] = &[#(#items),*];
    }
}

/// A call that passes the input schema: every parameter with its first example.
pub(crate) fn example_call(t: &ToolDef) -> Value {
    let args: Map<String, Value> = t
        .parameters
        .iter()
        .filter_map(|f| {
            f.schema
                .examples
                .first()
                .map(|e| (f.name.clone(), e.clone()))
        })
        .collect();
    Value::Object(args)
}
