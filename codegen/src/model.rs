//! The validated contract: the only input of every emitter.
//!
//! Everything here has passed validation: names are legal and unique, references resolve,
//! hints are complete, examples and defaults match their schemas, and every Rust identifier
//! is derived and collision-free. Emitters never look back at the YAML.

pub(crate) use mcp_contract_spec::{CacheHint, PublishedHints};
use serde_json::{Map, Value};

use crate::keyword::{Keyword, Limit};
use crate::source::{Keyed, Span};

mod access;
mod app;
mod content;
mod hints;
mod icon;
mod integer;
pub(crate) mod json_schema;
mod lifecycle;
mod profile;
mod prompt;
mod question;
mod task;
mod union;

pub(crate) use access::{AccessDef, ScopeDef};
pub(crate) use app::{AppDef, Csp, Permission, ToolAppDef, Visibility};
pub(crate) use content::{ContentBlockDef, ContentKind};
pub(crate) use hints::Hints;

pub(crate) use icon::{IconDef, IconTheme};
pub(crate) use integer::RustInteger;
pub(crate) use json_schema::SharedTypes;
pub use lifecycle::Date;
pub(crate) use lifecycle::{Alias, DeprecationDef, Lifecycle};
pub(crate) use profile::Selection;
pub use profile::{Client, Profile, UnknownProfile};
pub(crate) use prompt::{CompletionDef, PromptArgumentDef, PromptDef};
pub(crate) use question::{FormField, QuestionDef, QuestionMode};
pub(crate) use task::TaskMode;
pub(crate) use union::{UnionDef, VariantDef};

/// A whole validated manifest.
#[derive(Debug, Clone)]
pub struct Contract {
    /// The manifest's file name, for generated-file headers.
    pub(crate) source_name: String,
    /// Server identity and list hints.
    pub(crate) server: ServerInfo,
    /// Pinned sentences.
    pub(crate) sentences: Vec<SentenceDef>,
    /// The error vocabulary.
    pub(crate) errors: Vec<ErrorDef>,
    /// The codes of the argument envelope.
    pub(crate) argument_codes: ArgumentCodes,
    /// Shared types.
    pub(crate) types: Vec<NamedType>,
    /// Tools in publication order.
    pub(crate) tools: Vec<ToolDef>,
    /// The `_meta` keys of the planning contracts.
    pub(crate) planning: Planning,
    /// Tool groups, in manifest order.
    pub(crate) groups: Vec<GroupDef>,
    /// Resources, in manifest order.
    pub(crate) resources: Vec<ResourceDef>,
    /// Prompts, in manifest order.
    pub(crate) prompts: Vec<PromptDef>,
    /// The `auth:` block, when the manifest has one.
    pub(crate) access: Option<AccessDef>,
    /// The JSON Schema document files the contract publishes, for `cargo::rerun-if-changed`.
    pub(crate) document_files: Vec<std::path::PathBuf>,
}

impl Contract {
    /// The server's name, as `serverInfo.name` publishes it.
    pub fn server_name(&self) -> &str {
        &self.server.name
    }

    /// The `serverInfo.version` the manifest states, when it states one in place of the
    /// implementing crate's version.
    pub fn server_version(&self) -> Option<&str> {
        self.server.version.as_deref()
    }

    /// The tools' names, in publication order.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }
}

/// Where the planning metadata is published.
#[derive(Debug, Clone)]
pub(crate) struct Planning {
    /// Where the artifact contract is published in a tool's `_meta`.
    pub artifacts_key: KeyPath,
    /// Where the composition contract is published.
    pub composition_key: KeyPath,
    /// The artifact kinds, standard ones first, with what each stands for.
    pub kinds: Vec<(String, String)>,
}

/// A key path in a tool's `_meta`: a `_meta` key, then the keys of nested objects.
#[derive(Debug, Clone)]
pub(crate) struct KeyPath {
    /// The keys, never none.
    pub keys: Vec<String>,
    /// Where the manifest writes it; `None` for the default.
    pub span: Option<Span>,
}

