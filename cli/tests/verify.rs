//! `mcp-contract verify`, `import` and `diff --against url:|stdio:` against running servers:
//! the notes server of fixtures/foreign/ written with the official Python and TypeScript SDKs
//! (each faithful, and a broken copy with eight planted defects), the reference server and the
//! conformance fixture, over stdio and streamable HTTP.
//!
//! The SDKs come from their registries on first use, into the target folder. The reference
//! server's and the conformance fixture's binaries are the workspace's own, which
//! `cargo test --workspace` builds before any test runs.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use mcp_contract::testing::auth::TestIssuer;
use serde_json::Value;

#[path = "../../tests/prerequisite/mod.rs"]
mod prerequisite;
#[path = "../../tests/support/python.rs"]
mod python;

/// The TypeScript SDK: pinned, as its behaviour changes between releases.
const TYPESCRIPT_SDK: &str = "@modelcontextprotocol/sdk@1.32.2";

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn foreign() -> PathBuf {
    root().join("fixtures/foreign")
}

fn target() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    exe.ancestors()
        .nth(3)
        .expect("the target folder")
        .to_owned()
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the CLI runs")
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

/// `verify --format json` with `args`; the exit code and the report.
fn verify(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["verify", "--format", "json"];
    all.extend_from_slice(args);
    let out = cli(&all);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

/// The `(rule, line)` of every finding, sorted.
fn findings(report: &Value) -> Vec<(String, u64)> {
    let mut all: Vec<(String, u64)> = (report["findings"].as_array().expect("findings").iter())
        .map(|f| {
            (
                f["rule"].as_str().expect("a rule").to_owned(),
                f["line"].as_u64().expect("a line"),
            )
        })
        .collect();
    all.sort();
    all
}

/// The 1-based line of `text` in `file`.
fn line_of(file: &Path, text: &str) -> u64 {
    let manifest = std::fs::read_to_string(file).expect("the manifest");
    let at = (manifest.lines().position(|l| l.contains(text)))
        .unwrap_or_else(|| panic!("`{text}` is not in {}", file.display()));
    at as u64 + 1
}

/// The eight defects of a broken copy, each at the manifest entry it concerns: four in its
/// tools, one in each of its resource, template and prompt, one in what it says of itself.
fn planted(manifest: &Path) -> Vec<(String, u64)> {
    let get_note = line_of(manifest, "- name: get_note");
    let limit = line_of(manifest, "      limit:");
    let mut expected = vec![
        ("CONSTRAINT_NO_TIGHTEN".to_owned(), limit),
        ("ERROR_WITHOUT_CODE".to_owned(), get_note),
        ("HINT_NO_LESS_SAFE".to_owned(), get_note),
        ("UNKNOWN_ARGUMENT_SERVED".to_owned(), get_note),
    ];
    expected.extend(planted_beyond_tools(manifest));
    expected.sort();
    expected
}

/// The defects of a broken copy beyond its tools: the template's MIME type, the resource
/// read with another MIME type than it lists, the prompt's dropped argument, the instructions.
fn planted_beyond_tools(manifest: &Path) -> Vec<(String, u64)> {
    vec![
        (
            "RESOURCE_SAME_MIME_TYPE".to_owned(),
            line_of(manifest, "    mime_type: text/plain"),
        ),
        (
            "RESOURCE_READ_INVALID".to_owned(),
            line_of(manifest, "- name: readme"),
        ),
        (
            "PROMPT_ARGUMENT_NO_DELETE".to_owned(),
            line_of(manifest, "      style:"),
        ),
        (
            "INSTRUCTIONS_CHANGED".to_owned(),
            line_of(manifest, "  instructions:"),
        ),
    ]
}

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    listener.local_addr().expect("its address").port()
}

