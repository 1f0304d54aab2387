//! The contract as served: parsed and compiled once per process.

use std::collections::HashMap;

use rmcp::model::{
    Implementation, Resource, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};

use crate::resource::ResourceSpec;

/// The `tools/list` cache hint of protocol revision 2026-07-28.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHint {
    /// `ttlMs`.
    pub ttl_ms: u64,
    /// `cacheScope: "public"` when true, `"private"` otherwise.
    pub public: bool,
}

/// A named group of tools: a subset of the contract served on its own, as
/// [`Server::group`](crate::Server::group) and the HTTP host's `/mcp/{group}` routes do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupSpec {
    /// The group's name; on HTTP, the last segment of its route.
    pub name: &'static str,
    /// What the group is for.
    pub description: &'static str,
    /// The names of its tools.
    pub tools: &'static [&'static str],
}

/// The contract as generated: server identity and the exact wire JSON of every tool.
#[derive(Debug)]
pub struct ContractSpec {
    /// `serverInfo.name`.
    pub name: &'static str,
    /// `serverInfo.title`.
    pub title: Option<&'static str>,
    /// `serverInfo.version`.
    pub version: &'static str,
    /// Instructions for the model.
    pub instructions: Option<&'static str>,
    /// The `tools/list` cache hint.
    pub cache: Option<CacheHint>,
    /// Each tool's `Tool` object as JSON, in manifest order, as 2026-07-28 publishes it.
    pub tools: &'static [&'static str],
    /// The resources, fixed ones and templates, in manifest order.
    pub resources: &'static [ResourceSpec],
    /// The `_meta` key of the artifact contracts (see [`crate::metadata`]).
    pub artifacts_key: &'static str,
    /// The `_meta` key of the composition contracts.
    pub composition_key: &'static str,
    /// The tool groups, in manifest order; empty when the manifest declares none.
    pub groups: &'static [GroupSpec],
}

/// The contract ready to serve: tools parsed, input validators compiled, names indexed.
pub struct Published {
    /// Where it came from.
    pub spec: &'static ContractSpec,
    /// The tools, in manifest order.
    pub tools: Vec<Tool>,
    /// The tools as a 2025-11-25 client receives them: without `x-mcp-header`.
    pub legacy_tools: Vec<Tool>,
    /// The `resources/list` answer: the fixed resources.
    pub resources: Vec<Resource>,
    /// The `resources/templates/list` answer: the templates.
    pub resource_templates: Vec<ResourceTemplate>,
    /// `initialize` and `server/discover` information.
    pub info: ServerConfig,
    validators: Vec<jsonschema::Validator>,
    output_validators: Vec<Option<jsonschema::Validator>>,
    index: HashMap<&'static str, usize>,
}

impl std::fmt::Debug for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Published")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl Published {
    /// Parses and compiles a generated contract.
    ///
    /// # Panics
    ///
    /// When the spec is not what the generator emits (a tool that is not valid JSON, or an
    /// input or output schema that does not compile). The generator checks both at build time, so
    /// this marks a bug in the generator, surfaced at start-up rather than at a call.
    pub fn new(spec: &'static ContractSpec) -> Self {
        let mut tools = Vec::with_capacity(spec.tools.len());
        let mut validators = Vec::with_capacity(spec.tools.len());
        let mut output_validators = Vec::with_capacity(spec.tools.len());
        let mut index = HashMap::with_capacity(spec.tools.len());
        for (i, json) in spec.tools.iter().enumerate() {
            let tool: Tool = serde_json::from_str(json).unwrap_or_else(|e| {
                panic!("mcp-contract: generated tool #{i} is not a valid Tool: {e}")
            });
            let validator = compile(&tool, "input", &tool.input_schema);
            let output_validator = tool
                .output_schema
                .as_ref()
                .map(|output| compile(&tool, "output", output));
            let name: &'static str = serde_json::from_str::<NameOnly>(json)
                .map(|n| n.name)
                .unwrap_or_default();
            index.insert(name, i);
            tools.push(tool);
            validators.push(validator);
            output_validators.push(output_validator);
        }
        let mut server = Implementation::new(spec.name, spec.version);
        if let Some(title) = spec.title {
            server = server.with_title(title);
        }
        let capabilities = if spec.resources.is_empty() {
            ServerCapabilities::builder().enable_tools().build()
        } else {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build()
        };
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        if let Some(instructions) = spec.instructions {
            info = info.with_instructions(instructions);
        }
        let legacy_tools = tools.iter().map(without_headers).collect();
        Published {
            spec,
            tools,
            legacy_tools,
            resources: spec
                .resources
                .iter()
                .filter_map(ResourceSpec::listed)
                .collect(),
            resource_templates: spec
                .resources
                .iter()
                .filter_map(ResourceSpec::listed_template)
                .collect(),
            info,
            validators,
            output_validators,
            index,
        }
    }

    /// The index of the tool called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The compiled input schema of tool `i`.
    pub fn validator(&self, i: usize) -> &jsonschema::Validator {
        &self.validators[i]
    }

    /// The compiled output schema of tool `i`, for a tool that publishes one.
    pub fn output_validator(&self, i: usize) -> Option<&jsonschema::Validator> {
        self.output_validators[i].as_ref()
    }
}

/// The validator of one of `tool`'s schemas (`which` is "input" or "output"), formats checked.
fn compile(tool: &Tool, which: &str, schema: &rmcp::model::JsonObject) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&serde_json::Value::Object(schema.clone()))
        .unwrap_or_else(|e| {
            panic!(
                "mcp-contract: the {which} schema of `{}` does not compile: {e}",
                tool.name
            )
        })
}

/// A tool without the `x-mcp-header` annotations, which only 2026-07-28 defines; they sit on
/// properties reached through `properties` alone.
fn without_headers(tool: &Tool) -> Tool {
    fn strip(schema: &mut serde_json::Map<String, serde_json::Value>) {
        if let Some(serde_json::Value::Object(props)) = schema.get_mut("properties") {
            for p in props.values_mut() {
                if let serde_json::Value::Object(p) = p {
                    p.remove("x-mcp-header");
                    strip(p);
                }
            }
        }
    }
    let mut tool = tool.clone();
    let mut input = (*tool.input_schema).clone();
    strip(&mut input);
    tool.input_schema = std::sync::Arc::new(input);
    tool
}

/// Borrows the name out of the static JSON so the index holds no copies.
#[derive(serde::Deserialize)]
struct NameOnly {
    name: &'static str,
}
