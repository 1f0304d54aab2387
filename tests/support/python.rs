//! The official MCP Python SDK, for the tests that drive the reference server with it: a
//! virtual environment in the target folder, made on first use.

use std::path::PathBuf;
use std::process::Command;

use crate::prerequisite;

/// The Python SDK's version: its behaviour changes between releases, so it is pinned.
pub const PYTHON_SDK: &str = "mcp==2.3.0";

/// A Python with the official MCP SDK, installed into the target folder on first use.
pub fn python_sdk() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let venv = exe
        .ancestors()
        .nth(3)
        .expect("the target folder")
        .join("python/mcp-sdk");
    let python = venv.join("bin/python");
    let installed = venv.join(format!("{PYTHON_SDK}.installed"));
    if !installed.is_file() {
        prerequisite::require("python3");
        let created = Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv)
            .output()
            .expect("python3 runs");
        // Debian's python3 lacks the module until `python3-venv` is installed.
        if !created.status.success() {
            prerequisite::missing("python3 -m venv");
        }
        let pip = Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(PYTHON_SDK)
            .output()
            .expect("pip runs");
        assert!(
            pip.status.success(),
            "pip install {PYTHON_SDK} failed: {}",
            String::from_utf8_lossy(&pip.stderr)
        );
        std::fs::write(&installed, "").expect("the marker is written");
    }
    python
}
