//! What checking a running server needs from a contract beyond what `tools/list` publishes
//! (feature `diff`): which tools only read, the examples to call them with, the arguments
//! each requires and their JSON types, the error vocabulary, the argument codes, the groups,
//! the resources to read and the prompts to get, what `initialize` must say (the server's
//! identity, instructions, capabilities and cache hint), and where each entry is written, so
//! a finding about a live server points at its manifest.

use serde_json::{Map, Value, json};

use crate::emit::wire::entry_meta;
use crate::model::{
    CompletionDef, Contract, Field, IconDef, Kind, ResourceUri, Schema, TaskMode, TemplatePart,
};
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
    /// The resources and resource templates, in manifest order.
    pub resources: Vec<ResourceProbe>,
    /// The prompts, in manifest order.
    pub prompts: Vec<PromptProbe>,
    /// What `initialize` must say.
    pub server: ServerProbe,
}

/// One resource or resource template, as a live check reads it.
#[derive(Debug, Clone)]
pub struct ResourceProbe {
    /// Its programmatic name.
    pub name: String,
    /// Its URI, or its template, as listed.
    pub uri: String,
    /// Whether it is a template, which no client reads without choosing its values.
    pub template: bool,
    /// The MIME type of its contents.
    pub mime_type: String,
    /// Whether a read may ask the user first (`asks:`), which a check cannot answer.
    pub asks: bool,
    /// Where its name is written.
    pub span: Span,
}

/// One prompt, as a live check gets it.
#[derive(Debug, Clone)]
pub struct PromptProbe {
    /// The published name.
    pub name: String,
    /// Its arguments, in order.
    pub arguments: Vec<PromptArgumentProbe>,
    /// Whether a `prompts/get` may ask the user first (`asks:`), which a check cannot answer.
    pub asks: bool,
    /// Where its name is written.
    pub span: Span,
}

/// One argument of a prompt.
#[derive(Debug, Clone)]
pub struct PromptArgumentProbe {
    /// The published name.
    pub name: String,
    /// Whether `prompts/get` needs it.
    pub required: bool,
    /// A value known to be valid: the first of its completion's fixed values, when it has
    /// them (a prompt argument has no examples).
    pub example: Option<String>,
}

impl PromptProbe {
    /// The arguments of a `prompts/get` the manifest says is valid: each required argument
    /// with its first completion value; `None` when a required one has none.
    pub fn example_arguments(&self) -> Option<Map<String, Value>> {
        (self.arguments.iter())
            .filter(|a| a.required)
            .map(|a| Some((a.name.clone(), Value::from(a.example.clone()?))))
            .collect()
    }
}