impl KeyPath {
    /// The path as the manifest writes it: one key alone, several as a list.
    pub(crate) fn shown(&self) -> String {
        match &self.keys[..] {
            [key] => key.clone(),
            keys => format!("[{}]", keys.join(", ")),
        }
    }
}

/// A tool group.
#[derive(Debug, Clone)]
pub(crate) struct GroupDef {
    /// Its name, also the last segment of its HTTP route.
    pub name: String,
    /// What its tools are for.
    pub description: String,
    /// The constant naming it in `groups::`.
    pub constant: String,
    /// Its tools' names, in manifest order.
    pub tools: Vec<String>,
    /// The scopes its tools and its route require, in manifest order.
    pub scopes: Vec<String>,
    /// Where the name is written.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

/// A resource.
#[derive(Debug, Clone)]
pub(crate) struct ResourceDef {
    /// The programmatic name.
    pub name: String,
    /// The fixed URI or the template.
    pub uri: ResourceUri,
    /// The title.
    pub title: String,
    /// The description.
    pub description: String,
    /// The MIME type.
    pub mime_type: String,
    /// The handler method's name.
    pub method: String,
    /// The parameters struct of a template, such as `FileParams`.
    pub params_type: String,
    /// Whether clients may subscribe to its changes.
    pub subscribe: bool,
    /// How template variables' values are completed, by variable, in template order.
    pub completions: Vec<(String, CompletionDef)>,
    /// Where the name is written.
    pub span: Span,
    /// Its icons.
    pub icons: Vec<IconDef>,
    /// The scopes a read requires, in manifest order.
    pub scopes: Vec<String>,
    /// The questions a read may ask the user, in manifest order.
    pub questions: Vec<QuestionDef>,
    /// When it appeared, its deprecation, its former URIs.
    pub lifecycle: Lifecycle,
    /// The HTML interface it holds, for an MCP Apps `ui://` resource, which the runtime
    /// serves itself: such a resource has no handler method.
    pub app: Option<AppDef>,
    /// Where each key of its mapping is written, for `diff` to point at a changed one.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub keys: Vec<(String, Span)>,
}

impl ResourceDef {
    /// The URI or template clients see: an app's carries the version of its HTML.
    pub(crate) fn published_uri(&self) -> String {
        match &self.app {
            Some(app) => app.uri(self.uri.text()),
            None => self.uri.text().to_owned(),
        }
    }

    /// Whether the server's code answers its reads: every resource but an app, whose HTML is
    /// in the contract.
    pub(crate) fn handled(&self) -> bool {
        self.app.is_none()
    }
}

/// How a resource is addressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResourceUri {
    /// One URI.
    Fixed(String),
    /// A level-1 template and its variables, in order.
    Template {
        /// The template as written.
        template: String,
        /// The variables, each one path segment.
        variables: Vec<String>,
    },
}

impl ResourceUri {
    /// The URI or template as written.
    pub(crate) fn text(&self) -> &str {
        match self {
            ResourceUri::Fixed(u) => u,
            ResourceUri::Template { template, .. } => template,
        }
    }
}

/// The artifact contract of a tool, as published.
pub(crate) type ArtifactsDef = mcp_contract_spec::planning::ArtifactContract;

/// `serverInfo` plus instructions and the 2026-07-28 cache hint.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.title`.
    pub title: Option<String>,
    /// `serverInfo.version`; `None` means the implementing crate's version.
    pub version: Option<String>,
    /// Instructions for the model.
    pub instructions: Option<String>,
    /// `ttlMs` and whether `cacheScope` is public.
    pub cache: Option<CacheHint>,
    /// How the server is published, when the manifest says.
    pub distribution: Option<DistributionDef>,
    /// Whether handlers log to clients: the `logging` capability.
    pub logging: bool,
    /// Whether the lists may change at run time: `listChanged` on the capabilities.
    pub list_changed: bool,
    /// Where `list_changed` is written, when it is.
    pub list_changed_at: Option<Span>,
    /// `serverInfo.icons`.
    pub icons: Vec<IconDef>,
    /// How the schemas publish the shared types they use.
    pub shared_types: SharedTypes,
    /// Where `shared_types` is written, when it is.
    pub shared_types_at: Option<Span>,
    /// The portability profiles the manifest holds itself to, each where it is written.
    pub profiles: Vec<(Profile, Span)>,
    /// Where each identity key (`name`, `title`, `version`, `instructions`), `logging` and
    /// `cache` is written, for a check of a running server to point at the one it does not
    /// honour.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub keys: Vec<(&'static str, Span)>,
}

