//! `app:` as written: on a resource, the HTML interface a host shows in a sandboxed frame
//! (MCP Apps, the `io.modelcontextprotocol/ui` extension); on a tool, the app it opens and who
//! may call it.

use super::reader::Decoder;
use crate::source::{Span, Spanned};
use crate::yaml::Node;

/// A resource's `app:`.
#[derive(Debug)]
pub(crate) struct ResourceApp {
    /// The mapping.
    pub span: Span,
    /// An HTML file, relative to the manifest, embedded at build time.
    pub file: Option<Spanned<String>>,
    /// The HTML itself, written in the manifest.
    pub html: Option<Spanned<String>>,
    /// `csp:` the origins the frame may reach.
    pub csp: Option<Csp>,
    /// `permissions:` the browser features the frame asks for.
    pub permissions: Vec<Spanned<String>>,
    /// `prefers_border:`.
    pub prefers_border: Option<Spanned<bool>>,
    /// `domain:` the frame's dedicated origin, in the format of the host that needs one.
    pub domain: Option<Spanned<String>>,
}

/// `csp:`, each list as written.
#[derive(Debug, Default)]
pub(crate) struct Csp {
    /// `connect_domains:` (fetch, XHR, WebSocket).
    pub connect_domains: Vec<Spanned<String>>,
    /// `resource_domains:` (scripts, images, styles, fonts, media).
    pub resource_domains: Vec<Spanned<String>>,
    /// `frame_domains:` (nested frames).
    pub frame_domains: Vec<Spanned<String>>,
    /// `base_uri_domains:` (the document's `<base>`).
    pub base_uri_domains: Vec<Spanned<String>>,
}

impl Csp {
    /// The lists with their manifest keys, in the extension's order.
    pub(crate) fn lists(&self) -> [(&'static str, &[Spanned<String>]); 4] {
        [
            ("connect_domains", &self.connect_domains),
            ("resource_domains", &self.resource_domains),
            ("frame_domains", &self.frame_domains),
            ("base_uri_domains", &self.base_uri_domains),
        ]
    }
}

/// A tool's `app:`.
#[derive(Debug)]
pub(crate) struct ToolApp {
    /// `resource:` the `ui://` URI of the app's resource.
    pub resource: Option<Spanned<String>>,
    /// `visibility:` as written, with the node's span; `None` when left out.
    pub visibility: Option<Spanned<Vec<Spanned<String>>>>,
    /// Keys of a resource's `app:` written here instead (`csp`, `permissions`, …), which the
    /// validator refuses by name rather than as unknown keys.
    pub resource_keys: Vec<Spanned<String>>,
}

/// The keys that describe the frame, which only a resource's `app:` takes.
pub(crate) const RESOURCE_ONLY_KEYS: [&str; 5] =
    ["csp", "permissions", "prefers_border", "domain", "file"];

/// Reads a resource's `app:`.
pub(crate) fn resource_app(node: &Node, de: &mut Decoder<'_>) -> Option<ResourceApp> {
    let mut f = de.fields(node, "a resource's `app`")?;
    let file = f.get("file").and_then(|n| de.string(n, "`file`"));
    let html = f.get("html").and_then(|n| de.string(n, "`html`"));
    let csp = f.get("csp").and_then(|n| csp(n, de));
    let permissions = f
        .get("permissions")
        .map(|n| de.strings(n, "a permission"))
        .unwrap_or_default();
    let prefers_border = f
        .get("prefers_border")
        .and_then(|n| de.bool(n, "`prefers_border`"));
    let domain = f.get("domain").and_then(|n| de.string(n, "`domain`"));
    f.finish(de);
    Some(ResourceApp {
        span: node.span,
        file,
        html,
        csp,
        permissions,
        prefers_border,
        domain,
    })
}

fn csp(node: &Node, de: &mut Decoder<'_>) -> Option<Csp> {
    let mut f = de.fields(node, "`csp`")?;
    let mut list = |key: &'static str| {
        f.get(key)
            .map(|n| de.strings(n, "an origin"))
            .unwrap_or_default()
    };
    let csp = Csp {
        connect_domains: list("connect_domains"),
        resource_domains: list("resource_domains"),
        frame_domains: list("frame_domains"),
        base_uri_domains: list("base_uri_domains"),
    };
    f.finish(de);
    Some(csp)
}

/// Reads a tool's `app:`.
pub(crate) fn tool_app(node: &Node, de: &mut Decoder<'_>) -> Option<ToolApp> {
    let mut f = de.fields(node, "a tool's `app`")?;
    let resource = f
        .require(de, "resource")
        .and_then(|n| de.string(n, "`resource`"));
    let visibility = f
        .get("visibility")
        .map(|n| Spanned::new(de.strings(n, "a visibility"), n.span));
    // Read so that they are not unknown keys: the validator refuses each by name.
    for key in RESOURCE_ONLY_KEYS {
        f.get(key);
    }
    let resource_keys = (f.keys().all().into_iter())
        .filter(|(key, _)| RESOURCE_ONLY_KEYS.contains(&key.as_str()))
        .map(|(key, span)| Spanned::new(key, span))
        .collect();
    f.finish(de);
    Some(ToolApp {
        resource,
        visibility,
        resource_keys,
    })
}
