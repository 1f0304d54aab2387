//! Generated documents: their content, where they go, and check mode.

use mcp_contract_codegen::{Builder, DocumentStatus, Error, Source, TABLE_BEGIN, TABLE_END, load};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/every-feature/tools.yaml"
);

fn contract() -> mcp_contract_codegen::Contract {
    let text = std::fs::read_to_string(FIXTURE).expect("the fixture manifest");
    let dir = std::path::Path::new(FIXTURE).parent().unwrap();
    load(&Source::new("tools.yaml", text).with_dir(dir))
        .map(|l| l.contract)
        .unwrap_or_else(|_| panic!("the fixture loads"))
}

#[test]
fn the_readme_table_matches_the_snapshot() {
    insta::assert_snapshot!("every_feature_table", contract().readme_table());
}

#[test]
fn the_reference_matches_the_snapshot() {
    insta::assert_snapshot!("every_feature_reference", contract().reference());
}

/// A crate directory with the fixture manifest, the files it names, and a README holding the
/// markers.
fn crate_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(FIXTURE, dir.path().join("tools.yaml")).expect("copied");
    let icon = std::path::Path::new(FIXTURE).with_file_name("icons/echo.png");
    std::fs::create_dir(dir.path().join("icons")).expect("a folder");
    std::fs::copy(icon, dir.path().join("icons/echo.png")).expect("copied");
    let document = std::path::Path::new(FIXTURE).with_file_name("schemas/query_items.json");
    std::fs::create_dir(dir.path().join("schemas")).expect("a folder");
    std::fs::copy(document, dir.path().join("schemas/query_items.json")).expect("copied");
    std::fs::write(
        dir.path().join("README.md"),
        format!(
            "# Demo\n\nIntro stays.\n\n{TABLE_BEGIN}\nstale table\n{TABLE_END}\n\nOutro stays.\n"
        ),
    )
    .expect("written");
    dir
}

fn builder(dir: &std::path::Path) -> Builder {
    Builder::new()
        .manifest(dir.join("tools.yaml"))
        .out_dir(dir.join("out"))
        .readme(dir.join("README.md"))
        .docs(dir.join("docs/tools.md"))
}

#[test]
fn documents_are_written_between_the_markers_and_only_when_changed() {
    let dir = crate_dir();
    let first = builder(dir.path())
        .check(false)
        .generate()
        .expect("generated");
    assert!(
        first
            .documents
            .iter()
            .all(|(_, s)| *s == DocumentStatus::Updated),
        "{:?}",
        first.documents
    );
    let readme = std::fs::read_to_string(dir.path().join("README.md")).expect("readable");
    assert!(readme.starts_with("# Demo\n\nIntro stays.\n\n"), "{readme}");
    assert!(
        readme.ends_with(&format!("{TABLE_END}\n\nOutro stays.\n")),
        "{readme}"
    );
    assert!(
        readme.contains("| `echo` | Echo every kind of argument |"),
        "{readme}"
    );
    assert!(!readme.contains("stale table"));
    // The header names the manifest by the path the builder was given; the rest is the same.
    let body = |text: String| {
        text.split_once('\n')
            .map(|(_, rest)| rest.to_owned())
            .unwrap_or_default()
    };
    assert_eq!(
        body(std::fs::read_to_string(dir.path().join("docs/tools.md")).expect("written")),
        body(contract().reference())
    );

    let second = builder(dir.path())
        .check(false)
        .generate()
        .expect("generated");
    assert!(
        second
            .documents
            .iter()
            .all(|(_, s)| *s == DocumentStatus::Unchanged),
        "{:?}",
        second.documents
    );
}

#[test]
fn check_mode_fails_on_a_stale_document_and_passes_once_regenerated() {
    let dir = crate_dir();
    let error = builder(dir.path())
        .check(true)
        .generate()
        .expect_err("the README is stale");
    let Error::Stale { paths } = &error else {
        panic!("{error}")
    };
    assert_eq!(
        paths,
        &[
            dir.path().join("README.md"),
            dir.path().join("docs/tools.md")
        ]
    );
    let message = error.to_string();
    assert!(
        message.contains("README.md") && message.contains("cargo build"),
        "{message}"
    );
    assert!(
        std::fs::read_to_string(dir.path().join("README.md"))
            .expect("readable")
            .contains("stale table"),
        "check mode writes nothing"
    );

    builder(dir.path())
        .check(false)
        .generate()
        .expect("regenerated");
    let checked = builder(dir.path())
        .check(true)
        .generate()
        .expect("current documents pass");
    assert!(
        checked
            .documents
            .iter()
            .all(|(_, s)| *s == DocumentStatus::Checked)
    );
}

