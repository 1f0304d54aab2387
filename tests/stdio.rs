//! The built binary over stdio, with raw JSON-RPC lines: the most faithful check of what a
//! client receives, on both protocol revisions.

use std::process::{Command, Stdio};

use mcp_contract::testing::{Revision, check_wire, problems};
use serde_json::{Value, json};
use support::Server;

mod prerequisite;
mod support;

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("hello.txt"), "hello\nworld\n").expect("written");
    dir
}

fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[test]
fn legacy_initialize_then_tools_list_and_call() {
    let dir = workspace();
    let mut server = Server::start(dir.path());
    let init = server.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "0"}}),
    );
    check_wire(Revision::V2025_11_25, "InitializeResult", &init["result"])
        .expect("a valid InitializeResult");
    assert_eq!(init["result"]["serverInfo"]["name"], json!("mcp-workspace"));
    // The server's icon is the SVG in the crate, embedded.
    let icon = &init["result"]["serverInfo"]["icons"][0];
    let svg = icon["src"]
        .as_str()
        .and_then(|src| src.strip_prefix("data:image/svg+xml;base64,"))
        .map(|data| base64::Engine::decode(&base64::engine::general_purpose::STANDARD, data));
    assert_eq!(
        svg.and_then(Result::ok).as_deref(),
        Some(include_bytes!("../icons/workspace.svg").as_slice()),
        "{icon}"
    );
    assert_eq!(icon["sizes"], json!(["any"]));
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let list = server.request(2, "tools/list", json!({}));
    check_wire(Revision::V2025_11_25, "ListToolsResult", &list["result"])
        .expect("a valid ListToolsResult");
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "list_directory",
            "read_file",
            "search_text",
            "read_files",
            "directory_tree",
            "find_files",
            "file_info",
            "write_file",
            "create_directory",
            "edit_file",
            "move_path",
            "delete_path",
            "apply_edits"
        ]
    );
    assert!(
        !list.to_string().contains("\"default\""),
        "no default keyword on the wire"
    );

    let read = server.request(
        3,
        "tools/call",
        json!({"name": "read_file", "arguments": {"path": "hello.txt"}}),
    );
    check_wire(Revision::V2025_11_25, "CallToolResult", &read["result"])
        .expect("a valid CallToolResult");
    assert_eq!(
        read["result"]["structuredContent"]["content"],
        json!("hello\nworld\n")
    );
    assert_eq!(read["result"]["structuredContent"]["total_lines"], json!(2));
    let text: Value =
        serde_json::from_str(read["result"]["content"][0]["text"].as_str().expect("text"))
            .expect("JSON");
    assert_eq!(
        text, read["result"]["structuredContent"],
        "the text block carries the same JSON"
    );
}

#[test]
fn modern_discover_then_tools_list_with_cache_hints() {
    let dir = workspace();
    let mut server = Server::start(dir.path());
    let discover = server.request(1, "server/discover", json!({"_meta": modern_meta()}));
    check_wire(Revision::V2026_07_28, "DiscoverResult", &discover["result"])
        .expect("a valid DiscoverResult");
    assert_eq!(discover["result"]["ttlMs"], json!(300000));

    let list = server.request(2, "tools/list", json!({"_meta": modern_meta()}));
    check_wire(Revision::V2026_07_28, "ListToolsResult", &list["result"])
        .expect("a valid ListToolsResult");
    assert_eq!(list["result"]["ttlMs"], json!(300000));
    assert_eq!(list["result"]["cacheScope"], json!("public"));
    assert_eq!(list["result"]["resultType"], json!("complete"));

    let bad = server.request(
        3,
        "tools/call",
        json!({"_meta": modern_meta(), "name": "read_file", "arguments": {"start_line": 0, "colour": "red"}}),
    );
    check_wire(Revision::V2026_07_28, "CallToolResult", &bad["result"])
        .expect("a valid CallToolResult");
    assert_eq!(bad["result"]["isError"], json!(true));
    assert!(
        bad["result"].get("structuredContent").is_none(),
        "read_file has an outputSchema; its errors are text only"
    );
    let envelope: Value =
        serde_json::from_str(bad["result"]["content"][0]["text"].as_str().expect("text"))
            .expect("JSON");
    let codes = problems(&envelope);
    assert_eq!(
        codes,
        [
            ("argument_missing", "path"),
            ("argument_invalid", "start_line"),
            ("argument_unknown", "colour")
        ]
    );

    let unknown = server.request(
        4,
        "tools/call",
        json!({"_meta": modern_meta(), "name": "format_disk", "arguments": {}}),
    );
    assert_eq!(
        unknown["error"]["code"],
        json!(-32602),
        "an unknown tool is a protocol error: {unknown}"
    );
}

