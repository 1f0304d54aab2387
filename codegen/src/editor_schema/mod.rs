//! The manifest format as types, for editors: [`editor_schema`] is the JSON Schema of
//! `tools.yaml` that `docs/tools.schema.json` holds and `mcp-contract schema` prints.
//!
//! The build never reads these types. [`crate::manifest`] decodes a manifest keeping a span
//! on every value, and [`crate::validate`] checks the rules between values; the types here
//! describe the same format a second time, in the form schemars turns into a schema. So that
//! the two cannot drift apart unnoticed, the tests (`editor_schema/tests.rs`) feed manifests to both: every object
//! here must take exactly the keys the decoder reads and require exactly the keys the loader
//! reports missing, and the naming rules and closed lists of values must give the verdicts
//! the validator gives.
//!
//! Doc comments become the schema's descriptions, which editors show on hover and completion,
//! so they are written for the person editing `tools.yaml`.
//!
//! The schema checks what an editor can check while the author types: keys, value types,
//! required keys, naming rules and closed lists of values. Some rules stay with the build,
//! which reports them with a span and a fix:
//!
//! - that a named effect, sentence, error code, type or scope is declared, and that no two names
//!   give the same Rust name (`ident-collision`);
//! - that a shared type's name is unchanged by PascalCase conversion (`HTTPCode`) and is not
//!   one the generated module uses (`Tools`, `Dispatcher`, `ContractError`);
//! - that a constraint fits its `type`, bounds are in order, an example or default matches
//!   its schema, and an effect does not contradict itself;
//! - the grammar of `_meta` keys and of `{field}` placeholders in error templates.

// The types exist to be described (and, in the tests, to be deserialized): the build never
// reads their fields.
#![allow(dead_code)]

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::{Map, Number, Value};

use mcp_contract_spec::Hint;

/// The manifest keys of the hints, in [`Hint::ALL`] order, as the editor schema requires them.
pub(crate) const HINT_KEYS: [&str; 4] = [
    Hint::ReadOnly.key(),
    Hint::Destructive.key(),
    Hint::Idempotent.key(),
    Hint::OpenWorld.key(),
];

/// The title of the schema's root.
pub(crate) const TITLE: &str = "mcp-contract tools.yaml";

// The naming rules of `validate`, as ECMA-262 patterns. The tests hold each against
// the validator's own verdict on names at and just past its edges. Each name type also carries
// a `patternErrorMessage`, a keyword of VS Code's JSON and YAML language services that
// validators ignore, so that an editor states the rule instead of quoting the pattern.

/// A tool name: inside the MCP name grammar and the conformance suite's 64 characters.
const TOOL_NAME: &str = "^[a-z][a-z0-9_]{0,63}$";
/// A sentence name or an error code.
const SNAKE_CASE: &str = "^[a-z][a-z0-9_]*$";
/// A shared type's name. The build also refuses names that PascalCase conversion changes
/// (`HTTPCode`), a rule heck defines and no short pattern captures; this one never refuses a
/// name the build accepts.
const PASCAL_CASE: &str = "^[A-Z][A-Za-z0-9]*$";
/// A property name, published as written and turned into a snake_case Rust field.
const PROPERTY_NAME: &str = "^[A-Za-z][A-Za-z0-9_]*$";
/// An artifact kind.
const KIND_NAME: &str = "^[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)*$";
/// A group name.
const GROUP_NAME: &str = "^[a-z][a-z0-9_-]{0,63}$";
/// An HTTP header name: an RFC 9110 token.
const HEADER_NAME: &str = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
/// A calendar day, `YYYY-MM-DD`; the build refuses the days a month lacks too (`2027-02-30`).
const DAY: &str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";
/// Text that is not blank: the build trims it and refuses what is left empty.
const NOT_BLANK: &str = "\\S";
/// The MCP registry's server name.
const REGISTRY_NAME: &str = "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$";
/// An absolute `https://` URL.
const HTTPS_URL: &str = "^https://[^\\s/?#]+[^\\s]*$";
/// An icon size, as the validator's `is_size` reads it.
const ICON_SIZE: &str = "^(any|[1-9][0-9]*x[1-9][0-9]*)$";
/// A scope: an RFC 6749 scope token.
const SCOPE_TOKEN: &str = "^[!#-\\[\\]-~]+$";
/// A URL of `auth:`: `https://` with a host, or `http://` on a loopback host, with no
/// fragment. The build also checks that the rest is an RFC 3986 URI.
const AUTH_URL: &str = "^(https://[^\\s/?#@]+|http://(localhost|127(\\.[0-9]{1,3}){3}|\\[::1\\])(:[0-9]+)?)([/?][^\\s#]*)?$";
/// A crate name.
const CRATE_NAME: &str = "^[A-Za-z][A-Za-z0-9_-]{0,63}$";

/// The JSON Schema (2020-12) of `tools.yaml`, with no `$id`: editors bind it to a file by a
/// modeline or a setting, never by its address.
pub fn editor_schema() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .with_transform(RecursiveTransform(keys_are_never_null))
        .with_transform(RecursiveTransform(reflow_description))
        .into_generator()
        .into_root_schema_for::<Manifest>();
    // schemars adds `$schema`, the title and the description after the root's keywords; a
    // reader of the checked-in file looks for them on top.
    let Value::Object(mut rest) = schema.to_value() else {
        unreachable!("the root schema of a struct is an object");
    };
    let mut root = Map::new();
    for key in ["$schema", "title", "description"] {
        if let Some(value) = rest.shift_remove(key) {
            root.insert(key.to_owned(), value);
        }
    }
    root.append(&mut rest);
    Value::Object(root)
}

/// [`editor_schema`] as `docs/tools.schema.json` holds it and `mcp-contract schema` prints
/// it: pretty-printed, with a final newline.
pub fn editor_schema_text() -> String {
    let mut text =
        serde_json::to_string_pretty(&editor_schema()).expect("a JSON value always serializes");
    text.push('\n');
    text
}

/// Takes back the `null` schemars lets every `Option` field hold (serde reads null as
/// `None`): the decoder does not, and reads `title: ~` as a value of the wrong type. Only a
/// mapping of names keeps its null, which the decoder reads as empty (see [`Names`]).
fn keys_are_never_null(schema: &mut schemars::Schema) {
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for key in properties.values_mut() {
        let Value::Object(key) = key else { continue };
        if is_name_map(key) {
            continue;
        }
        // `Option<T>` gives `"type": [T, "null"]` when T's schema is a plain type…
        if let Some(Value::Array(types)) = key.get_mut("type") {
            types.retain(|t| t != "null");
            if let [only] = types.as_slice() {
                let only = only.clone();
                key.insert("type".into(), only);
            }
        }
        // …and `"anyOf": [T, {"type": "null"}]` when it is a reference or a choice.
        if let Some(Value::Array(branches)) = key.get_mut("anyOf") {
            branches.retain(|b| b.get("type").is_none_or(|t| t != "null"));
            if let [Value::Object(only)] = branches.as_mut_slice() {
                let only = std::mem::take(only);
                key.shift_remove("anyOf");
                // The field's own description and keywords win over its type's.
                for (k, v) in only {
                    key.entry(k).or_insert(v);
                }
            }
        }
    }
}

