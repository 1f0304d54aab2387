//! Stopping without dropping work ([`Bound::serve_until`](super::Bound::serve_until)).
//!
//! When the shutdown future completes, the host drains:
//!
//! 1. It stops accepting: the listener is closed (once the connections the system already
//!    accepted for it are taken), so a new connection is refused and a load balancer sends it
//!    elsewhere; idle kept-alive connections are closed a quarter second later. A request that
//!    still reaches it (on a connection opened just before) is answered `503` with
//!    `Retry-After` and `Connection: close`, never run, rather than its connection closed
//!    unanswered. `/readyz` answers `503` meanwhile.
//! 2. It ends what would never end by itself: each `subscriptions/listen` stream returns its
//!    final result (as the 2026-07-28 revision has a server end one), and each 2025-11-25
//!    session's standalone `GET` stream ends; their clients listen again elsewhere.
//! 3. It lets every call in flight finish and be answered, and every task handler running in
//!    this process finish, for at most the grace period
//!    ([`Host::grace_period`](super::Host::grace_period)).
//! 4. Then it stops its tasks (`crate::tasks`): a task whose handler still runs is
//!    cancelled and fails with a status message saying the server stopped; a task waiting
//!    for its client's answers keeps its status, and its lease is released. What rmcp still
//!    serves (a call past the grace) is ended, and serving returns.
//!
//! A 2025-11-25 call waiting for its client's answer (an elicitation on a session) cannot
//! get it during a drain, since the answer is a new request: it ends with the grace.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header::{CONNECTION, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use futures::FutureExt as _;
use futures::future::BoxFuture;
use futures::future::FusedFuture as _;
use http_body::{Frame, SizeHint};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::request::Stopping;
use crate::tasks::Tasks;

/// The grace period unless [`Host::grace_period`](super::Host::grace_period) says otherwise:
/// with what follows it (at most [`LAST_WORDS`], and the process's own exit) it stays under
/// the 10 seconds Docker waits after `SIGTERM` before it kills (Kubernetes waits 30), so that
/// the tasks still running are failed and their leases released before the process is killed.
pub const DEFAULT_GRACE_PERIOD: Duration = Duration::from_secs(8);

/// How long connections still open when the grace ends get to send what ending them says.
pub const LAST_WORDS: Duration = Duration::from_millis(500);

/// Whether the host drains; shared by every request, and by `/readyz`.
#[derive(Clone)]
pub(super) struct Drain(Arc<watch::Sender<bool>>);

impl Drain {
    pub(super) fn new() -> Drain {
        Drain(Arc::new(watch::Sender::new(false)))
    }

    fn begin(&self) {
        self.0.send_replace(true);
    }

    pub(super) fn is_draining(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the drain has begun.
    fn begun(&self) -> impl Future<Output = ()> + Send + 'static {
        Stopping::new(self.0.subscribe()).wait()
    }
}

/// The middleware: refuses requests once the drain began, hands each request what tells it
/// of the drain, and ends a standalone event stream when the drain begins.
pub(super) async fn serve(
    State(drain): State<Drain>,
    mut request: Request,
    next: Next,
) -> Response {
    if drain.is_draining() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [
                (CONTENT_TYPE, "text/plain; charset=utf-8"),
                (RETRY_AFTER, "1"),
                (CONNECTION, "close"),
            ],
            "Service Unavailable: the server is shutting down; send the request again\n",
        )
            .into_response();
    }
    request
        .extensions_mut()
        .insert(Stopping::new(drain.0.subscribe()));
    // A `GET` on a route is a session's standalone stream, which ends only when its client
    // goes: end it with the drain. A call's stream (a `POST`) is left to finish.
    let standalone = request.method() == Method::GET;
    let response = next.run(request).await;
    let streaming = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if !(standalone && streaming) {
        return response;
    }
    response.map(|inner| {
        Body::new(Ending {
            inner,
            drained: drain.begun().boxed(),
        })
    })
}

/// A response body that ends, cleanly, when the drain begins.
struct Ending {
    inner: Body,
    drained: BoxFuture<'static, ()>,
}

