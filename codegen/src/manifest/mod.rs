//! The manifest as written: every value with its span, before any rule is checked.
//!
//! [`decode()`] turns the YAML tree into these types and reports shape errors (unknown keys,
//! missing keys, wrong types). The rules between values live in [`crate::validate`].

use serde_json::Value;

use crate::keyword::{Keyword, Limit};
use crate::source::{Span, Spanned};
use crate::yaml::{Node, NodeKind};
use mcp_contract_spec::Hint;

mod apps;
mod asks;
mod decode;
mod icons;
mod lifecycle;
mod prompt;
pub(crate) mod reader;
mod values;

pub(crate) use apps::{ResourceApp, ToolApp};
pub(crate) use asks::{Question, QuestionField};
pub(crate) use prompt::{Completion, Prompt, PromptArgument};

pub(crate) use decode::{cannot_omit, decode};
pub(crate) use icons::{Icon, icons};
pub(crate) use lifecycle::{AliasWritten, Deprecation, Lifecycle, lifecycle};

/// A whole `tools.yaml`.
#[derive(Debug, Default)]
pub(crate) struct Manifest {
    /// The `server:` block.
    pub server: Option<Server>,
    /// How hints are published.
    pub hint_policy: Option<Spanned<HintPolicy>>,
    /// Named effects, each standing for four hints.
    pub effects: Vec<Effect>,
    /// Named sentences that descriptions must carry verbatim.
    pub sentences: Vec<Sentence>,
    /// The error vocabulary.
    pub errors: Vec<ErrorDef>,
    /// The codes of the argument envelope, when the manifest names them.
    pub argument_codes: Option<ArgumentCodes>,
    /// Shared parameter and output types.
    pub types: Vec<TypeDef>,
    /// The tools, in publication order.
    pub tools: Vec<Tool>,
    /// The artifact vocabulary and its `_meta` key.
    pub artifacts: Option<ArtifactSettings>,
    /// The composition `_meta` key.
    pub composition: Option<CompositionSettings>,
    /// Named tool groups, each served at its own HTTP route.
    pub groups: Vec<Group>,
    /// Resources with a fixed URI or a URI template.
    pub resources: Vec<Resource>,
    /// Prompts, in publication order.
    pub prompts: Vec<Prompt>,
    /// Who may call what: the `auth:` block.
    pub auth: Option<Auth>,
}

/// `auth:` this server as an OAuth resource server, and the scopes its entries require.
#[derive(Debug)]
pub(crate) struct Auth {
    /// The whole mapping.
    pub span: Span,
    /// This server's resource identifier (RFC 8707), the audience of its tokens.
    pub resource: Option<Spanned<String>>,
    /// The authorization servers that issue its tokens.
    pub authorization_servers: Vec<Spanned<String>>,
    /// The scopes, by name, in manifest order; spanned as a whole so an empty mapping can be
    /// pointed at.
    pub scopes: Option<Spanned<Vec<Scope>>>,
}

/// A declared scope.
#[derive(Debug)]
pub(crate) struct Scope {
    /// Its name, as tokens carry it.
    pub name: Spanned<String>,
    /// What it grants, for people.
    pub description: Option<Spanned<String>>,
}

/// `scopes: [name, …]` on a group, tool, resource or prompt: every scope it requires, with
/// where the list is written.
pub(crate) type ScopeList = Option<Spanned<Vec<Spanned<String>>>>;

/// `argument_codes: {missing, invalid, unknown}`, each optional.
#[derive(Debug, Default)]
pub(crate) struct ArgumentCodes {
    /// For a required argument that was not given.
    pub missing: Option<Spanned<String>>,
    /// For an argument of the wrong type or outside its constraints.
    pub invalid: Option<Spanned<String>>,
    /// For an argument the tool does not take.
    pub unknown: Option<Spanned<String>>,
}

/// `artifacts: {meta_key, kinds}`.
#[derive(Debug)]
pub(crate) struct ArtifactSettings {
    /// Where the artifact contract is published: one `_meta` key, or a key path.
    pub meta_key: Option<Spanned<Vec<Spanned<String>>>>,
    /// Artifact kinds beyond the standard ones, with what each stands for.
    pub kinds: Vec<(Spanned<String>, Spanned<String>)>,
}