/// Whether a schema is that of a [`Names`] mapping: an object whose extra keys are allowed.
fn is_name_map(schema: &Map<String, Value>) -> bool {
    schema
        .get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false))
}

/// Doc comments are wrapped to fit the source; editors wrap descriptions themselves, so lines
/// are joined within a paragraph.
fn reflow_description(schema: &mut schemars::Schema) {
    if let Some(Value::String(text)) = schema.get_mut("description") {
        *text = text
            .split("\n\n")
            .map(|paragraph| paragraph.replace('\n', " "))
            .collect::<Vec<_>>()
            .join("\n\n");
    }
}

/// A `tools.yaml` manifest: one MCP server and every tool it publishes. `cargo build`
/// generates the server's Rust code, schemas and docs from it and reports every problem at
/// once; `mcp-contract check tools.yaml` runs the same checks without building.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = TITLE)]
pub(crate) struct Manifest {
    /// The server's identity, sent to clients at initialization, and its `tools/list` cache
    /// hint.
    pub server: Server,
    /// Which hints read-only tools publish: `all` (the default), `minimal`, or
    /// `{omit_on_read_only: [idempotent]}`. Every tool still decides all four hints.
    pub hint_policy: Option<HintPolicy>,
    /// Named sets of the four hints. A tool takes one with `effect: NAME`, so hints are
    /// decided once per kind of tool.
    #[serde(default)]
    pub effects: Names<String, Effect>,
    /// Sentences that must appear word for word in the description of each tool that lists
    /// them under `sentences:`; appended when the description lacks them. The key is the
    /// sentence's snake_case name, the value its exact text.
    #[serde(default)]
    pub sentences: Names<SentenceName, NonBlank>,
    /// The error vocabulary: every error a handler may return, keyed by the snake_case code
    /// published as `errors[].code`. A tool lists the codes it returns under its `errors:`.
    #[serde(default)]
    pub errors: Names<ErrorCode, ErrorDef>,
    /// The codes of the argument envelope, when a server keeps a vocabulary its clients
    /// already know: by default `argument_missing`, `argument_invalid` and `argument_unknown`.
    /// Whatever they are, the vocabulary may not declare them.
    pub argument_codes: Option<ArgumentCodes>,
    /// Shared types: schemas with a PascalCase name, usable as `type: Name` wherever a type is
    /// expected, and inlined in every published schema that uses them.
    #[serde(default)]
    pub types: Names<TypeName, Schema>,
    /// The tools, in the order `tools/list` publishes them and the generated trait declares
    /// their methods.
    pub tools: Vec<Tool>,
    /// The artifact vocabulary: kinds beyond the standard `workspace.directory`,
    /// and the `_meta` key the artifact contract is published under.
    pub artifacts: Option<ArtifactSettings>,
    /// Where the composition contract of complete operations is published.
    pub composition: Option<CompositionSettings>,
    /// Tool groups, by name: the HTTP host serves each at `/mcp/NAME`. Once groups exist,
    /// every tool lists the groups it belongs to.
    #[serde(default)]
    pub groups: Names<GroupName, Group>,
    /// Resources: each with a fixed `uri` or a level-1 `uri_template`, served through a
    /// generated handler method `NAME_resource`.
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// Prompts, in the order `prompts/list` publishes them: each served through a generated
    /// handler method `NAME_prompt` that gets a typed arguments struct.
    #[serde(default)]
    pub prompts: Vec<Prompt>,
    /// Who may call what: this server as an OAuth resource server, and the scopes that
    /// groups, tools, resources and prompts require under their `scopes:`. Over HTTP with
    /// authorization, a caller sees and calls only what its token's scopes allow.
    pub auth: Option<Auth>,
}

/// `auth:` the resource identifier, the authorization servers and the scopes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Auth {
    /// This server's resource identifier (RFC 8707), the audience its tokens must name: an
    /// absolute `https://` URL without a fragment (`http://` on a loopback host only). Left
    /// out, the deployment gives it.
    pub resource: Option<AuthUrl>,
    /// The authorization servers (their issuer URLs) that issue tokens for this server,
    /// published in its protected resource metadata. Left out, the deployment gives them.
    pub authorization_servers: Option<OneOrMany<AuthUrl>>,
    /// The scopes, by name as tokens carry them (`files:read`), each with what it grants;
    /// at least one.
    #[schemars(extend("minProperties" = 1))]
    pub scopes: Names<ScopeName, Scope>,
}

/// A declared scope.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Scope {
    /// What a token with this scope may do, for people (the docs list it).
    pub description: NonBlank,
}

/// A scope's name: printable ASCII without space, `"` or `\`, such as `files:read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a scope is one or more printable ASCII characters other than space, `\"` and `\\`"))]
pub(crate) struct ScopeName(#[schemars(pattern(SCOPE_TOKEN))] pub String);

/// A URL of `auth:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "an absolute `https://` URL without a fragment; `http://` only on a loopback host"))]
pub(crate) struct AuthUrl(#[schemars(pattern(AUTH_URL))] pub String);

/// A prompt: messages a client offers its user, made by a handler from string arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Prompt {
    /// The published name, snake_case like a tool's; the handler method is `NAME_prompt`.
    pub name: ToolName,
    /// The title for people.
    pub title: NonBlank,
    /// What the prompt is for. The pinned sentences listed under `sentences:` are appended
    /// to it when it lacks them.
    pub description: NonBlank,
    /// Names of pinned sentences, from the top-level `sentences:`, that the published
    /// description must carry.
    pub sentences: Option<OneOrMany<SentenceName>>,
    /// Icons a client may show beside the prompt.
    pub icons: Option<Vec<Icon>>,
    /// The arguments, by name, in published order; each a string. A required one is a
    /// `String` of the arguments struct, any other an `Option<String>`.
    #[serde(default)]
    pub arguments: Names<PropertyName, PromptArgument>,
    /// The scopes, from `auth.scopes`, a caller needs to list and get the prompt.
    pub scopes: Option<OneOrMany<ScopeName>>,
    /// The questions the prompt may ask the user while it is made (elicitation), by id, as
    /// a tool's: each generates a typed struct for its answer, named after its id, with `ask`.
    #[serde(default)]
    pub asks: Names<QuestionId, Question>,
    /// The version of the server the prompt appeared in.
    pub since: Option<Version>,
    /// The prompt is on its way out: its published description ends with a sentence saying
    /// so and naming its replacement.
    pub deprecated: Option<Deprecated<ToolName>>,
    /// Former names of the prompt, answered as the prompt and never listed.
    pub aliases: Option<OneOrMany<Alias<ToolName>>>,
}

/// An argument of a prompt.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PromptArgument {
    /// What the argument holds.
    pub description: NonBlank,
    /// Whether `prompts/get` needs it; `false` when left out.
    pub required: Option<bool>,
    /// How `completion/complete` suggests its values.
    pub completion: Option<Completion>,
}

/// How `completion/complete` suggests values: a fixed list (filtered by the prefix typed),
/// or `handler`, a generated method `complete_OWNER_ARGUMENT` that gets the partial value and
/// the arguments already given.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Completion {
    /// The values, each once.
    Values(#[schemars(length(min = 1))] Vec<String>),
    /// A handler method answers.
    Handler(HandlerCompletion),
}

