//! What a server publishes, changed at run time: tools, groups, prompts and resources switched
//! off and on again through a [`Lists`] handle, and the clients told of each change.
//!
//! The switches are one atomic per manifest entry, shared by every connection and view of a
//! server, so a change is seen by the next request of every client, on either transport and
//! revision. Each change bumps a per-list counter in a [`watch`] channel; each listening
//! connection (a 2025-11-25 client after `initialize`, a 2026-07-28 `subscriptions/listen`)
//! follows that channel in its own task and sends `notifications/*/list_changed` for the lists
//! whose counter moved. A change never waits for a client: a slow one receives one coalesced
//! notice when it catches up, and a gone one's task ends with its connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rmcp::service::SubscriptionContext;
use rmcp::{ErrorData, Peer, RoleServer};
use tokio::sync::{oneshot, watch};

use crate::published::Published;

/// The most `subscriptions/listen` streams one server holds open at once (2026-07-28); a
/// client past it is answered an error after the acknowledgment, until another stops
/// listening. Each open stream holds one of the requests in flight
/// ([`DEFAULT_MAX_IN_FLIGHT`](crate::DEFAULT_MAX_IN_FLIGHT): the HTTP host's, or the stdio
/// connection's) for as long as it lasts, so this stays well below that bound, leaving
/// room for calls.
pub const MAX_LISTENERS: usize = 16;

/// Switches what a server publishes, while it runs (see [`Server::lists`](crate::Server::lists);
/// a handler reaches the same handle through [`Context::lists`](crate::Context::lists)).
///
/// Cheap to clone, and not generic over the handler, so it can be handed to code that is
/// not the server: an admin endpoint, a feature-flag watcher, a handler that stored it. Every
/// connection and every view of the server ([`Server::restrict`](crate::Server::restrict),
/// [`Server::group`](crate::Server::group), the HTTP host's group routes) sees a change at
/// once: a disabled entry is left out of its list and is answered exactly as an unknown one
/// (`Unknown tool: …`, `Unknown prompt: …`, resource not found, not subscribable). A
/// disabled resource's changes are announced to no one: its subscribers and listeners keep
/// their subscriptions and hear nothing of it until it is enabled again. Clients are told with
/// `notifications/tools/list_changed` (and `prompts/…`, `resources/…`): on 2025-11-25 every
/// initialized connection, on 2026-07-28 every `subscriptions/listen` stream that asked.
///
/// Only a contract whose manifest says `list_changed: true` in its `server:` block may change
/// its lists, since that is what advertises `listChanged` to clients; the handle refuses
/// otherwise ([`ListError::Undeclared`]).
///
/// ```ignore
/// let lists = server.lists();
/// lists.disable(Entry::Group("write"))?; // maintenance: read-only for a while
/// lists.enable(Entry::Group("write"))?;
/// ```
#[derive(Clone)]
pub struct Lists(Arc<Switches>);

/// An entry of the manifest, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry<'a> {
    /// A tool.
    Tool(&'a str),
    /// A group of `groups:`: off, its route serves nothing and its tools leave every view
    /// unless another of their groups is on.
    Group(&'a str),
    /// A prompt.
    Prompt(&'a str),
    /// A resource, fixed or template, by its manifest `name`.
    Resource(&'a str),
}

/// Why a list was not changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListError {
    /// The contract's manifest does not say `list_changed: true`, so its clients were
    /// promised lists that do not change.
    Undeclared,
    /// The manifest has no such entry.
    Unknown(String),
}

impl std::fmt::Display for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListError::Undeclared => f.write_str(
                "the contract's lists cannot change: add `list_changed: true` to the manifest's \
                 `server:` block",
            ),
            ListError::Unknown(what) => write!(f, "the manifest has no {what}"),
        }
    }
}

impl std::error::Error for ListError {}

struct Switches {
    published: &'static Published,
    /// `tools[i]`: tool `i` is switched off; the same for the others.
    tools: Box<[AtomicBool]>,
    groups: Box<[AtomicBool]>,
    prompts: Box<[AtomicBool]>,
    resources: Box<[AtomicBool]>,
    /// How many entries are off: none, and every check is one load.
    off: AtomicUsize,
    changes: watch::Sender<Changes>,
    listeners: AtomicUsize,
}

