//! Over loopback HTTP (feature `http-testing`): a [`Host`] served on a free port, rmcp's
//! streamable HTTP client of either revision, and raw requests for what an MCP client does not
//! show (status codes, headers, plain-text refusals, malformed bodies).

use std::io;
use std::net::SocketAddr;

use rmcp::transport::StreamableHttpClientTransport;

use super::Revision;
use super::client::{Client, connect, open};
use crate::http::Host;
use crate::server::{Dispatch, Server};

/// Serves `host` on a free port of `127.0.0.1` for the rest of the test (the runtime's
/// lifetime) and returns the address.
///
/// # Panics
///
/// When no loopback port can be bound, or the host is invalid (see [`Host::into_router`]).
pub async fn serve_on_loopback(host: Host) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("cannot bind a loopback port: {e}"));
    let bound = host
        .attach(listener)
        .unwrap_or_else(|e| panic!("the host cannot serve: {e}"));
    let addr = bound
        .local_addr()
        .unwrap_or_else(|e| panic!("the bound address is unknown: {e}"));
    tokio::spawn(bound.serve_until(std::future::pending()));
    addr
}

/// Connects a client to the streamable HTTP MCP endpoint at `url` (such as
/// `http://127.0.0.1:8080/mcp`), speaking `revision`: the `initialize` handshake of
/// 2025-11-25, or 2026-07-28's `server/discover` followed by stateless requests.
pub async fn connect_http(
    url: &str,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    open(
        StreamableHttpClientTransport::from_uri(url.to_owned()),
        revision,
    )
    .await
}

/// A client of a server on `revision` over each transport, named for assertion messages: in
/// process as `serve_stdio` serves (`stdio, 2025-11-25`), then over streamable HTTP on loopback
/// (`HTTP, 2025-11-25`). `server` makes the server, once for each.
///
/// # Panics
///
/// When a client cannot connect, or no loopback port can be bound.
pub async fn each_transport<D: Dispatch>(
    server: impl Fn() -> Server<D>,
    revision: Revision,
) -> Vec<(String, Client)> {
    let addr = serve_on_loopback(Host::new().mount("/mcp", server())).await;
    let stdio = connect(server(), revision)
        .await
        .unwrap_or_else(|e| panic!("cannot connect in process on {revision}: {e}"));
    let http = connect_http(&format!("http://{addr}/mcp"), revision)
        .await
        .unwrap_or_else(|e| panic!("cannot connect over HTTP on {revision}: {e}"));
    vec![
        (format!("stdio, {revision}"), stdio),
        (format!("HTTP, {revision}"), http),
    ]
}

/// One HTTP response as received.
#[derive(Debug, Clone)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The headers, names lowercased, in order.
    pub headers: Vec<(String, String)>,
    /// The body, decoded from any transfer coding, as text (invalid UTF-8 replaced).
    pub body: String,
}

impl RawResponse {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON, when it is.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.body).ok()
    }

    /// The JSON-RPC messages of an MCP answer: its JSON body, or the `data` of each event of
    /// its event stream, in order.
    pub fn messages(&self) -> Vec<serde_json::Value> {
        if let Some(json) = self.json() {
            return vec![json];
        }
        (self.body.lines())
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect()
    }
}

/// POSTs one JSON-RPC `message` to `path` on `addr` as a 2025-11-25 client does: as JSON,
/// accepting JSON or an event stream, with the revision's header, and in `session` when given.
///
/// # Errors
///
/// As [`http_request`].
pub async fn post_2025(
    addr: SocketAddr,
    path: &str,
    session: Option<&str>,
    message: &serde_json::Value,
) -> io::Result<RawResponse> {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    if let Some(session) = session {
        headers.push(("mcp-session-id", session));
    }
    http_request(addr, "POST", path, &headers, message.to_string()).await
}

/// Opens a 2025-11-25 session at `path` on `addr`: `initialize` with `params` (whose `_meta`
/// may carry a trace), then `notifications/initialized`; the session's id.
///
/// # Errors
///
/// As [`http_request`], and when the host gives no session or refuses either message (the
/// error holds its status and body).
pub async fn open_session_2025(
    addr: SocketAddr,
    path: &str,
    params: serde_json::Value,
) -> io::Result<String> {
    let initialize =
        serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params});
    let answer = post_2025(addr, path, None, &initialize).await?;
    let refused = |what: &str, answer: &RawResponse| {
        io::Error::other(format!("{what}: {} {}", answer.status, answer.body))
    };
    let session = match answer.header("mcp-session-id") {
        Some(session) if answer.status == 200 => session.to_owned(),
        _ => return Err(refused("initialize", &answer)),
    };
    let initialized = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let accepted = post_2025(addr, path, Some(&session), &initialized).await?;
    if accepted.status != 202 {
        return Err(refused("notifications/initialized", &accepted));
    }
    Ok(session)
}

/// Sends one HTTP/1.1 request to `addr` (a server on this machine) with exactly `headers` and
/// `body`, whatever they say, and reads the whole response.
///
/// The client adds only what every request carries: `Host` (unless `headers` has one, so a
/// test can send another), `Content-Length`, and `Accept: */*` when `headers` names no
/// `Accept`. `path` is sent as a URL path, so `.` and `..` segments are resolved first. No
/// proxy is used.
///
/// # Errors
///
/// When `method` or a header is not valid HTTP, the connection fails, or no response comes.
pub async fn http_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: impl AsRef<[u8]>,
) -> io::Result<RawResponse> {
    let invalid =
        |e: &dyn std::fmt::Display| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .map_err(io::Error::other)?;
    let method = reqwest::Method::from_bytes(method.as_bytes()).map_err(|e| invalid(&e))?;
    let mut request = client
        .request(method, format!("http://{addr}{path}"))
        .body(body.as_ref().to_vec());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.build().map_err(|e| invalid(&e))?;
    let response = client.execute(request).await.map_err(io::Error::other)?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    let body = response.bytes().await.map_err(io::Error::other)?;
    Ok(RawResponse {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}
