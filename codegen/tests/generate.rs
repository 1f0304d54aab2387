//! The emitters on a manifest that uses every feature: golden snapshots of the generated Rust
//! and of the published tools, and the build-time behaviour of writing them.

use std::path::Path;

use mcp_contract_codegen::{Builder, Source, load, output, rust, schema};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/every-feature/tools.yaml"
);

fn contract() -> mcp_contract_codegen::Contract {
    let text = std::fs::read_to_string(FIXTURE).expect("the fixture manifest");
    let source = Source::new("tools.yaml", text);
    match load(&source) {
        Ok(loaded) => {
            assert!(
                loaded.warnings.is_empty(),
                "the fixture loads without warnings"
            );
            loaded.contract
        }
        Err(d) => panic!(
            "{}",
            mcp_contract_codegen::diagnostic::render_all(&d, &source)
        ),
    }
}

#[test]
fn generated_rust_matches_the_snapshot() {
    insta::assert_snapshot!("every_feature_rust", rust::generate(&contract()));
}

#[test]
fn published_tools_match_the_snapshot() {
    let c = contract();
    let tools: Vec<serde_json::Value> = c.tools.iter().map(|t| schema::tool_json(&c, t)).collect();
    insta::assert_snapshot!(
        "every_feature_tools",
        serde_json::to_string_pretty(&tools).expect("serializable")
    );
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(rust::generate(&contract()), rust::generate(&contract()));
}

#[test]
fn an_unchanged_file_is_not_rewritten() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("out.rs");
    assert_eq!(
        output::write_if_changed(&path, "a").expect("written"),
        output::Written::Updated
    );
    let before = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(
        output::write_if_changed(&path, "a").expect("checked"),
        output::Written::Unchanged
    );
    let after = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(before, after, "an unchanged build touches nothing");
    assert_eq!(
        output::write_if_changed(&path, "b").expect("written"),
        output::Written::Updated
    );
    assert_eq!(std::fs::read_to_string(&path).expect("readable"), "b");
}

#[cfg(unix)]
#[test]
fn a_new_generated_file_is_world_readable() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("new.rs");
    output::write_if_changed(&path, "x").expect("written");
    let mode = std::fs::metadata(&path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o644);
}

#[test]
fn the_builder_writes_the_module_and_reports_diagnostics() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let generated = Builder::new()
        .manifest(FIXTURE)
        .out_dir(dir.path())
        .generate()
        .expect("generates");
    assert_eq!(
        generated.rust_path,
        dir.path().join(mcp_contract_codegen::GENERATED_RUST)
    );
    assert!(
        std::fs::read_to_string(&generated.rust_path)
            .expect("written")
            .starts_with("// @generated")
    );

    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "server: {name: x}\ntools:\n  - name: Bad\n").expect("written");
    let error = Builder::new()
        .manifest(&bad)
        .out_dir(dir.path())
        .generate()
        .expect_err("refused");
    let text = error.to_string();
    assert!(text.contains("error[bad-tool-name]"), "{text}");
    assert!(text.contains("error[missing-field]"), "{text}");
    assert!(Path::new(&bad).exists());
}