/// Starts `command` (which listens on `port`) and waits until the port accepts connections.
fn serve_http(mut command: Command, port: u16) -> Running {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let running = Running(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listens on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    running
}

/// A shell-quoted command line.
fn line(words: &[&str]) -> String {
    shlex::try_join(words.iter().copied()).expect("no NUL in a word")
}

/// Node 22 and the TypeScript SDK, installed on first use, with the notes server copied beside
/// them (ESM resolves packages from the importing file's folder): the node binary and the
/// server's path.
fn typescript() -> (String, String) {
    let prefix = prerequisite::npm_install(
        "foreign",
        &[prerequisite::NODE_22, TYPESCRIPT_SDK],
        &[
            prerequisite::NODE_22_BIN,
            "node_modules/@modelcontextprotocol/sdk/package.json",
        ],
    );
    let node = prerequisite::node_22(&prefix);
    let server = prefix.join("server.mjs");
    std::fs::copy(foreign().join("typescript/server.mjs"), &server).expect("copied");
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    (s(node), s(server))
}

fn python_server() -> (String, String) {
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    (
        s(python::python_sdk()),
        s(foreign().join("python/server.py")),
    )
}

/// A binary the workspace builds, newer than the manifest it serves.
fn workspace_binary(name: &str, manifest: &Path) -> String {
    let path = target().join("debug").join(name);
    let built = std::fs::metadata(&path).and_then(|m| m.modified());
    let written = std::fs::metadata(manifest).and_then(|m| m.modified());
    match (built, written) {
        (Ok(built), Ok(written)) if built >= written => path.to_string_lossy().into_owned(),
        _ => panic!(
            "`{}` is missing or older than `{}`: build the workspace's binaries first \
             (`cargo test --workspace` does; or `cargo build -p mcp-workspace -p conformance-fixture`)",
            path.display(),
            manifest.display()
        ),
    }
}

/// The Python notes server, faithful and broken, served over HTTP for the whole test: each
/// start of the SDK costs seconds.
struct PythonServers {
    _faithful: Running,
    _broken: Running,
    faithful: String,
    broken: String,
}

fn python_http() -> PythonServers {
    let (python, server) = python_server();
    let start = |extra: &[&str]| {
        let port = free_port();
        let mut command = Command::new(&python);
        command
            .arg(&server)
            .args(["--http", &port.to_string()])
            .args(extra);
        (
            serve_http(command, port),
            format!("http://127.0.0.1:{port}/mcp"),
        )
    };
    let ((faithful_server, faithful), (broken_server, broken)) = (start(&[]), start(&["--broken"]));
    PythonServers {
        _faithful: faithful_server,
        _broken: broken_server,
        faithful,
        broken,
    }
}

#[test]
fn the_python_server_honours_the_manifest_and_its_broken_copy_is_caught() {
    let manifest = foreign().join("tools.yaml");
    let m = manifest.to_string_lossy().into_owned();
    let (python, server) = python_server();

    let (code, report) = verify(&[&m, "--stdio", &line(&[&python, &server])]);
    assert_eq!(findings(&report), [], "{report:#}");
    assert_eq!(code, 0, "{report:#}");
    // The Python SDK speaks both revisions, so both were checked.
    assert_eq!(
        report["summary"]["revisions"],
        serde_json::json!(["2025-11-25", "2026-07-28"])
    );
    assert!(
        report["summary"]["checks"].as_u64() >= Some(18),
        "{report:#}"
    );

    // The broken copy is checked over HTTP below: each start of the SDK costs seconds.
    let servers = python_http();
    let (code, report) = verify(&[&m, "--url", &servers.faithful]);
    assert_eq!((code, findings(&report)), (0, vec![]), "{report:#}");
    let (code, report) = verify(&[&m, "--url", &servers.broken]);
    assert_eq!(
        (code, findings(&report)),
        (1, planted(&manifest)),
        "{report:#}"
    );

    // The instructions are the server's description: `--descriptions breaking` marks them so.
    let instructions = |report: &Value| {
        (report["findings"].as_array().expect("findings").iter())
            .find(|f| f["rule"] == "INSTRUCTIONS_CHANGED")
            .map(|f| f["severity"].clone())
    };
    assert_eq!(
        instructions(&report),
        Some("compatible".into()),
        "{report:#}"
    );
    let (_, report) = verify(&[&m, "--url", &servers.broken, "--descriptions", "breaking"]);
    assert_eq!(instructions(&report), Some("breaking".into()), "{report:#}");

    reports_place_each_finding_in_the_manifest(&servers.broken);
    import_round_trips(&Reached {
        flag: "--url",
        faithful: &servers.faithful,
        broken: &servers.broken,
    });
    diff_against_a_running_server(&servers);
}

#[test]
fn the_typescript_server_honours_the_manifest_and_its_broken_copy_is_caught() {
    let manifest = foreign().join("tools.yaml");
    let m = manifest.to_string_lossy().into_owned();
    let (node, server) = typescript();

    let (code, report) = verify(&[&m, "--stdio", &line(&[&node, &server])]);
    assert_eq!((code, findings(&report)), (0, vec![]), "{report:#}");
    // This SDK release speaks 2025-11-25 only: the newer revision is noted, not failed.
    assert_eq!(
        report["summary"]["revisions"],
        serde_json::json!(["2025-11-25"])
    );
    assert!(
        report["skipped"][0]
            .as_str()
            .unwrap_or_default()
            .starts_with("2026-07-28"),
        "{report:#}"
    );

    let (code, report) = verify(&[&m, "--stdio", &line(&[&node, &server, "--broken"])]);
    assert_eq!(findings(&report), planted(&manifest), "{report:#}");
    assert_eq!(code, 1);

    import_round_trips(&Reached {
        flag: "--stdio",
        faithful: &line(&[&node, &server]),
        broken: &line(&[&node, &server, "--broken"]),
    });

    // One defect at a time: the server started with `flag` is found to break `rule` alone, at
    // the manifest line holding `entry`; the report, for more to assert.
    let only = |flag: &str, rule: &str, entry: &str| {
        let (code, report) = verify(&[&m, "--stdio", &line(&[&node, &server, flag])]);
        let at = line_of(&manifest, entry);
        assert_eq!(
            (code, findings(&report)),
            (1, vec![(rule.to_owned(), at)]),
            "{flag}: {report:#}"
        );
        report
    };
    // An error without the hint its vocabulary gives it.
    only("--no-hints", "ERROR_MESSAGE", "- name: get_note");
    // A list the server advertises but does not serve (-32601) lists nothing: the template
    // is missing, and the rest is checked.
    only("--no-templates", "RESOURCE_NO_DELETE", "- name: note");
    // A list that answers an error is a finding, placed at the server's name: the server was
    // reached, and does not serve what it advertises (not "could not be checked").
    let report = only("--failing-prompts", "LIST_FAILED", "  name: notes");
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`prompts/list` failed")
                && m.contains("the prompt store is unavailable")),
        "{report:#}"
    );

    // Asked for explicitly, a revision the server does not speak means it was not checked.
    let out = cli(&[
        "verify",
        &m,
        "--stdio",
        &line(&[&node, &server]),
        "--revision",
        "2026-07-28",
    ]);
    exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open a 2026-07-28 session"));

    // `diff --against stdio:` starts the server itself, and speaks the newest revision it
    // speaks (here 2025-11-25); so does `import`.
    let against = format!("stdio:{}", line(&[&node, &server, "--broken"]));
    let out = cli(&["diff", "--against", &against, &m]);
    let text = exit(&out, 3);
    assert!(text.contains("breaking: HINT_NO_LESS_SAFE"), "{text}");

    // Over HTTP, behind a bearer token the check reads from the environment.
    let port = free_port();
    let mut command = Command::new(&node);
    command.args([
        server.as_str(),
        "--http",
        &port.to_string(),
        "--token",
        "s3cret",
    ]);
    let _served = serve_http(command, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let with_token = |var: &str| {
        Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
            .args(["verify", &m, "--url", &url, "--format", "json"])
            .args(["--bearer-env", "NOTES_TOKEN"])
            .env("NOTES_TOKEN", var)
            .output()
            .expect("the CLI runs")
    };
    let out = with_token("s3cret");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(
        (out.status.code(), findings(&report)),
        (Some(0), vec![]),
        "{report:#}"
    );
    // A wrong token: the server refuses every request, so nothing could be checked.
    let out = with_token("wrong");
    exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Auth required"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The text, GitHub and JUnit reports of the broken copy.
fn reports_place_each_finding_in_the_manifest(url: &str) {
    let out = cli(&["verify", "fixtures/foreign/tools.yaml", "--url", url]);
    let text = exit(&out, 1);
    let get_note = line_of(&foreign().join("tools.yaml"), "- name: get_note");
    assert!(
        text.contains(&format!(
            "fixtures/foreign/tools.yaml:{get_note}:11: breaking UNKNOWN_ARGUMENT_SERVED [2025-11-25, 2026-07-28] `get_note` called with the unknown argument `mcp_contract_unknown`"
        )),
        "{text}"
    );
    assert!(text.ends_with("8 findings (7 breaking)\n"), "{text}");
    let manifest = foreign().join("tools.yaml");
    let mime_type = line_of(&manifest, "    mime_type: text/plain");
    let readme = line_of(&manifest, "- name: readme");
    for expected in [
        format!(
            "fixtures/foreign/tools.yaml:{mime_type}:5: breaking RESOURCE_SAME_MIME_TYPE [2025-11-25, 2026-07-28] resource `note`: the resource at `notes://notes/{{id}}` changed its mime_type from \"text/plain\" to \"text/markdown\""
        ),
        format!(
            "fixtures/foreign/tools.yaml:{readme}:11: breaking RESOURCE_READ_INVALID [2025-11-25, 2026-07-28] reading `notes://readme` answered contents of MIME type `text/plain`, not `text/markdown`"
        ),
    ] {
        assert!(text.contains(&expected), "`{expected}` in:\n{text}");
    }

    let out = cli(&[
        "verify",
        "fixtures/foreign/tools.yaml",
        "--format",
        "github",
        "--url",
        url,
    ]);
    let text = exit(&out, 1);
    assert!(
        text.contains(&format!(
            "::error file=fixtures/foreign/tools.yaml,line={get_note},col=11,title=HINT_NO_LESS_SAFE::"
        )),
        "{text}"
    );

    let out = cli(&[
        "verify",
        "fixtures/foreign/tools.yaml",
        "--format",
        "junit",
        "--url",
        url,
    ]);
    let xml = exit(&out, 1);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    assert!(
        xml.contains("<failure type=\"ERROR_WITHOUT_CODE\""),
        "{xml}"
    );
}

/// A server `import` and `verify` reach: `--url URL` or `--stdio CMD`, faithful and broken.
struct Reached<'a> {
    flag: &'a str,
    faithful: &'a str,
    broken: &'a str,
}

