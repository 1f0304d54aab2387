//! The error enums: each tool's declared codes, the whole vocabulary, and the conversions
//! between them.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// An error enum and its trait impls, for one tool's codes or for the whole vocabulary.
pub(super) fn error_enum(
    name: &str,
    summary: &str,
    defs: &[&ErrorDef],
    attrs: TokenStream,
) -> TokenStream {
    let summary = doc(summary);
    let name = ident(name);
    let variants = defs.iter().map(|e| {
        let v = ident(&e.variant);
        let d = doc(&format!("`{}`: {}", e.code, e.message.source));
        let fields = e.fields.iter().map(|f| {
            let fi = ident(&crate::ident::snake(f));
            quote!(#fi: String)
        });
        if e.fields.is_empty() {
            quote! { #d #v, }
        } else {
            quote! { #d #v { #(#fields),* }, }
        }
    });
    let codes = defs.iter().map(|e| {
        let v = ident(&e.variant);
        let code = &e.code;
        quote!(Self::#v { .. } => #code,)
    });
    let hints = defs.iter().map(|e| match &e.hint {
        Some(h) => render_arm(e, h, true),
        None => {
            let v = ident(&e.variant);
            quote!(Self::#v { .. } => None,)
        }
    });
    let messages = defs.iter().map(|e| render_arm(e, &e.message, false));
    let (codes, messages, hints): (Vec<_>, Vec<_>, Vec<_>) =
        (codes.collect(), messages.collect(), hints.collect());
    let body = |arms: &[TokenStream]| {
        if arms.is_empty() {
            quote!(match *self {})
        } else {
            quote!(match self { #(#arms)* })
        }
    };
    let (code_body, message_body, hint_body) = (body(&codes), body(&messages), body(&hints));
    quote! {
        #summary
        #attrs
        // A code with many placeholders is as large as it is; boxing would only make the
        // enum harder to build and match.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum #name { #(#variants)* }

        impl ::mcp_contract::ToolError for #name {
            fn code(&self) -> &'static str { #code_body }
            fn message(&self) -> String { #message_body }
            fn hint(&self) -> Option<String> { #hint_body }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&::mcp_contract::ToolError::message(self))
            }
        }

        impl ::std::error::Error for #name {}
    }
}

/// A match arm that renders a template from the variant's fields.
pub(super) fn render_arm(e: &ErrorDef, template: &Template, optional: bool) -> TokenStream {
    let v = ident(&e.variant);
    let mut fmt = String::new();
    let mut plain = String::new();
    let mut args: Vec<syn::Ident> = Vec::new();
    for part in &template.parts {
        match part {
            TemplatePart::Literal(l) => {
                plain.push_str(l);
                fmt.push_str(&l.replace('{', "{{").replace('}', "}}"));
            }
            TemplatePart::Field(f) => {
                fmt.push_str("{}");
                args.push(ident(&crate::ident::snake(f)));
            }
        }
    }
    let mut binds: Vec<syn::Ident> = Vec::new();
    for a in &args {
        if !binds.contains(a) {
            binds.push(a.clone());
        }
    }
    let (pattern, text) = if binds.is_empty() {
        (quote!(Self::#v { .. }), quote!(String::from(#plain)))
    } else if let [TemplatePart::Field(_)] = template.parts.as_slice() {
        // `format!("{}", x)` is clippy's useless_format.
        let a = &binds[0];
        (
            quote!(Self::#v { #a, .. }),
            quote!(::core::clone::Clone::clone(#a)),
        )
    } else {
        (
            quote!(Self::#v { #(#binds),*, .. }),
            quote!(format!(#fmt, #(#args),*)),
        )
    };
    if optional {
        quote!(#pattern => Some(#text),)
    } else {
        quote!(#pattern => #text,)
    }
}

/// `TryFrom<ContractError>` and `From<…> for ContractError` for one tool's error enum, so a
/// handler can map its domain errors onto the vocabulary once and narrow per tool.
pub(super) fn vocabulary_conversions(name: &str, defs: &[&ErrorDef]) -> TokenStream {
    let name = ident(name);
    let shapes: Vec<TokenStream> = defs
        .iter()
        .map(|e| {
            let v = ident(&e.variant);
            let fields = e.fields.iter().map(|f| ident(&crate::ident::snake(f)));
            if e.fields.is_empty() {
                quote!(#v)
            } else {
                quote!(#v { #(#fields),* })
            }
        })
        .collect();
    let (narrow, widen) = if defs.is_empty() {
        (quote!(Err(error)), quote!(match error {}))
    } else {
        (
            quote! {
                #[allow(unreachable_patterns)]
                match error {
                    #(ContractError::#shapes => Ok(Self::#shapes),)*
                    other => Err(other),
                }
            },
            quote!(match error { #(#name::#shapes => Self::#shapes,)* }),
        )
    };
    quote! {
        impl ::core::convert::TryFrom<ContractError> for #name {
            type Error = ContractError;
            fn try_from(error: ContractError) -> Result<Self, ContractError> {
                #narrow
            }
        }
        impl ::core::convert::From<#name> for ContractError {
            fn from(error: #name) -> Self { #widen }
        }
    }
}
