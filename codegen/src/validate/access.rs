//! Who may call what: the `auth:` block (the resource identifier, the authorization servers,
//! the scopes) and the `scopes:` each group, tool, resource and prompt requires.
//!
//! It runs once every entry is built, and reads the entries as written, so a reference is
//! judged even on an entry another rule refused; each built entry gets its list by name.

use std::collections::{HashMap, HashSet};

use super::Validator;
use super::names::{NameTable, Referent, is_scope_token};
use super::resources::fixed_uri;
use crate::diagnostic::codes;
use crate::ident;
use crate::manifest::{self as raw, Manifest, ScopeList};
use crate::model::{AccessDef, Contract, ScopeDef};
use crate::source::Spanned;

/// What `scopes:` lists may name.
enum Declared {
    /// No `auth:` block: a list is refused as such.
    Nothing,
    /// The block's scopes were refused where they are written (missing, empty): its uses
    /// say nothing more.
    Refused,
    /// The scopes declared with a valid name, in manifest order.
    Scopes(Vec<String>),
}

/// The scopes the entries list, and whether any listed one is unknown.
#[derive(Default)]
struct Uses {
    names: HashSet<String>,
    unknown: bool,
}

impl Validator<'_> {
    /// Checks the `auth:` block and every entry's `scopes:`, and fills them into `contract`.
    pub(super) fn access(&mut self, manifest: &Manifest, contract: &mut Contract) {
        let access = manifest.auth.as_ref().and_then(|a| self.auth(a));
        let declared = match (&manifest.auth, &access) {
            (None, _) => Declared::Nothing,
            (Some(_), None) => Declared::Refused,
            (Some(_), Some(a)) => Declared::Scopes(
                a.scopes
                    .iter()
                    .filter(|s| is_scope_token(&s.name))
                    .map(|s| s.name.clone())
                    .collect(),
            ),
        };
        let mut used = Uses::default();
        for g in &manifest.groups {
            let scopes = self.scopes_of(&g.scopes, &declared, &mut used);
            if let Some(d) = contract.groups.iter_mut().find(|d| d.name == g.name.value) {
                d.scopes = scopes;
            }
        }
        // Built tools by name, the first of each: a lookup per entry keeps this linear where a
        // scan of the tools per entry made 10,000 tools cost a hundred times 1,000.
        let mut built: HashMap<&str, usize> = HashMap::with_capacity(contract.tools.len());
        for (i, d) in contract.tools.iter().enumerate() {
            built.entry(d.name.as_str()).or_insert(i);
        }
        let mut tool_scopes = Vec::new();
        for t in &manifest.tools {
            let scopes = self.scopes_of(&t.scopes, &declared, &mut used);
            if let Some(&i) = name(&t.name).and_then(|n| built.get(n.as_str())) {
                tool_scopes.push((i, scopes));
            }
        }
        for (i, scopes) in tool_scopes {
            contract.tools[i].scopes = scopes;
        }
        for r in &manifest.resources {
            let scopes = self.scopes_of(&r.scopes, &declared, &mut used);
            if let Some(d) = contract
                .resources
                .iter_mut()
                .find(|d| Some(&d.name) == name(&r.name))
            {
                d.scopes = scopes;
            }
        }
        for p in &manifest.prompts {
            let scopes = self.scopes_of(&p.scopes, &declared, &mut used);
            if let Some(d) = contract
                .prompts
                .iter_mut()
                .find(|d| Some(&d.name) == name(&p.name))
            {
                d.scopes = scopes;
            }
        }
        // While a reference is unknown, the report waits: fixing a misspelt name may be what
        // uses the scope.
        if let Some(a) = access.as_ref().filter(|_| !used.unknown) {
            for s in a.scopes.iter().filter(|s| !used.names.contains(&s.name)) {
                if is_scope_token(&s.name) {
                    self.report(
                        &codes::UNUSED_SCOPE,
                        format!("no entry requires the scope `{}`", s.name),
                        s.span,
                    );
                }
            }
        }
        contract.access = access;
    }

    /// The block, or `None` when its scopes are missing or none (reported).
    fn auth(&mut self, a: &raw::Auth) -> Option<AccessDef> {
        let resource = a.resource.as_ref().and_then(|r| {
            self.auth_url(r, "the resource identifier", false)
                .then(|| (r.value.clone(), r.span))
        });
        let mut authorization_servers = Vec::new();
        for s in &a.authorization_servers {
            if self.auth_url(s, "the authorization server", true) {
                authorization_servers.push((s.value.clone(), s.span));
            }
        }
        let written = a.scopes.as_ref()?;
        if written.value.is_empty() {
            self.report(
                &codes::EMPTY_SCOPES,
                "`auth.scopes` declares no scope",
                written.span,
            );
            return None;
        }
        let mut scopes = Vec::new();
        // Each scope becomes a constant of the generated `scopes` module.
        let mut constants = NameTable::default();
        for s in &written.value {
            if !is_scope_token(&s.name.value) {
                self.report(
                    &codes::BAD_SCOPE_NAME,
                    format!("`{}` is not a valid scope name", s.name.value),
                    s.name.span,
                );
                self.refused.refuse(Referent::Scope, &s.name.value);
            }
            let constant = ident::scope_constant(&s.name.value);
            // Still a scope: the entries that list it are not told it is unknown.
            if let Err(first) = constants.claim(&constant, s.name.span) {
                self.collision(
                    format!(
                        "the scope `{}` becomes the Rust constant `scopes::{constant}`, which another scope already has",
                        s.name.value
                    ),
                    s.name.span,
                    Some((first, "this scope has the same Rust name")),
                    "rename one of the scopes so they differ in more than punctuation and case",
                );
            }
            let description = self.text(
                &s.description,
                "the scope's description is empty",
                "say what a token with this scope may do",
            );
            scopes.push(ScopeDef {
                name: s.name.value.clone(),
                description,
                constant,
                span: s.name.span,
            });
        }
        Some(AccessDef {
            resource,
            authorization_servers,
            scopes,
            span: a.span,
        })
    }

    /// Checks one URL of the block (`what` names it in the message); false when refused.
    fn auth_url(&mut self, url: &Spanned<String>, what: &str, issuer: bool) -> bool {
        let Err(why) = auth_url(&url.value, issuer) else {
            return true;
        };
        self.error(
            &codes::BAD_AUTH_URL,
            format!("{what} `{}` is not an absolute https URL: {why}", url.value),
            url.span,
            "write an absolute `https://` URL, such as `https://mcp.example.com/mcp`; `http://` is for a loopback host only",
        );
        false
    }

    /// The scopes one entry lists, each declared and listed once; reports every fault.
    fn scopes_of(&mut self, list: &ScopeList, declared: &Declared, used: &mut Uses) -> Vec<String> {
        let Some(list) = list else {
            return Vec::new();
        };
        let known = match declared {
            Declared::Nothing => {
                self.report(
                    &codes::SCOPES_WITHOUT_AUTH,
                    "`scopes:` is listed, but no `auth:` block declares scopes",
                    list.span,
                );
                return Vec::new();
            }
            Declared::Refused => return Vec::new(),
            Declared::Scopes(known) => known,
        };
        let mut out: Vec<String> = Vec::new();
        for s in &list.value {
            if out.contains(&s.value) {
                self.report(
                    &codes::DUPLICATE_SCOPE,
                    format!("the scope `{}` is listed twice", s.value),
                    s.span,
                );
            } else if known.contains(&s.value) {
                used.names.insert(s.value.clone());
                out.push(s.value.clone());
            } else if !self.refused.contains(Referent::Scope, &s.value) {
                self.unknown(s, Referent::Scope, known.iter().map(String::as_str));
                used.unknown = true;
            }
        }
        out
    }
}