/// `import` writes TODOs that `check` refuses, and round-trips once they are filled from the
/// faithful manifest, as the server's authors would fill them.
fn import_round_trips(server: &Reached<'_>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let imported = dir.path().join("tools.yaml");
    let i = imported.to_string_lossy().into_owned();

    let out = cli(&["import", server.flag, server.faithful, "-o", &i]);
    exit(&out, 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 tools, 2 resources and 1 prompt imported, 3 TODOs to decide"),
        "{stderr}"
    );
    // What the server says of itself, its resources, its template and its prompt, as the
    // manifest says them: nothing there is left to decide.
    let text = std::fs::read_to_string(&imported).expect("written");
    for expected in [
        "server:\n  name: \"notes\"\n  title: \"Notes\"\n  version: \"1.0.0\"\n  instructions: \"Notes are short texts",
        "resources:\n  - name: \"readme\"\n    uri: \"notes://readme\"\n    title: \"About the notes\"\n",
        "    mime_type: \"text/markdown\"\n",
        "  - name: \"note\"\n    uri_template: \"notes://notes/{id}\"\n",
        "prompts:\n  - name: \"summarize_notes\"\n    title: \"Summarize the notes\"\n",
        "    arguments:\n      \"style\":\n        description: \"How the summary should read, such as brief or detailed.\"\n",
    ] {
        assert!(text.contains(expected), "`{expected}` in:\n{text}");
    }
    // The wire never lists a tool's errors: each tool's is a TODO `check` refuses where it is.
    let out = cli(&["check", &i]);
    exit(&out, 1);
    let diagnostics = String::from_utf8_lossy(&out.stderr);
    let todo = line_of(&imported, "errors: [TODO]");
    assert!(
        diagnostics.contains("error[unknown-error-code]")
            && diagnostics.contains(&format!("{i}:{todo}:")),
        "{diagnostics}"
    );
    // Importing again does not overwrite the file being edited.
    exit(&cli(&["import", server.flag, server.faithful, "-o", &i]), 2);

    let text = std::fs::read_to_string(&imported).expect("written");
    std::fs::write(&imported, filled(&text)).expect("written");
    exit(&cli(&["check", &i]), 0);
    let (code, report) = verify(&[&i, server.flag, server.faithful]);
    assert_eq!((code, findings(&report)), (0, vec![]), "{report:#}");

    // From the broken copy, the dropped hint is a TODO too, refused at the tool's hints.
    let broken = dir.path().join("broken.yaml");
    let b = broken.to_string_lossy().into_owned();
    exit(&cli(&["import", server.flag, server.broken, "-o", &b]), 0);
    let out = cli(&["check", &b]);
    let diagnostics = String::from_utf8_lossy(&out.stderr);
    let hints = line_of(&broken, "hints: {destructive: false, idempotent: true");
    assert!(
        diagnostics
            .contains("error[unresolved-hint]: the tool `get_note` leaves `read_only` undecided")
            && diagnostics.contains(&format!("{b}:{hints}:")),
        "{diagnostics}"
    );
}

