//! The rmcp `ServerHandler` every generated contract is served by.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt as _;
use mcp_contract_spec::{Revision, SERVER_INFO_META};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    CustomRequest, CustomResult, DiscoverResult, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, InputRequiredResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tracing::Instrument as _;

use crate::access::{self, Principal};
use crate::ask::round::{Ended, Round};
use crate::ask::seal::{self, Sealer};
use crate::codegen::CompletionSpec;
use crate::codegen::{Dispatch, Published};
use crate::context::LogLevel;
use crate::lists::{CHANGING_LIST_TTL_MS, Lists};
use crate::published::Checks;
use crate::session::{MAX_SUBSCRIPTIONS, Refused, Session, Updates};
use crate::state::State;
use crate::tasks::{InTask, TaskLimits, TaskSupport, Tasks};
use crate::{
    Completing, Context, PromptError, PromptMessage, ResourceError, arguments, call, params, prompt,
};
use rmcp::model::TASKS_EXTENSION_ID;

/// An MCP server for a generated contract, or a view of it that serves some of its tools
/// ([`Server::restrict`], [`Server::group`]). Cheap to clone: clones share the handler.
pub struct Server<D> {
    dispatch: Arc<D>,
    view: Arc<View>,
    /// The connection this server value serves; a new connection gets its own
    /// ([`Server::for_connection`]).
    session: Arc<Session>,
    /// Seals and opens the request state of 2026-07-28 calls that ask their client.
    sealer: Arc<Sealer>,
    /// What is switched off at run time, shared by every connection and view.
    lists: Lists,
    /// The calls running as tasks, shared by every connection and view ([`crate::tasks`]).
    tasks: Arc<Tasks>,
}

/// The tools a server serves, decided once when the server or view is made.
struct View {
    /// `served[i]`: whether tool `i` of the manifest is served.
    served: Box<[bool]>,
    /// The served tools, in manifest order: the `tools/list` answer; `None` when they are all
    /// the contract's, so that a whole server keeps no copy of its list.
    tools: Option<Vec<Tool>>,
    /// The same tools as a 2025-11-25 client receives them (no `x-mcp-header`), made on
    /// the first such request (for `Some` tools only).
    legacy_tools: std::sync::OnceLock<Vec<Tool>>,
    /// The scopes every caller of this view needs: its group's, for a group's view.
    scopes: &'static [&'static str],
    /// The group whose view this is, whose switch ([`Lists`]) turns the whole view off.
    group: Option<usize>,
}

impl<D> Clone for Server<D> {
    fn clone(&self) -> Self {
        Server {
            dispatch: Arc::clone(&self.dispatch),
            view: Arc::clone(&self.view),
            session: Arc::clone(&self.session),
            sealer: Arc::clone(&self.sealer),
            lists: self.lists.clone(),
            tasks: Arc::clone(&self.tasks),
        }
    }
}

impl<D: Dispatch> Server<D> {
    /// Wraps a dispatcher; generated code calls this from its `server(handler)` function.
    #[doc(hidden)]
    pub fn new(dispatch: D) -> Self {
        let published = dispatch.published();
        let view = View {
            served: vec![true; published.tool_count()].into_boxed_slice(),
            tools: None,
            legacy_tools: Default::default(),
            scopes: &[],
            group: None,
        };
        let state = State::default();
        Server {
            dispatch: Arc::new(dispatch),
            view: Arc::new(view),
            session: Arc::new(Session::new(
                published,
                Arc::new(Updates::new(state.clone())),
            )),
            sealer: Arc::new(Sealer::new(state.clone())),
            lists: Lists::new(published),
            tasks: Arc::new(Tasks::new(TaskLimits::default(), state)),
        }
    }

    /// The same server with its tasks bounded by `limits` instead of the defaults; see
    /// [`crate::tasks`].
    pub fn task_limits(mut self, limits: TaskLimits) -> Self {
        self.tasks = Arc::new(Tasks::new(limits, self.tasks.state().clone()));
        self
    }

    /// The same server keeping what outlives a request (task records, request-state keys,
    /// 2025-11-25 session records, resource updates for other servers' subscribers) in
    /// `state` instead of this process's memory; see [`crate::state`]. Every replica behind
    /// one load balancer needs a store they share.
    pub fn state(mut self, state: State) -> Self {
        let updates = Arc::new(Updates::new(state.clone()));
        self.session = Arc::new(Session::new(self.published(), updates));
        self.tasks = Arc::new(Tasks::new(self.tasks.limits(), state.clone()));
        self.sealer = Arc::new(self.sealer.with_state(state));
        self
    }

