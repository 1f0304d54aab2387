//! The protected resource of each route (RFC 9728): its identifier, where its metadata is,
//! and the metadata document.

use reqwest::Url;
use serde_json::{Value, json};

use crate::contract::ContractSpec;

/// The well-known path of protected resource metadata; a route's is this followed by the
/// route (RFC 9728 §3.1).
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What the host knows of one mounted route.
#[derive(Debug, Clone)]
pub(crate) struct Mounted {
    pub(crate) route: String,
    pub(crate) required: &'static [&'static str],
    pub(crate) spec: &'static ContractSpec,
}

/// One route as a protected resource.
#[derive(Debug, Clone)]
pub(crate) struct Resource {
    /// Its identifier: the configured one followed by the route, such as
    /// `https://mcp.example.com/mcp/read`.
    pub(crate) uri: String,
    /// The path this host serves its metadata at: `/.well-known/oauth-protected-resource`
    /// followed by the route.
    pub(crate) metadata_path: String,
    /// Where clients find that metadata: the well-known path inserted between the
    /// identifier's host and its path.
    pub(crate) metadata_url: String,
    /// The scopes the route requires, space-separated, when it requires any.
    pub(crate) scope: Option<String>,
    pub(crate) required: &'static [&'static str],
    /// The metadata document.
    pub(crate) document: Value,
}

impl Resource {
    /// The resource `mounted` is, under the host's resource identifier `base` (parsed,
    /// without query or fragment), issued for by `issuer`.
    pub(crate) fn new(base: &Url, issuer: &str, name: Option<&str>, mounted: &Mounted) -> Self {
        let base_path = base.path().trim_end_matches('/');
        let route = if mounted.route == "/" {
            ""
        } else {
            mounted.route.as_str()
        };
        let origin = base.origin().ascii_serialization();
        let uri = format!("{origin}{base_path}{route}");
        let metadata_url = format!("{origin}{WELL_KNOWN}{base_path}{route}");
        let spec = mounted.spec;
        let mut document = serde_json::Map::new();
        document.insert("resource".into(), json!(uri));
        document.insert("authorization_servers".into(), json!([issuer]));
        if spec.access.declares_scopes() {
            let scopes: Vec<&str> = spec.access.scopes.iter().map(|s| s.name).collect();
            document.insert("scopes_supported".into(), json!(scopes));
        }
        document.insert("bearer_methods_supported".into(), json!(["header"]));
        document.insert(
            "resource_name".into(),
            json!(name.unwrap_or(spec.title.unwrap_or(spec.name))),
        );
        Resource {
            uri,
            metadata_path: format!("{WELL_KNOWN}{route}"),
            metadata_url,
            scope: (!mounted.required.is_empty()).then(|| mounted.required.join(" ")),
            required: mounted.required,
            document: Value::Object(document),
        }
    }
}

/// The one value the manifests of the mounted servers agree on, if they name any:
/// `Err` when they name several.
pub(crate) fn agreed(
    mounted: &[Mounted],
    what: &str,
    pick: impl Fn(&'static ContractSpec) -> &'static [&'static str],
) -> Result<Option<&'static str>, String> {
    let mut named: Vec<&'static str> = Vec::new();
    for m in mounted {
        for &value in pick(m.spec) {
            if !named.contains(&value) {
                named.push(value);
            }
        }
    }
    match named.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        several => Err(format!(
            "the manifests name several {what}s ({}); configure the one to use",
            several.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(base: &str, route: &str) -> Resource {
        static SPEC: ContractSpec = ContractSpec {
            name: "notes",
            version: "0.1.0",
            ..ContractSpec::EMPTY
        };
        let mounted = Mounted {
            route: route.to_owned(),
            required: &[],
            spec: &SPEC,
        };
        Resource::new(
            &Url::parse(base).expect("a URL"),
            "https://as.example",
            None,
            &mounted,
        )
    }

    #[test]
    fn a_route_is_the_resource_of_the_base_followed_by_the_route() {
        let r = resource("https://h.example", "/mcp/read");
        assert_eq!(r.uri, "https://h.example/mcp/read");
        assert_eq!(
            r.metadata_path,
            "/.well-known/oauth-protected-resource/mcp/read"
        );
        assert_eq!(
            r.metadata_url,
            "https://h.example/.well-known/oauth-protected-resource/mcp/read"
        );
        // Behind a proxy at a path: the well-known part goes before the whole path.
        let r = resource("https://h.example:8443/api/", "/mcp");
        assert_eq!(r.uri, "https://h.example:8443/api/mcp");
        assert_eq!(r.metadata_path, "/.well-known/oauth-protected-resource/mcp");
        assert_eq!(
            r.metadata_url,
            "https://h.example:8443/.well-known/oauth-protected-resource/api/mcp"
        );
        let root = resource("https://h.example", "/");
        assert_eq!(root.uri, "https://h.example");
        assert_eq!(root.metadata_path, "/.well-known/oauth-protected-resource");
        assert_eq!(root.document["resource_name"], "notes");
        assert!(
            root.document.get("scopes_supported").is_none(),
            "no scopes declared"
        );
    }
}
