//! Prompts and completions declared in the manifest: what `prompts/list` publishes, the
//! arguments `prompts/get` checks before a handler runs, the messages a handler returns, and
//! what `completion/complete` answers.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::ErrorData;
use rmcp::model::{CompletionInfo, ContentBlock, JsonObject, Prompt, PromptArgument};

use crate::contract::{PromptSpec, meta_object};
use crate::icon::icons;
use crate::resource::ResourceBody;

/// Who a prompt message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// One message of a prompt. Made only by its constructors, so each has one content of a
/// shape the protocol allows: binary data is given as bytes (the runtime encodes it), an
/// image's MIME type is `image/…` and an audio clip's `audio/…` (checked when it is sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptMessage {
    role: Role,
    content: Content,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Content {
    Text(String),
    Image {
        bytes: Vec<u8>,
        mime_type: String,
    },
    Audio {
        bytes: Vec<u8>,
        mime_type: String,
    },
    Resource {
        uri: String,
        mime_type: String,
        body: ResourceBody,
    },
}

impl PromptMessage {
    /// Text.
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        Self::new(role, Content::Text(text.into()))
    }

    /// An image: its bytes and its MIME type (`image/png`).
    pub fn image(role: Role, bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        let (bytes, mime_type) = (bytes.into(), mime_type.into());
        Self::new(role, Content::Image { bytes, mime_type })
    }

    /// An audio clip: its bytes and its MIME type (`audio/wav`).
    pub fn audio(role: Role, bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        let (bytes, mime_type) = (bytes.into(), mime_type.into());
        Self::new(role, Content::Audio { bytes, mime_type })
    }

    /// A resource embedded whole: its URI, MIME type and contents.
    pub fn resource(
        role: Role,
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        body: ResourceBody,
    ) -> Self {
        let (uri, mime_type) = (uri.into(), mime_type.into());
        Self::new(
            role,
            Content::Resource {
                uri,
                mime_type,
                body,
            },
        )
    }

    fn new(role: Role, content: Content) -> Self {
        PromptMessage { role, content }
    }

    /// The wire message, or why it cannot be sent.
    pub(crate) fn into_wire(self) -> Result<rmcp::model::PromptMessage, String> {
        let kind = |mime: &str, top: &str| {
            let ok = mime
                .split_once('/')
                .is_some_and(|(t, sub)| t == top && !sub.is_empty());
            if ok {
                Ok(())
            } else {
                Err(format!("`{mime}` is not an {top}/… MIME type"))
            }
        };
        let content = match self.content {
            Content::Text(text) => ContentBlock::text(text),
            Content::Image { bytes, mime_type } => {
                kind(&mime_type, "image")?;
                ContentBlock::image(STANDARD.encode(bytes), mime_type)
            }
            Content::Audio { bytes, mime_type } => {
                kind(&mime_type, "audio")?;
                ContentBlock::audio(STANDARD.encode(bytes), mime_type)
            }
            Content::Resource {
                uri,
                mime_type,
                body,
            } => ContentBlock::resource(body.contents(uri, mime_type)),
        };
        let role = match self.role {
            Role::User => rmcp::model::Role::User,
            Role::Assistant => rmcp::model::Role::Assistant,
        };
        Ok(rmcp::model::PromptMessage::new(role, content))
    }
}

/// Why a prompt could not be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptError {
    /// The arguments, though well formed, name nothing the prompt can use, with why (`-32602`).
    Invalid(String),
    /// Making the prompt failed, with why (`-32603`).
    Failed(String),
}

impl fmt::Display for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromptError::Invalid(why) | PromptError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PromptError {}

/// What a completion handler is asked: the value typed so far and the other arguments the
/// client has already given (`context.arguments`), by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completing {
    /// The partial value.
    pub value: String,
    /// The prompt's other arguments, or the template's other variables, already given.
    pub arguments: BTreeMap<String, String>,
}

/// The most values one `completion/complete` answer carries.
pub const MAX_COMPLETIONS: usize = CompletionInfo::MAX_VALUES;