/// An imported manifest with each tool's `errors: [TODO]` decided as the faithful manifest
/// decides it, and the faithful manifest's error vocabulary.
fn filled(imported: &str) -> String {
    let faithful = std::fs::read_to_string(foreign().join("tools.yaml")).expect("the manifest");
    // Each tool's `errors:` line in the faithful manifest, by the tool's name.
    let errors_of = |name: &str| {
        (faithful.split("  - name: "))
            .find(|tool| tool.starts_with(&format!("{name}\n")))
            .and_then(|tool| {
                tool.lines()
                    .find(|l| l.trim_start().starts_with("errors: "))
            })
            .map_or("errors: []".to_owned(), |l| l.trim_start().to_owned())
    };
    let mut filled = String::new();
    for (n, tool) in imported.split("  - name: ").enumerate() {
        if n > 0 {
            filled.push_str("  - name: ");
        }
        let name = tool.lines().next().unwrap_or_default().trim_matches('"');
        filled.push_str(&tool.replace("errors: [TODO]", &errors_of(name)));
    }
    let vocabulary = (faithful.split_once("\nerrors:\n"))
        .and_then(|(_, rest)| rest.split_once("\ntools:"))
        .map(|(entries, _)| entries)
        .expect("the faithful manifest's errors");
    filled.push_str(&format!("\nerrors:\n{vocabulary}"));
    filled
}