/// `completion: handler`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HandlerCompletion {
    /// A generated handler method.
    Handler,
}

/// `artifacts:` at the top level.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArtifactSettings {
    /// Where the artifact contract is published: one `_meta` key, or a key path (the `_meta`
    /// key, then keys of nested objects: `[gnougo, artifacts]` is `_meta.gnougo.artifacts`);
    /// `io.github.mcp-contract/artifacts` when left out.
    pub meta_key: Option<KeyPath>,
    /// Artifact kinds, each with what it stands for, such as `workspace.file: A
    /// workspace-relative file.`
    #[serde(default)]
    pub kinds: Names<KindName, NonBlank>,
}

/// `composition:` at the top level.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CompositionSettings {
    /// Where the composition contract is published: one `_meta` key, or a key path, which
    /// may share its parent with the artifacts path (`[gnougo, composition]`);
    /// `io.github.mcp-contract/composition` when left out.
    pub meta_key: Option<KeyPath>,
}

/// A tool group.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Group {
    /// What the group's tools are for.
    pub description: NonBlank,
    /// The scopes, from `auth.scopes`, a caller needs for the group's route `/mcp/NAME` and
    /// for its tools (a tool in several groups needs those of one of them).
    pub scopes: Option<OneOrMany<ScopeName>>,
}

/// A resource: `uri` or `uri_template`, not both.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{ "required": ["uri"] }, { "required": ["uri_template"] }]))]
pub(crate) struct Resource {
    /// The programmatic name, snake_case; the handler method is `NAME_resource`.
    pub name: SentenceName,
    /// A fixed URI with a scheme, such as `workspace:///README.md`.
    pub uri: Option<String>,
    /// A level-1 URI template: `{name}` variables, each one path segment (percent-decoded
    /// before the handler sees it), such as `workspace:///files/{path}`.
    pub uri_template: Option<String>,
    /// The title for people.
    pub title: NonBlank,
    /// What the resource holds.
    pub description: NonBlank,
    /// Its MIME type, such as `text/plain`.
    pub mime_type: NonBlank,
    /// Whether clients may subscribe to the resource's changes (`resources/subscribe`, MCP
    /// 2025-11-25); the server announces them with `Server::resource_updated`. Default false.
    pub subscribe: Option<bool>,
    /// How `completion/complete` suggests each template variable's values, by variable.
    #[serde(default)]
    pub completion: Names<String, Completion>,
    /// Icons a client may show beside the resource.
    pub icons: Option<Vec<Icon>>,
    /// The scopes, from `auth.scopes`, a caller needs to list and read the resource.
    pub scopes: Option<OneOrMany<ScopeName>>,
    /// The questions a read may ask the user (elicitation), by id, as a tool's: each
    /// generates a typed struct for its answer, named after its id, with `ask`.
    #[serde(default)]
    pub asks: Names<QuestionId, Question>,
    /// The version of the server the resource appeared in.
    pub since: Option<Version>,
    /// The resource is on its way out: its published description ends with a sentence
    /// saying so and naming its replacement, by name.
    pub deprecated: Option<Deprecated<ToolName>>,
    /// Former URIs of a fixed resource, read as the resource and never listed.
    pub aliases: Option<OneOrMany<Alias<String>>>,
    /// An MCP App: the HTML a host shows in a sandboxed frame, served by the runtime with
    /// no handler. The resource's `uri` starts with `ui://` and its `mime_type` is
    /// `text/html;profile=mcp-app`.
    pub app: Option<ResourceApp>,
}

/// A resource's `app:`: its HTML, `file` or `html`, and what the host's frame allows.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResourceApp {
    /// An HTML document relative to the manifest, such as `apps/board.html`, embedded at
    /// build time; the URI a host sees carries its version. The build reruns when it changes.
    pub file: Option<String>,
    /// The HTML document itself, starting with `<!DOCTYPE html>`.
    pub html: Option<String>,
    /// The origins the frame may reach, by CSP directive.
    pub csp: Option<AppCsp>,
    /// The browser features the frame asks for.
    pub permissions: Option<OneOrMany<AppPermission>>,
    /// Whether the host should draw a border and background around the frame; left out, the
    /// host decides.
    pub prefers_border: Option<bool>,
    /// The frame's dedicated origin, in the format of the host that needs one.
    pub domain: Option<NonBlank>,
}

/// An app's `csp:`: origins (`https://api.example.com`, `https://*.example.com`), each list
/// empty or left out for none.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AppCsp {
    /// Origins for fetch, XHR and WebSocket (`connect-src`).
    pub connect_domains: Option<OneOrMany<String>>,
    /// Origins for scripts, images, styles, fonts and media.
    pub resource_domains: Option<OneOrMany<String>>,
    /// Origins for nested frames (`frame-src`).
    pub frame_domains: Option<OneOrMany<String>>,
    /// Origins the document's `<base>` may name (`base-uri`).
    pub base_uri_domains: Option<OneOrMany<String>>,
}

/// A browser feature an app may ask for.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AppPermission {
    /// The camera.
    Camera,
    /// The microphone.
    Microphone,
    /// The position.
    Geolocation,
    /// Writing to the clipboard.
    ClipboardWrite,
}

/// A tool's `app:`: the app it opens and who may call it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToolApp {
    /// The `uri` of a resource with `app:`, such as `ui://weather/dashboard`.
    pub resource: String,
    /// `model`: the agent may call it; `app`: the app may. Left out: both.
    pub visibility: Option<OneOrMany<AppVisibility>>,
    /// Not here: CSP belongs to the app's resource, where hosts read it.
    #[serde(default)]
    #[schemars(schema_with = "on_the_resource")]
    pub csp: Option<serde::de::IgnoredAny>,
    /// Not here: permissions belong to the app's resource.
    #[serde(default)]
    #[schemars(schema_with = "on_the_resource")]
    pub permissions: Option<serde::de::IgnoredAny>,
    /// Not here: it belongs to the app's resource.
    #[serde(default)]
    #[schemars(schema_with = "on_the_resource")]
    pub prefers_border: Option<serde::de::IgnoredAny>,
    /// Not here: it belongs to the app's resource.
    #[serde(default)]
    #[schemars(schema_with = "on_the_resource")]
    pub domain: Option<serde::de::IgnoredAny>,
    /// Not here: the HTML belongs to the app's resource.
    #[serde(default)]
    #[schemars(schema_with = "on_the_resource")]
    pub file: Option<serde::de::IgnoredAny>,
}

/// A key of a resource's `app:` written on a tool's: never valid (`app-settings-on-tool`).
fn on_the_resource(_: &mut SchemaGenerator) -> schemars::Schema {
    json_schema!({"not": {}, "description": "Belongs to the `app:` of the `ui://` resource, where hosts read it."})
}

/// Who may call a tool that has an app.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AppVisibility {
    /// The agent: hosts list the tool to the model.
    Model,
    /// The app: its frame may call the tool on this server.
    App,
}

