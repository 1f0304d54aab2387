//! Sessions for 2025-11-25 clients ([`Host::sessions`](super::Host::sessions)), bounded: rmcp's
//! in-memory [`LocalSessionManager`], with at most a fixed number of sessions, each closed
//! after it has been idle for a while.
//!
//! rmcp closes an idle session itself (its worker quits after `keep_alive`, and the service
//! then closes the session, which forgets it), but sets no bound on their number: this wrapper
//! refuses a new session past the bound (the `initialize` is answered `500`). 2026-07-28
//! requests never reach it: rmcp serves them statelessly.

use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionConfig,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

/// The bound on a route's 2025-11-25 sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// The sessions open at once; a client past it cannot initialize until one ends.
    pub max: usize,
    /// A session unused this long is closed; a call waiting longer for its client's answer
    /// ends with it.
    pub idle: Duration,
}

impl Default for SessionLimits {
    /// 16 sessions, each closed after 5 minutes unused.
    fn default() -> Self {
        SessionLimits {
            max: 16,
            idle: Duration::from_secs(300),
        }
    }
}

/// Why a session operation failed.
#[derive(Debug)]
pub(super) enum Refused {
    /// The route holds its maximum of sessions.
    Full(usize),
    Local(LocalSessionManagerError),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Full(max) => write!(f, "the server holds its maximum of {max} sessions"),
            Refused::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Refused {}

impl From<LocalSessionManagerError> for Refused {
    fn from(e: LocalSessionManagerError) -> Self {
        Refused::Local(e)
    }
}

/// A route's sessions: see [the module](self).
pub(super) struct Sessions {
    inner: LocalSessionManager,
    limits: SessionLimits,
    /// Held from counting the sessions to adding one, so that two at once cannot both pass.
    creating: tokio::sync::Mutex<()>,
}

impl Sessions {
    pub(super) fn new(limits: SessionLimits) -> Self {
        let mut inner = LocalSessionManager::default();
        let mut config = SessionConfig::default();
        config.keep_alive = Some(limits.idle);
        inner.session_config = config;
        Sessions {
            inner,
            limits,
            creating: tokio::sync::Mutex::new(()),
        }
    }
}

impl SessionManager for Sessions {
    type Error = Refused;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Refused> {
        let _creating = self.creating.lock().await;
        if self.inner.sessions.read().await.len() >= self.limits.max {
            return Err(Refused::Full(self.limits.max));
        }
        let (id, transport) = self.inner.create_session().await?;
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Refused> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Refused> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Refused> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Refused> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}
