//! The reverse mapping: a publication (what `initialize` says of the server, and the lists of
//! tools, resources, resource templates and prompts) back to the manifest that would publish it.
//!
//! One mapping serves three commands. `import` writes it for a person, with a `TODO` comment
//! at each thing the wire does not say (a title, a hint, an example, a description) and the
//! key left out, so `mcp-contract check` refuses the file at that place until someone decides.
//! `verify` and `diff --against` map both sides through it, the manifest's own publication and
//! the server's, gaps filled with what a client assumes when the wire is silent, and hand the
//! two manifests to the diff engine: one comparison, its rule IDs, and no representational
//! freedom (pinned sentences, defaults stated in descriptions) mistaken for a change.
//!
//! What a server publishes that a manifest forbids (a `default` keyword, an input schema open
//! to unknown properties) is reported as a note, never copied. What only a JSON Schema document
//! says (`$ref` and `$defs`, as pydantic publishes nested models; `oneOf`; a type union) is
//! carried as a document, published as written.

use std::fmt::Write as _;

use serde_json::{Map, Value};

/// What to do where the wire leaves out something a manifest requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gaps {
    /// Leave the key out under a `# TODO:` comment, so `check` refuses it there.
    Todo,
    /// Write what a client assumes when the wire is silent (the spec's default hints, the
    /// name as title), so the result loads and can be compared.
    Fill,
}

/// A manifest read back from a publication.
#[derive(Debug, Clone)]
pub(crate) struct Imported {
    /// The manifest's text.
    pub(crate) yaml: String,
    /// How many `TODO`s it holds.
    pub(crate) todos: usize,
    /// What it holds, for people: "3 tools, 2 resources and 1 prompt".
    pub(crate) entries: String,
    /// What the publication holds that a manifest cannot say, each naming its place
    /// (`tools[NAME].inputSchema…`).
    pub(crate) notes: Vec<Note>,
}

/// Something published that a manifest forbids or cannot say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Note {
    /// The tool it concerns.
    pub(crate) tool: String,
    /// Where in the tool (`inputSchema.properties.limit`).
    pub(crate) at: String,
    /// What it is.
    pub(crate) what: String,
}

/// The four hints, their wire names, and the value a client assumes when one is absent
/// (MCP's `ToolAnnotations` defaults).
const HINTS: [(&str, &str, bool); 4] = [
    ("read_only", "readOnlyHint", false),
    ("destructive", "destructiveHint", true),
    ("idempotent", "idempotentHint", false),
    ("open_world", "openWorldHint", true),
];

/// The keywords a manifest schema copies as written.
const CONSTRAINTS: [&str; 9] = [
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "enum",
];

/// Keywords a manifest has no place for, and why the import does not copy them. What only a
/// JSON Schema document says (`oneOf`, `$ref`, …) is carried as one ([`needs_document`]).
const FORBIDDEN: [(&str, &str); 1] = [(
    "default",
    "a `default` keyword: a manifest states a default in the description, where every client reads it",
)];

/// The MIME type a client assumes of contents whose type is not given (RFC 2046: untyped
/// bytes), written where the wire gives none and a comparison needs one.
const UNTYPED: &str = "application/octet-stream";