    pub(crate) fn dispatch(&self) -> &D {
        &self.dispatch
    }

    pub(crate) fn tasks(&self) -> &Arc<Tasks> {
        &self.tasks
    }

    /// The id of the connection this server value serves.
    pub(crate) fn connection_id(&self) -> String {
        self.session.id().to_owned()
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
        self.sealer = Arc::new(self.sealer.with_key(key.into())?);
        Ok(self)
    }

    /// The same server with request states valid for `ttl` after they are made
    /// ([`crate::ask::DEFAULT_TTL`] by default); an older one is refused and the client must
    /// start the call over.
    pub fn request_state_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.sealer = Arc::new(self.sealer.with_ttl(ttl));
        self
    }

    /// The same server for a new connection: its own log level and subscriptions, the
    /// handler, view and subscription registry shared. Every transport serves one of these per
    /// connection.
    pub(crate) fn for_connection(&self) -> Self {
        Server {
            dispatch: Arc::clone(&self.dispatch),
            view: Arc::clone(&self.view),
            session: Arc::new(Session::new(
                self.published(),
                Arc::clone(self.session.updates()),
            )),
            sealer: Arc::clone(&self.sealer),
            lists: self.lists.clone(),
            tasks: Arc::clone(&self.tasks),
        }
    }

    /// The handle that switches tools, groups, prompts and resources off and on while the
    /// server runs, for every connection and view of it at once, and tells their clients;
    /// see [`Lists`]. The contract must declare `list_changed: true`.
    pub fn lists(&self) -> Lists {
        self.lists.clone()
    }

    /// Tells every client subscribed to the resource `uri` that it changed, with
    /// `notifications/resources/updated` (2025-11-25 clients subscribe with
    /// `resources/subscribe` to the resources the manifest marks `subscribe: true`). Use it
    /// from code outside a handler, such as a file watcher; a handler has
    /// [`Context::resource_updated`].
    pub async fn resource_updated(&self, uri: &str) {
        self.session.resource_updated(uri).await;
    }

    /// The whole contract, including tools this view does not serve.
    pub(crate) fn published(&self) -> &'static Published {
        self.dispatch.published()
    }

    /// [`Server::tools`] as a 2025-11-25 client receives them (no `x-mcp-header`).
    fn legacy_tools(&self) -> &[Tool] {
        if self.view.tools.is_none() {
            return self.published().legacy_tools();
        }
        self.view.legacy_tools.get_or_init(|| {
            let all = self.published().legacy_tools();
            (0..all.len())
                .filter(|&i| self.view.served[i])
                .map(|i| all[i].clone())
                .collect()
        })
    }

    /// The tools this view serves, in manifest order: what `tools/list` answers while no
    /// tool is switched off ([`Server::lists`]).
    pub fn tools(&self) -> &[Tool] {
        self.view
            .tools
            .as_deref()
            .unwrap_or(self.published().tools())
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
        let mut served = vec![false; published.tool_count()].into_boxed_slice();
        let mut tools = Vec::new();
        for (i, tool) in published.tools().iter().enumerate() {
            if self.view.served[i] && keep(tool) {
                served[i] = true;
                tools.push(tool.clone());
            }
        }
        Server {
            dispatch: Arc::clone(&self.dispatch),
            view: Arc::new(View {
                served,
                tools: Some(tools),
                legacy_tools: Default::default(),
                scopes: self.view.scopes,
                group: self.view.group,
            }),
            session: Arc::clone(&self.session),
            sealer: Arc::clone(&self.sealer),
            lists: self.lists.clone(),
            tasks: Arc::clone(&self.tasks),
        }
    }

    /// The view serving the tools of the contract's group `name` (see
    /// the manifest's `groups:`) that this server serves;
    /// `None` when the contract has no such group.
    pub fn group(&self, name: &str) -> Option<Server<D>> {
        let spec = self.published().spec;
        let index = spec.groups.iter().position(|g| g.name == name)?;
        let group = &spec.groups[index];
        let mut view = self.restrict(|t| group.tools.contains(&t.name.as_ref()));
        let made = Arc::get_mut(&mut view.view).expect("a view just made is not shared");
        made.group = Some(index);
        if let Some(scopes) = spec.access.groups.get(index).filter(|s| !s.is_empty()) {
            made.scopes = scopes;
        }
        Some(view)
    }

    /// The scopes every caller of this server needs before anything is served: its group's
    /// (`scopes:` of the group in the manifest) for a group's view, none otherwise. The HTTP
    /// host's authorization answers a token without them `403 insufficient_scope`.
    pub fn required_scopes(&self) -> &'static [&'static str] {
        self.view.scopes
    }

    /// The manifest index of the served tool called `name`, when `caller` may call it.
    fn find(&self, name: &str, caller: Option<&Principal>) -> Option<usize> {
        let published = self.published();
        published
            .find(name)
            .filter(|&i| self.serves(i) && published.may_call(i, caller))
    }

    /// Whether `context`'s caller may call a served tool `name`.
    pub(crate) fn knows(&self, name: &str, context: &RequestContext<RoleServer>) -> bool {
        self.find(name, access::caller(context)).is_some()
    }

    /// Whether the tool `name`, when `context`'s caller may call it, may run as a task.
    pub(crate) fn task_support(
        &self,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> TaskSupport {
        // Most contracts have no task tools: their calls skip this second lookup.
        if !self.dispatch.has_tasks() {
            return TaskSupport::Forbidden;
        }
        self.find(name, access::caller(context))
            .map_or(TaskSupport::Forbidden, |i| self.dispatch.task_support(i))
    }

    /// Whether this view serves tool `i` now: it is in the view and not switched off.
    fn serves(&self, i: usize) -> bool {
        self.view.served.get(i).copied().unwrap_or(false) && self.lists.tool(i, self.view.group)
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
    /// 2026-07-28 client sends again with its answers.
    pub(crate) async fn call_in(
        &self,
        name: &str,
        arguments: Option<rmcp::model::JsonObject>,
        retry: Retry,
        request: Option<RequestContext<RoleServer>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let published = self.published();
        let caller = request.as_ref().and_then(access::caller);
        let Some(index) = self.find(name, caller) else {
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {name}"),
                None,
            ));
        };
        // A schema outside the checks' subset (only a hand-built spec has one) refuses every
        // call of its tool before the handler runs.
        let checks = published.checks(index).map_err(|why| {
            tracing::error!(tool = name, why, "a tool's schema does not compile");
            ErrorData::internal_error(format!("mcp-contract: {why}"), None)
        })?;
        let arguments = arguments.unwrap_or_default();
        // A task's handler that panics fails its task (`failed`, with the error).
        let in_task = request
            .as_ref()
            .is_some_and(|r| r.extensions.get::<InTask>().is_some());
        let round = match &request {
            Some(request) => {
                self.round_for(request, "tool", name, &arguments, retry)
                    .await?
            }
            None => None,
        };
        // Refused arguments are answered before any context is made for a handler that will
        // not run, so that a refusal costs no more than a call.
        if let Err(envelope) = arguments::check(
            &published.spec.argument_codes,
            name,
            &checks.input,
            &checks.hint,
            &arguments,
        ) {
            return Ok(envelope.into_result_for(checks.output.is_none()).into());
        }
        let (cx, _place) = match request {
            Some(request) => {
                self.context(request, name, round.as_ref().map(|(r, _)| Arc::clone(r)))
            }
            None => (Context::detached(), None),
        };
        // The handler takes its context; this copy tells afterwards what it required.
        let asked = cx.clone();
        let ended = self
            .run(
                index,
                checks,
                name,
                arguments,
                cx,
                round.as_ref().map(|(r, _)| &**r),
            )
            .await;
        required(&asked)?;
        match ended {
            Ended::Finished(Err(failure)) if in_task => {
                Err(ErrorData::internal_error(failure, None))
            }
            Ended::Finished(outcome) => {
                let mut result = outcome.unwrap_or_else(call::internal);
                if result.is_error == Some(true) && checks.output.is_some() {
                    result.structured_content = None;
                }
                Ok(result.into())
            }
            Ended::Asks { questions, answers } => {
                let binding = round.map(|(_, binding)| binding).unwrap_or_default();
                let state = self.sealer.seal(&binding, answers).await?;
                Ok(InputRequiredResult::new(Some(questions), Some(state)).into())
            }
            Ended::Malformed(id, why) => Err(malformed(&id, &why)),
        }
    }

    /// The run of a 2026-07-28 request to the `kind` called `name` with `arguments`, which
    /// may ask its client, with the binding its next state is sealed to; `None` on
    /// 2025-11-25, where asking is a request to the client. A state that does not open is
    /// `-32602`.
    async fn round_for(
        &self,
        request: &RequestContext<RoleServer>,
        kind: &str,
        name: &str,
        arguments: &rmcp::model::JsonObject,
        retry: Retry,
    ) -> Result<Option<Run>, ErrorData> {
        if revision(request).has_initialize() {
            return Ok(None);
        }
        let caller = access::caller(request).map(|p| p.subject.as_str());
        let arguments = serde_json::Value::Object(arguments.clone());
        let binding = seal::binding(kind, name, &arguments, caller);
        let answers = match &retry.state {
            Some(state) => self
                .sealer
                .open(state, &binding)
                .await
                .map_err(seal::Refused::error)?,
            None => Default::default(),
        };
        Ok(Some((
            Arc::new(Round::new(answers, retry.responses)),
            binding,
        )))
    }

    /// The `handler` of the prompt or resource `name`, run as a tool's is: with its context
    /// and stdio slot, panics caught, in its 2026-07-28 `round` (from [`Self::round_for`])
    /// until it finishes or asks. `Ok(Err(_))` is the input-required answer, with the
    /// answers it used sealed for the next round; `Err` a malformed answer or a capability
    /// the handler required.
    async fn run_asking<T, F: Future<Output = T>>(
        &self,
        request: RequestContext<RoleServer>,
        name: &str,
        round: Option<Run>,
        span: tracing::Span,
        handler: impl FnOnce(Context) -> F,
    ) -> Result<Result<std::thread::Result<T>, InputRequiredResult>, ErrorData> {
        let revision = revision(&request);
        let (cx, _place) = self.context(request, name, round.as_ref().map(|(r, _)| Arc::clone(r)));
        // The handler takes its context; this copy tells afterwards what it required.
        let asked = cx.clone();
        // Called inside the caught future, so a panic while making its future is caught too.
        let handler = AssertUnwindSafe(async move { handler(cx).await })
            .catch_unwind()
            .instrument(span);
        let ended = match &round {
            Some((round, _)) => round.drive(handler).await,
            None => Ended::Finished(handler.await),
        };
        required(&asked)?;
        match ended {
            Ended::Finished(outcome) => Ok(Ok(outcome)),
            Ended::Asks { questions, answers } => {
                let binding = round.map(|(_, binding)| binding).unwrap_or_default();
                let state = self.sealer.seal(&binding, answers).await?;
                let mut result = InputRequiredResult::new(Some(questions), Some(state));
                self.identify(revision, &mut result.meta);
                Ok(Err(result))
            }
            Ended::Malformed(id, why) => Err(malformed(&id, &why)),
        }
    }

    /// The call itself, its arguments checked: the handler, with panics caught, until it
    /// finishes or (in a 2026-07-28 `round`) waits for an answer the client has not given.
    async fn run(
        &self,
        index: usize,
        checks: &Checks,
        name: &str,
        arguments: rmcp::model::JsonObject,
        cx: Context,
        round: Option<&Round>,
    ) -> Ended<Result<rmcp::model::CallToolResult, String>> {
        // The dispatcher is called inside the caught future, so a panic while it makes its
        // future is caught as well as one while the future runs.
        let span = tracing::info_span!("tool", name, request_id = ?cx.request_id());
        let handler = AssertUnwindSafe(async { self.dispatch.call(index, arguments, cx).await })
            .catch_unwind()
            .instrument(span);
        let ended = match round {
            Some(round) => round.drive(handler).await,
            None => Ended::Finished(handler.await),
        };
        let outcome = match ended {
            Ended::Finished(outcome) => outcome,
            Ended::Asks { questions, answers } => return Ended::Asks { questions, answers },
            Ended::Malformed(id, why) => return Ended::Malformed(id, why),
        };
        Ended::Finished(match outcome {
            Ok(result) => Ok(conforming(checks, name, result)),
            Err(panic) => {
                let detail = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                tracing::error!(tool = name, panic = %detail, "tool handler panicked");
                Err(format!(
                    "`{name}` failed unexpectedly and returned no result."
                ))
            }
        })
    }

    /// `-32601` for a prompt or completion method of a server that does not advertise the
    /// capability (as rmcp answers them, and clients probe for it), `Ok` otherwise.
    fn advertised(&self, method: &str) -> Result<(), ErrorData> {
        let capabilities = &self.published().info.capabilities;
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

    /// The context of a call to `subject`, with the request's stdio slot, which the caller
    /// holds until the call ends: a handler may drop its context at once, and the slot must
    /// bound the work, not the context.
    fn context(
        &self,
        request: RequestContext<RoleServer>,
        subject: &str,
        round: Option<Arc<Round>>,
    ) -> (Context, Option<crate::stdio::InFlight>) {
        let place = crate::stdio::place(&request);
        (
            Context::new(
                request,
                subject,
                Arc::clone(&self.session),
                self.lists.clone(),
                round,
            ),
            place,
        )
    }

    /// The cache hint of a list for `caller`, a client of `revision`, when that revision has
    /// them: the manifest's, but private, and private even without one, when the list is
    /// filtered by the caller's scopes (a shared cache must not give it to another caller).
    fn cache_for(
        &self,
        revision: Revision,
        caller: Option<&Principal>,
    ) -> Option<(Option<u64>, CacheScope)> {
        if !revision.has_cache_hints() {
            return None;
        }
        let declared = self.cache_hint();
        if self.published().gate.filters(caller) {
            return Some((declared.map(|(ttl, _)| ttl), CacheScope::Private));
        }
        declared.map(|(ttl, scope)| (Some(ttl), scope))
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

    /// The manifest's cache hint; for lists that can change, no longer than
    /// [`CHANGING_LIST_TTL_MS`], so that a client that does not listen still sees a change.
    fn cache_hint(&self) -> Option<(u64, CacheScope)> {
        let spec = self.published().spec;
        spec.cache.map(|c| {
            (
                if spec.list_changed {
                    c.ttl_ms.min(CHANGING_LIST_TTL_MS)
                } else {
                    c.ttl_ms
                },
                if c.public {
                    CacheScope::Public
                } else {
                    CacheScope::Private
                },
            )
        })
    }
}

/// Gives a list or read `$result` what a client of `$revision` receives beside its items: the
/// cache hint and the server's name in `_meta`, when that revision has them. A macro because
/// each result is its own rmcp type, with the same builder methods and no trait in common.
macro_rules! for_revision {
    ($server:expr, $revision:expr, $caller:expr, $result:ident) => {
        if let Some((ttl, scope)) = $server.cache_for($revision, $caller) {
            if let Some(ttl) = ttl {
                $result = $result.with_ttl_ms(ttl);
            }
            $result = $result.with_cache_scope(scope);
        }
        $server.identify($revision, &mut $result.meta);
    };
}

/// A 2026-07-28 request's run, and the binding of the state it seals.
type Run = (Arc<Round>, Vec<u8>);

/// What a 2026-07-28 client sends again with its answers.
#[derive(Default)]
pub(crate) struct Retry {
    pub(crate) responses: Option<rmcp::model::InputResponses>,
    pub(crate) state: Option<String>,
}

/// The missing-capability error (`-32021`) when the handler of `cx` required a capability
/// its client lacks ([`Context::require`]), whatever it returned.
fn required(cx: &Context) -> Result<(), ErrorData> {
    match cx.asking().missing() {
        Some(capability) => Err(ErrorData::missing_required_client_capability(
            capability.as_required(),
        )),
        None => Ok(()),
    }
}

/// The `-32602` of an answer that is not one to its question.
fn malformed(id: &str, why: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("inputResponses[\"{id}\"] is not an answer to its question: {why}"),
        Some(serde_json::json!({ "inputResponse": id })),
    )
}

