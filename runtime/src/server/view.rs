//! Views: the tools a server value serves, decided once when the server or view is made
//! ([`Server::restrict`], [`Server::group`]). Resources and prompts are served by every view.

use std::sync::{Arc, OnceLock};

use rmcp::model::Tool;

use super::{Dispatch, Server};
use crate::published::Published;

/// The tools a server serves, decided once when the server or view is made.
pub(super) struct View {
    /// `served[i]`: whether tool `i` of the manifest is served.
    served: Box<[bool]>,
    /// The served tools, in manifest order: the `tools/list` answer; `None` when they are all
    /// the contract's, so that a whole server keeps no copy of its list.
    tools: Option<Vec<Tool>>,
    /// The same tools with their `x-mcp-header`s stripped, made on the first request of a
    /// client whose revision has no MCP headers (for `Some` tools only).
    tools_without_headers: OnceLock<Vec<Tool>>,
    /// The scopes every caller of this view needs: its group's, for a group's view.
    scopes: &'static [&'static str],
    /// The group whose view this is, whose switch ([`Lists`](crate::Lists)) turns the whole
    /// view off.
    pub(super) group: Option<usize>,
    /// Whether `tools/list` lists the tools' former names too ([`Server::list_aliases`]).
    pub(super) list_aliases: bool,
}

impl View {
    /// The view of a whole server: every tool of `published`.
    pub(super) fn whole(published: &Published) -> View {
        View {
            served: vec![true; published.tool_count()].into_boxed_slice(),
            tools: None,
            tools_without_headers: OnceLock::new(),
            scopes: &[],
            group: None,
            list_aliases: false,
        }
    }

    /// Whether tool `i` of the manifest is in this view (switched on or not).
    pub(super) fn has(&self, i: usize) -> bool {
        self.served.get(i).copied().unwrap_or(false)
    }

    /// The tools of `published` this view serves, in manifest order.
    pub(super) fn tools<'a>(&'a self, published: &'a Published) -> &'a [Tool] {
        self.tools.as_deref().unwrap_or(published.tools())
    }

    /// [`View::tools`] with their `x-mcp-header`s stripped, as a client of a revision
    /// without MCP headers (2025-11-25) receives them.
    pub(super) fn tools_without_headers<'a>(&'a self, published: &'a Published) -> &'a [Tool] {
        if self.tools.is_none() {
            return published.tools_without_headers();
        }
        self.tools_without_headers.get_or_init(|| {
            let all = published.tools_without_headers();
            (0..all.len())
                .filter(|&i| self.served[i])
                .map(|i| all[i].clone())
                .collect()
        })
    }
}

impl<D: Dispatch> Server<D> {
    /// The tools this view serves, in manifest order: what `tools/list` answers while no
    /// tool is switched off ([`Server::lists`]).
    pub fn tools(&self) -> &[Tool] {
        self.view.tools(self.published())
    }

    /// A view of this server that serves only the tools `keep` accepts, sharing the same
    /// handler. To the view's clients the other tools do not exist: `tools/list` leaves them
    /// out, `get_tool` does not find them, and calling one is the unknown-tool error. `keep`
    /// sees only the tools this server serves, so restricting a view narrows it further.
    ///
    /// For a read-only server:
    ///
    /// ```ignore
    /// let read_only = server.restrict(|t| {
    ///     t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
    /// });
    /// ```
    pub fn restrict(&self, keep: impl Fn(&Tool) -> bool) -> Server<D> {
        let published = self.published();
        let mut served = vec![false; published.tool_count()].into_boxed_slice();
        let mut tools = Vec::new();
        for (i, tool) in published.tools().iter().enumerate() {
            if self.view.served[i] && keep(tool) {
                served[i] = true;
                tools.push(tool.clone());
            }
        }
        Server {
            pipeline: self.pipeline.clone(),
            view: Arc::new(View {
                served,
                tools: Some(tools),
                tools_without_headers: OnceLock::new(),
                scopes: self.view.scopes,
                group: self.view.group,
                list_aliases: self.view.list_aliases,
            }),
        }
    }

    /// The same server listing, after its tools, each tool's former names (the manifest's
    /// `aliases:`) in `tools/list`: a copy of the tool under the old name, its description
    /// saying it is a deprecated alias and its `_meta`
    /// (`io.github.mcp-contract/lifecycle`) `{"state": "alias", "aliasOf": TOOL}`. By default
    /// aliases are answered but not listed, so they cost clients no tokens; list them for
    /// clients that only call what they saw listed. They come after every tool, not beside
    /// their own: a client that keeps only the first N tools (some cap the count) drops former
    /// names before any tool, and the tools keep the manifest's order.
    pub fn list_aliases(&self) -> Server<D> {
        let view = &self.view;
        Server {
            pipeline: self.pipeline.clone(),
            view: Arc::new(View {
                served: view.served.clone(),
                tools: view.tools.clone(),
                tools_without_headers: OnceLock::new(),
                scopes: view.scopes,
                group: view.group,
                list_aliases: true,
            }),
        }
    }

    /// The view serving the tools of the contract's group `name` (see
    /// the manifest's `groups:`) that this server serves;
    /// `None` when the contract has no such group.
    pub fn group(&self, name: &str) -> Option<Server<D>> {
        let spec = self.published().spec;
        let index = spec.groups.iter().position(|g| g.name == name)?;
        let group = &spec.groups[index];
        let mut view = self.restrict(|t| group.tools.contains(&t.name.as_ref()));
        let made = Arc::get_mut(&mut view.view).expect("a view just made is not shared");
        made.group = Some(index);
        if !group.scopes.is_empty() {
            made.scopes = group.scopes;
        }
        Some(view)
    }

    /// The scopes every caller of this server needs before anything is served: its group's
    /// (`scopes:` of the group in the manifest) for a group's view, none otherwise. The HTTP
    /// host's authorization answers a token without them `403 insufficient_scope`.
    pub fn required_scopes(&self) -> &'static [&'static str] {
        self.view.scopes
    }
}
