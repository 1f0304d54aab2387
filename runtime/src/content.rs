//! Rich tool results: the content blocks a tool's manifest declares (`output.content`), as
//! handlers build them, and their check before they are sent.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{ContentBlock, Resource};

use crate::resource::ResourceBody;

/// The bytes of an image or audio block: raw, or already base64-encoded (checked before the
/// result is sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Data {
    /// Raw bytes, which the runtime encodes.
    Bytes(Vec<u8>),
    /// Standard base64 (RFC 4648 §4, with padding), sent as it is.
    Base64(String),
}

impl From<Vec<u8>> for Data {
    fn from(bytes: Vec<u8>) -> Self {
        Data::Bytes(bytes)
    }
}

impl From<&[u8]> for Data {
    fn from(bytes: &[u8]) -> Self {
        Data::Bytes(bytes.to_vec())
    }
}

impl<const N: usize> From<&[u8; N]> for Data {
    fn from(bytes: &[u8; N]) -> Self {
        Data::Bytes(bytes.to_vec())
    }
}

/// A link to a resource the client may read (`resource_link`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// Its title for people.
    pub title: Option<String>,
    /// What it holds.
    pub description: Option<String>,
    /// Its MIME type, when known.
    pub mime_type: Option<String>,
    /// Its size in bytes, when known.
    pub size: Option<u64>,
}

impl ResourceLink {
    /// A link to `uri`, named `name`, with nothing else said about it.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }
}

/// One block as a generated `{Tool}Content` hands it over, with the MIME type the manifest
/// fixes filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A text block.
    Text(String),
    /// An image.
    Image {
        /// Its bytes.
        data: Data,
        /// Its MIME type.
        mime_type: String,
    },
    /// Audio.
    Audio {
        /// Its bytes.
        data: Data,
        /// Its MIME type.
        mime_type: String,
    },
    /// An embedded resource.
    Resource {
        /// Its URI.
        uri: String,
        /// Its MIME type.
        mime_type: String,
        /// Its contents.
        body: ResourceBody,
    },
    /// A link to a resource.
    ResourceLink(ResourceLink),
}

/// The MIME types a tool's manifest declares for each kind that has one.
#[derive(Debug)]
pub struct Declared {
    /// Of its image blocks.
    pub image: &'static [&'static str],
    /// Of its audio blocks.
    pub audio: &'static [&'static str],
    /// Of its embedded resources.
    pub resource: &'static [&'static str],
}

/// The blocks as sent, or why they break the declaration (then nothing is sent).
pub(crate) fn blocks(declared: &Declared, blocks: Vec<Block>) -> Result<Vec<ContentBlock>, String> {
    blocks
        .into_iter()
        .map(|block| {
            Ok(match block {
                Block::Text(text) => ContentBlock::text(text),
                Block::Image { data, mime_type } => {
                    let mime_type = allowed("an image", mime_type, declared.image)?;
                    ContentBlock::image(base64("an image", data)?, mime_type)
                }
                Block::Audio { data, mime_type } => {
                    let mime_type = allowed("audio", mime_type, declared.audio)?;
                    ContentBlock::audio(base64("audio", data)?, mime_type)
                }
                Block::Resource {
                    uri,
                    mime_type,
                    body,
                } => {
                    let mime_type = allowed("an embedded resource", mime_type, declared.resource)?;
                    ContentBlock::resource(body.contents(uri, mime_type))
                }
                Block::ResourceLink(link) => {
                    let mut resource = Resource::new(link.uri, link.name);
                    resource.title = link.title;
                    resource.description = link.description;
                    resource.mime_type = link.mime_type;
                    resource.size = link.size;
                    ContentBlock::resource_link(resource)
                }
            })
        })
        .collect()
}

/// `mime_type` when the manifest declares it for this kind (MIME types ignore ASCII case).
fn allowed(what: &str, mime_type: String, declared: &[&str]) -> Result<String, String> {
    if declared
        .iter()
        .any(|d| d.eq_ignore_ascii_case(mime_type.trim()))
    {
        return Ok(mime_type);
    }
    let listed: Vec<String> = declared.iter().map(|d| format!("`{d}`")).collect();
    Err(format!(
        "{what} of type `{mime_type}`, which the manifest does not declare (it declares {})",
        listed.join(", ")
    ))
}

/// The data as standard base64, refusing text that is not.
fn base64(what: &str, data: Data) -> Result<String, String> {
    match data {
        Data::Bytes(bytes) => Ok(STANDARD.encode(bytes)),
        Data::Base64(text) => match STANDARD.decode(&text) {
            Ok(_) => Ok(text),
            Err(e) => Err(format!("{what} whose data is not base64 ({e})")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DECLARED: Declared = Declared {
        image: &["image/png", "image/jpeg"],
        audio: &["audio/wav"],
        resource: &["text/plain"],
    };

    #[test]
    fn declared_blocks_are_sent_as_the_protocol_spells_them() {
        let sent = blocks(
            &DECLARED,
            vec![
                Block::Text("hi".into()),
                Block::Image {
                    data: Data::Bytes(vec![0xff, 0x00]),
                    mime_type: "image/PNG".into(),
                },
                Block::Audio {
                    data: Data::Base64("UklGRg==".into()),
                    mime_type: "audio/wav".into(),
                },
                Block::Resource {
                    uri: "x://a".into(),
                    mime_type: "text/plain".into(),
                    body: ResourceBody::Text("body".into()),
                },
                Block::ResourceLink(ResourceLink {
                    mime_type: Some("text/plain".into()),
                    ..ResourceLink::new("x://b", "b")
                }),
            ],
        )
        .expect("declared");
        assert_eq!(
            serde_json::to_value(sent).unwrap(),
            serde_json::json!([
                {"type": "text", "text": "hi"},
                {"type": "image", "data": "/wA=", "mimeType": "image/PNG"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {"uri": "x://a", "mimeType": "text/plain", "text": "body"}},
                {"type": "resource_link", "uri": "x://b", "name": "b", "mimeType": "text/plain"},
            ])
        );
    }

    #[test]
    fn an_undeclared_mime_type_or_bad_base64_is_refused() {
        for (block, why) in [
            (
                Block::Image {
                    data: Data::Bytes(vec![1]),
                    mime_type: "image/gif".into(),
                },
                "an image of type `image/gif`, which the manifest does not declare (it declares `image/png`, `image/jpeg`)",
            ),
            (
                Block::Audio {
                    data: Data::Base64("not base64!".into()),
                    mime_type: "audio/wav".into(),
                },
                "audio whose data is not base64 (Invalid symbol 32, offset 3.)",
            ),
            (
                Block::Resource {
                    uri: "x://a".into(),
                    mime_type: "application/json".into(),
                    body: ResourceBody::Text("{}".into()),
                },
                "an embedded resource of type `application/json`, which the manifest does not declare (it declares `text/plain`)",
            ),
        ] {
            assert_eq!(
                blocks(&DECLARED, vec![Block::Text("ok".into()), block]),
                Err(why.to_owned())
            );
        }
    }
}