impl HttpBody for Ending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if this.drained.poll_unpin(cx).is_ready() {
            return Poll::Ready(None);
        }
        Pin::new(&mut this.inner).poll_frame(cx)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// How long connections accepted before the drain began are still read once it began: what
/// they carry is answered `503`, rather than closed unanswered.
const LAST_REQUESTS: Duration = Duration::from_millis(250);

/// The listener, closed as soon as the drain begins, after it accepted what already waited
/// (what the system had accepted for it would otherwise be reset).
struct Closing {
    listener: Option<TcpListener>,
    /// Until the drain begins.
    begun: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

impl axum::serve::Listener for Closing {
    type Io = tokio::net::TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, SocketAddr) {
        loop {
            let Some(listener) = &mut self.listener else {
                return std::future::pending().await;
            };
            if let Some(begun) = &mut self.begun {
                tokio::select! {
                    accepted = axum::serve::Listener::accept(listener) => return accepted,
                    () = begun => self.begun = None,
                }
            }
            match TcpListener::accept(listener).now_or_never() {
                Some(Ok(waiting)) => return waiting,
                _ => self.listener = None,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        match &self.listener {
            Some(listener) => listener.local_addr(),
            None => Err(io::Error::other("the listener is closed")),
        }
    }
}

/// What [`run`] serves, and what it drains.
pub(super) struct Served {
    pub(super) listener: TcpListener,
    pub(super) router: Router,
    pub(super) drain: Drain,
    pub(super) grace: Duration,
    /// The tasks of the mounted servers, each once.
    pub(super) tasks: Vec<Arc<Tasks>>,
    /// Ends whatever rmcp still serves.
    pub(super) end_streams: Box<dyn FnOnce() + Send>,
}

/// Serves until `shutdown` completes, then drains as [the module](self) says.
pub(super) async fn run(
    served: Served,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let Served {
        listener,
        router,
        drain,
        grace,
        tasks,
        end_streams,
    } = served;
    // The client's address is each request's `ConnectInfo`, which the rate limit reads.
    let service = router.into_make_service_with_connect_info::<SocketAddr>();
    let begin = drain.clone();
    let listener = Closing {
        listener: Some(listener),
        begun: Some(Box::pin(drain.begun())),
    };
    // An answer streamed in pieces (an event stream) must not wait for the client to
    // acknowledge the piece before: with Nagle's algorithm on, a kept-alive connection waits
    // for the client's delayed acknowledgement, 40 ms on Linux, before every piece after
    // the first. (`tap_io` is also what gives each request its `ConnectInfo` from this
    // listener.)
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY was not set on a connection");
        }
    });
    let serving = axum::serve(listener, service).with_graceful_shutdown(async move {
        shutdown.await;
        begin.begin();
        // The listener is closed at once; connections accepted just before still carry their
        // request for a moment, answered 503 (never run, so a load balancer sends it
        // elsewhere), where shutting them down now would close them unanswered.
        tokio::time::sleep(LAST_REQUESTS).await;
    });
    let mut serving = Box::pin(std::future::IntoFuture::into_future(serving)).fuse();
    // Serving ends by itself only when the listener fails; with nothing open it also ends
    // as soon as the drain begins, which is then still to be finished.
    let served = tokio::select! {
        served = &mut serving => Some(served),
        () = drain.begun() => None,
    };
    if !drain.is_draining() {
        return served.unwrap_or(Ok(()));
    }
    tracing::info!(
        ?grace,
        "draining: no new connections; finishing the calls in flight"
    );
    let finished = async {
        let served = match served {
            Some(served) => served,
            None => (&mut serving).await,
        };
        futures::future::join_all(tasks.iter().map(|t| t.idle())).await;
        served
    };
    let served = match tokio::time::timeout(grace, finished).await {
        Ok(served) => served,
        Err(_) => {
            tracing::warn!(
                ?grace,
                "the grace period ended with work in flight; ending it"
            );
            Ok(())
        }
    };
    for tasks in &tasks {
        tasks.stop().await;
    }
    end_streams();
    if !serving.is_terminated() {
        let _ = tokio::time::timeout(LAST_WORDS, &mut serving).await;
    }
    tracing::info!("drained");
    served
}
