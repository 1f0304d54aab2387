//! The rmcp `ServerHandler`: each MCP request read, its entry found in the caller's
//! [`Reach`](super::reach::Reach), handed to the [pipeline](super::call), and its answer
//! given what the client's revision carries beside it (cache hints, the server's name).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, DiscoverResult, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, Reference,
    ServerConfig, SubscribeRequestParams, TASKS_EXTENSION_ID, Tool, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::reach::Reach;
use super::{Dispatch, Retry, Server};
use crate::contract::CompletionSpec;
use crate::prompt::{self, Completing};
use crate::request::{caller, revision};
use crate::session::{LogLevel, MAX_SUBSCRIPTIONS, Refused, Stored};
use crate::state::StoreError;
use crate::tasks::TaskSupport;

/// Gives a list or read `$result` what a client of `$revision` receives beside its items: the
/// cache hint for `$reach`'s caller and the server's name in `_meta`, when that revision has
/// them. A macro because each result is its own rmcp type, with the same builder methods and
/// no trait in common.
macro_rules! for_revision {
    ($server:expr, $reach:expr, $revision:expr, $result:ident) => {
        if let Some((ttl, scope)) = $reach.cache_for($revision) {
            if let Some(ttl) = ttl {
                $result = $result.with_ttl_ms(ttl);
            }
            $result = $result.with_cache_scope(scope);
        }
        $server.published().identify($revision, &mut $result.meta);
    };
}

/// Answers the request `$context` (a `&RequestContext`) to `$method` with `$body`, the
/// method's body: with feature `telemetry`, inside the request's span, measured (see
/// [`crate::telemetry`]). Every request the handler answers goes through it, so that each is
/// one span by the same rules. `$method` names a [`Method`](crate::telemetry::Method) variant;
/// `$target` is `Some((name, known))` for a call, get or read: the target's own name and
/// `true` when the contract has it (under a former name too), which alone names it in
/// metrics, else the name asked for and `false`; `$uri` is a read's; `$arguments` a call's.
/// Without the feature the body is the method's own, unwrapped, and the other arguments are
/// not evaluated.
macro_rules! observed {
    ($server:expr, $context:expr, $method:expr, $body:block) => {
        observed!($server, $context, $method, None, None, None, $body)
    };
    ($server:expr, $context:expr, $method:expr, $target:expr, $uri:expr, $arguments:expr, $body:block) => {{
        #[cfg(feature = "telemetry")]
        {
            #[allow(unused_imports)]
            use crate::telemetry::Method::{self, CallTool, GetPrompt, ReadResource};
            let operation = $server.operation($method, $target, $uri, $arguments, $context);
            let instruments = $server.pipeline.instruments.clone();
            operation.observe(instruments.as_deref(), async move $body).await
        }
        #[cfg(not(feature = "telemetry"))]
        $body
    }};
}

