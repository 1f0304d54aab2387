//! The data items of each tool: its arguments, output and nested types, with defaults as
//! expressions, and the Rust type each schema becomes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use super::*;

/// What a generated type is for, which decides what it derives and implements: a call's
/// arguments are read by a generated `Read` impl (no serde visitors to compile), an output is
/// only serialized, and a question's answer is deserialized by serde as elicitation reads it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Role {
    /// Read from a call's arguments: `Read`, no serde.
    Arguments,
    /// Sent as (part of) a tool's output: `Serialize`.
    Output,
    /// A shared type, which arguments and outputs may both use: `Serialize` and `Read`.
    Shared,
    /// A question's answer: `Serialize` and `Deserialize`.
    Form,
}

impl Role {
    fn deserializes(self) -> bool {
        self == Role::Form
    }

    fn reads(self) -> bool {
        matches!(self, Role::Arguments | Role::Shared)
    }

    /// The serde derive line, when the role has one.
    fn serde_derive(self) -> Option<&'static str> {
        match self {
            Role::Arguments => None,
            Role::Output | Role::Shared => Some(SERIALIZE_DERIVE),
            Role::Form => Some(SERDE_DERIVE),
        }
    }

    /// The attribute of an optional field, when the role has one.
    fn optional_attribute(self) -> Option<&'static str> {
        match self {
            Role::Arguments => None,
            Role::Output | Role::Shared => {
                Some("#[serde(skip_serializing_if = \"Option::is_none\")]")
            }
            Role::Form => Some("#[serde(default, skip_serializing_if = \"Option::is_none\")]"),
        }
    }
}

pub(super) fn tool_items(c: &Contract, t: &ToolDef) -> TokenStream {
    let args = struct_item(
        c,
        &t.args_type(),
        &t.parameters,
        &format!("The arguments of `{}`.", t.name),
        true,
        Role::Arguments,
    );
    let nested_args: Vec<TokenStream> = t
        .parameters
        .iter()
        .map(|f| type_items(c, &f.schema, "", false, Role::Arguments))
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
                Role::Output,
            );
            let nested = fields
                .iter()
                .map(|f| type_items(c, &f.schema, "", false, Role::Output));
            quote!(#s #(#nested)*)
        }
    };
    let content = super::content::content_enum(t);
    let error = tool_error(c, t);
    quote!(#args #(#nested_args)* #output #content #error)
}

