//! Serving contracts over stateless streamable HTTP (feature `http`).
//!
//! A [`Host`] mounts servers at routes, each a [`Server`] or a view of one
//! ([`Server::restrict`], [`Server::group`]):
//!
//! ```ignore
//! let server = contract::server(MyHandler);
//! // Every group of the contract at /mcp/{group}; all tools at /mcp when it has none.
//! Host::groups(server.clone()).serve("127.0.0.1:8080".parse()?).await?;
//! // Or by hand:
//! Host::new()
//!     .mount("/mcp", server.clone())
//!     .mount("/mcp/read", server.restrict(|t| {
//!         t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
//!     }))
//!     .serve(addr)
//!     .await?;
//! ```
//!
//! **Stateless.** Every route is an rmcp [`StreamableHttpService`] with legacy session mode
//! off and the [`NeverSessionManager`]: no `Mcp-Session-Id` is issued and every POST is
//! served on its own. Both protocol revisions work: a 2025-11-25 client's `initialize` is
//! answered (and its `notifications/initialized` accepted) without creating a session, and
//! its later requests are served by the `MCP-Protocol-Version` header they carry; a
//! 2026-07-28 client's `server/discover` and requests carrying `_meta` protocol version and
//! capabilities are served as the stateless protocol defines. Simple replies are
//! `application/json`; a client must still accept both `application/json` and
//! `text/event-stream` (406 otherwise), and send `Content-Type: application/json` (415
//! otherwise). A body that is not one JSON-RPC message (not JSON, a batch, a request whose
//! params are not an object) is answered `400` with its JSON-RPC error (`-32700`, `-32600`,
//! `-32602`), by the body's own id when it can be read.
//!
//! **Asking the client** ([`crate::ask`]). On 2026-07-28 it stays stateless: the question
//! travels in the call's input-required result and the answers in the client's next call,
//! with a sealed request state any replica sharing the key opens
//! ([`Server::request_state_key`]). On 2025-11-25 the request to the client travels on the
//! call's event stream and the answer comes back as another POST that must reach the waiting
//! call, so it needs sessions: [`Host::sessions`] gives 2025-11-25 clients bounded
//! `Mcp-Session-Id` sessions (then `GET` and `DELETE` are served for them too). A session is
//! a record in the server's state, not a process's: every process sharing the state serves
//! every session, and the client's answer reaches the waiting call whichever process it
//! reaches, so a load balancer needs no affinity (`http/sessions.rs`). Without sessions a
//! 2025-11-25 client is never asked: the handler sees
//! [`NotAsked::Unsupported`](crate::ask::NotAsked::Unsupported).
//!
//! **Tasks** ([`crate::tasks`]). On a route whose server has task tools, a 2025-11-25 POST is
//! read whole before rmcp reads it, so that its task requests (`params.task`, `tasks/*`)
//! reach the server and its `initialize` and `tools/list` answers tell of tasks as that
//! revision does (`http/requested_tasks.rs`); other routes, and 2026-07-28 requests, are not
//! read twice. Such a task belongs to the verified caller, else to the session; without
//! sessions its 128-bit id is what reaches it.
//!
//! **Bounded.** At most [`Host::max_in_flight`] requests are served at once, by all routes
//! together; a request past it waits, its body unread, until one before it is answered.
//!
//! **Fail closed.** A route matches its path exactly: `/mcp/read` serves only `/mcp/read`,
//! not `/mcp/read/extra` nor `/mcp/read/`. Any request to a path that is not mounted gets
//! `404 Not Found` with a short plain-text body naming the mounted routes; nothing falls back
//! to the whole contract. On a mounted route only `POST` is served: `GET`, `DELETE` and the
//! rest get rmcp's `405 Method Not Allowed` with `Allow: POST` (stateless mode has no
//! standalone SSE stream and no session to delete). The `Host` header must name an allowed
//! host (rmcp's default: loopback names only, against DNS rebinding; see
//! [`Host::allowed_hosts`]), otherwise `403`; a host configured with no allowed host name
//! refuses to serve. A browser's `Origin` must be the server's own loopback page's or one
//! [`Host::allowed_origins`] names, otherwise `403`; an allowed origin's page gets CORS
//! answers, its `OPTIONS` preflight included (`http/cors.rs`).
//!
//! **Operations.** [`Host::health`] serves `GET /healthz` (alive) and `GET /readyz` (the
//! state store answers and the host is not draining) before everything else, outside the
//! routes' guards (`http/health.rs`); with feature `telemetry`, `Host::metrics` serves
//! `GET /metrics` the same way (`http/metrics.rs`). [`Bound::serve`] serves until `SIGTERM` or ctrl-c and
//! then drains: no new connections, listen and session streams ended, the calls in flight
//! and the task handlers running here given [`Host::grace_period`] to finish, the tasks
//! still running then failed and the leases of the others released (`http/drain.rs`).
//!
//! **Authorization (feature `auth`).** Without [`Host::authorization`] the host serves
//! whoever reaches it, and its guards are only those above: serve it on loopback, or behind
//! something that authorizes. With it, every route requires a valid bearer token and
//! publishes its protected resource metadata; [`Host::rate_limit`] limits each caller. See
//! `mcp_contract::auth`.
//!
//! **Standard headers (2026-07-28, SEP-2243).** rmcp 3.11 checks them itself, before any
//! handler runs, on requests whose `MCP-Protocol-Version` header is 2026-07-28 or later:
//! `Mcp-Method` must be present and equal the body's method; `Mcp-Name` must be present and
//! equal `params.name` for `tools/call` (`=?base64?…?=` values are decoded first); and for
//! `tools/call`, every property the tool's `inputSchema` marks with `x-mcp-header` is
//! checked against its `Mcp-Param-{header}` in both directions (a missing header, a header
//! for an absent argument, or a different value). Duplicate values of these headers, and an
//! `MCP-Protocol-Version` header that differs from the request's `_meta` protocol version,
//! are refused the same way. Every such refusal is JSON-RPC `-32020` (HeaderMismatch) with
//! HTTP 400. rmcp finds the tool's schema through `ServerHandler::get_tool`, which a view
//! answers only for the tools it serves; a call to any other tool skips the `Mcp-Param-*`
//! check and is refused as an unknown tool (`-32602`). 2025-11-25 requests are not required
//! to carry these headers (a `Mcp-Method` on `initialize` must still say `initialize`).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, header};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::DEFAULT_MAX_IN_FLIGHT;
use crate::server::{Dispatch, Server};
use crate::tasks::Tasks;

