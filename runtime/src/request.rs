//! What the runtime reads of a request rmcp hands it: the revision its client follows, its
//! verified caller and its in-flight slot. A leaf under every module that serves a request,
//! so that the context, the tasks and the transports read a request one way without asking
//! the server.

use std::sync::Arc;

use mcp_contract_spec::Revision;
use rmcp::RoleServer;
use rmcp::model::ProtocolVersion;
use rmcp::service::RequestContext;
use tokio::sync::OwnedSemaphorePermit;

use crate::access::Principal;

/// The revision whose rules the request's client follows.
pub(crate) fn revision(context: &RequestContext<RoleServer>) -> Revision {
    Revision::negotiated(
        context
            .protocol_version()
            .as_ref()
            .map(ProtocolVersion::as_str),
    )
}

/// The verified caller of `request`, which the HTTP host's authorization put in the request's
/// extensions; `None` elsewhere.
pub(crate) fn caller(request: &RequestContext<RoleServer>) -> Option<&Principal> {
    #[cfg(feature = "http")]
    if let Some(parts) = request.extensions.get::<axum::http::request::Parts>() {
        return parts.extensions.get::<Principal>();
    }
    request.extensions.get::<Principal>()
}

/// Tells a request that the transport carrying it begins to stop (the HTTP host's drain),
/// carried in its extensions: a request that would otherwise never end, a
/// `subscriptions/listen` stream, ends then with its final result.
#[derive(Clone)]
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "only the HTTP host stops")
)]
pub(crate) struct Stopping(tokio::sync::watch::Receiver<bool>);

impl Stopping {
    /// Stopping once `begun` holds `true` (or its sender is gone).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "only the HTTP host stops")
    )]
    pub(crate) fn new(begun: tokio::sync::watch::Receiver<bool>) -> Self {
        Stopping(begun)
    }

    /// Resolves once the transport stops.
    pub(crate) async fn wait(mut self) {
        let _ = self.0.wait_for(|begun| *begun).await;
    }
}

/// What tells `request` that its transport stops; `None` where nothing stops it but its
/// client (stdio).
pub(crate) fn stopping(request: &RequestContext<RoleServer>) -> Option<Stopping> {
    #[cfg(feature = "http")]
    if let Some(parts) = request.extensions.get::<axum::http::request::Parts>() {
        return parts.extensions.get::<Stopping>().cloned();
    }
    let _ = request;
    None
}

/// The slot of a request, carried in its extensions into the `RequestContext` rmcp hands the
/// server; the server holds it ([`place`]) until the handler has finished, whatever the
/// handler does with its context.
#[derive(Clone)]
pub(crate) struct InFlight(
    #[expect(dead_code, reason = "held for its drop, which frees the slot")]
    Arc<OwnedSemaphorePermit>,
);

impl InFlight {
    /// The in-flight mark of a request holding `slot`.
    pub(crate) fn holding(slot: Arc<OwnedSemaphorePermit>) -> Self {
        InFlight(slot)
    }
}

/// The slot of the request `context` serves, over stdio; to be held while it is handled.
pub(crate) fn place(context: &RequestContext<RoleServer>) -> Option<InFlight> {
    context.extensions.get::<InFlight>().cloned()
}
