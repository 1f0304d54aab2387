//! The rmcp `ServerHandler` every generated contract is served by.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt as _;
use mcp_contract_spec::{Revision, SERVER_INFO_META};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult,
    DiscoverResult, ErrorCode, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    MetaObject, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::codegen::{Dispatch, Published};
use crate::{ResourceError, arguments, call, params};

/// An MCP server for a generated contract, or a view of it that serves some of its tools
/// ([`Server::restrict`], [`Server::group`]). Cheap to clone: clones share the handler.
pub struct Server<D> {
    dispatch: Arc<D>,
    view: Arc<View>,
}

/// The tools a server serves, decided once when the server or view is made.
struct View {
    /// `served[i]`: whether tool `i` of the manifest is served.
    served: Box<[bool]>,
    /// The served tools, in manifest order: the `tools/list` answer.
    tools: Vec<Tool>,
    /// The same tools as a 2025-11-25 client receives them (no `x-mcp-header`).
    legacy_tools: Vec<Tool>,
}

impl<D> Clone for Server<D> {
    fn clone(&self) -> Self {
        Server {
            dispatch: Arc::clone(&self.dispatch),
            view: Arc::clone(&self.view),
        }
    }
}

impl<D: Dispatch> Server<D> {
    /// Wraps a dispatcher; generated code calls this from its `server(handler)` function.
    #[doc(hidden)]
    pub fn new(dispatch: D) -> Self {
        let published = dispatch.published();
        let view = View {
            served: vec![true; published.tools.len()].into_boxed_slice(),
            tools: published.tools.clone(),
            legacy_tools: published.legacy_tools.clone(),
        };
        Server {
            dispatch: Arc::new(dispatch),
            view: Arc::new(view),
        }
    }