impl<D: Dispatch> ServerHandler for Server<D> {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.published().info.clone();
        if self.dispatch().has_tasks() {
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
        observed!(self, &context, Method::Other("tasks/get"), {
            let mut result = self
                .tasks()
                .get(&request.task_id, &self.owner(&context))
                .await?;
            self.published()
                .identify(revision(&context), &mut result.meta);
            Ok(result)
        })
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("tasks/update"), {
            let (responses, owner) = (request.input_responses, self.owner(&context));
            let rerun = |record: &_| self.rerun(record, context);
            self.tasks()
                .update(&request.task_id, &owner, responses, rerun)
                .await
        })
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("tasks/cancel"), {
            self.tasks()
                .cancel(&request.task_id, &self.owner(&context))
                .await
                .map(drop)
        })
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        observed!(self, &context, Method::Other("tools/list"), {
            // Older revisions keep the shape they know: no `x-mcp-header`, no cache hints.
            let revision = revision(&context);
            let reach = self.reach(caller(&context));
            let mut result = ListToolsResult::with_all_items(reach.tools(revision));
            for_revision!(self, reach, revision, result);
            Ok(result)
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        observed!(self, &context, Method::Other("resources/list"), {
            let revision = revision(&context);
            let reach = self.reach(caller(&context));
            let mut result = ListResourcesResult::with_all_items(reach.resources());
            for_revision!(self, reach, revision, result);
            Ok(result)
        })
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        observed!(self, &context, Method::Other("resources/templates/list"), {
            let revision = revision(&context);
            let reach = self.reach(caller(&context));
            let mut result = ListResourceTemplatesResult::with_all_items(reach.templates());
            for_revision!(self, reach, revision, result);
            Ok(result)
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let found = self.reach(caller(&context)).find_resource(&request.uri);
        observed!(
            self,
            &context,
            ReadResource,
            Some(found.as_ref().map_or(("", false), |(i, _)| {
                (self.published().spec.resources[*i].name, true)
            })),
            Some(&request.uri),
            None,
            {
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
                let Some((index, values)) = found else {
                    return Err(not_found(None));
                };
                let retry = Retry {
                    responses: request.input_responses,
                    state: request.request_state,
                };
                let read = self
                    .pipeline
                    .read(index, &uri, values, retry, context, not_found);
                let mut result = match read.await? {
                    Ok(result) => result,
                    Err(asks) => return Ok(asks.into()),
                };
                // A read's answer is the same for every caller who reaches it.
                for_revision!(self, self.reach(None), revision, result);
                Ok(result.into())
            }
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        observed!(
            self,
            &context,
            CallTool,
            Some(match self.published().find(&request.name) {
                Some(i) => (self.published().tool_name(i), true),
                None => (&*request.name, false),
            }),
            None,
            request.arguments.as_ref(),
            {
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
                let published = self.published();
                Ok(match response {
                    CallToolResponse::Complete(mut result) => {
                        published.identify(revision, &mut result.meta);
                        result.into()
                    }
                    CallToolResponse::InputRequired(mut result) => {
                        published.identify(revision, &mut result.meta);
                        result.into()
                    }
                    other => other,
                })
            }
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        observed!(self, &context, Method::Other("prompts/list"), {
            self.published().advertised("prompts/list")?;
            let revision = revision(&context);
            let reach = self.reach(caller(&context));
            let mut result = ListPromptsResult::with_all_items(reach.prompts());
            for_revision!(self, reach, revision, result);
            Ok(result)
        })
    }

    /// An unknown prompt, a missing required argument, an unknown one or one that is not a
    /// string is `-32602` before any handler runs (unlike a tool's arguments, which are a
    /// result); a panicking handler is `-32603`.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        observed!(
            self,
            &context,
            GetPrompt,
            Some(match self.published().find_prompt(&request.name) {
                Some(i) => (self.published().spec.prompts[i].name, true),
                None => (&*request.name, false),
            }),
            None,
            None,
            {
                let published = self.published();
                published.advertised("prompts/get")?;
                let Some(index) = self.reach(caller(&context)).find_prompt(&request.name) else {
                    return Err(ErrorData::invalid_params(
                        format!("Unknown prompt: {}", request.name),
                        Some(serde_json::json!({ "prompt": request.name })),
                    ));
                };
                let given = request.arguments.clone().unwrap_or_default();
                let arguments = published.spec.prompts[index].arguments(request.arguments)?;
                let revision = revision(&context);
                let retry = Retry {
                    responses: request.input_responses,
                    state: request.request_state,
                };
                let got = self.pipeline.get(index, arguments, &given, retry, context);
                let mut result = match got.await? {
                    Ok(result) => result,
                    Err(asks) => return Ok(asks.into()),
                };
                published.identify(revision, &mut result.meta);
                Ok(result.into())
            }
        )
    }

    /// Completes a prompt argument or a template variable: fixed values by prefix, or the
    /// handler's; an unknown prompt, template or argument is `-32602`.
    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        observed!(self, &context, Method::Other("completion/complete"), {
            self.published().advertised("completion/complete")?;
            let revision = revision(&context);
            let completion = completion_of(&self.reach(caller(&context)), &request)?;
            let values = match completion {
                CompletionSpec::None => Vec::new(),
                CompletionSpec::Values(values) => {
                    prompt::by_prefix(values, &request.argument.value)
                }
                CompletionSpec::Handler(handler) => {
                    let argument = request.argument.name;
                    let given = request
                        .context
                        .and_then(|c| c.arguments)
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|(name, _)| *name != argument)
                        .collect();
                    let completing = Completing {
                        value: request.argument.value,
                        arguments: given,
                    };
                    let completed = self
                        .pipeline
                        .complete(handler, &argument, completing, context);
                    completed.await
                }
            };
            let mut result = CompleteResult::new(prompt::answer(values));
            self.published().identify(revision, &mut result.meta);
            Ok(result)
        })
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
        observed!(self, &context, Method::named(&request.method), {
            if crate::tasks::is_requested_task(&request) && revision(&context).has_initialize() {
                return self.requested_task(request, context).await;
            }
            let params = request.params.as_ref();
            self.published().advertised(&request.method)?;
            let error = match crate::params::problem(&request.method, params, revision(&context)) {
                Some(problem) => ErrorData::invalid_params(problem, None),
                None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None),
            };
            Err(error)
        })
    }

    /// `logging/setLevel` (2025-11-25; rmcp answers `-32601` on 2026-07-28 and when the
    /// manifest declares no logging, since the capability is then not advertised).
    #[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); both revisions have it.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("logging/setLevel"), {
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
            let session = &self.pipeline.session;
            session.set_level(level, &context).await.map_err(unstored)
        })
    }

    /// `resources/subscribe` (2025-11-25) to a resource the manifest marks `subscribe: true`;
    /// one out of the caller's reach is not subscribable.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("resources/subscribe"), {
            let uri = request.uri;
            let published = self.published();
            let reach = self.reach(caller(&context));
            let hidden = published
                .resource(&uri)
                .is_some_and(|(i, _)| !reach.resource(i));
            let subscribed = if hidden {
                Err(Refused::NotSubscribable)
            } else {
                self.pipeline.session.subscribe(&context, &uri).await
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
                Err(Refused::Store(e)) => Err(unstored(e)),
            }
        })
    }

    /// `resources/unsubscribe` (2025-11-25); unsubscribing from what is not subscribed is
    /// no error.
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("resources/unsubscribe"), {
            let session = &self.pipeline.session;
            session
                .unsubscribe(&context, &request.uri)
                .await
                .map_err(unstored)
        })
    }

    /// The tool rmcp checks a call's `Mcp-Param-*` headers against. rmcp asks without the
    /// request, so a tool outside the caller's scopes is found here too; the call itself is
    /// then refused as unknown.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.reach(None)
            .find_tool(name)
            .map(|i| self.published().tools()[i].clone())
    }

    /// `ping` (2025-11-25; rmcp answers `-32601` on 2026-07-28, which removed it).
    async fn ping(
        &self,
        // Read only for its span.
        #[cfg_attr(not(feature = "telemetry"), expect(unused_variables))] context: RequestContext<
            RoleServer,
        >,
    ) -> Result<(), ErrorData> {
        observed!(self, &context, Method::Other("ping"), { Ok(()) })
    }

    /// `initialize` (2025-11-25), as rmcp answers it; the worker of an HTTP session, new or
    /// serving it again, takes the session's id, log level and subscriptions from its record.
    async fn initialize(
        &self,
        request: rmcp::model::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::InitializeResult, ErrorData> {
        observed!(self, &context, Method::Other("initialize"), {
            if let Some(stored) = Stored::of(&context) {
                self.pipeline.session.bind(stored, &context.peer);
            }
            context.peer.set_peer_info(request.clone());
            self.negotiate_initialize(&request)
        })
    }

    /// A 2025-11-25 client finished `initialize`: from now on it hears of list changes.
    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        let pipeline = &self.pipeline;
        pipeline
            .lists
            .announce_to(context.peer, pipeline.session.ended());
    }

    /// `subscriptions/listen` (2026-07-28) accepts the list changes a client asks for, when
    /// the contract's lists can change, and the resources in reach; `-32601` otherwise. rmcp
    /// asks before the caller is known, so the caller's scopes are applied in
    /// [`listen`](Self::listen).
    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        self.reach(None).accepted(requested)
    }

    /// The resources accepted that are in the caller's reach: their updates come on the
    /// stream until it ends, while they stay switched on. (The acknowledgment, sent before
    /// the caller is known here, may name one it may not read; no update of that one is ever
    /// sent to it.)
    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        observed!(
            self,
            context.request_context(),
            Method::Other("subscriptions/listen"),
            {
                let pipeline = &self.pipeline;
                let reach = self.reach(caller(context.request_context()));
                let accepted = context.accepted().resource_subscriptions.iter().flatten();
                let _updates = pipeline.session.updates().listen(
                    self.published(),
                    context.sink().clone(),
                    reach.subscribable(accepted),
                );
                // A host that stops ends the stream with its final result, as 2026-07-28 has it.
                let stopping = crate::request::stopping(context.request_context());
                let listening = pipeline.lists.listen(context);
                match stopping {
                    Some(stopping) => tokio::select! {
                        listened = listening => listened,
                        () = stopping.wait() => Ok(()),
                    },
                    None => listening.await,
                }
            }
        )
    }

    async fn discover(
        &self,
        // Read only for its span.
        #[cfg_attr(not(feature = "telemetry"), expect(unused_variables))] context: RequestContext<
            RoleServer,
        >,
    ) -> Result<DiscoverResult, ErrorData> {
        observed!(self, &context, Method::Other("server/discover"), {
            // `resources.subscribe` means `resourceSubscriptions` on `subscriptions/listen` here.
            let info = self.get_info();
            let mut result = DiscoverResult::from_server_info(
                self.supported_protocol_versions().into_owned(),
                info,
            );
            if let Some((ttl, scope)) = self.published().cache_hint() {
                result = result.with_ttl_ms(ttl).with_cache_scope(scope);
            }
            Ok(result)
        })
    }
}

