//! Who sees what: the one answer to "may this caller see this entry now?".
//!
//! An entry is in reach when three things hold: the route serves it (its [`View`]: a
//! restricted or group view serves some of the tools, every resource and prompt), the caller
//! may see it (the access [`Gate`](crate::access::Gate): the scopes of the entry, and of its
//! groups for a tool), and it is switched on now ([`Lists`]). Every path asks a [`Reach`]:
//! the lists, `tools/call`, `resources/read`, `prompts/get`, `completion/complete`,
//! `resources/subscribe` and `subscriptions/listen`. An entry out of reach is answered
//! exactly as an entry the manifest does not have: left out of its list, `Unknown tool`,
//! `Unknown prompt`, resource not found, not subscribable, never announced.

use mcp_contract_spec::Revision;
use rmcp::model::{CacheScope, Prompt, Resource, ResourceTemplate, SubscriptionFilter, Tool};

use super::view::View;
use crate::access::Principal;
use crate::lists::Lists;
use crate::published::Published;
use crate::session::MAX_SUBSCRIPTIONS;

/// What one caller of one route may see now; see [the module](self). Cheap: borrowed parts,
/// made per request.
pub(crate) struct Reach<'a> {
    published: &'static Published,
    view: &'a View,
    lists: &'a Lists,
    /// The verified caller; `None` without authorization, where the gate lets everything by.
    caller: Option<&'a Principal>,
}

impl<'a> Reach<'a> {
    pub(super) fn new(
        published: &'static Published,
        view: &'a View,
        lists: &'a Lists,
        caller: Option<&'a Principal>,
    ) -> Self {
        Reach {
            published,
            view,
            lists,
            caller,
        }
    }