    /// The whole contract, including tools this view does not serve.
    pub(crate) fn published(&self) -> &'static Published {
        self.dispatch.published()
    }

    /// The tools this server serves, in manifest order: what `tools/list` answers.
    pub fn tools(&self) -> &[Tool] {
        &self.view.tools
    }

    /// A view of this server that serves only the tools `keep` accepts, sharing the same
    /// handler. To the view's clients the other tools do not exist: `tools/list` leaves them
    /// out, `get_tool` does not find them, and calling one is the unknown-tool error. `keep`
    /// sees only the tools this server serves, so restricting a view narrows it further.
    ///
    /// For a read-only server:
    ///
    /// ```ignore
    /// let read_only = server.restrict(|t| {
    ///     t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
    /// });
    /// ```
    pub fn restrict(&self, keep: impl Fn(&Tool) -> bool) -> Server<D> {
        let published = self.published();
        let mut served = vec![false; published.tools.len()].into_boxed_slice();
        let mut tools = Vec::new();
        let mut legacy_tools = Vec::new();
        for (i, tool) in published.tools.iter().enumerate() {
            if self.view.served[i] && keep(tool) {
                served[i] = true;
                tools.push(tool.clone());
                legacy_tools.push(published.legacy_tools[i].clone());
            }
        }
        Server {
            dispatch: Arc::clone(&self.dispatch),
            view: Arc::new(View {
                served,
                tools,
                legacy_tools,
            }),
        }
    }

    /// The view serving the tools of the contract's group `name` (see
    /// the manifest's `groups:`) that this server serves;
    /// `None` when the contract has no such group.
    pub fn group(&self, name: &str) -> Option<Server<D>> {
        let group = self
            .published()
            .spec
            .groups
            .iter()
            .find(|g| g.name == name)?;
        Some(self.restrict(|t| group.tools.contains(&t.name.as_ref())))
    }

    /// The manifest index of the served tool called `name`.
    fn find(&self, name: &str) -> Option<usize> {
        self.published()
            .find(name)
            .filter(|&i| self.view.served.get(i).copied().unwrap_or(false))
    }

    /// Checks the arguments, then calls the tool; a panicking handler becomes an
    /// `internal_error` result and the server keeps serving.
    ///
    /// A tool that publishes an `outputSchema` promises `structuredContent` matching it, and
    /// clients check that promise even on errors (the TypeScript SDK refuses the whole result),
    /// so its error envelope travels as text only; other tools carry it in both.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<rmcp::model::JsonObject>,
    ) -> Result<rmcp::model::CallToolResult, ErrorData> {
        let published = self.published();
        let Some(index) = self.find(name) else {
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {name}"),
                None,
            ));
        };
        let mut result = self.run(index, name, arguments).await;
        if result.is_error == Some(true) && published.tools[index].output_schema.is_some() {
            result.structured_content = None;
        }
        Ok(result)
    }

    /// The call itself: arguments first, then the handler, with panics caught.
    async fn run(
        &self,
        index: usize,
        name: &str,
        arguments: Option<rmcp::model::JsonObject>,
    ) -> rmcp::model::CallToolResult {
        let published = self.published();
        let arguments = arguments.unwrap_or_default();
        let schema = &published.tools[index].input_schema;
        if let Err(envelope) = arguments::check(
            &published.spec.argument_codes,
            name,
            published.validator(index),
            schema,
            &arguments,
        ) {
            return envelope.into_result();
        }
        // The dispatcher is called inside the caught future, so a panic while it makes its
        // future is caught as well as one while the future runs.
        match AssertUnwindSafe(async { self.dispatch.call(index, arguments).await })
            .catch_unwind()
            .await
        {
            Ok(result) => conforming(published, index, name, result),
            Err(panic) => {
                let detail = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                tracing::error!(tool = name, panic = %detail, "tool handler panicked");
                call::internal(format!(
                    "`{name}` failed unexpectedly and returned no result."
                ))
            }
        }
    }

    /// The cache hint for a client of `revision`, when that revision has them.
    fn cache_for(&self, revision: Revision) -> Option<(u64, CacheScope)> {
        self.cache_hint().filter(|_| revision.has_cache_hints())
    }

    /// Names the server in a result's `_meta` for a client of `revision`, when that
    /// revision's results carry it.
    fn identify(&self, revision: Revision, meta: &mut Option<MetaObject>) {
        if revision.has_server_info_meta()
            && let Ok(identity) = serde_json::to_value(&self.published().info.server_info)
        {
            meta.get_or_insert_default()
                .insert(SERVER_INFO_META.to_owned(), identity);
        }
    }

    fn cache_hint(&self) -> Option<(u64, CacheScope)> {
        self.published().spec.cache.map(|c| {
            (
                c.ttl_ms,
                if c.public {
                    CacheScope::Public
                } else {
                    CacheScope::Private
                },
            )
        })
    }
}

/// The revision whose rules the request's client follows.
fn revision(context: &RequestContext<RoleServer>) -> Revision {
    Revision::negotiated(
        context
            .protocol_version()
            .as_ref()
            .map(ProtocolVersion::as_str),
    )
}