/// The manifest that publishes `publication`: a `tools/list` result (`{"tools": [...]}`),
/// with, when the server publishes them, the entries of `resources/list`
/// (`resources`), `resources/templates/list` (`resourceTemplates`) and `prompts/list`
/// (`prompts`), and `initialize`'s `serverInfo` and `instructions`. The server is named
/// `server_name` unless its `serverInfo` names it.
pub(crate) fn import(server_name: &str, publication: &Value, gaps: Gaps) -> Imported {
    let mut w = Writer {
        out: String::new(),
        todos: 0,
        notes: Vec::new(),
        gaps,
        omitted: Vec::new(),
    };
    w.server(server_name, publication);
    let tools = publication["tools"].as_array().cloned().unwrap_or_default();
    // The hints every read-only tool leaves out are the manifest's policy, not gaps: the spec
    // reads destructive and idempotent as moot on a tool that only reads.
    let read_only: Vec<&Value> = (tools.iter())
        .map(|t| &t["annotations"])
        .filter(|a| a["readOnlyHint"] == true)
        .collect();
    w.omitted = [
        ("destructive", "destructiveHint"),
        ("idempotent", "idempotentHint"),
    ]
    .into_iter()
    .filter(|(_, wire)| !read_only.is_empty() && read_only.iter().all(|a| a.get(*wire).is_none()))
    .map(|(key, _)| key)
    .collect();
    let policy = match w.omitted.as_slice() {
        [] => "all".to_owned(),
        omitted => format!("{{omit_on_read_only: [{}]}}", omitted.join(", ")),
    };
    let _ = write!(w.out, "\nhint_policy: {policy}\n\ntools:\n");
    if tools.is_empty() {
        w.out.truncate(w.out.len() - 1);
        w.out.push_str(" []\n");
    }
    for tool in &tools {
        w.tool(tool);
    }
    let list = |key: &str| publication[key].as_array().cloned().unwrap_or_default();
    let (resources, templates, prompts) = (
        list("resources"),
        list("resourceTemplates"),
        list("prompts"),
    );
    if !resources.is_empty() || !templates.is_empty() {
        w.out.push_str("\nresources:\n");
    }
    for (resource, template) in
        (resources.iter().map(|r| (r, false))).chain(templates.iter().map(|t| (t, true)))
    {
        w.resource(resource, template);
    }
    if !prompts.is_empty() {
        w.out.push_str("\nprompts:\n");
    }
    for prompt in &prompts {
        w.prompt(prompt);
    }
    let entries = [
        (tools.len(), "tool"),
        (resources.len() + templates.len(), "resource"),
        (prompts.len(), "prompt"),
    ];
    let entries: Vec<String> = (entries.iter().enumerate())
        .filter(|(i, (n, _))| *i == 0 || *n > 0)
        .map(|(_, (n, what))| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    let entries = match entries.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    Imported {
        yaml: w.out,
        todos: w.todos,
        entries,
        notes: w.notes,
    }
}

struct Writer {
    out: String,
    todos: usize,
    notes: Vec<Note>,
    gaps: Gaps,
    /// The hints the publication's policy leaves off read-only tools.
    omitted: Vec<&'static str>,
}

impl Writer {
    fn todo(&mut self, indent: usize, what: &str) {
        self.todos += 1;
        let _ = writeln!(self.out, "{:indent$}# TODO: {what}", "");
    }

    fn note(&mut self, tool: &str, at: String, what: impl Into<String>) {
        self.notes.push(Note {
            tool: tool.to_owned(),
            at,
            what: what.into(),
        });
    }

    /// `server:` what the server says of itself; a manifest needs only its name.
    fn server(&mut self, fallback: &str, publication: &Value) {
        let info = &publication["serverInfo"];
        let name = info["name"].as_str().unwrap_or(fallback);
        let _ = writeln!(self.out, "server:\n  name: {}", quote(name));
        let stated = [
            ("title", info["title"].as_str()),
            ("version", info["version"].as_str()),
            ("instructions", publication["instructions"].as_str()),
        ];
        for (key, value) in stated {
            if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
                let _ = writeln!(self.out, "  {key}: {}", quote(value));
            }
        }
    }

    /// A required text of an entry: as published, else a `TODO` (or, to compare, `filled`).
    fn text(&mut self, indent: usize, key: &str, value: Option<&str>, filled: &str, todo: &str) {
        match (value.filter(|v| !v.trim().is_empty()), self.gaps) {
            (Some(v), _) => {
                let _ = writeln!(self.out, "{:indent$}{key}: {}", "", quote(v));
            }
            (None, Gaps::Fill) => {
                let _ = writeln!(self.out, "{:indent$}{key}: {}", "", quote(filled));
            }
            (None, Gaps::Todo) => self.todo(indent, todo),
        }
    }

    /// A resource of `resources/list`, or a template of `resources/templates/list`.
    fn resource(&mut self, resource: &Value, template: bool) {
        let name = resource["name"].as_str().unwrap_or_default().to_owned();
        let _ = writeln!(self.out, "  - name: {}", quote(&name));
        let (key, uri) = if template {
            ("uri_template", &resource["uriTemplate"])
        } else {
            ("uri", &resource["uri"])
        };
        let _ = writeln!(
            self.out,
            "    {key}: {}",
            quote(uri.as_str().unwrap_or_default())
        );
        self.text(
            4,
            "title",
            resource["title"].as_str(),
            &name,
            "a title for people (the server publishes none)",
        );
        self.text(
            4,
            "description",
            resource["description"].as_str(),
            "-",
            "what the resource holds (the server publishes no description)",
        );
        self.text(
            4,
            "mime_type",
            resource["mimeType"].as_str(),
            UNTYPED,
            "the MIME type of its contents (the server publishes none)",
        );
    }

    /// A prompt of `prompts/list`, its arguments each a string.
    fn prompt(&mut self, prompt: &Value) {
        let name = prompt["name"].as_str().unwrap_or_default().to_owned();
        let _ = writeln!(self.out, "  - name: {}", quote(&name));
        self.text(
            4,
            "title",
            prompt["title"].as_str(),
            &name,
            "a title for people (the server publishes none)",
        );
        self.text(
            4,
            "description",
            prompt["description"].as_str(),
            "-",
            "what the prompt asks of the model (the server publishes no description)",
        );
        let arguments = prompt["arguments"].as_array().cloned().unwrap_or_default();
        if arguments.is_empty() {
            return;
        }
        self.out.push_str("    arguments:\n");
        for argument in &arguments {
            let _ = writeln!(
                self.out,
                "      {}:",
                quote(argument["name"].as_str().unwrap_or_default())
            );
            self.text(
                8,
                "description",
                argument["description"].as_str(),
                "-",
                "what the argument holds (the server publishes no description)",
            );
            let required = argument["required"].as_bool().unwrap_or(false);
            let _ = writeln!(self.out, "        required: {required}");
        }
    }

    fn tool(&mut self, tool: &Value) {
        let name = tool["name"].as_str().unwrap_or_default().to_owned();
        let _ = writeln!(self.out, "  - name: {}", quote(&name));
        let title = (tool["title"].as_str())
            .or(tool["annotations"]["title"].as_str())
            .filter(|t| !t.trim().is_empty());
        match (title, self.gaps) {
            (Some(t), _) => {
                let _ = writeln!(self.out, "    title: {}", quote(t));
            }
            (None, Gaps::Fill) => {
                let _ = writeln!(self.out, "    title: {}", quote(&name));
            }
            (None, Gaps::Todo) => self.todo(4, "a title for people (the server publishes none)"),
        }
        match (
            tool["description"]
                .as_str()
                .filter(|d| !d.trim().is_empty()),
            self.gaps,
        ) {
            (Some(d), _) => {
                let _ = writeln!(self.out, "    description: {}", quote(d));
            }
            (None, Gaps::Fill) => self.out.push_str("    description: \"-\"\n"),
            (None, Gaps::Todo) => self.todo(
                4,
                "what the tool does and when to use it (the server publishes no description)",
            ),
        }
        self.hints(&tool["annotations"]);
        let input = &tool["inputSchema"];
        if input["additionalProperties"] != Value::Bool(false) {
            self.note(
                &name,
                "inputSchema".into(),
                "an input schema open to unknown properties: a manifest's argument objects refuse them (`additionalProperties: false`)",
            );
        }
        self.forbidden(&name, "inputSchema", input);
        if needs_document(input) {
            let _ = writeln!(self.out, "    input_schema: {input}");
        } else if let Some(props) = input["properties"].as_object().filter(|p| !p.is_empty()) {
            self.out.push_str("    parameters:\n");
            let required = names(&input["required"]);
            for (pname, schema) in props {
                let at = format!("inputSchema.properties.{pname}");
                self.property(&name, &at, 6, pname, schema, required.contains(pname), true);
            }
        }
        match tool["outputSchema"]["properties"].as_object() {
            // An output's fields need no description of their own inside a whole document, so
            // one that a field's document would have to carry makes the output one.
            _ if needs_document_within(&tool["outputSchema"]) => {
                let _ = writeln!(
                    self.out,
                    "    output:\n      json_schema: {}",
                    tool["outputSchema"]
                );
            }
            Some(props) => {
                self.forbidden(&name, "outputSchema", &tool["outputSchema"]);
                self.out.push_str("    output:\n");
                if let Some(d) = tool["outputSchema"]["description"].as_str() {
                    let _ = writeln!(self.out, "      description: {}", quote(d));
                }
                self.out.push_str("      properties:\n");
                let required = names(&tool["outputSchema"]["required"]);
                for (pname, schema) in props {
                    let at = format!("outputSchema.properties.{pname}");
                    self.property(
                        &name,
                        &at,
                        8,
                        pname,
                        schema,
                        required.contains(pname),
                        false,
                    );
                }
            }
            None => self.out.push_str("    output: text\n"),
        }
        if self.gaps == Gaps::Todo {
            // The wire never lists a tool's errors: only a person can say which it returns.
            self.todo(
                4,
                "list the error codes this tool returns (declare each under the top-level `errors:`), or `errors: []`",
            );
            self.out.push_str("    errors: [TODO]\n");
        }
        if tool.get("icons").is_some() {
            self.note(
                &name,
                "icons".into(),
                "icons are not imported; add them under `icons:`",
            );
        }
    }

    fn hints(&mut self, annotations: &Value) {
        let read_only = annotations["readOnlyHint"].as_bool();
        let mut written = Vec::new();
        let mut missing = Vec::new();
        for (key, wire, assumed) in HINTS {
            let moot = read_only == Some(true) && self.omitted.contains(&key);
            let value = annotations[wire].as_bool().or(match self.gaps {
                Gaps::Todo if moot => Some(key == "idempotent"),
                Gaps::Todo => None,
                // A read-only tool changes nothing: the spec reads its destructive and
                // idempotent hints as moot, and a manifest that omits them publishes none.
                Gaps::Fill if read_only == Some(true) && key == "destructive" => Some(false),
                Gaps::Fill if read_only == Some(true) && key == "idempotent" => Some(true),
                Gaps::Fill => Some(assumed),
            });
            match value {
                Some(v) => written.push(format!("{key}: {v}")),
                None => missing.push(wire),
            }
        }
        if !missing.is_empty() {
            self.todo(
                4,
                &format!(
                    "decide {} (the server publishes none; a client assumes the least safe value)",
                    missing
                        .iter()
                        .map(|w| format!("`{w}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        if !written.is_empty() {
            let _ = writeln!(self.out, "    hints: {{{}}}", written.join(", "));
        }
    }

    fn forbidden(&mut self, tool: &str, at: &str, schema: &Value) {
        for (key, what) in FORBIDDEN {
            if schema.get(key).is_some() {
                self.note(tool, format!("{at}.{key}"), what);
            }
        }
    }

    /// One property: a parameter (`top`), an output field or a nested field.
    #[allow(clippy::too_many_arguments)]
    fn property(
        &mut self,
        tool: &str,
        at: &str,
        indent: usize,
        name: &str,
        schema: &Value,
        required: bool,
        top: bool,
    ) {
        let _ = writeln!(self.out, "{:indent$}{}:", "", quote(name));
        let inner = indent + 2;
        self.schema(tool, at, inner, schema, top, true);
        if !required {
            let _ = writeln!(self.out, "{:inner$}required: false", "");
        }
    }

    /// The keys of a schema, at `indent`: a property's (`top` for a parameter), or an array's
    /// `items`, which needs no description.
    fn schema(
        &mut self,
        tool: &str,
        at: &str,
        indent: usize,
        schema: &Value,
        top: bool,
        property: bool,
    ) {
        self.forbidden(tool, at, schema);
        // What the manifest's types cannot say is carried as the JSON Schema document it is.
        if needs_document(schema) {
            let _ = writeln!(self.out, "{:indent$}json_schema: {schema}", "");
            return;
        }
        let schema = self.branch(tool, at, schema);
        let kind = match &schema["type"] {
            Value::String(t) => match t.as_str() {
                "object"
                    if schema["properties"]
                        .as_object()
                        .is_none_or(|p| p.is_empty()) =>
                {
                    "json"
                }
                t => t,
            },
            _ => "json",
        };
        let kind = kind.to_owned();
        let _ = writeln!(self.out, "{:indent$}type: {kind}", "");
        match schema["description"]
            .as_str()
            .filter(|d| !d.trim().is_empty())
        {
            Some(d) => {
                let _ = writeln!(self.out, "{:indent$}description: {}", "", quote(d));
            }
            None if !property => {}
            None if self.gaps == Gaps::Fill => {
                let _ = writeln!(self.out, "{:indent$}description: \"-\"", "");
            }
            None => self.todo(
                indent,
                "a description for the model (the server publishes none)",
            ),
        }
        for key in CONSTRAINTS {
            if let Some(v) = schema.get(key) {
                let _ = writeln!(self.out, "{:indent$}{key}: {v}", "");
            }
        }
        if kind == "array" {
            let _ = writeln!(self.out, "{:indent$}items:", "");
            let items = schema.get("items").cloned().unwrap_or(Value::Null);
            self.schema(
                tool,
                &format!("{at}.items"),
                indent + 2,
                &items,
                false,
                false,
            );
        }
        if kind == "object" {
            let _ = writeln!(self.out, "{:indent$}properties:", "");
            let required = names(&schema["required"]);
            let props = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (pname, sub) in &props {
                let sub_at = format!("{at}.properties.{pname}");
                self.property(
                    tool,
                    &sub_at,
                    indent + 2,
                    pname,
                    sub,
                    required.contains(pname),
                    false,
                );
            }
        }
        // The header a 2026-07-28 client mirrors the argument under.
        if let (Some(header), true) = (schema["x-mcp-header"].as_str(), top) {
            let _ = writeln!(self.out, "{:indent$}header: {}", "", quote(header));
        }
        // A default the description does not state yet becomes the manifest's `default:`, which
        // states it there; for a comparison, the description is compared as published.
        if let (Some(default), true, Gaps::Todo) = (schema.get("default"), top, self.gaps) {
            let stated = (schema["description"].as_str()).is_some_and(|d| d.contains("Default: "));
            if !stated {
                let _ = writeln!(self.out, "{:indent$}default: {default}", "");
            }
        }
        match schema["examples"].as_array().filter(|e| !e.is_empty()) {
            Some(examples) => {
                let _ = writeln!(
                    self.out,
                    "{:indent$}examples: {}",
                    "",
                    Value::from(examples.clone())
                );
            }
            None if top => match self.gaps {
                Gaps::Todo => self.todo(
                    indent,
                    "a realistic example (`example:`); `verify` calls the tool with it",
                ),
                Gaps::Fill => {
                    let _ = writeln!(
                        self.out,
                        "{:indent$}example: {}",
                        "",
                        placeholder(&kind, &schema)
                    );
                }
            },
            None => {}
        }
    }

    /// The one branch of a nullable union (`anyOf: [X, {type: null}]`, `type: [X, "null"]`),
    /// which a manifest says as an optional property; other unions stay as they are, noted.
    fn branch(&mut self, tool: &str, at: &str, schema: &Value) -> Value {
        if let Some(branches) = schema["anyOf"].as_array() {
            let real: Vec<&Value> = branches.iter().filter(|b| b["type"] != "null").collect();
            if let [one] = real.as_slice() {
                let mut merged = (*one).clone();
                if let (Some(m), Some(d)) = (merged.as_object_mut(), schema.get("description")) {
                    m.entry("description").or_insert(d.clone());
                }
                self.note(
                    tool,
                    format!("{at}.anyOf"),
                    "a nullable union: a manifest leaves the argument out instead of passing null",
                );
                return merged;
            }
            self.note(
                tool,
                format!("{at}.anyOf"),
                "`anyOf`: a manifest has no unions",
            );
        }
        if let Some(types) = schema["type"].as_array() {
            let real: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
            self.note(
                tool,
                format!("{at}.type"),
                "a type union: a manifest gives one type",
            );
            if let [one] = real.as_slice() {
                let mut copy = schema.clone();
                copy["type"] = (*one).clone();
                return copy;
            }
        }
        schema.clone()
    }
}

/// Keywords only a JSON Schema document (`json_schema:`, `input_schema:`) can say.
const DOCUMENT_ONLY: &[&str] = &[
    "$schema",
    "$ref",
    "$defs",
    "$anchor",
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "const",
    "dependentRequired",
    "dependentSchemas",
    "prefixItems",
    "contains",
    "patternProperties",
    "propertyNames",
];

/// Whether `schema` says what the manifest's types cannot: a keyword only a document has, or
/// a union other than a nullable one.
fn needs_document(schema: &Value) -> bool {
    let union = (schema["anyOf"].as_array())
        .is_some_and(|b| b.iter().filter(|b| b["type"] != "null").count() != 1);
    union || DOCUMENT_ONLY.iter().any(|k| schema.get(k).is_some())
}

/// Whether `schema` or a schema of its properties or items needs a document.
fn needs_document_within(schema: &Value) -> bool {
    needs_document(schema)
        || (schema["properties"].as_object()).is_some_and(|p| p.values().any(needs_document_within))
        || schema.get("items").is_some_and(needs_document_within)
}

/// A value of `kind` that fits `schema` where it can, for a comparison that needs an example
/// where the wire has none.
fn placeholder(kind: &str, schema: &Value) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    let min = schema["minimum"].as_f64().unwrap_or(0.0).max(0.0);
    match kind {
        "integer" => Value::from(min.ceil() as i64),
        "number" => Value::from(min),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "object" | "json" => Value::Object(Map::new()),
        _ => {
            let len = schema["minLength"].as_u64().unwrap_or(1).max(1) as usize;
            Value::String("x".repeat(len))
        }
    }
}

/// The strings of a `required` array.
fn names(value: &Value) -> Vec<String> {
    (value.as_array().into_iter().flatten())
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// A YAML scalar holding `text` exactly: JSON's string syntax is YAML's double-quoted one.
fn quote(text: &str) -> String {
    Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use mcp_contract_codegen::{Revision, Source, load};
    use serde_json::Value;

    use super::{Gaps, import};

    /// The entries, without what the reverse mapping does not carry: `_meta` (compared
    /// apart), icons, and the results' own keys (the 2026-07-28 cache hint and server `_meta`).
    fn without_unmapped(list: Value) -> Value {
        let keys = ["tools", "resources", "resourceTemplates", "prompts"];
        let mut list: Value = (keys.iter())
            .map(|k| (k.to_string(), list[*k].clone()))
            .collect::<serde_json::Map<_, _>>()
            .into();
        for key in keys {
            for entry in list[key].as_array_mut().into_iter().flatten() {
                let entry = entry.as_object_mut().expect("an entry object");
                entry.remove("_meta");
                entry.remove("icons");
            }
        }
        list
    }

    /// What `contract` publishes on `revision`: its tools and its other lists' entries.
    fn publication(contract: &mcp_contract_codegen::Contract, revision: Revision) -> Value {
        let mut all = contract.tools_list(revision);
        let entries = contract.listed_entries();
        for key in ["resources", "resourceTemplates", "prompts"] {
            all[key] = entries[key].clone();
        }
        all
    }

    /// The first place two values differ, as a JSON pointer with both sides.
    fn difference(a: &Value, b: &Value, at: String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.into_iter().find_map(|k| {
                    difference(
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                        format!("{at}/{k}"),
                    )
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => (x.iter().zip(y))
                .enumerate()
                .find_map(|(i, (p, q))| difference(p, q, format!("{at}/{i}"))),
            _ => (a != b).then(|| format!("{at}: {a} != {b}")),
        }
    }

    /// Every manifest of the repository, published, read back and published again, gives the
    /// same tools, resources, templates and prompts on both revisions: the mapping loses
    /// nothing it claims to carry.
    #[test]
    fn a_publication_read_back_publishes_the_same_tools() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        for manifest in [
            "tools.yaml",
            "fixtures/every-feature/tools.yaml",
            "fixtures/conformance/tools.yaml",
            "fixtures/foreign/tools.yaml",
            // Shared types under `$defs`: each schema that refers to them is a document.
            "fixtures/edge-cases/manifests/defs.yaml",
        ] {
            let path = std::path::Path::new(root).join(manifest);
            let text = std::fs::read_to_string(&path).expect("the manifest");
            let source = Source::new(manifest, text).with_dir(path.parent().expect("a folder"));
            let contract = load(&source).expect("it loads").contract;
            for revision in Revision::ALL {
                let published = publication(&contract, revision);
                let imported = import(contract.server_name(), &published, Gaps::Fill);
                let again = load(&Source::new("imported.yaml", imported.yaml.clone()))
                    .unwrap_or_else(|d| {
                        panic!(
                            "{manifest}: the import does not load:\n{}\n{}",
                            mcp_contract_codegen::render_all(
                                &d,
                                &Source::new("imported.yaml", imported.yaml.clone())
                            ),
                            imported.yaml
                        )
                    })
                    .contract;
                let (a, b) = (
                    without_unmapped(published),
                    without_unmapped(publication(&again, revision)),
                );
                assert_eq!(
                    difference(&a, &b, String::new()),
                    None,
                    "{manifest} on {revision}"
                );
                // A manifest publishes nothing it forbids; icons are the one thing not carried.
                assert!(
                    imported.notes.iter().all(|n| n.at == "icons"),
                    "{manifest}: {:?}",
                    imported.notes
                );
            }
        }
    }
}
