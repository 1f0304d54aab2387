//! The README's quick start, built and tested exactly as written: every code block marked
//! `<!-- quickstart: PATH -->` is written to PATH in a new crate beside a checkout named
//! `mcp-contract`, as the README tells a new user to lay them out.

use std::path::Path;
use std::process::Command;

/// The files the README's quick start gives, in order.
fn quickstart_files(readme: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut rest = readme;
    while let Some(at) = rest.find("<!-- quickstart: ") {
        rest = &rest[at + "<!-- quickstart: ".len()..];
        let (path, after) = rest.split_once(" -->").expect("a closed marker");
        let fence = after.find("```").expect("a code block after the marker");
        let body = &after[fence..];
        let start = body.find('\n').expect("a fence line") + 1;
        let end = body[start..].find("\n```").expect("a closed code block") + start;
        files.push((path.trim().to_owned(), format!("{}\n", &body[start..end])));
        rest = &body[end..];
    }
    files
}

#[test]
fn the_readme_quick_start_builds_and_passes_its_tests_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let files = quickstart_files(&readme);
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "Cargo.toml",
            "tools.yaml",
            "build.rs",
            "src/lib.rs",
            "src/main.rs",
            "tests/contract.rs"
        ]
    );

    let parent = tempfile::tempdir().expect("a temporary directory");
    std::os::unix::fs::symlink(root, parent.path().join("mcp-contract")).expect("linked");
    let dir = parent.path().join("notes");
    for (path, text) in &files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("created");
        std::fs::write(path, text).expect("written");
    }
    // The workspace's lock file pins the same versions, so the build reuses what it can.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copied");
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
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CI", "true")
        .output()
        .expect("cargo runs");
    let log =
        String::from_utf8_lossy(&test.stderr).into_owned() + &String::from_utf8_lossy(&test.stdout);
    assert!(test.status.success(), "the quick start failed:\n{log}");
    assert!(log.contains("test contract ... ok"), "{log}");
}
