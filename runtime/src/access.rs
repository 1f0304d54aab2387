//! Who may see and call what: the scopes the manifest requires of each tool, group, prompt
//! and resource, and the verified caller they are checked against.
//!
//! The contract states the requirements (the `scopes` on each entry's spec, from the
//! manifest's `scopes:` of each entry, and the `auth:` block as [`AccessSpec`]); the HTTP
//! host's authorization verifies a caller's token and hands its [`Principal`] to the server,
//! which serves that caller only what its scopes allow. Without a principal (stdio, or a host without authorization)
//! nothing is filtered: the transport is the boundary.

use rmcp::model::JsonObject;

#[cfg(doc)]
use crate::contract::AccessSpec;
use crate::contract::ContractSpec;

/// The verified caller of a request: who it is and what its token grants.
///
/// Over HTTP with authorization, every request's [`Context`](crate::Context) has one
/// ([`Context::principal`](crate::Context::principal)); a handler checks ownership with it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Principal {
    /// The token's subject (`sub`).
    pub subject: String,
    /// The scopes the token grants (`scope`, space-separated in the token).
    pub scopes: Vec<String>,
    /// The OAuth client the token was issued to (`client_id` or `azp`), when it says.
    pub client_id: Option<String>,
    /// The claims the host was configured to pass on, by name.
    pub claims: JsonObject,
}

impl Principal {
    /// A principal with `subject` and `scopes` and no claims.
    pub fn new(
        subject: impl Into<String>,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Principal {
            subject: subject.into(),
            scopes: scopes.into_iter().map(Into::into).collect(),
            client_id: None,
            claims: JsonObject::new(),
        }
    }

    /// The same principal, naming the client the token was issued to.
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// The same principal, carrying `claims`.
    pub fn with_claims(mut self, claims: JsonObject) -> Self {
        self.claims = claims;
        self
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// Whether the token grants every scope of `required`.
    pub fn has_all(&self, required: &[&str]) -> bool {
        required.iter().all(|s| self.has_scope(s))
    }
}

/// What a caller may see and call, decided from the scopes each entry of a contract requires
/// (its [`AccessSpec`] says whether it declares any).
#[derive(Debug)]
pub(crate) struct Gate {
    spec: &'static ContractSpec,
}

impl Gate {
    /// The gate of `spec`.
    pub(crate) fn new(spec: &'static ContractSpec) -> Gate {
        Gate { spec }
    }

    /// Whether answers to `caller` are filtered by its scopes, and so vary by caller.
    pub(crate) fn filters(&self, caller: Option<&Principal>) -> bool {
        caller.is_some() && self.spec.access.declares_scopes()
    }

    /// Whether `caller` may see and call tool `i`, which is in the groups `groups` (by
    /// index): it holds the tool's own scopes and, for a tool in groups, those of one of its
    /// groups. Without a caller, every tool.
    pub(crate) fn tool(&self, i: usize, groups: &[usize], caller: Option<&Principal>) -> bool {
        let Some(caller) = caller else {
            return true;
        };
        let spec = self.spec;
        caller.has_all(spec.tools[i].scopes)
            && (groups.is_empty()
                || groups
                    .iter()
                    .any(|&g| caller.has_all(spec.groups[g].scopes)))
    }

    /// Whether `caller` may see and read resource `i`.
    pub(crate) fn resource(&self, i: usize, caller: Option<&Principal>) -> bool {
        caller.is_none_or(|c| c.has_all(self.spec.resources[i].scopes))
    }

    /// Whether `caller` may see and get prompt `i`.
    pub(crate) fn prompt(&self, i: usize, caller: Option<&Principal>) -> bool {
        caller.is_none_or(|c| c.has_all(self.spec.prompts[i].scopes))
    }
}
