//! A raw MCP client over streamable HTTP, as light as a load generator must be on a machine it
//! shares with the servers: JSON-RPC bodies and headers written by hand, one `reqwest` pool.
//! It speaks 2026-07-28 (stateless: every request carries its revision and capabilities in
//! `_meta`) and 2025-11-25 (a session opened with `initialize`), and sends each request to the
//! next of its addresses in turn: one address (an instance, or HAProxy in front of several),
//! or several instances without a proxy.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use workspace_bench::scale::messages;

/// The revision a 2025-11-25 session speaks.
const V2025: &str = "2025-11-25";
/// The stateless revision.
const V2026: &str = "2026-07-28";

/// Where requests go: each to the next address in turn.
pub struct Endpoint {
    bases: Vec<String>,
    next: AtomicUsize,
    http: reqwest::Client,
}

impl Endpoint {
    /// Requests to `bases` (`http://127.0.0.1:PORT`), in turn.
    pub fn new(bases: Vec<String>) -> Endpoint {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .pool_idle_timeout(Duration::from_secs(90))
            .build()
            .expect("an HTTP client");
        Endpoint {
            bases,
            next: AtomicUsize::new(0),
            http,
        }
    }

    /// POSTs `body` to `route` with `headers`; the status, the session id the answer gives,
    /// and the JSON-RPC message answering a request (`None` for an accepted notification).
    async fn post(
        &self,
        route: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<(Option<String>, Option<Value>), String> {
        let base = &self.bases[self.next.fetch_add(1, Ordering::Relaxed) % self.bases.len()];
        let mut request = self
            .http
            .post(format!("{base}{route}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let answer = request.send().await.map_err(|e| format!("POST: {e}"))?;
        let status = answer.status().as_u16();
        let session = (answer.headers().get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let text = answer.text().await.map_err(|e| format!("body: {e}"))?;
        if status == 202 {
            return Ok((session, None));
        }
        if status != 200 {
            return Err(format!("HTTP {status}: {}", clip(&text)));
        }
        let message = messages(&text)
            .into_iter()
            .filter_map(|m| serde_json::from_str::<Value>(m).ok())
            .find(|m| m.get("id").is_some_and(|id| id == &body["id"]))
            .ok_or_else(|| format!("no answer in {}", clip(&text)))?;
        if let Some(error) = message.get("error") {
            return Err(format!("JSON-RPC error {error}"));
        }
        Ok((session, Some(message["result"].clone())))
    }

    /// One 2026-07-28 request at `route`; its result.
    pub async fn request_2026(
        &self,
        route: &str,
        method: &str,
        mut params: Value,
    ) -> Result<Value, String> {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": V2026,
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        });
        let name = params["name"].as_str().unwrap_or_default().to_owned();
        let mut headers = vec![("mcp-protocol-version", V2026), ("mcp-method", method)];
        if method == "tools/call" {
            headers.push(("mcp-name", &name));
        }
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let (_, result) = self.post(route, &headers, &body).await?;
        result.ok_or_else(|| "no result".to_owned())
    }

    /// Opens a 2025-11-25 session at `route` (`initialize`, then
    /// `notifications/initialized`) as a client that can elicit; its id.
    pub async fn open(&self, route: &str) -> Result<String, String> {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": V2025, "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "scale-bench", "version": "1"},
        }});
        let (session, _) = self.post(route, &[], &initialize).await?;
        let session = session.ok_or("initialize answered without a session")?;
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let headers = [
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", V2025),
        ];
        self.post(route, &headers, &initialized).await?;
        Ok(session)
    }

    /// One request of the 2025-11-25 session `session` at `route`; its result.
    pub async fn request_2025(
        &self,
        route: &str,
        session: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        let headers = [("mcp-session-id", session), ("mcp-protocol-version", V2025)];
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let (_, result) = self.post(route, &headers, &body).await?;
        result.ok_or_else(|| "no result".to_owned())
    }
}

/// A tool's result, refused when the tool reported an error.
pub fn tool_result(result: Value) -> Result<Value, String> {
    if result["isError"] == true {
        return Err(format!("the tool failed: {}", clip(&result.to_string())));
    }
    Ok(result)
}

fn clip(text: &str) -> String {
    text.chars().take(300).collect()
}
