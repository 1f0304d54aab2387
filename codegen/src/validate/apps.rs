//! MCP Apps (the `io.modelcontextprotocol/ui` extension): a `ui://` resource's HTML and frame
//! settings, and each tool's link to one, held to the extension's rules at build time, where
//! the SDKs of other languages find them at start-up or not at all.

use std::path::PathBuf;

use mcp_contract_spec::apps;

use super::Validator;
use super::names::Referent;
use crate::diagnostic::{Diagnostic, codes};
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::{Span, Spanned};

/// How many hex digits of the HTML's SHA-256 its version keeps: 64 bits, far past any
/// collision between two versions of one file.
const VERSION_DIGITS: usize = 16;

impl Validator<'_> {
    /// A resource's app, when it declares one; `Err` when the resource is refused for it
    /// (reported, and marked so that a tool opening it says nothing more). `uri` is the
    /// resource's address once valid; a `ui://` one without `app:` is refused too.
    pub(super) fn resource_app(
        &mut self,
        r: &raw::Resource,
        uri: Option<&ResourceUri>,
        mime_type: &str,
    ) -> Result<Option<AppDef>, ()> {
        let Some(app) = &r.app else {
            if let (Some(ResourceUri::Fixed(u)), Some(written)) = (uri, &r.uri)
                && u.starts_with(apps::SCHEME)
            {
                self.error(
                    &codes::BAD_APP_RESOURCE,
                    format!("`{u}` is a `ui://` resource without `app:`"),
                    written.span,
                    "give it `app:` with its HTML (`file:` or `html:`), or another scheme if it is no app",
                );
                self.refused.refuse(Referent::App, u);
                return Err(());
            }
            return Ok(None);
        };
        let shape = self.app_shape(r);
        let mime = self.app_mime_type(r, mime_type);
        let html = self.app_html(app);
        let csp = self.app_csp(app);
        let permissions = self.app_permissions(app);
        let domain = self.app_domain(app);
        let (Ok(()), Ok(()), Some((html, file, path)), Some(csp), Some(permissions), Ok(domain)) =
            (shape, mime, html, csp, permissions, domain)
        else {
            if let Some(uri) = &r.uri {
                self.refused.refuse(Referent::App, &uri.value);
            }
            return Err(());
        };
        Ok(Some(AppDef {
            version: version(html.as_bytes()),
            html,
            file,
            path,
            csp,
            permissions,
            prefers_border: app.prefers_border.as_ref().map(|b| b.value),
            domain,
        }))
    }

    /// An app is one fixed `ui://` URI, without a query or fragment (the build adds its
    /// version as the query), read by the runtime alone: nothing to ask, nothing changes.
    fn app_shape(&mut self, r: &raw::Resource) -> Result<(), ()> {
        let mut ok = true;
        let mut refuse = |v: &mut Self, message: String, span: Span, help: &str| {
            v.error(&codes::BAD_APP_RESOURCE, message, span, help);
            ok = false;
        };
        if let Some(t) = &r.uri_template {
            refuse(
                self,
                "an app's resource has one fixed `uri:`, not a template".into(),
                t.span,
                "write `uri: ui://…`: one app is one document",
            );
        }
        if let Some(u) = &r.uri {
            if !u.value.starts_with(apps::SCHEME) {
                refuse(
                    self,
                    format!("`{}` holds an app, but is not a `ui://` URI", u.value),
                    u.span,
                    "an app's URI starts with `ui://`, such as `ui://weather/dashboard`",
                );
            } else if u.value.contains(['?', '#']) {
                refuse(
                    self,
                    format!("`{}` has a query or fragment", u.value),
                    u.span,
                    "leave them out: the build adds `?v=VERSION`, from the HTML's bytes",
                );
            }
        }
        if let Some(q) = r.asks.first() {
            refuse(
                self,
                "an app's resource asks nothing: the server serves its HTML itself".into(),
                q.span,
                "remove `asks:`, or serve the resource from a handler without `app:`",
            );
        }
        if let Some(s) = r.subscribe.as_ref().filter(|s| s.value) {
            refuse(
                self,
                "an app's HTML never changes while the server runs".into(),
                s.span,
                "remove `subscribe:`; changed HTML is a new build and a new `?v=` URI",
            );
        }
        if ok { Ok(()) } else { Err(()) }
    }

    /// A host routes a resource into its app bridge by the MIME type, exactly.
    fn app_mime_type(&mut self, r: &raw::Resource, mime_type: &str) -> Result<(), ()> {
        let Some(written) = &r.mime_type else {
            return Err(());
        };
        if mime_type == apps::MIME_TYPE {
            return Ok(());
        }
        self.diags.push(
            Diagnostic::new(
                &codes::APP_MIME_TYPE,
                format!(
                    "an app's MIME type is `{}`, not `{}`",
                    apps::MIME_TYPE,
                    written.value
                ),
                written.span,
            )
            .help(format!("write `mime_type: {}`", apps::MIME_TYPE)),
        );
        Err(())
    }

    /// The HTML, from `html:` or the file `file:` names: UTF-8 and a document. With the
    /// file's name as written and its path.
    fn app_html(
        &mut self,
        app: &raw::ResourceApp,
    ) -> Option<(String, Option<String>, Option<PathBuf>)> {
        let (html, file, path, at) = match (&app.file, &app.html) {
            (Some(file), None) => {
                let (html, path) = self.html_file(file)?;
                (html, Some(file.value.clone()), Some(path), file)
            }
            (None, Some(html)) => (html.value.clone(), None, None, html),
            (Some(_), Some(html)) => {
                self.error(
                    &codes::APP_HTML,
                    "an app has `file:` or `html:`, not both",
                    html.span,
                    "keep `file:` for a document beside the manifest, or `html:` for one written here",
                );
                return None;
            }
            (None, None) => {
                self.error(
                    &codes::APP_HTML,
                    "an app has no HTML",
                    app.span,
                    "add `file:` naming an HTML file beside the manifest, or `html:` with the document",
                );
                return None;
            }
        };
        if !is_document(&html) {
            let what = file
                .as_deref()
                .map_or("`html:`".to_owned(), |f| format!("`{f}`"));
            self.error(
                &codes::APP_HTML,
                format!("{what} is not an HTML document: it does not begin with `<!DOCTYPE html>`"),
                at.span,
                "an app is a whole HTML5 document: start it with `<!DOCTYPE html>`",
            );
            return None;
        }
        Some((html, file, path))
    }

    /// The file `file` names, beside the manifest, as UTF-8 text, with its path.
    fn html_file(&mut self, file: &Spanned<String>) -> Option<(String, PathBuf)> {
        if !super::icons::inside_the_folder(&file.value) {
            self.error(
                &codes::APP_HTML,
                format!("`{}` is not a path inside the manifest's folder", file.value),
                file.span,
                "write the path relative to the manifest, with `/` and without `..`, such as `apps/dashboard.html`",
            );
            return None;
        }
        let path = self.dir.join(&file.value);
        let bytes = match std::fs::metadata(&path) {
            Ok(m) if !m.is_file() => Err(format!("`{}` is not a file", file.value)),
            Ok(_) => std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", file.value)),
            Err(e) => Err(format!("cannot read `{}`: {e}", file.value)),
        };
        let text = bytes.and_then(|b| {
            String::from_utf8(b).map_err(|e| {
                format!(
                    "`{}` is not UTF-8 (byte {} is not)",
                    file.value,
                    e.utf8_error().valid_up_to()
                )
            })
        });
        match text {
            Ok(text) => Some((text, path)),
            Err(problem) => {
                self.error(
                    &codes::APP_HTML,
                    problem,
                    file.span,
                    format!(
                        "the path is relative to the manifest's folder, `{}`, and the file is UTF-8 HTML",
                        self.dir.display()
                    ),
                );
                None
            }
        }
    }

    /// Every CSP entry is an origin; all are checked, so each bad one is reported.
    fn app_csp(&mut self, app: &raw::ResourceApp) -> Option<Csp> {
        let Some(written) = &app.csp else {
            return Some(Csp::default());
        };
        let mut ok = true;
        let mut lists: [Vec<String>; 4] = Default::default();
        for ((key, origins), list) in written.lists().into_iter().zip(&mut lists) {
            for o in origins {
                match origin(&o.value) {
                    Ok(()) => list.push(o.value.clone()),
                    Err(problem) => {
                        ok = false;
                        self.error(
                            &codes::BAD_CSP_ORIGIN,
                            format!("`{}` in `{key}` is not an origin: {problem}", o.value),
                            o.span,
                            "write a scheme and a host, and a port if it needs one: `https://api.example.com`, `wss://live.example.com:8443`, `https://*.example.com`",
                        );
                    }
                }
            }
        }
        let [connect, resource, frame, base_uri] = lists;
        ok.then_some(Csp {
            connect,
            resource,
            frame,
            base_uri,
        })
    }

    fn app_permissions(&mut self, app: &raw::ResourceApp) -> Option<Vec<Permission>> {
        let mut ok = true;
        let mut found = Vec::new();
        for p in &app.permissions {
            match Permission::ALL.into_iter().find(|k| k.key() == p.value) {
                Some(k) if !found.contains(&k) => found.push(k),
                Some(_) => {}
                None => {
                    ok = false;
                    let known: Vec<&str> = Permission::ALL.iter().map(|k| k.key()).collect();
                    self.error(
                        &codes::BAD_APP_PERMISSION,
                        format!("`{}` is not a permission an app can ask for", p.value),
                        p.span,
                        format!("write one of {}", known.join(", ")),
                    );
                }
            }
        }
        ok.then_some(found)
    }

    fn app_domain(&mut self, app: &raw::ResourceApp) -> Result<Option<String>, ()> {
        let Some(d) = &app.domain else {
            return Ok(None);
        };
        let domain = d.value.trim();
        if domain.is_empty() || domain.contains(char::is_whitespace) {
            self.error(
                &codes::EMPTY_TEXT,
                "the app's `domain` is empty or holds whitespace",
                d.span,
                "write the origin your host expects (each host has its own format), or leave `domain:` out",
            );
            return Err(());
        }
        Ok(Some(domain.to_owned()))
    }

    /// Links each tool's `app:` to its resource, once resources are built; refuses frame
    /// settings written on a tool and `_meta.ui` written by hand.
    pub(super) fn tool_apps(&mut self, manifest: &Manifest, contract: &mut Contract) {
        for tool in &manifest.tools {
            let Some(name) = &tool.name else { continue };
            self.hand_written_ui(tool);
            let Some(app) = &tool.app else { continue };
            for key in &app.resource_keys {
                self.error(
                    &codes::APP_SETTINGS_ON_TOOL,
                    format!("`{}` belongs to the app's resource, not to a tool", key.value),
                    key.span,
                    "move it to the `app:` of the `ui://` resource: hosts read CSP and permissions from the resource only",
                );
            }
            let visibility = self.visibility(app);
            let Some(written) = &app.resource else {
                continue;
            };
            let found = contract
                .resources
                .iter()
                .find(|r| r.uri.text() == written.value);
            let linked = match found {
                Some(r) => match &r.app {
                    Some(a) => Some(ToolAppDef {
                        resource: r.name.clone(),
                        uri: a.uri(r.uri.text()),
                        visibility: Vec::new(),
                    }),
                    None => {
                        self.error(
                            &codes::UNKNOWN_APP,
                            format!("the resource `{}` holds no app", r.name),
                            written.span,
                            "name a resource with `app:`, whose URI starts with `ui://`",
                        );
                        None
                    }
                },
                None if self.refused.contains(Referent::App, &written.value) => None,
                None => {
                    let apps: Vec<String> = (contract.resources.iter())
                        .filter(|r| r.app.is_some())
                        .map(|r| format!("`{}`", r.uri.text()))
                        .collect();
                    let help = if apps.is_empty() {
                        "declare a resource with this `uri:` and an `app:` under `resources:`"
                            .to_owned()
                    } else {
                        format!("the apps declared are {}", apps.join(", "))
                    };
                    self.error(
                        &codes::UNKNOWN_APP,
                        format!("`{}` names no app resource", written.value),
                        written.span,
                        help,
                    );
                    None
                }
            };
            let (Some(mut linked), Some(visibility)) = (linked, visibility) else {
                continue;
            };
            linked.visibility = visibility;
            if let Some(t) = contract.tools.iter_mut().find(|t| t.name == name.value) {
                t.app = Some(linked);
            }
        }
    }

    /// A tool's own `_meta` may pass `ui` through unchecked, as any key, unless it has
    /// `app:` (which publishes `_meta.ui` itself) or sets what only a resource takes: the
    /// extension's schema forbids `csp` and `permissions` on a tool, and hosts ignore them.
    fn hand_written_ui(&mut self, tool: &raw::Tool) {
        for (key, value) in &tool.meta {
            let ui = key.value == "ui" || key.value == "ui/resourceUri";
            if ui && tool.app.is_some() {
                self.error(
                    &codes::APP_SETTINGS_ON_TOOL,
                    format!("`_meta.{}` is written by hand beside `app:`", key.value),
                    key.span,
                    "remove it: the build publishes `_meta.ui` from `app:`",
                );
            } else if key.value == "ui"
                && let Some(setting) = ["csp", "permissions"]
                    .into_iter()
                    .find(|k| value.get(k).is_some())
            {
                self.error(
                    &codes::APP_SETTINGS_ON_TOOL,
                    format!("`_meta.ui.{setting}` is set on a tool"),
                    key.span,
                    "declare the app as a `ui://` resource with `app:` and move it there: hosts read it from the resource only",
                );
            }
        }
    }

    /// `visibility:`, both when left out; in the extension's order.
    fn visibility(&mut self, app: &raw::ToolApp) -> Option<Vec<Visibility>> {
        let Some(written) = &app.visibility else {
            return Some(Visibility::ALL.to_vec());
        };
        let mut ok = true;
        let mut found = Vec::new();
        for v in &written.value {
            match Visibility::ALL.into_iter().find(|k| k.name() == v.value) {
                Some(k) => found.push(k),
                None => {
                    ok = false;
                    self.error(
                        &codes::BAD_APP_VISIBILITY,
                        format!("`{}` is not a visibility", v.value),
                        v.span,
                        "write `model` (the agent may call it), `app` (the app may call it), or both",
                    );
                }
            }
        }
        if ok && found.is_empty() {
            self.error(
                &codes::BAD_APP_VISIBILITY,
                "a tool visible to no one can never be called",
                written.span,
                "write `[model]`, `[app]` or `[model, app]`, or leave `visibility:` out for both",
            );
            return None;
        }
        ok.then(|| {
            (Visibility::ALL.into_iter())
                .filter(|v| found.contains(v))
                .collect()
        })
    }
}

