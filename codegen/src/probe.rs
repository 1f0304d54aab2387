//! What checking a running server needs from a contract beyond what `tools/list` publishes
//! (feature `diff`): which tools only read, the examples to call them with, the arguments
//! each requires and their JSON types, the error vocabulary, the argument codes, the groups,
//! and where each entry is written, so a finding about a live server points at its manifest.

use serde_json::Value;

use crate::model::{Contract, Field, Kind, Schema, TemplatePart};
use crate::source::Span;

/// The facts a live check reads from a contract, in manifest order.
#[derive(Debug, Clone)]
pub struct Probes {
    /// The tools, in publication order.
    pub tools: Vec<ToolProbe>,
    /// The codes of argument errors: missing, invalid, unknown (`argument_codes:`).
    pub argument_codes: ArgumentCodes,
    /// Each group's name and its tools' names.
    pub groups: Vec<(String, Vec<String>)>,
}

/// The codes the server answers argument errors with.
#[derive(Debug, Clone)]
pub struct ArgumentCodes {
    /// A required argument was not given.
    pub missing: String,
    /// An argument of the wrong type or outside its constraints.
    pub invalid: String,
    /// An argument the tool does not take.
    pub unknown: String,
}

/// One tool, as a live check calls it.
#[derive(Debug, Clone)]
pub struct ToolProbe {
    /// The published name.
    pub name: String,
    /// Whether its resolved hints say it only reads (`readOnlyHint: true`).
    pub read_only: bool,
    /// Its parameters, in order.
    pub parameters: Vec<ParameterProbe>,
    /// The errors it declares.
    pub errors: Vec<ErrorProbe>,
    /// Whether it runs only as a task (`task: required`), so a plain call is refused.
    pub task_required: bool,
    /// For a tool whose whole input is a JSON Schema document (`input_schema:`), the
    /// document's own `examples`: its parameters are not the manifest's to list.
    pub input_examples: Option<Vec<Value>>,
    /// Where its name is written.
    pub span: Span,
}

/// One parameter of a tool.
#[derive(Debug, Clone)]
pub struct ParameterProbe {
    /// The published name.
    pub name: String,
    /// Listed in `required`.
    pub required: bool,
    /// Its JSON type (`string`, `integer`, `number`, `boolean`, `array`, `object`), or
    /// `None` for `json`, which takes any value.
    pub json_type: Option<&'static str>,
    /// Its examples, as published.
    pub examples: Vec<Value>,
    /// Where its name is written.
    pub span: Span,
}

/// An error a tool declares.
#[derive(Debug, Clone)]
pub struct ErrorProbe {
    /// The code.
    pub code: String,
    /// The literal pieces of its message template, in order: a rendered message holds each.
    pub message_literals: Vec<String>,
    /// Whether it carries a hint.
    pub has_hint: bool,
    /// Whether it names its argument.
    pub names_argument: bool,
}

impl ToolProbe {
    /// The argument objects its examples give: call `i` passes each parameter's example `i`
    /// (its last one when it has fewer), so every example is sent once; at least one call,
    /// `{}` for a tool without parameters. `None` when a required parameter has no example
    /// (a manifest `check` accepts always has them).
    pub fn example_calls(&self) -> Option<Vec<serde_json::Map<String, Value>>> {
        if let Some(examples) = &self.input_examples {
            // A document's examples are whole argument objects; without one, no call is known
            // to be valid.
            let calls: Vec<_> = (examples.iter())
                .filter_map(|e| e.as_object().cloned())
                .collect();
            return (!calls.is_empty()).then_some(calls);
        }
        if (self.parameters.iter()).any(|p| p.required && p.examples.is_empty()) {
            return None;
        }
        let count = (self.parameters.iter())
            .map(|p| p.examples.len())
            .max()
            .unwrap_or(0)
            .max(1);
        Some(
            (0..count)
                .map(|i| {
                    (self.parameters.iter())
                        .filter_map(|p| {
                            let value = p.examples.get(i).or(p.examples.last())?;
                            Some((p.name.clone(), value.clone()))
                        })
                        .collect()
                })
                .collect(),
        )
    }
}

