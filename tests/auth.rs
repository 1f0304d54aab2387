//! The built binary's authorization: beyond loopback it serves nobody unprotected unless told
//! to.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs the binary with `args` for at most a few seconds: whether it exited, and its log.
fn run(args: &[&str]) -> (Option<std::process::ExitStatus>, String) {
    let root = tempfile::tempdir().expect("a temporary directory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-workspace"))
        .args(["--root".as_ref(), root.path().as_os_str()])
        .args(args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut log = String::new();
    while let Ok(line) = received.recv_timeout(Duration::from_secs(10)) {
        log.push_str(&line);
        log.push('\n');
        if line.contains("listening on http://") {
            break;
        }
    }
    if !log.contains("listening on http://") {
        // Its log ended without serving: it is exiting.
        return (Some(child.wait().expect("a status")), log);
    }
    let exited = child.try_wait().expect("a status");
    let _ = child.kill();
    let _ = child.wait();
    (exited, log)
}

#[test]
fn beyond_loopback_it_refuses_to_serve_without_authorization() {
    let (exited, log) = run(&["--http", "0.0.0.0:0"]);
    let status = exited.expect("the server exits at once");
    assert!(!status.success(), "{log}");
    assert!(
        log.contains("refusing to serve 0.0.0.0:0 without authorization")
            && log.contains("--auth-issuer URL --resource URL")
            && log.contains("--unprotected"),
        "{log}"
    );
}

#[test]
fn beyond_loopback_it_serves_unprotected_when_told_to() {
    let (exited, log) = run(&["--http", "0.0.0.0:0", "--unprotected"]);
    assert!(exited.is_none(), "it keeps serving: {log}");
    assert!(log.contains("listening on http://0.0.0.0:"), "{log}");
}

#[test]
fn on_loopback_it_serves_without_authorization() {
    let (exited, log) = run(&["--http", "127.0.0.1:0"]);
    assert!(exited.is_none(), "it keeps serving: {log}");
}