    /// The contract served.
    pub(super) fn published(&self) -> &'static Published {
        self.published
    }

    /// Whether tool `i` is in reach: in the view, allowed for the caller (by its own scopes
    /// and its groups'), switched on (and, outside a group's view, one of its groups).
    pub(crate) fn tool(&self, i: usize) -> bool {
        let published = self.published;
        self.view.has(i)
            && self.lists.tool(i, self.view.group)
            && published.gate.tool(i, published.groups_of(i), self.caller)
    }

    /// Whether resource `i`, fixed or template, is in reach.
    pub(crate) fn resource(&self, i: usize) -> bool {
        self.published.gate.resource(i, self.caller) && self.lists.resource(i)
    }

    /// Whether prompt `i` is in reach.
    pub(crate) fn prompt(&self, i: usize) -> bool {
        self.published.gate.prompt(i, self.caller) && self.lists.prompt(i)
    }

    /// The manifest index of the tool called `name`, when it is in reach.
    pub(crate) fn find_tool(&self, name: &str) -> Option<usize> {
        self.published.find(name).filter(|&i| self.tool(i))
    }

    /// The resource `uri` names, with its template's values (see
    /// [`Published::resource`]), when it is in reach.
    pub(crate) fn find_resource(&self, uri: &str) -> Option<(usize, Vec<String>)> {
        self.published
            .resource(uri)
            .filter(|(i, _)| self.resource(*i))
    }

    /// The resource template written `template`, when it is in reach.
    pub(crate) fn find_template(&self, template: &str) -> Option<usize> {
        let resources = self.published.spec.resources;
        (resources
            .iter()
            .position(|r| r.template && r.uri == template))
        .filter(|&i| self.resource(i))
    }

    /// The manifest index of the prompt called `name`, when it is in reach.
    pub(crate) fn find_prompt(&self, name: &str) -> Option<usize> {
        let i = self.published.find_prompt(name)?;
        let prompt = self.published.spec.prompts[i].name;
        if prompt != name {
            tracing::info!(
                alias = name,
                prompt,
                "a prompt was asked for by a former name"
            );
        }
        Some(i).filter(|&i| self.prompt(i))
    }

    /// The `tools/list` answer: the tools in reach, with their `x-mcp-header`s for a
    /// `revision` that has them and stripped for one that does not.
    pub(crate) fn tools(&self, revision: Revision) -> Vec<Tool> {
        let mut tools = self.own_tools(revision);
        if self.view.list_aliases {
            let listed = (self.published.alias_tools().iter())
                .filter(|(i, _)| self.tool(*i))
                .map(|(_, tool)| tool.clone());
            if revision.has_mcp_headers() {
                tools.extend(listed);
            } else {
                tools.extend(listed.map(|t| crate::published::without_headers(&t)));
            }
        }
        tools
    }

    /// The tools in reach under their own names.
    fn own_tools(&self, revision: Revision) -> Vec<Tool> {
        let (published, view) = (self.published, self.view);
        // Nothing filtered by caller or switch: the view's own list, made once.
        if !self.varies() && self.lists.all_on() {
            return if revision.has_mcp_headers() {
                view.tools(published).to_vec()
            } else {
                view.tools_without_headers(published).to_vec()
            };
        }
        let all = if revision.has_mcp_headers() {
            published.tools()
        } else {
            published.tools_without_headers()
        };
        (0..all.len())
            .filter(|&i| self.tool(i))
            .map(|i| all[i].clone())
            .collect()
    }

    /// The `resources/list` answer: the fixed resources in reach.
    pub(crate) fn resources(&self) -> Vec<Resource> {
        self.in_reach(false)
            .zip(&self.published.resources)
            .filter(|(reached, _)| *reached)
            .map(|(_, r)| r.clone())
            .collect()
    }

    /// The `resources/templates/list` answer: the templates in reach.
    pub(crate) fn templates(&self) -> Vec<ResourceTemplate> {
        self.in_reach(true)
            .zip(&self.published.resource_templates)
            .filter(|(reached, _)| *reached)
            .map(|(_, r)| r.clone())
            .collect()
    }

    /// The `prompts/list` answer: the prompts in reach.
    pub(crate) fn prompts(&self) -> Vec<Prompt> {
        (self.published.prompts.iter().enumerate())
            .filter(|(i, _)| self.prompt(*i))
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// Whether each fixed resource (`templates` false) or each template is in reach, in
    /// manifest order.
    fn in_reach(&self, templates: bool) -> impl Iterator<Item = bool> {
        (self.published.spec.resources.iter().enumerate())
            .filter(move |(_, r)| r.template == templates)
            .map(move |(i, _)| self.resource(i))
    }

    /// The resources of a `subscriptions/listen` stream: those `uris` names that are in
    /// reach and that the manifest marks `subscribe: true`, at most [`MAX_SUBSCRIPTIONS`].
    pub(crate) fn subscribable<'u>(
        &self,
        uris: impl IntoIterator<Item = &'u String>,
    ) -> Vec<String> {
        let resources = self.published.spec.resources;
        uris.into_iter()
            .filter(|uri| {
                self.find_resource(uri)
                    .is_some_and(|(i, _)| resources[i].subscribe)
            })
            .take(MAX_SUBSCRIPTIONS)
            .cloned()
            .collect()
    }

    /// The `subscriptions/listen` filter accepted: the list changes asked for, when the
    /// contract's lists can change, and the resources asked for that are
    /// [`subscribable`](Self::subscribable); `None` (`-32601`) when the contract has neither.
    pub(crate) fn accepted(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        let spec = self.published.spec;
        let changes = spec.list_changed;
        let updates = spec.resources.iter().any(|r| r.subscribe);
        (changes || updates).then(|| {
            let mut accepted = SubscriptionFilter::default();
            if changes {
                accepted.tools_list_changed = requested.tools_list_changed;
                accepted.prompts_list_changed = requested.prompts_list_changed;
                accepted.resources_list_changed = requested.resources_list_changed;
            }
            if updates {
                accepted.resource_subscriptions =
                    (requested.resource_subscriptions.as_ref()).map(|uris| self.subscribable(uris));
            }
            accepted
        })
    }

    /// Whether answers depend on who asks: the caller's scopes filter them.
    pub(crate) fn varies(&self) -> bool {
        self.published.gate.filters(self.caller)
    }

    /// The cache hint of a list for a client of `revision`, when that revision has them:
    /// the manifest's, but private, and private even without one, when the list is filtered
    /// by the caller's scopes (a shared cache must not give it to another caller).
    pub(crate) fn cache_for(&self, revision: Revision) -> Option<(Option<u64>, CacheScope)> {
        if !revision.has_cache_hints() {
            return None;
        }
        let declared = self.published.cache_hint();
        if self.varies() {
            return Some((declared.map(|(ttl, _)| ttl), CacheScope::Private));
        }
        declared.map(|(ttl, scope)| (Some(ttl), scope))
    }
}