/// `composition: {meta_key}`.
#[derive(Debug)]
pub(crate) struct CompositionSettings {
    /// Where the composition contract is published: one `_meta` key, or a key path.
    pub meta_key: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A tool group.
#[derive(Debug)]
pub(crate) struct Group {
    /// Its name, also its route.
    pub name: Spanned<String>,
    /// What its tools are for.
    pub description: Option<Spanned<String>>,
    /// The scopes its tools and its route require.
    pub scopes: ScopeList,
}

/// A resource: `uri` or `uri_template`, with what a client lists.
#[derive(Debug)]
pub(crate) struct Resource {
    /// The mapping.
    pub span: Span,
    /// The programmatic name, which names the handler method.
    pub name: Option<Spanned<String>>,
    /// A fixed URI.
    pub uri: Option<Spanned<String>>,
    /// A level-1 URI template.
    pub uri_template: Option<Spanned<String>>,
    /// The title for people.
    pub title: Option<Spanned<String>>,
    /// What it holds.
    pub description: Option<Spanned<String>>,
    /// Its MIME type.
    pub mime_type: Option<Spanned<String>>,
    /// Whether clients may subscribe to its changes.
    pub subscribe: Option<Spanned<bool>>,
    /// How `completion/complete` suggests each template variable's values.
    pub completion: Vec<(Spanned<String>, Completion)>,
    /// Icons a client may show beside it.
    pub icons: Vec<Icon>,
    /// The scopes a read requires.
    pub scopes: ScopeList,
    /// `asks:` the elicitations a read may put to the user, by id.
    pub asks: Vec<Question>,
    /// `since:`, `deprecated:` and `aliases:` (former URIs).
    pub lifecycle: Lifecycle,
    /// `app:` the HTML interface it holds, for an MCP Apps `ui://` resource.
    pub app: Option<ResourceApp>,
    /// Every key of its mapping, with where it is written.
    pub keys: Keys,
}

/// A tool's `artifacts:`.
#[derive(Debug, Default)]
pub(crate) struct ToolArtifacts {
    /// The mapping.
    pub span: Span,
    /// Artifacts found in the structured output.
    pub produces: Vec<Produced>,
    /// Artifacts taken from the arguments.
    pub consumes: Vec<Consumed>,
}

/// An artifact a tool materializes.
#[derive(Debug)]
pub(crate) struct Produced {
    /// Its kind.
    pub kind: Option<Spanned<String>>,
    /// A JSON pointer into the structured output.
    pub pointer: Option<Spanned<String>>,
    /// `materialize`, the only mode.
    pub mode: Option<Spanned<String>>,
    /// `json_array` for a string field holding an exact JSON array.
    pub encoding: Option<Spanned<String>>,
}

/// An artifact a tool takes.
#[derive(Debug)]
pub(crate) struct Consumed {
    /// Its kind.
    pub kind: Option<Spanned<String>>,
    /// A JSON pointer into the arguments.
    pub pointer: Option<Spanned<String>>,
    /// Whether the tool needs it.
    pub required: Option<Spanned<bool>>,
}

/// The `server:` block.
#[derive(Debug)]
pub(crate) struct Server {
    /// `serverInfo.name`.
    pub name: Option<Spanned<String>>,
    /// `serverInfo.title`.
    pub title: Option<Spanned<String>>,
    /// `serverInfo.version`; the crate's version when absent.
    pub version: Option<Spanned<String>>,
    /// Instructions for the model, sent at initialization.
    pub instructions: Option<Spanned<String>>,
    /// The 2026-07-28 `tools/list` cache hint.
    pub cache: Option<Cache>,
    /// How the server is published: the registry, bundle and client files.
    pub distribution: Option<Distribution>,
    /// Whether handlers log to clients (`notifications/message`).
    pub logging: Option<Spanned<bool>>,
    /// Whether the lists may change at run time (`listChanged`).
    pub list_changed: Option<Spanned<bool>>,
    /// Icons a client may show for the server.
    pub icons: Vec<Icon>,
    /// How schemas publish shared types: `inline` or `defs`.
    pub shared_types: Option<Spanned<String>>,
    /// The portability profiles the contract is held to, by name.
    pub profiles: Vec<Spanned<String>>,
}

/// `distribution:` what the MCP registry's `server.json`, the MCPB bundle manifest and the
/// client configurations say about the server.
#[derive(Debug)]
pub(crate) struct Distribution {
    /// The registry name, `namespace/name` (`io.github.owner/server`).
    pub registry_name: Option<Spanned<String>>,
    /// One line for people browsing a registry, at most 100 characters.
    pub description: Option<Spanned<String>>,
    /// Who publishes it.
    pub author: Option<Spanned<String>>,
    /// The source repository's URL.
    pub repository: Option<Spanned<String>>,
    /// The crate clients install, and its binary's name; the server name by default.
    pub package: Option<Spanned<String>>,
    /// The URL of a deployment served over streamable HTTP.
    pub remote: Option<Spanned<String>>,
}

/// `cache: {ttl_ms, scope}`.
#[derive(Debug)]
pub(crate) struct Cache {
    /// `ttlMs`.
    pub ttl_ms: Option<Spanned<u64>>,
    /// `cacheScope`: `public` or `private`.
    pub scope: Option<Spanned<String>>,
}

/// How the four hints are published.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum HintPolicy {
    /// All four on every tool.
    All,
    /// The named hints are left out on read-only tools, where the spec gives them no meaning.
    OmitOnReadOnly(Vec<Spanned<Hint>>),
}

