//! A tool's declared content (`output.content`): the enum of the blocks its handler may build,
//! and what the dispatch arm tells the runtime to check.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// `{Tool}Content`: one variant per declared kind, with a MIME type to give only where the
/// manifest allows more than one; and its conversion into the runtime's block.
pub(super) fn content_enum(t: &ToolDef) -> TokenStream {
    if t.content.is_empty() {
        return quote!();
    }
    let name = ident(&t.content_type());
    let summary = doc(&format!(
        "A content block `{}` answers with: only the kinds its manifest declares.",
        t.name
    ));
    let variants = t.content.iter().map(variant);
    let arms = t.content.iter().map(|b| arm(&name, b));
    quote! {
        #summary
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum #name { #(#variants)* }

        impl ::core::convert::From<#name> for ::mcp_contract::codegen::Block {
            fn from(block: #name) -> Self {
                match block { #(#arms)* }
            }
        }
    }
}

fn variant(b: &ContentBlockDef) -> TokenStream {
    let v = ident(b.kind.variant());
    let types = || {
        let listed: Vec<String> = b.mime_types.iter().map(|m| format!("`{m}`")).collect();
        listed.join(", ")
    };
    let mime = || {
        let d = doc(&format!("Its MIME type: one of {}.", types()));
        quote!(#d mime_type: ::std::string::String,)
    };
    match b.kind {
        ContentKind::Text => {
            let d = doc("A text block.");
            quote!(#d Text(::std::string::String),)
        }
        ContentKind::ResourceLink => {
            let d = doc("A link to a resource the client may read.");
            quote!(#d ResourceLink(::mcp_contract::ResourceLink),)
        }
        ContentKind::Image | ContentKind::Audio => {
            let what = if b.kind == ContentKind::Image {
                "An image"
            } else {
                "Audio"
            };
            let (d, mime) = match b.fixed_mime_type() {
                Some(m) => (doc(&format!("{what}, `{m}`.")), quote!()),
                None => (doc(&format!("{what}, of a declared MIME type.")), mime()),
            };
            let data = doc("Its bytes, raw or base64.");
            quote!(#d #v { #data data: ::mcp_contract::Data, #mime },)
        }
        ContentKind::Resource => {
            let (d, mime) = match b.fixed_mime_type() {
                Some(m) => (doc(&format!("An embedded resource, `{m}`.")), quote!()),
                None => (
                    doc("An embedded resource, of a declared MIME type."),
                    mime(),
                ),
            };
            let uri = doc("Its URI.");
            let body = doc("Its contents: text, or bytes (sent base64-encoded).");
            quote!(#d #v { #uri uri: ::std::string::String, #body body: ::mcp_contract::ResourceBody, #mime },)
        }
    }
}

fn arm(name: &syn::Ident, b: &ContentBlockDef) -> TokenStream {
    let v = ident(b.kind.variant());
    let block = quote!(::mcp_contract::codegen::Block);
    // The MIME type the manifest fixes, or the one the handler gave.
    let (bind, mime) = match b.fixed_mime_type() {
        Some(m) => (quote!(), quote!(mime_type: #m.into())),
        None => (quote!(mime_type,), quote!(mime_type)),
    };
    match b.kind {
        ContentKind::Text => quote!(#name::Text(text) => #block::Text(text),),
        ContentKind::ResourceLink => {
            quote!(#name::ResourceLink(link) => #block::ResourceLink(link),)
        }
        ContentKind::Image | ContentKind::Audio => {
            quote!(#name::#v { data, #bind } => #block::#v { data, #mime },)
        }
        ContentKind::Resource => {
            quote!(#name::Resource { uri, body, #bind } => #block::Resource { uri, body, #mime },)
        }
    }
}

/// The declared MIME types the runtime holds each block to.
pub(super) fn declared(t: &ToolDef) -> TokenStream {
    let of = |kind: ContentKind| {
        let types = t
            .content
            .iter()
            .filter(|b| b.kind == kind)
            .flat_map(|b| b.mime_types.iter());
        quote!(&[#(#types),*])
    };
    let (image, audio, resource) = (
        of(ContentKind::Image),
        of(ContentKind::Audio),
        of(ContentKind::Resource),
    );
    quote!(&::mcp_contract::codegen::Declared { image: #image, audio: #audio, resource: #resource })
}