/// The revision whose rules the request's client follows.
pub(crate) fn revision(context: &RequestContext<RoleServer>) -> Revision {
    Revision::negotiated(
        context
            .protocol_version()
            .as_ref()
            .map(ProtocolVersion::as_str),
    )
}

impl<D: Dispatch> ServerHandler for Server<D> {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.published().info.clone();
        if self.dispatch.has_tasks() {
            let extensions = info.capabilities.extensions.get_or_insert_default();
            extensions.insert(TASKS_EXTENSION_ID.to_owned(), Default::default());
        }
        info
    }

    // Tasks (`crate::tasks`): rmcp answers these `-32021` for a client that did not opt in.
    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        let mut result = self
            .tasks
            .get(&request.task_id, &self.owner(&context))
            .await?;
        self.identify(revision(&context), &mut result.meta);
        Ok(result)
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let responses = request.input_responses;
        self.tasks
            .update(&request.task_id, &self.owner(&context), responses)
            .await
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .cancel(&request.task_id, &self.owner(&context))
            .await
            .map(drop)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Older revisions keep the shape they know: no `x-mcp-header`, no cache hints.
        let revision = revision(&context);
        let caller = access::caller(&context);
        let published = self.published();
        let tools = if !published.gate.filters(caller) && self.lists.all_on() {
            if revision.has_mcp_headers() {
                self.tools().to_vec()
            } else {
                self.legacy_tools().to_vec()
            }
        } else {
            let all = if revision.has_mcp_headers() {
                published.tools()
            } else {
                published.legacy_tools()
            };
            (0..all.len())
                .filter(|&i| self.serves(i) && published.may_call(i, caller))
                .map(|i| all[i].clone())
                .collect()
        };
        let mut result = ListToolsResult::with_all_items(tools);
        for_revision!(self, revision, caller, result);
        Ok(result)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let revision = revision(&context);
        let caller = access::caller(&context);
        let resources = self.published().listed_resources(caller, &self.lists);
        let mut result = ListResourcesResult::with_all_items(resources);
        for_revision!(self, revision, caller, result);
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let revision = revision(&context);
        let caller = access::caller(&context);
        let templates = self.published().listed_templates(caller, &self.lists);
        let mut result = ListResourceTemplatesResult::with_all_items(templates);
        for_revision!(self, revision, caller, result);
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
        let published = self.published();
        let Some((index, values)) = published.resource(&uri).filter(|(i, _)| {
            published.gate.resource(*i, access::caller(&context)) && self.lists.resource(*i)
        }) else {
            return Err(not_found(None));
        };
        let resource = &self.published().spec.resources[index];
        let retry = Retry {
            responses: request.input_responses,
            state: request.request_state,
        };
        // A read that asks its client is bound to the URI read, as a call to its arguments.
        let read = rmcp::model::JsonObject::from_iter([("uri".to_owned(), uri.clone().into())]);
        let span =
            tracing::info_span!("resource", name = resource.name, request_id = ?Some(&context.id));
        let round = self
            .round_for(&context, "resource", resource.name, &read, retry)
            .await?;
        let ran = self.run_asking(context, resource.name, round, span, |cx| {
            self.dispatch.read_resource(index, values, cx)
        });
        let body = match ran.await? {
            Ok(outcome) => outcome,
            Err(asks) => return Ok(asks.into()),
        };
        let body = body.unwrap_or_else(|_| {
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
        for_revision!(self, revision, None, result);
        Ok(result.into())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let revision = revision(&context);
        let retry = Retry {
            responses: request.input_responses,
            state: request.request_state,
        };
        let support = self.task_support(&request.name, &context);
        let response = if support == TaskSupport::Forbidden {
            self.call_in(&request.name, request.arguments, retry, Some(context))
                .await?
        } else {
            let name = request.name.into_owned();
            self.call_as_task(support, name, request.arguments, retry, context)
                .await?
        };
        Ok(match response {
            CallToolResponse::Complete(mut result) => {
                self.identify(revision, &mut result.meta);
                result.into()
            }
            CallToolResponse::InputRequired(mut result) => {
                self.identify(revision, &mut result.meta);
                result.into()
            }
            other => other,
        })
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.advertised("prompts/list")?;
        let revision = revision(&context);
        let caller = access::caller(&context);
        let published = self.published();
        let prompts = (published.prompts.iter().enumerate())
            .filter(|(i, _)| published.gate.prompt(*i, caller) && self.lists.prompt(*i))
            .map(|(_, p)| p.clone())
            .collect();
        let mut result = ListPromptsResult::with_all_items(prompts);
        for_revision!(self, revision, caller, result);
        Ok(result)
    }

    /// An unknown prompt, a missing required argument, an unknown one or one that is not a
    /// string is `-32602` before any handler runs (unlike a tool's arguments, which are a
    /// result); a panicking handler is `-32603`.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.advertised("prompts/get")?;
        let published = self.published();
        let prompts = published.spec.prompts;
        let Some(index) = (prompts.iter().position(|p| p.name == request.name)).filter(|&i| {
            published.gate.prompt(i, access::caller(&context)) && self.lists.prompt(i)
        }) else {
            return Err(ErrorData::invalid_params(
                format!("Unknown prompt: {}", request.name),
                Some(serde_json::json!({ "prompt": request.name })),
            ));
        };
        let prompt = &prompts[index];
        let given = request.arguments.clone().unwrap_or_default();
        let arguments = prompt.arguments(request.arguments)?;
        let revision = revision(&context);
        let retry = Retry {
            responses: request.input_responses,
            state: request.request_state,
        };
        let span =
            tracing::info_span!("prompt", name = prompt.name, request_id = ?Some(&context.id));
        let round = self
            .round_for(&context, "prompt", prompt.name, &given, retry)
            .await?;
        let ran = self.run_asking(context, prompt.name, round, span, |cx| {
            self.dispatch.get_prompt(index, arguments, cx)
        });
        let outcome = match ran.await? {
            Ok(outcome) => outcome,
            Err(asks) => return Ok(asks.into()),
        };
        let messages = outcome.unwrap_or_else(|_| {
            tracing::error!(prompt = prompt.name, "prompt handler panicked");
            Err(PromptError::Failed(format!(
                "`{}` failed unexpectedly",
                prompt.name
            )))
        });
        let messages = match messages {
            Ok(messages) => messages,
            Err(PromptError::Invalid(why)) => {
                return Err(ErrorData::invalid_params(
                    why,
                    Some(serde_json::json!({ "prompt": prompt.name })),
                ));
            }
            Err(PromptError::Failed(why)) => return Err(ErrorData::internal_error(why, None)),
        };
        let messages = messages
            .into_iter()
            .map(PromptMessage::into_wire)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|why| {
                tracing::error!(prompt = prompt.name, problem = %why, "prompt message not sent");
                ErrorData::internal_error(
                    format!(
                        "`{}` produced a message that cannot be sent: {why}",
                        prompt.name
                    ),
                    None,
                )
            })?;
        let mut result = GetPromptResult::new(messages).with_description(prompt.description);
        self.identify(revision, &mut result.meta);
        Ok(result.into())
    }

    /// Completes a prompt argument or a template variable: fixed values by prefix, or the
    /// handler's; an unknown prompt, template or argument is `-32602`.
    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.advertised("completion/complete")?;
        let revision = revision(&context);
        let caller = access::caller(&context);
        let values = match prompt::completion_of(self.published(), &request, caller, &self.lists)? {
            CompletionSpec::None => Vec::new(),
            CompletionSpec::Values(values) => prompt::by_prefix(values, &request.argument.value),
            CompletionSpec::Handler(handler) => {
                let given = request
                    .context
                    .and_then(|c| c.arguments)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(name, _)| *name != request.argument.name)
                    .collect();
                let completing = Completing {
                    value: request.argument.value,
                    arguments: given,
                };
                let (cx, _place) = self.context(context, &request.argument.name, None);
                AssertUnwindSafe(self.dispatch.complete(handler, completing, cx))
                    .catch_unwind()
                    .await
                    .unwrap_or_else(|_| {
                        tracing::error!(handler, "completion handler panicked");
                        Vec::new()
                    })
            }
        };
        let mut result = CompleteResult::new(prompt::answer(values));
        self.identify(revision, &mut result.meta);
        Ok(result)
    }

    /// A request rmcp could not read as its method's type: one the server answers on the
    /// client's revision whose params do not fit (`params`), answered `-32602` where rmcp
    /// would say `-32601`; any other method is not found, as rmcp answers it (`initialize`
    /// on 2026-07-28 too, which that revision removed).
    async fn on_custom_request(
        &self,
        #[cfg_attr(not(feature = "http"), expect(unused_mut))] mut request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        #[cfg(feature = "http")]
        crate::tasks::unhide(&mut request, &context);
        if crate::tasks::is_requested_task(&request) && revision(&context).has_initialize() {
            return self.requested_task(request, context).await;
        }
        let params = request.params.as_ref();
        self.advertised(&request.method)?;
        let error = match params::problem(&request.method, params, revision(&context)) {
            Some(problem) => ErrorData::invalid_params(problem, None),
            None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None),
        };
        Err(error)
    }

    /// `logging/setLevel` (2025-11-25; rmcp answers `-32601` on 2026-07-28 and when the
    /// manifest declares no logging, since the capability is then not advertised).
    #[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); both revisions have it.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.published().spec.logging {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "logging/setLevel",
                None,
            ));
        }
        let level = serde_json::to_value(request.level)
            .ok()
            .and_then(|v| v.as_str().and_then(LogLevel::from_wire))
            .ok_or_else(|| ErrorData::invalid_params("unknown log level", None))?;
        self.session.set_log_level(level);
        Ok(())
    }

    /// `resources/subscribe` (2025-11-25) to a resource the manifest marks `subscribe: true`.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let uri = request.uri;
        let published = self.published();
        let hidden = published.resource(&uri).is_some_and(|(i, _)| {
            !published.gate.resource(i, access::caller(&context)) || !self.lists.resource(i)
        });
        let subscribed = if hidden {
            Err(Refused::NotSubscribable)
        } else {
            self.session.subscribe(&context.peer, &uri)
        };
        match subscribed {
            Ok(()) => Ok(()),
            Err(Refused::NotSubscribable) => Err(ErrorData::invalid_params(
                format!("`{uri}` is not a resource that announces its changes"),
                Some(serde_json::json!({ "uri": uri })),
            )),
            Err(Refused::TooMany) => Err(ErrorData::invalid_params(
                format!(
                    "a connection may hold at most {MAX_SUBSCRIPTIONS} subscriptions; \
                     unsubscribe from one first"
                ),
                None,
            )),
        }
    }

    /// `resources/unsubscribe` (2025-11-25); unsubscribing from what is not subscribed is
    /// no error.
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.unsubscribe(&request.uri);
        Ok(())
    }

    /// The tool rmcp checks a call's `Mcp-Param-*` headers against. rmcp asks without the
    /// request, so a tool outside the caller's scopes is found here too; the call itself is
    /// then refused as unknown.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name, None)
            .map(|i| self.published().tools()[i].clone())
    }

    /// A 2025-11-25 client finished `initialize`: from now on it hears of list changes.
    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.lists.announce_to(context.peer, self.session.ended());
    }

    /// `subscriptions/listen` (2026-07-28) accepts the list changes a client asks for, when
    /// the contract's lists can change; `-32601` otherwise.
    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        self.lists.accepted(requested)
    }

    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        // The resources accepted that this caller may read: their updates come on the stream
        // until it ends. (The acknowledgment, sent before the caller is known here, may name
        // one it may not read; no update of that one is ever sent to it.)
        let published = self.published();
        let caller = access::caller(context.request_context());
        let readable = context
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| {
                published
                    .resource(uri)
                    .is_some_and(|(i, _)| published.gate.resource(i, caller))
            })
            .cloned();
        let _updates = self.session.updates().listen(
            published,
            context.sink().clone(),
            readable.collect::<Vec<_>>(),
        );
        self.lists.listen(context).await
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        // `resources.subscribe` means `resourceSubscriptions` on `subscriptions/listen` here.
        let info = self.get_info();
        let mut result =
            DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), info);
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
    checks: &Checks,
    name: &str,
    result: rmcp::model::CallToolResult,
) -> rmcp::model::CallToolResult {
    let Some(checker) = &checks.output else {
        return result;
    };
    if result.is_error == Some(true) {
        return result;
    }
    let problems: Vec<String> = match &result.structured_content {
        Some(value) if checker.is_valid(value) => Vec::new(),
        Some(value) => checker
            .failures(value)
            .into_iter()
            .map(|failure| {
                let at = if failure.at.is_empty() {
                    "/"
                } else {
                    &failure.at
                };
                format!("at `{at}`: {}", failure.message)
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
            subscribe: false,
            completions: &[],
            icons: &[],
        }],
        artifacts_key: &["com.example/artifacts"],
        composition_key: &["com.example/composition"],
        groups: &[],
        argument_codes: mcp_contract_spec::error_codes::ArgumentCodes::DEFAULT,
        logging: false,
        list_changed: false,
        prompts: &[],
        access: crate::AccessSpec::OPEN,
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

    #[test]
    fn a_whole_server_lists_the_contract_s_tools_without_a_copy() {
        let server = Server::new(Eager);
        assert!(std::ptr::eq(server.tools(), PUBLISHED.tools()));
        assert!(std::ptr::eq(
            server.legacy_tools(),
            PUBLISHED.legacy_tools()
        ));
        // A view keeps its own list.
        let none = server.restrict(|_| false);
        assert!(none.tools().is_empty() && none.legacy_tools().is_empty());
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
            r##"{"name":"refs","description":"Refers.","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}}}}"##,
            r#"{"name":"iffy","description":"Conditional.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","if":{"required":["n"]}}}"#,
            r#"{"name":"fine","description":"Fine.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
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
                "the input schema of `refs` does not compile for the argument and result checks: `/properties/a/$ref`: `$ref` is not supported",
            ),
            (
                "iffy",
                "the output schema of `iffy` does not compile for the argument and result checks: `/if`: `if` is not supported",
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
            server.dispatch.0.load(std::sync::atomic::Ordering::SeqCst),
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
        use rmcp::model::{ArgumentInfo, Reference};

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