/// Four optional hints, as written on an effect or a tool.
#[derive(Debug, Default, Clone)]
pub(crate) struct Hints {
    /// Where they are written.
    pub span: Span,
    /// Each hint as written, in [`Hint::ALL`] order.
    pub values: [Option<Spanned<bool>>; 4],
}

impl Hints {
    /// One hint as written.
    pub(crate) fn get(&self, hint: Hint) -> Option<&Spanned<bool>> {
        self.values[hint as usize].as_ref()
    }
}

/// A named effect: `effects: {read: {read_only: true, …}}`.
#[derive(Debug)]
pub(crate) struct Effect {
    /// Its name.
    pub name: Spanned<String>,
    /// The hints it stands for.
    pub hints: Hints,
}

/// A pinned sentence.
#[derive(Debug)]
pub(crate) struct Sentence {
    /// Its name, which becomes a constant.
    pub name: Spanned<String>,
    /// Its exact text.
    pub text: Spanned<String>,
}

/// An entry of the error vocabulary.
#[derive(Debug)]
pub(crate) struct ErrorDef {
    /// The code published in the error envelope.
    pub code: Spanned<String>,
    /// The message template, with `{field}` placeholders.
    pub message: Option<Spanned<String>>,
    /// What the caller should do next, ideally naming the call that finds a valid value.
    pub hint: Option<Spanned<String>>,
    /// `argument: true`: the error concerns one argument of the call, which the handler names.
    pub argument: Option<Spanned<bool>>,
    /// `placeholders:`, the types of the templates' fields that are not strings.
    pub placeholders: Vec<Placeholder>,
}

/// The type of one placeholder of an error's templates: `size: integer`, or
/// `size: {type: integer, minimum: 0}`.
#[derive(Debug)]
pub(crate) struct Placeholder {
    /// The placeholder's name, as the templates write it in braces.
    pub name: Spanned<String>,
    /// The type's name, as a parameter's `type` writes it.
    pub ty: Option<Spanned<String>>,
    /// `minimum`, which with `maximum` chooses an integer's Rust type.
    pub minimum: Option<Spanned<serde_json::Number>>,
    /// `maximum`.
    pub maximum: Option<Spanned<serde_json::Number>>,
}

/// A shared type.
#[derive(Debug)]
pub(crate) struct TypeDef {
    /// Its name, which becomes the Rust type's name.
    pub name: Spanned<String>,
    /// Its schema.
    pub schema: Schema,
}

