//! Running a generated server in process, for tests: an rmcp client connected over an
//! in-memory pipe or over streamable HTTP, on either protocol revision.

pub use mcp_contract_spec::Revision;
use rmcp::model::ProtocolVersion;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::IntoTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt as _, ServiceExt as _};

use crate::Server;
use crate::codegen::Dispatch;

/// A client connected to a server running on this runtime.
pub type Client = RunningService<RoleClient, ()>;

/// Starts `server` on one end of an in-memory pipe and connects a client to the other end,
/// speaking `revision`.
pub async fn connect<D: Dispatch>(
    server: Server<D>,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    open(client_io, revision).await
}

/// Connects a client to the streamable HTTP MCP endpoint at `url` (such as
/// `http://127.0.0.1:8080/mcp`), speaking `revision`: the `initialize` handshake of
/// 2025-11-25, or 2026-07-28's `server/discover` followed by stateless requests. Needs the
/// `http-testing` feature.
#[cfg(feature = "http-testing")]
pub async fn connect_http(
    url: &str,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    use rmcp::transport::StreamableHttpClientTransport;

    open(
        StreamableHttpClientTransport::from_uri(url.to_owned()),
        revision,
    )
    .await
}

/// Opens a client session over `transport` the way a client of `revision` does: with the
/// `initialize` handshake, or by discovery, preferring that revision.
async fn open<T, E, A>(
    transport: T,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let lifecycle = if revision.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        let preferred = ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .filter(|v| v.as_str() == revision.as_str())
            .cloned()
            .collect();
        ClientLifecycleMode::Discover {
            preferred_versions: preferred,
        }
    };
    Ok(().serve_with_lifecycle(transport, lifecycle).await?)
}

/// One HTTP response as received, for what an MCP client does not show: status codes,
/// headers and plain-text refusals.
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The headers, names lowercased, in order.
    pub headers: Vec<(String, String)>,
    /// The body, decoded from chunked transfer coding when it was chunked.
    pub body: String,
}

#[cfg(feature = "http")]
impl RawResponse {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, when it is.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.body).ok()
    }
}

/// Sends one HTTP/1.1 request to `addr` (a server on this machine) and reads the whole
/// response. `Host`, `Content-Length` and `Connection: close` are added to `headers`.
///
/// # Errors
///
/// When the connection fails or the response is not HTTP/1.1.
#[cfg(feature = "http")]
pub async fn http_request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> std::io::Result<RawResponse> {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    parse_response(&raw).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not an HTTP/1.1 response: {:?}",
                String::from_utf8_lossy(&raw)
            ),
        )
    })
}

#[cfg(feature = "http")]
fn parse_response(raw: &[u8]) -> Option<RawResponse> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let body = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status = lines
        .next()?
        .strip_prefix("HTTP/1.1 ")?
        .get(..3)?
        .parse()
        .ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_vec()
    };
    Some(RawResponse {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Decodes a chunked body: `SIZE\r\nDATA\r\n` until a chunk of size 0.
#[cfg(feature = "http")]
fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&rest[..line]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(body);
        }
        let data = rest.get(line + 2..)?;
        body.extend_from_slice(data.get(..size)?);
        rest = data.get(size..)?.strip_prefix(b"\r\n")?;
    }
}

/// The official JSON Schema of `revision`, copied from the MCP specification repository
/// (see `mcp-schema/LICENSE-NOTE.md`).
pub fn official_schema(revision: Revision) -> &'static serde_json::Value {
    static V2025: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../mcp-schema/2025-11-25/schema.json"))
            .unwrap_or_default()
    });
    static V2026: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../mcp-schema/2026-07-28/schema.json"))
            .unwrap_or_default()
    });
    match revision {
        Revision::V2025_11_25 => &V2025,
        Revision::V2026_07_28 => &V2026,
    }
}

/// Validates `value` against the definition `definition` (such as `ListToolsResult`) of the
/// official schema of `revision`, formats included; on failure, every violation with its
/// location.
pub fn check_wire(
    revision: Revision,
    definition: &str,
    value: &serde_json::Value,
) -> Result<(), Vec<String>> {
    let official = official_schema(revision);
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": official["$defs"],
        "$ref": format!("#/$defs/{definition}"),
    });
    // Formats too (`uri`, `uri-template`): a client that checks them drops what breaks them.
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|e| vec![e.to_string()])?;
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Calls tool `name` with `arguments` (a JSON object) and returns its result.
///
/// # Panics
///
/// When `arguments` is not an object or the call fails as a protocol error; a test that
/// expects a protocol error calls the client directly.
pub async fn call(
    client: &Client,
    name: &str,
    arguments: serde_json::Value,
) -> rmcp::model::CallToolResult {
    let serde_json::Value::Object(arguments) = arguments else {
        panic!("tool arguments must be a JSON object")
    };
    client
        .call_tool(
            rmcp::model::CallToolRequestParams::new(name.to_owned()).with_arguments(arguments),
        )
        .await
        .unwrap_or_else(|e| panic!("`{name}` answered with a protocol error: {e}"))
}

/// The structured content of a successful result.
///
/// # Panics
///
/// When the result is an error or carries no structured content.
pub fn structured(result: &rmcp::model::CallToolResult) -> serde_json::Value {
    assert_eq!(result.is_error, Some(false), "expected success: {result:?}");
    result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("no structured content: {result:?}"))
}

