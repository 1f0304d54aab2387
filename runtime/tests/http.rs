//! The HTTP host over real loopback HTTP, with rmcp's streamable HTTP client on both
//! revisions, and raw requests for what a client does not show (status codes, refusals).

mod support;

use std::net::SocketAddr;

use mcp_contract::http::Host;
use mcp_contract::rmcp::ServiceError;
use mcp_contract::rmcp::model::CallToolRequestParams;
use mcp_contract::testing::{
    RawResponse, Revision, check_wire, connect_http, http_request, request_meta, serve_on_loopback,
};
use serde_json::{Value, json};
use support::{
    ALL, Gate, NOT_MESSAGES, READ, WRITE, args, assert_error, assert_unknown_tool, bad_params,
    flat, grouped, names,
};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// POSTs a JSON-RPC message the way a streamable HTTP client must.
async fn post(addr: SocketAddr, path: &str, extra: &[(&str, &str)], body: &str) -> RawResponse {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    http_request(addr, "POST", path, &headers, body)
        .await
        .expect("an HTTP response")
}

/// A 2026-07-28 request, with the standard headers the revision requires.
fn modern(method: &str, id: u32, params: Value) -> String {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn modern_headers<'a>(method: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    headers.extend_from_slice(extra);
    headers
}

#[tokio::test]
async fn each_group_route_lists_exactly_its_tools() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    for revision in Revision::ALL {
        for (route, expected) in [("read", READ), ("write", WRITE)] {
            let url = format!("http://{addr}/mcp/{route}");
            let client = connect_http(&url, revision).await.expect("connects");
            let negotiated = client.peer_info().map(|i| i.protocol_version.clone());
            assert_eq!(
                negotiated.as_ref().map(|v| v.as_str()),
                Some(revision.as_str()),
                "{route}"
            );
            let listed = client.list_all_tools().await.expect("tools/list");
            assert_eq!(names(&listed), expected, "{route} on {}", revision.as_str());
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn a_tool_of_another_group_is_an_unknown_tool() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    for revision in Revision::ALL {
        for (route, foreign) in [("read", "put"), ("read", "drop"), ("write", "get")] {
            let url = format!("http://{addr}/mcp/{route}");
            let client = connect_http(&url, revision).await.expect("connects");
            let arguments = args(json!({"id": "a", "value": "b"}));
            let error = client
                .call_tool(CallToolRequestParams::new(foreign).with_arguments(arguments))
                .await
                .expect_err("a tool of another group");
            match error {
                ServiceError::McpError(e) => assert_unknown_tool(&e, foreign),
                other => panic!("{route}/{foreign}: expected -32602, got {other:?}"),
            }
            let _ = client.cancel().await;
        }
    }
}

#[tokio::test]
async fn a_call_over_http_is_the_call_in_process() {
    let server = grouped();
    let addr = serve_on_loopback(Host::groups(server.clone())).await;
    for revision in Revision::ALL {
        let client = connect_http(&format!("http://{addr}/mcp/read"), revision)
            .await
            .expect("connects");
        // On 2026-07-28 the server requires `id` mirrored into `Mcp-Param-Id`; rmcp's client
        // mirrors only the tools it has listed, as a real client does before calling.
        client.list_all_tools().await.expect("tools/list");
        let arguments = json!({"id": "a-1"});
        let over_http = client
            .call_tool(CallToolRequestParams::new("get").with_arguments(args(arguments.clone())))
            .await
            .expect("served");
        let in_process = server
            .call("get", Some(args(arguments.clone())))
            .await
            .expect("served");
        assert_eq!(over_http.structured_content, in_process.structured_content);
        assert_eq!(over_http.content, in_process.content);
        assert_eq!(over_http.is_error, in_process.is_error);
        assert_eq!(
            over_http.structured_content,
            Some(json!({"tool": "get", "arguments": arguments}))
        );
        let _ = client.cancel().await;
    }
}

#[tokio::test]
async fn without_groups_every_tool_is_at_mcp() {
    let addr = serve_on_loopback(Host::groups(flat())).await;
    for revision in Revision::ALL {
        let client = connect_http(&format!("http://{addr}/mcp"), revision)
            .await
            .expect("connects");
        let listed = client.list_all_tools().await.expect("tools/list");
        assert_eq!(names(&listed), ALL, "{}", revision.as_str());
        let _ = client.cancel().await;
    }
    let refused = post(addr, "/mcp/read", &[], INITIALIZE).await;
    assert_eq!(refused.status, 404, "no group routes without groups");
}

#[tokio::test]
async fn unmounted_routes_are_refused_with_404() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    for path in [
        "/",
        "/mcp",
        "/mcp/nope",
        "/mcp/read/extra",
        "/mcp/read/",
        "/mcp/Read",
        "/mcp/read%2F..",
        "/other/read",
    ] {
        let refused = post(addr, path, &[], INITIALIZE).await;
        assert_eq!(refused.status, 404, "{path}: {refused:?}");
        assert_eq!(
            refused.body.trim_end(),
            "Not Found: no MCP server at this path. Mounted: /mcp/read, /mcp/write",
            "{path}"
        );
        assert!(
            refused
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/plain")),
            "{path}: {refused:?}"
        );
        let get = http_request(addr, "GET", path, &[], "")
            .await
            .expect("sent");
        assert_eq!(get.status, 404, "GET {path}");
    }
    // An MCP client cannot connect to an unmounted route on either revision.
    for revision in Revision::ALL {
        let url = format!("http://{addr}/mcp/nope");
        assert!(
            connect_http(&url, revision).await.is_err(),
            "{} connected to /mcp/nope",
            revision.as_str()
        );
    }
    // The mounted route itself answers.
    let served = post(addr, "/mcp/read", &[], INITIALIZE).await;
    assert_eq!(served.status, 200, "{served:?}");
}

