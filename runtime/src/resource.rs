//! Resources declared in the manifest: what `resources/list` and `resources/templates/list`
//! publish, what a handler returns, and the URIs of templates.
//! [`Published::resource`](crate::published::Published::resource) finds the resource a URI names.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{MetaObject, Resource, ResourceContents, ResourceTemplate};

use crate::contract::{ResourceSpec, meta_object};
use crate::icon::icons;

/// What a resource handler returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceBody {
    /// UTF-8 text.
    Text(String),
    /// Bytes, sent base64-encoded.
    Blob(Vec<u8>),
}

/// Why a resource could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceError {
    /// Nothing exists at the URI: the protocol's "resource not found" (`-32002` on
    /// 2025-11-25, `-32602` from 2026-07-28 on).
    NotFound,
    /// Nothing exists at the URI, with the service's own message for the client (why, or
    /// what to ask for instead), under the same code as [`ResourceError::NotFound`].
    NotFoundBecause(String),
    /// The URI names something that cannot be a resource, with why (`-32602`).
    Invalid(String),
    /// Reading failed, with why (`-32603`).
    Failed(String),
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::NotFound => f.write_str("resource not found"),
            ResourceError::NotFoundBecause(why)
            | ResourceError::Invalid(why)
            | ResourceError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ResourceError {}

/// The URI a resource template names with `values`, in template order, each
/// percent-encoded; the generated `{Name}Params::uri` calls it.
pub fn expand_uri(template: &str, values: &[&str]) -> String {
    match mcp_contract_spec::uri_template::UriTemplate::parse(template) {
        Ok(parsed) => parsed.expand(values),
        // The generator checked the template; nothing else reaches here.
        Err(_) => template.to_owned(),
    }
}

impl ResourceSpec {
    /// The entry of `resources/list`, for a fixed resource; an app's carries its `_meta.ui`.
    pub(crate) fn listed(&self) -> Option<Resource> {
        (!self.template).then(|| {
            let mut resource = Resource::new(self.uri, self.name)
                .with_title(self.title)
                .with_description(self.description)
                .with_mime_type(self.mime_type);
            if let Some(icons) = icons(self.icons) {
                resource = resource.with_icons(icons);
            }
            if let Some(meta) = self.listed_meta() {
                resource = resource.with_meta(meta);
            }
            resource
        })
    }

    /// Its `_meta` on `resources/list`: the generated entries (its lifecycle), and an app's
    /// `ui`.
    fn listed_meta(&self) -> Option<MetaObject> {
        let mut meta = meta_object(self.meta);
        if let Some(MetaObject(ui)) = self.app_meta() {
            meta.get_or_insert_with(MetaObject::default).0.extend(ui);
        }
        meta
    }

    /// An app's `_meta`, `{"ui": {…}}`, the same object wherever it is published: a host that
    /// builds its frame from `resources/list` alone and one that reads only the contents find
    /// the same CSP. `None` for any other resource.
    ///
    /// # Panics
    ///
    /// When the app's `meta` is not a JSON object, which the generator never writes.
    pub(crate) fn app_meta(&self) -> Option<MetaObject> {
        let app = self.app?;
        let ui: serde_json::Value = serde_json::from_str(app.meta).unwrap_or_else(|e| {
            panic!(
                "mcp-contract: the generated `_meta.ui` of `{}` is not JSON: {e}",
                self.name
            )
        });
        Some(MetaObject(rmcp::model::JsonObject::from_iter([(
            "ui".to_owned(),
            ui,
        )])))
    }

    /// The `resources/read` contents of an app, which the runtime serves from the contract.
    pub(crate) fn app_contents(&self, uri: &str) -> Option<ResourceContents> {
        let app = self.app?;
        let contents = ResourceBody::Text(app.html.to_owned()).contents(uri, self.mime_type);
        Some(match self.app_meta() {
            Some(meta) => contents.with_meta(meta),
            None => contents,
        })
    }

    /// The entry of `resources/templates/list`, for a template.
    pub(crate) fn listed_template(&self) -> Option<ResourceTemplate> {
        self.template.then(|| {
            let template = ResourceTemplate::new(self.uri, self.name)
                .with_title(self.title)
                .with_description(self.description)
                .with_mime_type(self.mime_type);
            let template = match icons(self.icons) {
                Some(icons) => template.with_icons(icons),
                None => template,
            };
            match meta_object(self.meta) {
                Some(meta) => template.with_meta(meta),
                None => template,
            }
        })
    }

    /// The `resources/read` contents of a body read from `uri`.
    pub(crate) fn contents(&self, uri: &str, body: ResourceBody) -> ResourceContents {
        body.contents(uri, self.mime_type)
    }
}

impl ResourceBody {
    /// The body as the contents of the resource `uri` of type `mime_type`, bytes
    /// base64-encoded: what `resources/read` answers and what an embedded resource holds.
    pub(crate) fn contents(
        self,
        uri: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> ResourceContents {
        let contents = match self {
            ResourceBody::Text(text) => ResourceContents::text(text, uri),
            ResourceBody::Blob(bytes) => ResourceContents::blob(STANDARD.encode(bytes), uri),
        };
        contents.with_mime_type(mime_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(uri: &'static str, template: bool) -> ResourceSpec {
        ResourceSpec {
            name: "r",
            title: "R",
            description: "d",
            mime_type: "text/plain",
            uri,
            template,
            subscribe: false,
            completions: &[],
            icons: &[],
            scopes: &[],
            meta: None,
            app: None,
        }
    }

    #[test]
    fn blobs_travel_as_standard_base64_with_the_declared_mime_type() {
        let r = spec("x:///a", false);
        let json = serde_json::to_value(
            r.contents("x:///a", ResourceBody::Blob(vec![0xff, 0xfe, 0x00, b'f'])),
        )
        .unwrap();
        assert_eq!(json["blob"], "//4AZg==");
        assert_eq!(json["mimeType"], "text/plain");
        assert_eq!(json["uri"], "x:///a");
    }
}