mod cors;
mod drain;
mod front;
mod health;
#[cfg(feature = "telemetry")]
mod metrics;
mod requested_tasks;
mod sessions;

pub use drain::{DEFAULT_GRACE_PERIOD, LAST_WORDS};
pub use health::{HEALTH_PATH, READY_PATH, READY_WITHIN};
#[cfg(feature = "telemetry")]
pub use metrics::METRICS_PATH;
pub use sessions::SessionLimits;

/// Adds one mounted server to the router, under the configuration the host ends with (and
/// its 2025-11-25 sessions, when [`Host::sessions`] turned them on).
type Attach =
    Box<dyn FnOnce(Router, StreamableHttpServerConfig, Option<SessionLimits>) -> Router + Send>;

/// Servers mounted at routes, served over stateless streamable HTTP. See the
/// [module documentation](self).
pub struct Host {
    routes: Vec<String>,
    attach: Vec<Attach>,
    problems: Vec<String>,
    config: StreamableHttpServerConfig,
    max_in_flight: usize,
    sessions: Option<SessionLimits>,
    /// The allowed browser origins, as configured (`cors`).
    origins: Vec<String>,
    health: bool,
    /// What `GET /metrics` reads, with [`Host::metrics`].
    #[cfg(feature = "telemetry")]
    metrics: Option<crate::telemetry::Telemetry>,
    grace: Duration,
    /// The tasks of the mounted servers, each once (views of one server share them).
    tasks: Vec<Arc<Tasks>>,
    #[cfg(feature = "auth")]
    mounted: Vec<crate::auth::metadata::Mounted>,
    #[cfg(feature = "auth")]
    authorization: Option<crate::auth::Authorization>,
    #[cfg(feature = "auth")]
    rate_limit: Option<crate::auth::RateLimit>,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("routes", &self.routes)
            .field("problems", &self.problems)
            .field("allowed_hosts", &self.config.allowed_hosts)
            .field("max_in_flight", &self.max_in_flight)
            .field("allowed_origins", &self.origins)
            .field("health", &self.health)
            .field("grace", &self.grace)
            .finish_non_exhaustive()
    }
}