/// The codes of the argument envelope, the runtime's unless the manifest renames them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgumentCodes {
    /// A required argument was not given.
    pub missing: String,
    /// An argument of the wrong type or outside its constraints.
    pub invalid: String,
    /// An argument the tool does not take.
    pub unknown: String,
}

/// The registry, bundle and client identity of a server.
#[derive(Debug, Clone)]
pub(crate) struct DistributionDef {
    /// `namespace/name` in the MCP registry.
    pub registry_name: String,
    /// One line, at most 100 characters.
    pub description: String,
    /// Who publishes it.
    pub author: String,
    /// The source repository's URL.
    pub repository: Option<String>,
    /// The crate clients install, and its binary's name.
    pub package: String,
    /// The URL of a streamable HTTP deployment.
    pub remote: Option<String>,
}

/// A pinned sentence and its constant.
#[derive(Debug, Clone)]
pub(crate) struct SentenceDef {
    /// The manifest name.
    pub name: String,
    /// The Rust constant's name.
    pub constant: String,
    /// The exact text.
    pub text: String,
    /// Where the name is written, for tools that report on the contract (`diff`).
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

/// An error code of the vocabulary.
#[derive(Debug, Clone)]
pub(crate) struct ErrorDef {
    /// The published code.
    pub code: String,
    /// The Rust variant's name.
    pub variant: String,
    /// The message template.
    pub message: Template,
    /// The hint template.
    pub hint: Option<Template>,
    /// The template fields, in first-use order, each with the type of its Rust field.
    pub fields: Vec<TemplateField>,
    /// Whether the error names the argument it concerns (`argument: true`): the handler gives
    /// it, as a variant of the tool's `{Prefix}Argument`, and the envelope carries it as
    /// `argument`, as argument errors do.
    pub names_argument: bool,
}

/// A field of an error's templates: a placeholder, and the field of the error's variant it
/// becomes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TemplateField {
    /// The placeholder's name, also the field's.
    pub name: String,
    /// What it holds: `string` unless the error's `placeholders:` says otherwise.
    pub ty: PlaceholderType,
}

/// The type of a placeholder, named as a parameter's `type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlaceholderType {
    /// `string`: a `String`.
    String,
    /// `integer`: the Rust integer its bounds choose, by the parameters' rule.
    Integer(RustInteger),
    /// `number`: an `f64`.
    Number,
    /// `boolean`: a `bool`.
    Boolean,
}

impl PlaceholderType {
    /// The manifest's name of the type.
    pub(crate) fn manifest_name(self) -> &'static str {
        match self {
            PlaceholderType::String => "string",
            PlaceholderType::Integer(_) => "integer",
            PlaceholderType::Number => "number",
            PlaceholderType::Boolean => "boolean",
        }
    }

    /// The Rust type of the field.
    pub(crate) fn rust_name(self) -> &'static str {
        match self {
            PlaceholderType::String => "String",
            PlaceholderType::Integer(ty) => ty.name(),
            PlaceholderType::Number => "f64",
            PlaceholderType::Boolean => "bool",
        }
    }
}

/// The field of a tool's error variant that holds the argument its code names
/// (`argument: true`), which no placeholder of that code may also be.
pub(crate) const ARGUMENT_FIELD: &str = "argument";

/// A text with `{field}` placeholders.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Template {
    /// The text as written.
    pub source: String,
    /// Its pieces.
    pub parts: Vec<TemplatePart>,
}

/// A piece of a [`Template`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TemplatePart {
    /// Text copied as is (braces already unescaped).
    Literal(String),
    /// A field's value.
    Field(String),
}

