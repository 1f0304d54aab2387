//! Sessions for 2025-11-25 clients ([`Host::sessions`](super::Host::sessions)), bounded: rmcp's
//! in-memory [`LocalSessionManager`], with at most a fixed number of sessions, each closed
//! after it has been idle for a while.
//!
//! Each session's record (its negotiated revision and client capabilities, its last use) is
//! kept in the server's [`State`] too: written when it initializes, renewed by each of its
//! requests, forgotten when it closes or after the same idle time. The session itself (its
//! worker, its streams, its requests waiting for the client) stays rmcp's, in this process.
//!
//! rmcp closes an idle session itself (its worker quits after `keep_alive`, and the service
//! then closes the session, which forgets it), but sets no bound on their number: this wrapper
//! refuses a new session past the bound (the `initialize` is answered `500`). 2026-07-28
//! requests never reach it: rmcp serves them statelessly.

use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionConfig,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use crate::state::{SessionRecord, State, StoreError, now_ms};

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
    /// The session's record was not read or written.
    Store(StoreError),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Full(max) => write!(f, "the server holds its maximum of {max} sessions"),
            Refused::Local(e) => e.fmt(f),
            Refused::Store(e) => e.fmt(f),
        }
    }
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
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
    state: State,
    /// Held from counting the sessions to adding one, so that two at once cannot both pass.
    creating: tokio::sync::Mutex<()>,
}

impl Sessions {
    pub(super) fn new(limits: SessionLimits, state: State) -> Self {
        let mut inner = LocalSessionManager::default();
        let mut config = SessionConfig::default();
        config.keep_alive = Some(limits.idle);
        inner.session_config = config;
        Sessions {
            inner,
            limits,
            state,
            creating: tokio::sync::Mutex::new(()),
        }
    }

    /// Counts a request of session `id` as a use of its record.
    async fn used(&self, id: &SessionId) -> Result<(), Refused> {
        self.state.store().session(id).await?;
        Ok(())
    }
}

/// The record of the session `id` that `message`, its `initialize`, opens.
fn record(id: &SessionId, message: &ClientJsonRpcMessage) -> SessionRecord {
    let initialize = match message {
        ClientJsonRpcMessage::Request(request) => match &request.request {
            ClientRequest::InitializeRequest(initialize) => Some(&initialize.params),
            _ => None,
        },
        _ => None,
    };
    SessionRecord {
        id: id.to_string(),
        revision: initialize.map(|i| i.protocol_version.to_string()),
        client_capabilities: initialize.and_then(|i| serde_json::to_value(&i.capabilities).ok()),
        log_level: None,
        subscriptions: Vec::new(),
        last_used_ms: now_ms(),
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
        let record = record(id, &message);
        let answer = self.inner.initialize_session(id, message).await?;
        // Stored before its id reaches the client, which then may use it anywhere.
        self.state
            .store()
            .put_session(record, self.limits.idle)
            .await?;
        Ok(answer)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Refused> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Refused> {
        self.inner.close_session(id).await?;
        self.state.store().remove_session(id).await?;
        Ok(())
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Refused> {
        self.used(id).await?;
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Refused> {
        self.used(id).await?;
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
