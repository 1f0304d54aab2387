//! The contract as the generator writes it: static data, one `static` per contract, that the
//! runtime reads and never changes. Everything here is plain data (names, wire JSON, scopes,
//! completions); what the runtime builds from it lives above: the served contract
//! ([`Published`](crate::published::Published)), the access gate, the wire entries of each list.
//!
//! A leaf: it imports nothing of this crate, so every module may point down to it.

use mcp_contract_spec::CacheHint;
use mcp_contract_spec::error_codes::ArgumentCodes;
use rmcp::model::{Icon, IconTheme};

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
    /// The scopes the group requires, of its tools and of its route; empty for none.
    pub scopes: &'static [&'static str],
}

/// A tool as generated: its wire JSON and the scopes a call requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolSpec {
    /// The `Tool` object as JSON, as 2026-07-28 publishes it.
    pub json: &'static str,
    /// The scopes a call requires itself (its groups may add theirs); empty for none.
    pub scopes: &'static [&'static str],
    /// The codes of the errors it declares, in manifest order: each has its series in the
    /// metrics from start-up (feature `telemetry`).
    pub errors: &'static [&'static str],
    /// The parameters whose values may be recorded on its calls' spans (the manifest's
    /// `record: true`); the values of every other parameter never are.
    pub recorded: &'static [&'static str],
}

impl ToolSpec {
    /// The tool whose wire JSON is `json`, which requires no scope, declares no error and
    /// records no argument.
    pub const fn open(json: &'static str) -> ToolSpec {
        ToolSpec {
            json,
            scopes: &[],
            errors: &[],
            recorded: &[],
        }
    }
}

/// The former names a contract still answers (the manifest's `aliases:`), each with the
/// index of the entry it leads to. Served, never listed (but see `Server::list_aliases`).
#[derive(Debug)]
pub struct AliasesSpec {
    /// Former tool names.
    pub tools: &'static [(&'static str, usize)],
    /// Former prompt names.
    pub prompts: &'static [(&'static str, usize)],
    /// Former URIs of fixed resources.
    pub resources: &'static [(&'static str, usize)],
}

impl AliasesSpec {
    /// No alias.
    pub const NONE: AliasesSpec = AliasesSpec {
        tools: &[],
        prompts: &[],
        resources: &[],
    };
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
    /// The tools, in manifest order.
    pub tools: &'static [ToolSpec],
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
    /// The `auth:` block: who issues tokens and the scopes they may carry. Each entry's own
    /// scopes are on its spec.
    pub access: AccessSpec,
}

impl ContractSpec {
    /// A contract with nothing in it: no tools, resources, prompts or groups, no scopes, the
    /// runtime's argument codes. The base of a hand-written spec, which names only what it
    /// has: `ContractSpec { name: "notes", tools: TOOLS, ..ContractSpec::EMPTY }`.
    pub const EMPTY: ContractSpec = ContractSpec {
        name: "",
        title: None,
        icons: &[],
        version: "0.0.0",
        instructions: None,
        cache: None,
        tools: &[],
        resources: &[],
        artifacts_key: &["com.example/artifacts"],
        composition_key: &["com.example/composition"],
        groups: &[],
        argument_codes: ArgumentCodes::DEFAULT,
        logging: false,
        list_changed: false,
        prompts: &[],
        access: AccessSpec::OPEN,
    };
}

/// The access part of a contract: what the manifest's `auth:` block declares. The scopes an
/// entry requires are on the entry's own spec ([`ToolSpec::scopes`], [`GroupSpec::scopes`],
/// [`ResourceSpec::scopes`], [`PromptSpec::scopes`]).
#[derive(Debug, Clone, Copy)]
pub struct AccessSpec {
    /// This server's resource identifier (RFC 8707), the audience of its tokens, when the
    /// manifest fixes it; a deployment may set it instead.
    pub resource: Option<&'static str>,
    /// The authorization servers that issue tokens for this server.
    pub authorization_servers: &'static [&'static str],
    /// Every scope the contract uses, with what it grants, in manifest order.
    pub scopes: &'static [ScopeSpec],
}

impl AccessSpec {
    /// A contract that declares no scopes.
    pub const OPEN: AccessSpec = AccessSpec {
        resource: None,
        authorization_servers: &[],
        scopes: &[],
    };

    /// Whether the contract declares any scope.
    pub fn declares_scopes(&self) -> bool {
        !self.scopes.is_empty()
    }
}