impl Contract {
    /// The facts a live check needs, read from the contract.
    pub fn probes(&self) -> Probes {
        let tools = (self.tools.iter())
            .map(|t| ToolProbe {
                name: t.name.clone(),
                read_only: t.hints.read_only,
                parameters: (t.parameters.iter())
                    .map(|f| ParameterProbe {
                        name: f.name.clone(),
                        required: f.required,
                        json_type: self.json_type(&f.schema),
                        examples: f.schema.examples.clone(),
                        span: f.span,
                    })
                    .collect(),
                errors: (t.errors.iter())
                    .filter_map(|&i| self.errors.get(i))
                    .map(|e| ErrorProbe {
                        code: e.code.clone(),
                        message_literals: (e.message.parts.iter())
                            .filter_map(|p| match p {
                                TemplatePart::Literal(text) if !text.trim().is_empty() => {
                                    Some(text.clone())
                                }
                                _ => None,
                            })
                            .collect(),
                        has_hint: e.hint.is_some(),
                        names_argument: e.names_argument,
                    })
                    .collect(),
                task_required: t.task == crate::model::TaskMode::Required,
                input_examples: t.input.as_ref().map(|d| {
                    (d.get("examples").and_then(Value::as_array))
                        .cloned()
                        .unwrap_or_default()
                }),
                span: t.span,
            })
            .collect();
        Probes {
            tools,
            argument_codes: ArgumentCodes {
                missing: self.argument_codes.missing.clone(),
                invalid: self.argument_codes.invalid.clone(),
                unknown: self.argument_codes.unknown.clone(),
            },
            groups: (self.groups.iter())
                .map(|g| (g.name.clone(), g.tools.clone()))
                .collect(),
        }
    }

    /// Where the entry at a diff path (`tools[NAME]`, `tools[NAME].parameters.ARG…`,
    /// `tools[NAME].output.FIELD…`) is written: the deepest named field found, else the tool,
    /// else the file's start.
    pub fn locate(&self, path: &str) -> Span {
        let Some(rest) = path.strip_prefix("tools[") else {
            return Span::default();
        };
        let Some((name, rest)) = rest.split_once(']') else {
            return Span::default();
        };
        let Some(tool) = self.tools.iter().find(|t| t.name == name) else {
            return Span::default();
        };
        let mut segments = rest.split('.').filter(|s| !s.is_empty());
        let fields: &[Field] = match segments.next() {
            Some("parameters") => &tool.parameters,
            Some("output") => match &tool.output {
                crate::model::OutputDef::Object { fields, .. } => fields,
                crate::model::OutputDef::Text | crate::model::OutputDef::Document(_) => &[],
            },
            _ => return tool.span,
        };
        let mut span = tool.span;
        let mut fields = fields;
        for segment in segments {
            let name = segment.split(['[', ' ']).next().unwrap_or(segment);
            let Some(field) = fields.iter().find(|f| f.name == name) else {
                break;
            };
            span = field.span;
            fields = match &field.schema.kind {
                Kind::Object(o) => &o.fields,
                _ => break,
            };
        }
        span
    }

    fn json_type(&self, schema: &Schema) -> Option<&'static str> {
        Some(match &schema.kind {
            Kind::String | Kind::Enum(_) => "string",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::Boolean => "boolean",
            // A document may allow several types; no single wrong one is certain.
            Kind::Json | Kind::Document(_) => return None,
            Kind::Array(_) => "array",
            Kind::Object(_) | Kind::Union(_) => "object",
            Kind::Named(i) => return self.types.get(*i).and_then(|t| self.json_type(&t.schema)),
        })
    }
}
