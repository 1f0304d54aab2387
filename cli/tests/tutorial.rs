//! `docs/tutorial.md`, run as written: its steps become one bash script, in order (a
//! `<!-- tutorial: file PATH -->` block is written to PATH, a `<!-- tutorial: run -->` block
//! is run, a `<!-- tutorial: run, fails -->` block must fail, and each line of a
//! `<!-- tutorial: output -->` block must be printed by then), in an empty folder holding a
//! checkout of this repository named `mcp-contract`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

#[path = "../../tests/prerequisite/mod.rs"]
mod prerequisite;

/// The tutorial as a bash script, and the lines it says the commands print.
fn script(tutorial: &str) -> (String, Vec<String>) {
    let mut printed = Vec::new();
    let mut out = String::from("set -euo pipefail\n");
    let mut rest = tutorial;
    let mut steps = 0;
    while let Some(at) = rest.find("<!-- tutorial: ") {
        rest = &rest[at + "<!-- tutorial: ".len()..];
        let (step, after) = rest.split_once(" -->").expect("a closed marker");
        let fence = after.find("```").expect("a code block after the marker");
        let body = &after[fence..];
        let start = body.find('\n').expect("a fence line") + 1;
        let end = body[start..].find("\n```").expect("a closed code block") + start;
        let code = &body[start..end];
        steps += 1;
        let _ = writeln!(out, "echo '--- step {steps}: {step}' >&2");
        match step.trim() {
            "run" => {
                let _ = writeln!(out, "{code}");
            }
            "output" => printed.extend(code.lines().map(str::to_owned)),
            "run, fails" => {
                let _ = writeln!(
                    out,
                    "if ( {code}\n); then echo 'step {steps} was expected to fail' >&2; exit 1; fi"
                );
            }
            file => {
                let path = file.strip_prefix("file ").expect("run or file PATH");
                let _ = writeln!(
                    out,
                    "mkdir -p \"$(dirname '{path}')\"\ncat > '{path}' <<'TUTORIAL_EOF'\n{code}\nTUTORIAL_EOF"
                );
            }
        }
        rest = &body[end..];
    }
    assert!(steps > 10, "the tutorial's steps were not found");
    (out, printed)
}

#[test]
fn the_tutorial_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the checkout");
    let tutorial = std::fs::read_to_string(root.join("docs/tutorial.md")).expect("the tutorial");
    // What the tutorial's commands run besides cargo and its own command.
    for program in ["bash", "git", "curl"] {
        prerequisite::require(program);
    }
    let folder = tempfile::tempdir().expect("a temporary directory");
    std::os::unix::fs::symlink(&root, folder.path().join("mcp-contract")).expect("linked");
    // The workspace's lock file pins the versions the tutorial's crate builds with.
    let (script, printed) = script(&tutorial);
    let script = script.replace(
        "mcp-contract init notes --path mcp-contract\ncd notes\n",
        "mcp-contract init notes --path mcp-contract\ncd notes\ncp ../mcp-contract/Cargo.lock .\n",
    );
    // One target folder for every crate these tests build, beside the workspace's.
    let exe = std::env::current_exe().expect("the test binary");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("the target folder")
        .join("scaffold");
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(folder.path())
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env_remove("CI")
        .output()
        .expect("bash runs");
    let log =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the tutorial failed:\n{log}\n\nThe script:\n{script}"
    );
    // The HTTP step found the tool in the list, and the output the tutorial shows is real.
    assert!(log.contains("\"name\":\"add_note\""), "{log}");
    for line in printed {
        assert!(
            log.contains(&line),
            "the tutorial shows `{line}`, which was not printed:\n{log}"
        );
    }
}
