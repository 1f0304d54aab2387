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
            let lints = lints::allow(lints::variant_names(enum_name, &names));
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
            constants.extend(declared.constants.iter().map(limits::Constant::tokens));
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
                    let value = declared.default.map_or_else(
                        || value_expr(c, &f.schema, default),
                        |text| limits::tokens(&text),
                    );
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
    let allow = lints::allow(lints::nested_arrays(c, fields));
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
    limits::tokens(&rust_type_text(c, schema))
}

/// The Rust type a schema becomes, as prettyplease prints it (`Vec<Vec<String>>`).
pub(super) fn rust_type_text(c: &Contract, schema: &Schema) -> String {
    match &schema.kind {
        Kind::String => "String".into(),
        Kind::Integer => match schema.rust_integer() {
            Some(RustInteger::U64) => "u64".into(),
            _ => "i64".into(),
        },
        Kind::Number => "f64".into(),
        Kind::Boolean => "bool".into(),
        Kind::Json => "::mcp_contract::serde_json::Value".into(),
        Kind::Enum(e) => id(&e.rust_name).to_owned(),
        Kind::Array(items) => format!("Vec<{}>", rust_type_text(c, items)),
        Kind::Object(o) => id(&o.rust_name).to_owned(),
        Kind::Named(i) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Object(_) | Kind::Enum(_) => id(&t.name).to_owned(),
                _ => rust_type_text(c, &t.schema),
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

/// `Type::Variant` for an enum's (validated) value.
pub(super) fn enum_text(name: &str, e: &EnumDef, value: &Value) -> Option<String> {
    let (_, variant) = e
        .values
        .iter()
        .find(|(v, _)| Some(v.as_str()) == value.as_str())?;
    Some(format!("{}::{}", id(name), id(variant)))
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

/// [`tool_items`] as text (see [`text`](super::text)), or `None` when one of its lines needs
/// prettyplease's breaking, a default is more than a constant, or the tool declares content.
pub(super) fn tool_text(c: &Contract, t: &ToolDef) -> Option<String> {
    if !t.content.is_empty() {
        return None;
    }
    let mut w = Code::new();
    let summary = format!("The arguments of `{}`.", t.name);
    struct_text(&mut w, c, &t.args_type(), &t.parameters, &summary, true)?;
    for f in &t.parameters {
        type_text(&mut w, c, &f.schema)?;
    }
    if let OutputDef::Object { fields, .. } = &t.output {
        let summary = format!("What `{}` returns.", t.name);
        struct_text(&mut w, c, &t.output_type(), fields, &summary, false)?;
        for f in fields {
            type_text(&mut w, c, &f.schema)?;
        }
    }
    tool_error_text(&mut w, c, t);
    w.finish()
}

/// [`type_items`] of a schema nested in a tool's (`top` false), as text.
fn type_text(w: &mut Code, c: &Contract, schema: &Schema) -> Option<()> {
    match &schema.kind {
        Kind::Object(obj) => {
            let summary = schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", obj.rust_name));
            struct_text(w, c, &obj.rust_name, &obj.fields, &summary, false)?;
            for f in &obj.fields {
                type_text(w, c, &f.schema)?;
            }
        }
        Kind::Enum(e) => {
            match &schema.description {
                Some(d) => w.doc(0, d),
                None => w.doc(0, &format!("`{}`.", e.rust_name)),
            }
            let names: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
            lints::write_allows(w, 0, lints::variant_names(&e.rust_name, &names));
            w.line(0, &["#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]"]);
            w.line(0, &[SERDE_DERIVE]);
            w.line(0, &[SERDE_CRATE]);
            let name = id(&e.rust_name);
            if e.values.is_empty() {
                w.line(0, &["pub enum ", name, " {}"]);
                return Some(());
            }
            w.line(0, &["pub enum ", name, " {"]);
            for (value, variant) in &e.values {
                w.doc(1, &format!("`{value}`"));
                w.line(1, &["#[serde(rename = ", &string(value), ")]"]);
                w.line(1, &[id(variant), ","]);
            }
            w.line(0, &["}"]);
        }
        Kind::Array(items) => type_text(w, c, items)?,
        Kind::Named(_)
        | Kind::String
        | Kind::Integer
        | Kind::Number
        | Kind::Boolean
        | Kind::Json => {}
    }
    Some(())
}

const SERDE_DERIVE: &str =
    "#[derive(::mcp_contract::serde::Serialize, ::mcp_contract::serde::Deserialize)]";
const SERDE_CRATE: &str = "#[serde(crate = \"::mcp_contract::serde\")]";

/// [`struct_item`] as text; `None` for a default that is not one of the parameter's
/// constants (an array, an object, JSON, or a default outside `parameters`).
fn struct_text(
    w: &mut Code,
    c: &Contract,
    name: &str,
    fields: &[Field],
    summary: &str,
    parameters: bool,
) -> Option<()> {
    let name = id(name);
    let allow = lints::nested_arrays(c, fields);
    w.doc(0, summary);
    lints::write_allows(w, 0, allow);
    w.line(0, &["#[derive(Debug, Clone, PartialEq)]"]);
    w.line(0, &[SERDE_DERIVE]);
    w.line(0, &[SERDE_CRATE]);
    if fields.is_empty() {
        w.line(0, &["pub struct ", name, " {}"]);
        return Some(());
    }
    w.line(0, &["pub struct ", name, " {"]);
    let mut constants = Vec::new();
    let mut default_fns = Vec::new();
    for f in fields {
        let declared = if parameters {
            limits::declared(c, f)
        } else {
            limits::Declared::default()
        };
        constants.extend(declared.constants);
        let field = id(&f.ident);
        let ty = rust_type_text(c, &f.schema);
        w.doc(1, &f.published_description());
        let bare = f.ident.trim_start_matches("r#");
        if bare != f.name {
            w.line(1, &["#[serde(rename = ", &string(&f.name), ")]"]);
        }
        match (&f.default, f.required) {
            (Some(_), _) => {
                let func = format!("default_{bare}");
                let path = string(&format!("{name}::{func}"));
                w.line(1, &["#[serde(default = ", &path, ")]"]);
                w.line(1, &["pub ", field, ": ", &ty, ","]);
                default_fns.push((func, ty, declared.default?));
            }
            (None, true) => w.line(1, &["pub ", field, ": ", &ty, ","]),
            (None, false) => {
                w.line(
                    1,
                    &["#[serde(default, skip_serializing_if = \"Option::is_none\")]"],
                );
                w.line(1, &["pub ", field, ": Option<", &ty, ">,"]);
            }
        }
    }
    w.line(0, &["}"]);
    if constants.is_empty() && default_fns.is_empty() {
        return Some(());
    }
    lints::write_allows(w, 0, allow);
    if !constants.is_empty() {
        w.line(0, &["#[allow(dead_code)]"]);
    }
    w.line(0, &["impl ", name, " {"]);
    for constant in &constants {
        constant.write(w, 1);
    }
    for (func, ty, value) in &default_fns {
        w.line(1, &["fn ", func, "() -> ", ty, " {"]);
        w.line(2, &[value]);
        w.line(1, &["}"]);
    }
    w.line(0, &["}"]);
    Some(())
}