#[test]
fn a_readme_without_markers_is_a_clear_error() {
    let dir = crate_dir();
    std::fs::write(dir.path().join("README.md"), "# No markers\n").expect("written");
    let error = builder(dir.path())
        .check(false)
        .generate()
        .expect_err("refused");
    let message = error.to_string();
    assert!(
        message.contains("<!-- tools:begin -->") && message.contains("is missing"),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("README.md")).expect("readable"),
        "# No markers\n"
    );
}

/// Set in the child process that runs [`Builder::compile`] as a build script would be run.
const AS_BUILD_SCRIPT: &str = "MCP_CONTRACT_TEST_AS_BUILD_SCRIPT";

/// The builder of [`crate_dir`] with the distribution files too.
fn builder_with_distribution(dir: &std::path::Path) -> Builder {
    builder(dir).distribution(dir.join("dist"))
}

#[test]
fn in_check_mode_the_build_reruns_when_any_file_it_reads_or_checks_changes() {
    // `compile` speaks to cargo on stdout and exits on failure, so it runs in a child: this
    // test binary again, on this test only.
    if let Some(dir) = std::env::var_os(AS_BUILD_SCRIPT) {
        builder_with_distribution(std::path::Path::new(&dir))
            .check(true)
            .compile();
        return;
    }
    let dir = crate_dir();
    let manifest = dir.path().join("tools.yaml");
    let text = std::fs::read_to_string(&manifest).expect("copied");
    let distribution = "server:\n  distribution:\n    registry_name: io.github.example/every-feature\n    description: A fixture server.\n    author: The authors\n    repository: https://github.com/example/every-feature\n";
    std::fs::write(&manifest, text.replacen("server:\n", distribution, 1)).expect("written");
    builder_with_distribution(dir.path())
        .check(false)
        .generate()
        .expect("the documents are written");
    let run = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "in_check_mode_the_build_reruns_when_any_file_it_reads_or_checks_changes",
            "--nocapture",
        ])
        .env(AS_BUILD_SCRIPT, dir.path())
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let triggers: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("cargo::rerun-if-changed="))
        .collect();
    for file in [
        "tools.yaml",
        "icons/echo.png",
        "schemas/query_items.json",
        "README.md",
        "docs/tools.md",
        "dist/server.json",
        "dist/manifest.json",
        "dist/clients.md",
    ] {
        let path = dir.path().join(file);
        assert!(
            triggers.contains(&path.to_str().expect("a UTF-8 path")),
            "{file} is not a rerun trigger: {triggers:?}"
        );
    }
}

/// Two tools: `find_notes`, renamed from `search`, and `list_notes`, deprecated in its favour.
const RETIRING: &str = "\
server:
  name: notes
tools:
  - name: find_notes
    title: Find notes
    description: Finds notes.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    since: 1.4.0
    aliases: [search]
  - name: list_notes
    title: List notes
    description: Lists every note.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    deprecated:
      since: 1.4.0
      reason: Listing every note does not scale
      replaced_by: find_notes
      remove_after: 2027-06-30
";

#[test]
fn the_documents_show_deprecations_replacements_and_former_names() {
    let contract = load(&Source::new("tools.yaml", RETIRING))
        .expect("loads")
        .contract;
    let table = contract.readme_table();
    assert!(
        table.contains("| `find_notes` (was `search`) | Find notes | Finds notes. |"),
        "{table}"
    );
    assert!(
        table.contains(
            "| `list_notes` | List notes | **Deprecated**: use `find_notes`. Lists every note. |"
        ),
        "{table}"
    );
    let reference = contract.reference();
    assert!(
        reference.contains("Since 1.4.0. Former names, still answered and not listed: `search`."),
        "{reference}"
    );
    assert!(
        reference.contains(
            "**Deprecated** since 1.4.0: Listing every note does not scale. Use the tool \
             [`find_notes`](#find_notes) instead. It may be removed after 2027-06-30."
        ),
        "{reference}"
    );
}

#[test]
fn past_its_window_an_entry_warns_and_in_check_mode_fails_the_build() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("tools.yaml"), RETIRING).expect("written");
    let builder = |today: &str| {
        Builder::new()
            .manifest(dir.path().join("tools.yaml"))
            .out_dir(dir.path().join("out"))
            .today(mcp_contract_codegen::Date::parse(today).expect("a day"))
    };
    let within = builder("2027-06-30")
        .check(false)
        .generate()
        .expect("generated");
    assert_eq!(within.warnings, "");
    let late = builder("2027-07-01")
        .check(false)
        .generate()
        .expect("generated");
    assert!(
        late.warnings
            .contains("warning[past-removal]: the tool `list_notes` may be removed"),
        "{}",
        late.warnings
    );
    match builder("2027-07-01").check(true).generate() {
        Err(Error::Invalid(rendered)) => {
            assert!(rendered.contains("error[past-removal]"), "{rendered}")
        }
        other => panic!("check mode must refuse it: {other:?}"),
    }
    let allowed = builder("2027-07-01")
        .check(true)
        .deny_past_removal(false)
        .generate();
    assert!(allowed.is_ok());
}
