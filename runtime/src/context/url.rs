//! URL-mode elicitation: the user is sent to a page of the server's, which collects what a
//! form must not (passwords, keys, payment), so the answer never passes through the client.

use rmcp::model::{CustomNotification, ElicitResult, ElicitationAction, ServerNotification};

use super::Context;
use crate::ask::{Answer, Capability, NotAsked, input_request};

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
        if self.revision().has_initialize() && self.can(Capability::UrlElicitation) {
            let fresh = elicitation_id();
            params["elicitationId"] = fresh.clone().into();
            let mut ids = self
                .asking()
                .url_ids
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            ids.insert(id.to_owned(), fresh);
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

/// The notification a 2025-11-25 client gets when the page of a URL question is done.
const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

impl Context {
    /// Tells the client that the user finished on the page of the URL question `id`
    /// (asked with [`Context::elicit_url`] in this request): on 2025-11-25,
    /// `notifications/elicitation/complete` with the `elicitationId` the runtime made for that
    /// ask, so a client waiting on the page (or about to retry) can go on. Returns whether it
    /// was sent: never on 2026-07-28, which has no such notification (there the answer to
    /// the question is the client's next round), nor for a question not asked by URL here.
    ///
    /// It may be sent after the call has returned, from a clone of the context kept by
    /// whatever learns that the page is done, while the connection lasts.
    pub async fn elicitation_complete(&self, id: &str) -> bool {
        if !self.revision().has_initialize() {
            return false;
        }
        let elicitation_id = {
            let ids = self
                .asking()
                .url_ids
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            ids.get(id).cloned()
        };
        let (Some(elicitation_id), Some(context)) = (elicitation_id, self.request_context()) else {
            return false;
        };
        let params = serde_json::json!({ "elicitationId": elicitation_id });
        let notification = CustomNotification::new(ELICITATION_COMPLETE, Some(params));
        context
            .peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .is_ok()
    }
}

/// A fresh `elicitationId`: 128 random bits, as 32 hex digits.
fn elicitation_id() -> String {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits).expect("the operating system's random source");
    bits.iter().map(|b| format!("{b:02x}")).collect()
}
