//! The contract as served: parsed and compiled once per process.

use std::collections::HashMap;
use std::sync::OnceLock;

use mcp_contract_spec::uri_template::UriTemplate;
use mcp_contract_spec::{MCP_HEADER, Revision, SERVER_INFO_META};
use rmcp::ErrorData;
use rmcp::model::{
    CacheScope, ErrorCode, Implementation, MetaObject, Resource, ResourceTemplate,
    ResourcesCapability, ServerCapabilities, ServerConfig, Tool,
};

use crate::access::Gate;
use crate::check::Checker;
use crate::contract::{AliasesSpec, CompletionSpec, ContractSpec, PromptSpec, ResourceSpec};
use crate::icon::icons;

/// The contract ready to serve: names indexed; the tools parsed on the first list or call
/// (not for `initialize`), each tool's checks compiled on its first call.
pub struct Published {
    /// Where it came from.
    pub spec: &'static ContractSpec,
    /// The tools, in manifest order, parsed when first needed ([`Published::tools`]).
    tools: OnceLock<Vec<Tool>>,
    /// The tools with their `x-mcp-header`s stripped, as a client of a revision without MCP
    /// headers receives them; `None` when no tool has one, so that they are `tools` themselves.
    tools_without_headers: OnceLock<Option<Vec<Tool>>>,
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
    /// The tools' names, by index.
    names: Box<[&'static str]>,
    /// The former names still answered.
    pub(crate) aliases: &'static AliasesSpec,
    /// Each tool alias as `Server::list_aliases` lists it, with its tool's index; made on
    /// first use.
    alias_tools: OnceLock<Vec<(usize, Tool)>>,
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
            .map(|tool| {
                serde_json::from_str::<NameOnly>(tool.json)
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
            tools_without_headers: OnceLock::new(),
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
            names: names.into_boxed_slice(),
            aliases: &AliasesSpec::NONE,
            alias_tools: OnceLock::new(),
            templates,
        }
    }

    /// The same contract answering the former names `aliases` holds as their entries.
    pub fn with_aliases(mut self, aliases: &'static AliasesSpec) -> Self {
        self.aliases = aliases;
        self
    }

    /// The name of tool `i`: its own, whichever name it was called by.
    pub(crate) fn tool_name(&self, i: usize) -> &'static str {
        self.names[i]
    }

    /// The index of the prompt called `name`, or formerly called so.
    pub(crate) fn find_prompt(&self, name: &str) -> Option<usize> {
        (self.spec.prompts.iter().position(|p| p.name == name)).or_else(|| {
            (self.aliases.prompts.iter())
                .find(|(alias, _)| *alias == name)
                .map(|&(_, i)| i)
        })
    }

    /// Each tool alias, with its tool's index, listed as a copy of its tool under the former
    /// name: its description says it is a deprecated alias, and its `_meta` lifecycle
    /// `{"state": "alias", "aliasOf": TOOL}`.
    pub(crate) fn alias_tools(&self) -> &[(usize, Tool)] {
        self.alias_tools.get_or_init(|| {
            (self.aliases.tools.iter())
                .filter_map(|&(alias, i)| {
                    let mut tool = self.tools().get(i)?.clone();
                    let target = self.names[i];
                    tool.name = alias.into();
                    tool.title = Some(format!(
                        "{} (former name)",
                        tool.title.as_deref().unwrap_or(target)
                    ));
                    if let Some(annotations) = tool.annotations.as_mut() {
                        annotations.title = tool.title.clone();
                    }
                    tool.description = Some(
                        format!(
                            "Deprecated alias of `{target}`: call `{target}` instead. {}",
                            tool.description.as_deref().unwrap_or_default()
                        )
                        .trim_end()
                        .to_owned()
                        .into(),
                    );
                    tool.meta.get_or_insert_default().insert(
                        mcp_contract_spec::LIFECYCLE_META_KEY.to_owned(),
                        serde_json::json!({"state": "alias", "aliasOf": target}),
                    );
                    Some((i, tool))
                })
                .collect()
        })
    }

    /// The groups tool `i` is in, by index.
    pub(crate) fn groups_of(&self, i: usize) -> &[usize] {
        &self.tool_groups[i]
    }

