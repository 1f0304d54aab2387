//! The contract test: the live wire of a server held against the fixtures generated from its
//! manifest, on every revision.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mcp_contract_spec::{Hint, MCP_HEADER};
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use serde_json::Value;

use super::{Revision, check_wire, connect, envelope, problems};
use crate::client::metadata;
use crate::contract::ContractSpec;
use crate::fixture::ToolFixture;
use crate::published::Published;
use crate::server::{Dispatch, Server};

/// Runs the contract test against `server`, in process, on both
/// revisions, and panics with every broken rule listed.
///
/// For each revision it checks, against `fixtures` (the generated `FIXTURES`): the exact tool
/// set and order; each title on `title` and `annotations.title`; the hints on the object model
/// and on the wire; no `default` keyword anywhere; properties and `required` equal to the
/// manifest's lists; `additionalProperties: false`; `inputSchema` and `outputSchema` valid
/// JSON Schema 2020-12 (the MCP default dialect); each pinned sentence verbatim in the
/// description; each default stated as `Default: <value>.` in its property's description;
/// every example, and the example call, valid against its schema; `tools/list` valid against
/// the official MCP schema; and arguments first: an unknown argument is refused as
/// `argument_unknown` by a server whose handlers fail the test if they are ever called, and
/// each of a tool's former names (`aliases:`) gets the answer the tool gets, to an unknown
/// argument and, with the example call, from the same handler. For
/// prompts: `prompts/list` gives the manifest's prompts in order (titles, descriptions,
/// argument names and `required`), valid against the official schema, and is not answered
/// without prompts; a `prompts/get` missing a required argument is `-32602` before any
/// handler runs. Last, the run-time checks of every schema agree with the `jsonschema` crate
/// ([`assert_checks`](super::assert_checks)).
///
/// ```ignore
/// #[test]
/// fn contract() {
///     mcp_contract::testing::assert_contract(contract::server(MyHandler), contract::FIXTURES);
/// }
/// ```
pub fn assert_contract<D: Dispatch>(server: Server<D>, fixtures: &[ToolFixture]) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => panic!("mcp-contract: cannot start a runtime for the contract test: {e}"),
    };
    let failures = runtime.block_on(async {
        let mut failures = Vec::new();
        for revision in Revision::ALL {
            check(&server, fixtures, revision, &mut failures).await;
        }
        failures
    });
    let (disagreements, _) = super::checks::disagreements(server.published().spec);
    let failures: Vec<String> = (failures.into_iter())
        .chain(
            disagreements
                .into_iter()
                .map(|d| format!("the run-time checks: {d}")),
        )
        .collect();
    assert!(
        failures.is_empty(),
        "the published contract breaks {} rule(s):\n  - {}",
        failures.len(),
        failures.join("\n  - ")
    );
}

/// A dispatcher for the same contract whose handlers must never run.
struct Tripwire {
    published: &'static Published,
    called: Arc<AtomicBool>,
}

impl Dispatch for Tripwire {
    fn published(&self) -> &'static Published {
        self.published
    }
    fn call(
        &self,
        tool: usize,
        _arguments: JsonObject,
        _cx: crate::Context,
    ) -> futures::future::BoxFuture<'_, CallToolResult> {
        self.called.store(true, Ordering::SeqCst);
        Box::pin(
            async move { crate::call::internal(format!("tripwire: handler #{tool} was called")) },
        )
    }
    fn get_prompt(
        &self,
        prompt: usize,
        _arguments: std::collections::HashMap<String, String>,
        _cx: crate::Context,
    ) -> futures::future::BoxFuture<'_, Result<Vec<crate::PromptMessage>, crate::PromptError>> {
        self.called.store(true, Ordering::SeqCst);
        Box::pin(async move {
            Err(crate::PromptError::Failed(format!(
                "tripwire: prompt #{prompt} was called"
            )))
        })
    }
}