/// A shared type.
#[derive(Debug, Clone)]
pub(crate) struct NamedType {
    /// The manifest name, also the Rust name.
    pub name: String,
    /// Its schema.
    pub schema: Schema,
}

/// One tool.
#[derive(Debug, Clone)]
pub(crate) struct ToolDef {
    /// The published name.
    pub name: String,
    /// The published title (on `title` and `annotations.title`).
    pub title: String,
    /// The description as written.
    pub description: String,
    /// The published description: the written one followed by every pinned sentence it lacks.
    pub published_description: String,
    /// Indices into [`Contract::sentences`].
    pub sentences: Vec<usize>,
    /// All four hints, resolved.
    pub hints: Hints,
    /// The hints as published under the manifest's policy.
    pub published_hints: PublishedHints,
    /// Why the hints are what they are, for the docs; never published.
    pub why: Option<String>,
    /// Parameters in order; none when `input` gives the whole schema.
    pub parameters: Vec<Field>,
    /// The whole `inputSchema` as a JSON Schema document (`input_schema:`), published as
    /// written; the handler receives the arguments as a `serde_json::Value`.
    pub input: Option<Value>,
    /// The output.
    pub output: OutputDef,
    /// The content blocks it answers with, when `output.content` declares them; empty when
    /// it answers with one text block (its text, or its structured output as JSON).
    pub content: Vec<ContentBlockDef>,
    /// Indices into [`Contract::errors`].
    pub errors: Vec<usize>,
    /// When an error it declares names its argument: each parameter's published name and its
    /// variant of `{Prefix}Argument`, in order. Empty otherwise.
    pub arguments: Vec<(String, String)>,
    /// Static `_meta` entries.
    pub meta: Map<String, Value>,
    /// The artifacts it produces and consumes.
    pub artifacts: Option<ArtifactsDef>,
    /// The same-server tools this complete operation encapsulates; empty when it is none.
    pub encapsulates: Vec<String>,
    /// The groups it belongs to, by name.
    pub groups: Vec<String>,
    /// The handler method's name.
    pub method: String,
    /// The prefix of the tool's Rust types (`ReadFile` for `ReadFileArgs`).
    pub type_prefix: String,
    /// The constant naming the tool in `names::` and `titles::`.
    pub constant: String,
    /// Where the name is written, for tools that report on the contract (`diff`); emitters
    /// ignore it.
    pub span: Span,
    /// Its icons.
    pub icons: Vec<IconDef>,
    /// The scopes a call requires itself, in manifest order (its groups may add theirs).
    pub scopes: Vec<String>,
    /// The questions it may ask the user, in manifest order.
    pub questions: Vec<QuestionDef>,
    /// Whether its calls may run as tasks.
    pub task: TaskMode,
    /// When it appeared, its deprecation, its former names.
    pub lifecycle: Lifecycle,
    /// The MCP Apps interface it opens, and who may call it.
    pub app: Option<ToolAppDef>,
    /// Where each key of its mapping is written, for `diff` to point at a changed one.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub keys: Vec<(String, Span)>,
}

impl ToolDef {
    /// The arguments struct's name.
    pub(crate) fn args_type(&self) -> String {
        format!("{}Args", self.type_prefix)
    }
    /// The output struct's name.
    pub(crate) fn output_type(&self) -> String {
        format!("{}Output", self.type_prefix)
    }
    /// The name of the enum of its declared content blocks.
    pub(crate) fn content_type(&self) -> String {
        format!("{}Content", self.type_prefix)
    }
    /// The error enum's name.
    pub(crate) fn error_type(&self) -> String {
        format!("{}Error", self.type_prefix)
    }
    /// The name of the enum of its arguments, which errors that name their argument hold.
    pub(crate) fn argument_type(&self) -> String {
        format!("{}Argument", self.type_prefix)
    }
}

/// What a tool returns on success.
#[derive(Debug, Clone)]
pub(crate) enum OutputDef {
    /// No structured output: plain text, or the declared content alone.
    Text,
    /// A structured object, also mirrored as JSON text.
    Object {
        /// The output's description, if any.
        description: Option<String>,
        /// Its fields.
        fields: Vec<Field>,
    },
    /// A structured result whose `outputSchema` is a JSON Schema document (`json_schema:`),
    /// published as written; the handler returns a `serde_json::Value`.
    Document(Value),
}