#[tokio::test]
async fn only_post_is_served() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    for method in ["GET", "DELETE", "PUT", "PATCH"] {
        let refused = http_request(
            addr,
            method,
            "/mcp/read",
            &[("Accept", "application/json, text/event-stream")],
            "",
        )
        .await
        .expect("sent");
        assert_eq!(refused.status, 405, "{method}: {refused:?}");
        assert_eq!(refused.header("allow"), Some("POST"), "{method}");
    }
}

#[tokio::test]
async fn no_session_is_created() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    let initialized = post(addr, "/mcp/read", &[], INITIALIZE).await;
    assert_eq!(initialized.status, 200, "{initialized:?}");
    assert_eq!(initialized.header("mcp-session-id"), None, "stateless");
    let reply = initialized.json().expect("a JSON reply");
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    // A legacy request with no session and no handshake on this connection is served.
    let listed = post(
        addr,
        "/mcp/read",
        &[("MCP-Protocol-Version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
    )
    .await;
    assert_eq!(listed.status, 200, "{listed:?}");
    let tools = listed.json().expect("a JSON reply")["result"]["tools"].clone();
    assert_eq!(tools.as_array().map(Vec::len), Some(READ.len()), "{tools}");
    // So is 2026-07-28's discover.
    let discovered = post(
        addr,
        "/mcp/read",
        &modern_headers("server/discover", &[]),
        &modern("server/discover", 3, json!({})),
    )
    .await;
    assert_eq!(discovered.status, 200, "{discovered:?}");
    let reply = discovered.json().expect("a JSON reply");
    assert!(
        reply["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("2026-07-28"))),
        "{reply}"
    );
}

#[tokio::test]
async fn standard_headers_must_match_the_body() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    let call = |id| {
        modern(
            "tools/call",
            id,
            json!({"name": "get", "arguments": {"id": "a-1"}}),
        )
    };

    let ok = post(
        addr,
        "/mcp/read",
        &modern_headers(
            "tools/call",
            &[("Mcp-Name", "get"), ("Mcp-Param-Id", "a-1")],
        ),
        &call(1),
    )
    .await;
    assert_eq!(ok.status, 200, "{ok:?}");
    assert_eq!(
        ok.json().expect("JSON")["result"]["structuredContent"]["arguments"]["id"],
        "a-1"
    );

    for (what, headers) in [
        (
            "Mcp-Method differs",
            modern_headers(
                "tools/list",
                &[("Mcp-Name", "get"), ("Mcp-Param-Id", "a-1")],
            ),
        ),
        (
            "Mcp-Name differs",
            modern_headers(
                "tools/call",
                &[("Mcp-Name", "find"), ("Mcp-Param-Id", "a-1")],
            ),
        ),
        (
            "Mcp-Param-Id differs",
            modern_headers(
                "tools/call",
                &[("Mcp-Name", "get"), ("Mcp-Param-Id", "b-2")],
            ),
        ),
        (
            "Mcp-Param-Id missing",
            modern_headers("tools/call", &[("Mcp-Name", "get")]),
        ),
    ] {
        let refused = post(addr, "/mcp/read", &headers, &call(2)).await;
        assert_eq!(refused.status, 400, "{what}: {refused:?}");
        assert_eq!(
            refused.json().expect("JSON")["error"]["code"],
            -32020,
            "{what}: {refused:?}"
        );
    }
}

#[test]
fn a_host_with_bad_routes_refuses_to_serve() {
    for (host, expected) in [
        (Host::new(), "no server is mounted"),
        (
            Host::new().mount("/mcp", flat()).mount("/mcp", flat()),
            "mounted more than once",
        ),
        (Host::new().mount("mcp", flat()), "does not start with `/`"),
        (Host::new().mount("/mcp/{group}", flat()), "contains `{`"),
        (Host::new().mount("/mcp/", flat()), "empty"),
    ] {
        let error = host.into_router().expect_err(expected);
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains(expected), "{error}");
    }
}

