//! The data items of each tool: its arguments, output and nested types, with defaults as
//! expressions, and the Rust type each schema becomes.

use serde_json::Value;

use super::*;

/// What a generated type is for, which decides what it derives and implements: a call's
/// arguments are read by a generated `Read` impl (no serde visitors to compile), an output is
/// only serialized, and a question's answer is read like arguments, its `Deserialize` (which
/// `Form` requires) going through that `Read`.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Role {
    /// Read from a call's arguments: `Read`, no serde.
    Arguments,
    /// Sent as (part of) a tool's output: `Serialize`.
    Output,
    /// A shared type, which arguments and outputs may both use: `Serialize` and `Read`.
    Shared,
    /// A question's answer: `Serialize`, and `Read`.
    Form,
}

impl Role {
    fn reads(self) -> bool {
        matches!(self, Role::Arguments | Role::Shared | Role::Form)
    }

    /// The serde traits the role derives, when it has any.
    fn serde_derives(self) -> Option<&'static str> {
        match self {
            Role::Arguments => None,
            Role::Output | Role::Shared | Role::Form => Some("::mcp_contract::serde::Serialize"),
        }
    }

    /// The derive line of a type of this role that derives `plain` besides.
    fn derive(self, w: &mut Code, plain: &str) {
        let mut traits: Vec<String> = plain.split(", ").map(String::from).collect();
        if let Some(serde) = self.serde_derives() {
            traits.extend(serde.split(", ").map(String::from));
        }
        w.list(0, "#[derive(", &traits, ")]");
        if self.serde_derives().is_some() {
            w.line(0, &["#[serde(crate = \"::mcp_contract::serde\")]"]);
        }
    }

    /// The attribute of an optional field, when the role has one.
    fn optional_attribute(self) -> Option<&'static str> {
        match self {
            Role::Arguments => None,
            Role::Output | Role::Shared | Role::Form => {
                Some("#[serde(skip_serializing_if = \"Option::is_none\")]")
            }
        }
    }
}

pub(super) fn tool_items(w: &mut Code, c: &Contract, t: &ToolDef) {
    if t.input.is_some() {
        document_alias(w, &t.args_type(), &format!("The arguments of `{}`", t.name));
    } else {
        let summary = format!("The arguments of `{}`.", t.name);
        struct_item(
            w,
            c,
            &t.args_type(),
            &t.parameters,
            &summary,
            true,
            Role::Arguments,
        );
    }
    for f in &t.parameters {
        type_items(w, c, &f.schema, "", false, Role::Arguments);
    }
    if let OutputDef::Document(_) = &t.output {
        document_alias(w, &t.output_type(), &format!("What `{}` returns", t.name));
    }
    if let OutputDef::Object { fields, .. } = &t.output {
        let summary = format!("What `{}` returns.", t.name);
        struct_item(
            w,
            c,
            &t.output_type(),
            fields,
            &summary,
            false,
            Role::Output,
        );
        for f in fields {
            type_items(w, c, &f.schema, "", false, Role::Output);
        }
    }
    super::content::content_enum(w, t);
    tool_error(w, c, t);
}

/// The type of a value a JSON Schema document describes: JSON, checked against the document
/// as published (arguments before the handler runs, a result before it is sent).
fn document_alias(w: &mut Code, name: &str, what: &str) {
    w.doc(
        0,
        &format!(
            "{what}: a JSON object, as the tool's JSON Schema document in `tools.yaml` states it."
        ),
    );
    ln!(w, 0, "pub type {name} = ::mcp_contract::serde_json::Value;");
}

