//! What a tool answers with when its manifest declares `output.content`: the kinds of MCP
//! content block, what each needs declared, and how each is named in Rust and in the docs.

use crate::source::Span;

/// A kind of content block, as the manifest and the wire (`type`) name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ContentKind {
    /// `text`: a text block.
    Text,
    /// `image`: base64 image data with its MIME type.
    Image,
    /// `audio`: base64 audio data with its MIME type.
    Audio,
    /// `resource`: an embedded resource, its text or bytes under a URI.
    Resource,
    /// `resource_link`: a link to a resource the client may read.
    ResourceLink,
}

impl ContentKind {
    /// Every kind, in the order the docs list them.
    pub(crate) const ALL: [ContentKind; 5] = [
        ContentKind::Text,
        ContentKind::Image,
        ContentKind::Audio,
        ContentKind::Resource,
        ContentKind::ResourceLink,
    ];

    /// The name in the manifest, which is the block's `type` on the wire.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::Resource => "resource",
            ContentKind::ResourceLink => "resource_link",
        }
    }

    /// The kind a manifest name stands for.
    pub(crate) fn from_name(name: &str) -> Option<ContentKind> {
        ContentKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether blocks of this kind carry a MIME type the manifest must declare.
    pub(crate) fn has_mime_types(self) -> bool {
        matches!(
            self,
            ContentKind::Image | ContentKind::Audio | ContentKind::Resource
        )
    }

    /// The top-level MIME type every declared type of this kind must have, if any.
    pub(crate) fn mime_top_level(self) -> Option<&'static str> {
        match self {
            ContentKind::Image => Some("image"),
            ContentKind::Audio => Some("audio"),
            _ => None,
        }
    }

    /// The variant of the tool's `{Tool}Content` enum, and of the runtime's block.
    pub(crate) fn variant(self) -> &'static str {
        match self {
            ContentKind::Text => "Text",
            ContentKind::Image => "Image",
            ContentKind::Audio => "Audio",
            ContentKind::Resource => "Resource",
            ContentKind::ResourceLink => "ResourceLink",
        }
    }

    /// The kind in prose, for the docs.
    pub(crate) fn prose(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::Resource => "embedded resource",
            ContentKind::ResourceLink => "resource link",
        }
    }
}

/// One declared kind of content block.
#[derive(Debug, Clone)]
pub(crate) struct ContentBlockDef {
    /// The kind.
    pub kind: ContentKind,
    /// The MIME types a block of it may have, as written; empty for kinds without one.
    pub mime_types: Vec<String>,
    /// Where the entry is written, for `diff`; emitters ignore it.
    pub span: Span,
}

impl ContentBlockDef {
    /// The one MIME type, when the manifest fixes it: the handler then gives none.
    pub(crate) fn fixed_mime_type(&self) -> Option<&str> {
        match self.mime_types.as_slice() {
            [only] => Some(only),
            _ => None,
        }
    }
}
