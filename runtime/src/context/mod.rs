//! What a handler knows about the request it serves, and what it can send back while it runs.

mod asking;
mod url;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_contract_spec::Revision;
use rmcp::RoleServer;
use rmcp::model::{Implementation, ProgressNotificationParam, RequestId};
use rmcp::service::RequestContext;
use serde::Serialize;

use self::asking::Asking;
use crate::access::Principal;
use crate::ask::round::Round;
use crate::lists::Lists;
use crate::request;
use crate::session::{LogLevel, Session};

/// The shortest time between two progress notifications of one request: more often would
/// only flood the client, which shows the latest.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// The request a handler serves: who sent it, on which revision, whether it was cancelled;
/// and the way to report progress and log to the client while it runs.
///
/// It is also how a handler asks its client (elicitation, sampling, roots): see [`crate::ask`].
///
/// Every generated handler method receives one as its last argument. It is the same on stdio
/// and HTTP and on both revisions, and cheap to clone (one reference count), so it can move
/// into a spawned task.
///
/// ```ignore
/// async fn search_text(&self, args: SearchTextArgs, cx: Context) -> Result<Found, SearchTextError> {
///     let mut found = Found::default();
///     for (i, file) in files.iter().enumerate() {
///         if cx.is_cancelled() {
///             break;
///         }
///         cx.progress(i as f64, Some(files.len() as f64), None).await;
///         found.search(file);
///     }
///     Ok(found)
/// }
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    /// The request served; `None` for a [`Context::detached`] one.
    request: Option<RequestContext<RoleServer>>,
    revision: Revision,
    /// The tool, resource or prompt served: the logger name of its log messages.
    subject: String,
    /// The least severe level the client wants, or `None` when it wants no log messages.
    log_level: Option<LogLevel>,
    /// The connection; `None` for a [`Context::detached`] one.
    session: Option<Arc<Session>>,
    /// The last progress sent: when, and its value.
    progress: Mutex<Option<(Instant, f64)>>,
    /// What asking the client needs: its capabilities, and a 2026-07-28 call's run.
    asking: Asking,
    /// The server's list switches; `None` for a [`Context::detached`] one.
    lists: Option<Lists>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("subject", &self.inner.subject)
            .field("request_id", &self.request_id())
            .field("revision", &self.inner.revision)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// The context of `request`, served to `subject` within `session` by the server whose
    /// switches are `lists`; `round` is the run of a 2026-07-28 call that may ask its client.
    pub(crate) fn new(
        request: RequestContext<RoleServer>,
        subject: &str,
        session: Arc<Session>,
        lists: Lists,
        round: Option<Arc<Round>>,
    ) -> Self {
        let asking = Asking::new(request.client_capabilities(), round);
        let revision = request::revision(&request);
        let log_level = if !session.logs() {
            None
        } else if revision.has_initialize() {
            Some(session.log_level(&request))
        } else {
            requested_level(&request.meta)
        };
        Context {
            inner: Arc::new(Inner {
                request: Some(request),
                revision,
                subject: subject.to_owned(),
                log_level,
                session: Some(session),
                progress: Mutex::new(None),
                asking,
                lists: Some(lists),
            }),
        }
    }

    /// A context served by no client, for calling a handler directly (in a unit test, say):
    /// never cancelled, and its progress and log messages go nowhere.
    pub fn detached() -> Self {
        Context {
            inner: Arc::new(Inner {
                request: None,
                revision: Revision::LATEST,
                subject: String::new(),
                log_level: None,
                session: None,
                progress: Mutex::new(None),
                asking: Asking::default(),
                lists: None,
            }),
        }
    }

    /// Whether the client cancelled the request, or went away.
    pub fn is_cancelled(&self) -> bool {
        self.inner
            .request
            .as_ref()
            .is_some_and(|r| r.ct.is_cancelled())
    }

    /// Completes when the client cancels the request or goes away; for `select!` against
    /// the work. A cancelled request's answer is never sent, so a handler may stop at once.
    pub async fn cancelled(&self) {
        match &self.inner.request {
            Some(request) => request.ct.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// Reports progress: `done` of `total` (when known), with an optional message.
    ///
    /// Sent as `notifications/progress` only when the request asked for progress (it carried
    /// a `progressToken`), at most one every 100 ms, and only when `done` is more than the
    /// last value sent, as the protocol requires; the final report (`done == total`) is never
    /// held back by the interval. Nothing fails: a report the client cannot receive is
    /// dropped.
    pub async fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        let Some(request) = &self.inner.request else {
            return;
        };
        let Some(token) = request.meta.get_progress_token() else {
            return;
        };
        {
            let mut last = self
                .inner
                .progress
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let now = Instant::now();
            let last_done = total.is_some_and(|t| done >= t);
            if let Some((at, value)) = *last
                && (done <= value || (!last_done && now.duration_since(at) < PROGRESS_INTERVAL))
            {
                return;
            }
            *last = Some((now, done));
        }
        let mut param = ProgressNotificationParam::new(token, done);
        param.total = total;
        param.message = message.map(str::to_owned);
        if let Err(e) = request.peer.notify_progress(param).await {
            tracing::debug!(error = %e, "a progress notification was not sent");
        }
    }

    /// Logs `data` (any JSON value; usually a message) to the client at `level`, as
    /// `notifications/message` with the tool's, resource's or prompt's name as the logger.
    ///
    /// Sent only when the manifest declares `server: {logging: true}` and the client asked
    /// for this level or a more severe one: on 2025-11-25 with `logging/setLevel` (until it
    /// does, `info` and above), on 2026-07-28 in the request's
    /// `io.modelcontextprotocol/logLevel` (without it, nothing is sent). Nothing fails.
    pub async fn log(&self, level: LogLevel, data: impl Serialize) {
        let Some(request) = &self.inner.request else {
            return;
        };
        if self.inner.log_level.is_none_or(|least| level < least) {
            return;
        }
        let Ok(data) = serde_json::to_value(data) else {
            return;
        };
        let param = notification(level, &self.inner.subject, data);
        #[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); both revisions have it.
        let sent = request.peer.notify_logging_message(param).await;
        if let Err(e) = sent {
            tracing::debug!(error = %e, "a log message was not sent");
        }
    }

    /// [`Context::log`] at [`LogLevel::Debug`].
    pub async fn debug(&self, message: &str) {
        self.log(LogLevel::Debug, message).await;
    }

    /// [`Context::log`] at [`LogLevel::Info`].
    pub async fn info(&self, message: &str) {
        self.log(LogLevel::Info, message).await;
    }

    /// [`Context::log`] at [`LogLevel::Warning`].
    pub async fn warning(&self, message: &str) {
        self.log(LogLevel::Warning, message).await;
    }

    /// [`Context::log`] at [`LogLevel::Error`].
    pub async fn error(&self, message: &str) {
        self.log(LogLevel::Error, message).await;
    }

    /// Tells every client subscribed to the resource `uri` that it changed
    /// (`notifications/resources/updated`, 2025-11-25). The same as
    /// [`Server::resource_updated`](crate::Server::resource_updated), from inside a handler.
    pub async fn resource_updated(&self, uri: &str) {
        if let (Some(session), Some(lists)) = (&self.inner.session, &self.inner.lists) {
            announce(session, lists, uri).await;
        }
    }

    /// The switches of what the server publishes ([`Server::lists`](crate::Server::lists)),
    /// for a handler that changes them while it runs: a tool that enables a group, say.
    /// Every connection's next request sees the change, and listening clients are told (see
    /// [`Lists`]). `None` for a [`Context::detached`] one.
    pub fn lists(&self) -> Option<&Lists> {
        self.inner.lists.as_ref()
    }

    /// The client's name and version, when it gave them.
    pub fn client(&self) -> Option<Implementation> {
        self.inner.request.as_ref()?.client_info()
    }

    /// The protocol revision the client speaks.
    pub fn revision(&self) -> Revision {
        self.inner.revision
    }

    /// The JSON-RPC id of the request; `None` for a [`Context::detached`] one.
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.request.as_ref().map(|r| &r.id)
    }

    /// The caller, as the HTTP host's authorization verified it; `None` over stdio, on a
    /// host without authorization, and for a [`Context::detached`] one.
    pub fn principal(&self) -> Option<&Principal> {
        request::caller(self.inner.request.as_ref()?)
    }

    /// The request served; `None` for a detached context.
    pub(crate) fn request_context(&self) -> Option<&RequestContext<RoleServer>> {
        self.inner.request.as_ref()
    }

    pub(crate) fn asking(&self) -> &Asking {
        &self.inner.asking
    }

    /// The HTTP request's headers, over HTTP; `None` over stdio.
    #[cfg(feature = "http")]
    pub fn headers(&self) -> Option<&axum::http::HeaderMap> {
        self.inner
            .request
            .as_ref()?
            .extensions
            .get::<axum::http::request::Parts>()
            .map(|parts| &parts.headers)
    }
}

