//! The model's schemas in JSON Schema (2020-12): what `tools/list` publishes and what
//! examples and defaults are checked against, so both read one form. (Artifact pointers
//! resolve on the model itself, through `validate::planning::SchemaRef`.)
//!
//! Schemas are strict on input (`additionalProperties: false` on every object, and every
//! number bounded by what its Rust type holds: `Schema::input_constraints`), carry a
//! description and examples on every property, keep manifest order, inline shared types
//! unless the manifest asks for `$defs` (several clients do not resolve `$ref`), and never
//! contain a `default` keyword: a default is stated in the description and applied by the
//! generated code.

use mcp_contract_spec::MCP_HEADER;
use serde_json::{Map, Value, json};

use super::*;

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Arguments: objects refuse unknown properties, and numbers are bounded by their Rust
    /// types.
    Input,
    /// Results: objects stay open, so adding a field later does not break a validating client.
    Output,
    /// An example or default: an argument, with only the constraints written; whether its
    /// numbers fit their Rust types is checked on its own (`Contract::integer_out_of_range`),
    /// for a message that names the type.
    Value,
}

/// How a schema publishes the shared types it uses (`server.shared_types`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SharedTypes {
    /// Copied into every place that uses it: the default, which every client reads.
    #[default]
    Inline,
    /// An object or enum type published once under the schema's `$defs`, each use a `$ref`
    /// to it: shorter when large types repeat, but not every client resolves `$ref`.
    Defs,
}

impl Contract {
    /// A tool's `inputSchema`.
    pub(crate) fn input_schema(&self, tool: &ToolDef) -> Value {
        self.input_schema_as(tool, self.server.shared_types)
    }

    /// A tool's `outputSchema`, when its output is structured.
    pub(crate) fn output_schema(&self, tool: &ToolDef) -> Option<Value> {
        self.output_schema_as(tool, self.server.shared_types)
    }

    /// Whether `shared_types: shared` would publish `tool`'s schemas otherwise than they are:
    /// whether the setting matters to it (a document brings its own `$defs` either way).
    pub(crate) fn shared_types_matter(&self, tool: &ToolDef, shared: SharedTypes) -> bool {
        self.input_schema(tool) != self.input_schema_as(tool, shared)
            || self.output_schema(tool) != self.output_schema_as(tool, shared)
    }

    /// A tool's `inputSchema` with shared types published as `shared` says.
    pub(crate) fn input_schema_as(&self, tool: &ToolDef, shared: SharedTypes) -> Value {
        match &tool.input {
            Some(document) => document.clone(),
            None => {
                let mut publisher = Publisher::new(self, Side::Input, shared);
                let schema = publisher.object(&tool.parameters);
                publisher.finish(schema)
            }
        }
    }

    /// A tool's `outputSchema` with shared types published as `shared` says.
    pub(crate) fn output_schema_as(&self, tool: &ToolDef, shared: SharedTypes) -> Option<Value> {
        match &tool.output {
            OutputDef::Text => None,
            OutputDef::Document(document) => Some(document.clone()),
            OutputDef::Object {
                description,
                fields,
            } => {
                let mut publisher = Publisher::new(self, Side::Output, shared);
                let mut schema = publisher.object(fields);
                if let (Some(d), Value::Object(map)) = (description, &mut schema) {
                    map.insert("description".into(), d.clone().into());
                }
                Some(publisher.finish(schema))
            }
        }
    }

    /// A standalone schema for one value, as an argument: what examples and defaults are
    /// checked against. Shared types are inlined: it is never published.
    pub(crate) fn value_schema(&self, schema: &Schema) -> Value {
        Publisher::new(self, Side::Value, SharedTypes::Inline).node(schema, None)
    }
}

/// Writes the schemas of one side of one tool, and the `$defs` they refer to.
struct Publisher<'c> {
    contract: &'c Contract,
    side: Side,
    /// The shared types published under `$defs` so far, by index into [`Contract::types`];
    /// `None` when shared types are inlined.
    defs: Option<std::collections::BTreeMap<usize, Value>>,
}

