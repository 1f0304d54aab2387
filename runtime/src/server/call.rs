//! The call pipeline: what every handler call goes through, whatever route or view it came
//! by. A tool call's arguments are checked against its input schema, its handler runs in
//! its [`Context`] with panics caught, its structured result is checked against its output
//! schema, and a failure becomes the error envelope; a resource read, a prompt get and a
//! completion run their handlers the same way. On 2026-07-28 a handler that asks its client
//! runs in an asking round, and the answers it used are sealed into the request state of
//! the input-required answer.
//!
//! The pipeline decides nothing about who sees what: it is handed an entry the route's
//! [`Reach`](super::reach::Reach) found.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt as _;
use rmcp::model::{
    CallToolResponse, CallToolResult, GetPromptResult, InputRequiredResult, InputResponses,
    JsonObject, ReadResourceResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tracing::Instrument as _;

use super::Dispatch;
use crate::ask::round::{Ended, Round};
use crate::ask::seal::{self, Sealer};
use crate::context::Context;
use crate::lists::Lists;
use crate::prompt::{Completing, PromptError, PromptMessage};
use crate::published::{Checks, Published};
use crate::request::{self, InFlight};
use crate::resource::ResourceError;
use crate::session::{Session, Updates};
use crate::state::State;
use crate::tasks::{InTask, TaskLimits, Tasks};
use crate::{arguments, call};

/// The call pipeline of one connection: the handler, and what the calls share across
/// requests. Cheap to clone: clones share everything.
pub(crate) struct Pipeline<D> {
    pub(super) dispatch: Arc<D>,
    /// The connection this pipeline serves; a new connection gets its own
    /// ([`Pipeline::for_connection`]).
    pub(super) session: Arc<Session>,
    /// Seals and opens the request state of 2026-07-28 calls that ask their client.
    pub(super) sealer: Arc<Sealer>,
    /// What is switched off at run time, shared by every connection and view.
    pub(super) lists: Lists,
    /// The calls running as tasks, shared by every connection and view ([`crate::tasks`]).
    pub(super) tasks: Arc<Tasks>,
    /// What each request is measured into, once the server has its telemetry.
    #[cfg(feature = "telemetry")]
    pub(super) instruments: Option<Arc<crate::telemetry::Instruments>>,
}

impl<D> Clone for Pipeline<D> {
    fn clone(&self) -> Self {
        Pipeline {
            dispatch: Arc::clone(&self.dispatch),
            session: Arc::clone(&self.session),
            sealer: Arc::clone(&self.sealer),
            lists: self.lists.clone(),
            tasks: Arc::clone(&self.tasks),
            #[cfg(feature = "telemetry")]
            instruments: self.instruments.clone(),
        }
    }
}

/// What a 2026-07-28 client sends again with its answers.
#[derive(Default)]
pub(crate) struct Retry {
    pub(crate) responses: Option<InputResponses>,
    pub(crate) state: Option<String>,
}

/// A 2026-07-28 request's run, and the binding of the state it seals.
type Run = (Arc<Round>, Vec<u8>);

/// A handler's outcome, or the input-required answer of a 2026-07-28 handler that asked.
type Asked<T> = Result<T, InputRequiredResult>;

impl<D: Dispatch> Pipeline<D> {
    /// The pipeline of `dispatch`, on a first connection.
    pub(super) fn new(dispatch: D) -> Self {
        let published = dispatch.published();
        let state = State::default();
        Pipeline {
            dispatch: Arc::new(dispatch),
            session: Arc::new(Session::new(
                published,
                Arc::new(Updates::new(state.clone())),
            )),
            sealer: Arc::new(Sealer::new(state.clone())),
            lists: Lists::new(published),
            tasks: Arc::new(Tasks::new(TaskLimits::default(), state)),
            #[cfg(feature = "telemetry")]
            instruments: None,
        }
    }

    /// The same pipeline for a new connection: its own session, the rest shared.
    pub(super) fn for_connection(&self) -> Self {
        Pipeline {
            session: Arc::new(Session::new(
                self.published(),
                Arc::clone(self.session.updates()),
            )),
            ..self.clone()
        }
    }

    pub(super) fn published(&self) -> &'static Published {
        self.dispatch.published()
    }

    /// Calls tool `index`, called `name`, with `arguments`, for `request` or detached from
    /// any; `retry` is what a 2026-07-28 client sends again with its answers. Refused
    /// arguments, a failing or panicking handler and a result breaking the output schema are
    /// tool results (the error envelope); a tool that publishes an `outputSchema` carries
    /// its envelope as text only, since clients check that schema even on errors.
    pub(super) async fn call(
        &self,
        index: usize,
        name: &str,
        arguments: Option<JsonObject>,
        retry: Retry,
        request: Option<RequestContext<RoleServer>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let published = self.published();
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

    /// Reads resource `index` at `uri`, with its template's `values`, for `request`.
    /// `not_found` makes the not-found error of the client's revision, with the handler's
    /// reason when it gave one.
    pub(super) async fn read(
        &self,
        index: usize,
        uri: &str,
        values: Vec<String>,
        retry: Retry,
        request: RequestContext<RoleServer>,
        not_found: impl Fn(Option<String>) -> ErrorData,
    ) -> Result<Asked<ReadResourceResult>, ErrorData> {
        let resource = &self.published().spec.resources[index];
        // An app's HTML is in the contract: no handler to run, nothing to ask.
        if let Some(contents) = resource.app_contents(uri) {
            return Ok(Ok(ReadResourceResult::new(vec![contents])));
        }
        // A read that asks its client is bound to the URI read, as a call to its arguments.
        let read = JsonObject::from_iter([("uri".to_owned(), uri.into())]);
        let span =
            tracing::info_span!("resource", name = resource.name, request_id = ?Some(&request.id));
        let round = self
            .round_for(&request, "resource", resource.name, &read, retry)
            .await?;
        let ran = self.run_asking(request, resource.name, round, span, |cx| {
            self.dispatch.read_resource(index, values, cx)
        });
        let body = match ran.await? {
            Ok(outcome) => outcome,
            Err(asks) => return Ok(Err(asks)),
        };
        let body = body.unwrap_or_else(|_| {
            tracing::error!(resource = resource.name, "resource handler panicked");
            Err(ResourceError::Failed(format!(
                "reading `{uri}` failed unexpectedly"
            )))
        });
        let contents = match body {
            Ok(body) => resource.contents(uri, body),
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
        Ok(Ok(ReadResourceResult::new(vec![contents])))
    }

    /// Gets prompt `index` with `arguments`, already checked, for `request`; `given` are the
    /// arguments as sent, which a 2026-07-28 round is bound to.
    pub(super) async fn get(
        &self,
        index: usize,
        arguments: std::collections::HashMap<String, String>,
        given: &JsonObject,
        retry: Retry,
        request: RequestContext<RoleServer>,
    ) -> Result<Asked<GetPromptResult>, ErrorData> {
        let prompt = &self.published().spec.prompts[index];
        let span =
            tracing::info_span!("prompt", name = prompt.name, request_id = ?Some(&request.id));
        let round = self
            .round_for(&request, "prompt", prompt.name, given, retry)
            .await?;
        let ran = self.run_asking(request, prompt.name, round, span, |cx| {
            self.dispatch.get_prompt(index, arguments, cx)
        });
        let outcome = match ran.await? {
            Ok(outcome) => outcome,
            Err(asks) => return Ok(Err(asks)),
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
        Ok(Ok(
            GetPromptResult::new(messages).with_description(prompt.description)
        ))
    }

    /// Asks completion handler `handler` for the values completing the argument `argument`;
    /// a panicking handler completes nothing.
    pub(super) async fn complete(
        &self,
        handler: usize,
        argument: &str,
        completing: Completing,
        request: RequestContext<RoleServer>,
    ) -> Vec<String> {
        let (cx, _place) = self.context(request, argument, None);
        AssertUnwindSafe(self.dispatch.complete(handler, completing, cx))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                tracing::error!(handler, "completion handler panicked");
                Vec::new()
            })
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
        arguments: &JsonObject,
        retry: Retry,
    ) -> Result<Option<Run>, ErrorData> {
        if request::revision(request).has_initialize() {
            return Ok(None);
        }
        let (answers, binding) = self.opened(request, kind, name, arguments, &retry).await?;
        Ok(Some((
            Arc::new(Round::new(answers, retry.responses)),
            binding,
        )))
    }

    /// The answers of the earlier rounds the state of `retry` seals, for a request to the
    /// `kind` called `name` with `arguments`, with the binding they are sealed to; `-32602`
    /// for a state that does not open.
    async fn opened(
        &self,
        request: &RequestContext<RoleServer>,
        kind: &str,
        name: &str,
        arguments: &JsonObject,
        retry: &Retry,
    ) -> Result<(BTreeMap<String, serde_json::Value>, Vec<u8>), ErrorData> {
        let caller = request::caller(request).map(|p| p.subject.as_str());
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
        Ok((answers, binding))
    }

    /// Every answer a call of tool `name` with `arguments` for `request` carries: the
    /// client's new ones and those of earlier rounds its request state seals (which win, as
    /// in a round). A task stores them, so that a server rerunning it needs no state to open.
    pub(super) async fn answers(
        &self,
        request: &RequestContext<RoleServer>,
        name: &str,
        arguments: &JsonObject,
        retry: &Retry,
    ) -> Result<InputResponses, ErrorData> {
        let mut answers = retry.responses.clone().unwrap_or_default();
        if retry.state.is_some() {
            answers.extend(
                self.opened(request, "tool", name, arguments, retry)
                    .await?
                    .0,
            );
        }
        Ok(answers)
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
    ) -> Result<Asked<std::thread::Result<T>>, ErrorData> {
        let revision = request::revision(&request);
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
                self.published().identify(revision, &mut result.meta);
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
        arguments: JsonObject,
        cx: Context,
        round: Option<&Round>,
    ) -> Ended<Result<CallToolResult, String>> {
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

    /// The context of a call to `subject`, with the request's stdio slot, which the caller
    /// holds until the call ends: a handler may drop its context at once, and the slot must
    /// bound the work, not the context.
    fn context(
        &self,
        request: RequestContext<RoleServer>,
        subject: &str,
        round: Option<Arc<Round>>,
    ) -> (Context, Option<InFlight>) {
        let place = request::place(&request);
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

/// `result` when it keeps the tool's published outputSchema, which the spec requires of every
/// structured result; otherwise an `internal_error` in its place. The generated types fix the
/// shape, but not the constraints: a handler can still return 0 for `minimum: 1`, a string
/// breaking a `pattern`, or NaN (sent as `null`).
fn conforming(checks: &Checks, name: &str, result: CallToolResult) -> CallToolResult {
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
