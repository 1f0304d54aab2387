//! Who may call what: the scopes each entry requires and the `auth:` block, compared.

use super::compare::{Differ, Side};
use super::rules::*;
use crate::model::AccessDef;
use crate::source::Span;

impl Differ<'_> {
    /// The scopes one entry requires, as sets: each new one breaking, each dropped one not.
    pub(super) fn scopes(
        &mut self,
        who: &str,
        path: &str,
        old: &[String],
        new: &[String],
        at: Span,
    ) {
        for s in new.iter().filter(|s| !old.contains(s)) {
            self.push(
                &SCOPE_NO_ADD,
                format!("{who} now requires the scope `{s}`"),
                format!("{path}.scopes[{s}]"),
                Side::New,
                at,
            );
        }
        for s in old.iter().filter(|s| !new.contains(s)) {
            self.push(
                &SCOPE_REMOVED,
                format!("{who} no longer requires the scope `{s}`"),
                format!("{path}.scopes[{s}]"),
                Side::New,
                at,
            );
        }
    }

    /// The groups' scopes, by group name, then the `auth:` block: the declared scopes, the
    /// resource identifier and the authorization servers.
    pub(super) fn access(&mut self) {
        let (old, new) = (self.old, self.new);
        for g in &new.groups {
            if let Some(o) = old.groups.iter().find(|o| o.name == g.name) {
                let path = format!("groups[{}]", g.name);
                self.scopes(
                    &format!("group `{}`", g.name),
                    &path,
                    &o.scopes,
                    &g.scopes,
                    g.span,
                );
            }
        }
        let none = AccessDef {
            resource: None,
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
            span: Span::default(),
        };
        let (o, n) = (
            old.access.as_ref().unwrap_or(&none),
            new.access.as_ref().unwrap_or(&none),
        );
        for s in &n.scopes {
            match o.scopes.iter().find(|x| x.name == s.name) {
                None => self.push(
                    &AUTH_SCOPE_ADDED,
                    format!("the scope `{}` was declared", s.name),
                    format!("auth.scopes[{}]", s.name),
                    Side::New,
                    s.span,
                ),
                Some(x) if x.description != s.description => self.push(
                    &DESCRIPTION_CHANGED,
                    format!("the scope `{}` changed its description", s.name),
                    format!("auth.scopes[{}]", s.name),
                    Side::New,
                    s.span,
                ),
                Some(_) => {}
            }
        }
        for s in o
            .scopes
            .iter()
            .filter(|s| !n.scopes.iter().any(|x| x.name == s.name))
        {
            self.push(
                &AUTH_SCOPE_REMOVED,
                format!("the scope `{}` is no longer declared", s.name),
                format!("auth.scopes[{}]", s.name),
                Side::Old,
                s.span,
            );
        }
        let shown = |r: &Option<(String, Span)>| match r {
            Some((r, _)) => format!("`{r}`"),
            None => "the deployment's".to_owned(),
        };
        if o.resource.as_ref().map(|r| &r.0) != n.resource.as_ref().map(|r| &r.0) {
            let (side, span) = match (&n.resource, &o.resource) {
                (Some((_, at)), _) => (Side::New, *at),
                (None, Some((_, at))) => (Side::Old, *at),
                (None, None) => (Side::New, n.span),
            };
            self.push(
                &AUTH_RESOURCE_NO_CHANGE,
                format!(
                    "the resource identifier changed from {} to {}",
                    shown(&o.resource),
                    shown(&n.resource)
                ),
                "auth.resource".into(),
                side,
                span,
            );
        }
        let listed = |a: &AccessDef, s: &str| a.authorization_servers.iter().any(|(x, _)| x == s);
        for (s, at) in n
            .authorization_servers
            .iter()
            .filter(|(s, _)| !listed(o, s))
        {
            self.push(
                &AUTH_SERVER_ADDED,
                format!("the authorization server `{s}` was added"),
                format!("auth.authorization_servers[{s}]"),
                Side::New,
                *at,
            );
        }
        for (s, at) in o
            .authorization_servers
            .iter()
            .filter(|(s, _)| !listed(n, s))
        {
            self.push(
                &AUTH_SERVER_NO_DELETE,
                format!("the authorization server `{s}` was removed"),
                format!("auth.authorization_servers[{s}]"),
                Side::Old,
                *at,
            );
        }
    }
}