async fn check<D: Dispatch>(
    server: &Server<D>,
    fixtures: &[ToolFixture],
    revision: Revision,
    failures: &mut Vec<String>,
) {
    let rev = revision.as_str();
    let mut fail = |what: String| failures.push(format!("[{rev}] {what}"));
    let client = match connect(server.clone(), revision).await {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot connect: {e}")),
    };
    let listed = match client.list_tools(None).await {
        Ok(l) => l,
        Err(e) => return fail(format!("tools/list failed: {e}")),
    };
    let _ = client.cancel().await;
    let wire = serde_json::to_value(&listed).unwrap_or_default();
    if let Err(errors) = check_wire(revision, "ListToolsResult", &wire) {
        fail(format!(
            "tools/list breaks the official schema: {}",
            errors.join("; ")
        ));
    }
    let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
    let expected: Vec<&str> = fixtures.iter().map(|f| f.name).collect();
    if names != expected {
        fail(format!(
            "the tools are {names:?}, the manifest declares {expected:?}"
        ));
    }
    for (fixture, tool) in fixtures.iter().filter_map(|f| {
        listed
            .tools
            .iter()
            .find(|t| t.name == f.name)
            .map(|t| (f, t))
    }) {
        let wire_tool = wire["tools"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["name"] == fixture.name))
            .cloned()
            .unwrap_or_default();
        for problem in tool_problems(fixture, tool, &wire_tool) {
            fail(format!("`{}`: {problem}", fixture.name));
        }
    }
    planning(server.published().spec, &listed.tools, revision, &mut fail);
    resources(server, revision, &mut fail).await;
    arguments_first(server.published(), fixtures, revision, &mut fail).await;
    super::prompts::listed(server, revision, &mut fail).await;
    let called = Arc::new(AtomicBool::new(false));
    let tripwire = Server::new(Tripwire {
        published: server.published(),
        called: Arc::clone(&called),
    });
    super::prompts::required_first(tripwire, &called, revision, &mut fail).await;
}

/// The planning metadata reads back with the runtime's own parsers, and `x-mcp-header`
/// reaches only the revision that defines it.
fn planning(
    spec: &ContractSpec,
    tools: &[Tool],
    revision: Revision,
    fail: &mut impl FnMut(String),
) {
    for tool in tools {
        if let Err(e) = metadata::artifacts(tool, spec.artifacts_key) {
            fail(e.to_string());
        }
        let input = Value::Object((*tool.input_schema).clone());
        let headers = find_keyword(&input, MCP_HEADER, "");
        if let (false, Some(at)) = (revision.has_mcp_headers(), headers) {
            fail(format!(
                "`{}`: {MCP_HEADER} is published to a {revision} client at {at}",
                tool.name
            ));
        }
    }
    if let Err(e) = metadata::compositions(tools, spec.composition_key) {
        fail(e.to_string());
    }
}

/// Resources and templates are listed as declared, in the official shapes.
async fn resources<D: Dispatch>(
    server: &Server<D>,
    revision: Revision,
    fail: &mut impl FnMut(String),
) {
    let declared = server.published().spec.resources;
    if declared.is_empty() {
        return;
    }
    let client = match connect(server.clone(), revision).await {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot connect: {e}")),
    };
    let fixed: Vec<&str> = declared
        .iter()
        .filter(|r| !r.template)
        .map(|r| r.uri)
        .collect();
    let templates: Vec<&str> = declared
        .iter()
        .filter(|r| r.template)
        .map(|r| r.uri)
        .collect();
    match client.list_resources(None).await {
        Ok(listed) => {
            let wire = serde_json::to_value(&listed).unwrap_or_default();
            if let Err(errors) = check_wire(revision, "ListResourcesResult", &wire) {
                fail(format!(
                    "resources/list breaks the official schema: {}",
                    errors.join("; ")
                ));
            }
            let uris: Vec<&str> = listed.resources.iter().map(|r| r.uri.as_str()).collect();
            if uris != fixed {
                fail(format!(
                    "resources/list gives {uris:?}, the manifest declares {fixed:?}"
                ));
            }
        }
        Err(e) => fail(format!("resources/list failed: {e}")),
    }
    match client.list_resource_templates(None).await {
        Ok(listed) => {
            let wire = serde_json::to_value(&listed).unwrap_or_default();
            if let Err(errors) = check_wire(revision, "ListResourceTemplatesResult", &wire) {
                fail(format!(
                    "resources/templates/list breaks the official schema: {}",
                    errors.join("; ")
                ));
            }
            let uris: Vec<&str> = listed
                .resource_templates
                .iter()
                .map(|r| r.uri_template.as_str())
                .collect();
            if uris != templates {
                fail(format!(
                    "resources/templates/list gives {uris:?}, the manifest declares {templates:?}"
                ));
            }
        }
        Err(e) => fail(format!("resources/templates/list failed: {e}")),
    }
    let _ = client.cancel().await;
}