#[test]
fn import_from_a_saved_list_reports_what_a_manifest_forbids() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let saved = dir.path().join("tools-list.json");
    // What the Python SDK's FastMCP publishes for `def search(query: str, limit: int = 10)`.
    // A resource, a template and a prompt that leave out what a manifest requires.
    let list = serde_json::json!({
    "resources": [{"uri": "notes://readme", "name": "readme", "title": "About"}],
    "resourceTemplates": [{"uriTemplate": "notes://notes/{id}", "name": "note", "description": "A note.", "mimeType": "text/plain"}],
    "prompts": [{"name": "summarize", "description": "Summarizes.", "arguments": [{"name": "style"}]}],
    "tools": [{
        "name": "search",
        "description": "Searches the notes.",
        "inputSchema": {
            "type": "object",
            "title": "searchArguments",
            "properties": {
                "query": {"type": "string", "title": "Query"},
                "limit": {"type": "integer", "title": "Limit", "default": 10},
                "tag": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
            },
            "required": ["query"]
        }
    }]});
    std::fs::write(&saved, list.to_string()).expect("written");
    let out_path = dir.path().join("tools.yaml");
    let o = out_path.to_string_lossy().into_owned();
    // Headers and revisions are for a running server: with `--from` they would go unused.
    let out = cli(&[
        "import",
        "--from",
        &saved.to_string_lossy(),
        "-o",
        &o,
        "--revision",
        "2025-11-25",
    ]);
    exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not `--from`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = cli(&["import", "--from", &saved.to_string_lossy(), "-o", &o]);
    exit(&out, 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for expected in [
        "tool `search` publishes an input schema open to unknown properties",
        "tool `search` publishes a `default` keyword",
        "(at `inputSchema.properties.limit.default`); not copied",
        "tool `search` publishes a nullable union",
    ] {
        assert!(stderr.contains(expected), "`{expected}` in:\n{stderr}");
    }
    let manifest = std::fs::read_to_string(&out_path).expect("written");
    // The default the keyword carried is the manifest's `default:`, stated in the description.
    assert!(manifest.contains("        default: 10\n"), "{manifest}");
    assert!(!manifest.contains("title: \"Query\""), "{manifest}");
    let out = cli(&["check", &o]);
    exit(&out, 1);
    let diagnostics = String::from_utf8_lossy(&out.stderr);
    for code in [
        "missing-field",
        "unresolved-hint",
        "missing-example",
        "unknown-error-code",
    ] {
        assert!(
            diagnostics.contains(&format!("error[{code}]")),
            "{code}:\n{diagnostics}"
        );
    }
    // Each TODO of the resources and the prompt is refused where it stands.
    // (An argument's is refused at its first key, the line after the TODO.)
    for (entry, what, below) in [
        ("- name: \"readme\"", "description", 0),
        ("- name: \"readme\"", "mime_type", 0),
        ("- name: \"note\"", "title", 0),
        ("- name: \"summarize\"", "title", 0),
        ("\"style\":", "description", 2),
    ] {
        let at = line_of(&out_path, entry) + below;
        assert!(
            diagnostics.contains(&format!("{o}:{at}:"))
                && diagnostics.contains(&format!("`{what}`")),
            "`{what}` of `{entry}` at line {at}:\n{diagnostics}\n{manifest}"
        );
    }
    assert!(
        manifest.contains("# TODO: the MIME type of its contents (the server publishes none)"),
        "{manifest}"
    );
}

