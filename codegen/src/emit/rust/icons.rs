//! An entity's icons as the runtime's `IconSpec` statics.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{IconDef, IconTheme};

/// `&[IconSpec { … }, …]`, the value of an `icons` field of the runtime's specs.
pub(super) fn icon_specs(icons: &[IconDef]) -> TokenStream {
    let specs = icons.iter().map(|i| {
        let src = &i.src;
        let mime_type = match &i.mime_type {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        let sizes = &i.sizes;
        let theme = match i.theme {
            Some(IconTheme::Light) => quote!(Some(::mcp_contract::codegen::IconTheme::Light)),
            Some(IconTheme::Dark) => quote!(Some(::mcp_contract::codegen::IconTheme::Dark)),
            None => quote!(None),
        };
        quote! {
            ::mcp_contract::codegen::IconSpec {
                src: #src,
                mime_type: #mime_type,
                sizes: &[#(#sizes),*],
                theme: #theme,
            }
        }
    });
    quote!(&[#(#specs),*])
}