fn tool_problems(f: &ToolFixture, tool: &Tool, wire: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let annotations = tool.annotations.clone().unwrap_or_default();
    if tool.title.as_deref() != Some(f.title) || annotations.title.as_deref() != Some(f.title) {
        problems.push(format!(
            "title {:?} and annotations.title {:?}, the manifest says {:?}",
            tool.title, annotations.title, f.title
        ));
    }
    for hint in Hint::ALL {
        let model = match hint {
            Hint::ReadOnly => annotations.read_only_hint,
            Hint::Destructive => annotations.destructive_hint,
            Hint::Idempotent => annotations.idempotent_hint,
            Hint::OpenWorld => annotations.open_world_hint,
        };
        let key = hint.wire_name();
        let declared = f.hints.get(hint);
        let on_wire = wire["annotations"].get(key).and_then(Value::as_bool);
        if model != declared || on_wire != declared {
            problems.push(format!(
                "{key} is {model:?} (object) / {on_wire:?} (wire), the manifest says {declared:?}"
            ));
        }
    }
    // MCP schemas without `$schema` are JSON Schema 2020-12, and must be valid in it; the
    // checks of examples below need a schema a validator can build.
    let mut valid = true;
    for side in ["inputSchema", "outputSchema"] {
        if let Some(path) = find_keyword(&wire[side], "default", &format!("/{side}")) {
            problems.push(format!("a `default` keyword is published at {path}"));
        }
        if let Some(schema) = wire.get(side)
            && let Err(e) = jsonschema::draft202012::meta::validate(schema)
        {
            valid = false;
            problems.push(format!(
                "{side} is not a valid JSON Schema 2020-12 schema: {e} at {}",
                e.instance_path()
            ));
        }
    }
    let input = &wire["inputSchema"];
    let properties: Vec<&str> = input["properties"]
        .as_object()
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if properties != f.properties {
        problems.push(format!(
            "properties are {properties:?}, the manifest declares {:?}",
            f.properties
        ));
    }
    let required: Vec<&str> = input["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if required != f.required {
        problems.push(format!(
            "required is {required:?}, the manifest declares {:?}",
            f.required
        ));
    }
    if input["additionalProperties"] != Value::Bool(false) {
        problems.push(
            "inputSchema does not refuse other arguments (additionalProperties: false)".into(),
        );
    }
    let description = tool.description.as_deref().unwrap_or_default();
    for sentence in f.sentences {
        if !description.contains(sentence) {
            problems.push(format!(
                "the description lacks the pinned sentence {sentence:?}"
            ));
        }
    }
    for (name, value) in f.defaults {
        let text = input["properties"][name]["description"]
            .as_str()
            .unwrap_or_default();
        if !text.contains(&format!("Default: {value}.")) {
            problems.push(format!(
                "`{name}`'s description does not state `Default: {value}.`: {text:?}"
            ));
        }
    }
    if valid {
        for schema in [input, &wire["outputSchema"]] {
            examples_problems(schema, "", &mut problems);
        }
        match serde_json::from_str::<Value>(f.example_call) {
            Ok(call) if jsonschema::is_valid(input, &call) => {}
            _ => problems.push(format!(
                "the example call {} does not pass the inputSchema",
                f.example_call
            )),
        }
    }
    if f.structured_output != tool.output_schema.is_some() {
        problems.push(format!(
            "outputSchema presence is {}, the manifest says {}",
            tool.output_schema.is_some(),
            f.structured_output
        ));
    }
    problems
}

/// The JSON path of the first schema keyword `key` in `schema` or its subschemas, if any.
/// Only schemas are searched: property names, and values such as examples, enums, consts
/// and `_meta` entries, may use the same word without being the keyword.
fn find_keyword(schema: &Value, key: &str, at: &str) -> Option<String> {
    let Value::Object(map) = schema else {
        return None;
    };
    if map.contains_key(key) {
        return Some(format!("{at}/{key}"));
    }
    let each = |items: &[Value], here: &str| {
        items
            .iter()
            .enumerate()
            .find_map(|(i, sub)| find_keyword(sub, key, &format!("{here}/{i}")))
    };
    map.iter().find_map(|(k, v)| {
        let here = format!("{at}/{k}");
        match (k.as_str(), v) {
            (
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
                Value::Object(subs),
            ) => subs
                .iter()
                .find_map(|(name, sub)| find_keyword(sub, key, &format!("{here}/{name}"))),
            ("allOf" | "anyOf" | "oneOf" | "prefixItems" | "items", Value::Array(subs)) => {
                each(subs, &here)
            }
            (
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "unevaluatedItems"
                | "unevaluatedProperties"
                | "contains"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else",
                _,
            ) => find_keyword(v, key, &here),
            _ => None,
        }
    })
}

