//! Asking the client while a call runs: elicitation (a question to the user), sampling (a
//! completion from the client's model) and the client's roots, one way on both revisions.
//!
//! A tool's, a prompt's or a resource's handler asks through its [`Context`]: [`Context::elicit`], [`Context::elicit_form`],
//! [`Context::elicit_url`] (URL mode, for what a form must not carry), [`Context::sample`],
//! [`Context::roots`]. Each question has an id, stable across runs of
//! the handler (`"confirm"`, `"user_name"`), and each ask is a future to await before
//! anything else:
//!
//! ```ignore
//! async fn delete(&self, args: DeleteArgs, cx: Context) -> Result<String, DeleteError> {
//!     let question = Elicitation::form("confirm", format!("Delete {}?", args.path), json!({
//!         "type": "object",
//!         "properties": {"ok": {"type": "boolean"}},
//!         "required": ["ok"],
//!     }));
//!     match cx.elicit(question).await {
//!         Ok(Answer::Accept(content)) if content["ok"] == true => {}
//!         Ok(_) => return Ok("Nothing deleted.".into()),          // declined or cancelled
//!         Err(NotAsked::Unsupported(_)) => return Err(DeleteError::NeedsConfirmation),
//!         Err(other) => return Err(DeleteError::NotConfirmed(other.to_string())),
//!     }
//!     remove(&args.path)?;   // only now, with the answer in hand
//!     Ok("Deleted.".into())
//! }
//! ```
//!
//! # How it runs on each revision
//!
//! **2025-11-25.** The runtime sends the request to the client (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`) in the middle of the call and awaits its answer,
//! until the client cancels the call. The handler runs once.
//!
//! **2026-07-28.** Servers send no requests. The first time the handler awaits a question
//! the client has not answered, the runtime stops the handler (drops its future) and answers
//! the call (`tools/call`, `prompts/get` or `resources/read`) with an input-required result: every question asked and unanswered so far, keyed
//! by id, and a sealed `requestState`. The client calls again with the same arguments, its
//! answers in `inputResponses` and the same `requestState`; the runtime runs the handler
//! **again from the start**, and this time each answered question returns its answer at once.
//! The state carries the answers of earlier rounds, so a handler asking in three steps takes
//! three rounds and sees every answer in the last.
//!
//! **Several questions in one round**: questions awaited together (`futures::join!` or
//! [`futures::future::join_all`]) are all asked before the handler waits, so they travel in
//! one input-required result; questions awaited one after another take one round each,
//! which is right when a later question depends on an earlier answer. The handler's own
//! shape decides, and the same code does the same on 2025-11-25 (concurrent requests there).
//!
//! # What a handler must not do before it has its answers
//!
//! On 2026-07-28 everything before the last question runs once per round. So, before its
//! questions are answered, a handler must not:
//! * change anything outside itself (write, delete, send, charge): it would happen again on
//!   every round, and also for a client that never answers;
//! * rely on anything it computed in an earlier round except through the answers (no
//!   counters or caches kept across rounds); recomputing is fine;
//! * ask different questions under the same id, or pick ids from changing data (time,
//!   randomness): an answer is found by its id;
//! * hold the question's future without awaiting it, or spawn it away: the round ends at the
//!   first await on an unanswered question, and questions in detached tasks then resolve to
//!   [`NotAsked::Cancelled`].
//!
//! The types push towards this: asking is `async` and `#[must_use]` (a question not awaited
//! is never asked), answers are keyed by id and not by order, and every outcome (accept with
//! content, decline, cancel, and not asked at all) is a distinct variant to match.
//!
//! # The request state
//!
//! An HMAC-SHA256 (rmcp's request-state codec) over the earlier answers and an expiry
//! ([`Server::request_state_ttl`](crate::Server::request_state_ttl), 10 minutes by default),
//! with the tool's (prompt's, resource's) name, its arguments (canonical JSON; a read's URI)
//! and the verified caller bound in as associated data. The key is the server's [state
//! store](crate::state)'s key ring: random, made by the first process to read it, so every
//! replica sharing the store opens what another sealed; rotated once it has sealed for a day
//! ([`Server::request_state_rotation`](crate::Server::request_state_rotation)), the previous
//! key still opening what was sealed before, until the next rotation. A key given with
//! [`Server::request_state_key`](crate::Server::request_state_key) replaces the ring (and is
//! never rotated). A state that does not verify (altered, another tool's, other
//! arguments', another caller's) or has expired is refused with `-32602`; so is an answer
//! that is not the kind of result its question asks for. Arguments pass the whole input
//! schema on every round. `inputResponses` without a state are taken as first-round
//! answers; answers to questions the handler does not ask are ignored.
//!
//! # URL questions
//!
//! On 2025-11-25 each [`Context::elicit_url`] carries a fresh `elicitationId`; once the page is
//! done, [`Context::elicitation_complete`] tells the client
//! (`notifications/elicitation/complete`), which 2026-07-28 does not have.
//!
//! # Capabilities
//!
//! The runtime never asks what the client did not declare (2025-11-25: in `initialize`;
//! 2026-07-28: in each request's `clientCapabilities`): the ask returns
//! [`NotAsked::Unsupported`] at once, for the handler to fall back. A tool that cannot do
//! without it calls [`Context::require`], and the call is answered with the protocol's
//! missing-capability error (`-32021`, HTTP 400).
//!
//! [`Context`]: crate::Context
//! [`Context::elicit`]: crate::Context::elicit
//! [`Context::elicit_form`]: crate::Context::elicit_form
//! [`Context::elicit_url`]: crate::Context::elicit_url
//! [`Context::sample`]: crate::Context::sample
//! [`Context::roots`]: crate::Context::roots
//! [`Context::require`]: crate::Context::require
//! [`Context::elicitation_complete`]: crate::Context::elicitation_complete