/// The error envelope of a tool error, read from its text block: every error carries it
/// there, while `structuredContent` carries it only for tools without an `outputSchema`.
/// `None` when the result is not an error or its text is not an envelope.
pub fn envelope(result: &rmcp::model::CallToolResult) -> Option<serde_json::Value> {
    if result.is_error != Some(true) {
        return None;
    }
    let text = result.content.first()?.as_text()?;
    serde_json::from_str::<serde_json::Value>(&text.text)
        .ok()
        .filter(|v| v["errors"].is_array())
}

/// The `(code, argument)` pairs of an error envelope, in order; `""` where a problem names
/// no argument.
pub fn problems(envelope: &serde_json::Value) -> Vec<(&str, &str)> {
    let errors = envelope["errors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    errors
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap_or_default(),
                e["argument"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}

/// Runs the contract test of seed 000 and seed 001 against `server`, in process, on both
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
/// `argument_unknown` by a server whose handlers fail the test if they are ever called.
///
/// ```ignore
/// #[test]
/// fn contract() {
///     mcp_contract::testing::assert_contract(contract::server(MyHandler), contract::FIXTURES);
/// }
/// ```
pub fn assert_contract<D: Dispatch>(server: Server<D>, fixtures: &[crate::codegen::ToolFixture]) {
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
            contract::check(&server, fixtures, revision, &mut failures).await;
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "the published contract breaks {} rule(s):\n  - {}",
        failures.len(),
        failures.join("\n  - ")
    );
}

mod contract {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
    use serde_json::Value;

    use mcp_contract_spec::MCP_HEADER;

    use super::{Revision, check_wire, connect};
    use crate::codegen::{ContractSpec, Dispatch, Published, ToolFixture};
    use crate::{Server, metadata};

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
        ) -> futures::future::BoxFuture<'_, CallToolResult> {
            self.called.store(true, Ordering::SeqCst);
            Box::pin(async move {
                crate::call::internal(format!("tripwire: handler #{tool} was called"))
            })
        }
    }

    pub(super) async fn check<D: Dispatch>(
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
        // The rmcp object model's fields, in the order of `PublishedHints::keyed`.
        let on_object = [
            annotations.read_only_hint,
            annotations.destructive_hint,
            annotations.idempotent_hint,
            annotations.open_world_hint,
        ];
        for ((key, declared), model) in f.hints.keyed().into_iter().zip(on_object) {
            let on_wire = wire["annotations"].get(key).and_then(Value::as_bool);
            if model != declared || on_wire != declared {
                problems.push(format!("{key} is {model:?} (object) / {on_wire:?} (wire), the manifest says {declared:?}"));
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
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
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
    /// jsonschema crate rather than our own reading of the keywords.
    fn examples_problems(schema: &Value, at: &str, problems: &mut Vec<String>) {
        let Value::Object(map) = schema else { return };
        if let Some(Value::Array(examples)) = map.get("examples") {
            for example in examples {
                if !jsonschema::is_valid(schema, example) {
                    problems.push(format!(
                        "the example {example} at {at} does not match its schema"
                    ));
                }
            }
        }
        if let Some(Value::Object(props)) = map.get("properties") {
            for (name, sub) in props {
                examples_problems(sub, &format!("{at}/{name}"), problems);
            }
        }
        if let Some(items) = map.get("items") {
            examples_problems(items, &format!("{at}/items"), problems);
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
            let mut arguments: JsonObject =
                serde_json::from_str(f.example_call).unwrap_or_default();
            arguments.insert(UNKNOWN.into(), Value::Bool(true));
            let result = client
                .call_tool(CallToolRequestParams::new(f.name).with_arguments(arguments))
                .await;
            let refused = result
                .as_ref()
                .ok()
                .and_then(super::envelope)
                .is_some_and(|envelope| {
                    super::problems(&envelope).contains(&("argument_unknown", UNKNOWN))
                });
            if !refused {
                fail(format!(
                    "`{}`: an unknown argument was not refused as argument_unknown: {result:?}",
                    f.name
                ));
            }
            if called.swap(false, Ordering::SeqCst) {
                fail(format!(
                    "`{}`: the handler ran before the arguments were checked",
                    f.name
                ));
            }
        }
        let _ = client.cancel().await;
    }

    #[cfg(test)]
    mod tests {
        use serde_json::json;

        use super::*;
        use crate::codegen::PublishedHints;

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
}

#[cfg(test)]
mod wire_tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_official_formats_are_checked() {
        for revision in Revision::ALL {
            let listed = |uri: &str| {
                let mut listed = json!({"resources": [{"name": "notes", "uri": uri}]});
                if revision == Revision::V2026_07_28 {
                    listed["resultType"] = json!("complete");
                    listed["ttlMs"] = json!(0);
                    listed["cacheScope"] = json!("private");
                }
                listed
            };
            assert_eq!(
                check_wire(revision, "ListResourcesResult", &listed("x://notes")),
                Ok(())
            );
            let refused = check_wire(revision, "ListResourcesResult", &listed("not a uri"));
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e[0].contains("/resources/0/uri")),
                "{revision:?}: {refused:?}"
            );
        }
    }
}