impl PromptSpec {
    /// The entry of `prompts/list`.
    pub(crate) fn listed(&self) -> Prompt {
        let arguments = self
            .arguments
            .iter()
            .map(|a| {
                PromptArgument::new(a.name)
                    .with_description(a.description)
                    .with_required(a.required)
            })
            .collect::<Vec<_>>();
        let prompt = Prompt::new(
            self.name,
            Some(self.description),
            (!arguments.is_empty()).then_some(arguments),
        )
        .with_title(self.title);
        let prompt = match icons(self.icons) {
            Some(icons) => prompt.with_icons(icons),
            None => prompt,
        };
        match meta_object(self.meta) {
            Some(meta) => prompt.with_meta(meta),
            None => prompt,
        }
    }

    /// The arguments of a `prompts/get`, each a string, every required one given and none
    /// the prompt lacks; otherwise the `-32602` that says which.
    pub(crate) fn arguments(
        &self,
        given: Option<JsonObject>,
    ) -> Result<HashMap<String, String>, ErrorData> {
        let refuse = |message: String| {
            ErrorData::invalid_params(message, Some(serde_json::json!({ "prompt": self.name })))
        };
        let mut values = HashMap::new();
        for (name, value) in given.unwrap_or_default() {
            if !self.arguments.iter().any(|a| a.name == name) {
                return Err(refuse(format!(
                    "The prompt `{}` has no argument `{name}`",
                    self.name
                )));
            }
            match value {
                serde_json::Value::String(s) => {
                    values.insert(name, s);
                }
                // An optional argument given as null is not given.
                serde_json::Value::Null => {}
                other => {
                    return Err(refuse(format!(
                        "The argument `{name}` of `{}` must be a string, not {other}",
                        self.name
                    )));
                }
            }
        }
        if let Some(missing) = self
            .arguments
            .iter()
            .find(|a| a.required && !values.contains_key(a.name))
        {
            return Err(refuse(format!(
                "The prompt `{}` needs the argument `{}`",
                self.name, missing.name
            )));
        }
        Ok(values)
    }
}

/// The answer to a completion: at most [`MAX_COMPLETIONS`] values, with how many there are
/// and whether more were left out.
pub(crate) fn answer(values: Vec<String>) -> CompletionInfo {
    let total = values.len();
    let mut values = values;
    values.truncate(MAX_COMPLETIONS);
    CompletionInfo::with_pagination(
        values,
        Some(u32::try_from(total).unwrap_or(u32::MAX)),
        total > MAX_COMPLETIONS,
    )
    .unwrap_or_default()
}

/// The fixed values that start with what the client has typed.
pub(crate) fn by_prefix(values: &[&str], typed: &str) -> Vec<String> {
    values
        .iter()
        .filter(|v| v.starts_with(typed))
        .map(|v| (*v).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_a_hundred_values_with_the_total_and_whether_more_exist() {
        let many: Vec<String> = (0..150).map(|i| format!("v{i}")).collect();
        let info = answer(many);
        assert_eq!(info.values.len(), 100);
        assert_eq!(info.total, Some(150));
        assert_eq!(info.has_more, Some(true));
        let few = answer(vec!["a".into()]);
        assert_eq!((few.total, few.has_more), (Some(1), Some(false)));
    }

    #[test]
    fn fixed_values_are_filtered_by_prefix() {
        assert_eq!(
            by_prefix(&["draft", "done", "final"], "d"),
            vec!["draft", "done"]
        );
        assert_eq!(by_prefix(&["draft"], ""), vec!["draft"]);
    }

    #[test]
    fn binary_content_is_base64_and_a_wrong_mime_type_is_not_sent() {
        let image = PromptMessage::image(Role::User, vec![0xff, 0x00], "image/png")
            .into_wire()
            .expect("an image");
        let json = serde_json::to_value(image).unwrap();
        assert_eq!(json["content"]["data"], "/wA=");
        assert_eq!(json["content"]["mimeType"], "image/png");
        assert_eq!(json["role"], "user");
        let wrong = PromptMessage::audio(Role::Assistant, vec![1], "image/png").into_wire();
        assert!(wrong.is_err(), "{wrong:?}");
    }
}