/// `diff --against url:` uses the diff engine's rules and the description policy.
fn diff_against_a_running_server(servers: &PythonServers) {
    let manifest = foreign().join("tools.yaml");
    let m = manifest.to_string_lossy().into_owned();
    let faithful = format!("url:{}", servers.faithful);
    let broken = format!("url:{}", servers.broken);

    let out = cli(&["diff", "--against", &faithful, &m]);
    assert_eq!(
        exit(&out, 0),
        "no changes; the contract needs no version bump\n"
    );
    let out = cli(&["diff", "--against", &broken, &m]);
    let text = exit(&out, 3);
    let limit = line_of(&manifest, "      limit:");
    assert!(
        text.contains(&format!("{m}:{limit}:7: breaking: CONSTRAINT_NO_TIGHTEN")),
        "{text}"
    );
    assert!(text.contains("HINT_NO_LESS_SAFE"), "{text}");
    // Resources, templates and prompts with the same rules, at the same places.
    let mime_type = line_of(&manifest, "    mime_type: text/plain");
    let style = line_of(&manifest, "      style:");
    for expected in [
        format!("{m}:{mime_type}:5: breaking: RESOURCE_SAME_MIME_TYPE"),
        format!(
            "{m}:{style}:7: breaking: PROMPT_ARGUMENT_NO_DELETE prompt `summarize_notes` no longer has the argument `style`"
        ),
    ] {
        assert!(text.contains(&expected), "`{expected}` in:\n{text}");
    }

    // A manifest whose description the server does not publish: a change of wording only.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let edited = dir.path().join("tools.yaml");
    let text = std::fs::read_to_string(&manifest).expect("the manifest");
    std::fs::write(
        &edited,
        text.replace("Returns the text of one note.", "Returns one note's text."),
    )
    .expect("written");
    let e = edited.to_string_lossy().into_owned();
    let policy = |p: &str| cli(&["diff", "--against", &faithful, "--descriptions", p, &e]);
    assert!(exit(&policy("breaking"), 3).contains("breaking: DESCRIPTION_CHANGED"));
    assert!(exit(&policy("compatible"), 0).contains("compatible: DESCRIPTION_CHANGED"));
    assert_eq!(
        exit(&policy("ignore"), 0),
        "no changes; the contract needs no version bump\n"
    );
}

#[test]
fn the_reference_server_honours_its_manifest_over_stdio_and_http() {
    let manifest = root().join("tools.yaml");
    let binary = workspace_binary("mcp-workspace", &manifest);
    let m = manifest.to_string_lossy().into_owned();
    let workspace = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(workspace.path().join("notes.txt"), "hello\n").expect("written");
    let ws = workspace.path().to_string_lossy().into_owned();

    // A scratch workspace, so the write tools run too.
    let (code, report) = verify(&[
        &m,
        "--stdio",
        &line(&[&binary, "--root", &ws]),
        "--allow-writes",
    ]);
    assert_eq!((code, findings(&report)), (0, vec![]), "{report:#}");
    assert!(
        report["summary"]["checks"].as_u64() >= Some(100),
        "{report:#}"
    );

    // Started read-only, it leaves out the write tools: each is a finding.
    let (code, report) = verify(&[
        &m,
        "--stdio",
        &line(&[&binary, "--root", &ws, "--read-only"]),
    ]);
    assert_eq!(code, 1);
    assert!(
        findings(&report)
            .iter()
            .all(|(rule, _)| rule == "TOOL_NO_DELETE"),
        "{report:#}"
    );

    let port = free_port();
    let mut command = Command::new(&binary);
    command.args(["--root", &ws, "--http", &format!("127.0.0.1:{port}")]);
    let _served = serve_http(command, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    for group in ["read", "edit"] {
        let (code, report) = verify(&[&m, "--url", &url, "--group", group, "--allow-writes"]);
        assert_eq!(
            (code, findings(&report)),
            (0, vec![]),
            "{group}: {report:#}"
        );
    }
    // A group the manifest does not declare cannot be checked.
    let out = cli(&["verify", &m, "--url", &url, "--group", "nope"]);
    exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("its groups are: read, edit"));
}

