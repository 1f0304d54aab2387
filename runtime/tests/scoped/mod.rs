//! A server over HTTP behind a stand-in for authorization, and a raw 2026-07-28
//! `subscriptions/listen` stream to it (rmcp's client does not open one), for the tests of
//! what each caller may see and hear.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::Request;
use axum::middleware::Next;
use mcp_contract::codegen::Dispatch;
use mcp_contract::http::Host;
use mcp_contract::{Principal, Server};
use serde_json::json;

/// The stand-in for authorization: `X-Test-Scopes: a b` makes the caller `tester` with those
/// scopes; without the header there is no caller.
async fn verified(mut request: Request, next: Next) -> axum::response::Response {
    let scopes = request
        .headers()
        .get("x-test-scopes")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
    if let Some(scopes) = scopes {
        request
            .extensions_mut()
            .insert(Principal::new("tester", scopes));
    }
    next.run(request).await
}

/// Serves `server` at `/mcp` over HTTP on loopback, behind the stand-in for authorization.
pub async fn serve<D: Dispatch>(server: Server<D>) -> SocketAddr {
    let router = Host::new()
        .mount("/mcp", server)
        .into_router()
        .expect("a valid host")
        .layer(axum::middleware::from_fn(verified));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let addr = listener.local_addr().expect("an address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// Opens a 2026-07-28 `subscriptions/listen` stream for `uri` as a caller with `scopes`, and
/// returns the connection once the acknowledgment has arrived.
pub async fn listen_as(addr: SocketAddr, scopes: &str, uri: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt as _;
    let params = json!({
        "_meta": mcp_contract::testing::request_meta(),
        "notifications": {"resourceSubscriptions": [uri]},
    });
    let body =
        json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": params})
            .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: subscriptions/listen\r\nX-Test-Scopes: {scopes}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let heard = heard_within(&mut stream, Duration::from_secs(5), "acknowledged").await;
    assert!(
        heard.contains("notifications/subscriptions/acknowledged"),
        "{heard}"
    );
    stream
}

/// What arrives on `stream` until `until` appears in it or `wait` passes.
pub async fn heard_within(
    stream: &mut tokio::net::TcpStream,
    wait: Duration,
    until: &str,
) -> String {
    use tokio::io::AsyncReadExt as _;
    let mut heard = String::new();
    let deadline = tokio::time::Instant::now() + wait;
    let mut buffer = [0u8; 4096];
    while !heard.contains(until) {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => heard.push_str(&String::from_utf8_lossy(&buffer[..n])),
            _ => break,
        }
    }
    heard
}
