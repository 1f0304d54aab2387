//! A raw 2026-07-28 `subscriptions/listen` stream over HTTP, for the tests that watch what a
//! listener hears (rmcp's client does not open one).

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;

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