#[test]
fn group_routes_are_named_after_the_groups() {
    assert_eq!(
        Host::groups(grouped()).routes(),
        ["/mcp/read", "/mcp/write"]
    );
    assert_eq!(Host::groups(flat()).routes(), ["/mcp"]);
    assert_eq!(
        Host::new().mount_groups("/v1/", grouped()).routes(),
        ["/v1/read", "/v1/write"]
    );
}

#[tokio::test]
async fn serving_stops_when_the_shutdown_future_completes() {
    let bound = Host::groups(grouped())
        .bind("127.0.0.1:0".parse().expect("an address"))
        .await
        .expect("binds");
    let addr = bound.local_addr().expect("bound");
    assert_ne!(addr.port(), 0, "a real port is reported");
    assert_eq!(bound.routes(), ["/mcp/read", "/mcp/write"]);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(bound.serve_until(async {
        let _ = stopped.await;
    }));
    let served = post(addr, "/mcp/read", &[], INITIALIZE).await;
    assert_eq!(served.status, 200, "{served:?}");
    stop.send(()).expect("still serving");
    let ended = tokio::time::timeout(std::time::Duration::from_secs(10), serving)
        .await
        .expect("stops promptly")
        .expect("no panic");
    assert!(ended.is_ok(), "{ended:?}");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer accepting connections"
    );
}

#[tokio::test]
async fn a_browser_origin_is_refused_unless_allowed() {
    let addr = serve_on_loopback(Host::groups(grouped())).await;
    let plain = post(addr, "/mcp/read", &[], INITIALIZE).await;
    assert_eq!(plain.status, 200, "no Origin, no browser: {plain:?}");
    let browser = post(
        addr,
        "/mcp/read",
        &[("Origin", "http://evil.example")],
        INITIALIZE,
    )
    .await;
    assert_eq!(browser.status, 403, "{browser:?}");
    let allowed =
        serve_on_loopback(Host::groups(grouped()).allowed_origins(["http://app.example:*"])).await;
    let from_app = post(
        allowed,
        "/mcp/read",
        &[("Origin", "http://app.example:3000")],
        INITIALIZE,
    )
    .await;
    assert_eq!(from_app.status, 200, "{from_app:?}");
}

#[tokio::test]
async fn a_group_the_view_leaves_empty_is_not_mounted() {
    let read_only = grouped().restrict(|t| READ.contains(&t.name.as_ref()));
    let host = Host::groups(read_only);
    assert_eq!(host.routes(), ["/mcp/read"]);
    let addr = serve_on_loopback(host).await;
    let refused = post(addr, "/mcp/write", &[], INITIALIZE).await;
    assert_eq!(refused.status, 404, "{refused:?}");
}

