//! The data items of each tool: its arguments, output and nested types, with defaults as
//! expressions, and the Rust type each schema becomes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::*;

pub(super) fn tool_items(c: &Contract, t: &ToolDef) -> TokenStream {
    let args = struct_item(
        c,
        &t.args_type(),
        &t.parameters,
        &format!("The arguments of `{}`.", t.name),
        true,
    );
    let nested_args: Vec<TokenStream> = t
        .parameters
        .iter()
        .map(|f| type_items(c, &f.schema, "", false))
        .collect();
    let output = match &t.output {
        OutputDef::Text => quote!(),
        OutputDef::Object { fields, .. } => {
            let s = struct_item(
                c,
                &t.output_type(),
                fields,
                &format!("What `{}` returns.", t.name),
                false,
            );
            let nested = fields.iter().map(|f| type_items(c, &f.schema, "", false));
            quote!(#s #(#nested)*)
        }
    };
    let content = super::content::content_enum(t);
    let error = tool_error(c, t);
    quote!(#args #(#nested_args)* #output #content #error)
}

/// The struct or enum a schema needs, and those of everything nested in it. Shared types are
/// emitted once, at the top level (`top`), never where they are used.
pub(super) fn type_items(c: &Contract, schema: &Schema, name: &str, top: bool) -> TokenStream {
    match &schema.kind {
        Kind::Object(obj) => {
            let summary = schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", obj.rust_name));
            let rust_name = if top { name } else { &obj.rust_name };
            let s = struct_item(c, rust_name, &obj.fields, &summary, false);
            let nested = obj
                .fields
                .iter()
                .map(|f| type_items(c, &f.schema, "", false));
            quote!(#s #(#nested)*)
        }
        Kind::Enum(e) => {
            let summary = doc(&schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", e.rust_name)));
            let enum_name = if top { name } else { &e.rust_name };
            let rust_name = ident(enum_name);
            let variants = e.values.iter().map(|(value, variant)| {
                let v = ident(variant);
                let d = doc(&format!("`{value}`"));
                quote! { #d #[serde(rename = #value)] #v, }
            });
            let names: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
            let lints = lints::variant_names(enum_name, &names);
            quote! {
                #summary
                #lints
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                #[derive(::mcp_contract::serde::Serialize, ::mcp_contract::serde::Deserialize)]
                #[serde(crate = "::mcp_contract::serde")]
                pub enum #rust_name { #(#variants)* }
            }
        }
        Kind::Array(items) => type_items(c, items, name, top),
        Kind::Named(_)
        | Kind::String
        | Kind::Integer
        | Kind::Number
        | Kind::Boolean
        | Kind::Json => quote!(),
    }
}

/// A struct and the associated functions its defaults need; a tool's `parameters` also get
/// the constants of what they declare ([`limits`]).
pub(super) fn struct_item(
    c: &Contract,
    name: &str,
    fields: &[Field],
    summary: &str,
    parameters: bool,
) -> TokenStream {
    let summary = doc(summary);
    let name_ident = ident(name);
    let mut constants = Vec::new();
    let mut default_fns = Vec::new();
    let items: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let declared = if parameters {
                limits::declared(c, f)
            } else {
                limits::Declared::default()
            };
            constants.extend(declared.constants);
            let field = ident(&f.ident);
            let ty = rust_type(c, &f.schema);
            let doc = doc(&f.published_description());
            let rename = if f.ident.trim_start_matches("r#") == f.name {
                quote!()
            } else {
                let n = &f.name;
                quote!(#[serde(rename = #n)])
            };
            match (&f.default, f.required) {
                (Some(default), _) => {
                    // An associated function: unique by construction, as field names are.
                    let func = format_ident!("default_{}", f.ident.trim_start_matches("r#"));
                    let path = format!("{name}::{func}");
                    let value = declared
                        .default
                        .unwrap_or_else(|| value_expr(c, &f.schema, default));
                    default_fns.push(quote! { fn #func() -> #ty { #value } });
                    quote! { #doc #rename #[serde(default = #path)] pub #field: #ty, }
                }
                (None, true) => quote! { #doc #rename pub #field: #ty, },
                (None, false) => quote! {
                    #doc #rename
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub #field: Option<#ty>,
                },
            }
        })
        .collect();
    let allow = lints::nested_arrays(c, fields);
    // The constants are there to be used; a server that never names one is not at fault.
    let unused = (!constants.is_empty()).then(|| quote!(#[allow(dead_code)]));
    let defaults = if default_fns.is_empty() && constants.is_empty() {
        quote!()
    } else {
        quote!(#allow #unused impl #name_ident { #(#constants)* #(#default_fns)* })
    };
    quote! {
        #summary
        #allow
        #[derive(Debug, Clone, PartialEq)]
        #[derive(::mcp_contract::serde::Serialize, ::mcp_contract::serde::Deserialize)]
        #[serde(crate = "::mcp_contract::serde")]
        pub struct #name_ident { #(#items)* }
        #defaults
    }
}

pub(super) fn rust_type(c: &Contract, schema: &Schema) -> TokenStream {
    match &schema.kind {
        Kind::String => quote!(String),
        Kind::Integer => match schema.rust_integer() {
            Some(RustInteger::U64) => quote!(u64),
            _ => quote!(i64),
        },
        Kind::Number => quote!(f64),
        Kind::Boolean => quote!(bool),
        Kind::Json => quote!(::mcp_contract::serde_json::Value),
        Kind::Enum(e) => {
            let i = ident(&e.rust_name);
            quote!(#i)
        }
        Kind::Array(items) => {
            let inner = rust_type(c, items);
            quote!(Vec<#inner>)
        }
        Kind::Object(o) => {
            let i = ident(&o.rust_name);
            quote!(#i)
        }
        Kind::Named(i) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Object(_) | Kind::Enum(_) => {
                    let i = ident(&t.name);
                    quote!(#i)
                }
                _ => rust_type(c, &t.schema),
            }
        }
    }
}

/// A Rust expression for a (validated) default value.
pub(super) fn value_expr(c: &Contract, schema: &Schema, value: &Value) -> TokenStream {
    match (&schema.kind, value) {
        (Kind::Named(i), v) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Object(o) => object_expr(c, &t.name, &o.fields, v),
                Kind::Enum(e) => enum_expr(&t.name, e, v),
                _ => value_expr(c, &t.schema, v),
            }
        }
        (Kind::String, Value::String(s)) => quote!(String::from(#s)),
        (Kind::Integer, Value::Number(n)) if schema.rust_integer() == Some(RustInteger::U64) => {
            // `2.0` is a valid integer in JSON Schema, so read whole floats too.
            let lit = Literal::u64_suffixed(
                n.as_u64()
                    .or_else(|| n.as_f64().map(|f| f as u64))
                    .unwrap_or_default(),
            );
            quote!(#lit)
        }
        (Kind::Integer, Value::Number(n)) => {
            let lit = Literal::i64_suffixed(
                n.as_i64()
                    .or_else(|| n.as_f64().map(|f| f as i64))
                    .unwrap_or_default(),
            );
            quote!(#lit)
        }
        (Kind::Number, Value::Number(n)) => {
            let lit = Literal::f64_suffixed(n.as_f64().unwrap_or_default());
            quote!(#lit)
        }
        (Kind::Boolean, Value::Bool(b)) => quote!(#b),
        // JSON text is also the token form `json!` takes.
        (Kind::Json, v) => {
            let tokens: TokenStream = v.to_string().parse().unwrap_or_default();
            quote!(::mcp_contract::serde_json::json!(#tokens))
        }
        (Kind::Enum(e), v) => enum_expr(&e.rust_name, e, v),
        (Kind::Array(items), Value::Array(values)) => {
            let elems = values.iter().map(|v| value_expr(c, items, v));
            quote!(vec![#(#elems),*])
        }
        (Kind::Object(o), v) => object_expr(c, &o.rust_name, &o.fields, v),
        _ => quote!(Default::default()),
    }
}

pub(super) fn enum_expr(name: &str, e: &EnumDef, value: &Value) -> TokenStream {
    let ty = ident(name);
    let variant = e
        .values
        .iter()
        .find(|(v, _)| Some(v.as_str()) == value.as_str())
        .map(|(_, var)| ident(var));
    quote!(#ty::#variant)
}

pub(super) fn object_expr(
    c: &Contract,
    name: &str,
    fields: &[Field],
    value: &Value,
) -> TokenStream {
    let ty = ident(name);
    let inits = fields.iter().map(|f| {
        let field = ident(&f.ident);
        let given = value.get(&f.name);
        let expr = match (given, &f.default, f.required) {
            (Some(v), _, true) => value_expr(c, &f.schema, v),
            (Some(v), Some(_), false) => value_expr(c, &f.schema, v),
            (Some(v), None, false) => {
                let e = value_expr(c, &f.schema, v);
                quote!(Some(#e))
            }
            (None, Some(d), _) => value_expr(c, &f.schema, d),
            (None, None, _) => quote!(None),
        };
        quote!(#field: #expr)
    });
    quote!(#ty { #(#inits),* })
}