/// The struct or enum a schema needs, and those of everything nested in it. Shared types are
/// emitted once, at the top level (`top`), never where they are used.
pub(super) fn type_items(
    c: &Contract,
    schema: &Schema,
    name: &str,
    top: bool,
    role: Role,
) -> TokenStream {
    match &schema.kind {
        Kind::Object(obj) => {
            let summary = schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", obj.rust_name));
            let rust_name = if top { name } else { &obj.rust_name };
            let s = struct_item(c, rust_name, &obj.fields, &summary, false, role);
            let nested = obj
                .fields
                .iter()
                .map(|f| type_items(c, &f.schema, "", false, role));
            quote!(#s #(#nested)*)
        }
        Kind::Enum(e) => {
            let summary = doc(&schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", e.rust_name)));
            let enum_name = if top { name } else { &e.rust_name };
            let rust_name = ident(enum_name);
            let serde = role.serde_derive().is_some();
            let variants = e.values.iter().map(|(value, variant)| {
                let v = ident(variant);
                let d = doc(&format!("`{value}`"));
                let rename = serde.then(|| quote!(#[serde(rename = #value)]));
                quote! { #d #rename #v, }
            });
            let names: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
            let lints = lints::allow(lints::variant_names(enum_name, &names));
            let derive = serde_derive(role);
            let read = role.reads().then(|| {
                let arms = e.values.iter().map(|(value, variant)| {
                    let v = ident(variant);
                    quote!(#value => Ok(Self::#v),)
                });
                read_impl(
                    &rust_name,
                    quote! {
                        match ::mcp_contract::codegen::variant(v)?.as_str() {
                            #(#arms)*
                            _ => ::mcp_contract::codegen::unknown_variant(),
                        }
                    },
                )
            });
            quote! {
                #summary
                #lints
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                #derive
                pub enum #rust_name { #(#variants)* }
                #read
            }
        }
        Kind::Array(items) => type_items(c, items, name, top, role),
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
    role: Role,
) -> TokenStream {
    let summary = doc(summary);
    let name_ident = ident(name);
    let mut constants = Vec::new();
    let mut default_fns = Vec::new();
    let mut reads = Vec::new();
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
            let serde = role.serde_derive().is_some();
            let wire = &f.name;
            let rename = if !serde || f.ident.trim_start_matches("r#") == f.name {
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
                    reads.push(quote!(#field: o.field_or(#wire, Self::#func)?));
                    let attribute = role
                        .deserializes()
                        .then(|| quote!(#[serde(default = #path)]));
                    quote! { #doc #rename #attribute pub #field: #ty, }
                }
                (None, true) => {
                    reads.push(quote!(#field: o.field(#wire)?));
                    quote! { #doc #rename pub #field: #ty, }
                }
                (None, false) => {
                    reads.push(quote!(#field: o.field(#wire)?));
                    let attribute = role.optional_attribute().map(limits::tokens);
                    quote! { #doc #rename #attribute pub #field: Option<#ty>, }
                }
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
    let derive = serde_derive(role);
    let read = role.reads().then(|| {
        let body = if reads.is_empty() {
            quote! { ::mcp_contract::codegen::Object::new(v)?; Ok(Self {}) }
        } else {
            quote! {
                let mut o = ::mcp_contract::codegen::Object::new(v)?;
                Ok(Self { #(#reads),* })
            }
        };
        read_impl(&name_ident, body)
    });
    quote! {
        #summary
        #allow
        #[derive(Debug, Clone, PartialEq)]
        #derive
        pub struct #name_ident { #(#items)* }
        #defaults
        #read
    }
}

/// A role's serde derive and crate attribute, when it has them.
fn serde_derive(role: Role) -> TokenStream {
    match role.serde_derive() {
        Some(derive) => {
            let derive = limits::tokens(derive);
            quote!(#derive #[serde(crate = "::mcp_contract::serde")])
        }
        None => quote!(),
    }
}

/// The `Read` impl of a type, its body reading `v`.
fn read_impl(name: &proc_macro2::Ident, body: TokenStream) -> TokenStream {
    quote! {
        impl ::mcp_contract::codegen::Read for #name {
            fn read(v: ::mcp_contract::codegen::Value) -> ::mcp_contract::codegen::Reading<Self> {
                #body
            }
        }
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
    let args = Role::Arguments;
    struct_text(
        &mut w,
        c,
        &t.args_type(),
        &t.parameters,
        &summary,
        true,
        args,
    )?;
    for f in &t.parameters {
        type_text(&mut w, c, &f.schema, args)?;
    }
    if let OutputDef::Object { fields, .. } = &t.output {
        let summary = format!("What `{}` returns.", t.name);
        struct_text(
            &mut w,
            c,
            &t.output_type(),
            fields,
            &summary,
            false,
            Role::Output,
        )?;
        for f in fields {
            type_text(&mut w, c, &f.schema, Role::Output)?;
        }
    }
    tool_error_text(&mut w, c, t);
    w.finish()
}

/// [`type_items`] of a schema nested in a tool's (`top` false), as text.
fn type_text(w: &mut Code, c: &Contract, schema: &Schema, role: Role) -> Option<()> {
    match &schema.kind {
        Kind::Object(obj) => {
            let summary = schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", obj.rust_name));
            struct_text(w, c, &obj.rust_name, &obj.fields, &summary, false, role)?;
            for f in &obj.fields {
                type_text(w, c, &f.schema, role)?;
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
            let serde = role.serde_derive();
            if let Some(derive) = serde {
                w.line(0, &[derive]);
                w.line(0, &[SERDE_CRATE]);
            }
            let name = id(&e.rust_name);
            if e.values.is_empty() {
                w.line(0, &["pub enum ", name, " {}"]);
            } else {
                w.line(0, &["pub enum ", name, " {"]);
                for (value, variant) in &e.values {
                    w.doc(1, &format!("`{value}`"));
                    if serde.is_some() {
                        w.line(1, &["#[serde(rename = ", &string(value), ")]"]);
                    }
                    w.line(1, &[id(variant), ","]);
                }
                w.line(0, &["}"]);
            }
            if role.reads() {
                read_text_open(w, name);
                w.line(
                    2,
                    &["match ::mcp_contract::codegen::variant(v)?.as_str() {"],
                );
                for (value, variant) in &e.values {
                    // The arm's comma is not counted: prettyplease breaks the arm, not it.
                    let arm = format!("{} => Ok(Self::{})", string(value), id(variant));
                    if text::fits(3, &arm) {
                        w.whole_line(3, &[&arm, ","]);
                    } else {
                        w.line(3, &[&arm, ","]);
                    }
                }
                w.line(3, &["_ => ::mcp_contract::codegen::unknown_variant(),"]);
                w.line(2, &["}"]);
                read_text_close(w);
            }
        }
        Kind::Array(items) => type_text(w, c, items, role)?,
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
/// prettyplease's `end_with_max_width` of a struct expression.
const STRUCT_LITERAL_WIDTH: usize = 34;
const SERIALIZE_DERIVE: &str = "#[derive(::mcp_contract::serde::Serialize)]";
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
    role: Role,
) -> Option<()> {
    let name = id(name);
    let allow = lints::nested_arrays(c, fields);
    w.doc(0, summary);
    lints::write_allows(w, 0, allow);
    w.line(0, &["#[derive(Debug, Clone, PartialEq)]"]);
    let serde = role.serde_derive();
    if let Some(derive) = serde {
        w.line(0, &[derive]);
        w.line(0, &[SERDE_CRATE]);
    }
    if fields.is_empty() {
        w.line(0, &["pub struct ", name, " {}"]);
        if role.reads() {
            read_text_open(w, name);
            w.line(2, &["::mcp_contract::codegen::Object::new(v)?;"]);
            w.line(2, &["Ok(Self {})"]);
            read_text_close(w);
        }
        return Some(());
    }
    w.line(0, &["pub struct ", name, " {"]);
    let mut constants = Vec::new();
    let mut default_fns = Vec::new();
    let mut reads = Vec::new();
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
        let wire = string(&f.name);
        if serde.is_some() && bare != f.name {
            w.line(1, &["#[serde(rename = ", &wire, ")]"]);
        }
        match (&f.default, f.required) {
            (Some(_), _) => {
                let func = format!("default_{bare}");
                if role.deserializes() {
                    let path = string(&format!("{name}::{func}"));
                    w.line(1, &["#[serde(default = ", &path, ")]"]);
                }
                w.line(1, &["pub ", field, ": ", &ty, ","]);
                reads.push((field, format!("field_or({wire}, Self::{func})")));
                default_fns.push((func, ty, declared.default?));
            }
            (None, required) => {
                if let Some(attribute) = role.optional_attribute().filter(|_| !required) {
                    w.line(1, &[attribute]);
                }
                if required {
                    w.line(1, &["pub ", field, ": ", &ty, ","]);
                } else {
                    w.line(1, &["pub ", field, ": Option<", &ty, ">,"]);
                }
                reads.push((field, format!("field({wire})")));
            }
        }
    }
    w.line(0, &["}"]);
    if !constants.is_empty() || !default_fns.is_empty() {
        impl_text(w, name, allow, &constants, &default_fns);
    }
    if role.reads() {
        read_text_open(w, name);
        w.line(
            2,
            &["let mut o = ::mcp_contract::codegen::Object::new(v)?;"],
        );
        // prettyplease keeps a struct literal on one line up to 34 columns before its `}`.
        let one_line: Vec<String> = reads
            .iter()
            .map(|(field, call)| format!("{field}: o.{call}?"))
            .collect();
        let literal = format!("Self {{ {} }}", one_line.join(", "));
        if literal.len() <= STRUCT_LITERAL_WIDTH + 1 {
            w.line(2, &["Ok(", &literal, ")"]);
        } else {
            w.line(2, &["Ok(Self {"]);
            for ((field, call), read) in reads.iter().zip(&one_line) {
                if text::fits(3, &format!("{read},")) {
                    w.line(3, &[read, ","]);
                } else {
                    // prettyplease breaks a read too long for its line before its call.
                    w.line(3, &[field, ": o"]);
                    w.line(4, &[".", call, "?,"]);
                }
            }
            w.line(2, &["})"]);
        }
        read_text_close(w);
    }
    Some(())
}

/// The opening of a `Read` impl as prettyplease prints it: its signature is always broken.
fn read_text_open(w: &mut Code, name: &str) {
    w.line(0, &["impl ::mcp_contract::codegen::Read for ", name, " {"]);
    w.line(1, &["fn read("]);
    w.line(2, &["v: ::mcp_contract::codegen::Value,"]);
    w.line(1, &[") -> ::mcp_contract::codegen::Reading<Self> {"]);
}

fn read_text_close(w: &mut Code) {
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

/// The impl of a struct's constants and default functions.
fn impl_text(
    w: &mut Code,
    name: &str,
    allow: Option<&'static str>,
    constants: &[limits::Constant],
    default_fns: &[(String, String, String)],
) {
    lints::write_allows(w, 0, allow);
    if !constants.is_empty() {
        w.line(0, &["#[allow(dead_code)]"]);
    }
    w.line(0, &["impl ", name, " {"]);
    for constant in constants {
        constant.write(w, 1);
    }
    for (func, ty, value) in default_fns {
        w.line(1, &["fn ", func, "() -> ", ty, " {"]);
        w.line(2, &[value]);
        w.line(1, &["}"]);
    }
    w.line(0, &["}"]);
}
