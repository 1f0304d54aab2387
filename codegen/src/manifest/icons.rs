//! `icons:` as written, on the server, a tool or a resource (and any other entity that takes
//! the spec's `Icons`): each an `https:` URL or a file beside the manifest.

use super::reader::Decoder;
use crate::source::{Span, Spanned};
use crate::yaml::Node;

/// One icon as written.
#[derive(Debug)]
pub(crate) struct Icon {
    /// The mapping.
    pub span: Span,
    /// An `https:` URL.
    pub src: Option<Spanned<String>>,
    /// A file, relative to the manifest, embedded as a `data:` URI.
    pub file: Option<Spanned<String>>,
    /// The MIME type, when written.
    pub mime_type: Option<Spanned<String>>,
    /// `WxH` or `any`, each.
    pub sizes: Vec<Spanned<String>>,
    /// `light` or `dark`.
    pub theme: Option<Spanned<String>>,
}

/// Reads an `icons:` sequence; a mapping that is not an icon is reported and left out.
pub(crate) fn icons(node: &Node, de: &mut Decoder<'_>) -> Vec<Icon> {
    let mut icons = Vec::new();
    for item in de.seq(node, "`icons`").unwrap_or_default() {
        let Some(mut f) = de.fields(item, "an icon") else {
            continue;
        };
        let mut text =
            |key: &'static str| f.get(key).and_then(|n| de.string(n, &format!("`{key}`")));
        let (src, file, mime_type, theme) =
            (text("src"), text("file"), text("mime_type"), text("theme"));
        let sizes = f
            .get("sizes")
            .map(|n| de.strings(n, "an icon size"))
            .unwrap_or_default();
        f.finish(de);
        icons.push(Icon {
            span: item.span,
            src,
            file,
            mime_type,
            sizes,
            theme,
        });
    }
    icons
}