impl<'c> Publisher<'c> {
    fn new(contract: &'c Contract, side: Side, shared: SharedTypes) -> Self {
        let defs = (shared == SharedTypes::Defs).then(Default::default);
        Publisher {
            contract,
            side,
            defs,
        }
    }

    /// `schema` with the `$defs` its references need, in the order of `types:`.
    fn finish(self, mut schema: Value) -> Value {
        if let (Some(defs), Value::Object(map)) = (self.defs, &mut schema)
            && !defs.is_empty()
        {
            let named = defs
                .into_iter()
                .map(|(i, def)| (self.contract.types[i].name.clone(), def));
            map.insert("$defs".into(), Value::Object(named.collect()));
        }
        schema
    }

    fn object(&mut self, fields: &[Field]) -> Value {
        let mut o = Map::new();
        o.insert("type".into(), "object".into());
        let properties: Map<String, Value> = fields
            .iter()
            .map(|f| (f.name.clone(), self.property(f)))
            .collect();
        o.insert("properties".into(), properties.into());
        // A defaulted field is optional to a caller, but a handler always returns it.
        let required: Vec<Value> = fields
            .iter()
            .filter(|f| f.required || (self.side == Side::Output && f.default.is_some()))
            .map(|f| f.name.clone().into())
            .collect();
        if !required.is_empty() {
            o.insert("required".into(), required.into());
        }
        if self.side != Side::Output {
            o.insert("additionalProperties".into(), false.into());
        }
        o.into()
    }

    fn property(&mut self, field: &Field) -> Value {
        let description = match self.side {
            Side::Input | Side::Value => field.published_description(),
            Side::Output => field.schema.description.clone().unwrap_or_default(),
        };
        let Some(header) = &field.header else {
            return self.node(&field.schema, Some(description));
        };
        // A client reads a header's type where the header is declared: never behind a `$ref`.
        let defs = self.defs.take();
        let mut p = self.node(&field.schema, Some(description));
        self.defs = defs;
        if let Value::Object(o) = &mut p {
            o.insert(MCP_HEADER.into(), header.value.clone().into());
        }
        p
    }

    /// One schema node. `description` overrides the schema's own (a property's text, with
    /// its default).
    fn node(&mut self, schema: &Schema, description: Option<String>) -> Value {
        let mut o = match &schema.kind {
            // As written: the document carries its own description and examples.
            Kind::Document(document) => return (**document).clone(),
            Kind::Named(i) => {
                let mut inner = self.named(*i);
                if let Value::Object(map) = &mut inner {
                    // The reference's own text and examples describe this use of the type.
                    if let Some(d) = description.clone().or_else(|| schema.description.clone()) {
                        map.insert("description".into(), d.into());
                    }
                    if !schema.examples.is_empty() {
                        map.insert("examples".into(), schema.examples.clone().into());
                    }
                }
                return inner;
            }
            Kind::String => type_only("string"),
            Kind::Integer => type_only("integer"),
            Kind::Number => type_only("number"),
            Kind::Boolean => type_only("boolean"),
            // Any JSON value: the honest schema states no type at all.
            Kind::Json => Map::new(),
            Kind::Enum(e) => {
                let mut o = type_only("string");
                o.insert(
                    "enum".into(),
                    e.values
                        .iter()
                        .map(|(v, _)| Value::from(v.clone()))
                        .collect(),
                );
                o
            }
            Kind::Array(items) => {
                let mut o = type_only("array");
                o.insert("items".into(), self.node(items, None));
                o
            }
            Kind::Object(obj) => match self.object(&obj.fields) {
                Value::Object(o) => o,
                _ => Map::new(),
            },
            Kind::Union(union) => self.union(union),
        };
        if let Some(d) = description.or_else(|| schema.description.clone())
            && !d.is_empty()
        {
            o.insert("description".into(), d.into());
        }
        let constraints = match self.side {
            Side::Input => schema.input_constraints(),
            Side::Output | Side::Value => schema.constraints.clone(),
        };
        for (keyword, value) in constraints.iter() {
            o.insert(keyword.name().into(), value.to_json());
        }
        if !schema.examples.is_empty() {
            o.insert("examples".into(), schema.examples.clone().into());
        }
        o.into()
    }