/// POSTs `tools/list` of 2025-11-25 with the `Host` header `host`, and returns the status.
async fn status_for_host(addr: SocketAddr, host: &str) -> u16 {
    let body = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#;
    let headers = [("Host", host), ("MCP-Protocol-Version", "2025-11-25")];
    post(addr, "/mcp", &headers, body).await.status
}

#[tokio::test]
async fn only_allowed_host_names_are_served() {
    let addr = serve_on_loopback(Host::groups(flat())).await;
    assert_eq!(status_for_host(addr, &addr.to_string()).await, 200);
    assert_eq!(status_for_host(addr, "rebound.example").await, 403);

    let addr = serve_on_loopback(Host::groups(flat()).allowed_hosts(["mcp.example"])).await;
    assert_eq!(status_for_host(addr, "mcp.example").await, 200);
    assert_eq!(status_for_host(addr, "rebound.example").await, 403);
}

/// An empty list of allowed hosts would accept every `Host` (rmcp's reading of it), which
/// is the DNS-rebinding hole the check exists to close: the host refuses to serve instead.
#[test]
fn a_host_without_allowed_host_names_refuses_to_serve() {
    for hosts in [vec![], vec![String::new(), " ".to_owned()]] {
        let error = Host::groups(flat())
            .allowed_hosts(hosts.clone())
            .into_router()
            .expect_err("no allowed host");
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{hosts:?}");
        assert!(error.to_string().contains("allowed host"), "{error}");
    }
}

/// The headers a client of `revision` sends with a request of `method` whose params are
/// `params`: the version, and on 2026-07-28 `Mcp-Method` and the `Mcp-Name` its params name.
fn headers_for(revision: Revision, method: &str, params: &Value) -> Vec<(String, String)> {
    let mut headers = vec![(
        "MCP-Protocol-Version".to_owned(),
        revision.as_str().to_owned(),
    )];
    if !revision.has_initialize() {
        headers.push(("Mcp-Method".to_owned(), method.to_owned()));
        let name = params.get("name").or_else(|| params.get("uri"));
        if let Some(name) = name.and_then(Value::as_str) {
            headers.push(("Mcp-Name".to_owned(), name.to_owned()));
        }
    }
    headers
}

/// POSTs `body` with the headers a client of `revision` sends with `method` and `params`.
async fn post_as(
    addr: SocketAddr,
    revision: Revision,
    method: &str,
    params: &Value,
    body: &str,
) -> RawResponse {
    let headers = headers_for(revision, method, params);
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    post(addr, "/mcp", &headers, body).await
}