/// The line a tester sent: a request whose argument holds a lone UTF-16 surrogate, which no
/// JSON parser can turn into a string. It used to be dropped, and the client waited forever.
const LONE_SURROGATE: &str = r#"{"jsonrpc":"2.0","id":3920,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"\ud800"}}}"#;

#[test]
fn every_line_is_answered_even_when_it_is_not_a_message() {
    let dir = workspace();
    let mut server = Server::start(dir.path());
    server.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "0"}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for (line, code, id) in [
        (LONE_SURROGATE, -32700, json!(3920)),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/ca"#,
            -32700,
            json!(2),
        ),
        (
            r#"[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]"#,
            -32600,
            Value::Null,
        ),
    ] {
        server.send_line(line);
        let answer = server.next_message();
        assert_eq!(answer["error"]["code"], json!(code), "{line}: {answer}");
        assert_eq!(
            answer.get("id").cloned().unwrap_or_default(),
            id,
            "{line}: {answer}"
        );
        check_wire(Revision::V2025_11_25, "JSONRPCErrorResponse", &answer)
            .expect("a valid error response");
    }
    let arguments = [json!([1, 2]), json!("str"), json!(5), json!(true)];
    for (id, arguments) in (10..).zip(arguments) {
        let answer = server.request(
            id,
            "tools/call",
            json!({"name": "read_file", "arguments": arguments}),
        );
        assert_eq!(answer["error"]["code"], json!(-32602), "{answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("`arguments`"), "{message}");
    }
    let read = server.request(
        20,
        "tools/call",
        json!({"name": "read_file", "arguments": {"path": "hello.txt"}}),
    );
    assert_eq!(
        read["result"]["structuredContent"]["content"],
        json!("hello\nworld\n"),
        "still serving: {read}"
    );
}

/// With room for one request at a time, a client pipelining many still gets every answer.
#[test]
fn pipelined_requests_past_the_limit_are_all_answered() {
    let dir = workspace();
    let mut one_at_a_time = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"));
    one_at_a_time.args(["--max-in-flight", "1"]);
    let mut server = Server::start_with(one_at_a_time, dir.path());
    let call =
        json!({"_meta": modern_meta(), "name": "read_file", "arguments": {"path": "hello.txt"}});
    for id in 1..=200 {
        server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": call}));
    }
    let mut answered: Vec<u64> = (1..=200)
        .map(|_| {
            let answer = server.next_message();
            assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
            answer["id"].as_u64().expect("an id")
        })
        .collect();
    answered.sort_unstable();
    assert_eq!(answered, (1..=200).collect::<Vec<_>>());
}

/// On 2026-07-28 every result names the server in `_meta`, as `server/discover` does; on
/// 2025-11-25 none does (the session's `initialize` said it once).
#[test]
fn every_modern_result_names_the_server() {
    const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    let requests = [
        ("tools/list", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({"uri": "workspace://tree"})),
        (
            "tools/call",
            json!({"name": "read_file", "arguments": {"path": "hello.txt"}}),
        ),
        (
            "tools/call",
            json!({"name": "read_file", "arguments": {"path": "missing.txt"}}),
        ),
    ];
    let dir = workspace();

    let mut modern = Server::start(dir.path());
    let discover = modern.request(1, "server/discover", json!({"_meta": modern_meta()}));
    let identity = discover["result"]["_meta"][SERVER_INFO].clone();
    assert_eq!(identity["name"], json!("mcp-workspace"), "{discover}");
    for (id, (method, mut params)) in (2..).zip(requests.clone()) {
        params["_meta"] = modern_meta();
        let answer = modern.request(id, method, params);
        let meta = &answer["result"]["_meta"];
        assert_eq!(meta[SERVER_INFO], identity, "{method}: {meta}");
    }

    let mut legacy = Server::start(dir.path());
    legacy.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "0"}}),
    );
    for (id, (method, params)) in (2..).zip(requests) {
        let answer = legacy.request(id, method, params);
        assert!(
            answer["result"].is_object(),
            "{method}: {}",
            answer["error"]
        );
        let meta = &answer["result"]["_meta"];
        assert!(meta.get(SERVER_INFO).is_none(), "{method}: {meta}");
    }
}