impl Default for Host {
    fn default() -> Self {
        Host::new()
    }
}

impl Host {
    /// A host with no routes; every request is refused until servers are mounted.
    pub fn new() -> Self {
        Host {
            routes: Vec::new(),
            attach: Vec::new(),
            problems: Vec::new(),
            // A browser request carries `Origin`; rmcp refuses every one it sees, and sees
            // none of an allowed origin (`cors`) or of the server's own loopback page
            // (`front`), as the transport requires servers to validate it. Clients that are
            // not browsers send no `Origin` and pass.
            config: StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true)
                .enforce_origin_validation(),
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            sessions: None,
            origins: Vec::new(),
            health: false,
            #[cfg(feature = "telemetry")]
            metrics: None,
            grace: DEFAULT_GRACE_PERIOD,
            tasks: Vec::new(),
            #[cfg(feature = "auth")]
            mounted: Vec::new(),
            #[cfg(feature = "auth")]
            authorization: None,
            #[cfg(feature = "auth")]
            rate_limit: None,
        }
    }

    /// A host serving each group of `server`'s contract at `/mcp/{group}`, or, when the
    /// contract declares no groups, all of `server`'s tools at `/mcp`.
    pub fn groups<D: Dispatch>(server: Server<D>) -> Self {
        Host::new().mount_groups("/mcp", server)
    }

    /// Serves `server` (or a view of one) at exactly `path`: a `/`-separated path of
    /// segments made of ASCII letters, digits, `-`, `.`, `_` and `~`, such as `/mcp/read`.
    ///
    /// An invalid or already mounted path is reported by [`Host::into_router`],
    /// [`Host::bind`], [`Host::attach`] and [`Host::serve`], which then refuse to serve.
    pub fn mount<D: Dispatch>(mut self, path: &str, server: Server<D>) -> Self {
        if let Err(problem) = check_path(path) {
            self.problems.push(problem);
        } else if self.routes.iter().any(|r| r == path) {
            self.problems
                .push(format!("the route `{path}` is mounted more than once"));
        } else {
            let route = path.to_owned();
            self.routes.push(route.clone());
            let tasks = server.tasks();
            if !self.tasks.iter().any(|t| Arc::ptr_eq(t, tasks)) {
                self.tasks.push(Arc::clone(tasks));
            }
            #[cfg(feature = "auth")]
            self.mounted.push(crate::auth::metadata::Mounted {
                route: route.clone(),
                required: server.required_scopes(),
                spec: server.published().spec,
            });
            self.attach.push(Box::new(move |router, config, sessions| {
                let requested = requested_tasks::RequestedTasks::new(
                    server.task_publish(),
                    config.max_request_body_bytes,
                );
                let state = server.tasks().state().clone();
                #[cfg(feature = "telemetry")]
                let instruments = server.instruments();
                let factory = move || Ok(server.for_connection());
                let one = match sessions {
                    None => Router::new().route_service(
                        &route,
                        StreamableHttpService::new(
                            factory,
                            Arc::new(NeverSessionManager::default()),
                            config,
                        ),
                    ),
                    Some(limits) => {
                        let sessions = sessions::Sessions::new(limits, state);
                        #[cfg(feature = "telemetry")]
                        sessions.measured(instruments);
                        let max_body = config.max_request_body_bytes;
                        let mut config = config.with_legacy_session_mode(true);
                        config.session_store = Some(sessions.records());
                        let service =
                            StreamableHttpService::new(factory, Arc::clone(&sessions), config);
                        Router::new().route_service(&route, service).route_layer(
                            axum::middleware::from_fn_with_state(
                                (sessions, max_body),
                                sessions::serve,
                            ),
                        )
                    }
                };
                // Only a server with task tools pays for reading 2025-11-25 bodies first.
                let one = match requested {
                    Some(requested) => one.route_layer(axum::middleware::from_fn_with_state(
                        requested,
                        requested_tasks::serve,
                    )),
                    None => one,
                };
                router.merge(one)
            }));
        }
        self
    }

    /// Serves each group of `server`'s contract at `{base}/{group}`, or, when the contract
    /// declares no groups, all of `server`'s tools at `base`. Each group serves the tools of
    /// the group that `server` serves ([`Server::group`]).
    pub fn mount_groups<D: Dispatch>(mut self, base: &str, server: Server<D>) -> Self {
        let groups = server.published().spec.groups;
        if groups.is_empty() {
            return self.mount(base, server);
        }
        let base = base.trim_end_matches('/');
        for group in groups {
            if group.name.is_empty() || group.name.contains('/') {
                self.problems.push(format!(
                    "the group name `{}` cannot be a route segment",
                    group.name
                ));
                continue;
            }
            // A group left empty by the view (`--read-only` on a writing group) is not
            // mounted: its route answers 404 rather than an empty server.
            if let Some(view) = server.group(group.name).filter(|v| !v.tools().is_empty()) {
                self = self.mount(&format!("{base}/{}", group.name), view);
            }
        }
        self
    }

    /// The `Host` header values accepted, as host names or `host:port` authorities; rmcp's
    /// default accepts only `localhost`, `127.0.0.1` and `::1`, which guards a local server
    /// against DNS rebinding. A server reached under other names must list them. A list with
    /// no name (empty, or only blank entries) is refused when serving, as `InvalidInput`:
    /// rmcp would read an empty list as accepting every `Host`.
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.config = self.config.with_allowed_hosts(hosts);
        self
    }

    /// The browser origins whose pages may call the server, such as
    /// `https://app.example.com` (port 443, its scheme's default), `http://localhost:3000`,
    /// or `http://localhost:*` (any port); `null` allows sandboxed and local pages. Each
    /// call replaces the list.
    ///
    /// Such a page gets CORS answers: its preflight (`OPTIONS`) is answered `204` with
    /// `Access-Control-Allow-Origin` naming it, the methods `POST, GET, DELETE`, the headers it
    /// asked for among those an MCP client sends (`Content-Type`, `Accept`, `Authorization`,
    /// `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`, `Mcp-Method`, `Mcp-Name`,
    /// `Mcp-Param-*`), `Access-Control-Max-Age` and `Vary: Origin`; every answer to it
    /// (a `401` or `429` too) carries `Access-Control-Allow-Origin` and exposes
    /// `Mcp-Session-Id`, `WWW-Authenticate` and `Retry-After`. No credentials are allowed:
    /// MCP sends its token in `Authorization`, not in cookies.
    ///
    /// The server's own page is served without being listed: one whose origin is `http://`
    /// and the request's loopback `Host` (`http://127.0.0.1:8080` to `127.0.0.1:8080`). A
    /// request, or a preflight, carrying any other `Origin` is refused `403`. An entry that is
    /// not an origin (a path, `*`, no scheme) is reported by [`Host::into_router`],
    /// [`Host::bind`], [`Host::attach`] and [`Host::serve`], which then refuse to serve.
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// Serves `GET /healthz` ([`HEALTH_PATH`]: `200` while the process serves) and
    /// `GET /readyz` ([`READY_PATH`]: `200` when the state store of every mounted server
    /// answers within [`READY_WITHIN`] and the host is not draining, `503` with a one-line
    /// reason otherwise), for a load balancer's health checks.
    ///
    /// Both are answered before everything else: whatever the `Host` header, without a token
    /// or a rate limit, without waiting for a slot of [`Host::max_in_flight`]. A server
    /// mounted at either path is a configuration error, reported when serving.
    pub fn health(mut self) -> Self {
        self.health = true;
        self
    }

    /// Serves `GET /metrics` ([`METRICS_PATH`]): `telemetry`'s metrics in the Prometheus text
    /// format (feature `telemetry`; see [`crate::telemetry`]), answered as the health checks
    /// are, before everything else. It names the contract's tools and counts their calls and
    /// errors, and anyone who reaches the port may read it: serve it where only your
    /// Prometheus reaches, or refuse the path at the proxy in front (`docs/observing.md`).
    ///
    /// # Errors
    ///
    /// A `telemetry` built without [`TelemetryBuilder::prometheus`](crate::telemetry::TelemetryBuilder::prometheus),
    /// reported when serving, as is a server mounted at the path.
    #[cfg(feature = "telemetry")]
    pub fn metrics(mut self, telemetry: &crate::telemetry::Telemetry) -> Self {
        self.metrics = Some(telemetry.clone());
        self
    }

    /// How long a drain lets the calls in flight and the task handlers running here finish
    /// before it ends them: [`DEFAULT_GRACE_PERIOD`] unless set. See [`Bound::serve_until`].
    /// Keep it below the time the supervisor waits after `SIGTERM` before it kills.
    pub fn grace_period(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// The requests served at once, by all routes together: [`DEFAULT_MAX_IN_FLIGHT`] by
    /// default, at least 1 (and at most tokio's `Semaphore::MAX_PERMITS`). A request past it
    /// waits, its body unread, until one before it has been answered, and is then served; a
    /// client sees a slower answer, not an error.
    pub fn max_in_flight(mut self, requests: usize) -> Self {
        self.max_in_flight = requests;
        self
    }

    /// Gives 2025-11-25 clients sessions (`Mcp-Session-Id`), within `limits`, so that a
    /// handler can ask them ([`crate::ask`]) and a session keeps its log level and resource
    /// subscriptions between requests. 2026-07-28 requests stay stateless on the same routes.
    ///
    /// A session is a small record in the server's state ([`Server::state`]); the worker that
    /// serves it in a process is closed after [`SessionLimits::worker_idle`] unused and made
    /// again by its next request, so an idle session costs only its record. Every process
    /// sharing the state serves every session, the client's answer to a question reaching the
    /// waiting call wherever it arrives: a load balancer needs no session affinity. Past
    /// [`SessionLimits::max`] sessions (counted by every route and process sharing the state),
    /// a new client's `initialize` is answered `503` with `Retry-After`; a `DELETE` ends a
    /// session (`204`), and a request of an ended one is answered `404`.
    ///
    /// Without sessions (the default) a 2025-11-25 client is simply never asked (it did not
    /// declare the capability to a session that does not exist).
    pub fn sessions(mut self, limits: SessionLimits) -> Self {
        self.sessions = Some(limits);
        self
    }

    /// Requires a valid bearer token on every mounted route, verified as `authorization`
    /// says, and serves each route's protected resource metadata (RFC 9728) at
    /// `/.well-known/oauth-protected-resource{route}`, the only paths served without a token.
    ///
    /// A request without a valid token is answered `401` (`400` when malformed), one whose
    /// token lacks the scopes of the route's server ([`Server::required_scopes`]) `403
    /// insufficient_scope`, each with a `WWW-Authenticate: Bearer` challenge naming the
    /// route's metadata; a valid one reaches the server with its
    /// [`Principal`](crate::Principal) ([`Context::principal`](crate::Context::principal)) and
    /// without its `Authorization` header. What is checked, and what is not, is in
    /// [`crate::auth`]. The issuer and resource identifier default to the manifest's `auth:`
    /// block; serving is refused (`InvalidInput`) when neither names them, when they are not
    /// `https` URLs (`http` only on loopback), or when the configuration names an algorithm
    /// that is unknown, `none` or HMAC.
    ///
    /// Per-tool scopes are not checked here: the server filters its lists and calls by the
    /// principal's scopes.
    #[cfg(feature = "auth")]
    pub fn authorization(mut self, authorization: crate::auth::Authorization) -> Self {
        self.authorization = Some(authorization);
        self
    }

    /// Limits the requests of each caller, by all routes together: by the verified subject
    /// with [`Host::authorization`], otherwise (and for requests without a valid token) by
    /// the client's address. A request past it is answered `429 Too Many Requests` with
    /// `Retry-After` (seconds), before any server sees it.
    ///
    /// The address is the connection's, as [`Host::serve`], [`Host::bind`] and
    /// [`Host::attach`] serve; a router of [`Host::into_router`] served by hand needs
    /// `into_make_service_with_connect_info::<SocketAddr>()`, without which every caller
    /// without a valid token shares one limit. Behind a proxy, the proxy's address is the
    /// client's.
    ///
    /// **Per process.** The counts live in this process, not in the state store: with `N`
    /// instances behind a load balancer that spreads a caller's requests, that caller may send
    /// up to `N` times the limit (and `N` bursts at once) in all; divide the limit by the
    /// instances to hold a total. The limit protects each instance's own capacity, which is
    /// per instance too, and keeps requests that need no state from touching the store, so
    /// they are served while it is away. See `crate::auth`'s rate limiter.
    #[cfg(feature = "auth")]
    pub fn rate_limit(mut self, limit: crate::auth::RateLimit) -> Self {
        self.rate_limit = Some(limit);
        self
    }

    /// The routes mounted so far, in mounting order.
    pub fn routes(&self) -> &[String] {
        &self.routes
    }

    /// The axum router: the mounted routes, `/healthz` and `/readyz` with [`Host::health`],
    /// and `404` for every other path. Served by hand it never drains.
    ///
    /// # Errors
    ///
    /// `InvalidInput` when a mounted path is invalid or mounted twice, when nothing is
    /// mounted, or when [`Host::allowed_hosts`] names no host.
    pub fn into_router(self) -> io::Result<Router> {
        self.build().map(|built| built.router)
    }

    /// Binds `addr` and returns the host ready to serve; port 0 picks a free port, which
    /// [`Bound::local_addr`] tells.
    ///
    /// # Errors
    ///
    /// As [`Host::into_router`], and when the address cannot be bound.
    pub async fn bind(self, addr: SocketAddr) -> io::Result<Bound> {
        let built = self.build()?;
        let listener = TcpListener::bind(addr).await?;
        Ok(built.on(listener))
    }

    /// Serves on a listener that is already bound, such as one bound to `127.0.0.1:0` by a
    /// test.
    ///
    /// # Errors
    ///
    /// As [`Host::into_router`].
    pub fn attach(self, listener: TcpListener) -> io::Result<Bound> {
        self.build().map(|built| built.on(listener))
    }

    /// Binds `addr` and serves until `SIGTERM` or ctrl-c, then drains ([`Bound::serve`]).
    ///
    /// # Errors
    ///
    /// As [`Host::bind`], and when the listener fails.
    pub async fn serve(self, addr: SocketAddr) -> io::Result<()> {
        self.bind(addr).await?.serve().await
    }

    fn build(self) -> io::Result<Built> {
        let mut problems = self.problems;
        if self.routes.is_empty() && problems.is_empty() {
            problems.push("no server is mounted".into());
        }
        #[cfg(feature = "auth")]
        let guard = crate::auth::guard::Guard::new(
            self.authorization.as_ref(),
            self.rate_limit.as_ref(),
            &self.mounted,
        )
        .unwrap_or_else(|e| {
            problems.extend(e);
            None
        });
        // rmcp accepts every `Host` when the list is empty: fail closed instead.
        if self
            .config
            .allowed_hosts
            .iter()
            .all(|h| h.trim().is_empty())
        {
            problems.push(
                "the allowed host list names no host, which would accept every Host header; \
                 list the names clients use"
                    .into(),
            );
        }
        let cors = cors::Cors::new(&self.origins).unwrap_or_else(|e| {
            problems.extend(e);
            cors::Cors::new(&[]).unwrap_or_else(|_| unreachable!("no entry, no problem"))
        });
        if self.health {
            for path in [health::HEALTH_PATH, health::READY_PATH] {
                if self.routes.iter().any(|r| r == path) {
                    problems.push(format!(
                        "the route `{path}` is where Host::health answers health checks; \
                         mount the server at another path"
                    ));
                }
            }
        }
        #[cfg(feature = "telemetry")]
        if let Some(telemetry) = &self.metrics {
            if telemetry.prometheus_text().is_none() {
                problems.push(
                    "Host::metrics was given a telemetry without Prometheus text; build it \
                     with TelemetryBuilder::prometheus"
                        .into(),
                );
            }
            if self.routes.iter().any(|r| r == metrics::METRICS_PATH) {
                problems.push(format!(
                    "the route `{}` is where Host::metrics answers; mount the server at \
                     another path",
                    metrics::METRICS_PATH
                ));
            }
        }
        if !problems.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot serve over HTTP: {}", problems.join("; ")),
            ));
        }
        let config = self.config;
        let mut router = Router::new();
        for attach in self.attach {
            let mount_config = config
                .clone()
                .with_cancellation_token(config.cancellation_token.child_token());
            router = attach(router, mount_config, self.sessions);
        }
        let refusal: Arc<str> = format!(
            "Not Found: no MCP server at this path. Mounted: {}\n",
            self.routes.join(", ")
        )
        .into();
        let router = router
            .fallback(move || {
                let body = refusal.to_string();
                async move {
                    (
                        StatusCode::NOT_FOUND,
                        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                        body,
                    )
                }
            })
            .layer(axum::middleware::from_fn_with_state(
                front::Front::new(self.max_in_flight),
                front::serve,
            ));
        // Outside the slots: a refused request never waits for one.
        #[cfg(feature = "auth")]
        let router = match guard {
            Some(guard) => router.layer(axum::middleware::from_fn_with_state(
                guard,
                crate::auth::guard::serve,
            )),
            None => router,
        };
        // Outside the guard: a browser's preflight carries no token, and a page must be able
        // to read a 401's challenge and a 429's wait.
        let router = router.layer(axum::middleware::from_fn_with_state(cors, cors::serve));
        let drain = drain::Drain::new();
        let router = router.layer(axum::middleware::from_fn_with_state(
            drain.clone(),
            drain::serve,
        ));
        // Outermost: a health check is answered whatever else holds, draining included.
        let router = if self.health {
            let stores = self.tasks.iter().map(|t| t.state().clone()).collect();
            router.layer(axum::middleware::from_fn_with_state(
                health::Health::new(stores, drain.clone()),
                health::serve,
            ))
        } else {
            router
        };
        // As outer as the health checks: a scrape is answered while draining too.
        #[cfg(feature = "telemetry")]
        let router = match self.metrics {
            Some(telemetry) => router.layer(axum::middleware::from_fn_with_state(
                telemetry,
                metrics::serve,
            )),
            None => router,
        };
        Ok(Built {
            router,
            routes: self.routes,
            config,
            drain,
            grace: self.grace,
            tasks: self.tasks,
        })
    }
}