/// POSTs request `id` of `method` as a client of `revision` sends it, `_meta` included.
async fn post_request(
    addr: SocketAddr,
    revision: Revision,
    id: u64,
    method: &str,
    mut params: Value,
) -> RawResponse {
    if !revision.has_initialize() {
        params["_meta"] = request_meta();
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    post_as(addr, revision, method, &params, &body.to_string()).await
}

#[tokio::test]
async fn a_body_that_is_not_a_message_is_400_with_its_json_rpc_error() {
    let addr = serve_on_loopback(Host::groups(flat())).await;
    for revision in Revision::ALL {
        for case in NOT_MESSAGES {
            let what = format!("{revision}: {}", case.what);
            let refused = post_as(addr, revision, "tools/list", &json!({}), case.input).await;
            assert_eq!(refused.status, 400, "{what}: {refused:?}");
            assert_eq!(
                refused.header("content-type"),
                Some("application/json"),
                "{what}"
            );
            let answer = refused
                .json()
                .unwrap_or_else(|| panic!("{what}: a JSON body: {refused:?}"));
            assert_error(&answer, case.code, case.id, &what);
            check_wire(revision, "JSONRPCErrorResponse", &answer)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        }
    }
    // A body that is not JSON under another media type is still that type's refusal.
    let headers = [
        ("Content-Type", "text/plain"),
        ("Accept", "application/json, text/event-stream"),
    ];
    let text = http_request(addr, "POST", "/mcp", &headers, "hello")
        .await
        .expect("an HTTP response");
    assert_eq!(text.status, 415, "{text:?}");
}

#[tokio::test]
async fn malformed_params_over_http_are_invalid_params_naming_what_is_wrong() {
    let addr = serve_on_loopback(Host::groups(flat())).await;
    for revision in Revision::ALL {
        for (id, (method, bad, named)) in (1..).zip(bad_params()) {
            let what = format!("{revision}: {method} {bad}");
            let answered = post_request(addr, revision, id, method, bad).await;
            assert_eq!(answered.status, 200, "{what}: {answered:?}");
            let answer = answered.json().expect("a JSON body");
            let message = assert_error(&answer, -32602, Some(id as i64), &what);
            assert!(message.contains(&format!("`{named}`")), "{what}: {message}");
        }
        let null = json!({"name": "find", "arguments": null});
        let answered = post_request(addr, revision, 50, "tools/call", null).await;
        let answer = answered.json().expect("a JSON body");
        assert_eq!(
            answer["result"]["structuredContent"],
            json!({"tool": "find", "arguments": {}}),
            "{revision}: {answer}"
        );
    }
}

#[tokio::test]
async fn a_page_of_the_server_own_loopback_origin_is_served() {
    let addr = serve_on_loopback(Host::groups(flat())).await;
    let port = addr.port();
    let initialize = |host: String, origin: String| async move {
        let headers = [("Host", host.as_str()), ("Origin", origin.as_str())];
        post(addr, "/mcp", &headers, INITIALIZE).await.status
    };
    for host in ["127.0.0.1", "localhost", "[::1]"] {
        let served = initialize(format!("{host}:{port}"), format!("http://{host}:{port}")).await;
        assert_eq!(served, 200, "{host}: same origin");
    }
    for (host, origin, why) in [
        (
            "127.0.0.1",
            format!("http://127.0.0.1:{}", port + 1),
            "another port",
        ),
        (
            "127.0.0.1",
            format!("http://localhost:{port}"),
            "another name",
        ),
        (
            "127.0.0.1",
            format!("https://127.0.0.1:{port}"),
            "another scheme",
        ),
        (
            "127.0.0.1",
            "http://evil.example".to_owned(),
            "a foreign page",
        ),
        ("127.0.0.1", "null".to_owned(), "an opaque origin"),
    ] {
        let refused = initialize(format!("{host}:{port}"), origin.clone()).await;
        assert_eq!(refused, 403, "{why}: {origin}");
    }
    // A rebound name stays refused even when the page claims it as its own origin.
    let rebound = initialize("evil.example".into(), "http://evil.example".into()).await;
    assert_eq!(rebound, 403);
}

/// With the clock paused, a sleep ends only once every task is idle: the server has read
/// every request the loopback sockets hold and done all it can with them.
async fn settle() {
    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
}

/// Sends one raw HTTP/1.1 POST on a new connection and returns the connection, to read the
/// response from later; no reqwest, whose DNS resolution runs on blocking threads the paused
/// clock does not wait for.
async fn send_raw(addr: SocketAddr, body: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt as _;
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("written");
    stream
}

/// Reads the whole response on `stream` (the server closes it) and returns its JSON body.
async fn read_raw(mut stream: tokio::net::TcpStream) -> Value {
    use tokio::io::AsyncReadExt as _;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").expect("a response");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The requests served at once the test below allows.
const LIMIT: usize = 4;

#[tokio::test(start_paused = true)]
async fn the_requests_served_at_once_are_bounded_and_the_rest_wait() {
    let gate = Gate::new();
    let host = Host::new()
        .mount("/mcp", gate.server())
        .max_in_flight(LIMIT);
    let addr = serve_on_loopback(host).await;
    let sent = LIMIT + 6;
    let mut streams = Vec::new();
    for id in 1..=sent {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": "find", "arguments": {}}});
        streams.push(send_raw(addr, &call.to_string()).await);
    }
    settle().await;
    assert_eq!(gate.entered(), LIMIT, "only the limit reaches the handler");

    gate.release.add_permits(sent);
    for (id, stream) in (1..).zip(streams) {
        let answer = read_raw(stream).await;
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["result"]["structuredContent"]["released"], true);
    }
    assert_eq!(gate.entered(), sent);
}
