//! Icons as generated: the spec's `Icon` in statics, checked at build time (an `https:` URL
//! or an image embedded as a `data:` URI), for the server, its tools' JSON aside, resources
//! and anything else that carries `icons`.

use rmcp::model::{Icon, IconTheme};

/// One icon of the manifest.
#[derive(Debug, Clone, Copy)]
pub struct IconSpec {
    /// `src`.
    pub src: &'static str,
    /// `mimeType`.
    pub mime_type: Option<&'static str>,
    /// `sizes`; empty when the manifest gives none.
    pub sizes: &'static [&'static str],
    /// `theme`.
    pub theme: Option<IconTheme>,
}

impl IconSpec {
    /// The rmcp `Icon`.
    pub fn icon(&self) -> Icon {
        let mut icon = Icon::new(self.src);
        if let Some(mime_type) = self.mime_type {
            icon = icon.with_mime_type(mime_type);
        }
        if !self.sizes.is_empty() {
            icon = icon.with_sizes(self.sizes.iter().map(|s| (*s).to_owned()).collect());
        }
        if let Some(theme) = self.theme {
            icon = icon.with_theme(theme);
        }
        icon
    }
}

/// The `icons` of an entity: `None` when the manifest gives it none, so nothing is sent.
pub fn icons(specs: &[IconSpec]) -> Option<Vec<Icon>> {
    (!specs.is_empty()).then(|| specs.iter().map(IconSpec::icon).collect())
}