impl<D: Dispatch> ServerHandler for Server<D> {
    fn get_info(&self) -> ServerConfig {
        self.published().info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Older revisions keep the shape they know: no `x-mcp-header`, no cache hints.
        let revision = revision(&context);
        let tools = if revision.has_mcp_headers() {
            &self.view.tools
        } else {
            &self.view.legacy_tools
        };
        let mut result = ListToolsResult::with_all_items(tools.clone());
        if let Some((ttl, scope)) = self.cache_for(revision) {
            result = result.with_ttl_ms(ttl).with_cache_scope(scope);
        }
        self.identify(revision, &mut result.meta);
        Ok(result)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let revision = revision(&context);
        let mut result = ListResourcesResult::with_all_items(self.published().resources.clone());
        if let Some((ttl, scope)) = self.cache_for(revision) {
            result = result.with_ttl_ms(ttl).with_cache_scope(scope);
        }
        self.identify(revision, &mut result.meta);
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let revision = revision(&context);
        let mut result = ListResourceTemplatesResult::with_all_items(
            self.published().resource_templates.clone(),
        );
        if let Some((ttl, scope)) = self.cache_for(revision) {
            result = result.with_ttl_ms(ttl).with_cache_scope(scope);
        }
        self.identify(revision, &mut result.meta);
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let revision = revision(&context);
        let uri = request.uri;
        let not_found = |message: Option<String>| {
            let message = message.unwrap_or_else(|| format!("Resource not found: {uri}"));
            let data = Some(serde_json::json!({ "uri": uri }));
            if revision.has_resource_not_found_error() {
                ErrorData::resource_not_found(message, data)
            } else {
                ErrorData::invalid_params(message, data)
            }
        };
        let Some((index, values)) = self.published().resource(&uri) else {
            return Err(not_found(None));
        };
        let resource = &self.published().spec.resources[index];
        let body = AssertUnwindSafe(async { self.dispatch.read_resource(index, values).await })
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                tracing::error!(resource = resource.name, "resource handler panicked");
                Err(ResourceError::Failed(format!(
                    "reading `{uri}` failed unexpectedly"
                )))
            });
        let contents = match body {
            Ok(body) => resource.contents(&uri, body),
            Err(ResourceError::NotFound) => return Err(not_found(None)),
            Err(ResourceError::NotFoundBecause(why)) => return Err(not_found(Some(why))),
            Err(ResourceError::Invalid(why)) => {
                return Err(ErrorData::invalid_params(
                    why,
                    Some(serde_json::json!({ "uri": uri })),
                ));
            }
            Err(ResourceError::Failed(why)) => return Err(ErrorData::internal_error(why, None)),
        };
        let mut result = ReadResourceResult::new(vec![contents]);
        if let Some((ttl, scope)) = self.cache_for(revision) {
            result = result.with_ttl_ms(ttl).with_cache_scope(scope);
        }
        self.identify(revision, &mut result.meta);
        Ok(result.into())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut result = self.call(&request.name, request.arguments).await?;
        self.identify(revision(&context), &mut result.meta);
        Ok(result.into())
    }

    /// A request rmcp could not read as its method's type: one the server answers on the
    /// client's revision whose params do not fit (`params`), answered `-32602` where rmcp
    /// would say `-32601`; any other method is not found, as rmcp answers it (`initialize`
    /// on 2026-07-28 too, which that revision removed).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let params = request.params.as_ref();
        let error = match params::problem(&request.method, params, revision(&context)) {
            Some(problem) => ErrorData::invalid_params(problem, None),
            None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None),
        };
        Err(error)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name).map(|i| self.published().tools[i].clone())
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        );
        if let Some((ttl, scope)) = self.cache_hint() {
            result = result.with_ttl_ms(ttl).with_cache_scope(scope);
        }
        Ok(result)
    }
}