/// One tool.
#[derive(Debug)]
pub(crate) struct Tool {
    /// The tool's mapping.
    pub span: Span,
    /// The published name.
    pub name: Option<Spanned<String>>,
    /// The published title.
    pub title: Option<Spanned<String>>,
    /// The description for the model.
    pub description: Option<Spanned<String>>,
    /// Pinned sentences appended to the description.
    pub sentences: Vec<Spanned<String>>,
    /// The named effect giving the hints.
    pub effect: Option<Spanned<String>>,
    /// Hints set on the tool, over the effect's.
    pub hints: Option<Hints>,
    /// Why the hints are what they are, for reviewers; rendered in the docs, never published.
    pub why: Option<Spanned<String>>,
    /// The parameters, in order.
    pub parameters: Vec<Property>,
    /// `input_schema:` the whole `inputSchema` as a JSON Schema document, in place of
    /// `parameters`.
    pub input_schema: Option<Document>,
    /// What a successful call returns.
    pub output: Option<Output>,
    /// The error codes the tool may return.
    pub errors: Vec<Spanned<String>>,
    /// Static `_meta` entries.
    pub meta: Vec<(Spanned<String>, Value)>,
    /// The groups the tool belongs to.
    pub groups: Vec<Spanned<String>>,
    /// The artifacts it produces and consumes.
    pub artifacts: Option<ToolArtifacts>,
    /// `complete_operation:` the same-server tools it encapsulates.
    pub complete_operation: Option<Spanned<Vec<Spanned<String>>>>,
    /// Icons a client may show beside it.
    pub icons: Vec<Icon>,
    /// The scopes a call requires, beyond its groups'.
    pub scopes: ScopeList,
    /// `asks:` the elicitations it may put to the user, by id.
    pub asks: Vec<Question>,
    /// `task:` whether its calls may run as tasks (`optional` or `required`).
    pub task: Option<Spanned<String>>,
    /// `since:`, `deprecated:` and `aliases:` (former names).
    pub lifecycle: Lifecycle,
    /// `app:` the MCP Apps interface it opens, and who may call it.
    pub app: Option<ToolApp>,
    /// Every key of its mapping, with where it is written.
    pub keys: Keys,
}

/// A tool's output.
#[derive(Debug)]
pub(crate) enum Output {
    /// `output: text`: plain text, no structured content.
    Text,
    /// A mapping: structured fields (`properties`), declared `content`, or both.
    Declared {
        /// The structured output, when `properties` is written.
        structure: Option<Box<Schema>>,
        /// `content:` the content blocks the tool answers with, when written.
        content: Option<Spanned<Vec<ContentBlock>>>,
    },
}

/// One entry of `output.content`: a kind of content block and its MIME types.
#[derive(Debug)]
pub(crate) struct ContentBlock {
    /// The whole entry.
    pub span: Span,
    /// `kind:` as written.
    pub kind: Option<Spanned<String>>,
    /// `mime_types:` as written, with where the list is.
    pub mime_types: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A named property of an object: a parameter, an output field or a nested field.
#[derive(Debug)]
pub(crate) struct Property {
    /// The property's name as published.
    pub name: Spanned<String>,
    /// Its schema.
    pub schema: Schema,
    /// `required:` as written.
    pub required: Option<Spanned<bool>>,
    /// `default:` as written.
    pub default: Option<Literal>,
    /// `header:` the `x-mcp-header` name the argument is mirrored under on HTTP.
    pub header: Option<Spanned<String>>,
    /// `record:` whether the argument's value may be recorded on its calls' spans.
    pub record: Option<Spanned<bool>>,
}

/// A value written in the manifest, an example or a default: its JSON, and where each of
/// its parts stands, so a rule can point at the part it names.
#[derive(Debug, Clone)]
pub(crate) struct Literal {
    /// The value as JSON.
    pub value: Value,
    /// Where the whole value stands.
    pub span: Span,
    /// Each part below the top by its JSON pointer (`/start`, `/items/0`), in document order.
    parts: Vec<(String, Span)>,
}

impl Literal {
    /// The value a YAML node holds.
    pub(crate) fn new(node: &Node) -> Literal {
        fn walk(node: &Node, at: &str, parts: &mut Vec<(String, Span)>) {
            let children: Vec<(String, &Node)> = match &node.kind {
                NodeKind::Seq(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (i.to_string(), n))
                    .collect(),
                NodeKind::Map(entries) => entries.iter().map(|(k, v)| (k.key_text(), v)).collect(),
                _ => Vec::new(),
            };
            for (name, child) in children {
                let pointer = format!("{at}/{}", mcp_contract_spec::pointer::escape(&name));
                parts.push((pointer.clone(), child.span));
                walk(child, &pointer, parts);
            }
        }
        let mut parts = Vec::new();
        walk(node, "", &mut parts);
        Literal {
            value: node.to_json(),
            span: node.span,
            parts,
        }
    }