/// A tool's `artifacts:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToolArtifacts {
    /// Artifacts found in the structured output.
    pub produces: Option<Vec<Produced>>,
    /// Artifacts taken from the arguments.
    pub consumes: Option<Vec<Consumed>>,
}

/// An artifact the tool materializes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Produced {
    /// A kind: `workspace.directory` or one of `artifacts.kinds`.
    pub kind: String,
    /// A JSON pointer into the structured output, such as `/path`; array items are `/ids/0`.
    pub pointer: String,
    /// `materialize`, the only mode and the default.
    pub mode: Option<Mode>,
    /// `json_array`: the string field holds an exact JSON array.
    pub encoding: Option<Encoding>,
}

/// An artifact the tool takes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Consumed {
    /// A kind: `workspace.directory` or one of `artifacts.kinds`.
    pub kind: String,
    /// A JSON pointer into the arguments, such as `/path`.
    pub pointer: String,
    /// Whether the tool needs the artifact; `false` when left out.
    pub required: Option<bool>,
}

/// The artifact modes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Mode {
    /// The tool creates the artifact.
    Materialize,
}

/// The artifact encodings.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Encoding {
    /// A string field holding an exact JSON array.
    JsonArray,
}

/// An artifact kind: dot-separated lowercase words, such as `workspace.file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a kind is dot-separated lowercase words, such as `workspace.file`"))]
pub(crate) struct KindName(#[schemars(pattern(KIND_NAME))] pub String);

/// A group's name, also its HTTP route.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a group name is a lowercase letter, then up to 63 lowercase letters, digits, `_` or `-`"))]
pub(crate) struct GroupName(#[schemars(pattern(GROUP_NAME))] pub String);

/// The server's identity and its `tools/list` cache hint.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Server {
    /// `serverInfo.name`: the server's name for programs, such as `my-server`.
    pub name: NonBlank,
    /// `serverInfo.title`: the server's name for people.
    pub title: Option<String>,
    /// `serverInfo.version`, published exactly as written: `version: 1.10` is `"1.10"`. When
    /// left out, the version of the crate that includes the generated module.
    pub version: Option<Version>,
    /// Instructions for the model, sent in the `initialize` result (MCP 2025-11-25) and the
    /// `server/discover` result (2026-07-28).
    pub instructions: Option<String>,
    /// The `tools/list` cache hint of MCP 2026-07-28: how long, and for whom, a client may
    /// reuse the tool list. No effect on clients of 2025-11-25.
    pub cache: Option<Cache>,
    /// How the server is published: what the MCP registry's `server.json`, an MCPB bundle's
    /// `manifest.json` and the client configurations say (written by
    /// `Builder::distribution`).
    pub distribution: Option<Distribution>,
    /// Whether the handlers log to clients (`notifications/message`): the `logging`
    /// capability and `logging/setLevel` (2025-11-25). Default false.
    pub logging: Option<bool>,
    /// Whether the tools, prompts and resources lists may change while the server runs
    /// (`mcp_contract::Lists`): `listChanged` on their capabilities, cache hints no longer
    /// than 5 s. Default false.
    pub list_changed: Option<bool>,
    /// `serverInfo.icons`: icons a client may show for the server.
    pub icons: Option<Vec<Icon>>,
    /// How schemas publish the shared types of `types:` they use: `inline` (the default)
    /// copies a type wherever it is used; `defs` publishes an object or enum type once under
    /// the schema's `$defs` and refers to it with `$ref`, which not every client resolves.
    pub shared_types: Option<SharedTypes>,
    /// The clients whose known limits the build checks the contract against, as warnings
    /// (`strict`: as errors): `claude`, `copilot`, `gemini`, `openai`, `portable` (all of
    /// them), `strict`.
    pub profiles: Option<OneOrMany<ProfileName>>,
}

/// How schemas publish shared types.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SharedTypes {
    /// Copied into every place that uses it.
    Inline,
    /// Published once under `$defs`, each use a `$ref`.
    Defs,
}

/// A portability profile.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ProfileName {
    /// Claude Code, Claude Desktop, the Anthropic API.
    Claude,
    /// GitHub Copilot in VS Code.
    Copilot,
    /// Gemini CLI, the Gemini API.
    Gemini,
    /// The OpenAI API with strict schemas.
    Openai,
    /// Every client above.
    Portable,
    /// Every lint an error (alone: `portable` as errors).
    Strict,
}

/// `distribution:` the server's identity in registries and bundles.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Distribution {
    /// The MCP registry name, `namespace/name`: `io.github.YOUR-ACCOUNT/NAME` for a GitHub
    /// namespace, or `com.example/NAME` for a domain you own.
    #[schemars(pattern(REGISTRY_NAME), length(min = 3, max = 200))]
    pub registry_name: String,
    /// One line for people browsing a registry, at most 100 characters.
    #[schemars(length(min = 1, max = 100))]
    pub description: NonBlank,
    /// Who publishes the server.
    pub author: NonBlank,
    /// The source repository's `https://` URL.
    #[schemars(pattern(HTTPS_URL))]
    pub repository: Option<String>,
    /// The crate clients install with `cargo install`, which is also its binary's name; the
    /// server name when left out.
    #[schemars(pattern(CRATE_NAME))]
    pub package: Option<String>,
    /// The `https://` URL of a deployment served over streamable HTTP.
    #[schemars(pattern(HTTPS_URL))]
    pub remote: Option<String>,
}

/// A version: text, or a plain number taken as written.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Version {
    /// Such as `2.1.0`.
    Text(String),
    /// Such as `1.10`, published as the string `"1.10"`.
    Number(Number),
}

/// `argument_codes:` each kind of argument error's code, each optional.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArgumentCodes {
    /// For a required argument that was not given (default `argument_missing`).
    pub missing: Option<ErrorCode>,
    /// For an argument of the wrong type or outside its constraints (default
    /// `argument_invalid`).
    pub invalid: Option<ErrorCode>,
    /// For an argument the tool does not take (default `argument_unknown`).
    pub unknown: Option<ErrorCode>,
}

/// `cache: {ttl_ms, scope}`, both required.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cache {
    /// How long a client may reuse the tool list, in milliseconds. Published as `ttlMs`.
    pub ttl_ms: Count,
    /// Whether the list is the same for every caller. Published as `cacheScope`.
    pub scope: CacheScope,
}

/// Who a cached tool list is good for.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CacheScope {
    /// The list is the same for every caller.
    Public,
    /// The list may differ between callers.
    Private,
}

/// Which of the four hints read-only tools publish; tools that are not read-only always
/// publish all four.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum HintPolicy {
    /// A named policy.
    Preset(HintPreset),
    /// The hints to leave out, listed.
    Omit(OmitOnReadOnly),
}

/// The named hint policies.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HintPreset {
    /// Every tool publishes all four hints: hosts that read a hint find it set.
    All,
    /// Read-only tools leave out `destructiveHint` and `idempotentHint`, which the
    /// specification reads only for tools that are not read-only. The same as
    /// `{omit_on_read_only: [destructive, idempotent]}`.
    Minimal,
}

/// `{omit_on_read_only: [...]}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OmitOnReadOnly {
    /// The hints read-only tools leave out: `destructive`, `idempotent`, or both.
    pub omit_on_read_only: OneOrMany<OmissibleHint>,
}

