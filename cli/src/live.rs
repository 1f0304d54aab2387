//! A running server, reached the way its clients reach it: a command started with stdio, or a
//! streamable HTTP URL with request headers. Sessions open through the runtime's
//! `client::session`, the same code the project's own test clients use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_contract::client::session::{self, Session};
use mcp_contract_codegen::Revision;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value, json};

/// How long one request may take before the server counts as unreachable: a hung server
/// must end the check with a finding, never hang CI.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Where the server runs.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// A command line, started for each session, speaking MCP on its stdin and stdout.
    Stdio(String),
    /// A streamable HTTP endpoint, such as `http://127.0.0.1:8080/mcp`.
    Url(String),
}

impl Target {
    /// Reads `stdio:CMD` or `url:URL`, the form `diff --against` takes.
    pub(crate) fn parse_prefixed(text: &str) -> Option<Target> {
        if let Some(cmd) = text.strip_prefix("stdio:") {
            Some(Target::Stdio(cmd.to_owned()))
        } else {
            text.strip_prefix("url:")
                .map(|url| Target::Url(url.to_owned()))
        }
    }

    /// The target with `group`'s route: `/mcp` becomes `/mcp/GROUP` (the HTTP host serves a
    /// group on its own route); a command is unchanged (its own flags choose its tools).
    pub(crate) fn with_group(self, group: Option<&str>) -> Target {
        match (self, group) {
            (Target::Url(url), Some(g)) => {
                Target::Url(format!("{}/{g}", url.trim_end_matches('/')))
            }
            (target, _) => target,
        }
    }

    /// How a report names it.
    pub(crate) fn describe(&self) -> String {
        match self {
            Target::Stdio(cmd) => format!("stdio `{cmd}`"),
            Target::Url(url) => url.clone(),
        }
    }
}

/// Request headers for HTTP: `NAME: VALUE` pairs, and a bearer token read from an
/// environment variable, so a secret never appears in a command line or a CI log.
#[derive(Debug, Clone, Default)]
pub(crate) struct Headers {
    /// Extra headers, as given.
    pub(crate) pairs: Vec<(String, String)>,
    /// The token of `Authorization: Bearer`.
    pub(crate) bearer: Option<String>,
}

