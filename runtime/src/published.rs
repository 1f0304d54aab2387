//! The contract as served: parsed and compiled once per process.

use std::collections::HashMap;
use std::sync::OnceLock;

use mcp_contract_spec::error_codes::ArgumentCodes;
use mcp_contract_spec::uri_template::UriTemplate;
use mcp_contract_spec::{CacheHint, MCP_HEADER};
use rmcp::model::{
    Implementation, Resource, ResourceTemplate, ResourcesCapability, ServerCapabilities,
    ServerConfig, Tool,
};

use crate::access::{AccessSpec, Gate, Principal};
use crate::check::Checker;
use crate::icon::{IconSpec, icons};
use crate::lists::Lists;
use crate::prompt::{CompletionSpec, PromptSpec};
use crate::resource::ResourceSpec;

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
    /// `serverInfo.icons`.
    pub icons: &'static [IconSpec],
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
    /// The key path of the artifact contracts in a tool's `_meta` (see
    /// [`crate::client::metadata`]): one `_meta` key, or that key and the nested keys below it.
    pub artifacts_key: &'static [&'static str],
    /// The key path of the composition contracts.
    pub composition_key: &'static [&'static str],
    /// The tool groups, in manifest order; empty when the manifest declares none.
    pub groups: &'static [GroupSpec],
    /// The codes of the argument envelope.
    pub argument_codes: ArgumentCodes,
    /// Whether the server logs to clients (`notifications/message`, the `logging` capability).
    pub logging: bool,
    /// Whether the lists may change at run time ([`crate::Lists`]): `listChanged` on the
    /// tools, prompts and resources capabilities, and short cache hints.
    pub list_changed: bool,
    /// The prompts, in manifest order.
    pub prompts: &'static [PromptSpec],
    /// Who may see and call what: the `auth:` block and every entry's scopes.
    pub access: AccessSpec,
}

/// The contract ready to serve: names indexed; the tools parsed on the first list or call
/// (not for `initialize`), each tool's checks compiled on its first call.
pub struct Published {
    /// Where it came from.
    pub spec: &'static ContractSpec,
    /// The tools, in manifest order, parsed when first needed ([`Published::tools`]).
    tools: OnceLock<Vec<Tool>>,
    /// The tools as a 2025-11-25 client receives them: without `x-mcp-header`; `None` when
    /// no tool has one, so that they are `tools` themselves.
    legacy_tools: OnceLock<Option<Vec<Tool>>>,
    /// The `resources/list` answer: the fixed resources.
    pub(crate) resources: Vec<Resource>,
    /// The `resources/templates/list` answer: the templates.
    pub(crate) resource_templates: Vec<ResourceTemplate>,
    /// The `prompts/list` answer.
    pub(crate) prompts: Vec<rmcp::model::Prompt>,
    /// What each caller may see and call.
    pub(crate) gate: Gate,
    /// `tool_groups[i]`: the groups tool `i` is in, by index.
    tool_groups: Box<[Box<[usize]>]>,
    /// `initialize` and `server/discover` information.
    pub(crate) info: ServerConfig,
    /// `checks[i]`: tool `i`'s input and output checks, compiled when first needed, or why
    /// they do not compile.
    checks: Box<[OnceLock<Result<Checks, String>>]>,
    index: HashMap<&'static str, usize>,
    /// Each template resource's index with its template, parsed once.
    templates: Vec<(usize, UriTemplate)>,
}