/// A host turned into a router, before it has a listener.
struct Built {
    router: Router,
    routes: Vec<String>,
    /// Holds the cancellation token every mounted service's token is a child of.
    config: StreamableHttpServerConfig,
    drain: drain::Drain,
    grace: Duration,
    tasks: Vec<Arc<Tasks>>,
}

impl Built {
    fn on(self, listener: TcpListener) -> Bound {
        Bound {
            listener,
            router: self.router,
            routes: self.routes,
            config: self.config,
            drain: self.drain,
            grace: self.grace,
            tasks: self.tasks,
        }
    }
}

/// A host with its listener, ready to serve.
pub struct Bound {
    listener: TcpListener,
    router: Router,
    routes: Vec<String>,
    config: StreamableHttpServerConfig,
    drain: drain::Drain,
    grace: Duration,
    tasks: Vec<Arc<Tasks>>,
}

impl std::fmt::Debug for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bound")
            .field("address", &self.listener.local_addr().ok())
            .field("routes", &self.routes)
            .field("grace", &self.grace)
            .finish_non_exhaustive()
    }
}

impl Bound {
    /// The address the listener is bound to.
    ///
    /// # Errors
    ///
    /// When the operating system cannot tell.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The mounted routes.
    pub fn routes(&self) -> &[String] {
        &self.routes
    }