/// One scope the contract declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScopeSpec {
    /// The scope as tokens carry it, such as `files:read`.
    pub name: &'static str,
    /// What it grants, for people (published in the protected resource metadata's
    /// `scopes_supported` order and in the docs).
    pub description: &'static str,
}

/// A prompt as generated from the manifest.
#[derive(Debug)]
pub struct PromptSpec {
    /// The published name.
    pub name: &'static str,
    /// The title for people.
    pub title: &'static str,
    /// What it is for, pinned sentences included.
    pub description: &'static str,
    /// Its arguments, in manifest order.
    pub arguments: &'static [PromptArgumentSpec],
    /// Its icons.
    pub icons: &'static [IconSpec],
    /// The scopes a `prompts/get` requires; empty for none.
    pub scopes: &'static [&'static str],
    /// Its `_meta` on `prompts/list`, as the text of a JSON object (its lifecycle); `None`
    /// when it publishes none.
    pub meta: Option<&'static str>,
}

/// One argument of a prompt.
#[derive(Debug)]
pub struct PromptArgumentSpec {
    /// The published name.
    pub name: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// Whether `prompts/get` needs it.
    pub required: bool,
    /// How its values are completed.
    pub completion: CompletionSpec,
}

/// How the values of a prompt argument or a template variable are completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionSpec {
    /// Not at all.
    None,
    /// From a fixed list, by prefix.
    Values(&'static [&'static str]),
    /// By the completion handler of this number (see `Dispatch::complete`).
    Handler(usize),
}

/// A resource as generated from the manifest.
#[derive(Debug)]
pub struct ResourceSpec {
    /// The programmatic name.
    pub name: &'static str,
    /// The title for people.
    pub title: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// Its MIME type.
    pub mime_type: &'static str,
    /// The fixed URI, or the level-1 template when `template` is true.
    pub uri: &'static str,
    /// Whether `uri` is a template.
    pub template: bool,
    /// Whether clients may subscribe to it (2025-11-25 `resources/subscribe`): the server
    /// announces its changes.
    pub subscribe: bool,
    /// How template variables' values are completed, by variable.
    pub completions: &'static [(&'static str, CompletionSpec)],
    /// The MCP Apps interface it holds, for a `ui://` resource: the runtime serves it, with
    /// no handler.
    pub app: Option<&'static AppSpec>,
    /// Its icons.
    pub icons: &'static [IconSpec],
    /// The scopes a read requires; empty for none.
    pub scopes: &'static [&'static str],
    /// Its `_meta` on `resources/list` (or `resources/templates/list`), as the text of a JSON
    /// object (its lifecycle); `None` when it publishes none.
    pub meta: Option<&'static str>,
}

/// A generated `_meta` object's text as the wire type; the generator wrote it from a JSON
/// object, so nothing else reaches the `None`.
pub(crate) fn meta_object(text: Option<&str>) -> Option<rmcp::model::MetaObject> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

/// A `ui://` resource's app (MCP Apps, the `io.modelcontextprotocol/ui` extension), checked
/// and embedded at build time; its [`ResourceSpec::uri`] carries the HTML's version.
#[derive(Debug)]
pub struct AppSpec {
    /// The HTML document, as `resources/read` answers it.
    pub html: &'static str,
    /// The resource's `_meta.ui` as a JSON object (CSP, permissions, domain,
    /// `prefersBorder`), published alike on `resources/list` and `resources/read`.
    pub meta: &'static str,
}

/// One icon of the manifest, checked at build time (an `https:` URL or an image embedded as
/// a `data:` URI).
#[derive(Debug, Clone, Copy)]
pub struct IconSpec {
    /// `src`.
    pub src: &'static str,
    /// `mimeType`.
    pub mime_type: Option<&'static str>,
    /// `sizes`; empty when the manifest gives none.
    pub sizes: &'static [&'static str],
    /// `theme`.
    pub theme: Option<IconTheme>,
}

impl IconSpec {
    /// The rmcp `Icon`.
    pub fn icon(&self) -> Icon {
        let mut icon = Icon::new(self.src);
        if let Some(mime_type) = self.mime_type {
            icon = icon.with_mime_type(mime_type);
        }
        if !self.sizes.is_empty() {
            icon = icon.with_sizes(self.sizes.iter().map(|s| (*s).to_owned()).collect());
        }
        if let Some(theme) = self.theme {
            icon = icon.with_theme(theme);
        }
        icon
    }
}
