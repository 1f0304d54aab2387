//! `mcp-contract check --profile` and `show` with `shared_types: defs`, end to end.

use std::ffi::OsStr;
use std::process::{Command, Output};

fn run<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(args)
        .output()
        .expect("the CLI runs")
}

/// A manifest whose tool name (line 4, column 11) Gemini CLI would cut, with `server` lines
/// after the name.
fn manifest(dir: &tempfile::TempDir, server: &str) -> std::path::PathBuf {
    let path = dir.path().join("tools.yaml");
    let name = "a".repeat(64);
    std::fs::write(
        &path,
        format!(
            "server:\n  name: x\n{server}tools:\n  - name: {name}\n    title: Long\n    description: Long.\n    \
             hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n    output: text\n"
        ),
    )
    .expect("written");
    path
}

fn check(path: &std::path::Path, profiles: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![OsStr::new("check"), path.as_os_str()];
    for p in profiles {
        args.extend([OsStr::new("--profile"), OsStr::new(p)]);
    }
    let out = run(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_profile_warns_and_passes_strict_fails_and_without_one_says_nothing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = manifest(&dir, "");
    let (code, err) = check(&path, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");

    let (code, err) = check(&path, &["gemini"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "warning[portable-name-length]: the tool name `{}` has 64 characters\n --> {}:4:11\n",
            "a".repeat(64),
            path.display()
        )),
        "{err}"
    );
    assert!(err.contains("gemini: Gemini CLI cuts a tool name"), "{err}");
    assert!(err.ends_with("1 tool, valid\n"), "{err}");

    // Repeatable: each profile adds its client's lints.
    let (code, err) = check(&path, &["gemini", "claude"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("warning[portable-prefixed-name]"), "{err}");

    let (code, err) = check(&path, &["gemini", "strict"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error[portable-name-length]"), "{err}");
    assert!(err.contains("due to 1 previous error"), "{err}");
}

#[test]
fn the_manifests_own_profiles_are_checked_and_an_unknown_flag_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = manifest(&dir, "  profiles: [gemini]\n");
    let (code, err) = check(&path, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("warning[portable-name-length]"), "{err}");
    let (code, err) = check(&path, &["strict"]);
    assert_eq!(code, Some(1), "{err}");

    let (code, err) = check(&path, &["vscode"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("`vscode` is not a profile; the profiles are `claude`, `copilot`"),
        "{err}"
    );
}

#[test]
fn show_prints_the_defs_a_manifest_publishes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("tools.yaml");
    std::fs::write(
        &path,
        "server:\n  name: x\n  shared_types: defs\ntypes:\n  Entry:\n    type: object\n    description: One entry.\n    \
         properties:\n      path: {type: string, description: Its path.}\ntools:\n  - name: compare\n    title: Compare\n    \
         description: Compares.\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    \
         parameters:\n      left: {type: Entry, description: The first entry., example: {path: a.txt}}\n    output: text\n",
    )
    .expect("written");
    let out = run([
        OsStr::new("show"),
        OsStr::new("compare"),
        OsStr::new("--manifest"),
        path.as_os_str(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tool: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        tool["inputSchema"]["properties"]["left"],
        serde_json::json!({"$ref": "#/$defs/Entry", "description": "The first entry.", "examples": [{"path": "a.txt"}]})
    );
    assert_eq!(
        tool["inputSchema"]["$defs"]["Entry"]["description"],
        "One entry."
    );
}