    /// The grace period of its drain ([`Host::grace_period`]).
    pub fn grace_period(&self) -> Duration {
        self.grace
    }

    /// Serves until the process is asked to stop (`SIGTERM`, as orchestrators and `docker
    /// stop` ask, or `SIGINT`, ctrl-c), then drains ([`Bound::serve_until`]) and returns.
    ///
    /// # Errors
    ///
    /// When the listener fails.
    pub async fn serve(self) -> io::Result<()> {
        self.serve_until(stop_signal()).await
    }

    /// Serves until `shutdown` completes, then drains: stops accepting connections (a
    /// request that still arrives is answered `503`), ends `subscriptions/listen` streams
    /// with their final result and 2025-11-25 sessions' `GET` streams, lets the calls in
    /// flight and the task handlers running here finish for at most the grace period
    /// ([`Host::grace_period`]), then fails the tasks whose handler still runs (their status
    /// message says the server stopped), releases the leases of the others, ends what is
    /// left, and returns `Ok`. `/readyz` answers `503` from the start of the drain.
    ///
    /// # Errors
    ///
    /// When the listener fails.
    pub async fn serve_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        let address = self.listener.local_addr()?;
        tracing::info!(
            %address,
            routes = %self.routes.join(", "),
            "serving MCP over stateless streamable HTTP"
        );
        let token = self.config.cancellation_token;
        let served = drain::Served {
            listener: self.listener,
            router: self.router,
            drain: self.drain,
            grace: self.grace,
            tasks: self.tasks,
            end_streams: Box::new(move || token.cancel()),
        };
        drain::run(served, shutdown).await
    }
}

