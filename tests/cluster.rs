//! The reference server as a deployer runs it: three instances sharing one Redis behind HAProxy
//! with `deploy/haproxy.cfg` unchanged, driven by real clients (the official Python SDK on
//! both revisions, and raw JSON-RPC over HTTP), through the faults a deployment meets: an
//! instance killed in the middle of a task, Redis restarted in the middle of a run, an instance
//! drained while calls are in flight.
//!
//! Where a step must reach an instance other than an earlier step's (an answer, a cancel, a
//! write), it goes to that instance's own address; everything else goes through HAProxy, whose
//! `X-Served-By` header says which instance answered.

mod prerequisite;
#[path = "support/python.rs"]
mod python;
mod support;

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_contract::testing::{Haproxy, RawResponse, RedisServer, request_meta};
use serde_json::{Value, json};
use support::{Fixture, HttpServer};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _};

/// How long a condition the test waits on may take before the test fails.
const DEADLINE: Duration = Duration::from_secs(30);

/// One instance of the reference server, on a free loopback port; killed when dropped.
struct Instance {
    server: HttpServer,
}

impl Instance {
    fn start(root: &Path, redis: &str, extra: &[&str]) -> Instance {
        let flags = [&["--state", redis][..], extra].concat();
        Instance {
            server: HttpServer::start_logging(root, &flags, "warn"),
        }
    }

    fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.server.child.id()).expect("a pid");
        // SAFETY: kill(2) on our own child's pid, which it stays until reaped.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "signalled");
    }

    /// Its exit status, once it exited within `within`.
    fn exited(&mut self, within: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.server.child.try_wait().expect("a status") {
                return status;
            }
            assert!(
                started.elapsed() < within,
                "still running after {within:?}: {}",
                self.server.log.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Redis, three instances over one workspace sharing it, and HAProxy in front of them.
struct Cluster {
    instances: Vec<Instance>,
    lb: Haproxy,
    redis: RedisServer,
    fixture: Fixture,
}

impl Cluster {
    fn start(files: &[(&str, &[u8])], extra: &[&str]) -> Cluster {
        let redis = RedisServer::start();
        let fixture = Fixture::with(files);
        let instances: Vec<Instance> = (0..3)
            .map(|_| Instance::start(&fixture.root, &redis.url(), extra))
            .collect();
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/haproxy.cfg");
        let addrs: Vec<SocketAddr> = instances.iter().map(|i| i.server.addr).collect();
        let lb = Haproxy::in_front_of(config, &addrs);
        Cluster {
            instances,
            lb,
            redis,
            fixture,
        }
    }

    /// The index of the instance HAProxy names `served_by` (`i1` is the first).
    fn index(&self, served_by: &str) -> usize {
        let n: usize = (served_by.strip_prefix('i'))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("not an instance: {served_by}"));
        n - 1
    }

    /// The address of an instance other than the one HAProxy names `served_by`.
    fn other_than(&self, served_by: &str) -> SocketAddr {
        self.instances[(self.index(served_by) + 1) % 3].server.addr
    }
}

/// An HTTP answer: its status, the instance that gave it, and the JSON-RPC messages of its
/// body (a JSON body, or the `data` of an event stream's events).
#[derive(Debug)]
struct Answer {
    raw: RawResponse,
    served_by: String,
    messages: Vec<Value>,
}

impl Answer {
    fn of(raw: RawResponse) -> Answer {
        let served_by = raw.header("x-served-by").unwrap_or("direct").to_owned();
        let messages = raw.messages();
        Answer {
            raw,
            served_by,
            messages,
        }
    }

    /// The `result` of the response to request `id`, failing the test on anything else.
    fn result(&self, id: u64) -> Value {
        let response = (self.messages.iter())
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no response to {id}: {:?}", self.raw));
        assert!(response.get("result").is_some(), "{response}");
        response["result"].clone()
    }
}

async fn post(addr: SocketAddr, route: &str, headers: &[(&str, &str)], body: &Value) -> Answer {
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    all.extend_from_slice(headers);
    Answer::of(exchange(addr, "POST", route, &all, &body.to_string()).await)
}

/// One HTTP/1.1 request on a connection of its own, written as soon as it is connected, and
/// its whole response. Hundreds of clients at once on a loaded machine: kept to what a test
/// needs, so that none is slow to send what it connected for (HAProxy answers `408` to a
/// connection whose request does not come within 10 s).
async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> RawResponse {
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    let mut socket = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connected");
    socket.write_all(request.as_bytes()).await.expect("sent");
    let mut received = Vec::new();
    socket.read_to_end(&mut received).await.expect("an answer");
    let end = (received.windows(4).position(|w| w == b"\r\n\r\n")).expect("a head");
    let head = String::from_utf8_lossy(&received[..end]).into_owned();
    let mut rest = &received[end + 4..];
    let mut lines = head.lines();
    let status = (lines.next().and_then(|l| l.split_whitespace().nth(1)))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {head}"));
    let headers: Vec<(String, String)> = (lines.filter_map(|l| l.split_once(':')))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = (headers.iter()).any(|(n, v)| n == "transfer-encoding" && v == "chunked");
    let mut body = Vec::new();
    if chunked {
        while let Some(line) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = String::from_utf8_lossy(&rest[..line]);
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let data = &rest[line + 2..];
            if size == 0 || data.len() < size {
                break;
            }
            body.extend_from_slice(&data[..size]);
            rest = data[size..].strip_prefix(b"\r\n").unwrap_or(&data[size..]);
        }
    } else {
        body = rest.to_vec();
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    RawResponse {
        status,
        headers,
        body,
    }
}

/// A 2026-07-28 request, stateless: its answer.
async fn stateless(addr: SocketAddr, route: &str, method: &str, mut params: Value) -> Answer {
    params["_meta"] = request_meta();
    let name = params["name"].as_str().unwrap_or_default().to_owned();
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if !name.is_empty() {
        headers.push(("Mcp-Name", &name));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    post(addr, route, &headers, &body).await
}

/// A 2025-11-25 session held with raw JSON-RPC.
struct Session {
    id: String,
    route: &'static str,
    next: u64,
}

impl Session {
    /// `initialize` (a client that can elicit) and `notifications/initialized`, at `addr`.
    async fn open(addr: SocketAddr, route: &'static str) -> Result<Session, String> {
        let hello = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "cluster-test", "version": "1"}}});
        let answer = post(addr, route, &[], &hello).await;
        let id = (answer.raw.header("mcp-session-id"))
            .ok_or_else(|| format!("initialize: {:?}", answer.raw))?
            .to_owned();
        let session = Session { id, route, next: 1 };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let answer = session.send(addr, &initialized).await;
        if answer.raw.status != 202 {
            return Err(format!("notifications/initialized: {:?}", answer.raw));
        }
        Ok(session)
    }

    /// POSTs `message` in the session to `addr`.
    async fn send(&self, addr: SocketAddr, message: &Value) -> Answer {
        let headers = [
            ("Mcp-Session-Id", self.id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        post(addr, self.route, &headers, message).await
    }

    /// A request of the session to `addr`: its answer, and its id.
    async fn request(&mut self, addr: SocketAddr, method: &str, params: Value) -> (Answer, u64) {
        let id = self.next;
        self.next += 1;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        (self.send(addr, &body).await, id)
    }

    /// The `result` of a request of the session to `addr`, and who served it.
    async fn call(&mut self, addr: SocketAddr, method: &str, params: Value) -> (Value, String) {
        let (answer, id) = self.request(addr, method, params).await;
        (answer.result(id), answer.served_by)
    }

    /// `DELETE` of the session at `addr`: the status.
    async fn end(&self, addr: SocketAddr) -> u16 {
        let headers = [
            ("Mcp-Session-Id", self.id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        exchange(addr, "DELETE", self.route, &headers, "")
            .await
            .status
    }

    /// The session's standalone stream (`GET`) at `addr`: the instance holding it, and the
    /// messages it carries as they come.
    async fn listen(&self, addr: SocketAddr) -> Stream {
        let mut socket = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connected");
        let request = format!(
            "GET {} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\
             Mcp-Session-Id: {}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n",
            self.route, self.id
        );
        socket.write_all(request.as_bytes()).await.expect("sent");
        let mut reader = tokio::io::BufReader::new(socket);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).await.expect("a header line");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let header = |name: &str| {
            (head.lines())
                .find_map(|l| {
                    let (n, v) = l.split_once(':')?;
                    n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
                })
                .unwrap_or_default()
        };
        let served_by = header("x-served-by");
        let chunked = header("transfer-encoding").eq_ignore_ascii_case("chunked");
        let (sender, messages) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut text = String::new();
            loop {
                let mut bytes = Vec::new();
                if chunked {
                    let mut size = String::new();
                    if reader.read_line(&mut size).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
                        return;
                    };
                    bytes.resize(size + 2, 0);
                    if size == 0 || reader.read_exact(&mut bytes).await.is_err() {
                        return;
                    }
                    bytes.truncate(size);
                } else {
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    bytes = line.into_bytes();
                }
                text.push_str(&String::from_utf8_lossy(&bytes));
                while let Some(end) = text.find('\n') {
                    let line: String = text.drain(..=end).collect();
                    if let Some(data) = line.trim_end().strip_prefix("data:")
                        && let Ok(message) = serde_json::from_str(data.trim())
                        && sender.send(message).is_err()
                    {
                        return;
                    }
                }
            }
        });
        Stream {
            served_by,
            messages,
        }
    }
}