impl std::fmt::Debug for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Published")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl Published {
    /// Parses a generated contract.
    ///
    /// # Panics
    ///
    /// When the spec is not what the generator emits (a resource template outside the grammar;
    /// a tool that is not valid JSON panics where the tools are first read, [`Published::tools`]).
    /// The generator checks both at build time, so this marks a bug in the generator. An input
    /// or output schema the checks cannot compile (a hand-built spec's) does not panic: each
    /// call of that tool is refused (`-32603`).
    pub fn new(spec: &'static ContractSpec) -> Self {
        let names: Vec<&'static str> = (spec.tools.iter())
            .map(|json| {
                serde_json::from_str::<NameOnly>(json)
                    .map(|n| n.name)
                    .unwrap_or_default()
            })
            .collect();
        let index = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let mut server = Implementation::new(spec.name, spec.version);
        if let Some(title) = spec.title {
            server = server.with_title(title);
        }
        if let Some(icons) = icons(spec.icons) {
            server = server.with_icons(icons);
        }
        let capabilities = capabilities(spec);
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        if let Some(instructions) = spec.instructions {
            info = info.with_instructions(instructions);
        }
        let templates = spec
            .resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.template)
            .map(|(i, r)| {
                let template = UriTemplate::parse(r.uri).unwrap_or_else(|e| {
                    panic!(
                        "mcp-contract: the generated template `{}` does not parse: {e}",
                        r.uri
                    )
                });
                (i, template)
            })
            .collect();
        Published {
            spec,
            gate: Gate::new(spec),
            tool_groups: names
                .iter()
                .map(|name| {
                    (spec.groups.iter().enumerate())
                        .filter(|(_, g)| g.tools.contains(name))
                        .map(|(g, _)| g)
                        .collect()
                })
                .collect(),
            checks: names.iter().map(|_| OnceLock::new()).collect(),
            tools: OnceLock::new(),
            legacy_tools: OnceLock::new(),
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
            prompts: spec.prompts.iter().map(PromptSpec::listed).collect(),
            info,
            index,
            templates,
        }
    }

    /// The groups tool `i` is in, by index.
    pub(crate) fn groups_of(&self, i: usize) -> &[usize] {
        &self.tool_groups[i]
    }

    /// Whether `caller` may see and call tool `i` (see [`Gate::tool`]).
    pub(crate) fn may_call(&self, i: usize, caller: Option<&Principal>) -> bool {
        self.gate.tool(i, self.groups_of(i), caller)
    }

    /// The index of the tool called `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The tools, in manifest order, as 2026-07-28 publishes them; parsed on first use.
    ///
    /// # Panics
    ///
    /// When a tool's JSON is not a valid `Tool` (only a hand-built spec's can be).
    pub fn tools(&self) -> &[Tool] {
        self.tools.get_or_init(|| {
            (self.spec.tools.iter().enumerate())
                .map(|(i, json)| {
                    serde_json::from_str(json).unwrap_or_else(|e| {
                        panic!("mcp-contract: generated tool #{i} is not a valid Tool: {e}")
                    })
                })
                .collect()
        })
    }

    /// The number of tools, without reading them.
    pub(crate) fn tool_count(&self) -> usize {
        self.spec.tools.len()
    }

    /// The tools as a 2025-11-25 client receives them (without `x-mcp-header`), made on
    /// first use.
    pub(crate) fn legacy_tools(&self) -> &[Tool] {
        self.legacy_tools
            .get_or_init(|| {
                // The published JSON names every header, so a contract without one keeps a
                // single list (the word elsewhere, in a description, only costs the copy).
                let headers = (self.spec.tools.iter()).any(|t| t.contains(MCP_HEADER));
                headers.then(|| self.tools().iter().map(without_headers).collect())
            })
            .as_deref()
            .unwrap_or(self.tools())
    }

    /// Tool `i`'s input and output checks, compiled on first use; when a schema is outside
    /// the subset the checker compiles, the reason (the same on every call).
    pub(crate) fn checks(&self, i: usize) -> Result<&Checks, &str> {
        self.checks[i]
            .get_or_init(|| {
                let tool = &self.tools()[i];
                let input = compile(tool, "input", &tool.input_schema)?;
                Ok(Checks {
                    hint: crate::arguments::hint(&tool.name, &input),
                    input,
                    output: match &tool.output_schema {
                        Some(output) => Some(compile(tool, "output", output)?),
                        None => None,
                    },
                })
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The `resources/list` answer for `caller`: the fixed resources served (`lists`) that it
    /// may read.
    pub(crate) fn listed_resources(
        &self,
        caller: Option<&Principal>,
        lists: &Lists,
    ) -> Vec<Resource> {
        self.readable(false, caller, lists)
            .zip(&self.resources)
            .filter(|(readable, _)| *readable)
            .map(|(_, r)| r.clone())
            .collect()
    }

    /// The `resources/templates/list` answer for `caller`: the templates it may read.
    pub(crate) fn listed_templates(
        &self,
        caller: Option<&Principal>,
        lists: &Lists,
    ) -> Vec<ResourceTemplate> {
        self.readable(true, caller, lists)
            .zip(&self.resource_templates)
            .filter(|(readable, _)| *readable)
            .map(|(_, r)| r.clone())
            .collect()
    }

    /// Whether `caller` may read each fixed resource (`templates` false) or each template, in
    /// manifest order.
    fn readable(
        &self,
        templates: bool,
        caller: Option<&Principal>,
        lists: &Lists,
    ) -> impl Iterator<Item = bool> {
        let gate = &self.gate;
        (self.spec.resources.iter().enumerate())
            .filter(move |(_, r)| r.template == templates)
            .map(move |(i, _)| gate.resource(i, caller) && lists.resource(i))
    }

    /// The index of the resource `uri` names, with its template's values, unescaped, in
    /// template order. Fixed URIs match exactly and come first: a fixed resource wins over a
    /// template that also matches.
    pub(crate) fn resource(&self, uri: &str) -> Option<(usize, Vec<String>)> {
        let fixed = self
            .spec
            .resources
            .iter()
            .position(|r| !r.template && r.uri == uri);
        fixed.map(|i| (i, Vec::new())).or_else(|| {
            self.templates
                .iter()
                .find_map(|(i, t)| t.matches(uri).map(|values| (*i, values)))
        })
    }
}

/// What the server can do, from what the contract declares: each capability only when
/// something uses it, since a client reads an advertised one as a promise.
fn capabilities(spec: &ContractSpec) -> ServerCapabilities {
    let mut capabilities = ServerCapabilities::builder().enable_tools().build();
    let changes = spec.list_changed.then_some(true);
    if let Some(tools) = &mut capabilities.tools {
        tools.list_changed = changes;
    }
    if !spec.resources.is_empty() {
        let mut resources = ResourcesCapability::default();
        if spec.resources.iter().any(|r| r.subscribe) {
            resources.subscribe = Some(true);
        }
        resources.list_changed = changes;
        capabilities.resources = Some(resources);
    }
    if spec.logging {
        capabilities.logging = Some(rmcp::model::JsonObject::new());
    }
    if !spec.prompts.is_empty() {
        let mut prompts = rmcp::model::PromptsCapability::default();
        prompts.list_changed = changes;
        capabilities.prompts = Some(prompts);
    }
    if completes(spec) {
        capabilities.completions = Some(Default::default());
    }
    capabilities
}

/// Whether any prompt argument or template variable completes.
fn completes(spec: &ContractSpec) -> bool {
    let prompts = spec.prompts.iter().flat_map(|p| p.arguments.iter());
    prompts
        .map(|a| a.completion)
        .any(|c| c != CompletionSpec::None)
        || spec.resources.iter().any(|r| !r.completions.is_empty())
}

/// A tool's compiled checks.
pub(crate) struct Checks {
    /// Of its arguments.
    pub(crate) input: Checker,
    /// Of its structured results, when it publishes an outputSchema.
    pub(crate) output: Option<Checker>,
    /// The hint of a refusal of its arguments ([`crate::arguments::hint`]).
    pub(crate) hint: String,
}

/// The checks of one of `tool`'s schemas (`which` is "input" or "output"), formats included;
/// when the schema is outside the checker's subset, which the generator never publishes, why.
fn compile(tool: &Tool, which: &str, schema: &rmcp::model::JsonObject) -> Result<Checker, String> {
    Checker::compile(&serde_json::Value::Object(schema.clone())).map_err(|e| {
        format!(
            "the {which} schema of `{}` does not compile for the argument and result checks: {e}",
            tool.name
        )
    })
}

/// A tool as a revision without `x-mcp-header` receives it.
fn without_headers(tool: &Tool) -> Tool {
    let mut tool = tool.clone();
    mcp_contract_spec::strip_mcp_headers(std::sync::Arc::make_mut(&mut tool.input_schema));
    tool
}

/// Borrows the name out of the static JSON so the index holds no copies.
#[derive(serde::Deserialize)]
struct NameOnly {
    name: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXED: ResourceSpec = ResourceSpec {
        name: "readme",
        title: "README",
        description: "d",
        mime_type: "text/plain",
        uri: "workspace:///README.md",
        template: false,
        subscribe: false,
        completions: &[],
        icons: &[],
    };

    static ONE_FIXED: ContractSpec = ContractSpec {
        name: "r",
        title: None,
        icons: &[],
        version: "0.1.0",
        instructions: None,
        cache: None,
        tools: &[],
        resources: &[FIXED],
        artifacts_key: &["com.example/artifacts"],
        composition_key: &["com.example/composition"],
        groups: &[],
        argument_codes: ArgumentCodes::DEFAULT,
        logging: false,
        list_changed: false,
        prompts: &[],
        access: crate::AccessSpec::OPEN,
    };

    static BOTH: ContractSpec = ContractSpec {
        resources: &[
            ResourceSpec {
                name: "file",
                uri: "workspace:///{name}",
                template: true,
                subscribe: false,
                ..FIXED
            },
            FIXED,
        ],
        ..ONE_FIXED
    };

    #[test]
    fn prompts_and_completions_are_advertised_only_when_declared() {
        static PROMPTED: ContractSpec = ContractSpec {
            prompts: &[PromptSpec {
                name: "p",
                title: "P",
                description: "d",
                arguments: &[crate::prompt::PromptArgumentSpec {
                    name: "a",
                    description: "d",
                    required: false,
                    completion: CompletionSpec::None,
                }],
                icons: &[],
            }],
            ..ONE_FIXED
        };
        static COMPLETED: ContractSpec = ContractSpec {
            resources: &[ResourceSpec {
                uri: "workspace:///{name}",
                template: true,
                completions: &[("name", CompletionSpec::Values(&["a"]))],
                ..FIXED
            }],
            ..ONE_FIXED
        };
        let capabilities = |spec| Published::new(spec).info.capabilities;
        let none = capabilities(&ONE_FIXED);
        assert!(none.prompts.is_none() && none.completions.is_none());
        let prompted = capabilities(&PROMPTED);
        assert!(prompted.prompts.is_some() && prompted.completions.is_none());
        let completed = capabilities(&COMPLETED);
        assert!(completed.prompts.is_none() && completed.completions.is_some());
    }

    #[test]
    fn the_tools_are_read_when_first_needed_not_when_published() {
        static TWO: ContractSpec = ContractSpec {
            tools: &[
                r#"{"name":"a","inputSchema":{"type":"object"}}"#,
                r#"{"name":"b","inputSchema":{"type":"object"}}"#,
            ],
            ..ONE_FIXED
        };
        let published = Published::new(&TWO);
        assert_eq!((published.find("b"), published.tool_count()), (Some(1), 2));
        assert!(
            published.tools.get().is_none(),
            "parsed before any list or call"
        );
        assert_eq!(published.tools()[1].name, "b");
    }

    #[test]
    fn a_contract_without_headers_keeps_one_tool_list_for_both_revisions() {
        static PLAIN: ContractSpec = ContractSpec {
            tools: &[
                r#"{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}"#,
            ],
            ..ONE_FIXED
        };
        static HEADED: ContractSpec = ContractSpec {
            tools: &[
                r#"{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}"#,
                r#"{"name":"b","inputSchema":{"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"}}}}"#,
            ],
            ..ONE_FIXED
        };
        let plain = Published::new(&PLAIN);
        assert!(std::ptr::eq(plain.legacy_tools(), plain.tools()));
        let headed = Published::new(&HEADED);
        let header = |tool: &Tool| {
            tool.input_schema["properties"]["x"]
                .get("x-mcp-header")
                .cloned()
        };
        assert_eq!(header(&headed.tools()[1]), Some("X".into()));
        assert_eq!(header(&headed.legacy_tools()[1]), None);
        assert_eq!(headed.legacy_tools()[0], headed.tools()[0]);
    }

    #[test]
    fn fixed_resources_match_exactly() {
        let published = Published::new(&ONE_FIXED);
        assert_eq!(
            published.resource("workspace:///README.md"),
            Some((0, vec![]))
        );
        assert_eq!(published.resource("workspace:///README.mdx"), None);
        assert_eq!(published.resource("workspace:///readme.md"), None);
    }

    #[test]
    fn a_fixed_resource_wins_over_a_template_that_also_matches() {
        let published = Published::new(&BOTH);
        assert_eq!(
            published.resource("workspace:///README.md"),
            Some((1, vec![]))
        );
        assert_eq!(
            published.resource("workspace:///notes.txt"),
            Some((0, vec!["notes.txt".to_owned()]))
        );
    }
}
