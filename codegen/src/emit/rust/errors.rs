//! The error enums: the whole vocabulary, which renders every code's message and hint, and
//! each tool's enum of the codes it declares, whose conversions to and from the vocabulary,
//! and rendering through it, the runtime's `tool_error!` implements.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// `ContractError`: every code of the manifest, and the one place its templates are rendered.
pub(super) fn vocabulary(c: &Contract) -> TokenStream {
    let all: Vec<&ErrorDef> = c.errors.iter().collect();
    let summary = format!(
        "Every error code of `{}`. Map domain errors onto it once; each tool's enum converts from \
         it with `TryFrom`, keeping only the codes that tool declares.",
        c.source_name
    );
    // The vocabulary is there to be used; a server that never names it is not at fault.
    // It holds no argument: which one an error concerns depends on the tool.
    let item = enum_item(
        "ContractError",
        &summary,
        &all,
        None,
        quote!(#[allow(dead_code)]),
    );
    let name = ident("ContractError");
    let (code, message, hint) = (code_fn(&all), message_fn(&all), hint_fn(&all));
    quote! {
        #item

        impl ::mcp_contract::ToolError for #name {
            #code
            #message
            #hint
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&::mcp_contract::ToolError::message(self))
            }
        }

        impl ::std::error::Error for #name {}
    }
}

/// A tool's error enum: only the codes it declares, so a handler cannot return another, each
/// with the vocabulary's variant and fields.
pub(super) fn tool_error(c: &Contract, t: &ToolDef) -> TokenStream {
    let defs = declared(c, t);
    let summary = tool_error_summary(c, t, &defs);
    let argument = (!t.arguments.is_empty()).then(|| t.argument_type());
    let arguments = argument_enum(t);
    let item = enum_item(
        &t.error_type(),
        &summary,
        &defs,
        argument.as_deref(),
        quote!(),
    );
    quote!(#arguments #item)
}

/// What a tool's error enum says of itself: the codes it holds, or that it holds none.
fn tool_error_summary(c: &Contract, t: &ToolDef, defs: &[&ErrorDef]) -> String {
    if defs.is_empty() {
        format!(
            "`{}` declares no errors, so this enum has no values. To return one, list it under \
             the tool's `errors:` in `{}`.",
            t.name, c.source_name
        )
    } else {
        let codes: Vec<String> = defs.iter().map(|e| format!("`{}`", e.code)).collect();
        format!(
            "The errors `{}` may return: {}. To return another code, add it to the tool's \
             `errors:` in `{}`.",
            t.name,
            codes.join(", "),
            c.source_name
        )
    }
}

/// `{Prefix}Argument`, when an error the tool declares names its argument: one variant per
/// parameter, and the published name the envelope carries.
fn argument_enum(t: &ToolDef) -> TokenStream {
    if t.arguments.is_empty() {
        return quote!();
    }
    let name = t.argument_type();
    let summary = doc(&format!(
        "The arguments of `{}`, for the errors that name the one they concern.",
        t.name
    ));
    let variants = t.arguments.iter().map(|(argument, variant)| {
        let v = ident(variant);
        let d = doc(&format!("`{argument}`"));
        quote!(#d #v,)
    });
    let arms = t.arguments.iter().map(|(argument, variant)| {
        let v = ident(variant);
        quote!(Self::#v => #argument,)
    });
    let variant_names: Vec<&str> = t.arguments.iter().map(|(_, v)| v.as_str()).collect();
    let lints = lints::allow(lints::variant_names(&name, &variant_names));
    let id = ident(&name);
    quote! {
        #summary
        #lints
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #id { #(#variants)* }

        impl #id {
            /// The argument's published name, which the error envelope carries as `argument`.
            pub const fn name(self) -> &'static str {
                match self { #(#arms)* }
            }
        }
    }
}

/// The runtime's `tool_error!` for a tool's error enum: its `ToolError` rendered by the
/// vocabulary, `Display`, `Error`, and the conversions to and from `ContractError`, given each
/// variant and its fields.
///
/// Laid out here rather than by prettyplease, which prints a macro's arguments as one run of
/// tokens broken wherever the margin falls (`TooLarge { path, size, limit\n }`): one variant a
/// line, as rustfmt leaves a hand-written call. Every piece is an identifier from [`ident`].
pub(super) fn tool_error_impls(c: &Contract, t: &ToolDef) -> String {
    let name = ident(&t.error_type());
    // With no codes at all, `TryFrom<ContractError>` could never fail (clippy's
    // infallible_try_from), and there is nothing to convert.
    if c.errors.is_empty() {
        return format!("\n::mcp_contract::codegen::tool_error!({name});\n");
    }
    // A tool whose errors name their argument narrows with it, every variant braced.
    let naming = !t.arguments.is_empty();
    let mut variants = String::new();
    for e in declared(c, t) {
        variants.push_str("    ");
        variants.push_str(&shape(e, naming));
        variants.push_str(",\n");
    }
    let open = if variants.is_empty() { "" } else { "\n" };
    let by = if naming {
        format!(" naming {}", ident(&t.argument_type()))
    } else {
        String::new()
    };
    format!(
        "\n::mcp_contract::codegen::tool_error!({name} narrows ContractError{by} {{{open}{variants}}});\n"
    )
}

/// The error definitions a tool declares, in its order.
fn declared<'c>(c: &'c Contract, t: &ToolDef) -> Vec<&'c ErrorDef> {
    t.errors.iter().map(|&i| &c.errors[i]).collect()
}

