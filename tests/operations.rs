//! The built binary run as an operator runs it with `--http`: the one line it starts with,
//! its health checks, its CORS answers for `--allow-origin`, and its drain on `SIGTERM` and
//! `SIGINT` (it stops accepting, ends what is left at the grace, and exits 0).

#[path = "prerequisite/mod.rs"]
mod prerequisite;

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_contract::testing::http_request;

/// The server binary serving HTTP on a free loopback port; killed when dropped unless it
/// exited.
struct Running {
    child: Child,
    addr: SocketAddr,
    /// The line it said it listens with.
    start: String,
    _root: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str], log: &str) -> Running {
    let root = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(root.path().join("notes.txt"), "hello\n").expect("written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.path().as_os_str()])
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .env("RUST_LOG", log)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let (lines, received) = mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    // Keep reading the log, so the server never blocks or fails writing to a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut seen = Vec::new();
    let start = loop {
        let line = received
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no start line; the log: {seen:?}"));
        if line.contains("listening on http://") {
            break line;
        }
        seen.push(line);
    };
    // Nothing else says it listens.
    let later: Vec<String> = received
        .recv_timeout(Duration::from_millis(300))
        .into_iter()
        .chain(received.try_iter())
        .collect();
    assert!(
        later
            .iter()
            .chain(&seen)
            .all(|l| !l.contains("listening on")),
        "one start line: {start:?}, {seen:?}, {later:?}"
    );
    let at = start
        .split("listening on http://")
        .nth(1)
        .unwrap_or_default();
    let addr = at
        .split_whitespace()
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("an address in {start}"));
    Running {
        child,
        addr,
        start,
        _root: root,
    }
}

impl Running {
    fn signal(&self, name: &str) {
        prerequisite::require("bash");
        let sent = Command::new("bash")
            .args(["-c", &format!("kill -{name} {}", self.child.id())])
            .status()
            .expect("bash runs");
        assert!(sent.success(), "kill -{name}");
    }

    /// Waits for it to exit, for at most `within`: its status and how long it took.
    fn exited_within(&mut self, within: Duration) -> (ExitStatus, Duration) {
        let began = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("a status") {
                return (status, began.elapsed());
            }
            assert!(began.elapsed() < within, "still running after {within:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[tokio::test]
async fn it_starts_with_one_line_saying_where_it_listens_what_it_serves_and_its_store() {
    // Said whatever the log level: it is no log line.
    let server = start(&[], "off");
    assert_ne!(server.addr.port(), 0, "the port bound: {}", server.start);
    for said in [
        "mcp-workspace: listening on http://127.0.0.1:",
        "/mcp/read",
        "/mcp/edit",
        "/healthz",
        "/readyz",
        "store memory",
    ] {
        assert!(server.start.contains(said), "{said} in {}", server.start);
    }
}

#[tokio::test]
async fn it_answers_health_checks() {
    let server = start(&[], "info");
    for path in ["/healthz", "/readyz"] {
        let answered = http_request(server.addr, "GET", path, &[], "")
            .await
            .expect("an answer");
        assert_eq!(answered.status, 200, "{path}: {answered:?}");
    }
}

#[tokio::test]
async fn it_answers_the_preflight_of_an_allowed_origin_only() {
    let server = start(&["--allow-origin", "http://app.example:*"], "info");
    for (origin, status) in [
        ("http://app.example:3000", 204),
        ("http://evil.example", 403),
    ] {
        let headers = [
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type, mcp-protocol-version",
            ),
        ];
        let answered = http_request(server.addr, "OPTIONS", "/mcp/read", &headers, "")
            .await
            .expect("an answer");
        assert_eq!(answered.status, status, "{origin}: {answered:?}");
        let allowed = (status == 204).then_some(origin);
        assert_eq!(answered.header("access-control-allow-origin"), allowed);
    }
}

#[test]
fn an_idle_server_drains_and_exits_0_on_sigterm_and_sigint() {
    for signal in ["TERM", "INT"] {
        let mut server = start(&[], "info");
        server.signal(signal);
        let (status, took) = server.exited_within(Duration::from_secs(5));
        assert!(status.success(), "SIG{signal}: {status:?}");
        assert!(took < Duration::from_secs(3), "SIG{signal}: {took:?}");
    }
}

#[test]
fn a_request_still_in_flight_when_the_grace_ends_does_not_hold_the_exit() {
    use std::io::Write as _;

    let mut server = start(&["--grace-period", "2"], "info");
    // A request whose body never comes: in flight until the grace ends it.
    let mut stuck = std::net::TcpStream::connect(server.addr).expect("connects");
    write!(
        stuck,
        "POST /mcp/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
    )
    .expect("sent");
    std::thread::sleep(Duration::from_millis(200));
    server.signal("TERM");
    let began = Instant::now();
    let mut refused = false;
    while began.elapsed() < Duration::from_secs(1) {
        if std::net::TcpStream::connect(server.addr).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(refused, "a new connection is refused during the drain");
    let (status, took) = server.exited_within(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(6),
        "the grace, then little more: {took:?}"
    );
}