/// The struct or enum a schema needs, and those of everything nested in it. Shared types are
/// emitted once, at the top level (`top`), never where they are used.
pub(super) fn type_items(
    w: &mut Code,
    c: &Contract,
    schema: &Schema,
    name: &str,
    top: bool,
    role: Role,
) {
    match &schema.kind {
        Kind::Object(obj) => {
            let summary = schema
                .description
                .clone()
                .unwrap_or_else(|| format!("`{}`.", obj.rust_name));
            let rust_name = if top { name } else { &obj.rust_name };
            struct_item(w, c, rust_name, &obj.fields, &summary, false, role);
            for f in &obj.fields {
                type_items(w, c, &f.schema, "", false, role);
            }
        }
        Kind::Enum(e) => {
            let name = if top { name } else { &e.rust_name };
            match &schema.description {
                Some(d) => w.doc(0, d),
                None => w.doc(0, &format!("`{}`.", e.rust_name)),
            }
            let names: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
            w.allows(0, lints::variant_names(name, &names));
            role.derive(w, "Debug, Clone, Copy, PartialEq, Eq, Hash");
            if e.values.is_empty() {
                ln!(w, 0, "pub enum {name} {{}}");
            } else {
                ln!(w, 0, "pub enum {name} {{");
                for (value, variant) in &e.values {
                    w.doc(1, &format!("`{value}`"));
                    if role.serde_derives().is_some() {
                        ln!(w, 1, "#[serde(rename = {})]", string(value));
                    }
                    ln!(w, 1, "{variant},");
                }
                w.line(0, &["}"]);
            }
            if role.reads() {
                read_open(w, name);
                w.line(
                    2,
                    &["match ::mcp_contract::codegen::variant(v)?.as_str() {"],
                );
                for (value, variant) in &e.values {
                    ln!(w, 3, "{} => Ok(Self::{variant}),", string(value));
                }
                w.line(3, &["_ => ::mcp_contract::codegen::unknown_variant(),"]);
                w.line(2, &["}"]);
                read_close(w);
            }
        }
        Kind::Array(items) => type_items(w, c, items, name, top, role),
        Kind::Union(union) => union_items(
            w,
            c,
            schema,
            union,
            if top { name } else { &union.rust_name },
            role,
        ),
        Kind::Named(_)
        | Kind::String
        | Kind::Integer
        | Kind::Number
        | Kind::Boolean
        | Kind::Json
        | Kind::Document(_) => {}
    }
}

/// A tagged union's enum, one variant per tag value holding its object's struct (generated
/// here for a variant written in place, `{Union}{Variant}`), serialized with the tag beside
/// the struct's fields (serde's internal tagging) and read by the struct the tag names.
fn union_items(
    w: &mut Code,
    c: &Contract,
    schema: &Schema,
    union: &UnionDef,
    name: &str,
    role: Role,
) {
    for variant in &union.variants {
        if let Kind::Object(obj) = &variant.schema.kind {
            let summary = variant
                .schema
                .description
                .clone()
                .unwrap_or_else(|| format!("The `{}` variant of [`{name}`].", variant.value));
            struct_item(w, c, &obj.rust_name, &obj.fields, &summary, false, role);
            for f in &obj.fields {
                type_items(w, c, &f.schema, "", false, role);
            }
        }
    }
    match &schema.description {
        Some(d) => w.doc(0, d),
        None => w.doc(0, &format!("`{name}`.")),
    }
    let names: Vec<&str> = union.variants.iter().map(|v| v.ident.as_str()).collect();
    w.allows(0, lints::variant_names(name, &names));
    role.derive(w, "Debug, Clone, PartialEq");
    if role.serde_derives().is_some() {
        ln!(w, 0, "#[serde(tag = {})]", string(&union.tag));
    }
    ln!(w, 0, "pub enum {name} {{");
    for variant in &union.variants {
        let text = match &variant.schema.description {
            Some(d) => format!("`{}: {}`: {d}", union.tag, variant.value),
            None => format!("`{}: {}`", union.tag, variant.value),
        };
        w.doc(1, &text);
        if role.serde_derives().is_some() {
            ln!(w, 1, "#[serde(rename = {})]", string(&variant.value));
        }
        ln!(
            w,
            1,
            "{}({}),",
            variant.ident,
            rust_type(c, &variant.schema)
        );
    }
    w.line(0, &["}"]);
    if role.reads() {
        read_open(w, name);
        ln!(
            w,
            2,
            "match ::mcp_contract::codegen::tag(&v, {})?.as_str() {{",
            string(&union.tag)
        );
        for variant in &union.variants {
            ln!(
                w,
                3,
                "{} => ::mcp_contract::codegen::Read::read(v).map(Self::{}),",
                string(&variant.value),
                variant.ident
            );
        }
        w.line(3, &["_ => ::mcp_contract::codegen::unknown_variant(),"]);
        w.line(2, &["}"]);
        read_close(w);
    }
}