impl Headers {
    /// Reads `--header` values and the `--bearer-env` variable.
    pub(crate) fn read(pairs: &[String], bearer_env: Option<&str>) -> Result<Headers, String> {
        let pairs = (pairs.iter())
            .map(|h| {
                let (name, value) = h
                    .split_once(':')
                    // Not echoed: the value may be a secret.
                    .ok_or("error: a `--header` has no `:`; write `--header 'NAME: VALUE'`")?;
                Ok((name.trim().to_owned(), value.trim().to_owned()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let bearer = match bearer_env {
            None => None,
            Some(var) => Some(std::env::var(var).map_err(|_| {
                format!("error: `--bearer-env {var}`: the environment variable `{var}` is not set")
            })?),
        };
        Ok(Headers { pairs, bearer })
    }
}

/// How much of a stdio server's stderr is kept: the end, where a failure to start is told.
const LOG_TAIL: usize = 2048;

/// Reads a stdio server's stderr for as long as it writes, keeping the last [`LOG_TAIL`]
/// bytes: the pipe must be drained, or a server that logs much would block.
fn log_tail(mut stderr: tokio::process::ChildStderr) -> Arc<Mutex<String>> {
    use tokio::io::AsyncReadExt as _;
    let tail = Arc::new(Mutex::new(String::new()));
    let kept = Arc::clone(&tail);
    tokio::spawn(async move {
        let mut buf = [0u8; 1024];
        while let Ok(n @ 1..) = stderr.read(&mut buf).await {
            let Ok(mut text) = kept.lock() else { break };
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
            if text.len() > LOG_TAIL {
                let mut cut = text.len() - LOG_TAIL;
                while !text.is_char_boundary(cut) {
                    cut += 1;
                }
                text.drain(..cut);
            }
        }
    });
    tail
}

/// Why no session opened.
#[derive(Debug, Clone)]
pub(crate) struct Unopened {
    /// What happened, for a report.
    pub(crate) message: String,
    /// The server refused the request's credentials (401) or their scope (403): no other
    /// revision can fare better.
    pub(crate) refused: bool,
    /// The server did not answer within the timeout: a server answers every request, if only
    /// with an error, so one that does not is broken rather than speaking another revision.
    pub(crate) silent: bool,
}

impl std::fmt::Display for Unopened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for Unopened {
    fn from(message: String) -> Self {
        Unopened {
            message,
            refused: false,
            silent: false,
        }
    }
}

/// The status a server refused a request with, and its challenge, when it refused the
/// request's credentials (401) or their scope (403). The challenge names what the server
/// wants, never the token sent.
fn refusal(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    use rmcp::service::ClientInitializeError;
    use rmcp::transport::streamable_http_client::{AuthRequiredError, InsufficientScopeError};
    // rmcp's initialize error holds the transport's error without naming it its source.
    let mut source = match error.downcast_ref::<ClientInitializeError>() {
        Some(ClientInitializeError::TransportError { error, .. }) => {
            Some(error.error.as_ref() as &(dyn std::error::Error + 'static))
        }
        _ => Some(error),
    };
    while let Some(e) = source {
        if let Some(a) = e.downcast_ref::<AuthRequiredError>() {
            return Some(format!(
                "Auth required (401 Unauthorized; WWW-Authenticate: {})",
                a.www_authenticate_header
            ));
        }
        if let Some(s) = e.downcast_ref::<InsufficientScopeError>() {
            return Some(format!(
                "Insufficient scope (403 Forbidden; WWW-Authenticate: {})",
                s.www_authenticate_header
            ));
        }
        source = e.source();
    }
    None
}

/// A session with a running server, of one revision.
pub(crate) struct Live {
    session: Session,
}

/// A request answered with no result.
#[derive(Debug, Clone)]
pub(crate) struct CallError {
    /// The JSON-RPC error code, when the server answered with one.
    pub(crate) code: Option<i32>,
    /// What happened, for a report.
    pub(crate) message: String,
}

impl CallError {
    /// The server needs a client capability (sampling, elicitation, tasks) this client does
    /// not declare (`-32021`): the call could not be made, which says nothing of the server.
    pub(crate) fn needs_capability(&self) -> bool {
        self.code == Some(-32021)
    }
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a server publishes.
#[derive(Debug, Clone)]
pub(crate) struct Published {
    /// The `tools/list` result, every page joined: `{"tools": [...]}`.
    pub(crate) tools_list: Value,
    /// The server's name, as it introduces itself.
    pub(crate) server_name: String,
    /// The other lists, every page joined: `{"resources": [...], "resourceTemplates": [...],
    /// "prompts": [...]}`; a list whose capability the server does not advertise is empty
    /// (it answers no request for it).
    pub(crate) entries: Value,
    /// The `initialize` result: `serverInfo`, `instructions`, `capabilities`.
    pub(crate) initialize: Value,
    /// The tools list's cache hint, `ttlMs` and `cacheScope`, when it carries both
    /// (2026-07-28).
    pub(crate) cache: Option<(u64, String)>,
}

impl Published {
    /// Everything in one object, the form `import` reads: the lists' entries under their
    /// result keys (`tools`, `resources`, `resourceTemplates`, `prompts`), with `serverInfo`
    /// and `instructions`.
    pub(crate) fn publication(&self) -> Value {
        let mut all = self.entries.clone();
        all["tools"] = self.tools_list["tools"].clone();
        for key in ["serverInfo", "instructions"] {
            if let Some(value) = self.initialize.get(key) {
                all[key] = value.clone();
            }
        }
        all
    }
}

impl Live {
    /// Starts or reaches the server and opens a session speaking `revision`.
    pub(crate) async fn connect(
        target: &Target,
        revision: Revision,
        headers: &Headers,
    ) -> Result<Live, Unopened> {
        let opened = match target {
            Target::Stdio(line) => {
                let words = shlex::split(line)
                    .filter(|w| !w.is_empty())
                    .ok_or_else(|| format!("`{line}` is not a command line"))?;
                let mut command = tokio::process::Command::new(&words[0]);
                command.args(&words[1..]);
                let (transport, stderr) = TokioChildProcess::builder(command)
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .map_err(|e| format!("cannot start `{}`: {e}", words[0]))?;
                let log = stderr.map(log_tail);
                let opened =
                    tokio::time::timeout(TIMEOUT, session::open(transport, revision)).await;
                if let (Ok(Err(_)) | Err(_), Some(log)) = (&opened, &log) {
                    // A server that fails to start says why on stderr.
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    let tail = log.lock().map(|t| t.trim().to_owned()).unwrap_or_default();
                    if !tail.is_empty() {
                        return Err(format!(
                            "cannot open a {revision} session with {}; its stderr ends with:\n{tail}",
                            target.describe()
                        )
                        .into());
                    }
                }
                opened
            }
            Target::Url(url) => {
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.clone());
                if let Some(token) = &headers.bearer {
                    config = config.auth_header(token.clone());
                }
                let mut custom = HashMap::new();
                for (name, value) in &headers.pairs {
                    let name = reqwest::header::HeaderName::try_from(name.as_str())
                        .map_err(|_| format!("`{name}` is not a header name"))?;
                    let value =
                        reqwest::header::HeaderValue::try_from(value.as_str()).map_err(|_| {
                            format!("the value of header `{name}` is not a header value")
                        })?;
                    custom.insert(name, value);
                }
                let transport =
                    StreamableHttpClientTransport::from_config(config.custom_headers(custom));
                tokio::time::timeout(TIMEOUT, session::open(transport, revision)).await
            }
        };
        match opened {
            Ok(Ok(session)) => Ok(Live { session }),
            Ok(Err(e)) => Err(match refusal(e.as_ref()) {
                Some(refused) => Unopened {
                    message: format!(
                        "{} refused the request: {refused}; {}",
                        target.describe(),
                        if headers.bearer.is_some() || !headers.pairs.is_empty() {
                            "check the credentials given"
                        } else {
                            "it wants credentials: give them with --bearer-env VAR or --header 'NAME: VALUE'"
                        }
                    ),
                    refused: true,
                    silent: false,
                },
                None => format!(
                    "cannot open a {revision} session with {}: {e}",
                    target.describe()
                )
                .into(),
            }),
            Err(_) => Err(Unopened {
                message: format!(
                    "{} did not open a {revision} session within {} s (a server answers every request, if only with an error; --revision names the revisions to speak)",
                    target.describe(),
                    TIMEOUT.as_secs()
                ),
                refused: false,
                silent: true,
            }),
        }
    }

    /// What the server publishes: what it said at `initialize`, and every page of its lists
    /// of tools and of those it advertises resources or prompts for.
    pub(crate) async fn published(&self) -> Result<Published, String> {
        // The first page's hint as sent, read first: the client keeps the answer and counts
        // its hint down from then on.
        let first = listed("tools/list", self.session.list_tools(None)).await?;
        let tools = listed("tools/list", self.session.list_all_tools()).await?;
        let cache = match (first.ttl_ms, first.cache_scope) {
            (Some(ttl), Some(scope)) => {
                Some((ttl, json!(scope).as_str().unwrap_or_default().to_owned()))
            }
            _ => None,
        };
        let info = self.session.peer_info();
        let server_name = (info.as_ref())
            .and_then(|i| i.server_info.as_ref().map(|s| s.name.clone()))
            .unwrap_or_default();
        let initialize = serde_json::to_value(info).map_err(|e| e.to_string())?;
        let capabilities = &initialize["capabilities"];
        let (mut resources, mut templates, mut prompts) = (json!([]), json!([]), json!([]));
        if capabilities.get("resources").is_some() {
            let all = self.session.list_all_resources();
            resources = json!(optional("resources/list", all).await?);
            let all = self.session.list_all_resource_templates();
            templates = json!(optional("resources/templates/list", all).await?);
        }
        if capabilities.get("prompts").is_some() {
            prompts = json!(optional("prompts/list", self.session.list_all_prompts()).await?);
        }
        Ok(Published {
            tools_list: json!({ "tools": tools }),
            server_name,
            entries: json!({
                "resources": resources,
                "resourceTemplates": templates,
                "prompts": prompts,
            }),
            initialize,
            cache,
        })
    }

    /// Reads the resource `uri`; `Ok(None)` when the server asks the user first (an
    /// input-required result), which this client cannot answer.
    pub(crate) async fn read(&self, uri: &str) -> Result<Option<ReadResourceResult>, CallError> {
        let params = ReadResourceRequestParams::new(uri.to_owned());
        match answered(self.session.read_resource_once(params)).await? {
            ReadResourceResponse::Complete(result) => Ok(Some(result)),
            // An input-required result, or whatever a later revision adds.
            _ => Ok(None),
        }
    }

    /// Gets the prompt `name` with `arguments`; `Ok(None)` when the server asks the user
    /// first.
    pub(crate) async fn prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Option<GetPromptResult>, CallError> {
        let params = GetPromptRequestParams::new(name.to_owned()).with_arguments(arguments);
        match answered(self.session.get_prompt_once(params)).await? {
            GetPromptResponse::Complete(result) => Ok(Some(result)),
            _ => Ok(None),
        }
    }

    /// Calls tool `name`; `Err` carries a protocol error, a lost connection or a timeout.
    pub(crate) async fn call(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<CallToolResult, CallError> {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        answered(self.session.call_tool(params)).await
    }

    /// Ends the session, stopping a stdio server.
    pub(crate) async fn close(self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.session.cancel()).await;
    }
}

/// A request's answer within [`TIMEOUT`]; `Err` carries a protocol error, a lost connection
/// or a timeout.
async fn answered<T>(
    request: impl Future<Output = Result<T, rmcp::ServiceError>>,
) -> Result<T, CallError> {
    match tokio::time::timeout(TIMEOUT, request).await {
        Err(_) => Err(CallError {
            code: None,
            message: format!("no answer within {} s", TIMEOUT.as_secs()),
        }),
        Ok(Ok(result)) => Ok(result),
        Ok(Err(rmcp::ServiceError::McpError(e))) => Err(CallError {
            code: Some(e.code.0),
            message: e.to_string(),
        }),
        Ok(Err(e)) => Err(CallError {
            code: None,
            message: e.to_string(),
        }),
    }
}

/// A list the server may not serve though it advertises its capability (an SDK that serves
/// resources but no templates answers `resources/templates/list` with -32601): then none.
async fn optional<T>(
    method: &str,
    request: impl Future<Output = Result<Vec<T>, rmcp::ServiceError>>,
) -> Result<Vec<T>, String> {
    match tokio::time::timeout(TIMEOUT, request).await {
        Ok(Err(rmcp::ServiceError::McpError(e))) if e.code == ErrorCode::METHOD_NOT_FOUND => {
            Ok(Vec::new())
        }
        answer => answer
            .map_err(|_| format!("`{method}` got no answer"))?
            .map_err(|e| format!("`{method}` failed: {e}")),
    }
}

/// A list's every page, within [`TIMEOUT`]; `Err` says which list failed and how.
async fn listed<T>(
    method: &str,
    request: impl Future<Output = Result<T, rmcp::ServiceError>>,
) -> Result<T, String> {
    tokio::time::timeout(TIMEOUT, request)
        .await
        .map_err(|_| format!("`{method}` got no answer"))?
        .map_err(|e| format!("`{method}` failed: {e}"))
}