/// A hint the specification gives no meaning on a read-only tool.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OmissibleHint {
    /// `destructiveHint`.
    Destructive,
    /// `idempotentHint`.
    Idempotent,
}

/// The four MCP tool hints. Hosts may read them to decide what needs approval; they are
/// advisory and never replace it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Hints {
    /// `readOnlyHint`: the tool changes nothing.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may delete or overwrite data. Cannot be `true` on a
    /// read-only tool.
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it again with the same arguments changes nothing more.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool reaches beyond a closed set of data, such as the web.
    pub open_world: Option<bool>,
}

/// A named effect: a value for each of the four hints.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
#[schemars(extend("required" = HINT_KEYS))]
pub(crate) struct Effect(pub Hints);

/// An entry of the error vocabulary. Templates take `{field}` placeholders, snake_case names
/// in braces that become the fields of the generated error variant; `{{` and `}}` are
/// literal braces.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ErrorDef {
    /// The message template: what went wrong, such as ``"Nothing exists at `{path}`."``.
    pub message: NonBlank,
    /// The hint template: what the caller should do next, ideally naming the call that finds
    /// a valid value.
    pub hint: Option<String>,
    /// `true` when the error concerns one argument of the call: the handler names it (a
    /// variant of the tool's generated `{Prefix}Argument`), and the error envelope carries it
    /// as `argument`, as it does for argument errors. A tool that lists the error must take
    /// arguments; no placeholder may be `{argument}`.
    pub argument: Option<bool>,
    /// What the placeholders hold, by name; one not listed is a `string`. Each becomes a
    /// field of that type (an `integer`'s sized by its bounds, as a parameter's is). A
    /// placeholder named like a parameter of a tool that lists the error holds the
    /// parameter's type.
    pub placeholders: Option<Names<PlaceholderName, PlaceholderType>>,
}

/// A placeholder of an error's templates, snake_case, as written in braces.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a placeholder is snake_case: a lowercase letter, then lowercase letters, digits or `_`"))]
pub(crate) struct PlaceholderName(#[schemars(pattern(SNAKE_CASE))] pub String);

/// What a placeholder holds: a type's name, or the type with an integer's bounds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum PlaceholderType {
    /// `string`, `integer`, `number` or `boolean`.
    Name(PlaceholderTypeName),
    /// `{type: integer, minimum: 0}`.
    Bounded(BoundedPlaceholder),
}

/// The types a placeholder may hold.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum PlaceholderTypeName {
    /// A `String`.
    String,
    /// The narrowest Rust integer that holds both bounds; `u64` under `minimum: 0` or more
    /// without a `maximum`, else `i64`.
    Integer,
    /// An `f64`.
    Number,
    /// A `bool`.
    Boolean,
}

/// A placeholder's type as a mapping; only an `integer` takes bounds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoundedPlaceholder {
    /// The type.
    #[serde(rename = "type")]
    pub ty: PlaceholderTypeName,
    /// The smallest value; with `maximum`, it chooses an integer's Rust type.
    pub minimum: Option<Number>,
    /// The largest value.
    pub maximum: Option<Number>,
}

/// One tool of the server. Its hints come from `effect:`, from `hints:`, or from both, and
/// all four must be decided.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// A named effect decides all four hints (`Effect` requires them), so `hints:` may override
// any of them; without an effect, `hints:` must decide all four itself.
#[schemars(extend("anyOf" = [
    { "required": ["effect"] },
    { "required": ["hints"], "properties": { "hints": { "required": HINT_KEYS } } },
]))]
pub(crate) struct Tool {
    /// The published name, unique in the manifest: a lowercase letter, then up to 63
    /// lowercase letters, digits or `_`. It also names the handler method.
    pub name: ToolName,
    /// A short title for people, unique in the manifest. Published as `title` and
    /// `annotations.title`.
    pub title: NonBlank,
    /// What the tool does and when to use it, written for the model. The pinned sentences
    /// listed under `sentences:` are appended to it when it lacks them.
    pub description: NonBlank,
    /// Names of pinned sentences, from the top-level `sentences:`, that the published
    /// description must carry.
    pub sentences: Option<OneOrMany<SentenceName>>,
    /// The name of an effect, from the top-level `effects:`, giving the tool's four hints.
    pub effect: Option<String>,
    /// Hints that override the effect's; without `effect:`, all four.
    pub hints: Option<Hints>,
    /// Why the hints are what they are, for reviewers: rendered under the tool in the
    /// generated docs, never published to clients.
    pub why: Option<NonBlank>,
    /// The arguments, by name, in published order. Left out or empty, the tool takes no
    /// arguments.
    #[serde(default)]
    pub parameters: Names<PropertyName, Parameter>,
    /// In place of `parameters`: the whole `inputSchema` as a JSON Schema 2020-12 document,
    /// published exactly as written (a mapping, or the path of a JSON file beside the
    /// manifest); its root says `type: object` and `additionalProperties: false`. The
    /// handler receives the arguments as a `serde_json::Value`.
    pub input_schema: Option<Value>,
    /// What a successful call returns: `text`, or a mapping with the structured output's
    /// `properties`, the `content` blocks it answers with, or both.
    pub output: Output,
    /// The codes, from the top-level `errors:`, that the tool may return. Only these become
    /// variants of its generated error enum.
    pub errors: Option<OneOrMany<ErrorCode>>,
    /// Static entries published as the tool's `_meta`. Keys follow the MCP grammar, such as
    /// `com.example/category`; values are any YAML.
    #[serde(default, rename = "_meta")]
    pub meta: Names<String, Value>,
    /// The groups, from the top-level `groups:`, the tool is served in over HTTP.
    pub groups: Option<OneOrMany<GroupName>>,
    /// The artifacts the tool produces and consumes; each pointer must resolve in its own
    /// schemas.
    pub artifacts: Option<ToolArtifacts>,
    /// Makes the tool a complete operation encapsulating these same-server tools, which a
    /// planner then prefers it over. No self-reference, no cycles.
    pub complete_operation: Option<OneOrMany<ToolName>>,
    /// Icons a client may show beside the tool.
    pub icons: Option<Vec<Icon>>,
    /// The scopes, from `auth.scopes`, a caller needs to list and call the tool, besides
    /// those of one of its groups.
    pub scopes: Option<OneOrMany<ScopeName>>,
    /// The questions the tool may ask the user while it runs (elicitation), by id: each a
    /// form of primitive fields, or a URL for sensitive data. Each generates a typed struct
    /// for its answer, named after its id, with `ask`.
    #[serde(default)]
    pub asks: Names<QuestionId, Question>,
    /// Whether the tool runs long: `optional`, its calls become tasks (status, cancellation,
    /// result retrieval) for clients that opted in to the tasks extension and are normal
    /// calls elsewhere; `required`, only as tasks. Left out, never a task.
    pub task: Option<TaskMode>,
    /// The MCP App the tool opens (its `_meta.ui`), and who may call it.
    pub app: Option<ToolApp>,
    /// The version of the server the tool appeared in, published in its `_meta` under
    /// `io.github.mcp-contract/lifecycle`.
    pub since: Option<Version>,
    /// The tool is on its way out: its published description ends with a sentence saying so
    /// and naming its replacement, and its `_meta` says `deprecated`.
    pub deprecated: Option<Deprecated<ToolName>>,
    /// Former names of the tool, answered by the same handler and left out of `tools/list`
    /// (`Server::list_aliases` lists them, marked deprecated); each call through one is
    /// logged. No other tool's name or alias.
    pub aliases: Option<OneOrMany<Alias<ToolName>>>,
}