/// A struct, its `Read` impl when its role reads (which applies the defaults), and for a tool's
/// `parameters` the constants of their defaults and bounds ([`limits`]).
pub(super) fn struct_item(
    w: &mut Code,
    c: &Contract,
    name: &str,
    fields: &[Field],
    summary: &str,
    parameters: bool,
    role: Role,
) {
    let allow = lints::nested_arrays(c, fields);
    w.doc(0, summary);
    w.allows(0, allow);
    role.derive(w, "Debug, Clone, PartialEq");
    if fields.is_empty() {
        ln!(w, 0, "pub struct {name} {{}}");
    } else {
        ln!(w, 0, "pub struct {name} {{");
    }
    let mut constants = Vec::new();
    let mut reads = Vec::new();
    for f in fields {
        let declared = if parameters {
            limits::declared(c, f)
        } else {
            limits::Declared::default()
        };
        constants.extend(declared.constants);
        let field = &f.ident;
        let ty = rust_type(c, &f.schema);
        w.doc(1, &f.published_description());
        let bare = f.ident.trim_start_matches("r#");
        let wire = string(&f.name);
        if role.serde_derives().is_some() && bare != f.name {
            ln!(w, 1, "#[serde(rename = {wire})]");
        }
        match (&f.default, f.required) {
            (Some(default), _) => {
                let value = declared
                    .default
                    .unwrap_or_else(|| value_expr(c, &f.schema, default));
                // A closure that only builds an empty list is clippy's redundant_closure.
                let default = match value.as_str() {
                    "vec![]" => "Vec::new".to_owned(),
                    _ => format!("|| {value}"),
                };
                reads.push(format!("{field}: o.field_or({wire}, {default})?"));
                ln!(w, 1, "pub {field}: {ty},");
            }
            (None, required) => {
                if let Some(attribute) = role.optional_attribute().filter(|_| !required) {
                    w.line(1, &[attribute]);
                }
                if required {
                    ln!(w, 1, "pub {field}: {ty},");
                } else {
                    ln!(w, 1, "pub {field}: Option<{ty}>,");
                }
                reads.push(format!("{field}: o.field({wire})?"));
            }
        }
    }
    if !fields.is_empty() {
        w.line(0, &["}"]);
    }
    if !constants.is_empty() {
        w.allows(0, allow);
        // The constants are there to be used; a server that never names one is not at fault.
        w.line(0, &["#[allow(dead_code)]"]);
        ln!(w, 0, "impl {name} {{");
        for constant in &constants {
            constant.write(w, 1);
        }
        w.line(0, &["}"]);
    }
    if role.reads() {
        read_open(w, name);
        if reads.is_empty() {
            w.line(2, &["::mcp_contract::codegen::Object::new(v)?;"]);
            w.line(2, &["Ok(Self {})"]);
        } else {
            w.line(
                2,
                &["let mut o = ::mcp_contract::codegen::Object::new(v)?;"],
            );
            w.line(2, &["Ok(Self {"]);
            for read in &reads {
                ln!(w, 3, "{read},");
            }
            w.line(2, &["})"]);
        }
        read_close(w);
    }
}

/// The opening of a `Read` impl, up to its body reading `v`.
fn read_open(w: &mut Code, name: &str) {
    ln!(w, 0, "impl ::mcp_contract::codegen::Read for {name} {{");
    w.line(
        1,
        &["fn read(v: ::mcp_contract::codegen::Value) -> ::mcp_contract::codegen::Reading<Self> {"],
    );
}