/// Tells every connection subscribed to the resource `uri` names, and every stream listening
/// to it, that it changed; nothing while it is switched off. A switched-off resource is
/// answered everywhere exactly as one the manifest does not have (see [`Lists`]), and the
/// change of an unknown resource is announced to no one: so its subscribers and listeners,
/// who keep their subscriptions, hear nothing until it is switched back on.
pub(crate) async fn announce(session: &Session, lists: &Lists, uri: &str) {
    if lists.resource_at(uri) {
        session.resource_updated(uri).await;
    }
}

/// The level a 2026-07-28 request asks for in its `_meta`.
fn requested_level(meta: &rmcp::model::RequestMetaObject) -> Option<LogLevel> {
    meta.0
        .get(LOG_LEVEL_META)
        .and_then(serde_json::Value::as_str)
        .and_then(LogLevel::from_wire)
}

/// The params of `notifications/message` carrying `data` from `logger` at `level`.
#[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); both revisions have it.
fn notification(
    level: LogLevel,
    logger: &str,
    data: serde_json::Value,
) -> rmcp::model::LoggingMessageNotificationParam {
    use rmcp::model::LoggingLevel as L;
    let level = match level {
        LogLevel::Debug => L::Debug,
        LogLevel::Info => L::Info,
        LogLevel::Notice => L::Notice,
        LogLevel::Warning => L::Warning,
        LogLevel::Error => L::Error,
        LogLevel::Critical => L::Critical,
        LogLevel::Alert => L::Alert,
        LogLevel::Emergency => L::Emergency,
    };
    rmcp::model::LoggingMessageNotificationParam::new(level, data).with_logger(logger)
}

/// The request `_meta` key of a 2026-07-28 request's log level.
const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";