/// Checks every `examples` entry against the schema node that carries it, with the
/// jsonschema crate rather than our own reading of the keywords. A node is checked with the
/// root's `$defs` beside it, so that its `$ref`s into them resolve; those `$defs` are walked
/// too.
fn examples_problems(schema: &Value, at: &str, problems: &mut Vec<String>) {
    let defs = schema.get("$defs");
    examples_at(schema, defs, at, problems);
    if let Some(Value::Object(defs_map)) = defs {
        for (name, def) in defs_map {
            examples_at(def, defs, &format!("{at}/$defs/{name}"), problems);
        }
    }
}

fn examples_at(schema: &Value, defs: Option<&Value>, at: &str, problems: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::Array(examples)) = map.get("examples") {
        let mut checked = map.clone();
        if let Some(defs) = defs {
            checked.insert("$defs".into(), defs.clone());
        }
        let checked = Value::Object(checked);
        for example in examples {
            if !jsonschema::is_valid(&checked, example) {
                problems.push(format!(
                    "the example {example} at {at} does not match its schema"
                ));
            }
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            examples_at(sub, defs, &format!("{at}/{name}"), problems);
        }
    }
    if let Some(items) = map.get("items") {
        examples_at(items, defs, &format!("{at}/items"), problems);
    }
    // A tagged union's variants carry their own examples, published with the tag.
    if let Some(Value::Array(variants)) = map.get("oneOf") {
        for (i, variant) in variants.iter().enumerate() {
            examples_at(variant, defs, &format!("{at}/oneOf/{i}"), problems);
        }
    }
}

