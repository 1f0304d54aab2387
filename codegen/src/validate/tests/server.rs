//! The `server:` block: its name, the cache hint, and `distribution:` (the registry and bundle
//! identity).
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{VALID, loads, refused, replace, single};
use crate::render_all;

/// [`VALID`] with a `distribution` block whose lines are `lines` (each at four spaces),
/// starting on line 3.
fn distribution(lines: &str) -> String {
    replace(
        "  name: demo\n",
        &format!("  name: demo\n  distribution:\n{lines}"),
    )
}

const DISTRIBUTION: &str =
    "    registry_name: io.github.demo/demo\n    description: A demo.\n    author: Demo Team\n";

#[test]
fn empty_text() {
    let d = single(
        &replace("name: demo", "name: \"\""),
        "empty-text",
        "the server name is empty",
        "tools.yaml:2:9",
    );
    assert_eq!(d.help.as_deref(), Some("name the server, e.g. `my-server`"));
}

#[test]
fn bad_cache_scope() {
    let text = replace(
        "  name: demo\n",
        "  name: demo\n  cache: {ttl_ms: 1000, scope: shared}\n",
    );
    let d = single(
        &text,
        "bad-cache-scope",
        "unknown cache scope `shared`",
        "tools.yaml:3:32",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `public` (the list is the same for every caller) or `private`")
    );
}

#[test]
fn a_distribution_block_loads() {
    let c = loads(&distribution(&format!(
        "{DISTRIBUTION}    repository: https://github.com/demo/demo\n    remote: https://demo.example.com/mcp\n"
    )));
    let files = c.distribution_files("1.2.3").expect("declared");
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["server.json", "manifest.json", "clients.md"]);
    assert!(
        c.readme_table()
            .ends_with("\nmcp-name: io.github.demo/demo\n")
    );
    assert!(loads(VALID).distribution_files("1.2.3").is_none());
}

#[test]
fn distribution_needs_its_name_description_and_author() {
    let (source, diags) = refused(&distribution("    author: Demo Team\n"));
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "missing-field",
                "`distribution` is missing the required key `registry_name`".to_owned()
            ),
            (
                "missing-field",
                "`distribution` is missing the required key `description`".to_owned()
            ),
        ],
        "{}",
        render_all(&diags, &source)
    );
}

#[test]
fn bad_registry_name() {
    for name in ["demo", "io.github.demo/", "io github/demo", "a/b/c"] {
        let d = single(
            &distribution(&DISTRIBUTION.replace("io.github.demo/demo", &format!("\"{name}\""))),
            "bad-registry-name",
            &format!("`{name}` is not a registry name"),
            "tools.yaml:4:20",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write `namespace/name`: `io.github.YOUR-ACCOUNT/NAME` for a GitHub namespace, or `com.example/NAME` for a domain you own"
            )
        );
    }
}

#[test]
fn registry_description_length() {
    let long = "x".repeat(101);
    single(
        &distribution(&DISTRIBUTION.replace("A demo.", &long)),
        "registry-description-length",
        "the distribution description has 101 characters; the registry takes at most 100",
        "tools.yaml:5:18",
    );
    loads(&distribution(
        &DISTRIBUTION.replace("A demo.", &"x".repeat(100)),
    ));
}

#[test]
fn bad_distribution_url() {
    for (key, url) in [
        ("repository", "http://github.com/demo/demo"),
        ("remote", "https://"),
        ("remote", "demo.example.com/mcp"),
    ] {
        single(
            &distribution(&format!("{DISTRIBUTION}    {key}: {url}\n")),
            "bad-distribution-url",
            &format!("`{url}` is not an https URL"),
            &format!("tools.yaml:7:{}", 7 + key.len()),
        );
    }
}

#[test]
fn bad_package_name() {
    single(
        &distribution(&format!("{DISTRIBUTION}    package: 9lives\n")),
        "bad-package-name",
        "`9lives` is not a crate name",
        "tools.yaml:7:14",
    );
}
