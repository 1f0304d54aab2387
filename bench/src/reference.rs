//! The reference server's release binary, built by the benchmark that drives it.

use std::path::{Path, PathBuf};

/// The target directory a bench binary runs from: cargo puts it at
/// `<target>/release/deps/NAME-…`.
pub fn target_dir() -> Result<PathBuf, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot locate the bench binary: {e}"))?;
    exe.parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(Path::to_owned)
        .ok_or_else(|| format!("unexpected bench binary location {}", exe.display()))
}

/// Builds `mcp-workspace` in release mode into `target` (the benchmark's own target
/// directory, so that it shares the compiled dependencies) and returns the binary.
pub fn build(target: &Path) -> Result<PathBuf, String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ has a parent");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("building mcp-workspace (cargo build --release --bin mcp-workspace)…");
    let status = std::process::Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "mcp-workspace",
            "--bin",
            "mcp-workspace",
            "--target-dir",
        ])
        .arg(target)
        .current_dir(workspace)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build of mcp-workspace failed ({status})"));
    }
    let binary = target
        .join("release")
        .join(format!("mcp-workspace{}", std::env::consts::EXE_SUFFIX));
    binary
        .is_file()
        .then_some(binary.clone())
        .ok_or_else(|| format!("{} was not built", binary.display()))
}
