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

#[test]
fn cli_judges_a_removal_window_on_the_day_it_is_given() {
    let deprecated = edit(
        "    output: text\n",
        "    output: text\n    deprecated: {reason: Read a file., remove_after: 2027-06-30}\n",
    );
    let ping_at = BASE.find("  - name: ping").expect("ping is in BASE");
    let (_dir, old, new) = files(&deprecated, &BASE[..ping_at]);
    let stdout = exit(&run(None, &[&old, &new, "--today", "2027-06-30"]), 3);
    assert!(
        stdout.contains(
            "breaking: TOOL_NO_DELETE tool `ping` was removed before its `remove_after` (2027-06-30)"
        ),
        "{stdout}"
    );
    let stdout = exit(&run(None, &[&old, &new, "--today", "2027-07-01"]), 0);
    assert!(
        stdout.contains("compatible: REMOVED_AFTER_WINDOW tool `ping` was removed; it was deprecated, and its `remove_after` (2027-06-30) has passed"),
        "{stdout}"
    );
    exit(&run(None, &[&old, &new, "--today", "tomorrow"]), 2);
}

/// A workspace whose server crate takes its version from the root, with a registry file.
fn versioned_repo(version: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("a temporary directory");
    let root = repo.path();
    let sub = root.join("server");
    std::fs::create_dir_all(sub.join("dist")).expect("created");
    git(root, &["init", "-q"]);
    git(root, &["config", "user.name", "Test"]);
    git(root, &["config", "user.email", "test@example.com"]);
    set_version(root, version);
    std::fs::write(
        sub.join("Cargo.toml"),
        "[package]\nname = \"server\"\nversion.workspace = true\n",
    )
    .expect("written");
    std::fs::write(sub.join("tools.yaml"), BASE).expect("written");
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "contract"]);
    repo
}

fn set_version(root: &Path, version: &str) {
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[workspace]\nmembers = [\"server\"]\n\n[workspace.package]\nversion = \"{version}\"\n"
        ),
    )
    .expect("written");
    std::fs::write(
        root.join("server/dist/server.json"),
        format!("{{\"name\": \"io.github.x/server\", \"version\": \"{version}\"}}\n"),
    )
    .expect("written");
}

#[test]
fn cli_checks_that_the_version_moved_as_far_as_the_changes_need() {
    let repo = versioned_repo("1.4.2");
    let (root, sub) = (repo.path(), repo.path().join("server"));
    let ping_at = BASE.find("  - name: ping").expect("ping is in BASE");
    std::fs::write(sub.join("tools.yaml"), &BASE[..ping_at]).expect("written");
    let check = ["--against", "HEAD", "--check-version"];

    // A breaking change without its bump fails, naming the files, the versions and the bump.
    set_version(root, "1.5.0");
    let out = run(Some(&sub), &check);
    exit(&out, 4);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("version: `../Cargo.toml` 1.4.2 → 1.5.0"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: `../Cargo.toml` states 1.5.0 (was 1.4.2), but the changes need a major bump, to 2.0.0 at least"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`dist/server.json` states 1.5.0"),
        "{stderr}"
    );

    // With it, the breaking change is accepted without --allow.
    set_version(root, "2.0.0");
    let stdout = exit(&run(Some(&sub), &check), 0);
    assert!(stdout.contains("allowed: TOOL_NO_DELETE"), "{stdout}");

    // Below 1.0.0 a breaking change moves the minor version.
    let repo = versioned_repo("0.3.1");
    let (root, sub) = (repo.path(), repo.path().join("server"));
    std::fs::write(sub.join("tools.yaml"), &BASE[..ping_at]).expect("written");
    set_version(root, "0.3.2");
    let out = run(Some(&sub), &check);
    exit(&out, 4);
    assert!(String::from_utf8_lossy(&out.stderr).contains("to 0.4.0 at least"));
    set_version(root, "0.4.0");
    exit(&run(Some(&sub), &check), 0);

    // An addition needs a minor bump; a description a patch.
    let repo = versioned_repo("1.4.2");
    let (root, sub) = (repo.path(), repo.path().join("server"));
    std::fs::write(sub.join("tools.yaml"), format!("{BASE}{PONG}")).expect("written");
    set_version(root, "1.4.3");
    exit(&run(Some(&sub), &check), 4);
    set_version(root, "1.5.0");
    exit(&run(Some(&sub), &check), 0);
    std::fs::write(
        sub.join("tools.yaml"),
        edit("Answers pong.", "Answers pong, always."),
    )
    .expect("written");
    set_version(root, "1.4.2");
    exit(&run(Some(&sub), &check), 4);
    set_version(root, "1.4.3");
    exit(&run(Some(&sub), &check), 0);

    // A folder the base has and the working tree lost (here `dist/`) is read at the base.
    std::fs::remove_dir_all(sub.join("dist")).expect("removed");
    let out = run(Some(&sub), &check);
    exit(&out, 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("version: `../Cargo.toml` 1.4.2 → 1.4.3"),
        "{stderr}"
    );
    assert!(!stderr.contains("server.json"), "{stderr}");
}

#[test]
fn cli_checks_the_version_a_manifest_publishes_in_place_of_the_crate_s() {
    let repo = versioned_repo("1.4.2");
    let (root, sub) = (repo.path(), repo.path().join("server"));
    let stated =
        |v: &str| BASE.replace("  name: demo\n", &format!("  name: demo\n  version: {v}\n"));
    // The manifest states the version clients see; the crate's moved, the published one did not.
    std::fs::write(sub.join("tools.yaml"), format!("{}{PONG}", stated("1.4.2"))).expect("written");
    set_version(root, "1.5.0");
    let check = ["--against", "HEAD", "--check-version"];
    let out = run(Some(&sub), &check);
    exit(&out, 4);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("version: `tools.yaml` `server.version` 1.4.2 → 1.4.2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: `tools.yaml` `server.version` states 1.4.2 (was 1.4.2), but the changes need a minor bump, to 1.5.0 at least"),
        "{stderr}"
    );
    std::fs::write(sub.join("tools.yaml"), format!("{}{PONG}", stated("1.5.0"))).expect("written");
    exit(&run(Some(&sub), &check), 0);

    // Once stated at the base too, it is held against its own earlier value.
    git(root, &["commit", "-qam", "1.5.0"]);
    std::fs::write(sub.join("tools.yaml"), stated("1.5.1")).expect("written");
    set_version(root, "2.0.0");
    let out = run(Some(&sub), &check);
    exit(&out, 4);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`server.version` states 1.5.1 (was 1.5.0), but the changes need a major bump, to 2.0.0 at least"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
