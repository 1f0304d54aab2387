//! Contract fixtures: each tool's declared contract as literal data in the generated module,
//! taken from the model rather than from the emitted schemas, so a contract test comparing
//! the two catches an emitter that drifts.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Value};

use crate::emit::rust::text::{self, Code, id, string};
use crate::emit::rust::{json_literal, json_text};
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

/// [`fixtures`] as text (see [`text`](crate::emit::rust::text)), or `None` when a line would
/// not fit.
pub(crate) fn fixtures_text(c: &Contract) -> Option<String> {
    let mut w = Code::new();
    w.doc(
        0,
        "Each tool's contract as `tools.yaml` declares it, for contract tests\n(`mcp_contract::testing::assert_contract`).",
    );
    w.line(0, &["#[allow(dead_code)]"]);
    let head = "pub static FIXTURES: &[::mcp_contract::codegen::ToolFixture] = &[";
    if c.tools.is_empty() {
        w.line(0, &[head, "];"]);
        return w.finish();
    }
    w.line(0, &[head]);
    for t in &c.tools {
        w.line(1, &["::mcp_contract::codegen::ToolFixture {"]);
        w.constant(2, &["name: ", &string(&t.name), ","]);
        w.constant(2, &["title: ", &string(&t.title), ","]);
        w.line(2, &["hints: ::mcp_contract::codegen::PublishedHints {"]);
        for h in Hint::ALL {
            let value = match t.published_hints.get(h) {
                Some(true) => "Some(true)",
                Some(false) => "Some(false)",
                None => "None",
            };
            w.line(3, &[id(h.key()), ": ", value, ","]);
        }
        w.line(2, &["},"]);
        let strings = |names: Vec<&String>| names.into_iter().map(|n| string(n)).collect();
        list(
            &mut w,
            "properties",
            strings(t.parameters.iter().map(|f| &f.name).collect()),
        );
        let required = t.parameters.iter().filter(|f| f.required).map(|f| &f.name);
        list(&mut w, "required", strings(required.collect()));
        let sentences = t.sentences.iter().map(|&i| &c.sentences[i].text);
        list(&mut w, "sentences", strings(sentences.collect()));
        let defaults = t.parameters.iter().filter_map(|f| {
            let json = json_text(&f.default.as_ref()?.to_string());
            Some(format!("({}, {json})", string(&f.name)))
        });
        list(&mut w, "defaults", defaults.collect());
        let example_call = json_text(&example_call(t).to_string());
        w.constant(2, &["example_call: ", &example_call, ","]);
        let structured = matches!(t.output, OutputDef::Object { .. });
        w.line(2, &["structured_output: ", &structured.to_string(), ","]);
        w.line(1, &["},"]);
    }
    w.line(0, &["];"]);
    w.finish()
}

/// A field of a fixture that is a slice: on one line when it fits, else one value a line.
fn list(w: &mut Code, key: &str, values: Vec<String>) {
    let one_line = format!("{key}: &[{}],", values.join(", "));
    if text::fits(2, &one_line) {
        w.line(2, &[&one_line]);
    } else {
        w.line(2, &[key, ": &["]);
        for v in &values {
            w.line(3, &[v, ","]);
        }
        w.line(2, &["],"]);
    }
}
