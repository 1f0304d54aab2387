//! `mcp-contract diff`: exit codes and `--against` on a real git repository.

use std::path::Path;
use std::process::{Command, Output};

use diff_base::{BASE, PONG, edit};

#[path = "../../codegen/tests/common/diff_base.rs"]
mod diff_base;
#[path = "../../tests/prerequisite/mod.rs"]
mod prerequisite;

fn run(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-contract"));
    cmd.arg("diff").args(args);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.output().expect("the CLI runs")
}

fn files(old: &str, new: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (o, n) = (dir.path().join("old.yaml"), dir.path().join("new.yaml"));
    std::fs::write(&o, old).expect("written");
    std::fs::write(&n, new).expect("written");
    let s = |p: std::path::PathBuf| p.to_string_lossy().into_owned();
    (dir, s(o), s(n))
}

#[track_caller]
fn exit(out: &Output, code: i32) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn cli_exits_0_without_breaking_changes() {
    let (_dir, old, new) = files(BASE, &format!("{BASE}{PONG}"));
    let stdout = exit(&run(None, &[&old, &new]), 0);
    assert!(stdout.contains("TOOL_ADDED"), "{stdout}");
    assert!(
        stdout.contains("0 breaking, 1 compatible change; the contract needs a minor version bump"),
        "{stdout}"
    );
}

#[test]
fn cli_exits_3_on_a_breaking_change_and_0_once_it_is_allowed() {
    let (_dir, old, new) = files(BASE, &edit("[text, bytes]", "[text]"));
    let stdout = exit(&run(None, &[&old, &new]), 3);
    assert!(
        stdout.contains("new.yaml:23:7: breaking: ENUM_VALUE_NO_DELETE"),
        "{stdout}"
    );
    let stdout = exit(
        &run(
            None,
            &[
                &old,
                &new,
                "--allow",
                "ENUM_VALUE_NO_DELETE",
                "--format",
                "json",
            ],
        ),
        0,
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json["changes"][0]["allowed"], true);
    assert_eq!(json["summary"]["bump"], "major");
}

#[test]
fn cli_exits_2_on_usage_and_load_errors() {
    let (_dir, old, new) = files(BASE, "server: {name: x}\ntools:\n  - name: Bad\n");
    let out = run(None, &[&old, &new]);
    exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[bad-tool-name]"));
    exit(&run(None, &[&old]), 2);
    exit(&run(None, &[&old, &old, "--allow", "NO_SUCH_RULE"]), 2);
    exit(&run(None, &[&old, "/no/such/tools.yaml"]), 2);
    exit(&run(None, &[&old, &old, "--format", "xml"]), 2);
}

fn git(dir: &Path, args: &[&str]) {
    prerequisite::require("git");
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cli_compares_against_a_git_revision() {
    let repo = tempfile::tempdir().expect("a temporary directory");
    let root = repo.path();
    let sub = root.join("server");
    std::fs::create_dir(&sub).expect("created");
    git(root, &["init", "-q"]);
    git(root, &["config", "user.name", "Test"]);
    git(root, &["config", "user.email", "test@example.com"]);
    std::fs::write(sub.join("tools.yaml"), BASE).expect("written");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "contract"]);
    let ping_at = BASE.find("  - name: ping").expect("ping is in BASE");
    std::fs::write(sub.join("tools.yaml"), &BASE[..ping_at]).expect("written");

    // From the root, naming the manifest by its path.
    let stdout = exit(
        &run(Some(root), &["--against", "HEAD", "server/tools.yaml"]),
        3,
    );
    assert!(
        stdout.contains("server/tools.yaml:57:11: breaking: TOOL_NO_DELETE"),
        "{stdout}"
    );
    // From the manifest's directory, with the default path.
    let stdout = exit(
        &run(Some(&sub), &["--against", "HEAD", "--format", "github"]),
        3,
    );
    assert!(
        stdout.contains(
            "::error file=tools.yaml,line=57,col=11,title=TOOL_NO_DELETE::tool `ping` was removed"
        ),
        "{stdout}"
    );
    // A revision that does not exist is a usage error.
    exit(&run(Some(&sub), &["--against", "no-such-rev"]), 2);
}

/// The pull request that first adds `tools.yaml` breaks no one: every tool is reported as
/// added and the run passes, even when the manifest declares groups (routes that move only
/// for clients of an earlier contract).
#[test]
fn cli_against_a_revision_without_the_manifest_reports_a_first_contract() {
    let repo = tempfile::tempdir().expect("a temporary directory");
    let root = repo.path();
    git(root, &["init", "-q"]);
    git(root, &["config", "user.name", "Test"]);
    git(root, &["config", "user.email", "test@example.com"]);
    std::fs::write(root.join("README.md"), "before the contract\n").expect("written");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "start"]);
    let grouped = format!(
        "{}groups:\n  all:\n    description: Everything.\n",
        BASE.replace(
            "    errors: [not_found, too_big]\n",
            "    errors: [not_found, too_big]\n    groups: [all]\n"
        )
        .replace(
            "    output: text\n",
            "    output: text\n    groups: [all]\n"
        )
    );
    std::fs::write(root.join("tools.yaml"), grouped).expect("written");
    let out = run(Some(root), &["--against", "HEAD"]);
    let stdout = exit(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("does not exist at `HEAD`: every tool is new"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.matches("compatible: TOOL_ADDED").count(),
        2,
        "{stdout}"
    );
    assert!(!stdout.contains("ROUTES_NO_CHANGE"), "{stdout}");
    assert!(stdout.contains("needs a minor version bump"), "{stdout}");
}
