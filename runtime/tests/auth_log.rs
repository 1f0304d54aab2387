//! No bearer token reaches the log: every event of every level, of the host, rmcp, hyper and
//! the HTTP client, is recorded while tokens are accepted and refused. A binary of its own, so
//! its subscriber is the process's and no other test's requests are in its log.

mod support;

use std::sync::{Arc, Mutex};

use mcp_contract::auth::Authorization;
use mcp_contract::http::Host;
use mcp_contract::testing::auth::TestIssuer;
use mcp_contract::testing::{http_request, serve_on_loopback};
use serde_json::json;

/// Every log line written.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_token_is_logged() {
    let log = Log::default();
    let writer = log.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .init();
    let issuer = TestIssuer::start().await;
    let auth = Authorization::new()
        .issuer(issuer.issuer())
        .resource("https://mcp.example.com");
    let addr = serve_on_loopback(Host::groups(support::grouped()).authorization(auth)).await;
    let good = issuer
        .token()
        .audience("https://mcp.example.com/mcp/read")
        .sign();
    let other = issuer
        .token()
        .audience("https://mcp.example.com/mcp/write")
        .sign();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}})
    .to_string();
    for (token, route, status) in [
        (&good, "/mcp/read", 200),
        (&other, "/mcp/read", 401),
        (&good, "/mcp/write", 401),
    ] {
        let bearer = format!("Bearer {token}");
        let answer = http_request(
            addr,
            "POST",
            route,
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/list"),
                ("Authorization", &bearer),
            ],
            &list,
        )
        .await
        .expect("an answer");
        assert_eq!(answer.status, status, "{route}: {answer:?}");
    }
    let log = String::from_utf8_lossy(&log.0.lock().expect("the log")).into_owned();
    assert!(
        log.contains("fetching the authorization server's keys"),
        "the log is captured: {log}"
    );
    for token in [&good, &other] {
        let signature = token.rsplit('.').next().expect("a signature");
        assert!(!log.contains(signature), "a token reached the log:\n{log}");
    }
}