/// A session's standalone stream.
struct Stream {
    served_by: String,
    messages: tokio::sync::mpsc::UnboundedReceiver<Value>,
}

impl Stream {
    /// The next message with `method`, within the deadline.
    async fn next(&mut self, method: &str) -> Value {
        let wait = async {
            loop {
                let message = self.messages.recv().await.expect("the stream stays open");
                if message["method"] == method {
                    return message;
                }
            }
        };
        tokio::time::timeout(DEADLINE, wait)
            .await
            .unwrap_or_else(|_| panic!("no {method} within {DEADLINE:?}"))
    }
}

/// Polls `check` every 50 ms until it gives a value, failing the test after the deadline
/// with `what`.
async fn until<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            started.elapsed() < DEADLINE,
            "not within {DEADLINE:?}: {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `delete_path` of `path`, recursive, as a 2025-11-25 task of `session` made through `addr`:
/// the task's id and the instance that made it.
async fn delete_task(session: &mut Session, addr: SocketAddr, path: &str) -> (String, String) {
    let call = json!({"name": "delete_path", "arguments": {"path": path, "recursive": true},
                      "task": {"ttl": 60000}});
    let (created, made_on) = session.call(addr, "tools/call", call).await;
    let id = created["task"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned();
    (id, made_on)
}

/// The task's `tasks/get` through `addr`: its status, and who served it.
async fn task_status(session: &mut Session, addr: SocketAddr, id: &str) -> (Value, String) {
    session.call(addr, "tasks/get", json!({"taskId": id})).await
}

/// A child process killed when dropped, so that a failing test leaves none behind.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_clients_of_2025_11_25_are_served_at_once_by_three_instances() {
    const PYTHON: usize = 100;
    const RAW: usize = 200;
    let python = python::python_sdk();
    let cluster = Cluster::start(&[("notes.txt", b"hello\n")], &[]);
    let lb = cluster.lb.addr();
    // The SDK's clients: each holds its session until every one of them has read the file.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/cluster.py");
    let sdk = Command::new(python)
        .arg(script)
        .args(["many", &format!("{}/mcp/read", cluster.lb.url())])
        .arg(PYTHON.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the Python clients run");
    let mut sdk = Killed(sdk);
    let mut stdin = sdk.0.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(sdk.0.stdout.take().expect("stdout")).lines();
    let held = tokio::task::spawn_blocking(move || {
        let line = stdout.next().and_then(Result::ok).unwrap_or_default();
        (line, stdout)
    });
    // Raw clients alongside: each holds its session until told to end it.
    let (called, mut reports) = tokio::sync::mpsc::unbounded_channel();
    let (end, ending) = tokio::sync::watch::channel(false);
    let mut raw = tokio::task::JoinSet::new();
    for _ in 0..RAW {
        let (called, mut ending) = (called.clone(), ending.clone());
        raw.spawn(async move {
            // A panic in a step (an answer that is not one) is this client's failure.
            let client = tokio::spawn(async move {
                let mut served_by = Vec::new();
                let mut session = Session::open(lb, "/mcp/read").await?;
                let (listed, by) = session.call(lb, "tools/list", json!({})).await;
                served_by.push(by);
                let tools = listed["tools"].as_array().cloned().unwrap_or_default();
                if !tools.iter().any(|t| t["name"] == "read_file") {
                    return Err(format!("tools/list: {listed}"));
                }
                let read = json!({"name": "read_file", "arguments": {"path": "notes.txt"}});
                let (result, by) = session.call(lb, "tools/call", read).await;
                served_by.push(by);
                if result["structuredContent"]["content"] != "hello\n" {
                    return Err(format!("read_file: {result}"));
                }
                Ok((session, served_by))
            });
            let outcome = match client.await {
                Ok(outcome) => outcome,
                Err(panicked) => Err(format!("{panicked:?}")),
            };
            let _ = called.send(outcome.as_ref().map(|_| ()).map_err(Clone::clone));
            let (session, served_by) = outcome.ok()?;
            let _ = ending.wait_for(|end| *end).await;
            Some((session.end(lb).await, served_by))
        });
    }
    drop(called);
    let mut refused = Vec::new();
    for _ in 0..RAW {
        refused.extend(reports.recv().await.expect("every client reports").err());
    }
    assert!(
        refused.is_empty(),
        "{} raw clients were not served: {refused:?}\n{}",
        refused.len(),
        cluster.lb.log()
    );
    let (line, stdout) = tokio::time::timeout(Duration::from_secs(120), held)
        .await
        .expect("the SDK's clients got as far as their call within 2 minutes")
        .expect("read");
    let held: Value = serde_json::from_str(&line).unwrap_or_else(|_| panic!("{line}"));
    assert_eq!(
        held["called"], PYTHON,
        "every SDK client was served: {held}"
    );
    // Every client holds its session now: each is a record in Redis.
    let sessions = cluster.redis.keys("*:session:*").await;
    assert_eq!(sessions.len(), PYTHON + RAW, "sessions held at once");

    end.send_replace(true);
    writeln!(stdin, "end").expect("told");
    let mut instances: BTreeMap<String, usize> = BTreeMap::new();
    while let Some(ended) = raw.join_next().await {
        let (status, served_by) = ended.expect("a client").expect("served");
        assert!(matches!(status, 200 | 204), "DELETE answered {status}");
        for by in served_by {
            *instances.entry(by).or_default() += 1;
        }
    }
    let last = tokio::task::spawn_blocking(move || {
        let mut stdout = stdout;
        stdout.next().and_then(Result::ok).unwrap_or_default()
    });
    let report: Value = serde_json::from_str(&last.await.expect("read")).expect("one JSON line");
    assert!(
        sdk.0.wait().expect("the clients exit").success(),
        "{report}"
    );
    assert_eq!(report["served"], PYTHON, "{report}");
    assert_eq!(report["errors"], json!([]), "{report}");
    assert_eq!(report["deletes"], json!({"204": PYTHON}), "{report}");
    for (by, n) in report["instances"].as_object().expect("counts") {
        *instances.entry(by.clone()).or_default() += n.as_u64().unwrap_or(0) as usize;
    }
    for name in ["i1", "i2", "i3"] {
        assert!(
            instances.get(name).copied().unwrap_or(0) > 50,
            "{instances:?}"
        );
    }
    assert!(
        cluster.redis.keys("*:session:*").await.is_empty(),
        "every session ended"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_confirmation_is_retried_through_another_instance() {
    let python = python::python_sdk();
    let cluster = Cluster::start(&[("old/a.txt", b"a\n"), ("old/deep/b.txt", b"b\n")], &[]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/cluster.py");
    let url = format!("{}/mcp/edit", cluster.lb.url());
    let output = tokio::task::spawn_blocking(move || {
        Command::new(python)
            .arg(script)
            .args(["confirm", &url, "old"])
            .output()
            .expect("the Python client runs")
    })
    .await
    .expect("finished");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let answer: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|_| panic!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(
        answer["result"],
        json!({"path": "old", "kind": "directory"}),
        "{answer}"
    );
    assert_eq!(
        answer["asked"],
        json!(["Delete `old` and everything under it?"]),
        "{answer}"
    );
    let rounds = answer["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 2, "asked, then retried: {answer}");
    assert_eq!(rounds[0][1], false, "{answer}");
    assert_eq!(
        rounds[1][1], true,
        "the retry carries the request state: {answer}"
    );
    assert_ne!(rounds[0][0], rounds[1][0], "two instances: {answer}");
    assert!(!cluster.fixture.root.join("old").exists(), "deleted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_made_on_one_instance_is_polled_answered_and_cancelled_through_the_others() {
    let cluster = Cluster::start(
        &[
            ("big/a.txt", b"a\n"),
            ("big/sub/b.txt", b"b\n"),
            ("keep/c.txt", b"c\n"),
        ],
        &[],
    );
    let lb = cluster.lb.addr();
    let mut session = Session::open(lb, "/mcp/edit").await.expect("a session");
    let mut stream = session.listen(lb).await;
    let (id, made_on) = delete_task(&mut session, lb, "big").await;
    assert_ne!(
        stream.served_by, made_on,
        "the question has to travel to the stream on another instance"
    );

    // Polled through the other instances while it waits for the confirmation.
    let mut pollers = HashSet::new();
    until(
        "polled as input_required through two other instances",
        async || {
            let (got, by) = task_status(&mut session, lb, &id).await;
            if got["status"] == "input_required" && by != made_on {
                pollers.insert(by);
            }
            (pollers.len() == 2).then_some(())
        },
    )
    .await;
    // The question reaches the client on its stream, wherever that is held.
    let asked = stream.next("elicitation/create").await;
    assert_eq!(
        asked["params"]["message"], "Delete `big` and everything under it?",
        "{asked}"
    );
    assert!(
        cluster.fixture.root.join("big").exists(),
        "not before the answer"
    );
    let accept = json!({"jsonrpc": "2.0", "id": asked["id"],
                        "result": {"action": "accept", "content": {"confirm": true}}});
    let answered = session.send(cluster.other_than(&made_on), &accept).await;
    assert_eq!(answered.raw.status, 202, "{:?}", answered.raw);
    let (result, _) = session
        .call(lb, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"path": "big", "kind": "directory"})
    );
    assert!(!cluster.fixture.root.join("big").exists(), "deleted");
    let (got, _) = task_status(&mut session, lb, &id).await;
    assert_eq!(got["status"], "completed", "{got}");

    // A second task, cancelled through another instance while it waits.
    let (second, made_on) = delete_task(&mut session, lb, "keep").await;
    until("the second task waits for its answer", async || {
        let (got, _) = task_status(&mut session, lb, &second).await;
        (got["status"] == "input_required").then_some(())
    })
    .await;
    stream.next("elicitation/create").await;
    let other = cluster.other_than(&made_on);
    let (cancelled, _) = session
        .call(other, "tasks/cancel", json!({"taskId": second}))
        .await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    for _ in 0..3 {
        let (got, _) = task_status(&mut session, lb, &second).await;
        assert_eq!(got["status"], "cancelled", "on every instance: {got}");
    }
    assert!(
        cluster.fixture.root.join("keep/c.txt").exists(),
        "nothing deleted"
    );
    assert_eq!(session.end(lb).await, 204);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_instances_task_fails_once_its_lease_lapses_and_never_runs_twice() {
    let mut cluster = Cluster::start(
        &[("big/a.txt", b"a\n"), ("big/sub/b.txt", b"b\n")],
        &["--task-lease", "2"],
    );
    let lb = cluster.lb.addr();
    let mut session = Session::open(lb, "/mcp/edit").await.expect("a session");
    let mut stream = session.listen(lb).await;
    let (id, made_on) = delete_task(&mut session, lb, "big").await;
    let asked = stream.next("elicitation/create").await;
    let (got, _) = task_status(&mut session, lb, &id).await;
    assert_eq!(got["status"], "input_required", "{got}");

    // Killed while its handler waits for the answer: nothing of it runs on.
    let killed = cluster.index(&made_on);
    cluster.instances[killed].signal(libc::SIGKILL);
    cluster.instances[killed].exited(DEADLINE);
    let started = Instant::now();
    let failed = until("the task fails once its lease lapsed", async || {
        let (got, by) = task_status(&mut session, lb, &id).await;
        assert_ne!(by, made_on, "HAProxy sends nothing to a dead instance");
        (got["status"] != "input_required").then_some(got)
    })
    .await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(
        failed["statusMessage"],
        "the server running this task stopped before it finished; call the tool again",
        "{failed}"
    );
    assert!(started.elapsed() < Duration::from_secs(10), "the 2 s lease");
    // An answer coming late runs nothing: the handler never runs twice.
    let alive = cluster.other_than(&made_on);
    let accept = json!({"jsonrpc": "2.0", "id": asked["id"],
                        "result": {"action": "accept", "content": {"confirm": true}}});
    session.send(alive, &accept).await;
    let (answer, request) = session
        .request(lb, "tasks/result", json!({"taskId": id}))
        .await;
    let error = &answer.messages[0];
    assert_eq!(error["id"], request, "{error}");
    assert_eq!(
        error["error"]["message"], failed["statusMessage"],
        "{error}"
    );
    for _ in 0..3 {
        let (got, _) = task_status(&mut session, lb, &id).await;
        assert_eq!(got["status"], "failed", "{got}");
    }
    assert!(
        cluster.fixture.root.join("big/sub/b.txt").exists(),
        "the directory was never deleted"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restarted_mid_run_stops_only_what_needs_it_and_loses_no_acknowledged_task() {
    let mut cluster = Cluster::start(&[("notes.txt", b"hello\n"), ("a.md", b"a\n")], &[]);
    let lb = cluster.lb.addr();
    let mut session = Session::open(lb, "/mcp/read").await.expect("a session");
    let search = json!({"name": "search_text", "arguments": {"query": "hello"},
                        "task": {"ttl": 600_000}});
    let (created, _) = session.call(lb, "tools/call", search).await;
    let id = created["task"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned();
    until("the task completes", async || {
        let (got, _) = task_status(&mut session, lb, &id).await;
        (got["status"] == "completed").then_some(())
    })
    .await;

    cluster.redis.kill();
    let read = json!({"name": "read_file", "arguments": {"path": "notes.txt"}});
    let stateless_calls_work = async || {
        let listed = stateless(lb, "/mcp/read", "tools/list", json!({})).await;
        assert_eq!(listed.raw.status, 200, "{:?}", listed.raw);
        assert!(
            listed.result(1)["tools"]
                .as_array()
                .is_some_and(|t| !t.is_empty())
        );
        let read = stateless(lb, "/mcp/read", "tools/call", read.clone()).await;
        assert_eq!(read.result(1)["structuredContent"]["content"], "hello\n");
    };
    stateless_calls_work().await;
    // What needs the store gets a retryable error, from every instance.
    for _ in 0..3 {
        let (answer, id) = session.request(lb, "tools/list", json!({})).await;
        assert_eq!(answer.raw.status, 503, "{:?}", answer.raw);
        assert!(
            answer.raw.header("retry-after").is_some(),
            "{:?}",
            answer.raw
        );
        assert_eq!(answer.messages[0]["id"], id, "{:?}", answer.raw);
        assert!(answer.messages[0]["error"]["message"].is_string());
    }
    // Once every instance says it is not ready, HAProxy serves through the liveness backend,
    // and what needs no state goes on.
    until("every instance out of rotation", async || {
        cluster
            .lb
            .log()
            .contains("backend 'mcp' has no server available")
            .then_some(())
    })
    .await;
    for _ in 0..3 {
        stateless_calls_work().await;
    }

    cluster.redis.restart();
    let got = until("the session is served again", async || {
        let (answer, request) = session
            .request(lb, "tasks/get", json!({"taskId": id}))
            .await;
        (answer.raw.status == 200).then(|| answer.result(request))
    })
    .await;
    assert_eq!(
        got["status"], "completed",
        "acknowledged before, kept: {got}"
    );
    let (result, _) = session
        .call(lb, "tasks/result", json!({"taskId": id}))
        .await;
    assert_eq!(result["isError"], false, "{result}");
    stateless_calls_work().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_is_told_of_a_write_made_through_another_instance() {
    let cluster = Cluster::start(&[("notes.txt", b"hello\n")], &[]);
    let lb = cluster.lb.addr();
    let mut session = Session::open(lb, "/mcp/edit").await.expect("a session");
    let uri = "workspace://files/notes.txt";
    session
        .call(lb, "resources/subscribe", json!({"uri": uri}))
        .await;
    let mut stream = session.listen(lb).await;
    let other = cluster.other_than(&stream.served_by);
    let delete = json!({"name": "delete_path", "arguments": {"path": "notes.txt"}});
    let deleted = stateless(other, "/mcp/edit", "tools/call", delete).await;
    assert_eq!(deleted.result(1)["isError"], false, "{:?}", deleted.raw);
    let told = stream.next("notifications/resources/updated").await;
    assert_eq!(told["params"]["uri"], uri, "{told}");
}

/// One 2026-07-28 call through HAProxy as the drain test makes it: when it started and
/// ended, who served it, and whether it succeeded.
struct Call {
    started: Instant,
    ended: Instant,
    served_by: String,
    ok: Result<(), String>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_instance_loses_no_call_and_leaves_the_rotation() {
    let files: Vec<(String, Vec<u8>)> = (0..300)
        .map(|i| (format!("d{}/f{i}.txt", i % 10), b"alpha beta\n".repeat(40)))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (p.as_str(), &c[..])).collect();
    let mut cluster = Cluster::start(&files, &["--grace-period", "5"]);
    let lb = cluster.lb.addr();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut callers = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let stop = Arc::clone(&stop);
        callers.spawn(async move {
            let mut calls = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let started = Instant::now();
                let search = json!({"name": "search_text", "arguments": {"query": "beta"}});
                let answer = stateless(lb, "/mcp/read", "tools/call", search).await;
                let result = answer.messages.iter().find(|m| m["id"] == 1);
                let ok = match result {
                    Some(r) if r["result"]["isError"] == false => Ok(()),
                    _ => Err(format!("{:?}", answer.raw)),
                };
                calls.push(Call {
                    started,
                    ended: Instant::now(),
                    served_by: answer.served_by,
                    ok,
                });
            }
            calls
        });
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let terminated = Instant::now();
    cluster.instances[1].signal(libc::SIGTERM);
    let status = tokio::task::block_in_place(|| cluster.instances[1].exited(DEADLINE));
    let exited = Instant::now();
    assert!(status.success(), "the drained instance exits 0: {status:?}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut calls = Vec::new();
    while let Some(done) = callers.join_next().await {
        calls.extend(done.expect("a caller"));
    }
    let lost: Vec<&String> = calls.iter().filter_map(|c| c.ok.as_ref().err()).collect();
    assert!(
        lost.is_empty(),
        "{} of {} calls lost: {lost:?}",
        lost.len(),
        calls.len()
    );
    let finished_in_drain = (calls.iter())
        .filter(|c| c.served_by == "i2" && c.started < terminated && c.ended > terminated)
        .count();
    assert!(finished_in_drain > 0, "calls in flight on it were answered");
    let after: Vec<&Call> = calls.iter().filter(|c| c.started > exited).collect();
    assert!(after.len() > 10, "calls went on: {}", after.len());
    assert!(
        after.iter().all(|c| c.served_by != "i2"),
        "HAProxy routes nothing to the drained instance"
    );
}