/// Runs the CLI with `args`, and `TOKEN` set to `token` in its environment.
fn cli_with_token(args: &[&str], token: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(args)
        .current_dir(root())
        .env("TOKEN", token)
        .output()
        .expect("the CLI runs")
}

#[test]
fn request_headers_reach_a_server_that_requires_a_token() {
    let manifest = root().join("tools.yaml");
    let binary = workspace_binary("mcp-workspace", &manifest);
    let m = manifest.to_string_lossy().into_owned();
    let workspace = tempfile::tempdir().expect("a temporary directory");
    let ws = workspace.path().to_string_lossy().into_owned();
    // The reference server's own authorization: each group's route wants a token of this
    // issuer, for that route, with the group's scope.
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let issuer = runtime.block_on(TestIssuer::start());
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}");
    let mut command = Command::new(&binary);
    command.args(["--root", &ws, "--http", &format!("127.0.0.1:{port}")]);
    command.args(["--auth-issuer", issuer.issuer(), "--resource", &resource]);
    let _served = serve_http(command, port);
    let url = format!("{resource}/mcp");
    let token = (issuer.token())
        .audience(&format!("{url}/read"))
        .scope("files:read")
        .sign();
    let unscoped = (issuer.token())
        .audience(&format!("{url}/read"))
        .scope("files:edit")
        .sign();
    let read = format!("{url}/read");
    let against = format!("url:{read}");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let imported = dir.path().join("tools.yaml");
    let i = imported.to_string_lossy().into_owned();
    let verify = ["verify", &m, "--url", &url, "--group", "read"];
    let import = ["import", "--url", &read, "-o", &i, "--force"];
    let diff = ["diff", "--against", &against, &m];
    let bearer = ["--bearer-env", "TOKEN"];
    let header = format!("Authorization: Bearer {token}");
    // The token is in no output, nor in any error.
    let secret = |out: &Output| {
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            assert!(
                !String::from_utf8_lossy(bytes).contains(&token),
                "the token is in the {stream}"
            );
        }
    };

    for command in [&verify[..], &import, &diff] {
        // Without a token, or with a wrong one, nothing could be checked: one line says so.
        for given in [&[][..], &bearer] {
            let out = cli_with_token(&[command, given].concat(), "wrong");
            secret(&out);
            exit(&out, 2);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(stderr.lines().count(), 1, "{command:?}: {stderr}");
            assert!(stderr.contains("401 Unauthorized"), "{command:?}: {stderr}");
        }
        // A valid token without the route's scope: refused too, and said so.
        let out = cli_with_token(&[command, &bearer].concat(), &unscoped);
        exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{command:?}: {stderr}");
        assert!(stderr.contains("403 Forbidden"), "{command:?}: {stderr}");
        assert!(
            !stderr.contains(&unscoped),
            "{command:?}: the token is in the stderr"
        );
        // A variable that is not set is a usage error naming it.
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
            .args(command)
            .args(["--bearer-env", "MCP_CONTRACT_TEST_UNSET_TOKEN"])
            .env_remove("MCP_CONTRACT_TEST_UNSET_TOKEN")
            .output()
            .expect("the CLI runs");
        exit(&out, 2);
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("the environment variable `MCP_CONTRACT_TEST_UNSET_TOKEN` is not set"),
            "{command:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // Headers go to a server reached over HTTP only: a command started over stdio, or a
    // manifest at a git revision, would silently go without them.
    let stdio = line(&[&binary, "--root", &ws]);
    for command in [
        &["verify", &m, "--stdio", &stdio][..],
        &["import", "--stdio", &stdio, "-o", &i, "--force"],
        &["diff", "--against", &format!("stdio:{stdio}"), &m],
        &["diff", "--against", "HEAD", &m],
    ] {
        let out = cli_with_token(&[command, &bearer].concat(), &token);
        secret(&out);
        exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("`--header` and `--bearer-env` are for")
                || stderr
                    .contains("`--header`, `--bearer-env`, `--revision` and `--group` are for"),
            "{command:?}: {stderr}"
        );
    }

    // With the token, from the environment or as a header, each command reaches the server.
    for given in [&bearer[..], &["--header", &header]] {
        let out = cli_with_token(
            &[&verify[..], given, &["--format", "json"]].concat(),
            &token,
        );
        secret(&out);
        let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        assert_eq!(
            (out.status.code(), findings(&report)),
            (Some(0), vec![]),
            "{report:#}"
        );
        let out = cli_with_token(&[&import[..], given].concat(), &token);
        secret(&out);
        exit(&out, 0);
        let written = std::fs::read_to_string(&imported).expect("written");
        assert!(written.contains("- name: \"read_file\""), "{written}");
        assert!(!written.contains(&token));
        // The route serves the `read` group only: the manifest's write tools are not there.
        let out = cli_with_token(&[&diff[..], given].concat(), &token);
        secret(&out);
        let text = exit(&out, 3);
        assert!(text.contains("breaking: TOOL_NO_DELETE"), "{text}");
        // Against the group's tools, as `verify --group` checks, the route honours them.
        let against_group = [
            "diff",
            "--against",
            &format!("url:{url}"),
            &m,
            "--group",
            "read",
        ];
        let out = cli_with_token(&[&against_group[..], given].concat(), &token);
        secret(&out);
        let text = exit(&out, 0);
        assert!(!text.contains("TOOL_NO_DELETE"), "{text}");
    }
}