    /// Where the part at `pointer` stands, or the nearest enclosing part that is written.
    pub(crate) fn span_at(&self, pointer: &str) -> Span {
        let mut at = pointer;
        loop {
            if at.is_empty() {
                return self.span;
            }
            if let Some((_, span)) = self.parts.iter().find(|(p, _)| p == at) {
                return *span;
            }
            at = at.rfind('/').map_or("", |i| &at[..i]);
        }
    }
}

/// The keys of one mapping as written, for rules whose message names a key.
#[derive(Debug, Default, Clone)]
pub(crate) struct Keys(pub(super) Vec<(String, Span)>);

impl Keys {
    /// Every key with where it is written, in order.
    pub(crate) fn all(&self) -> Vec<(String, Span)> {
        self.0.clone()
    }

    /// Where `key` is written in the mapping, if it is.
    pub(crate) fn span(&self, key: &str) -> Option<Span> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, s)| *s)
    }
}

/// A schema as written, in the JSON Schema vocabulary the manifest allows.
#[derive(Debug, Default)]
pub(crate) struct Schema {
    /// The mapping it is written in.
    pub span: Span,
    /// `type:` a primitive, `array`, `object`, or a shared type's name.
    pub ty: Option<Spanned<String>>,
    /// `description:`.
    pub description: Option<Spanned<String>>,
    /// `example:` or `examples:`.
    pub examples: Vec<Literal>,
    /// `enum:` for string enums, spanned as a whole so an empty list can be pointed at.
    pub enum_values: Option<Spanned<Vec<Spanned<String>>>>,
    /// `items:` for arrays.
    pub items: Option<Box<Schema>>,
    /// `properties:` for objects.
    pub properties: Option<Vec<Property>>,
    /// The constraint keywords written, in [`KEYWORDS`](crate::keyword::KEYWORDS) order.
    pub constraints: Vec<(Keyword, Spanned<Limit>)>,
    /// `json_schema:` the whole schema as a JSON Schema document, in place of the other keys.
    pub document: Option<Document>,
    /// `one_of:` a tagged union, in place of `type:`.
    pub one_of: Option<OneOf>,
    /// Every key of its mapping, where a property's own keys (`default`, `header`) stand too.
    pub keys: Keys,
}

/// `one_of: {tag, variants}`: a tagged union, objects told apart by the string a tag property
/// holds. An untagged one is reported while reading and stands with no tag.
#[derive(Debug)]
pub(crate) struct OneOf {
    /// Where the key `one_of` is written.
    pub key: Span,
    /// `tag:` the property whose value names the variant; `None` when untagged (reported).
    pub tag: Option<Spanned<String>>,
    /// `variants:` each tag value with its object's schema, in order, spanned as a whole.
    pub variants: Option<Spanned<Vec<Variant>>>,
}

/// One variant of a `one_of`: its tag value, and its object's schema.
pub(crate) type Variant = (Spanned<String>, Schema);

/// A JSON Schema 2020-12 document given whole (`json_schema:`, `input_schema:`), published
/// exactly as written.
#[derive(Debug)]
pub(crate) struct Document {
    /// The key it is written under.
    pub key: Span,
    /// Where it is written.
    pub source: DocumentSource,
}

/// Where a [`Document`] is written.
#[derive(Debug)]
pub(crate) enum DocumentSource {
    /// In the manifest, as a mapping: its JSON, and where each part stands.
    Inline(Literal),
    /// A JSON file, its path relative to the manifest's folder.
    File(Spanned<String>),
}

impl Schema {
    /// The value written for `keyword`, if any.
    pub(crate) fn constraint(&self, keyword: Keyword) -> Option<&Spanned<Limit>> {
        self.constraints
            .iter()
            .find(|(k, _)| *k == keyword)
            .map(|(_, v)| v)
    }
}