    /// A use of shared type `i`: the type itself, or a `$ref` to its entry of `$defs`. Only
    /// object and enum types are referred to: a scalar or an array is about as short as its
    /// reference, and a union's variants are written out, each with its tag.
    fn named(&mut self, i: usize) -> Value {
        let shared = &self.contract.types[i].schema;
        let referable = matches!(shared.kind, Kind::Object(_) | Kind::Enum(_));
        let Some(defs) = self.defs.as_ref().filter(|_| referable) else {
            return self.node(shared, None);
        };
        if !defs.contains_key(&i) {
            let def = self.node(shared, None);
            self.defs.get_or_insert_default().insert(i, def);
        }
        json!({"$ref": format!("#/$defs/{}", self.contract.types[i].name)})
    }
}

fn type_only(ty: &str) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("type".into(), json!(ty));
    o
}

impl Publisher<'_> {
    /// A tagged union: `oneOf` its variants, each an object whose tag is a required string
    /// `const`, first among its properties and in `required`; so a value matches one variant at
    /// most, and the tag says which. A variant's examples, written without the tag, are published
    /// with it.
    fn union(&mut self, union: &UnionDef) -> Map<String, Value> {
        let mut variants = Vec::with_capacity(union.variants.len());
        for variant in &union.variants {
            let tag = Value::from(variant.value.clone());
            let tagged = |rest: &Value| {
                let mut o = Map::new();
                o.insert(union.tag.clone(), tag.clone());
                o.extend(rest.as_object().cloned().unwrap_or_default());
                Value::from(o)
            };
            let object = self.variant_object(&variant.schema);
            let lists_required = object.contains_key("required");
            let mut out = Map::new();
            for (key, value) in object {
                let value = match key.as_str() {
                    "properties" => {
                        let mut properties = Map::new();
                        properties.insert(
                            union.tag.clone(),
                            json!({"type": "string", "const": tag.clone()}),
                        );
                        properties.extend(value.as_object().cloned().unwrap_or_default());
                        properties.into()
                    }
                    "required" => {
                        let mut names = vec![Value::from(union.tag.clone())];
                        names.extend(value.as_array().cloned().unwrap_or_default());
                        names.into()
                    }
                    "examples" => value.as_array().into_iter().flatten().map(tagged).collect(),
                    _ => value,
                };
                let properties = key == "properties";
                out.insert(key, value);
                if properties && !lists_required {
                    out.insert("required".into(), json!([union.tag]));
                }
            }
            variants.push(Value::from(out));
        }
        let mut o = type_only("object");
        o.insert("oneOf".into(), variants.into());
        o
    }

    /// A variant's object, always written out: its tag goes among its properties, so a shared
    /// type it names is inlined here even under `shared_types: defs` (its own fields may still
    /// refer to `$defs`). The variant's text and examples replace the type's, as on any use.
    fn variant_object(&mut self, schema: &Schema) -> Map<String, Value> {
        let mut object = schema;
        while let Kind::Named(i) = object.kind {
            object = &self.contract.types[i].schema;
        }
        let description = schema
            .description
            .clone()
            .or_else(|| object.description.clone());
        let Value::Object(mut o) = self.node(object, description) else {
            return Map::new(); // an object's node is always an object
        };
        if !schema.examples.is_empty() {
            o.insert("examples".into(), schema.examples.clone().into());
        }
        o
    }
}
