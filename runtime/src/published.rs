//! The contract as served: parsed and compiled once per process.

use std::collections::HashMap;

use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool};

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
    /// Each tool's `Tool` object as JSON, in manifest order.
    pub tools: &'static [&'static str],
    /// The tool groups, in manifest order; empty when the manifest declares none.
    pub groups: &'static [GroupSpec],
}

/// The contract ready to serve: tools parsed, input validators compiled, names indexed.
pub struct Published {
    /// Where it came from.
    pub spec: &'static ContractSpec,
    /// The tools, in manifest order.
    pub tools: Vec<Tool>,
    /// `initialize` and `server/discover` information.
    pub info: ServerConfig,
    validators: Vec<jsonschema::Validator>,
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
    /// input schema that does not compile). The generator checks both at build time, so
    /// this marks a bug in the generator, surfaced at start-up rather than at a call.
    pub fn new(spec: &'static ContractSpec) -> Self {
        let mut tools = Vec::with_capacity(spec.tools.len());
        let mut validators = Vec::with_capacity(spec.tools.len());
        let mut index = HashMap::with_capacity(spec.tools.len());
        for (i, json) in spec.tools.iter().enumerate() {
            let tool: Tool = serde_json::from_str(json).unwrap_or_else(|e| {
                panic!("mcp-contract: generated tool #{i} is not a valid Tool: {e}")
            });
            let schema = serde_json::Value::Object((*tool.input_schema).clone());
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .unwrap_or_else(|e| {
                    panic!(
                        "mcp-contract: the input schema of `{}` does not compile: {e}",
                        tool.name
                    )
                });
            let name: &'static str = serde_json::from_str::<NameOnly>(json)
                .map(|n| n.name)
                .unwrap_or_default();
            index.insert(name, i);
            tools.push(tool);
            validators.push(validator);
        }
        let mut server = Implementation::new(spec.name, spec.version);
        if let Some(title) = spec.title {
            server = server.with_title(title);
        }
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server);
        if let Some(instructions) = spec.instructions {
            info = info.with_instructions(instructions);
        }
        Published {
            spec,
            tools,
            info,
            validators,
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
}

/// Borrows the name out of the static JSON so the index holds no copies.
#[derive(serde::Deserialize)]
struct NameOnly {
    name: &'static str,
}