/// The version of an app's HTML: the start of the SHA-256 of its bytes, in hex.
fn version(html: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(html);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex[..VERSION_DIGITS].to_owned()
}

/// Whether `html` is an HTML5 document: after a byte-order mark, whitespace and comments, it
/// begins with the doctype, which HTML5 requires of a document.
fn is_document(html: &str) -> bool {
    let mut rest = html.trim_start_matches('\u{feff}').trim_start();
    while let Some(comment) = rest.strip_prefix("<!--") {
        let Some(end) = comment.find("-->") else {
            return false;
        };
        rest = comment[end + 3..].trim_start();
    }
    let doctype = "<!doctype html";
    rest.get(..doctype.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(doctype))
        && rest[doctype.len()..].starts_with(['>', ' ', '\t', '\n', '\r'])
}

/// Whether `entry` is an origin a CSP source list takes for an app: `http`, `https`, `ws` or
/// `wss`, `://`, a host (its first label may be `*`, for every subdomain), an optional port,
/// and nothing after (a path, a query or credentials would be dropped or refused by a host).
fn origin(entry: &str) -> Result<(), String> {
    let Some((scheme, rest)) = entry.split_once("://") else {
        return Err("it has no scheme; write `https://` before the host".into());
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return Err(format!(
            "`{scheme}:` is not `https:`, `http:`, `wss:` or `ws:`"
        ));
    }
    if let Some(c) = rest.find(['/', '?', '#', '@']) {
        return Err(format!(
            "an origin ends after the host and port, and `{}` follows",
            &rest[c..]
        ));
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    if let Some(port) = port
        && (port.is_empty()
            || !port.bytes().all(|b| b.is_ascii_digit())
            || port.parse::<u16>().is_err())
    {
        return Err(format!("`{port}` is not a port"));
    }
    let labels = host.strip_prefix("*.").unwrap_or(host);
    let label = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if host.is_empty() || !labels.split('.').all(label) {
        return Err(format!(
            "`{host}` is not a host name (letters, digits and `-` between dots; `*.` only first)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{is_document, origin};

    #[test]
    fn an_origin_is_a_scheme_a_host_and_perhaps_a_port() {
        for good in [
            "https://api.example.com",
            "wss://live.example.com:8443",
            "https://*.example.com",
            "http://localhost:3000",
        ] {
            assert_eq!(origin(good), Ok(()), "{good}");
        }
        for bad in [
            "api.example.com",
            "ftp://example.com",
            "https://example.com/",
            "https://example.com/api",
            "https://user@example.com",
            "https://example.com:99999",
            "https://ex ample.com",
            "https://a.*.example.com",
            "https://",
            "'self'",
        ] {
            assert!(origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_document_begins_with_its_doctype() {
        assert!(is_document("<!DOCTYPE html><html></html>"));
        assert!(is_document(
            "\u{feff}\n  <!-- app -->\n<!doctype html>\n<p>hi"
        ));
        assert!(!is_document("<html><body>no doctype</body></html>"));
        assert!(!is_document("<div>a fragment</div>"));
        assert!(!is_document("<!DOCTYPE htmlx>"));
        assert!(!is_document(""));
    }
}