/// What a server says of itself at `initialize`, as the manifest states it.
#[derive(Debug, Clone)]
pub struct ServerProbe {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.title`, when the manifest states one.
    pub title: Option<String>,
    /// `serverInfo.version`, when the manifest states one (otherwise the implementing
    /// crate's, which the manifest cannot know).
    pub version: Option<String>,
    /// The instructions for the model.
    pub instructions: Option<String>,
    /// The capabilities the contract implies, each one a server must advertise.
    pub capabilities: Vec<CapabilityProbe>,
    /// The 2026-07-28 lists' cache hint, `ttlMs` (capped as the runtime caps a changing
    /// list's) and `cacheScope`, when the manifest has one.
    pub cache: Option<(u64, &'static str)>,
    /// Where each of `name`, `title`, `version`, `instructions`, `logging` and `cache` is
    /// written.
    pub keys: Vec<(&'static str, Span)>,
}

impl ServerProbe {
    /// Where `key` of `server:` is written; the file's start when it is not.
    pub fn span(&self, key: &str) -> Span {
        (self.keys.iter())
            .find(|(k, _)| *k == key)
            .map_or(Span::default(), |(_, span)| *span)
    }
}

/// A capability the contract implies.
#[derive(Debug, Clone)]
pub struct CapabilityProbe {
    /// Its path in `capabilities`, such as `["resources", "subscribe"]`: present, and not
    /// `false`, in what the server advertises.
    pub path: Vec<&'static str>,
    /// What in the manifest implies it.
    pub because: String,
    /// Where that is written.
    pub span: Span,
    /// The one revision it is advertised this way on, when not every revision: 2025-11-25
    /// advertises tasks as `capabilities.tasks`, outside the extensions.
    pub only_on: Option<crate::Revision>,
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
            resources: (self.resources.iter())
                .map(|r| ResourceProbe {
                    name: r.name.clone(),
                    uri: r.published_uri(),
                    template: matches!(r.uri, ResourceUri::Template { .. }),
                    mime_type: r.mime_type.clone(),
                    asks: !r.questions.is_empty(),
                    span: r.span,
                })
                .collect(),
            prompts: (self.prompts.iter())
                .map(|p| PromptProbe {
                    name: p.name.clone(),
                    arguments: (p.arguments.iter())
                        .map(|a| {
                            let example = match &a.completion {
                                Some(CompletionDef::Values(values)) => values.first().cloned(),
                                _ => None,
                            };
                            PromptArgumentProbe {
                                name: a.name.clone(),
                                required: a.required,
                                example,
                            }
                        })
                        .collect(),
                    asks: !p.questions.is_empty(),
                    span: p.span,
                })
                .collect(),
            server: self.server_probe(),
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

    /// What `initialize` must say, from `server:` and what the contract declares.
    fn server_probe(&self) -> ServerProbe {
        let s = &self.server;
        let key = |key: &str| {
            (s.keys.iter())
                .find(|(k, _)| *k == key)
                .map(|(_, span)| *span)
        };
        let mut capabilities = vec![CapabilityProbe {
            path: vec!["tools"],
            because: "the manifest publishes tools".into(),
            span: self.tools.first().map_or(Span::default(), |t| t.span),
            only_on: None,
        }];
        let mut implied = |path: Vec<&'static str>, because: &str, span: Option<Span>| {
            if let Some(span) = span {
                let only_on = (path[0] == "extensions"
                    && path[1] == mcp_contract_spec::TASKS_EXTENSION)
                    .then_some(crate::Revision::V2026_07_28);
                capabilities.push(CapabilityProbe {
                    path,
                    because: because.into(),
                    span,
                    only_on,
                });
            }
        };
        let resource = self.resources.first().map(|r| r.span);
        let prompt = self.prompts.first().map(|p| p.span);
        implied(
            vec!["resources"],
            "the manifest declares resources",
            resource,
        );
        let subscribed = self.resources.iter().find(|r| r.subscribe);
        implied(
            vec!["resources", "subscribe"],
            "a resource is `subscribe: true`",
            subscribed.map(|r| r.span),
        );
        implied(vec!["prompts"], "the manifest declares prompts", prompt);
        let completed = (self.prompts.iter())
            .find(|p| p.arguments.iter().any(|a| a.completion.is_some()))
            .map(|p| p.span)
            .or_else(|| {
                (self.resources.iter())
                    .find(|r| !r.completions.is_empty())
                    .map(|r| r.span)
            });
        implied(
            vec!["completions"],
            "a prompt argument or a template variable has a `completion:`",
            completed,
        );
        implied(
            vec!["logging"],
            "the manifest says `logging: true`",
            s.logging.then(|| key("logging").unwrap_or_default()),
        );
        if let Some(at) = s.list_changed_at.filter(|_| s.list_changed) {
            let lists = [
                ("tools", !self.tools.is_empty()),
                ("resources", resource.is_some()),
                ("prompts", prompt.is_some()),
            ];
            for (list, declared) in lists {
                if declared {
                    implied(
                        vec![list, "listChanged"],
                        "the manifest says `list_changed: true`",
                        Some(at),
                    );
                }
            }
        }
        implied(
            vec!["extensions", mcp_contract_spec::apps::EXTENSION],
            "a resource is an MCP App",
            self.resources
                .iter()
                .find(|r| r.app.is_some())
                .map(|r| r.span),
        );
        implied(
            vec!["extensions", mcp_contract_spec::TASKS_EXTENSION],
            "a tool may run as a task",
            (self.tools.iter())
                .find(|t| t.task != TaskMode::Forbidden)
                .map(|t| t.span),
        );
        ServerProbe {
            name: s.name.clone(),
            title: s.title.clone(),
            version: s.version.clone(),
            instructions: s.instructions.clone(),
            capabilities,
            cache: s.cache.map(|c| {
                let served = c.served(s.list_changed);
                (served.ttl_ms, served.scope())
            }),
            keys: s.keys.clone(),
        }
    }

    /// The resources, resource templates and prompts a client lists, as the runtime lists
    /// them: `{"resources": […], "resourceTemplates": […], "prompts": […]}`, each entry the
    /// JSON of its list's result.
    pub fn listed_entries(&self) -> Value {
        let mut resources = Vec::new();
        let mut templates = Vec::new();
        for r in &self.resources {
            let mut entry = Map::new();
            let template = matches!(r.uri, ResourceUri::Template { .. });
            let uri_key = if template { "uriTemplate" } else { "uri" };
            entry.insert(uri_key.into(), r.published_uri().into());
            entry.insert("name".into(), r.name.clone().into());
            entry.insert("title".into(), r.title.clone().into());
            entry.insert("description".into(), r.description.clone().into());
            entry.insert("mimeType".into(), r.mime_type.clone().into());
            if let Some(icons) = IconDef::list_json(&r.icons) {
                entry.insert("icons".into(), icons);
            }
            let mut meta = entry_meta(&r.lifecycle).unwrap_or_default();
            // A template's list carries no app; a fixed resource's carries its `ui`.
            if let (Some(app), false) = (&r.app, template) {
                meta.insert("ui".into(), app.meta());
            }
            if !meta.is_empty() {
                entry.insert("_meta".into(), meta.into());
            }
            if template {
                templates.push(Value::Object(entry));
            } else {
                resources.push(Value::Object(entry));
            }
        }
        let prompts: Vec<Value> = (self.prompts.iter())
            .map(|p| {
                let mut entry = Map::new();
                entry.insert("name".into(), p.name.clone().into());
                entry.insert("title".into(), p.title.clone().into());
                entry.insert("description".into(), p.description.clone().into());
                if !p.arguments.is_empty() {
                    let arguments: Vec<Value> = (p.arguments.iter())
                        .map(|a| {
                            json!({
                                "name": a.name,
                                "description": a.description,
                                "required": a.required,
                            })
                        })
                        .collect();
                    entry.insert("arguments".into(), arguments.into());
                }
                if let Some(icons) = IconDef::list_json(&p.icons) {
                    entry.insert("icons".into(), icons);
                }
                if let Some(meta) = entry_meta(&p.lifecycle) {
                    entry.insert("_meta".into(), meta.into());
                }
                Value::Object(entry)
            })
            .collect();
        json!({
            "resources": resources,
            "resourceTemplates": templates,
            "prompts": prompts,
        })
    }

    /// Where the entry at a diff path is written: the deepest named field found (a tool's
    /// parameter or output field, `tools[NAME].parameters.ARG…`; a prompt's argument,
    /// `prompts[NAME].arguments.ARG`; a resource's key, `resources[NAME].KEY`), else the entry
    /// (`tools[NAME]`, `prompts[NAME]`, `resources[NAME]`), else the file's start.
    pub fn locate(&self, path: &str) -> Span {
        if let Some(rest) = path.strip_prefix("resources[") {
            let Some((name, rest)) = rest.split_once(']') else {
                return Span::default();
            };
            let Some(r) = self.resources.iter().find(|r| r.name == name) else {
                return Span::default();
            };
            let key = rest.trim_start_matches('.');
            return (r.keys.iter())
                .find(|(k, _)| !key.is_empty() && k == key)
                .map_or(r.span, |(_, span)| *span);
        }
        if let Some(rest) = path.strip_prefix("prompts[") {
            let Some((name, rest)) = rest.split_once(']') else {
                return Span::default();
            };
            let Some(p) = self.prompts.iter().find(|p| p.name == name) else {
                return Span::default();
            };
            let argument = rest
                .strip_prefix(".arguments.")
                .map(|a| a.split('.').next().unwrap_or(a));
            return (p.arguments.iter())
                .find(|a| Some(a.name.as_str()) == argument)
                .map_or(p.span, |a| a.span);
        }
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
