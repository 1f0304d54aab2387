//! URL-mode elicitation: the user is sent to a page of the server's, which collects what a
//! form must not (passwords, keys, payment), so the answer never passes through the client.

use rmcp::model::{ElicitResult, ElicitationAction};

use super::{Answer, Capability, NotAsked, input_request};
use crate::Context;

impl Context {
    /// Asks the user to open `url`, as the question `id` (also its `elicitationId`), with
    /// `message`; the answer says only whether they agreed to go there ([`Answer::Accept`]
    /// with no content), not what they entered, which the page receives. Runs like
    /// [`Context::elicit`]: await it first; [`NotAsked::Unsupported`] when the client did
    /// not declare `elicitation.url`.
    #[must_use = "a question not awaited is never asked"]
    pub async fn elicit_url(
        &self,
        id: &str,
        message: &str,
        url: &str,
    ) -> Result<Answer<()>, NotAsked> {
        let params = serde_json::json!({
            "mode": "url", "message": message, "url": url, "elicitationId": id,
        });
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
