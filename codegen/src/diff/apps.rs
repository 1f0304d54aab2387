//! MCP Apps: the app a tool opens, who may call the tool, and the app's HTML and frame.
//! Changed HTML is a new version (its URI's `?v=` changes, so hosts fetch it anew): nothing
//! that worked fails. A tool that stops opening its app, or that the model or the app may no
//! longer call, breaks the hosts and apps that relied on it.

use super::compare::{Differ, Side};
use super::rules::*;
use crate::model::{ResourceDef, ToolDef, Visibility};

impl Differ<'_> {
    /// The app the tool opens and its visibility, when they changed.
    pub(super) fn tool_app(&mut self, o: &ToolDef, n: &ToolDef, path: &str) {
        let at = format!("{path}.app");
        match (&o.app, &n.app) {
            (None, None) => {}
            (None, Some(new)) => self.push(
                &APP_ADDED,
                format!("tool `{}` now opens the app `{}`", n.name, new.resource),
                at,
                Side::New,
                n.span,
            ),
            (Some(old), None) => self.push(
                &APP_NO_DELETE,
                format!(
                    "tool `{}` no longer opens the app `{}`",
                    n.name, old.resource
                ),
                at,
                Side::Old,
                o.span,
            ),
            (Some(old), Some(new)) if old.resource != new.resource => self.push(
                &APP_NO_DELETE,
                format!(
                    "tool `{}` opens the app `{}` instead of `{}`",
                    n.name, new.resource, old.resource
                ),
                at,
                Side::New,
                n.span,
            ),
            (Some(old), Some(new)) => {
                let lost: Vec<&str> = (old.visibility.iter())
                    .filter(|v| !new.visibility.contains(v))
                    .map(|v| v.name())
                    .collect();
                let gained = new.visibility.iter().any(|v| !old.visibility.contains(v));
                let rule = match (lost.is_empty(), gained) {
                    (true, false) => return,
                    (false, _) => &APP_VISIBILITY_NO_NARROW,
                    (true, true) => &APP_VISIBILITY_WIDENED,
                };
                let names =
                    |vs: &[Visibility]| vs.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ");
                self.push(
                    rule,
                    format!(
                        "tool `{}` is visible to [{}], was [{}]",
                        n.name,
                        names(&new.visibility),
                        names(&old.visibility)
                    ),
                    format!("{at}.visibility"),
                    Side::New,
                    n.span,
                );
            }
        }
    }

    /// An app's HTML and frame settings, when they changed.
    pub(super) fn resource_app(&mut self, o: &ResourceDef, n: &ResourceDef) {
        let (Some(old), Some(new)) = (&o.app, &n.app) else {
            return;
        };
        let path = format!("resources[{}].app", n.name);
        if old.version != new.version {
            self.push(
                &APP_HTML_CHANGED,
                format!(
                    "the app `{}` has new HTML, published as `{}`",
                    n.name,
                    n.published_uri()
                ),
                path.clone(),
                Side::New,
                n.span,
            );
        }
        if old.meta() != new.meta() {
            self.push(
                &APP_FRAME_CHANGED,
                format!(
                    "the app `{}` changed its frame: `_meta.ui` {} → {}",
                    n.name,
                    old.meta(),
                    new.meta()
                ),
                path,
                Side::New,
                n.span,
            );
        }
    }
}
