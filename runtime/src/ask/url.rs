//! URL-mode elicitation: the user is sent to a page of the server's, which collects what a
//! form must not (passwords, keys, payment), so the answer never passes through the client.

use rmcp::model::{ElicitResult, ElicitationAction};

use super::{Answer, Capability, NotAsked, input_request};
use crate::Context;

impl Context {
    /// Asks the user to open `url`, as the question `id`, with `message`; the answer says
    /// only whether they agreed to go there ([`Answer::Accept`] with no content), not what
    /// they entered, which the page receives. Runs like [`Context::elicit`]: await it first;
    /// [`NotAsked::Unsupported`] when the client did not declare `elicitation.url`.
    ///
    /// On 2025-11-25 the request carries an `elicitationId` made fresh for each ask (128
    /// random bits), which the client must treat as opaque: never the question's id, so that
    /// one elicitation cannot be taken for another, nor guessed. The answer is the response
    /// to that request. 2026-07-28 removed `elicitationId`: the question and its answer are
    /// keyed by `id` in the rounds, so none is sent (rmcp writes it empty).
    #[must_use = "a question not awaited is never asked"]
    pub async fn elicit_url(
        &self,
        id: &str,
        message: &str,
        url: &str,
    ) -> Result<Answer<()>, NotAsked> {
        let mut params = serde_json::json!({"mode": "url", "message": message, "url": url});
        if self.revision().has_initialize() {
            params["elicitationId"] = elicitation_id().into();
        }
        let request = input_request("elicitation/create", Some(params))?;
        let value = self.ask(id, Capability::UrlElicitation, request).await?;
        match serde_json::from_value::<ElicitResult>(value) {
            Ok(result) => Ok(match result.action {
                ElicitationAction::Accept => Answer::Accept(()),
                ElicitationAction::Decline => Answer::Decline,
                _ => Answer::Cancel,
            }),
            Err(e) => Err(self
                .reject(id, format!("not an elicitation result: {e}"))
                .await),
        }
    }
}

/// A fresh `elicitationId`: 128 random bits, as 32 hex digits.
fn elicitation_id() -> String {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits).expect("the operating system's random source");
    bits.iter().map(|b| format!("{b:02x}")).collect()
}
