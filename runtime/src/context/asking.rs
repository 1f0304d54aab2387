//! The asking methods of [`Context`], and what a context knows to ask.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientCapabilities, ElicitResult, ElicitationAction, InputRequest, ServerRequest,
};
use serde_json::Value;

use super::Context;
use crate::ask::round::Round;
use crate::ask::{
    Answer, Capability, Elicitation, Form, NotAsked, Roots, RootsResult, Sampled, Sampling,
    input_request,
};

/// What a request's context needs to ask its client.
#[derive(Default)]
pub(crate) struct Asking {
    /// What the client declared; `None` when it declared nothing (or there is no client).
    declared: Option<ClientCapabilities>,
    /// The run of a 2026-07-28 call that may ask; `None` elsewhere.
    round: Option<Arc<Round>>,
    /// The capability [`Context::require`] found missing: the call is refused for it.
    missing: Mutex<Option<Capability>>,
    /// The `elicitationId` of each URL question asked on 2025-11-25, by question id: what
    /// [`Context::elicitation_complete`] names.
    pub(super) url_ids: Mutex<std::collections::HashMap<String, String>>,
}

impl Asking {
    pub(crate) fn new(declared: Option<ClientCapabilities>, round: Option<Arc<Round>>) -> Self {
        Asking {
            declared,
            round,
            missing: Mutex::default(),
            url_ids: Mutex::default(),
        }
    }

