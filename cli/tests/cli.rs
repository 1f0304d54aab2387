//! The `mcp-contract` binary: diagnostics and exit codes.

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Runs `mcp-contract` with `args`.
fn run<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(args)
        .output()
        .expect("the CLI runs")
}

fn check(path: &std::path::Path) -> Output {
    run([OsStr::new("check"), path.as_os_str()])
}

/// `show … --manifest` on the reference server's manifest.
fn show(args: &[&str]) -> Output {
    let manifest = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../tools.yaml"));
    run(args
        .iter()
        .map(OsStr::new)
        .chain([OsStr::new("--manifest"), manifest.as_os_str()]))
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("10 tools, valid"));
}

#[test]
fn check_warns_of_an_entry_past_its_removal_window_on_the_day_given() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("tools.yaml");
    std::fs::write(
        &path,
        "server: {name: x}\ntools:\n  - name: ping\n    title: Ping\n    description: Pong.\n    \
         hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    output: text\n    \
         deprecated: {reason: Unused., remove_after: 2027-06-30}\n",
    )
    .expect("written");
    for (today, warned) in [("2027-06-30", false), ("2027-07-01", true)] {
        let out = run([
            OsStr::new("check"),
            path.as_os_str(),
            OsStr::new("--today"),
            OsStr::new(today),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(
            stderr.contains("warning[past-removal]: the tool `ping` may be removed"),
            warned,
            "{today}: {stderr}"
        );
    }
}

#[test]
fn check_counts_one_tool_in_the_singular() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("tools.yaml");
    std::fs::write(
        &path,
        "server: {name: x}\ntools:\n  - name: ping\n    title: Ping\n    description: Pong.\n    \
         hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n    output: text\n",
    )
    .expect("written");
    let out = check(&path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("tools.yaml: 1 tool, valid"));
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
    let out = run(["schema"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the output is JSON");
    assert_eq!(printed, mcp_contract_codegen::editor_schema());
}

/// `show` prints what the running reference server answers: the same JSON as the server's own
/// `tools/list` snapshots, so the CLI cannot disagree with the wire.
#[test]
fn show_prints_the_wire_the_server_publishes() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    for revision in mcp_contract_codegen::Revision::ALL.map(|r| r.as_str()) {
        let out = show(&["show", "--revision", revision]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shown: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let snapshot = std::fs::read_to_string(root.join(format!(
            "tests/snapshots/contract__tools_list_{revision}.snap"
        )))
        .expect("the server's snapshot");
        let body = snapshot.splitn(3, "---\n").nth(2).expect("an insta body");
        let mut served: serde_json::Value = serde_json::from_str(body).expect("JSON");
        // A 2026-07-28 result also names the running server in `_meta`, with its crate's
        // version, which the manifest does not state; everything else is the contract's.
        if let Some(result) = served.as_object_mut() {
            result.remove("_meta");
        }
        assert_eq!(shown, served, "{revision}");
    }
    let one = show(&["show", "read_file"]);
    let tool: serde_json::Value = serde_json::from_slice(&one.stdout).expect("JSON");
    assert_eq!(tool["name"], "read_file");
    let missing = show(&["show", "nope"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr)
            .contains("its tools are: list_directory, read_file, search_text")
    );
}

#[test]
fn generate_prints_what_the_build_writes_and_fails_with_1_on_errors() {
    let manifest = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/every-feature/tools.yaml"
    ));
    let text = std::fs::read_to_string(manifest).expect("the fixture");
    // The CLI names the manifest by the path it was given, and so does the generated header.
    let source = mcp_contract_codegen::Source::new(manifest.to_string_lossy(), text)
        .with_dir(manifest.parent().expect("a folder"));
    let contract = mcp_contract_codegen::load(&source).expect("valid").contract;
    for (what, expected) in [
        ("rust", contract.rust_module()),
        ("table", contract.readme_table()),
        ("reference", contract.reference()),
    ] {
        let out = run([
            OsStr::new("generate"),
            OsStr::new(what),
            OsStr::new("--manifest"),
            manifest.as_os_str(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout) == expected,
            "{what} differs"
        );
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("tools.yaml");
    std::fs::write(&bad, "server: {name: x}\ntools:\n  - name: Bad\n").expect("written");
    let out = run([
        OsStr::new("generate"),
        OsStr::new("--manifest"),
        bad.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[bad-tool-name]"));
    assert!(out.stdout.is_empty());
}

/// The manifest reference shows one published tool in full; it is what `show` prints for it
/// (on 2026-07-28), so the example cannot drift from the wire.
#[test]
fn the_reference_shows_the_tool_object_show_prints() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let doc = std::fs::read_to_string(root.join("docs/manifest.md")).expect("the reference");
    let section = doc
        .split("\n## 22. What is published for a tool")
        .nth(1)
        .expect("the section");
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```\n").next())
        .expect("a JSON block");
    let documented: serde_json::Value = serde_json::from_str(block).expect("JSON");
    let out = show(&["show", "list_directory", "--revision", "2026-07-28"]);
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        documented, shown,
        "refresh docs/manifest.md §22 with `mcp-contract show list_directory`"
    );
}
