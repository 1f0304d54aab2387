//! The `server:` block: what `serverInfo` publishes, and the `tools/list` cache hint.

use super::Validator;
use crate::diagnostic::{codes, suggest};
use crate::manifest as raw;
use crate::model::{CacheHint, DistributionDef, Profile, ServerInfo, SharedTypes};

impl Validator<'_> {
    /// The server's identity and cache hint.
    pub(super) fn server(&mut self, server: Option<&raw::Server>) -> ServerInfo {
        let mut info = ServerInfo {
            name: String::new(),
            title: None,
            version: None,
            instructions: None,
            cache: None,
            distribution: None,
            logging: false,
            list_changed: false,
            list_changed_at: None,
            icons: Vec::new(),
            shared_types: SharedTypes::Inline,
            shared_types_at: None,
            profiles: Vec::new(),
            keys: Vec::new(),
        };
        let Some(s) = server else { return info };
        let spans = [
            ("name", s.name.as_ref().map(|n| n.span)),
            ("title", s.title.as_ref().map(|n| n.span)),
            ("version", s.version.as_ref().map(|n| n.span)),
            ("instructions", s.instructions.as_ref().map(|n| n.span)),
            ("logging", s.logging.as_ref().map(|n| n.span)),
            (
                "cache",
                (s.cache.as_ref()).and_then(|c| Some(c.ttl_ms.as_ref()?.span)),
            ),
        ];
        info.keys = (spans.into_iter())
            .filter_map(|(key, span)| Some((key, span?)))
            .collect();
        if let Some(name) = &s.name {
            if name.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the server name is empty",
                    name.span,
                    "name the server, e.g. `my-server`",
                );
            }
            info.name = name.value.clone();
        }
        info.title = s.title.as_ref().map(|t| t.value.clone());
        info.version = s.version.as_ref().map(|t| t.value.clone());
        info.instructions = s.instructions.as_ref().map(|t| t.value.clone());
        info.logging = s.logging.as_ref().is_some_and(|l| l.value);
        info.list_changed = s.list_changed.as_ref().is_some_and(|l| l.value);
        info.list_changed_at = s.list_changed.as_ref().map(|l| l.span);
        if let Some(cache) = &s.cache
            && let (Some(ttl), Some(scope)) = (&cache.ttl_ms, &cache.scope)
        {
            match scope.value.as_str() {
                "public" | "private" => {
                    info.cache = Some(CacheHint {
                        ttl_ms: ttl.value,
                        public: scope.value == "public",
                    })
                }
                other => self.report(
                    &codes::BAD_CACHE_SCOPE,
                    format!("unknown cache scope `{other}`"),
                    scope.span,
                ),
            }
        }
        if let Some(written) = &s.shared_types {
            info.shared_types_at = Some(written.span);
            match written.value.as_str() {
                "inline" => {}
                "defs" => info.shared_types = SharedTypes::Defs,
                other => self.report(
                    &codes::BAD_SHARED_TYPES,
                    format!("`{other}` is not a way to publish shared types"),
                    written.span,
                ),
            }
        }
        for name in &s.profiles {
            match name.value.parse::<Profile>() {
                Ok(profile) => info.profiles.push((profile, name.span)),
                Err(_) => {
                    let help = match suggest(&name.value, &Profile::NAMES) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None => format!("the profiles are {}", Profile::NAMES.join(", ")),
                    };
                    self.error(
                        &codes::UNKNOWN_PROFILE,
                        format!("`{}` is not a portability profile", name.value),
                        name.span,
                        help,
                    );
                }
            }
        }
        info.icons = self.icons(&s.icons);
        info.distribution = s
            .distribution
            .as_ref()
            .and_then(|d| self.distribution(d, &info.name));
        info
    }

    /// The registry and bundle identity; `None` when a required part is missing (already
    /// reported by the decoder).
    fn distribution(&mut self, d: &raw::Distribution, server: &str) -> Option<DistributionDef> {
        if let Some(name) = &d.registry_name
            && !is_registry_name(&name.value)
        {
            self.report(
                &codes::BAD_REGISTRY_NAME,
                format!("`{}` is not a registry name", name.value),
                name.span,
            );
        }
        if let Some(text) = &d.description {
            let chars = text.value.chars().count();
            if text.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the distribution description is empty",
                    text.span,
                    "say in one line what the server is for",
                );
            } else if chars > 100 {
                self.report(
                    &codes::REGISTRY_DESCRIPTION_LENGTH,
                    format!("the distribution description has {chars} characters; the registry takes at most 100"),
                    text.span,
                );
            }
        }
        if let Some(author) = d.author.as_ref().filter(|a| a.value.trim().is_empty()) {
            self.error(
                &codes::EMPTY_TEXT,
                "the distribution author is empty",
                author.span,
                "name who publishes the server",
            );
        }
        for url in [&d.repository, &d.remote].into_iter().flatten() {
            if !is_https_url(&url.value) {
                self.report(
                    &codes::BAD_DISTRIBUTION_URL,
                    format!("`{}` is not an https URL", url.value),
                    url.span,
                );
            }
        }
        if let Some(package) = d.package.as_ref().filter(|p| !is_crate_name(&p.value)) {
            self.report(
                &codes::BAD_PACKAGE_NAME,
                format!("`{}` is not a crate name", package.value),
                package.span,
            );
        }
        Some(DistributionDef {
            registry_name: d.registry_name.as_ref()?.value.clone(),
            description: d.description.as_ref()?.value.clone(),
            author: d.author.as_ref()?.value.clone(),
            repository: d.repository.as_ref().map(|r| r.value.clone()),
            package: d
                .package
                .as_ref()
                .map_or_else(|| server.to_owned(), |p| p.value.clone()),
            remote: d.remote.as_ref().map(|r| r.value.clone()),
        })
    }
}

/// The MCP registry's `namespace/name`: `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3 to 200 long.
fn is_registry_name(name: &str) -> bool {
    let Some((namespace, rest)) = name.split_once('/') else {
        return false;
    };
    (3..=200).contains(&name.len())
        && !namespace.is_empty()
        && !rest.is_empty()
        && namespace
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.".contains(&b))
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
}

/// An absolute `https://` URL with a host.
fn is_https_url(url: &str) -> bool {
    url.strip_prefix("https://")
        .and_then(|rest| rest.split(['/', '?', '#']).next())
        .is_some_and(|host| !host.is_empty() && !host.contains(char::is_whitespace))
        && !url.contains(char::is_whitespace)
}

/// A crate name cargo accepts for a new package, which is also its binary's name.
fn is_crate_name(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
