//! Icons as published: the spec's `Icon`, on the server, tools and resources.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Contract;

/// An icon that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IconDef {
    /// `src`: the `https:` URL as written, or the file's bytes as a `data:` URI.
    pub src: String,
    /// `mimeType`: as written, or for a file what its bytes are.
    pub mime_type: Option<String>,
    /// `sizes`, as written.
    pub sizes: Vec<String>,
    /// `theme`.
    pub theme: Option<IconTheme>,
    /// The file as the manifest names it, for the docs and `diff` (never the bytes).
    pub file: Option<String>,
    /// The file as read, so that a build reruns when it changes.
    pub path: Option<PathBuf>,
}

/// The background an icon is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl IconTheme {
    /// The manifest's and the wire's word.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            IconTheme::Light => "light",
            IconTheme::Dark => "dark",
        }
    }
}

impl IconDef {
    /// The wire `Icon`.
    pub(crate) fn to_json(&self) -> Value {
        let mut icon = Map::new();
        icon.insert("src".into(), self.src.clone().into());
        if let Some(m) = &self.mime_type {
            icon.insert("mimeType".into(), m.clone().into());
        }
        if !self.sizes.is_empty() {
            icon.insert("sizes".into(), self.sizes.clone().into());
        }
        if let Some(t) = self.theme {
            icon.insert("theme".into(), t.as_str().into());
        }
        icon.into()
    }

    /// Where the icon comes from, for people: the URL, or the file the manifest names.
    pub(crate) fn origin(&self) -> &str {
        self.file.as_deref().unwrap_or(&self.src)
    }

    /// The `icons` array of an entity, or nothing when it has none.
    pub(crate) fn list_json(icons: &[IconDef]) -> Option<Value> {
        (!icons.is_empty()).then(|| icons.iter().map(IconDef::to_json).collect())
    }
}

impl Contract {
    /// Every icon file the contract embeds, once each, for `cargo::rerun-if-changed`.
    pub(crate) fn icon_files(&self) -> Vec<&Path> {
        let mut files: Vec<&Path> = Vec::new();
        let all = self
            .server
            .icons
            .iter()
            .chain(self.tools.iter().flat_map(|t| &t.icons))
            .chain(self.resources.iter().flat_map(|r| &r.icons))
            .chain(self.prompts.iter().flat_map(|p| &p.icons));
        for path in all.filter_map(|i| i.path.as_deref()) {
            if !files.contains(&path) {
                files.push(path);
            }
        }
        files
    }
}