pub(crate) mod round;
pub(crate) mod seal;

use std::fmt;

use rmcp::model::{ClientCapabilities, InputRequest, JsonObject};
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use seal::{DEFAULT_ROTATION, DEFAULT_TTL};

/// What the client may be asked for; a client is asked only for what it declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// Form elicitation (`elicitation`, or `elicitation.form`).
    Elicitation,
    /// URL elicitation (`elicitation.url`): the user is sent to a page of the server's.
    UrlElicitation,
    /// Sampling from the client's model (`sampling`).
    Sampling,
    /// The client's roots (`roots`).
    Roots,
}

impl Capability {
    /// The capability's name in `clientCapabilities`.
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::UrlElicitation => "elicitation.url",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }

    /// Whether `declared` includes this capability.
    pub(crate) fn declared_in(self, declared: &ClientCapabilities) -> bool {
        match self {
            // `elicitation: {}` means form; a client declaring only `url` cannot fill a form.
            Capability::Elicitation => declared
                .elicitation
                .as_ref()
                .is_some_and(|e| e.form.is_some() || e.url.is_none()),
            Capability::UrlElicitation => declared
                .elicitation
                .as_ref()
                .is_some_and(|e| e.url.is_some()),
            Capability::Sampling => declared.sampling.is_some(),
            Capability::Roots => declared.roots.is_some(),
        }
    }

    /// `clientCapabilities` declaring just this one: the data of a `-32021` error.
    pub(crate) fn as_required(self) -> ClientCapabilities {
        let declared = match self {
            Capability::UrlElicitation => serde_json::json!({"elicitation": {"url": {}}}),
            _ => serde_json::json!({ self.as_str(): {} }),
        };
        serde_json::from_value(declared).expect("a capability object")
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a question got no answer from the client.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotAsked {
    /// The client did not declare the capability, so it was never asked (nor is a client
    /// without one asked on a detached context).
    Unsupported(Capability),
    /// The client cancelled the call or went away before answering; or, on 2026-07-28, the
    /// round ended while this question waited outside the handler (in a spawned task).
    Cancelled,
    /// The client answered with an error, or (2025-11-25) with something that is not an
    /// answer to the question.
    Failed(String),
    /// The question itself is not one the protocol allows (a `requestedSchema` that is not
    /// a flat object of primitive fields, say); nothing was sent.
    Invalid(String),
}

impl fmt::Display for NotAsked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAsked::Unsupported(capability) => {
                write!(
                    f,
                    "the client cannot be asked: it did not declare `{capability}`"
                )
            }
            NotAsked::Cancelled => f.write_str("the call was cancelled before the client answered"),
            NotAsked::Failed(why) => write!(f, "the client did not answer: {why}"),
            NotAsked::Invalid(why) => write!(f, "the question is not valid: {why}"),
        }
    }
}