/// What [`Bound::serve`] waits for: resolves when the process is asked to stop, by
/// `SIGTERM` (what orchestrators and `docker stop` send) or `SIGINT` (ctrl-c); ctrl-c only
/// off Unix. The signals are listened for from this call on (a signal before it has its
/// default effect), so a server that says it is ready calls this first. A signal that cannot
/// be listened for is logged; the other still is. Call it within a tokio runtime.
pub fn stop_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind, name: &'static str| {
            let listening = signal(kind);
            async move {
                match listening {
                    Ok(mut signal) => {
                        signal.recv().await;
                        tracing::info!("{name}: draining");
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot listen for {name}");
                        std::future::pending::<()>().await;
                    }
                }
            }
        };
        let terminate = listen(SignalKind::terminate(), "SIGTERM");
        let interrupt = listen(SignalKind::interrupt(), "SIGINT");
        async move {
            tokio::select! {
                () = terminate => {}
                () = interrupt => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
        tracing::info!("ctrl-c: draining");
    }
}

/// Checks a route: `/`, or `/`-separated segments of URL-safe characters, with no empty,
/// `.` or `..` segment, so it matches exactly one path and no pattern.
fn check_path(path: &str) -> Result<(), String> {
    if path == "/" {
        return Ok(());
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("the route `{path}` does not start with `/`"));
    };
    for segment in rest.split('/') {
        if segment.is_empty() || segment == "." || segment == ".." {
            return Err(format!(
                "the route `{path}` has an empty, `.` or `..` segment"
            ));
        }
        if let Some(c) = segment
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
        {
            return Err(format!(
                "the route `{path}` contains `{c}`; use ASCII letters, digits, `-`, `.`, `_` and `~`"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_path;

    #[test]
    fn routes_are_plain_paths() {
        for good in ["/", "/mcp", "/mcp/read", "/v1.2/mcp_x/a-b~c"] {
            assert_eq!(check_path(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "mcp",
            "/mcp/",
            "//mcp",
            "/mcp//read",
            "/mcp/{group}",
            "/mcp/*rest",
            "/mcp/:id",
            "/mcp/../x",
            "/mcp/./x",
            "/mcp?x=1",
            "/mcp read",
            "/mcp/é",
        ] {
            assert!(check_path(bad).is_err(), "{bad} should be refused");
        }
    }
}