fn name(n: &Option<Spanned<String>>) -> Option<&String> {
    n.as_ref().map(|n| &n.value)
}

/// Why `url` cannot be the resource identifier (RFC 8707: an absolute URI without a
/// fragment) or, with `issuer`, an authorization server's issuer (RFC 8414: no query either);
/// both `https`, but for a loopback host, where a test or a local deployment runs.
fn auth_url(url: &str, issuer: bool) -> Result<(), String> {
    fixed_uri(url)?;
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err("it has no `//` and host".into());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err("it holds user information".into());
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    if host.is_empty() {
        return Err("it names no host".into());
    }
    match scheme.to_ascii_lowercase().as_str() {
        "https" => {}
        "http" if is_loopback(host) => {}
        "http" => return Err(format!("`http://` is for a loopback host, not `{host}`")),
        other => return Err(format!("its scheme is `{other}`")),
    }
    if url.contains('#') {
        return Err("it has a fragment".into());
    }
    if issuer && rest.contains('?') {
        return Err("an issuer has no query".into());
    }
    Ok(())
}

/// `localhost`, an IPv4 loopback address or `::1`.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::auth_url;

    #[test]
    fn an_auth_url_is_https_but_on_loopback() {
        for ok in [
            "https://mcp.example.com/mcp",
            "https://mcp.example.com:8443",
            "http://127.0.0.1:8080/mcp",
            "http://localhost/mcp",
            "http://[::1]:3000",
        ] {
            assert_eq!(auth_url(ok, true), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("mcp.example.com", "no scheme"),
            ("http://mcp.example.com", "`http://` is for a loopback host"),
            ("ftp://mcp.example.com", "its scheme is `ftp`"),
            ("https://mcp.example.com/mcp#x", "it has a fragment"),
            ("https://user@mcp.example.com", "user information"),
            ("https:///mcp", "it names no host"),
            ("urn:x", "no `//`"),
        ] {
            let err = auth_url(bad, false).expect_err(bad);
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!(auth_url("https://mcp.example.com/?v=1", false), Ok(()));
        assert!(auth_url("https://auth.example.com/?v=1", true).is_err());
    }
}