impl std::error::Error for NotAsked {}

/// The user's answer to an elicitation: three distinct outcomes.
#[derive(Debug, Clone, PartialEq)]
#[must_use = "an answer says whether the user agreed"]
pub enum Answer<T = JsonObject> {
    /// The user accepted and filled the form: its content.
    Accept(T),
    /// The user said no; the operation may go on without the information.
    Decline,
    /// The user dismissed the question; the whole operation should stop.
    Cancel,
}

impl<T> Answer<T> {
    /// The content, when the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Answer::Accept(content) => Some(content),
            Answer::Decline | Answer::Cancel => None,
        }
    }
}

/// A form to fill: the typed answer of an elicitation, generated from a manifest's question
/// or written by hand. Its content deserializes into `Self`.
pub trait Form: DeserializeOwned {
    /// The `requestedSchema`: a flat object of primitive fields.
    fn requested_schema() -> Value;
}

/// An elicitation question (form mode): an id, a message and the `requestedSchema` of the
/// form, a flat JSON Schema object of primitive fields (the spec's subset).
#[derive(Debug, Clone)]
#[must_use = "a question is asked only through Context::elicit"]
pub struct Elicitation {
    pub(crate) id: String,
    pub(crate) message: String,
    pub(crate) requested_schema: Value,
}

impl Elicitation {
    /// A form question with the id `id` (stable across runs of the handler; on 2026-07-28
    /// it keys the question and its answer), shown to the user as `message`.
    pub fn form(
        id: impl Into<String>,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Self {
        Elicitation {
            id: id.into(),
            message: message.into(),
            requested_schema,
        }
    }

    /// The form question whose schema is `F`'s.
    pub fn of<F: Form>(id: impl Into<String>, message: impl Into<String>) -> Self {
        Elicitation::form(id, message, F::requested_schema())
    }

    /// The question's id.
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// A sampling question: a request for a completion from the client's model.
#[derive(Debug, Clone)]
#[must_use = "a question is asked only through Context::sample"]
pub struct Sampling {
    pub(crate) id: String,
    pub(crate) params: Value,
}

impl Sampling {
    /// One user message `text`, answered in at most `max_tokens` tokens.
    pub fn prompt(id: impl Into<String>, text: impl Into<String>, max_tokens: u32) -> Self {
        let params = serde_json::json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": text.into()}}],
            "maxTokens": max_tokens,
        });
        Sampling {
            id: id.into(),
            params,
        }
    }

    /// Any `sampling/createMessage` params (`messages`, `maxTokens`, `systemPrompt`, …), as
    /// JSON.
    pub fn with_params(id: impl Into<String>, params: Value) -> Self {
        Sampling {
            id: id.into(),
            params,
        }
    }
}

/// What the client's model answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Sampled {
    /// The model that answered.
    pub model: String,
    /// The answer's text, when it is a text message.
    pub text: Option<String>,
    /// Why the model stopped (`endTurn`, `maxTokens`, …), when the client says.
    pub stop_reason: Option<String>,
    /// The whole `CreateMessageResult`.
    pub result: Value,
}

/// One of the client's roots: a directory or other place it lets the server work in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Its URI, such as `file:///home/me/project`.
    pub uri: String,
    /// Its name, when the client gives one.
    #[serde(default)]
    pub name: Option<String>,
}

/// The roots the client answered.
pub type Roots = Vec<Root>;

/// A `roots/list` result.
#[derive(serde::Deserialize)]
pub(crate) struct RootsResult {
    pub(crate) roots: Roots,
}

/// The wire request of a question, and the capability it needs.
pub(crate) fn input_request(method: &str, params: Option<Value>) -> Result<InputRequest, NotAsked> {
    let mut request = serde_json::Map::new();
    request.insert("method".into(), method.into());
    if let Some(params) = params {
        request.insert("params".into(), params);
    }
    serde_json::from_value(Value::Object(request)).map_err(|e| NotAsked::Invalid(e.to_string()))
}