/// `deprecated:` why an entry is on its way out, what replaces it and until when it is kept.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Deprecated<N> {
    /// The version it was deprecated in.
    pub since: Option<Version>,
    /// Why, for the people and models that read the description.
    pub reason: NonBlank,
    /// The entry of the same kind to use instead, by name; it must not be deprecated.
    pub replaced_by: Option<N>,
    /// The day after which it may be removed, `YYYY-MM-DD`. Past it the build warns (fails
    /// in check mode), and `mcp-contract diff` accepts its removal.
    pub remove_after: Option<Day>,
}

/// An entry of `aliases:`: a former name, or one with the day after which it may go.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Alias<N> {
    /// A former name, kept until the entry itself goes.
    Name(N),
    /// A former name and the end of its window.
    Dated(DatedAlias<N>),
}

/// `{name, remove_after}`: a former name, and the day after which it may be removed (the
/// build then warns, and `mcp-contract diff` accepts its removal).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DatedAlias<N> {
    /// The former name.
    pub name: N,
    /// The day after which it may be removed, `YYYY-MM-DD`.
    pub remove_after: Option<Day>,
}

/// A calendar day, `YYYY-MM-DD`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a day is written `YYYY-MM-DD`, such as `2027-06-30`"))]
pub(crate) struct Day(#[schemars(pattern(DAY))] pub String);

/// Whether a tool's calls may run as tasks.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TaskMode {
    /// A task where the client opted in; a normal call elsewhere.
    Optional,
    /// Only as a task; a client that did not opt in is refused.
    Required,
}

/// A question's id: snake_case, unique across the manifest; its PascalCase names the
/// generated struct.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a question id is snake_case: a lowercase letter, then up to 63 lowercase letters, digits or `_`"))]
pub(crate) struct QuestionId(#[schemars(pattern(TOOL_NAME))] pub String);

/// A question a tool may ask: a form the user fills in the client, or (`mode: url`) a page
/// of the server's that the handler names at run time.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("not" = { "required": ["fields", "mode"], "properties": { "mode": { "const": "url" } } }))]
pub(crate) struct Question {
    /// What the user is asked. `{name}` placeholders, as in error templates, become
    /// arguments of the generated `ask`.
    pub message: NonBlank,
    /// `form` (the default) or `url`. Sensitive data (passwords, keys, payment) must go by
    /// URL: a form's answer passes through the client.
    pub mode: Option<QuestionMode>,
    /// The form's fields, by name: flat primitives only. Left out, a form with no field
    /// (accept or decline).
    pub fields: Option<Names<PropertyName, FormField>>,
}

/// How a question is answered.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum QuestionMode {
    /// A form in the client.
    Form,
    /// A page the handler gives the URL of.
    Url,
}

/// An icon: an `https:` URL (`src`), or an image file in the crate (`file`), which the build
/// checks by its bytes and publishes as a `data:` URI. Write one of the two.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Icon {
    /// The image's `https://` URL, published as written.
    #[schemars(pattern(HTTPS_URL))]
    pub src: Option<String>,
    /// An image file relative to the manifest, such as `icons/tool.png`: PNG, JPEG, SVG or
    /// WebP, at most 32 KiB, its type read from its bytes. The build reruns when it changes.
    pub file: Option<String>,
    /// `image/png`, `image/jpeg`, `image/svg+xml` or `image/webp`; for a file, its bytes'
    /// type when left out, and it must match them.
    pub mime_type: Option<String>,
    /// The sizes the image is drawn for: `WxH` in pixels, such as `48x48`, or `any` for an
    /// image that scales. Left out: any size.
    pub sizes: Option<OneOrMany<IconSize>>,
    /// The background the icon is drawn for. Left out: any.
    pub theme: Option<IconTheme>,
}

/// `WxH` in whole pixels, or `any`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(transparent)]
pub(crate) struct IconSize(#[schemars(pattern(ICON_SIZE))] pub String);

/// The background an icon is drawn for.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}

/// What a successful call returns.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Output {
    /// `text`: the handler returns a `String`, sent as one text block, and the tool publishes
    /// no `outputSchema`.
    Text(TextOutput),
    /// A mapping. With `properties`, the handler returns the generated `{Tool}Output` struct,
    /// sent as `structuredContent`, and the tool publishes an `outputSchema`; with `content`,
    /// it returns the generated `{Tool}Content` blocks (beside the struct, with both).
    Object(ObjectOutput),
}

/// `output: text`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TextOutput {
    /// Plain text.
    Text,
}

/// A structured output, declared content, or both. Its fields follow the rules of
/// parameters, except that they need no example and take no default.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// `properties` may be left out for `content` alone (a `type` or `description` describes the
// structured output, which needs its fields) or for a `json_schema` document.
#[schemars(extend(
    "if" = { "anyOf": [
        { "required": ["json_schema"] },
        { "required": ["content"], "not": { "anyOf": [{ "required": ["type"] }, { "required": ["description"] }] } },
    ] },
    "else" = { "required": ["properties"] }
))]
pub(crate) struct ObjectOutput {
    /// Can be left out: a structured output is always an object.
    #[serde(rename = "type")]
    pub ty: Option<ObjectType>,
    /// Published as the `outputSchema`'s description.
    pub description: Option<String>,
    /// The output's fields, by name, in published order. Required unless `content` is given.
    pub properties: Option<Names<PropertyName, Property>>,
    /// The kinds of content block the tool answers with, each once: any number of blocks of
    /// each, in the handler's order. Not published: `tools/list` has no place for it.
    #[schemars(length(min = 1))]
    pub content: Option<Vec<ContentBlock>>,
    /// In place of `properties`: the whole `outputSchema` as a JSON Schema 2020-12 document,
    /// published exactly as written (a mapping, or the path of a JSON file beside the
    /// manifest), its root `type: object`. The handler returns a `serde_json::Value`.
    pub json_schema: Option<Value>,
}

/// A kind of content block a tool answers with.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ContentBlock {
    /// The kind, as the block's `type` on the wire.
    pub kind: ContentKindName,
    /// Required for `image` (each `image/…`), `audio` (each `audio/…`) and `resource`; not
    /// allowed for `text` and `resource_link`. With one, the handler gives none; with several,
    /// it names one of them per block, checked before the result is sent.
    #[schemars(length(min = 1))]
    pub mime_types: Option<Vec<MimeType>>,
}

/// The kinds of MCP content block.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ContentKindName {
    /// A text block: the handler gives a `String`.
    Text,
    /// An image: bytes or base64, with its MIME type.
    Image,
    /// Audio: bytes or base64, with its MIME type.
    Audio,
    /// An embedded resource: a URI with text or bytes.
    Resource,
    /// A link to a resource: an `mcp_contract::ResourceLink`.
    ResourceLink,
}