    /// The capability the handler required and the client lacks, if any.
    pub(crate) fn missing(&self) -> Option<Capability> {
        *self.missing.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Context {
    /// Whether the client declared `capability`: whether asking for it can be answered at
    /// all. Asking without it returns [`NotAsked::Unsupported`] and sends nothing.
    pub fn can(&self, capability: Capability) -> bool {
        self.asking()
            .declared
            .as_ref()
            .is_some_and(|declared| capability.declared_in(declared))
    }

    /// For a tool that cannot do without `capability`: `true` when the client declared it;
    /// otherwise `false`, and the call is answered with the protocol's missing-capability
    /// error (`-32021`, `data.requiredCapabilities`; HTTP 400 on 2026-07-28) whatever the
    /// handler then returns, so it should return at once.
    #[must_use = "when false, return: the call is refused"]
    pub fn require(&self, capability: Capability) -> bool {
        if self.can(capability) {
            return true;
        }
        let mut missing = self
            .asking()
            .missing
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        missing.get_or_insert(capability);
        false
    }

    /// Asks the user to fill the form `question` and returns the answer: [`Answer::Accept`]
    /// with the content (checked against the question's schema), [`Answer::Decline`] or
    /// [`Answer::Cancel`]; or why it was not asked ([`NotAsked::Unsupported`] when the client
    /// cannot elicit: it is then never asked).
    ///
    /// Await it before doing anything the answer should decide. On 2026-07-28 the handler
    /// is stopped at the first await of a question without an answer, and runs again from
    /// the start when the client answers: whatever it did before asking happens once per
    /// round (see [the model](crate::ask)). The question's id, not its order, finds its
    /// answer.
    #[must_use = "a question not awaited is never asked"]
    pub async fn elicit(&self, question: Elicitation) -> Result<Answer, NotAsked> {
        let Elicitation {
            id,
            message,
            requested_schema,
        } = question;
        let checker = crate::check::Checker::compile(&requested_schema)
            .map_err(|e| NotAsked::Invalid(format!("the requestedSchema: {e}")))?;
        let params = serde_json::json!({"message": message, "requestedSchema": requested_schema});
        let request = input_request("elicitation/create", Some(params))?;
        let value = self.ask(&id, Capability::Elicitation, request).await?;
        let result: ElicitResult = match serde_json::from_value(value) {
            Ok(result) => result,
            Err(e) => {
                return Err(self
                    .reject(&id, format!("not an elicitation result: {e}"))
                    .await);
            }
        };
        match result.action {
            ElicitationAction::Accept => {
                let content = result
                    .content
                    .unwrap_or_else(|| Value::Object(Default::default()));
                match content {
                    Value::Object(content) if checker.is_valid_object(&content) => {
                        Ok(Answer::Accept(content))
                    }
                    _ => Err(self
                        .reject(
                            &id,
                            "the accepted content does not match the requestedSchema".into(),
                        )
                        .await),
                }
            }
            ElicitationAction::Decline => Ok(Answer::Decline),
            ElicitationAction::Cancel => Ok(Answer::Cancel),
            _ => Ok(Answer::Cancel),
        }
    }

    /// [`Context::elicit`] with the form `F` (its schema, and its content as an `F`), asked
    /// as `id` with `message`.
    #[must_use = "a question not awaited is never asked"]
    pub async fn elicit_form<F: Form>(
        &self,
        id: &str,
        message: &str,
    ) -> Result<Answer<F>, NotAsked> {
        match self.elicit(Elicitation::of::<F>(id, message)).await? {
            Answer::Accept(content) => match serde_json::from_value(Value::Object(content)) {
                Ok(form) => Ok(Answer::Accept(form)),
                Err(e) => Err(self
                    .reject(id, format!("the content is not the form: {e}"))
                    .await),
            },
            Answer::Decline => Ok(Answer::Decline),
            Answer::Cancel => Ok(Answer::Cancel),
        }
    }

    /// Asks the client's model for a completion ([`Sampling::prompt`]). Runs like
    /// [`Context::elicit`]: await it first; [`NotAsked::Unsupported`] when the client
    /// cannot sample.
    #[must_use = "a question not awaited is never asked"]
    pub async fn sample(&self, question: Sampling) -> Result<Sampled, NotAsked> {
        let Sampling { id, params } = question;
        let request = input_request("sampling/createMessage", Some(params))?;
        let value = self.ask(&id, Capability::Sampling, request).await?;
        let model = value
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(model) = model.filter(|_| value.get("role").is_some()) else {
            return Err(self.reject(&id, "not a sampling result".into()).await);
        };
        let content = value.get("content");
        let text = content
            .and_then(|c| c.get("text"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let stop_reason = value
            .get("stopReason")
            .and_then(Value::as_str)
            .map(str::to_owned);
        Ok(Sampled {
            model,
            text,
            stop_reason,
            result: value,
        })
    }

    /// Asks the client for its roots, as the question `id`. Runs like [`Context::elicit`]:
    /// await it first; [`NotAsked::Unsupported`] when the client has no roots capability.
    #[must_use = "a question not awaited is never asked"]
    pub async fn roots(&self, id: &str) -> Result<Roots, NotAsked> {
        let request = input_request("roots/list", None)?;
        let value = self.ask(id, Capability::Roots, request).await?;
        match serde_json::from_value::<RootsResult>(value) {
            Ok(result) => Ok(result.roots),
            Err(e) => Err(self.reject(id, format!("not a roots result: {e}")).await),
        }
    }

    /// The client's answer to `request`, asked as `id`, as JSON.
    pub(super) async fn ask(
        &self,
        id: &str,
        capability: Capability,
        request: InputRequest,
    ) -> Result<Value, NotAsked> {
        if !self.can(capability) {
            return Err(NotAsked::Unsupported(capability));
        }
        let Some(context) = self.request_context() else {
            return Err(NotAsked::Unsupported(capability));
        };
        if let Some(round) = &self.asking().round {
            if let Some(answer) = round.answer(id) {
                return Ok(answer);
            }
            round.wait_for(id, request).await;
            return Err(NotAsked::Cancelled);
        }
        if !self.revision().has_initialize() {
            return Err(NotAsked::Failed(
                "on 2026-07-28 only a tool call, a prompt or a resource read can ask its client"
                    .into(),
            ));
        }
        let request = match request {
            InputRequest::Elicitation(r) => ServerRequest::ElicitRequest(r),
            InputRequest::CreateMessage(r) => ServerRequest::CreateMessageRequest(r),
            InputRequest::ListRoots(r) => ServerRequest::ListRootsRequest(r),
            _ => return Err(NotAsked::Invalid("an unknown kind of question".into())),
        };
        // A 2025-11-25 task is `input_required` while its handler waits here.
        let asking = crate::tasks::asking(&context.extensions).await;
        let answered = tokio::select! {
            answered = context.peer.send_request(request) => match answered {
                Ok(result) => serde_json::to_value(result).map_err(|e| NotAsked::Failed(e.to_string())),
                Err(rmcp::ServiceError::McpError(e)) => Err(NotAsked::Failed(e.message.into_owned())),
                Err(rmcp::ServiceError::Cancelled { .. } | rmcp::ServiceError::TransportClosed) => {
                    Err(NotAsked::Cancelled)
                }
                Err(e) => Err(NotAsked::Failed(e.to_string())),
            },
            () = context.ct.cancelled() => Err(NotAsked::Cancelled),
        };
        asking.done().await;
        answered
    }

    /// The answer to `id` is not one to its question: on 2026-07-28 the call is refused
    /// (`-32602`), elsewhere the handler is told.
    pub(super) async fn reject(&self, id: &str, why: String) -> NotAsked {
        if let Some(round) = &self.asking().round {
            round.reject(id, why).await;
            return NotAsked::Cancelled;
        }
        NotAsked::Failed(why)
    }
}