fn read_close(w: &mut Code) {
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

/// The Rust type a schema becomes (`Vec<Vec<String>>`).
pub(super) fn rust_type(c: &Contract, schema: &Schema) -> String {
    match &schema.kind {
        Kind::String => "String".into(),
        Kind::Integer => schema
            .rust_integer()
            .unwrap_or(RustInteger::I64)
            .name()
            .into(),
        Kind::Number => "f64".into(),
        Kind::Boolean => "bool".into(),
        Kind::Json | Kind::Document(_) => "::mcp_contract::serde_json::Value".into(),
        Kind::Enum(e) => e.rust_name.clone(),
        Kind::Array(items) => format!("Vec<{}>", rust_type(c, items)),
        Kind::Object(o) => o.rust_name.clone(),
        Kind::Union(u) => u.rust_name.clone(),
        Kind::Named(i) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Object(_) | Kind::Enum(_) | Kind::Union(_) => t.name.clone(),
                _ => rust_type(c, &t.schema),
            }
        }
    }
}

/// A Rust expression for a (validated) default value.
pub(super) fn value_expr(c: &Contract, schema: &Schema, value: &Value) -> String {
    match (&schema.kind, value) {
        (Kind::Named(i), v) => {
            let t = &c.types[*i];
            match &t.schema.kind {
                Kind::Object(o) => object_expr(c, &t.name, &o.fields, v),
                Kind::Enum(e) => enum_text(&t.name, e, v).unwrap_or_default(),
                Kind::Union(u) => union_expr(c, &t.name, u, v),
                _ => value_expr(c, &t.schema, v),
            }
        }
        (Kind::String, Value::String(s)) => format!("String::from({})", string(s)),
        (Kind::Integer, Value::Number(n)) => {
            // The literal takes its type from the field; `2.0` is a valid integer in JSON
            // Schema, so whole floats are read too.
            match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => i.to_string(),
                (None, Some(u), _) => u.to_string(),
                (None, None, Some(f)) => (f as i128).to_string(),
                _ => "0".into(),
            }
        }
        (Kind::Number, Value::Number(n)) => {
            let f = n.as_f64().unwrap_or_default();
            format!("{f:?}")
        }
        (Kind::Boolean, Value::Bool(b)) => b.to_string(),
        (Kind::Json, v) => format!("::mcp_contract::serde_json::json!({v})"),
        (Kind::Enum(e), v) => enum_text(&e.rust_name, e, v).unwrap_or_default(),
        (Kind::Array(items), Value::Array(values)) => {
            let elems: Vec<String> = values.iter().map(|v| value_expr(c, items, v)).collect();
            format!("vec![{}]", elems.join(", "))
        }
        (Kind::Object(o), v) => object_expr(c, &o.rust_name, &o.fields, v),
        (Kind::Union(u), v) => union_expr(c, &u.rust_name, u, v),
        _ => "Default::default()".into(),
    }
}

/// `Union::Variant(…)` for a union's (validated) value: the variant its tag names.
fn union_expr(c: &Contract, name: &str, union: &UnionDef, value: &Value) -> String {
    match union.variant(value) {
        Some(variant) => format!(
            "{name}::{}({})",
            variant.ident,
            value_expr(c, &variant.schema, value)
        ),
        None => "Default::default()".into(),
    }
}

/// `Type::Variant` for an enum's (validated) value.
pub(super) fn enum_text(name: &str, e: &EnumDef, value: &Value) -> Option<String> {
    let (_, variant) = e
        .values
        .iter()
        .find(|(v, _)| Some(v.as_str()) == value.as_str())?;
    Some(format!("{name}::{variant}"))
}

/// A struct expression for an object's (validated) value.
pub(super) fn object_expr(c: &Contract, name: &str, fields: &[Field], value: &Value) -> String {
    let inits: Vec<String> = fields
        .iter()
        .map(|f| {
            let given = value.get(&f.name);
            let expr = match (given, &f.default, f.required) {
                (Some(v), _, true) | (Some(v), Some(_), false) => value_expr(c, &f.schema, v),
                (Some(v), None, false) => format!("Some({})", value_expr(c, &f.schema, v)),
                (None, Some(d), _) => value_expr(c, &f.schema, d),
                (None, None, _) => "None".into(),
            };
            format!("{}: {expr}", f.ident)
        })
        .collect();
    if inits.is_empty() {
        format!("{name} {{}}")
    } else {
        format!("{name} {{ {} }}", inits.join(", "))
    }
}
