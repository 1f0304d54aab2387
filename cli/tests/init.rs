//! `mcp-contract init` as a new user meets it: outside this workspace, with every dependency
//! mode that works offline (a checkout given by path, a git repository), and inside someone
//! else's workspace. Each scaffold must build and pass its own tests in CI's check mode.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../tests/prerequisite/mod.rs"]
mod prerequisite;

/// This repository's root.
fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the checkout")
}

fn init(dir: &Path, name: &str, mode: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(["init", name, "--dir"])
        .arg(dir)
        .args(mode)
        .output()
        .expect("the CLI runs")
}

#[track_caller]
fn succeeded(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// Runs `cargo test` in the scaffold as CI would, and checks its tests ran and passed.
#[track_caller]
fn passes_its_tests(dir: &Path) {
    // The workspace's lock file pins the same versions, so the build reuses what it can.
    std::fs::copy(checkout().join("Cargo.lock"), dir.join("Cargo.lock")).expect("copied");
    // One target folder for every scaffold, beside the workspace's (the outer cargo holds the
    // workspace's own lock): the dependencies are built once.
    let exe = std::env::current_exe().expect("the test binary");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("the target folder")
        .join("scaffold");
    let test = Command::new(env!("CARGO"))
        .arg("test")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        // Its own copy of every dependency: without debug info it takes half the disk.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CI", "true")
        .output()
        .expect("cargo runs");
    let log =
        String::from_utf8_lossy(&test.stderr).into_owned() + &String::from_utf8_lossy(&test.stdout);
    assert!(test.status.success(), "the scaffolded crate failed:\n{log}");
    assert!(log.contains("test contract ... ok"), "{log}");
    assert!(
        log.contains("test tests::greets_and_refuses_an_empty_name ... ok"),
        "{log}"
    );
}

#[test]
fn a_scaffold_on_a_checkout_builds_names_it_relatively_and_passes_its_tests() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let dir = parent.path().join("hello-mcp");
    succeeded(&init(
        &dir,
        "hello-mcp",
        &["--path", checkout().to_str().expect("UTF-8")],
    ));
    for file in [
        "Cargo.toml",
        "tools.yaml",
        "build.rs",
        "src/lib.rs",
        "src/main.rs",
        "tests/contract.rs",
        "README.md",
        "docs/tools.md",
        "tools.schema.json",
    ] {
        assert!(dir.join(file).is_file(), "{file} was not written");
    }
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable");
    let runtime = cargo
        .lines()
        .find(|l| l.starts_with("mcp-contract = "))
        .expect("the runtime dependency");
    let path = runtime.split('"').nth(1).expect("a quoted path");
    assert!(path.starts_with("../"), "a relative path: {runtime}");
    assert_eq!(
        dir.join(path).canonicalize().expect("it resolves"),
        checkout().join("runtime")
    );
    assert!(!cargo.contains("[workspace]"), "{cargo}");
    let build_rs = std::fs::read_to_string(dir.join("build.rs")).expect("readable");
    assert_eq!(
        build_rs.lines().count(),
        3,
        "a three-line build.rs:\n{build_rs}"
    );
    assert!(
        std::fs::read_to_string(dir.join("README.md"))
            .expect("readable")
            .contains("| `greet` | Greet someone |")
    );
    passes_its_tests(&dir);
}

#[test]
fn a_scaffold_on_a_git_repository_builds_and_passes_its_tests() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    // A clone stands for the remote repository: its committed state is what a user fetches.
    let repo = parent.path().join("mcp-contract.git");
    prerequisite::require("git");
    let clone = Command::new("git")
        .args(["clone", "--quiet", "--bare"])
        .arg(checkout())
        .arg(&repo)
        .output()
        .expect("git runs");
    assert!(
        clone.status.success(),
        "{}",
        String::from_utf8_lossy(&clone.stderr)
    );
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(&repo)
        .output()
        .expect("git runs");
    let rev = String::from_utf8_lossy(&head.stdout).trim().to_owned();
    let url = format!("file://{}", repo.display());
    let dir = parent.path().join("from-git");
    succeeded(&init(&dir, "from-git", &["--git", &url, "--rev", &rev]));
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable");
    assert!(
        cargo.contains(&format!(
            "mcp-contract = {{ git = \"{url}\", rev = \"{rev}\" }}"
        )),
        "{cargo}"
    );
    passes_its_tests(&dir);
}

#[test]
fn a_scaffold_inside_another_workspace_builds_on_its_own_and_says_so() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        parent.path().join("Cargo.toml"),
        "[workspace]\nmembers = []\nresolver = \"3\"\n",
    )
    .expect("written");
    let dir = parent.path().join("tools").join("inner");
    let stderr = succeeded(&init(
        &dir,
        "inner",
        &["--path", checkout().to_str().expect("UTF-8")],
    ));
    assert!(
        stderr.contains("is inside the Cargo workspace of"),
        "{stderr}"
    );
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable");
    assert!(cargo.trim_end().ends_with("[workspace]"), "{cargo}");
    passes_its_tests(&dir);
}

#[test]
fn by_default_a_scaffold_names_this_version_of_the_published_crates() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let dir = parent.path().join("published");
    succeeded(&init(&dir, "published", &[]));
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        cargo.contains(&format!("mcp-contract = {{ version = \"{version}\" }}")),
        "{cargo}"
    );
    assert!(
        cargo.contains(&format!(
            "mcp-contract-codegen = {{ version = \"{version}\" }}"
        )),
        "{cargo}"
    );
}

#[test]
fn init_refuses_a_bad_name_a_folder_in_use_and_a_path_that_is_no_checkout() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let out = init(&parent.path().join("x"), "1bad name", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a valid crate name"));
    std::fs::write(parent.path().join("keep.txt"), "mine").expect("written");
    let out = init(parent.path(), "fine", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists and is not empty"));
    assert_eq!(
        std::fs::read_to_string(parent.path().join("keep.txt")).expect("kept"),
        "mine"
    );
    let out = init(
        &parent.path().join("y"),
        "fine",
        &["--path", "/no/such/checkout"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a checkout of mcp-contract"));
}