    /// The index of the tool called `name`, or formerly called so.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied().or_else(|| {
            (self.aliases.tools.iter())
                .find(|(alias, _)| *alias == name)
                .map(|&(_, i)| i)
        })
    }

    /// The tools, in manifest order, as 2026-07-28 publishes them; parsed on first use.
    ///
    /// # Panics
    ///
    /// When a tool's JSON is not a valid `Tool` (only a hand-built spec's can be).
    pub fn tools(&self) -> &[Tool] {
        self.tools.get_or_init(|| {
            (self.spec.tools.iter().enumerate())
                .map(|(i, tool)| {
                    serde_json::from_str(tool.json).unwrap_or_else(|e| {
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

    /// The tools with their `x-mcp-header`s stripped, as a client of a revision without MCP
    /// headers (2025-11-25) receives them; made on first use.
    pub(crate) fn tools_without_headers(&self) -> &[Tool] {
        self.tools_without_headers
            .get_or_init(|| {
                // The published JSON names every header, so a contract without one keeps a
                // single list (the word elsewhere, in a description, only costs the copy).
                let headers = (self.spec.tools.iter()).any(|t| t.json.contains(MCP_HEADER));
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

    /// The index of the resource `uri` names, with its template's values, unescaped, in
    /// template order. Fixed URIs match exactly and come first: a fixed resource wins over a
    /// template that also matches.
    pub(crate) fn resource(&self, uri: &str) -> Option<(usize, Vec<String>)> {
        let fixed = self
            .spec
            .resources
            .iter()
            .position(|r| !r.template && r.uri == uri);
        let fixed = fixed.or_else(|| {
            (self.aliases.resources.iter())
                .find(|(alias, _)| *alias == uri)
                .map(|&(alias, i)| {
                    tracing::info!(
                        alias,
                        resource = self.spec.resources[i].name,
                        "a resource was read by a former URI"
                    );
                    i
                })
        });
        fixed.map(|i| (i, Vec::new())).or_else(|| {
            self.templates
                .iter()
                .find_map(|(i, t)| t.matches(uri).map(|values| (*i, values)))
        })
    }
}

pub use mcp_contract_spec::CHANGING_LIST_TTL_MS;

impl Published {
    /// The manifest's cache hint as served ([`CacheHint::served`](mcp_contract_spec::CacheHint::served)):
    /// for lists that can change, no longer than [`CHANGING_LIST_TTL_MS`], so that a client
    /// that does not listen still sees a change.
    pub(crate) fn cache_hint(&self) -> Option<(u64, CacheScope)> {
        let spec = self.spec;
        spec.cache.map(|c| {
            let served = c.served(spec.list_changed);
            let scope = if served.public {
                CacheScope::Public
            } else {
                CacheScope::Private
            };
            (served.ttl_ms, scope)
        })
    }

    /// Names the server in a result's `_meta` for a client of `revision`, when that
    /// revision's results carry it.
    pub(crate) fn identify(&self, revision: Revision, meta: &mut Option<MetaObject>) {
        if revision.has_server_info_meta()
            && let Ok(identity) = serde_json::to_value(&self.info.server_info)
        {
            meta.get_or_insert_default()
                .insert(SERVER_INFO_META.to_owned(), identity);
        }
    }

    /// `-32601` for a prompt or completion method of a server that does not advertise the
    /// capability (as rmcp answers them, and clients probe for it), `Ok` otherwise.
    pub(crate) fn advertised(&self, method: &str) -> Result<(), ErrorData> {
        let capabilities = &self.info.capabilities;
        let advertised = match method {
            "prompts/list" | "prompts/get" => capabilities.prompts.is_some(),
            "completion/complete" => capabilities.completions.is_some(),
            _ => true,
        };
        if advertised {
            Ok(())
        } else {
            Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                method.to_owned(),
                None,
            ))
        }
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
    // MCP Apps: advertised, with no settings, only by a server that has an app. Both
    // revisions carry it in `capabilities.extensions`: 2026-07-28 defines the map, and
    // 2025-11-25 takes a capability of the server's own there, where the extension puts it.
    if spec.resources.iter().any(|r| r.app.is_some()) {
        capabilities.extensions = Some(
            [(
                mcp_contract_spec::apps::EXTENSION.to_owned(),
                Default::default(),
            )]
            .into(),
        );
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
pub(crate) fn without_headers(tool: &Tool) -> Tool {
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
        scopes: &[],
        meta: None,
        app: None,
    };

    static ONE_FIXED: ContractSpec = ContractSpec {
        name: "r",
        version: "0.1.0",
        resources: &[FIXED],
        ..ContractSpec::EMPTY
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
                arguments: &[crate::contract::PromptArgumentSpec {
                    name: "a",
                    description: "d",
                    required: false,
                    completion: CompletionSpec::None,
                }],
                icons: &[],
                scopes: &[],
                meta: None,
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
    fn the_apps_extension_is_advertised_only_by_a_server_with_an_app() {
        static APP: crate::contract::AppSpec = crate::contract::AppSpec {
            html: "<!DOCTYPE html>",
            meta: r#"{"prefersBorder":true}"#,
        };
        static WITH_APP: ContractSpec = ContractSpec {
            resources: &[ResourceSpec {
                uri: "ui://r/board?v=0123456789abcdef",
                mime_type: "text/html;profile=mcp-app",
                app: Some(&APP),
                ..FIXED
            }],
            ..ONE_FIXED
        };
        let extensions = |spec| {
            serde_json::to_value(Published::new(spec).info.capabilities)
                .expect("JSON")
                .get("extensions")
                .cloned()
        };
        assert_eq!(extensions(&ONE_FIXED), None);
        assert_eq!(
            extensions(&WITH_APP),
            Some(serde_json::json!({"io.modelcontextprotocol/ui": {}}))
        );
        // The listed entry and the read contents carry one `_meta.ui`.
        let published = Published::new(&WITH_APP);
        let listed = serde_json::to_value(&published.resources[0]).expect("JSON");
        let read = WITH_APP.resources[0]
            .app_contents("ui://r/board?v=0123456789abcdef")
            .map(|c| serde_json::to_value(c).expect("JSON"));
        let meta = serde_json::json!({"ui": {"prefersBorder": true}});
        assert_eq!(listed["_meta"], meta);
        assert_eq!(read.as_ref().map(|r| &r["_meta"]), Some(&meta));
        assert_eq!(
            read.as_ref().map(|r| &r["text"]),
            Some(&"<!DOCTYPE html>".into())
        );
        assert_eq!(FIXED.app_contents("workspace:///README.md"), None);
    }

    #[test]
    fn the_tools_are_read_when_first_needed_not_when_published() {
        static TWO: ContractSpec = ContractSpec {
            tools: &[
                crate::contract::ToolSpec::open(r#"{"name":"a","inputSchema":{"type":"object"}}"#),
                crate::contract::ToolSpec::open(r#"{"name":"b","inputSchema":{"type":"object"}}"#),
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
            tools: &[crate::contract::ToolSpec::open(
                r#"{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}"#,
            )],
            ..ONE_FIXED
        };
        static HEADED: ContractSpec = ContractSpec {
            tools: &[
                crate::contract::ToolSpec::open(
                    r#"{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}"#,
                ),
                crate::contract::ToolSpec::open(
                    r#"{"name":"b","inputSchema":{"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"}}}}"#,
                ),
            ],
            ..ONE_FIXED
        };
        let plain = Published::new(&PLAIN);
        assert!(std::ptr::eq(plain.tools_without_headers(), plain.tools()));
        let headed = Published::new(&HEADED);
        let header = |tool: &Tool| {
            tool.input_schema["properties"]["x"]
                .get("x-mcp-header")
                .cloned()
        };
        assert_eq!(header(&headed.tools()[1]), Some("X".into()));
        assert_eq!(header(&headed.tools_without_headers()[1]), None);
        assert_eq!(headed.tools_without_headers()[0], headed.tools()[0]);
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
    fn a_former_uri_reads_its_resource_before_any_template() {
        static ALIASES: AliasesSpec = AliasesSpec {
            resources: &[("workspace:///READ-ME", 1)],
            ..AliasesSpec::NONE
        };
        let published = Published::new(&BOTH).with_aliases(&ALIASES);
        assert_eq!(
            published.resource("workspace:///READ-ME"),
            Some((1, vec![]))
        );
        // Without the alias, the template would have taken it.
        assert_eq!(
            Published::new(&BOTH).resource("workspace:///READ-ME"),
            Some((0, vec!["READ-ME".to_owned()]))
        );
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
