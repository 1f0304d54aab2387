//! Resources declared in the manifest: what `resources/list` and `resources/templates/list`
//! publish, how a URI finds its resource, and what a handler returns.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};

/// A resource as generated from the manifest.
#[derive(Debug)]
pub struct ResourceSpec {
    /// The programmatic name.
    pub name: &'static str,
    /// The title for people.
    pub title: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// Its MIME type.
    pub mime_type: &'static str,
    /// The fixed URI, or the level-1 template when `template` is true.
    pub uri: &'static str,
    /// Whether `uri` is a template.
    pub template: bool,
}

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
    /// The URI names something that cannot be a resource, with why (`-32602`).
    Invalid(String),
    /// Reading failed, with why (`-32603`).
    Failed(String),
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::NotFound => f.write_str("resource not found"),
            ResourceError::Invalid(why) | ResourceError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ResourceError {}

impl ResourceSpec {
    /// The entry of `resources/list`, for a fixed resource.
    pub fn listed(&self) -> Option<Resource> {
        (!self.template).then(|| {
            Resource::new(self.uri, self.name)
                .with_title(self.title)
                .with_description(self.description)
                .with_mime_type(self.mime_type)
        })
    }

    /// The entry of `resources/templates/list`, for a template.
    pub fn listed_template(&self) -> Option<ResourceTemplate> {
        self.template.then(|| {
            ResourceTemplate::new(self.uri, self.name)
                .with_title(self.title)
                .with_description(self.description)
                .with_mime_type(self.mime_type)
        })
    }

    /// The values of the template's variables in `uri`, unescaped, or `None` when `uri` is
    /// not this resource. A fixed resource matches its URI exactly, with no values.
    pub fn matches(&self, uri: &str) -> Option<Vec<String>> {
        if !self.template {
            return (uri == self.uri).then(Vec::new);
        }
        let mut values = Vec::new();
        let mut rest = uri;
        let mut template = self.uri;
        loop {
            let Some(open) = template.find('{') else {
                return (rest == template).then_some(values);
            };
            rest = rest.strip_prefix(&template[..open])?;
            let close = open + template[open..].find('}')?;
            template = &template[close + 1..];
            // A variable is one segment: up to the next literal, never across `/`, `?` or `#`.
            let next = template.find('{').map_or(template, |i| &template[..i]);
            let last = !template.contains('{');
            let end = if last {
                // The last variable runs up to the template's closing text, which ends the URI:
                // `{name}.json` reads `a.json.json` as `a.json`.
                rest.strip_suffix(next)?.len()
            } else {
                rest.find(next)?
            };
            let raw = &rest[..end];
            if raw.is_empty() || raw.contains(['/', '?', '#']) {
                return None;
            }
            values.push(unescape(raw)?);
            rest = &rest[end..];
        }
    }

    /// The `resources/read` contents of a body read from `uri`.
    pub fn contents(&self, uri: &str, body: ResourceBody) -> ResourceContents {
        let contents = match body {
            ResourceBody::Text(text) => ResourceContents::text(text, uri),
            ResourceBody::Blob(bytes) => ResourceContents::blob(STANDARD.encode(bytes), uri),
        };
        contents.with_mime_type(self.mime_type)
    }
}

/// Percent-decoding of one segment; `None` for a bad escape or bytes that are not UTF-8.
fn unescape(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            // Two hex digits exactly: `from_str_radix` alone would take `%+1`.
            let hex = raw
                .get(i + 1..i + 3)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
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
        }
    }

    #[test]
    fn fixed_resources_match_exactly() {
        let r = spec("workspace:///README.md", false);
        assert_eq!(r.matches("workspace:///README.md"), Some(vec![]));
        assert_eq!(r.matches("workspace:///README.mdx"), None);
        assert_eq!(r.matches("workspace:///readme.md"), None);
    }

    #[test]
    fn template_variables_are_one_unescaped_segment() {
        let r = spec("workspace:///files/{path}", true);
        assert_eq!(
            r.matches("workspace:///files/src%2Fmain.rs"),
            Some(vec!["src/main.rs".to_owned()])
        );
        assert_eq!(
            r.matches("workspace:///files/caf%C3%A9"),
            Some(vec!["café".to_owned()])
        );
        for miss in [
            "workspace:///files/",
            "workspace:///files/src/main.rs",
            "workspace:///files/a?b",
            "workspace:///file/a",
            "workspace:///files/%zz",
            "workspace:///files/%ff",
            "workspace:///files/a%+0b",
            "workspace:///files/%+f",
            "other:///files/a",
        ] {
            assert_eq!(r.matches(miss), None, "{miss}");
        }
    }

    #[test]
    fn several_variables_split_at_their_literals() {
        let r = spec("db://{schema}/tables/{table}.json", true);
        assert_eq!(
            r.matches("db://public/tables/users.json"),
            Some(vec!["public".to_owned(), "users".to_owned()])
        );
        assert_eq!(r.matches("db://public/tables/users.csv"), None);
        let r = spec("x:///{name}.json", true);
        assert_eq!(
            r.matches("x:///a.json.json"),
            Some(vec!["a.json".to_owned()])
        );
        assert_eq!(r.matches("x:///.json"), None);
        assert_eq!(r.matches("db://public/views/users.json"), None);
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