/// `result` when it keeps the tool's published outputSchema, which the spec requires of every
/// structured result; otherwise an `internal_error` in its place. The generated types fix the
/// shape, but not the constraints: a handler can still return 0 for `minimum: 1`, a string
/// breaking a `pattern`, or NaN (sent as `null`).
fn conforming(
    published: &Published,
    index: usize,
    name: &str,
    result: rmcp::model::CallToolResult,
) -> rmcp::model::CallToolResult {
    let Some(validator) = published.output_validator(index) else {
        return result;
    };
    if result.is_error == Some(true) {
        return result;
    }
    let problems: Vec<String> = match &result.structured_content {
        Some(value) => validator
            .iter_errors(value)
            .map(|error| {
                let at = error.instance_path().to_string();
                let at = if at.is_empty() { "/".to_owned() } else { at };
                format!("at `{at}`: {}", arguments::described(&error))
            })
            .collect(),
        None => vec!["no structured content".to_owned()],
    };
    let Some(first) = problems.first() else {
        return result;
    };
    tracing::error!(
        tool = name,
        ?problems,
        "tool result breaks its outputSchema"
    );
    call::internal(format!(
        "`{name}` produced a result that does not match its outputSchema ({first}), so it \
         was not sent."
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use rmcp::model::{CallToolResult, JsonObject};

    use super::*;
    use crate::codegen::{BoxFuture, ContractSpec};

    static SPEC: ContractSpec = ContractSpec {
        name: "eager",
        title: None,
        icons: &[],
        version: "0.1.0",
        instructions: None,
        cache: None,
        tools: &[
            r#"{"name":"boom","description":"Panics.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        ],
        resources: &[crate::codegen::ResourceSpec {
            name: "notes",
            title: "Notes",
            description: "The notes.",
            mime_type: "text/plain",
            uri: "x:///notes",
            template: false,
            icons: &[],
        }],
        artifacts_key: "com.example/artifacts",
        composition_key: "com.example/composition",
        groups: &[],
        argument_codes: mcp_contract_spec::error_codes::ArgumentCodes::DEFAULT,
    };
    static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

    /// A dispatcher that panics while making its future, before returning it.
    struct Eager;

    impl Dispatch for Eager {
        fn published(&self) -> &'static Published {
            &PUBLISHED
        }
        fn call(&self, _tool: usize, _arguments: JsonObject) -> BoxFuture<'_, CallToolResult> {
            panic!("eager failure")
        }
        fn read_resource(
            &self,
            _resource: usize,
            _values: Vec<String>,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            panic!("eager failure")
        }
    }

    static COUNTING: ContractSpec = ContractSpec {
        name: "counting",
        tools: &[
            r#"{"name":"count","description":"Counts.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"outputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":1},"unit":{"type":"string"}},"required":["n"],"additionalProperties":false}}"#,
        ],
        resources: &[],
        ..SPEC
    };
    static COUNTING_PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&COUNTING));

    /// A handler whose structured result is `value`, whatever its tool's outputSchema says.
    struct Returns(serde_json::Value);

    impl Dispatch for Returns {
        fn published(&self) -> &'static Published {
            &COUNTING_PUBLISHED
        }
        fn call(&self, _tool: usize, _arguments: JsonObject) -> BoxFuture<'_, CallToolResult> {
            let value = self.0.clone();
            Box::pin(async move { CallToolResult::structured(value) })
        }
        fn read_resource(
            &self,
            _resource: usize,
            _values: Vec<String>,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            unreachable!("no resources")
        }
    }

    #[tokio::test]
    async fn a_result_that_breaks_the_output_schema_is_never_sent() {
        let good = Server::new(Returns(serde_json::json!({"n": 2})))
            .call("count", None)
            .await
            .expect("a result");
        assert_eq!(good.is_error, Some(false));
        assert_eq!(good.structured_content, Some(serde_json::json!({"n": 2})));

        for bad in [
            serde_json::json!({"n": 0}),
            serde_json::json!({"n": 1, "unit": null}),
            serde_json::json!({"unit": "x"}),
        ] {
            let result = Server::new(Returns(bad.clone()))
                .call("count", None)
                .await
                .expect("a tool result, not a protocol error");
            assert_eq!(result.is_error, Some(true), "{bad}");
            assert_eq!(
                result.structured_content, None,
                "{bad}: the value is not sent"
            );
            let text = format!("{:?}", result.content);
            assert!(
                text.contains("internal_error") && text.contains("outputSchema"),
                "{bad}: {text}"
            );
        }
    }

    #[tokio::test]
    async fn a_dispatcher_panicking_before_its_future_is_an_internal_error() {
        let result = Server::new(Eager)
            .call("boom", None)
            .await
            .expect("a tool result, not a protocol error");
        assert_eq!(result.is_error, Some(true));
        let envelope = result.structured_content.expect("the envelope");
        assert_eq!(envelope["errors"][0]["code"], "internal_error");
    }

    #[cfg(feature = "testing")]
    #[tokio::test]
    async fn a_resource_dispatcher_panicking_before_its_future_is_an_internal_error() {
        use crate::testing::{Revision, connect};

        let client = connect(Server::new(Eager), Revision::V2026_07_28)
            .await
            .expect("connected");
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            client.read_resource(rmcp::model::ReadResourceRequestParams::new("x:///notes")),
        )
        .await
        .expect("an answer, not silence");
        match read {
            Err(rmcp::ServiceError::McpError(e)) => {
                assert_eq!(e.code, rmcp::model::ErrorCode::INTERNAL_ERROR, "{e:?}")
            }
            other => panic!("expected -32603, got {other:?}"),
        }
    }
}
