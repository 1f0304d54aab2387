//! What the reference server's integration tests share: a workspace with a secret beside it,
//! an in-process client, and the built binary spoken to over stdio.

// Each test crate includes this module and uses part of it.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};

use mcp_contract::testing::{Client, Revision, connect};
use mcp_workspace::{Workspace, contract};
use serde_json::{Value, json};

/// What `secret.txt`, beside the workspace, holds; no call may read or change it.
pub const SECRET: &str = "TOP SECRET\n";

/// A workspace `ws` in a temporary directory, with `secret.txt` beside it.
pub struct Fixture {
    _outer: tempfile::TempDir,
    pub root: PathBuf,
    pub secret: PathBuf,
}

impl Fixture {
    /// The workspace holding `files`, each a workspace-relative path (its directories
    /// created) and its contents.
    pub fn with(files: &[(&str, &[u8])]) -> Fixture {
        let outer = tempfile::tempdir().expect("a temporary directory");
        let secret = outer.path().join("secret.txt");
        std::fs::write(&secret, SECRET).expect("written");
        let root = outer.path().join("ws");
        std::fs::create_dir_all(&root).expect("created");
        for (path, contents) in files {
            let path = root.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("created");
            }
            std::fs::write(path, contents).expect("written");
        }
        Fixture {
            _outer: outer,
            root,
            secret,
        }
    }
}

/// A client connected in process to the reference server on `fixture`'s workspace.
pub async fn client(fixture: &Fixture, revision: Revision) -> Client {
    let workspace = Workspace::open(&fixture.root).expect("the workspace opens");
    connect(contract::server(workspace), revision)
        .await
        .expect("connected")
}

/// How long a test waits for the server's next line before it fails, rather than hang.
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// The built server binary as a child process, and the two ends of its stdio. Dropping it
/// kills the process.
pub struct Server {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    /// The lines of its stdout, read on a thread of their own so a wait can end.
    stdout: mpsc::Receiver<String>,
}

impl Server {
    /// The server on `root`.
    pub fn start(root: &Path) -> Server {
        Server::start_with(Command::new(env!("CARGO_BIN_EXE_mcp-workspace")), root)
    }

    /// The server on `root` as `command` runs it, the binary being its program or its last
    /// argument.
    pub fn start_with(mut command: Command, root: &Path) -> Server {
        let mut child = command
            .args(["--root".as_ref(), root.as_os_str()])
            .env("RUST_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server binary starts");
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let (send, stdout) = mpsc::channel();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            stdout,
        }
    }

    /// Writes one JSON-RPC message as a line.
    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// Writes `line` and a newline, whatever `line` holds.
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("written");
        stdin.flush().expect("flushed");
    }

    /// Reads the next line the server writes.
    ///
    /// # Panics
    ///
    /// When the server closes stdout, or writes nothing for a minute.
    pub fn next_message(&mut self) -> Value {
        let line = match self.stdout.recv_timeout(ANSWER_WAIT) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no answer within {ANSWER_WAIT:?}"),
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the server closed stdout"),
        };
        serde_json::from_str(&line).expect("every stdout line is JSON-RPC")
    }

    /// Reads lines until the response to request `id` arrives.
    pub fn response(&mut self, id: u64) -> Value {
        loop {
            let message = self.next_message();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(id)
    }

    /// SIGKILL on Unix (TerminateProcess on Windows): no destructor, no cleanup runs.
    pub fn kill(mut self) {
        self.child.kill().expect("killed");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The built binary serving HTTP on a free loopback port for the workspace `root`, with
/// `extra` flags; killed when dropped.
pub struct HttpServer {
    pub child: Child,
    pub addr: SocketAddr,
    /// Everything it logged so far.
    pub log: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Logging at `info`.
    pub fn start(root: &Path, extra: &[&str]) -> HttpServer {
        HttpServer::start_logging(root, extra, "info")
    }

    /// Logging at `level` (`RUST_LOG`).
    pub fn start_logging(root: &Path, extra: &[&str], level: &str) -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
            .args(["--root".as_ref(), root.as_os_str()])
            .args(["--http", "127.0.0.1:0"])
            .args(extra)
            .env("RUST_LOG", level)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let log = Arc::new(Mutex::new(String::new()));
        let mut addr = None;
        for line in lines.by_ref().map_while(Result::ok) {
            log.lock().unwrap().push_str(&format!("{line}\n"));
            if let Some(at) = line.split("listening on http://").nth(1) {
                addr = at.split_whitespace().next().and_then(|a| a.parse().ok());
                break;
            }
        }
        let addr =
            addr.unwrap_or_else(|| panic!("the server did not start: {}", log.lock().unwrap()));
        // Keep reading the log, so the server never blocks on a full pipe.
        let kept = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        HttpServer { child, addr, log }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