/// How often each list changed, for listeners to see which moved since they last looked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Changes {
    tools: u64,
    prompts: u64,
    resources: u64,
}

/// Which list an entry is in.
#[derive(Clone, Copy)]
enum Kind {
    Tools,
    Prompts,
    Resources,
}

fn switches(n: usize) -> Box<[AtomicBool]> {
    (0..n).map(|_| AtomicBool::new(false)).collect()
}

impl Lists {
    pub(crate) fn new(published: &'static Published) -> Lists {
        let spec = published.spec;
        Lists(Arc::new(Switches {
            published,
            tools: switches(spec.tools.len()),
            groups: switches(spec.groups.len()),
            prompts: switches(spec.prompts.len()),
            resources: switches(spec.resources.len()),
            off: AtomicUsize::new(0),
            changes: watch::Sender::new(Changes::default()),
            listeners: AtomicUsize::new(0),
        }))
    }

    /// Switches `entry` off: it leaves its list, and is answered as unknown, on every
    /// connection. Disabling what is off changes nothing and tells no one.
    ///
    /// # Errors
    ///
    /// The manifest has no such entry, or does not declare that its lists change.
    pub fn disable(&self, entry: Entry<'_>) -> Result<(), ListError> {
        self.set(entry, true)
    }

    /// Switches `entry` back on.
    ///
    /// # Errors
    ///
    /// As [`Lists::disable`].
    pub fn enable(&self, entry: Entry<'_>) -> Result<(), ListError> {
        self.set(entry, false)
    }

    /// Whether `entry` is switched on (a tool may be on and still unserved, when every group
    /// it is in is off).
    ///
    /// # Errors
    ///
    /// The manifest has no such entry.
    pub fn is_enabled(&self, entry: Entry<'_>) -> Result<bool, ListError> {
        let (switch, _) = self.switch(entry)?;
        Ok(!switch.load(Ordering::Acquire))
    }

    fn switch(&self, entry: Entry<'_>) -> Result<(&AtomicBool, Kind), ListError> {
        let s = &*self.0;
        let spec = s.published.spec;
        let unknown = |what: &str, name: &str| ListError::Unknown(format!("{what} `{name}`"));
        match entry {
            Entry::Tool(name) => (s.published.find(name))
                .map(|i| (&s.tools[i], Kind::Tools))
                .ok_or_else(|| unknown("tool", name)),
            Entry::Group(name) => (spec.groups.iter().position(|g| g.name == name))
                .map(|i| (&s.groups[i], Kind::Tools))
                .ok_or_else(|| unknown("group", name)),
            Entry::Prompt(name) => (spec.prompts.iter().position(|p| p.name == name))
                .map(|i| (&s.prompts[i], Kind::Prompts))
                .ok_or_else(|| unknown("prompt", name)),
            Entry::Resource(name) => (spec.resources.iter().position(|r| r.name == name))
                .map(|i| (&s.resources[i], Kind::Resources))
                .ok_or_else(|| unknown("resource", name)),
        }
    }

    fn set(&self, entry: Entry<'_>, off: bool) -> Result<(), ListError> {
        if !self.0.published.spec.list_changed {
            return Err(ListError::Undeclared);
        }
        let (switch, kind) = self.switch(entry)?;
        if switch.swap(off, Ordering::AcqRel) == off {
            return Ok(());
        }
        if off {
            self.0.off.fetch_add(1, Ordering::AcqRel);
        } else {
            self.0.off.fetch_sub(1, Ordering::AcqRel);
        }
        self.0.changes.send_modify(|c| match kind {
            Kind::Tools => c.tools += 1,
            Kind::Prompts => c.prompts += 1,
            Kind::Resources => c.resources += 1,
        });
        Ok(())
    }

    /// Whether anything is switched off: when not, every entry is served.
    pub(crate) fn all_on(&self) -> bool {
        self.0.off.load(Ordering::Acquire) == 0
    }