/// The error of a request whose session's record could not be read or written: the client
/// may try again.
fn unstored(e: StoreError) -> ErrorData {
    tracing::error!(error = %e, "a session's record was not read or written");
    ErrorData::internal_error(e.to_string(), None)
}

/// What a `completion/complete` names, when it is in `reach`: the completion, or the
/// `-32602` saying what is unknown.
fn completion_of(
    reach: &Reach<'_>,
    request: &CompleteRequestParams,
) -> Result<CompletionSpec, ErrorData> {
    let argument = &request.argument.name;
    let unknown = |what: String| ErrorData::invalid_params(what, None);
    let spec = reach.published().spec;
    match &request.r#ref {
        Reference::Prompt(p) => {
            let prompt = (reach.find_prompt(&p.name))
                .map(|i| &spec.prompts[i])
                .ok_or_else(|| unknown(format!("Unknown prompt: {}", p.name)))?;
            let a = prompt
                .arguments
                .iter()
                .find(|a| a.name == *argument)
                .ok_or_else(|| {
                    unknown(format!(
                        "The prompt `{}` has no argument `{argument}`",
                        p.name
                    ))
                })?;
            Ok(a.completion)
        }
        Reference::Resource(r) => {
            let resource = (reach.find_template(&r.uri))
                .map(|i| &spec.resources[i])
                .ok_or_else(|| unknown(format!("Unknown resource template: {}", r.uri)))?;
            Ok(resource
                .completions
                .iter()
                .find(|(v, _)| v == argument)
                .map_or(CompletionSpec::None, |(_, c)| *c))
        }
        _ => Err(unknown("Unknown reference type".into())),
    }
}

#[cfg(test)]
mod tests {
    /// The generator names the tasks extension from the shared facts; the runtime advertises
    /// rmcp's: they are one name.
    #[test]
    fn the_tasks_extension_is_rmcp_s() {
        assert_eq!(
            mcp_contract_spec::TASKS_EXTENSION,
            rmcp::model::TASKS_EXTENSION_ID
        );
    }
}