/// An unknown argument is refused by name before any handler runs.
async fn arguments_first(
    published: &'static Published,
    fixtures: &[ToolFixture],
    revision: Revision,
    fail: &mut impl FnMut(String),
) {
    const UNKNOWN: &str = "mcp_contract_unknown_argument";
    let unknown_code = published.spec.argument_codes.unknown;
    let called = Arc::new(AtomicBool::new(false));
    let tripwire = Server::new(Tripwire {
        published,
        called: Arc::clone(&called),
    });
    let client = match connect(tripwire, revision).await {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot connect the tripwire server: {e}")),
    };
    for f in fixtures {
        let mut arguments: JsonObject = serde_json::from_str(f.example_call).unwrap_or_default();
        arguments.insert(UNKNOWN.into(), Value::Bool(true));
        let result = client
            .call_tool(CallToolRequestParams::new(f.name).with_arguments(arguments.clone()))
            .await;
        let refused = result
            .as_ref()
            .ok()
            .and_then(envelope)
            .is_some_and(|envelope| problems(&envelope).contains(&(unknown_code, UNKNOWN)));
        if !refused {
            fail(format!(
                "`{}`: an unknown argument was not refused as {unknown_code}: {result:?}",
                f.name
            ));
        }
        if called.swap(false, Ordering::SeqCst) {
            fail(format!(
                "`{}`: the handler ran before the arguments were checked",
                f.name
            ));
        }
        // Each former name of the tool gets the very answer its tool gives.
        let aliases = published.aliases.tools.iter().filter(|(_, i)| {
            published.spec.tools.get(*i).is_some_and(|t| {
                serde_json::from_str::<Value>(t.json).is_ok_and(|j| j["name"] == f.name)
            })
        });
        // With the example call it reaches the tool's own handler: the tripwire's answer names
        // the handler it ran, so equal answers are the same handler with the same arguments.
        let valid: JsonObject = serde_json::from_str(f.example_call).unwrap_or_default();
        let mut served = None;
        for (alias, _) in aliases {
            let served = match &served {
                Some(served) => served,
                None => served.insert(
                    client
                        .call_tool(CallToolRequestParams::new(f.name).with_arguments(valid.clone()))
                        .await,
                ),
            };
            for (arguments, answer) in [(&arguments, &result), (&valid, served)] {
                let by_alias = client
                    .call_tool(CallToolRequestParams::new(*alias).with_arguments(arguments.clone()))
                    .await;
                if format!("{by_alias:?}") != format!("{answer:?}") {
                    fail(format!(
                        "`{alias}`, a former name of `{}`, answers {by_alias:?} where the tool answers {answer:?}",
                        f.name
                    ));
                }
            }
        }
        called.store(false, Ordering::SeqCst);
    }
    let _ = client.cancel().await;
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use mcp_contract_spec::PublishedHints;

    const FIXTURE: ToolFixture = ToolFixture {
        name: "configure",
        title: "Configure",
        hints: PublishedHints {
            read_only: Some(true),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
        },
        properties: &["default", "options"],
        required: &[],
        sentences: &[],
        defaults: &[],
        example_call: "{}",
        structured_output: false,
    };

    fn wire(default_branch: Value) -> Value {
        json!({
            "name": "configure",
            "title": "Configure",
            "description": "Configures the repository.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "default": default_branch,
                    "options": {
                        "type": "object",
                        "description": "Options.",
                        "properties": {"default": {"type": "boolean", "description": "Make it the default."}},
                        "additionalProperties": false,
                        "examples": [{"default": true}]
                    }
                },
                "additionalProperties": false
            },
            "annotations": {"title": "Configure", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
            "_meta": {"com.example/ui": {"default": "compact"}}
        })
    }

    /// A parameter named `default`, an example or a `_meta` entry with a `default` key is
    /// not the JSON Schema `default` keyword.
    #[test]
    fn a_property_or_value_named_default_is_not_the_default_keyword() {
        let wire = wire(
            json!({"type": "string", "description": "The default branch.", "examples": ["main"]}),
        );
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        assert_eq!(tool_problems(&FIXTURE, &tool, &wire), Vec::<String>::new());
    }

    /// Examples beside a `$ref` into the schema's `$defs` (`shared_types: defs`), and in the
    /// `$defs` themselves, are checked against the schemas referred to.
    #[test]
    fn examples_are_checked_through_refs_into_defs() {
        let mut wire = wire(json!({"type": "string", "description": "The default branch."}));
        let options = wire["inputSchema"]["properties"]["options"].take();
        wire["inputSchema"]["properties"]["options"] = json!({"$ref": "#/$defs/Options", "description": "Options.", "examples": [{"default": true}]});
        wire["inputSchema"]["$defs"] = json!({"Options": options});
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        assert_eq!(tool_problems(&FIXTURE, &tool, &wire), Vec::<String>::new());
        wire["inputSchema"]["properties"]["options"]["examples"] = json!([{"default": 1}]);
        wire["inputSchema"]["$defs"]["Options"]["examples"] = json!([{"other": true}]);
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        assert_eq!(
            tool_problems(&FIXTURE, &tool, &wire),
            [
                "the example {\"default\":1} at /options does not match its schema",
                "the example {\"other\":true} at /$defs/Options does not match its schema",
            ]
        );
    }

    /// A tagged union's variants carry their own examples, checked against their variant.
    #[test]
    fn a_union_variant_s_examples_are_checked_against_it() {
        let variant = |tag: &str, example: Value| {
            json!({"type": "object", "properties": {
                "kind": {"type": "string", "const": tag},
                "n": {"type": "integer"},
            }, "required": ["kind", "n"], "additionalProperties": false, "examples": [example]})
        };
        let mut wire = wire(json!({"type": "string", "description": "The default branch."}));
        wire["inputSchema"]["properties"]["options"] = json!({"type": "object", "oneOf": [
            variant("a", json!({"kind": "a", "n": 1})),
            variant("b", json!({"kind": "a", "n": 2})),
        ], "description": "Options."});
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        assert_eq!(
            tool_problems(&FIXTURE, &tool, &wire),
            ["the example {\"kind\":\"a\",\"n\":2} at /options/oneOf/1 does not match its schema"]
        );
    }

    /// An emitted schema the 2020-12 meta-schema refuses is reported, on either side,
    /// instead of passing unseen (an output schema) or panicking in the example checks.
    #[test]
    fn a_schema_the_meta_schema_refuses_is_reported() {
        let mut wire = wire(
            json!({"type": "string", "description": "The default branch.", "minLength": -1, "examples": ["main"]}),
        );
        wire["outputSchema"] =
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": "3"}}});
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        let fixture = ToolFixture {
            structured_output: true,
            ..FIXTURE
        };
        assert_eq!(
            tool_problems(&fixture, &tool, &wire),
            vec![
                "inputSchema is not a valid JSON Schema 2020-12 schema: -1 is less than the minimum of 0 at /properties/default/minLength".to_owned(),
                "outputSchema is not a valid JSON Schema 2020-12 schema: \"3\" is not of type \"number\" at /properties/n/maximum".to_owned(),
            ]
        );
    }

    #[test]
    fn the_default_keyword_is_still_found() {
        let wire = wire(
            json!({"type": "string", "description": "The default branch.", "default": "main"}),
        );
        let tool: Tool = serde_json::from_value(wire.clone()).expect("a tool");
        assert_eq!(
            tool_problems(&FIXTURE, &tool, &wire),
            vec![
                "a `default` keyword is published at /inputSchema/properties/default/default"
                    .to_owned()
            ]
        );
    }
}
