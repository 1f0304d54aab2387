//! The error enums: the whole vocabulary, which renders every code's message and hint, and
//! each tool's enum of the codes it declares, whose conversions to and from the vocabulary,
//! and rendering through it, the runtime's `tool_error!` implements.

use super::*;

/// `ContractError`: every code of the manifest, and the one place its templates are rendered.
pub(super) fn vocabulary(w: &mut Code, c: &Contract) {
    let all: Vec<&ErrorDef> = c.errors.iter().collect();
    let summary = format!(
        "Every error code of `{}`. Map domain errors onto it once; each tool's enum converts from \
         it with `TryFrom`, keeping only the codes that tool declares.",
        c.source_name
    );
    // The vocabulary is there to be used; a server that never names it is not at fault.
    // It holds no argument: which one an error concerns depends on the tool.
    enum_item(w, "ContractError", &summary, &all, None, true);
    w.line(0, &["impl ::mcp_contract::ToolError for ContractError {"]);
    w.line(1, &["fn code(&self) -> &'static str {"]);
    matching(w, &all, |w, e| {
        ln!(w, 3, "{} => {},", pattern(e, &[]), string(&e.code));
    });
    w.line(1, &["}"]);
    w.line(1, &["fn message(&self) -> String {"]);
    matching(w, &all, |w, e| {
        let (pattern, text) = render(e, &e.message);
        arm(w, &pattern, &text);
    });
    w.line(1, &["}"]);
    hint_fn(w, &all);
    w.line(0, &["}"]);
    w.line(0, &["impl ::core::fmt::Display for ContractError {"]);
    w.line(
        1,
        &["fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {"],
    );
    w.line(
        2,
        &["f.write_str(&::mcp_contract::ToolError::message(self))"],
    );
    w.line(1, &["}"]);
    w.line(0, &["}"]);
    w.line(0, &["impl ::std::error::Error for ContractError {}"]);
}

/// A tool's error enum: only the codes it declares, so a handler cannot return another, each
/// with the vocabulary's variant and fields; its argument enum before it when its errors name
/// their argument, and the `tool_error!` call that implements it after it.
pub(super) fn tool_error(w: &mut Code, c: &Contract, t: &ToolDef) {
    let defs = declared(c, t);
    let summary = tool_error_summary(c, t, &defs);
    let argument = (!t.arguments.is_empty()).then(|| t.argument_type());
    argument_enum(w, t);
    enum_item(
        w,
        &t.error_type(),
        &summary,
        &defs,
        argument.as_deref(),
        false,
    );
    tool_error_impls(w, c, t);
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
fn argument_enum(w: &mut Code, t: &ToolDef) {
    if t.arguments.is_empty() {
        return;
    }
    let name = t.argument_type();
    w.doc(
        0,
        &format!(
            "The arguments of `{}`, for the errors that name the one they concern.",
            t.name
        ),
    );
    let variants: Vec<&str> = t.arguments.iter().map(|(_, v)| v.as_str()).collect();
    w.allows(0, lints::variant_names(&name, &variants));
    w.line(0, &["#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]"]);
    ln!(w, 0, "pub enum {name} {{");
    for (argument, variant) in &t.arguments {
        w.doc(1, &format!("`{argument}`"));
        ln!(w, 1, "{variant},");
    }
    w.line(0, &["}"]);
    ln!(w, 0, "impl {name} {{");
    w.doc(
        1,
        "The argument's published name, which the error envelope carries as `argument`.",
    );
    w.line(1, &["pub const fn name(self) -> &'static str {"]);
    w.line(2, &["match self {"]);
    for (argument, variant) in &t.arguments {
        ln!(w, 3, "Self::{variant} => {},", string(argument));
    }
    w.line(2, &["}"]);
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

/// The runtime's `tool_error!` for a tool's error enum: its `ToolError` rendered by the
/// vocabulary, `Display`, `Error`, and the conversions to and from `ContractError`, given each
/// variant and its fields, one variant a line.
fn tool_error_impls(w: &mut Code, c: &Contract, t: &ToolDef) {
    let name = t.error_type();
    // With no codes at all, `TryFrom<ContractError>` could never fail (clippy's
    // infallible_try_from), and there is nothing to convert.
    if c.errors.is_empty() {
        ln!(w, 0, "::mcp_contract::codegen::tool_error!({name});");
        return;
    }
    // A tool whose errors name their argument narrows with it, every variant braced.
    let naming = !t.arguments.is_empty();
    let by = if naming {
        format!(" naming {}", t.argument_type())
    } else {
        String::new()
    };
    let defs = declared(c, t);
    if defs.is_empty() {
        ln!(
            w,
            0,
            "::mcp_contract::codegen::tool_error!({name} narrows ContractError{by} {{}});"
        );
        return;
    }
    ln!(
        w,
        0,
        "::mcp_contract::codegen::tool_error!({name} narrows ContractError{by} {{"
    );
    for e in defs {
        ln!(w, 1, "{},", shape(e, naming));
    }
    w.line(0, &["});"]);
}

/// The error definitions a tool declares, in its order.
fn declared<'c>(c: &'c Contract, t: &ToolDef) -> Vec<&'c ErrorDef> {
    t.errors.iter().map(|&i| &c.errors[i]).collect()
}