/// A property of an object: parameter, output field or nested field.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// The published property name.
    pub name: String,
    /// The Rust field's name.
    pub ident: String,
    /// The property's schema.
    pub schema: Schema,
    /// Listed in `required`.
    pub required: bool,
    /// Applied when the argument is absent; stated in the description, never published as `default`.
    pub default: Option<Value>,
    /// The `x-mcp-header` name, published on 2026-07-28.
    pub header: Option<Keyed<String>>,
    /// `record: true`: a tool's parameter whose value its calls' spans may carry.
    pub record: bool,
    /// Where the name is written, for tools that report on the contract (`diff`); emitters
    /// ignore it. A field of a shared type points into `types:`.
    pub span: Span,
}

impl Field {
    /// The published description: the written one, then the default if there is one.
    pub(crate) fn published_description(&self) -> String {
        let text = self.schema.description.clone().unwrap_or_default();
        match &self.default {
            None => text,
            Some(d) => {
                let sep = if text.is_empty() || text.ends_with(['.', '!', '?']) {
                    " "
                } else {
                    ". "
                };
                format!("{}{sep}Default: {d}.", text.trim_end())
                    .trim_start()
                    .to_owned()
            }
        }
    }
}

/// A schema, resolved.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The type.
    pub kind: Kind,
    /// `description`.
    pub description: Option<String>,
    /// `examples`.
    pub examples: Vec<Value>,
    /// Constraint keywords.
    pub constraints: Constraints,
}

/// A schema's type.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// `string`.
    String,
    /// `integer`; unsigned in Rust when `minimum >= 0`.
    Integer,
    /// `number`.
    Number,
    /// `boolean`.
    Boolean,
    /// `json`: any JSON value, `serde_json::Value` in Rust.
    Json,
    /// A string enum.
    Enum(EnumDef),
    /// `array`.
    Array(Box<Schema>),
    /// `object` with properties.
    Object(ObjectDef),
    /// A shared type, by index into [`Contract::types`].
    Named(usize),
    /// A JSON Schema document (`json_schema:`), published as written: `serde_json::Value` in
    /// Rust.
    Document(Box<Value>),
    /// A tagged union (`one_of:`): `oneOf` of objects, a Rust enum with data.
    Union(UnionDef),
}

/// A string enum and its Rust enum.
#[derive(Debug, Clone)]
pub(crate) struct EnumDef {
    /// The Rust enum's name.
    pub rust_name: String,
    /// Values and their variants.
    pub values: Vec<(String, String)>,
}

/// An object and its Rust struct.
#[derive(Debug, Clone)]
pub(crate) struct ObjectDef {
    /// The Rust struct's name.
    pub rust_name: String,
    /// Its fields.
    pub fields: Vec<Field>,
}

/// Constraint keywords, published as written, in [`KEYWORDS`](crate::keyword::KEYWORDS)
/// order, each with where its value is written (none for a bound the Rust type implies); a
/// `format` is one of the closed list.
#[derive(Debug, Clone, Default)]
pub(crate) struct Constraints(pub Vec<(Keyword, Limit, Option<Span>)>);

impl Constraints {
    /// The value of `keyword`, if written.
    pub(crate) fn get(&self, keyword: Keyword) -> Option<&Limit> {
        self.0
            .iter()
            .find(|(k, ..)| *k == keyword)
            .map(|(_, v, _)| v)
    }

    /// Where the value of `keyword` is written in the manifest, if it is.
    pub(crate) fn span(&self, keyword: Keyword) -> Option<Span> {
        self.0.iter().find(|(k, ..)| *k == keyword)?.2
    }

    /// The keywords and their values, in publication order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Keyword, &Limit)> {
        self.0.iter().map(|(k, v, _)| (*k, v))
    }

    /// The value of a bound, as a number.
    pub(crate) fn number(&self, keyword: Keyword) -> Option<f64> {
        self.get(keyword).and_then(Limit::as_f64)
    }
}