    /// Whether tool `i` is served by a view of `group` (or of no group): it is on, and so
    /// is that group, or, outside a group's view, one of its groups if it has any.
    pub(crate) fn tool(&self, i: usize, group: Option<usize>) -> bool {
        if self.all_on() {
            return true;
        }
        let s = &*self.0;
        let on = |g: usize| !s.groups[g].load(Ordering::Acquire);
        !s.tools[i].load(Ordering::Acquire)
            && match group {
                Some(g) => on(g),
                None => {
                    let groups = s.published.groups_of(i);
                    groups.is_empty() || groups.iter().any(|&g| on(g))
                }
            }
    }

    /// Whether prompt `i` is served.
    pub(crate) fn prompt(&self, i: usize) -> bool {
        self.all_on() || !self.0.prompts[i].load(Ordering::Acquire)
    }

    /// Whether resource `i` is served.
    pub(crate) fn resource(&self, i: usize) -> bool {
        self.all_on() || !self.0.resources[i].load(Ordering::Acquire)
    }

    /// Whether the resource `uri` names is switched on (a URI naming none is: nothing of it
    /// is off).
    pub(crate) fn resource_at(&self, uri: &str) -> bool {
        (self.0.published.resource(uri)).is_none_or(|(i, _)| self.resource(i))
    }

    /// Tells the 2025-11-25 client at `peer` of every change, until `ended` (its connection's
    /// end) or the server's; nothing when the lists cannot change.
    pub(crate) fn announce_to(&self, peer: Peer<RoleServer>, ended: oneshot::Receiver<()>) {
        if !self.0.published.spec.list_changed {
            return;
        }
        let mut changes = self.0.changes.subscribe();
        tokio::spawn(async move {
            let mut ended = ended;
            let mut seen = *changes.borrow_and_update();
            loop {
                tokio::select! {
                    _ = &mut ended => return,
                    changed = changes.changed() => if changed.is_err() { return },
                }
                let now = *changes.borrow_and_update();
                let sent = async {
                    if now.tools != seen.tools {
                        peer.notify_tool_list_changed().await?;
                    }
                    if now.prompts != seen.prompts {
                        peer.notify_prompt_list_changed().await?;
                    }
                    if now.resources != seen.resources {
                        peer.notify_resource_list_changed().await?;
                    }
                    Ok::<_, rmcp::ServiceError>(())
                };
                if let Err(e) = sent.await {
                    tracing::debug!(error = %e, "a list change was not sent; the client is gone");
                    return;
                }
                seen = now;
            }
        });
    }

    /// Serves one 2026-07-28 `subscriptions/listen` stream: each change it accepted, as it
    /// happens, until the client stops listening or goes away, or the server stops.
    pub(crate) async fn listen(&self, cx: SubscriptionContext) -> Result<(), ErrorData> {
        let listeners = &self.0.listeners;
        if listeners.fetch_add(1, Ordering::AcqRel) >= MAX_LISTENERS {
            listeners.fetch_sub(1, Ordering::AcqRel);
            return Err(ErrorData::internal_error(
                format!(
                    "the server holds its maximum of {MAX_LISTENERS} listeners; try again later"
                ),
                None,
            ));
        }
        let _slot = Slot(listeners);
        let mut changes = self.0.changes.subscribe();
        let mut seen = *changes.borrow_and_update();
        let sink = cx.sink();
        let accepted = cx.accepted();
        loop {
            tokio::select! {
                _ = cx.cancelled() => return Ok(()),
                changed = changes.changed() => if changed.is_err() { return Ok(()) },
            }
            let now = *changes.borrow_and_update();
            let sent = async {
                if now.tools != seen.tools && accepted.tools_list_changed == Some(true) {
                    sink.notify_tool_list_changed().await?;
                }
                if now.prompts != seen.prompts && accepted.prompts_list_changed == Some(true) {
                    sink.notify_prompt_list_changed().await?;
                }
                if now.resources != seen.resources && accepted.resources_list_changed == Some(true)
                {
                    sink.notify_resource_list_changed().await?;
                }
                Ok::<_, rmcp::service::SubscriptionSendError>(())
            };
            if let Err(e) = sent.await {
                tracing::debug!(error = %e, "a list change was not sent; the listener is gone");
                return Ok(());
            }
            seen = now;
        }
    }
}

/// A held listener place, given back when its stream ends.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
