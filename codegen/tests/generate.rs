//! The emitters on a manifest that uses every feature: golden snapshots of the generated Rust
//! and of the published tools, and the build-time behaviour of writing them.

use std::path::Path;

use mcp_contract_codegen::{Builder, Revision, Source, load, render_all};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/every-feature/tools.yaml"
);

fn contract() -> mcp_contract_codegen::Contract {
    let text = std::fs::read_to_string(FIXTURE).expect("the fixture manifest");
    let source = Source::new("tools.yaml", text).with_dir(Path::new(FIXTURE).parent().unwrap());
    match load(&source) {
        Ok(loaded) => {
            assert!(
                loaded.warnings.is_empty(),
                "the fixture loads without warnings"
            );
            loaded.contract
        }
        Err(d) => panic!("{}", render_all(&d, &source)),
    }
}

#[test]
fn generated_rust_matches_the_snapshot() {
    insta::assert_snapshot!("every_feature_rust", contract().rust_module());
}

/// The writer never parses what it writes; here every manifest of the repository (the
/// reference server's, the fixtures', every edge case) generates a module that parses as Rust.
/// That it compiles and is clippy-clean is the fixture crates' test.
#[test]
fn every_manifest_of_the_repository_generates_rust_that_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec![
        root.join("tools.yaml"),
        root.join("fixtures/every-feature/tools.yaml"),
        root.join("fixtures/conformance/tools.yaml"),
    ];
    let edges = std::fs::read_dir(root.join("fixtures/edge-cases/manifests"))
        .expect("the edge-case manifests");
    paths.extend(edges.filter_map(|e| e.ok().map(|e| e.path())));
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a manifest");
        let source = Source::new("tools.yaml", text).with_dir(path.parent().expect("a folder"));
        let contract = match load(&source) {
            Ok(loaded) => loaded.contract,
            Err(d) => panic!("{}: {}", path.display(), render_all(&d, &source)),
        };
        if let Err(e) = syn::parse_file(&contract.rust_module()) {
            panic!(
                "{}: the generated module does not parse: {e}",
                path.display()
            );
        }
    }
}

#[test]
fn published_tools_match_the_snapshot() {
    let tools = contract().tools_list(Revision::LATEST)["tools"].clone();
    insta::assert_snapshot!(
        "every_feature_tools",
        serde_json::to_string_pretty(&tools).expect("serializable")
    );
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(contract().rust_module(), contract().rust_module());
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
        dir.path().join(mcp_contract_codegen::GENERATED_FILE)
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
