//! The `server:` block: what `serverInfo` publishes, and the `tools/list` cache hint.

use super::Validator;
use crate::diagnostic::codes;
use crate::manifest as raw;
use crate::model::{CacheHint, ServerInfo};

impl Validator<'_> {
    /// The server's identity and cache hint.
    pub(super) fn server(&mut self, server: Option<&raw::Server>) -> ServerInfo {
        let mut info = ServerInfo {
            name: String::new(),
            title: None,
            version: None,
            instructions: None,
            cache: None,
        };
        let Some(s) = server else { return info };
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
        info
    }
}
