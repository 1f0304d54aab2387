//! `mcp-contract init`: the scaffolded crate builds and passes its tests at once, in CI's
//! check mode, against this checkout's crates.

use std::process::Command;

fn init(dir: &std::path::Path, name: &str) -> std::process::Output {
    let checkout = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(["init", name, "--path-deps", checkout, "--dir"])
        .arg(dir)
        .output()
        .expect("the CLI runs")
}

#[test]
fn a_scaffolded_server_builds_and_passes_its_tests() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let dir = parent.path().join("hello-mcp");
    let out = init(&dir, "hello-mcp");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        "Cargo.toml",
        "tools.yaml",
        "build.rs",
        "src/main.rs",
        "README.md",
        "docs/tools.md",
        "tools.schema.json",
    ] {
        assert!(dir.join(file).is_file(), "{file} was not written");
    }
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

    // The workspace's lock file pins the same versions, so the build reuses what it can.
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copied");
    // A target folder of its own, beside the workspace's: the outer cargo holds the lock on
    // the workspace's own.
    let exe = std::env::current_exe().expect("the test binary");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("the target folder")
        .join("scaffold");
    let test = Command::new(env!("CARGO"))
        .arg("test")
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        // Its own copy of every dependency: without debug info it takes half the disk.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CI", "true")
        .output()
        .expect("cargo runs");
    let log =
        String::from_utf8_lossy(&test.stderr).into_owned() + &String::from_utf8_lossy(&test.stdout);
    assert!(test.status.success(), "the scaffolded crate failed:\n{log}");
    assert!(log.contains("test tests::contract ... ok"), "{log}");
}

#[test]
fn init_refuses_a_bad_name_and_a_folder_in_use() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let out = init(&parent.path().join("x"), "1bad name");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a valid crate name"));
    std::fs::write(parent.path().join("keep.txt"), "mine").expect("written");
    let out = init(parent.path(), "fine");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists and is not empty"));
    assert_eq!(
        std::fs::read_to_string(parent.path().join("keep.txt")).expect("kept"),
        "mine"
    );
}