/// A file the server's user may not write, in a directory it may: renaming a new file over it
/// would succeed, and its write bits allow someone (its group), so only the kernel can say no.
/// As root, whom no permission stops, the server runs as `nobody`; as anyone else, as the test.
#[cfg(unix)]
#[test]
fn a_file_the_server_may_not_write_is_never_replaced() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    use std::os::unix::process::CommandExt as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"));
    // The test's own directory tells who the test runs as.
    if std::fs::metadata(dir.path()).expect("stat").uid() == 0 {
        command.uid(65534).gid(65534);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).expect("0777");
    }
    let theirs = dir.path().join("theirs.txt");
    std::fs::write(&theirs, "theirs\n").expect("written");
    // Readable by all, writable by its group only: neither its owner nor others may write it.
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o464)).expect("0464");
    let before = std::fs::metadata(&theirs).expect("stat");
    let mut server = Server::start_with(command, dir.path());
    let call = |server: &mut Server, id: u64, name: &str, arguments: Value| {
        let answer = server.request(
            id,
            "tools/call",
            json!({"_meta": modern_meta(), "name": name, "arguments": arguments}),
        );
        answer["result"].clone()
    };
    let info = call(&mut server, 1, "file_info", json!({"path": "theirs.txt"}));
    let version = info["structuredContent"]["version"].clone();
    assert!(version.is_string(), "{info}");
    assert_eq!(
        info["structuredContent"]["read_only"],
        json!(false),
        "{info}"
    );

    let written = call(
        &mut server,
        2,
        "write_file",
        json!({"path": "theirs.txt", "content": "the server's\n", "version": version}),
    );
    let edited = call(
        &mut server,
        3,
        "edit_file",
        json!({"path": "theirs.txt", "version": version,
               "edits": [{"old_text": "theirs", "new_text": "the server's"}]}),
    );
    for refused in [&written, &edited] {
        assert_eq!(refused["isError"], json!(true), "{refused}");
        let text = refused["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains("may not write"), "{text}");
    }
    assert_eq!(
        std::fs::read_to_string(&theirs).expect("readable"),
        "theirs\n"
    );
    let after = std::fs::metadata(&theirs).expect("stat");
    assert_eq!(
        (after.ino(), after.uid(), after.mode()),
        (before.ino(), before.uid(), before.mode()),
        "the same file, not a new one renamed over it"
    );
}

#[test]
fn the_server_exits_when_stdin_closes() {
    let dir = workspace();
    let mut server = Server::start(dir.path());
    drop(server.stdin.take());
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().expect("waitable") {
            assert!(status.success(), "a clean exit on EOF: {status}");
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "the server exits promptly on EOF"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// On a terminal the server introduces itself; on a pipe (a client) it says nothing on stderr
/// but its logs. `script` gives the child a pseudo-terminal.
#[test]
fn a_person_at_a_terminal_is_told_what_this_is_and_how_to_connect() {
    let dir = workspace();
    let command = format!(
        "{} --root {}",
        env!("CARGO_BIN_EXE_mcp-workspace"),
        dir.path().display()
    );
    prerequisite::require("script");
    let on_terminal = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs");
    let shown = String::from_utf8_lossy(&on_terminal.stdout);
    for expected in [
        "mcp-workspace",
        "Tools:",
        "list_directory",
        "read_file",
        "search_text",
        "\"mcpServers\"",
    ] {
        assert!(
            shown.contains(expected),
            "{expected} missing from the banner:\n{shown}"
        );
    }

    let on_pipe = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), dir.path().as_os_str()])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("the server runs");
    assert!(on_pipe.status.success());
    assert!(on_pipe.stdout.is_empty(), "nothing but MCP on stdout");
    assert!(
        !String::from_utf8_lossy(&on_pipe.stderr).contains("Tools:"),
        "no banner for a client"
    );
}
