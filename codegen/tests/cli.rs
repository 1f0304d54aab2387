//! The `mcp-contract` binary: diagnostics and exit codes.

use std::process::Command;

fn check(path: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .arg("check")
        .arg(path)
        .output()
        .expect("the CLI runs")
}

#[test]
fn check_accepts_a_valid_manifest() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/every-feature/tools.yaml"
    ));
    let out = check(path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 tools, valid"));
}

#[test]
fn check_prints_every_diagnostic_and_fails_with_1() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("tools.yaml");
    std::fs::write(
        &path,
        "server: {name: x}\ntools:\n  - name: Bad\n    titel: x\n",
    )
    .expect("written");
    let out = check(&path);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for expected in [
        "error[bad-tool-name]",
        "error[unknown-key]",
        "did you mean `title`?",
        "tools.yaml:3:11",
    ] {
        assert!(
            stderr.contains(expected),
            "{expected} missing from:\n{stderr}"
        );
    }
}

#[test]
fn check_fails_with_2_on_an_unreadable_file() {
    let out = check(std::path::Path::new("/no/such/tools.yaml"));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn schema_prints_the_manifest_schema() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .arg("schema")
        .output()
        .expect("the CLI runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the output is JSON");
    assert_eq!(printed, mcp_contract_codegen::format::manifest_schema());
}