/// The enum itself: one variant per code, one field per template field, and in a tool's enum
/// (`argument` is its argument enum), `argument` first where the code names it.
fn enum_item(
    w: &mut Code,
    name: &str,
    summary: &str,
    defs: &[&ErrorDef],
    argument: Option<&str>,
    dead_code: bool,
) {
    w.doc(0, summary);
    if dead_code {
        w.line(0, &["#[allow(dead_code)]"]);
    }
    w.allows(0, lints::error_enum(name, defs));
    // An `f64` has no `Eq`.
    let number = defs
        .iter()
        .flat_map(|e| &e.fields)
        .any(|f| f.ty == PlaceholderType::Number);
    if number {
        w.line(0, &["#[derive(Debug, Clone, PartialEq)]"]);
    } else {
        w.line(0, &["#[derive(Debug, Clone, PartialEq, Eq)]"]);
    }
    if defs.is_empty() {
        ln!(w, 0, "pub enum {name} {{}}");
        return;
    }
    ln!(w, 0, "pub enum {name} {{");
    for e in defs {
        w.doc(1, &format!("`{}`: {}", e.code, e.message.source));
        let v = &e.variant;
        let fields: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("{}: {}", field(&f.name), f.ty.rust_name()))
            .collect();
        match argument.filter(|_| e.names_argument) {
            Some(argument) => {
                ln!(w, 1, "{v} {{");
                w.doc(2, "The argument the error concerns.");
                ln!(w, 2, "{ARGUMENT_FIELD}: {argument},");
                for f in &fields {
                    ln!(w, 2, "{f},");
                }
                w.line(1, &["},"]);
            }
            None if fields.is_empty() => ln!(w, 1, "{v},"),
            None => ln!(w, 1, "{v} {{ {} }},", fields.join(", ")),
        }
    }
    w.line(0, &["}"]);
}

/// A method's `match self` with an arm per variant, or `match *self {}` over none: an empty
/// enum has no value to match.
fn matching(w: &mut Code, defs: &[&ErrorDef], arm: impl Fn(&mut Code, &ErrorDef)) {
    if defs.is_empty() {
        w.line(2, &["match *self {}"]);
        return;
    }
    w.line(2, &["match self {"]);
    for e in defs {
        arm(w, e);
    }
    w.line(2, &["}"]);
}

/// `fn hint`: each variant's hint template, rendered from its fields, or none.
fn hint_fn(w: &mut Code, defs: &[&ErrorDef]) {
    w.line(1, &["fn hint(&self) -> Option<String> {"]);
    let without: Vec<String> = defs
        .iter()
        .filter(|e| e.hint.is_none())
        .map(|e| pattern(e, &[]))
        .collect();
    if defs.is_empty() {
        w.line(2, &["match *self {}"]);
    } else if without.len() == defs.len() {
        w.line(2, &["None"]);
    } else {
        w.line(2, &["let hint = match self {"]);
        for e in defs {
            if let Some(hint) = &e.hint {
                let (pattern, text) = render(e, hint);
                arm(w, &pattern, &text);
            }
        }
        if !without.is_empty() {
            ln!(w, 3, "{} => return None,", without.join(" | "));
        }
        w.line(2, &["};"]);
        w.line(2, &["Some(hint)"]);
    }
    w.line(1, &["}"]);
}

/// A match arm of a rendering method: on one line, or the expression in a block when the line
/// would be too long.
fn arm(w: &mut Code, pattern: &str, text: &str) {
    if Code::fits(3, pattern.len() + text.len() + 5) {
        ln!(w, 3, "{pattern} => {text},");
    } else {
        ln!(w, 3, "{pattern} => {{");
        w.line(4, &[text]);
        w.line(3, &["}"]);
    }
}

/// A template as a `String` expression over the fields it names, and the pattern binding them.
fn render(e: &ErrorDef, template: &Template) -> (String, String) {
    let (format, plain) = format_string(template, field);
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
        [TemplatePart::Field(f)] => match e.fields.iter().find(|x| &x.name == f) {
            Some(TemplateField {
                ty: PlaceholderType::String,
                ..
            }) => format!("{}.clone()", field(f)),
            _ => format!("{}.to_string()", field(f)),
        },
        _ if used.is_empty() => format!("{}.into()", string(&plain)),
        _ => format!("format!({})", string(&format)),
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
fn pattern(e: &ErrorDef, fields: &[&str]) -> String {
    let v = &e.variant;
    if e.fields.is_empty() {
        return format!("Self::{v}");
    }
    if fields.is_empty() {
        return format!("Self::{v} {{ .. }}");
    }
    let bound: Vec<String> = fields.iter().map(|f| field(f)).collect();
    let rest = if fields.len() < e.fields.len() {
        ", .."
    } else {
        ""
    };
    format!("Self::{v} {{ {}{rest} }}", bound.join(", "))
}

/// A variant and its fields, as `tool_error!` takes them: `Busy`, `TooLarge { path, size, limit }`;
/// in the `naming` form every variant braced, and one that names its argument marked:
/// `NotFound { path } [argument]`, `Busy {}`.
fn shape(e: &ErrorDef, naming: bool) -> String {
    let variant = &e.variant;
    let fields: Vec<String> = e.fields.iter().map(|f| field(&f.name)).collect();
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
fn field(name: &str) -> String {
    crate::ident::snake(name)
}