/// A MIME type, `type/subtype`, optionally with parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
#[schemars(extend("pattern" = "^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+( *;.*)?$"))]
pub(crate) struct MimeType(pub String);

/// The type of a structured output.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ObjectType {
    /// A JSON object, the only root MCP accepts for structured content.
    Object,
}

/// A tool parameter. Models copy examples, so every parameter has an `example` or
/// `examples`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
#[schemars(extend("anyOf" = [{ "required": ["example"] }, { "required": ["examples"] }, { "required": ["json_schema"] }]))]
pub(crate) struct Parameter(pub Property);

/// Declares a struct with the keys every schema takes, after the struct's own fields, so that
/// [`Property`] and [`Schema`] read one list, as the decoder's `schema` function does.
macro_rules! with_schema_keys {
    (
        $(#[$meta:meta])*
        pub(crate) struct $name:ident {
            $( $(#[$field_meta:meta])* pub(crate) $field:ident: $ty:ty, )*
        }
    ) => {
        // The derive comes first: it introduces the `schemars` attributes `$meta` may hold.
        #[derive(Debug, Deserialize, JsonSchema)]
        $(#[$meta])*
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        #[schemars(extend("not" = { "required": ["example", "examples"] }))]
        pub(crate) struct $name {
            /// The value's type: `string`, `integer`, `number`, `boolean`, `array` (with
            /// `items`), `object` (with `properties`), or a shared type's name from `types:`.
            /// Required unless `json_schema` gives the whole schema.
            #[serde(rename = "type")]
            pub(crate) ty: Option<TypeRef>,
            $( $(#[$field_meta])* pub(crate) $field: $ty, )*
            /// One example value, published under `examples`. Write `example` or `examples`,
            /// not both. Each example must match the schema.
            pub example: Option<Value>,
            /// Example values, published as written. For an array, `examples: [[a], [a, b]]`
            /// is two examples.
            pub examples: Option<Vec<Value>>,
            /// The allowed values of a `string`, at least one. Generates a Rust enum.
            #[serde(rename = "enum")]
            #[schemars(extend("minItems" = 1))]
            pub enum_values: Option<OneOrMany<String>>,
            /// The schema of an `array`'s items (required with `type: array`). Takes the keys
            /// of a schema, but not `required` or `default`.
            pub items: Option<Box<Schema>>,
            /// The fields of an `object` (required with `type: object`), by name, in
            /// published order.
            pub properties: Option<Names<PropertyName, Property>>,
            /// The shortest a `string` may be, in characters.
            pub min_length: Option<Count>,
            /// The longest a `string` may be, in characters.
            pub max_length: Option<Count>,
            /// An ECMA-262 regular expression a `string` must match, such as
            /// `"^[a-z][a-z0-9-]*$"`.
            #[schemars(extend("format" = "regex"))]
            pub pattern: Option<String>,
            /// A JSON Schema 2020-12 format a `string` follows.
            pub format: Option<Format>,
            /// The smallest an `integer` or `number` may be. An integer `type` with a minimum
            /// of 0 or more becomes `u64` in Rust, otherwise `i64`.
            pub minimum: Option<Number>,
            /// The largest an `integer` or `number` may be.
            pub maximum: Option<Number>,
            /// The whole schema as a JSON Schema 2020-12 document, published exactly as
            /// written: a mapping, or the path of a JSON file beside the manifest. With it,
            /// `type` and the other schema keys are left out (the document says them); the
            /// value is a `serde_json::Value` in Rust, checked against the document.
            #[serde(rename = "json_schema")]
            pub json_schema: Option<Value>,
            /// A tagged union, in place of `type`: objects told apart by the string their
            /// `tag` property holds, published as `oneOf`, a Rust enum with data.
            #[serde(rename = "one_of")]
            pub one_of: Option<OneOf>,
            /// The fewest items an `array` may have.
            pub min_items: Option<Count>,
            /// The most items an `array` may have.
            pub max_items: Option<Count>,
        }
    };
}

with_schema_keys! {
    /// A named value: a parameter, an output field or a field of a nested object. It is
    /// required unless it says `required: false` or has a `default`.
    #[schemars(extend("dependentSchemas" = {
        "default": { "properties": { "required": { "const": false } } },
    }))]
    // A `json_schema` document says its type and description itself; a `one_of` is the type.
    #[schemars(extend(
        "if" = { "anyOf": [{ "required": ["json_schema"] }, { "required": ["one_of"] }] },
        "then" = { "if": { "required": ["json_schema"] }, "else": { "required": ["description"] } },
        "else" = { "required": ["type", "description"] }
    ))]
    pub(crate) struct Property {
        /// What the value means, for the model that fills it in or reads it. Inside the
        /// document instead, with `json_schema`.
        pub(crate) description: Option<NonBlank>,
        /// `false` makes the value optional (`Option<T>` in Rust). A property with a
        /// `default` is optional already and cannot say `required: true`.
        pub(crate) required: Option<bool>,
        /// The value used when the argument is left out; the handler always receives one.
        /// Stated in the published description (`Default: 3.`), never as a JSON Schema
        /// `default`. Not null, not on output fields, and it must match the schema.
        #[schemars(extend("not" = { "type": "null" }))]
        pub(crate) default: Option<Value>,
        /// MCP 2026-07-28 `x-mcp-header`: an HTTP client mirrors the argument into the
        /// header `Mcp-Param-NAME`. Parameters only (not inside arrays), on a string,
        /// integer (with `minimum` and `maximum` within ±2^53−1) or boolean; an RFC 9110
        /// token, unique in the tool regardless of case.
        #[schemars(pattern(HEADER_NAME))]
        pub(crate) header: Option<String>,
        /// `true`: the argument's value may be recorded on the spans of the tool's calls
        /// (`gen_ai.tool.call.arguments`, feature `telemetry`); by default only its name is.
        /// A tool's own parameters only.
        pub(crate) record: Option<bool>,
    }
}

with_schema_keys! {
    /// A field of a question's form: a `string` (`minLength`, `maxLength`, `format` email,
    /// uri, date or date-time), `number`, `integer` (`minimum`, `maximum`), `boolean`, a
    /// string `enum` (single select) or an `array` of a string enum (multi-select,
    /// `minItems`, `maxItems`). No objects, `pattern` or examples. Required unless it says
    /// `required: false` or has a `default`.
    // A form field is never a `json_schema` document (the validator says why).
    #[schemars(extend("required" = ["type"]))]
    pub(crate) struct FormField {
        /// What the field means.
        pub(crate) description: Option<String>,
        /// The label a client shows.
        pub(crate) title: Option<String>,
        /// A label for each enum value, by value.
        pub(crate) titles: Option<Names<String, String>>,
        /// `false` makes the field optional (`Option<T>` in Rust).
        pub(crate) required: Option<bool>,
        /// The value the form starts with; it must fit the field.
        #[schemars(extend("not" = { "type": "null" }))]
        pub(crate) default: Option<Value>,
    }
}

