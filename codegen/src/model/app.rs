//! MCP Apps: a `ui://` resource's embedded HTML and frame settings, and a tool's link to it.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use mcp_contract_spec::apps;

/// A resource's app: the HTML a host shows in a sandboxed frame, checked and embedded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AppDef {
    /// The HTML document.
    pub html: String,
    /// The version of `html`, from its bytes: the start of its SHA-256, in hex.
    pub version: String,
    /// The file it was read from, as written, when it came from one.
    pub file: Option<String>,
    /// That file's path, which the build reruns on.
    pub path: Option<PathBuf>,
    /// The origins the frame may reach, by directive, in the extension's order.
    pub csp: Csp,
    /// The browser features the frame asks for, in manifest order.
    pub permissions: Vec<Permission>,
    /// Whether the host should draw a border; `None` leaves it to the host.
    pub prefers_border: Option<bool>,
    /// The frame's dedicated origin, in its host's format.
    pub domain: Option<String>,
}

/// The origins of a frame's Content Security Policy, each list as the extension names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Csp {
    /// `connectDomains`.
    pub connect: Vec<String>,
    /// `resourceDomains`.
    pub resource: Vec<String>,
    /// `frameDomains`.
    pub frame: Vec<String>,
    /// `baseUriDomains`.
    pub base_uri: Vec<String>,
}

impl Csp {
    /// The lists under their wire names, in the extension's order.
    pub(crate) fn lists(&self) -> [(&'static str, &[String]); 4] {
        [
            ("connectDomains", &self.connect),
            ("resourceDomains", &self.resource),
            ("frameDomains", &self.frame),
            ("baseUriDomains", &self.base_uri),
        ]
    }
}

/// A browser feature a frame may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Permission {
    Camera,
    Microphone,
    Geolocation,
    ClipboardWrite,
}

impl Permission {
    /// Every permission, in the extension's order.
    pub(crate) const ALL: [Permission; 4] = [
        Permission::Camera,
        Permission::Microphone,
        Permission::Geolocation,
        Permission::ClipboardWrite,
    ];

    /// As the manifest writes it.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Permission::Camera => "camera",
            Permission::Microphone => "microphone",
            Permission::Geolocation => "geolocation",
            Permission::ClipboardWrite => "clipboard_write",
        }
    }

    /// As `_meta.ui.permissions` names it.
    pub(crate) fn wire_name(self) -> &'static str {
        match self {
            Permission::ClipboardWrite => "clipboardWrite",
            other => other.key(),
        }
    }
}

/// Who may call a tool that has an app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Visibility {
    /// The model: the host lists the tool to the agent.
    Model,
    /// The app: the frame may call it on this server.
    App,
}

impl Visibility {
    /// Both, in the extension's order.
    pub(crate) const ALL: [Visibility; 2] = [Visibility::Model, Visibility::App];

    /// As the manifest and the wire write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Visibility::Model => "model",
            Visibility::App => "app",
        }
    }
}

/// A tool's app: the resource it opens and who may call the tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolAppDef {
    /// The resource's name.
    pub resource: String,
    /// The URI a host reads it by, versioned ([`AppDef::uri`]).
    pub uri: String,
    /// Who may call it, in the extension's order; both when the manifest leaves it out.
    pub visibility: Vec<Visibility>,
}

impl ToolAppDef {
    /// The tool's `_meta.ui`.
    pub(crate) fn meta(&self) -> Value {
        let visibility: Vec<&str> = self.visibility.iter().map(|v| v.name()).collect();
        json!({"resourceUri": self.uri, "visibility": visibility})
    }

    /// Whether only the app may call it: hosts keep it out of the agent's tool list.
    pub(crate) fn app_only(&self) -> bool {
        !self.visibility.contains(&Visibility::Model)
    }
}

impl AppDef {
    /// The URI a host sees for the resource written `uri`: with the HTML's version, so that
    /// changed HTML is a new URI and a host's cache keyed by URI cannot show the old one.
    pub(crate) fn uri(&self, uri: &str) -> String {
        format!("{uri}?{}={}", apps::VERSION_PARAMETER, self.version)
    }

    /// The resource's `_meta.ui`, the same on `resources/list` and `resources/read`: a host
    /// that builds its frame from either finds every setting.
    pub(crate) fn meta(&self) -> Value {
        let mut ui = Map::new();
        let mut csp = Map::new();
        for (name, origins) in self.csp.lists() {
            if !origins.is_empty() {
                csp.insert(name.into(), json!(origins));
            }
        }
        if !csp.is_empty() {
            ui.insert("csp".into(), csp.into());
        }
        if !self.permissions.is_empty() {
            let permissions: Map<String, Value> = (self.permissions.iter())
                .map(|p| (p.wire_name().to_owned(), json!({})))
                .collect();
            ui.insert("permissions".into(), permissions.into());
        }
        if let Some(domain) = &self.domain {
            ui.insert("domain".into(), domain.clone().into());
        }
        if let Some(border) = self.prefers_border {
            ui.insert("prefersBorder".into(), border.into());
        }
        ui.into()
    }
}

impl super::Contract {
    /// The HTML files the apps embed, each once, which the build reruns on.
    pub(crate) fn app_files(&self) -> Vec<&Path> {
        let mut files: Vec<&Path> = Vec::new();
        let paths = (self.resources.iter()).filter_map(|r| r.app.as_ref()?.path.as_deref());
        for path in paths {
            if !files.contains(&path) {
                files.push(path);
            }
        }
        files
    }
}