#[test]
fn the_conformance_fixture_is_verified_over_stdio_and_http() {
    let manifest = root().join("fixtures/conformance/tools.yaml");
    let m = manifest.to_str().expect("a UTF-8 path");
    let binary = workspace_binary("conformance-server", &manifest);
    let port = free_port();
    let mut command = Command::new(&binary);
    command.arg(format!("127.0.0.1:{port}"));
    let _served = serve_http(command, port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let stdio = line(&[&binary, "--stdio"]);
    // Its slow tools take seconds on each revision: both transports are checked at once.
    let targets = [["--stdio", &stdio], ["--url", &url]];
    let reports = std::thread::scope(|scope| {
        let runs = targets.map(|target| scope.spawn(move || verify(&[m, target[0], target[1]])));
        runs.map(|run| run.join().expect("verify ran"))
    });
    for (target, (code, report)) in targets.iter().zip(reports) {
        // Its `protocol_error_job` panics on purpose, for the suite: the one finding.
        let job = line_of(&manifest, "- name: protocol_error_job");
        assert_eq!(
            findings(&report),
            [("EXAMPLE_REFUSED".to_owned(), job)],
            "{target:?}: {report:#}"
        );
        assert_eq!(code, 1, "{target:?}");
        // Both revisions were checked.
        assert_eq!(
            report["summary"]["revisions"],
            serde_json::json!(["2025-11-25", "2026-07-28"]),
            "{target:?}"
        );
        // What this client cannot call is said, not failed.
        let not_called: Vec<&str> = (report["not_called"].as_array().expect("a list").iter())
            .filter_map(|n| n["tool"].as_str())
            .collect();
        assert!(not_called.contains(&"failing_job"), "{report:#}");
        // A whole input document without `examples` gives no call known to be valid.
        assert!(
            not_called.contains(&"json_schema_2020_12_tool"),
            "{report:#}"
        );
        assert!(
            not_called.contains(&"test_missing_capability"),
            "{report:#}"
        );
    }
}

#[test]
fn a_server_that_cannot_be_checked_exits_2() {
    let manifest = foreign().join("tools.yaml");
    let m = manifest.to_string_lossy().into_owned();
    let port = free_port();
    let out = cli(&[
        "verify",
        &m,
        "--url",
        &format!("http://127.0.0.1:{port}/mcp"),
    ]);
    exit(&out, 2);
    let out = cli(&["verify", &m, "--stdio", "/nonexistent/server"]);
    exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start `/nonexistent/server`"));
    // A server that dies at start: what it said on stderr is in the error.
    let out = cli(&[
        "verify",
        &m,
        "--stdio",
        "bash -c 'echo no database configured >&2; exit 3'",
    ]);
    exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("its stderr ends with:\nno database configured"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A bearer token comes from the environment only; a variable that is not set is named.
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-contract"))
        .args(["verify", &m, "--url", "http://127.0.0.1:1/mcp"])
        .args(["--bearer-env", "MCP_CONTRACT_TEST_UNSET_TOKEN"])
        .env_remove("MCP_CONTRACT_TEST_UNSET_TOKEN")
        .output()
        .expect("the CLI runs");
    exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`MCP_CONTRACT_TEST_UNSET_TOKEN` is not set")
    );
}