with_schema_keys! {
    /// A schema: a shared type, an array's items or a union's variant.
    #[schemars(extend(
        "if" = { "not": { "anyOf": [{ "required": ["json_schema"] }, { "required": ["one_of"] }] } },
        "then" = { "required": ["type"] }
    ))]
    pub(crate) struct Schema {
        /// What the value means.
        pub(crate) description: Option<String>,
    }
}

/// `one_of:` a tagged union. Untagged unions are refused: clients and models cannot tell
/// untagged shapes apart, and Rust cannot read them unambiguously.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OneOf {
    /// The property whose string value names the variant, such as `kind`; published in each
    /// variant as a required `const`.
    pub(crate) tag: PropertyName,
    /// Each variant by its tag value, in order: `type: object` with `properties` (which do
    /// not include the tag), or a shared object type. At least one.
    #[schemars(extend("minProperties" = 1))]
    pub(crate) variants: Names<String, Schema>,
}

/// A value's type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum TypeRef {
    /// A JSON type.
    Json(JsonType),
    /// A shared type from `types:`, by name. Its schema is inlined; the use may give its own
    /// `description` and examples but no constraints.
    Shared(TypeName),
}

/// The JSON types a value can have.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JsonType {
    /// Text: `String` in Rust, or an enum with `enum:`. Takes `minLength`, `maxLength`,
    /// `pattern`, `format` and `enum`.
    String,
    /// A whole number: `u64` in Rust when `minimum` is 0 or more, otherwise `i64`. Takes
    /// `minimum` and `maximum`.
    Integer,
    /// Any number: `f64` in Rust. Takes `minimum` and `maximum`.
    Number,
    /// `true` or `false`: `bool` in Rust.
    Boolean,
    /// Any JSON value, such as a document the server passes on: `serde_json::Value` in Rust.
    /// Its published schema states no type; it takes no constraints.
    Json,
    /// A list: `Vec<T>` in Rust. Requires `items`; takes `minItems` and `maxItems`.
    Array,
    /// An object: a generated struct in Rust. Requires `properties`.
    Object,
}

/// The formats of JSON Schema 2020-12.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Format {
    /// An RFC 3339 date and time, such as `2026-11-30T09:00:00Z`.
    DateTime,
    /// An RFC 3339 full date, such as `2026-11-30`.
    Date,
    /// An RFC 3339 full time, such as `09:00:00Z`.
    Time,
    /// An ISO 8601 duration, such as `P3DT4H`.
    Duration,
    /// An email address.
    Email,
    /// An email address that may hold non-ASCII characters.
    IdnEmail,
    /// A DNS host name.
    Hostname,
    /// A host name that may hold non-ASCII characters.
    IdnHostname,
    /// An IPv4 address, such as `192.0.2.1`.
    Ipv4,
    /// An IPv6 address, such as `2001:db8::1`.
    Ipv6,
    /// An absolute URI.
    Uri,
    /// A URI or a relative reference.
    UriReference,
    /// An absolute IRI (a URI that may hold non-ASCII characters).
    Iri,
    /// An IRI or a relative reference.
    IriReference,
    /// A UUID, such as `123e4567-e89b-12d3-a456-426614174000`.
    Uuid,
    /// An RFC 6570 URI template, such as `/items/{id}`.
    UriTemplate,
    /// A JSON Pointer, such as `/items/0`.
    JsonPointer,
    /// A relative JSON Pointer, such as `1/items`.
    RelativeJsonPointer,
    /// An ECMA-262 regular expression.
    Regex,
}

/// A tool name: a lowercase letter, then up to 63 lowercase letters, digits or `_`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a tool name is snake_case: a lowercase letter, then up to 63 lowercase letters, digits or `_`"))]
pub(crate) struct ToolName(#[schemars(pattern(TOOL_NAME))] pub String);

/// A pinned sentence's name, snake_case. It also names the constant
/// `sentences::NAME` of the generated module.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a sentence name is snake_case: a lowercase letter, then lowercase letters, digits or `_`"))]
pub(crate) struct SentenceName(#[schemars(pattern(SNAKE_CASE))] pub String);

/// An error code, snake_case, such as `not_found`. The runtime's own codes are reserved.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend(
    "patternErrorMessage" = "an error code is snake_case: a lowercase letter, then lowercase letters, digits or `_`",
    "not" = { "enum": mcp_contract_spec::error_codes::RESERVED },
))]
pub(crate) struct ErrorCode(#[schemars(pattern(SNAKE_CASE))] pub String);

/// A shared type's name, PascalCase like a Rust type's, such as `LineRange`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a type name is PascalCase: an uppercase letter, then letters and digits, such as `LineRange`"))]
pub(crate) struct TypeName(#[schemars(pattern(PASCAL_CASE))] pub String);

/// A property name, published as written: a letter, then letters, digits or `_`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("patternErrorMessage" = "a property name is a letter, then letters, digits or `_`"))]
pub(crate) struct PropertyName(#[schemars(pattern(PROPERTY_NAME))] pub String);

/// Text that is not blank.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(inline, extend("patternErrorMessage" = "must not be blank"))]
pub(crate) struct NonBlank(#[schemars(pattern(NOT_BLANK))] pub String);

/// A whole number, 0 or more.
#[derive(Debug, Deserialize)]
pub(crate) struct Count(pub u64);

impl JsonSchema for Count {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Count".into()
    }

    // `u64`'s own schema adds `"format": "uint64"`, which no editor knows.
    fn json_schema(_: &mut SchemaGenerator) -> schemars::Schema {
        json_schema!({ "type": "integer", "minimum": 0 })
    }
}

/// Where a planning contract is published in a tool's `_meta`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub(crate) enum KeyPath {
    /// One `_meta` key, dots and all, such as `com.example/artifacts`.
    Key(String),
    /// The `_meta` key, then the keys of nested objects, such as `[gnougo, artifacts]`.
    Path(#[schemars(length(min = 1))] Vec<String>),
}

/// One value, or a list of them: where the manifest expects a list of names, a single name
/// stands for a list of one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub(crate) enum OneOrMany<T> {
    /// A list of one.
    One(T),
    /// A list.
    Many(Vec<T>),
}

/// A mapping whose keys are names the author chooses (parameters, error codes, shared
/// types, …), in the order written. Written with nothing after its key (`parameters:`), it is
/// empty.
#[derive(Debug)]
pub(crate) struct Names<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Names<K, V> {
    fn default() -> Self {
        Names(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Names<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NamesVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for NamesVisitor<K, V> {
            type Value = Names<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of names, or nothing")
            }

            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Names::default())
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Names(entries))
            }
        }

        deserializer.deserialize_any(NamesVisitor(PhantomData))
    }
}

impl<K: JsonSchema, V: JsonSchema> JsonSchema for Names<K, V> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Names_of_{}_to_{}", K::schema_name(), V::schema_name()).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("Names<{}, {}>", K::schema_id(), V::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> schemars::Schema {
        json_schema!({
            // `Decoder::entries` reads `parameters:` with nothing after it as no parameters.
            "type": ["object", "null"],
            "propertyNames": generator.subschema_for::<K>(),
            "additionalProperties": generator.subschema_for::<V>(),
        })
    }
}

#[cfg(test)]
mod tests;
