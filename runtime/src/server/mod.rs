//! The server of a generated contract: the value a transport serves, one per connection.
//!
//! Its parts, each in its own module:
//! - [`Dispatch`] (`dispatch`): what generated code provides, the handler behind every call;
//! - `view`: which tools a route serves ([`Server::restrict`], [`Server::group`]);
//! - `reach`: who sees what, the one rule every path asks (the route's view, the caller's
//!   scopes, the run-time switches);
//! - `call`: the call pipeline every handler call goes through;
//! - `task`: calls that run as tasks;
//! - `handler`: the rmcp `ServerHandler`, a thin adapter from MCP requests to the above.

mod call;
mod dispatch;
mod handler;
mod reach;
mod task;
mod view;

use std::sync::Arc;

use rmcp::model::{CallToolResponse, CallToolResult, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use self::call::Pipeline;
pub(crate) use self::call::Retry;
pub use self::dispatch::Dispatch;
use self::reach::Reach;
use self::view::View;
use crate::access::Principal;
use crate::lists::Lists;
use crate::published::Published;
use crate::request;
use crate::session::{Session, Updates};
use crate::state::State;
use crate::tasks::{TaskLimits, TaskSupport, Tasks};

/// An MCP server for a generated contract, or a view of it that serves some of its tools
/// ([`Server::restrict`], [`Server::group`]). Cheap to clone: clones share the handler.
pub struct Server<D> {
    /// The handler and what its calls share; one session per connection.
    pipeline: Pipeline<D>,
    /// The tools this server value serves.
    view: Arc<View>,
}

impl<D> Clone for Server<D> {
    fn clone(&self) -> Self {
        Server {
            pipeline: self.pipeline.clone(),
            view: Arc::clone(&self.view),
        }
    }
}

impl<D: Dispatch> Server<D> {
    /// Wraps a dispatcher; generated code calls this from its `server(handler)` function.
    #[doc(hidden)]
    pub fn new(dispatch: D) -> Self {
        let view = View::whole(dispatch.published());
        Server {
            pipeline: Pipeline::new(dispatch),
            view: Arc::new(view),
        }
    }

    /// The same server with its tasks bounded by `limits` instead of the defaults; see
    /// [`crate::tasks`].
    pub fn task_limits(mut self, limits: TaskLimits) -> Self {
        self.pipeline.tasks = Arc::new(Tasks::new(limits, self.tasks().state().clone()));
        self.tasks_replaced();
        self
    }

    /// The same server keeping what outlives a request (task records, request-state keys,
    /// resource updates for other servers' subscribers) in `state` instead of this process's
    /// memory; see [`crate::state`]. Every replica behind one load balancer needs a store they
    /// share.
    pub fn state(mut self, state: State) -> Self {
        let pipeline = &mut self.pipeline;
        let updates = Arc::new(Updates::new(state.clone()));
        pipeline.session = Arc::new(Session::new(pipeline.published(), updates));
        pipeline.tasks = Arc::new(Tasks::new(pipeline.tasks.limits(), state.clone()));
        pipeline.sealer = Arc::new(pipeline.sealer.with_state(state));
        self.tasks_replaced();
        self
    }

    /// The gauges count the server's tasks as they are now, whichever of the builder's
    /// methods came first.
    fn tasks_replaced(&self) {
        #[cfg(feature = "telemetry")]
        if let Some(instruments) = &self.pipeline.instruments {
            instruments.gauges.watch_tasks(self.tasks());
        }
    }

    /// The same server measuring every request into `telemetry`'s meters, each tool's,
    /// prompt's and resource's series there from now on; see [`crate::telemetry`]. Its spans
    /// are made with or without this, and reach OpenTelemetry through
    /// [`Telemetry::layer`](crate::telemetry::Telemetry::layer).
    #[cfg(feature = "telemetry")]
    pub fn telemetry(mut self, telemetry: &crate::telemetry::Telemetry) -> Self {
        let instruments = crate::telemetry::Instruments::new(telemetry, self.published());
        instruments.gauges.watch_tasks(self.tasks());
        self.pipeline.instruments = Some(Arc::new(instruments));
        self
    }

    /// What this server measures into, once given its telemetry.
    #[cfg(feature = "telemetry")]
    pub(crate) fn instruments(&self) -> Option<Arc<crate::telemetry::Instruments>> {
        self.pipeline.instruments.clone()
    }

    /// The span of the request `context` to `method` for `target` (with whether the
    /// contract has it), begun; `arguments` are a call's, of which only those the manifest
    /// marks `record` are recorded. See [`crate::telemetry`].
    #[cfg(feature = "telemetry")]
    fn operation(
        &self,
        method: crate::telemetry::Method,
        target: Option<(&str, bool)>,
        uri: Option<&str>,
        arguments: Option<&JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> crate::telemetry::Operation {
        let spec = self.published().spec;
        let group = self.view.group.map(|g| spec.groups[g].name);
        let recorded = match (method, target) {
            (crate::telemetry::Method::CallTool, Some((name, true))) => {
                let tool = self.published().find(name);
                tool.map_or(&[][..], |i| spec.tools[i].recorded)
            }
            _ => &[],
        };
        let arguments = crate::telemetry::recorded(recorded, arguments);
        crate::telemetry::Operation::begin(method, target, uri, arguments, group, context)
    }

    pub(crate) fn dispatch(&self) -> &D {
        &self.pipeline.dispatch
    }

    pub(crate) fn tasks(&self) -> &Arc<Tasks> {
        &self.pipeline.tasks
    }

    /// The id of the connection this server value serves.
    pub(crate) fn connection_id(&self) -> String {
        self.pipeline.session.id()
    }

    /// The same server sealing the request state of its 2026-07-28 calls with `key` (at
    /// least 32 bytes of secret) instead of the process's random key. Every replica behind
    /// one load balancer needs the same key, so that a client's next round may reach
    /// another; see [`crate::ask`].
    ///
    /// # Errors
    ///
    /// A key shorter than 32 bytes.
    pub fn request_state_key(
        mut self,
        key: impl Into<Vec<u8>>,
    ) -> Result<Self, rmcp::model::RequestStateError> {
        self.pipeline.sealer = Arc::new(self.pipeline.sealer.with_key(key.into())?);
        Ok(self)
    }

    /// The same server with request states valid for `ttl` after they are made
    /// ([`crate::ask::DEFAULT_TTL`] by default); an older one is refused and the client must
    /// start the call over.
    pub fn request_state_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.pipeline.sealer = Arc::new(self.pipeline.sealer.with_ttl(ttl));
        self
    }

    /// The same server rotating the request-state key of its [state store](crate::state)
    /// once it has sealed new states for `period` ([`crate::ask::DEFAULT_ROTATION`] by
    /// default): the first process of a deployment to find the key that old replaces it, and
    /// the one before stays accepted until the next rotation. A period shorter than the
    /// request states' lifetime ([`Server::request_state_ttl`]) is taken as that lifetime, so
    /// that no state is refused before it expires. A key given with
    /// [`Server::request_state_key`] is never rotated.
    pub fn request_state_rotation(mut self, period: std::time::Duration) -> Self {
        self.pipeline.sealer = Arc::new(self.pipeline.sealer.with_rotation(period));
        self
    }

    /// The same server for a new connection: its own log level and subscriptions, the
    /// handler, view and subscription registry shared. Every transport serves one of these per
    /// connection.
    pub(crate) fn for_connection(&self) -> Self {
        Server {
            pipeline: self.pipeline.for_connection(),
            view: Arc::clone(&self.view),
        }
    }

    /// The handle that switches tools, groups, prompts and resources off and on while the
    /// server runs, for every connection and view of it at once, and tells their clients;
    /// see [`Lists`]. The contract must declare `list_changed: true`.
    pub fn lists(&self) -> Lists {
        self.pipeline.lists.clone()
    }

    /// Tells every client subscribed to the resource `uri` that it changed, with
    /// `notifications/resources/updated` (2025-11-25 clients subscribe with
    /// `resources/subscribe` to the resources the manifest marks `subscribe: true`). Use it
    /// from code outside a handler, such as a file watcher; a handler has
    /// [`Context::resource_updated`](crate::Context::resource_updated). A resource switched
    /// off is announced to no one.
    pub async fn resource_updated(&self, uri: &str) {
        let pipeline = &self.pipeline;
        crate::context::announce(&pipeline.session, &pipeline.lists, uri).await;
    }

    /// The whole contract, including tools this view does not serve.
    pub(crate) fn published(&self) -> &'static Published {
        self.pipeline.published()
    }

    /// What `caller` may see through this view now; see [`reach`].
    fn reach<'a>(&'a self, caller: Option<&'a Principal>) -> Reach<'a> {
        Reach::new(self.published(), &self.view, &self.pipeline.lists, caller)
    }

    /// Whether `context`'s caller may call a served tool `name`.
    pub(crate) fn knows(&self, name: &str, context: &RequestContext<RoleServer>) -> bool {
        self.reach(request::caller(context))
            .find_tool(name)
            .is_some()
    }

    /// Whether the tool `name`, when `context`'s caller may call it, may run as a task.
    pub(crate) fn task_support(
        &self,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> TaskSupport {
        // Most contracts have no task tools: their calls skip this second lookup.
        if !self.dispatch().has_tasks() {
            return TaskSupport::Forbidden;
        }
        self.reach(request::caller(context))
            .find_tool(name)
            .map_or(TaskSupport::Forbidden, |i| self.dispatch().task_support(i))
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
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        match self
            .call_in(name, arguments, Retry::default(), None)
            .await?
        {
            CallToolResponse::Complete(result) => Ok(result),
            _ => Err(ErrorData::internal_error(
                "a detached call cannot ask its client",
                None,
            )),
        }
    }

    /// [`Server::call`] for `request`, or detached from any request; `retry` is what a
    /// 2026-07-28 client sends again with its answers. A tool out of the caller's reach is
    /// unknown.
    pub(crate) async fn call_in(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        retry: Retry,
        request: Option<RequestContext<RoleServer>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = request.as_ref().and_then(request::caller);
        let Some(index) = self.reach(caller).find_tool(name) else {
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {name}"),
                None,
            ));
        };
        // A former name runs its tool as the tool itself; the log says who still uses it.
        let tool = self.published().tool_name(index);
        if tool != name {
            tracing::info!(alias = name, tool, "a tool was called by a former name");
        }
        self.pipeline
            .call(index, tool, arguments, retry, request)
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use futures::future::BoxFuture;
    use rmcp::model::ErrorCode;

    use super::*;
    use crate::Context;
    use crate::contract::ContractSpec;
    use crate::resource::ResourceError;

    static SPEC: ContractSpec = ContractSpec {
        name: "eager",
        version: "0.1.0",
        tools: &[crate::contract::ToolSpec::open(
            r#"{"name":"boom","description":"Panics.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        )],
        resources: &[crate::contract::ResourceSpec {
            name: "notes",
            title: "Notes",
            description: "The notes.",
            mime_type: "text/plain",
            uri: "x:///notes",
            template: false,
            subscribe: false,
            completions: &[],
            icons: &[],
            scopes: &[],
            meta: None,
            app: None,
        }],
        ..ContractSpec::EMPTY
    };
    static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));

    /// A dispatcher that panics while making its future, before returning it.
    struct Eager;

    impl Dispatch for Eager {
        fn published(&self) -> &'static Published {
            &PUBLISHED
        }
        fn call(
            &self,
            _tool: usize,
            _arguments: JsonObject,
            _cx: Context,
        ) -> BoxFuture<'_, CallToolResult> {
            panic!("eager failure")
        }
        fn read_resource(
            &self,
            _resource: usize,
            _values: Vec<String>,
            _cx: Context,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            panic!("eager failure")
        }
    }

    static COUNTING: ContractSpec = ContractSpec {
        name: "counting",
        tools: &[crate::contract::ToolSpec::open(
            r#"{"name":"count","description":"Counts.","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"outputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":1},"unit":{"type":"string"}},"required":["n"],"additionalProperties":false}}"#,
        )],
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
        fn call(
            &self,
            _tool: usize,
            _arguments: JsonObject,
            _cx: Context,
        ) -> BoxFuture<'_, CallToolResult> {
            let value = self.0.clone();
            Box::pin(async move { CallToolResult::structured(value) })
        }
        fn read_resource(
            &self,
            _resource: usize,
            _values: Vec<String>,
            _cx: Context,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            unreachable!("no resources")
        }
    }

    static ALIASES: crate::contract::AliasesSpec = crate::contract::AliasesSpec {
        tools: &[("tally", 0)],
        ..crate::contract::AliasesSpec::NONE
    };
    static ALIASED: LazyLock<Published> =
        LazyLock::new(|| Published::new(&COUNTING).with_aliases(&ALIASES));

    /// [`Returns`] serving [`ALIASED`], where `tally` is the former name of `count`.
    struct Aliased;

    impl Dispatch for Aliased {
        fn published(&self) -> &'static Published {
            &ALIASED
        }
        fn call(&self, tool: usize, _: JsonObject, _: Context) -> BoxFuture<'_, CallToolResult> {
            Box::pin(async move { CallToolResult::structured(serde_json::json!({"n": tool + 1})) })
        }
        fn read_resource(
            &self,
            _: usize,
            _: Vec<String>,
            _: Context,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            unreachable!("no resources")
        }
    }

    /// What a `tracing` subscriber writes, for tests that read the log.
    #[derive(Clone, Default)]
    struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Log {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_former_name_runs_its_tool_is_logged_and_is_listed_only_when_asked() {
        let log = Log::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let server = Server::new(Aliased);
        let by_alias = server.call("tally", None).await.expect("a result");
        let by_name = server.call("count", None).await.expect("a result");
        assert_eq!(by_alias.structured_content, by_name.structured_content);
        assert_eq!(
            by_alias.structured_content,
            Some(serde_json::json!({"n": 1}))
        );
        let logged = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            logged.matches("a tool was called by a former name").count(),
            1,
            "{logged}"
        );
        assert!(
            logged.contains("alias=\"tally\" tool=\"count\""),
            "{logged}"
        );

        let names = |server: &Server<Aliased>, revision| -> Vec<String> {
            server
                .reach(None)
                .tools(revision)
                .into_iter()
                .map(|t| t.name.into_owned())
                .collect()
        };
        for revision in mcp_contract_spec::Revision::ALL {
            assert_eq!(names(&server, revision), ["count"]);
            assert_eq!(names(&server.list_aliases(), revision), ["count", "tally"]);
        }
        let listed = &server
            .list_aliases()
            .reach(None)
            .tools(mcp_contract_spec::Revision::LATEST)[1];
        assert!(
            listed
                .description
                .as_deref()
                .unwrap()
                .starts_with("Deprecated alias of `count`: call `count` instead.")
        );
        assert_eq!(
            listed.meta.as_ref().unwrap()[mcp_contract_spec::LIFECYCLE_META_KEY],
            serde_json::json!({"state": "alias", "aliasOf": "count"})
        );
        // A view keeps the choice, and an alias of a tool out of the view is unknown.
        assert_eq!(
            names(
                &server.list_aliases().restrict(|_| false),
                mcp_contract_spec::Revision::LATEST
            ),
            Vec::<String>::new()
        );
        assert!(
            server
                .restrict(|_| false)
                .call("tally", None)
                .await
                .is_err()
        );
    }

    static PROMPTED: ContractSpec = ContractSpec {
        prompts: &[crate::contract::PromptSpec {
            name: "review",
            title: "Review",
            description: "Reviews.",
            arguments: &[],
            icons: &[],
            scopes: &[],
            meta: None,
        }],
        ..COUNTING
    };
    static PROMPT_ALIASES: crate::contract::AliasesSpec = crate::contract::AliasesSpec {
        prompts: &[("critique", 0)],
        ..crate::contract::AliasesSpec::NONE
    };
    static PROMPTED_PUBLISHED: LazyLock<Published> =
        LazyLock::new(|| Published::new(&PROMPTED).with_aliases(&PROMPT_ALIASES));

    /// [`Aliased`] serving [`PROMPTED_PUBLISHED`], where `critique` is the former name of the
    /// prompt `review`.
    struct Prompted;

    impl Dispatch for Prompted {
        fn published(&self) -> &'static Published {
            &PROMPTED_PUBLISHED
        }
        fn call(
            &self,
            tool: usize,
            arguments: JsonObject,
            cx: Context,
        ) -> BoxFuture<'_, CallToolResult> {
            Aliased.call(tool, arguments, cx)
        }
        fn read_resource(
            &self,
            _: usize,
            _: Vec<String>,
            _: Context,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            unreachable!("no resources")
        }
    }

    #[test]
    fn a_prompt_s_former_name_finds_the_prompt() {
        let server = Server::new(Prompted);
        assert_eq!(server.reach(None).find_prompt("review"), Some(0));
        assert_eq!(server.reach(None).find_prompt("critique"), Some(0));
        assert_eq!(server.reach(None).find_prompt("critic"), None);
    }

    #[test]
    fn a_whole_server_lists_the_contract_s_tools_without_a_copy() {
        let server = Server::new(Eager);
        assert!(std::ptr::eq(server.tools(), PUBLISHED.tools()));
        assert!(std::ptr::eq(
            server.view.tools_without_headers(&PUBLISHED),
            PUBLISHED.tools_without_headers()
        ));
        // A view keeps its own list.
        let none = server.restrict(|_| false);
        assert!(none.tools().is_empty() && none.view.tools_without_headers(&PUBLISHED).is_empty());
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

    static UNCOMPILED: ContractSpec = ContractSpec {
        name: "uncompiled",
        tools: &[
            crate::contract::ToolSpec::open(
                r##"{"name":"refs","description":"Refers.","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}}}}"##,
            ),
            crate::contract::ToolSpec::open(
                r#"{"name":"iffy","description":"Positional.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","prefixItems":[{"required":["n"]}]}}"#,
            ),
            crate::contract::ToolSpec::open(
                r#"{"name":"fine","description":"Fine.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
            ),
        ],
        resources: &[],
        ..SPEC
    };
    static UNCOMPILED_PUBLISHED: LazyLock<Published> =
        LazyLock::new(|| Published::new(&UNCOMPILED));

    /// A hand-built contract with schemas outside the checker's subset; its handler counts
    /// the calls that reach it.
    struct Uncompiled(std::sync::atomic::AtomicUsize);

    impl Dispatch for Uncompiled {
        fn published(&self) -> &'static Published {
            &UNCOMPILED_PUBLISHED
        }
        fn call(
            &self,
            _tool: usize,
            _arguments: JsonObject,
            _cx: Context,
        ) -> BoxFuture<'_, CallToolResult> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Box::pin(async { CallToolResult::structured(serde_json::json!({})) })
        }
        fn read_resource(
            &self,
            _resource: usize,
            _values: Vec<String>,
            _cx: Context,
        ) -> BoxFuture<'_, Result<crate::ResourceBody, ResourceError>> {
            unreachable!("no resources")
        }
    }

    #[tokio::test]
    async fn a_schema_the_checks_cannot_compile_is_an_internal_error_not_a_panic() {
        let server = Server::new(Uncompiled(Default::default()));
        for (tool, place) in [
            (
                "refs",
                "the input schema of `refs` does not compile for the argument and result checks: `/properties/a/$ref`: `#/$defs/a` points at no schema of the document",
            ),
            (
                "iffy",
                "the output schema of `iffy` does not compile for the argument and result checks: `/prefixItems`: `prefixItems` is not supported",
            ),
        ] {
            // Every call, not only the first, and before the handler runs.
            for _ in 0..2 {
                let e = server
                    .call(tool, None)
                    .await
                    .expect_err("a protocol error, not a result");
                assert_eq!(e.code, ErrorCode::INTERNAL_ERROR, "{tool}: {e:?}");
                assert!(e.message.contains(place), "{tool}: {}", e.message);
            }
        }
        assert_eq!(
            server
                .pipeline
                .dispatch
                .0
                .load(std::sync::atomic::Ordering::SeqCst),
            0
        );
        let fine = server.call("fine", None).await.expect("a result");
        assert_eq!(fine.is_error, Some(false));
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
    async fn without_prompts_the_prompt_and_completion_methods_are_not_found() {
        use rmcp::model::{ArgumentInfo, CompleteRequestParams, GetPromptRequestParams, Reference};

        use crate::testing::{Revision, connect};

        for revision in Revision::ALL {
            let client = connect(Server::new(Eager), revision)
                .await
                .expect("connected");
            let code = |e: Result<_, rmcp::ServiceError>| match e {
                Err(rmcp::ServiceError::McpError(e)) => e.code,
                other => panic!("expected an error, got {:?}", other.map(|_: ()| ())),
            };
            let listed = client.list_prompts(None).await.map(drop);
            assert_eq!(code(listed), ErrorCode::METHOD_NOT_FOUND, "{revision}");
            let got = client
                .get_prompt(GetPromptRequestParams::new("p"))
                .await
                .map(drop);
            assert_eq!(code(got), ErrorCode::METHOD_NOT_FOUND, "{revision}");
            let completed = client
                .complete(CompleteRequestParams::new(
                    Reference::for_prompt("p"),
                    ArgumentInfo::new("a", ""),
                ))
                .await
                .map(drop);
            assert_eq!(code(completed), ErrorCode::METHOD_NOT_FOUND, "{revision}");
            let _ = client.cancel().await;
        }
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