/// The enum itself: one variant per code, one `String` field per template field, and in a
/// tool's enum (`argument` is its argument enum), `argument` first where the code names it.
fn enum_item(
    name: &str,
    summary: &str,
    defs: &[&ErrorDef],
    argument: Option<&str>,
    attrs: TokenStream,
) -> TokenStream {
    let summary = doc(summary);
    let variants = defs.iter().map(|e| {
        let d = doc(&format!("`{}`: {}", e.code, e.message.source));
        let v = ident(&e.variant);
        let named = argument.filter(|_| e.names_argument).map(|ty| {
            let (f, ty) = (ident(ARGUMENT_FIELD), ident(ty));
            quote!(#[doc = " The argument the error concerns."] #f: #ty,)
        });
        let fields = e.fields.iter().map(|f| field(f));
        if e.fields.is_empty() && named.is_none() {
            quote! { #d #v, }
        } else {
            quote! { #d #v { #named #(#fields: String),* }, }
        }
    });
    let lints = lints::allow(lints::error_enum(name, defs));
    let name = ident(name);
    quote! {
        #summary
        #attrs
        #lints
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum #name { #(#variants)* }
    }
}

/// `fn code`: each variant's published code.
fn code_fn(defs: &[&ErrorDef]) -> TokenStream {
    let arms = defs.iter().map(|e| {
        let pattern = pattern(e, &[]);
        let code = &e.code;
        quote!(#pattern => #code,)
    });
    let body = matching(defs, quote!(match self { #(#arms)* }));
    quote!(fn code(&self) -> &'static str { #body })
}

/// `fn message`: each variant's message template, rendered from its fields.
fn message_fn(defs: &[&ErrorDef]) -> TokenStream {
    let arms = defs.iter().map(|e| {
        let (pattern, text) = render(e, &e.message);
        quote!(#pattern => #text,)
    });
    let body = matching(defs, quote!(match self { #(#arms)* }));
    quote!(fn message(&self) -> String { #body })
}

/// `fn hint`: each variant's hint template, rendered from its fields, or none.
fn hint_fn(defs: &[&ErrorDef]) -> TokenStream {
    let arms = defs.iter().filter_map(|e| {
        let (pattern, text) = render(e, e.hint.as_ref()?);
        Some(quote!(#pattern => #text,))
    });
    let without: Vec<TokenStream> = defs
        .iter()
        .filter(|e| e.hint.is_none())
        .map(|e| pattern(e, &[]))
        .collect();
    let body = if defs.is_empty() {
        quote!(match *self {})
    } else if without.len() == defs.len() {
        quote!(None)
    } else {
        let none = (!without.is_empty()).then(|| quote!(#(#without)|* => return None,));
        quote! {
            let hint = match self { #(#arms)* #none };
            Some(hint)
        }
    };
    quote!(fn hint(&self) -> Option<String> { #body })
}

/// A match over the variants, or over none: an empty enum has no value to match.
fn matching(defs: &[&ErrorDef], body: TokenStream) -> TokenStream {
    if defs.is_empty() {
        quote!(match *self {})
    } else {
        body
    }
}

/// A template as a `String` expression over the fields it names, and the pattern binding them.
fn render(e: &ErrorDef, template: &Template) -> (TokenStream, TokenStream) {
    let (format, plain) = format_string(template, |f| field(f).to_string());
    let mut used: Vec<&str> = Vec::new();
    for part in &template.parts {
        if let TemplatePart::Field(f) = part
            && !used.contains(&f.as_str())
        {
            used.push(f);
        }
    }
    let text = match template.parts.as_slice() {
        // `format!("{x}")` is clippy's useless_format.
        [TemplatePart::Field(f)] => {
            let f = field(f);
            quote!(#f.clone())
        }
        _ if used.is_empty() => quote!(#plain.into()),
        _ => quote!(format!(#format)),
    };
    (pattern(e, &used), text)
}

/// `template` as a `format!` string naming each field as `ident` spells it, and as the plain
/// text it is when it names none.
pub(super) fn format_string(
    template: &Template,
    ident: impl Fn(&str) -> String,
) -> (String, String) {
    let (mut format, mut plain) = (String::new(), String::new());
    for part in &template.parts {
        match part {
            TemplatePart::Literal(text) => {
                plain.push_str(text);
                format.push_str(&text.replace('{', "{{").replace('}', "}}"));
            }
            TemplatePart::Field(f) => {
                // Format strings name keyword arguments without `r#`: `{type}` is `r#type`.
                format.push('{');
                format.push_str(ident(f).trim_start_matches("r#"));
                format.push('}');
            }
        }
    }
    (format, plain)
}

/// The pattern of a variant that binds `fields`: `Self::Busy`, `Self::NotFound { .. }`,
/// `Self::TooLarge { path, size, .. }`.
fn pattern(e: &ErrorDef, fields: &[&str]) -> TokenStream {
    let v = ident(&e.variant);
    if e.fields.is_empty() {
        return quote!(Self::#v);
    }
    let bound = fields.iter().map(|f| field(f));
    let rest = (fields.len() < e.fields.len()).then(|| quote!(..));
    if fields.is_empty() {
        quote!(Self::#v { .. })
    } else {
        quote!(Self::#v { #(#bound,)* #rest })
    }
}

/// A variant and its fields, as `tool_error!` takes them: `Busy`, `TooLarge { path, size, limit }`;
/// in the `naming` form every variant braced, and one that names its argument marked:
/// `NotFound { path } [argument]`, `Busy {}`.
fn shape(e: &ErrorDef, naming: bool) -> String {
    let variant = ident(&e.variant);
    let fields: Vec<String> = e.fields.iter().map(|f| field(f).to_string()).collect();
    let mut shape = match (naming, fields.is_empty()) {
        (false, true) => variant.to_string(),
        (true, true) => format!("{variant} {{}}"),
        (_, false) => format!("{variant} {{ {} }}", fields.join(", ")),
    };
    if naming && e.names_argument {
        shape.push_str(&format!(" [{ARGUMENT_FIELD}]"));
    }
    shape
}

/// A template field's Rust name.
fn field(name: &str) -> syn::Ident {
    ident(&crate::ident::snake(name))
}

/// [`tool_error`] as text: the argument enum, when there is one, and the error enum. A
/// variant's fields go on its line when they fit there, one a line when the argument's doc
/// comes first; a line that fits neither way makes the item fall back to tokens.
pub(super) fn tool_error_text(w: &mut Code, c: &Contract, t: &ToolDef) {
    let defs = declared(c, t);
    if !t.arguments.is_empty() {
        argument_enum_text(w, t);
    }
    w.doc(0, &tool_error_summary(c, t, &defs));
    lints::write_allows(w, 0, lints::error_enum(&t.error_type(), &defs));
    w.line(0, &["#[derive(Debug, Clone, PartialEq, Eq)]"]);
    let name = t.error_type();
    if defs.is_empty() {
        w.line(0, &["pub enum ", id(&name), " {}"]);
        return;
    }
    w.line(0, &["pub enum ", id(&name), " {"]);
    let argument = t.argument_type();
    for e in &defs {
        w.doc(1, &format!("`{}`: {}", e.code, e.message.source));
        let v = id(&e.variant);
        let fields: Vec<String> = e.fields.iter().map(|f| field(f).to_string()).collect();
        if !t.arguments.is_empty() && e.names_argument {
            w.line(1, &[v, " {"]);
            w.doc(2, "The argument the error concerns.");
            w.line(2, &[ARGUMENT_FIELD, ": ", id(&argument), ","]);
            for f in &fields {
                w.line(2, &[f, ": String,"]);
            }
            w.line(1, &["},"]);
        } else if fields.is_empty() {
            w.line(1, &[v, ","]);
        } else {
            let typed: Vec<String> = fields.iter().map(|f| format!("{f}: String")).collect();
            w.line(1, &[v, " { ", &typed.join(", "), " },"]);
        }
    }
    w.line(0, &["}"]);
}

/// [`argument_enum`] as text.
fn argument_enum_text(w: &mut Code, t: &ToolDef) {
    let name = t.argument_type();
    w.doc(
        0,
        &format!(
            "The arguments of `{}`, for the errors that name the one they concern.",
            t.name
        ),
    );
    let variants: Vec<&str> = t.arguments.iter().map(|(_, v)| v.as_str()).collect();
    lints::write_allows(w, 0, lints::variant_names(&name, &variants));
    w.line(0, &["#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]"]);
    w.line(0, &["pub enum ", id(&name), " {"]);
    for (argument, variant) in &t.arguments {
        w.doc(1, &format!("`{argument}`"));
        w.line(1, &[id(variant), ","]);
    }
    w.line(0, &["}"]);
    w.line(0, &["impl ", id(&name), " {"]);
    w.doc(
        1,
        "The argument's published name, which the error envelope carries as `argument`.",
    );
    w.line(1, &["pub const fn name(self) -> &'static str {"]);
    w.line(2, &["match self {"]);
    for (argument, variant) in &t.arguments {
        w.line(3, &["Self::", id(variant), " => ", &string(argument), ","]);
    }
    w.line(2, &["}"]);
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}
