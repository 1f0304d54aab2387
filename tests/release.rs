//! The published crates move together: one version for all of them, and every dependency of
//! one on another names that version, so `cargo publish` of a release cannot mix versions.

use std::path::Path;

/// The value of `key = "…"` on the first line of `section` that sets it.
fn value(toml: &str, section: &str, key: &str) -> Option<String> {
    // A section may open the file, with no line break before it.
    let body = format!("\n{toml}");
    let body = body.split(&format!("\n[{section}]\n")).nth(1)?;
    let body = body.split("\n[").next()?;
    body.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
        rest.trim()
            .strip_prefix('"')?
            .split('"')
            .next()
            .map(str::to_owned)
    })
}

#[test]
fn the_published_crates_share_one_version_and_name_it_in_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace");
    let version = value(&workspace, "workspace.package", "version").expect("a version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let version = version.as_str();
    for krate in ["mcp-contract", "mcp-contract-codegen", "mcp-contract-spec"] {
        let line = workspace
            .lines()
            .find(|l| l.starts_with(&format!("{krate} = ")))
            .unwrap_or_else(|| panic!("{krate} is a workspace dependency"));
        assert!(
            line.contains(&format!("version = \"{version}\"")),
            "{krate} must be depended on at {version}: {line}"
        );
    }
    for dir in ["spec", "codegen", "runtime", "cli"] {
        let manifest = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).expect("read");
        assert!(
            manifest.contains("version.workspace = true"),
            "{dir} takes the workspace's version"
        );
        for key in ["description", "documentation", "readme"] {
            assert!(
                value(&manifest, "package", key).is_some(),
                "{dir}/Cargo.toml has no {key}"
            );
        }
        assert!(
            root.join(dir).join("README.md").is_file(),
            "{dir} has a README"
        );
    }
}
