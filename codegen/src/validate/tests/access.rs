//! `auth:` and `scopes:`: who may call what.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{VALID, loads, refused, refused_at, related_at, single, with};
use crate::{Severity, Source, load, render_all};

/// An `auth:` block declaring `files:read` (line 11, column 5) and `files:edit` (line 13),
/// to follow the tool's lines.
const AUTH: &str = "auth:\n  scopes:\n    files:read:\n      description: Read files.\n    files:edit:\n      description: Change files.\n";

#[test]
fn scopes_load_into_every_entry_and_the_access_spec() {
    let text = with(
        "    scopes: [files:read, files:edit]\n    groups: look\ngroups:\n  look:\n    description: Looks.\n    scopes: files:read\nresources:\n  - name: readme\n    uri: x:///readme\n    title: Readme\n    description: The readme.\n    mime_type: text/plain\n    scopes: [files:read]\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: [files:edit]\nauth:\n  resource: https://mcp.example.com/mcp\n  authorization_servers: [https://auth.example.com, http://127.0.0.1:9000]\n  scopes:\n    files:read:\n      description: Read files.\n    files:edit:\n      description: Change files.\n",
    );
    let c = loads(&text);
    assert_eq!(c.tools[0].scopes, ["files:read", "files:edit"]);
    assert_eq!(c.groups[0].scopes, ["files:read"]);
    assert_eq!(c.resources[0].scopes, ["files:read"]);
    assert_eq!(c.prompts[0].scopes, ["files:edit"]);
    let code = c
        .rust_module()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for part in [
        "resource: Some(\"https://mcp.example.com/mcp\")",
        "authorization_servers: &[\"https://auth.example.com\", \"http://127.0.0.1:9000\"]",
        "::mcp_contract::codegen::ScopeSpec { name: \"files:read\", description: \"Read files.\", }",
        // Each entry's scopes on its own spec.
        "\"openWorldHint\":false}}\"#, scopes: &[\"files:read\", \"files:edit\"], }",
        "tools: &[\"ping\"], scopes: &[\"files:read\"], }",
        "icons: &[], scopes: &[\"files:read\"], meta: None, }",
        "icons: &[], scopes: &[\"files:edit\"], meta: None, }",
    ] {
        assert!(code.contains(part), "{part} in\n{code}");
    }
    // Without `auth:`, the contract is open; an entry kind that requires nothing is empty.
    assert!(
        loads(VALID)
            .rust_module()
            .contains("access: ::mcp_contract::codegen::AccessSpec::OPEN")
    );
    let only_tool = loads(&with(
        "    scopes: files:read\n    groups: look\ngroups:\n  look:\n    description: Looks.\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n",
    ))
        .rust_module()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        only_tool.contains("resource: None, authorization_servers: &[],"),
        "{only_tool}"
    );
    assert!(
        only_tool.contains("tools: &[\"ping\"], scopes: &[], }"),
        "{only_tool}"
    );
}

#[test]
fn ident_collision_of_scope_constants() {
    // Lines 12 `files:read`, 14 `files.read`; both used.
    let text = with(
        "    scopes: [files:read, files.read]\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n    files.read:\n      description: Read them too.\n",
    );
    let d = single(
        &text,
        "ident-collision",
        "the scope `files.read` becomes the Rust constant `scopes::FILES_READ`, which another scope already has",
        "tools.yaml:14:5",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:12:5");
    let code = loads(&with(&format!(
        "    scopes: [files:read, files:edit]\n{AUTH}"
    )))
    .rust_module();
    assert!(
        code.contains("pub mod scopes {")
            && code.contains(
                "/// `files:read`: Read files.\n    pub const FILES_READ: &str = \"files:read\";"
            ),
        "{code}"
    );
    assert!(!loads(VALID).rust_module().contains("pub mod scopes"));
}

#[test]
fn unused_scope() {
    let source = Source::new(
        "tools.yaml",
        with(&format!("    scopes: files:edit\n{AUTH}")),
    );
    let loaded = load(&source).expect("a warning does not refuse the manifest");
    assert_eq!(loaded.warnings.len(), 1);
    let w = &loaded.warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.code, "unused-scope");
    assert_eq!(w.message, "no entry requires the scope `files:read`");
    assert_eq!(w.location(&source), "tools.yaml:12:5");
    assert_eq!(
        w.help.as_deref(),
        Some("list it under a group's, tool's, resource's or prompt's `scopes:`, or remove it")
    );
}

#[test]
fn unknown_scope() {
    let d = single(
        &with(&format!("    scopes: [files:raed, files:edit]\n{AUTH}")),
        "unknown-scope",
        "unknown scope `files:raed`",
        "tools.yaml:9:14",
    );
    assert_eq!(d.label.as_deref(), Some("no such scope"));
    assert_eq!(d.help.as_deref(), Some("did you mean `files:read`?"));
    // `files:read` is not also unused: the misspelling may be meant for it. Once the name
    // is right, a scope nothing lists is.
    let loaded = load(&Source::new(
        "tools.yaml",
        with(&format!("    scopes: [files:edit]\n{AUTH}")),
    ))
    .expect("loads");
    assert_eq!(loaded.warnings.len(), 1);
}

#[test]
fn duplicate_scope() {
    let d = single(
        &with(&format!(
            "    scopes: [files:read, files:edit, files:read]\n{AUTH}"
        )),
        "duplicate-scope",
        "the scope `files:read` is listed twice",
        "tools.yaml:9:38",
    );
    assert_eq!(d.help.as_deref(), Some("list each scope once"));
}

#[test]
fn scopes_without_auth() {
    let d = single(
        &with("    scopes: [files:read]\n"),
        "scopes-without-auth",
        "`scopes:` is listed, but no `auth:` block declares scopes",
        "tools.yaml:9:13",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "declare the scopes under a top-level `auth:` block (`auth: {scopes: {NAME: {description: …}}}`), or remove `scopes:`"
        )
    );
    // Every kind of entry, each once; an `auth:` block whose scopes are refused says no more.
    refused_at(
        &with(
            "    scopes: a\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: a\nresources:\n  - name: readme\n    uri: x:///readme\n    title: Readme\n    description: The readme.\n    mime_type: text/plain\n    scopes: a\n",
        ),
        &[
            ("scopes-without-auth", "tools.yaml:9:13"),
            ("scopes-without-auth", "tools.yaml:14:13"),
            ("scopes-without-auth", "tools.yaml:21:13"),
        ],
    );
    refused_at(
        &with("    scopes: a\nauth: {scopes: {}}\n"),
        &[("empty-scopes", "tools.yaml:10:16")],
    );
}

#[test]
fn empty_scopes() {
    let d = single(
        &with("auth:\n  scopes: {}\n"),
        "empty-scopes",
        "`auth.scopes` declares no scope",
        "tools.yaml:10:11",
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.starts_with("declare each scope"))
    );
    single(
        &with("auth:\n  resource: https://mcp.example.com\n"),
        "missing-field",
        "`auth` is missing the required key `scopes`",
        "tools.yaml:10:3",
    );
}

#[test]
fn bad_scope_name() {
    // Lines 11 `"files read":`, 13 `a\"b` (quoted in YAML), 15 `ok`.
    let text = with(
        "auth:\n  scopes:\n    \"files read\":\n      description: Read.\n    'a\"b':\n      description: Quote.\n    ok:\n      description: Fine.\n    scopes: [ok]\n",
    );
    let text = text.replace(
        "      description: Fine.\n    scopes: [ok]\n",
        "      description: Fine.\n",
    );
    let text = text.replace(
        "    output: text\n",
        "    output: text\n    scopes: [ok, \"files read\"]\n",
    );
    let diags = refused_at(
        &text,
        &[
            ("bad-scope-name", "tools.yaml:12:5"),
            ("bad-scope-name", "tools.yaml:14:5"),
        ],
    );
    assert_eq!(diags[0].message, "`files read` is not a valid scope name");
    assert_eq!(
        diags[0].help.as_deref(),
        Some(
            "a scope is one or more printable ASCII characters other than space, `\"` and `\\`, such as `files:read`"
        )
    );
    // Printable ASCII but for space, `"` and `\`; nothing else.
    for ok in ["files:read", "https://x.example/s", "a!#[]~"] {
        assert!(super::super::names::is_scope_token(ok), "{ok}");
    }
    for bad in ["", "a b", "a\"b", "a\\b", "é", "a\tb", "\u{7f}"] {
        assert!(!super::super::names::is_scope_token(bad), "{bad:?}");
    }
}

#[test]
fn empty_text_and_missing_description_of_a_scope() {
    let d = single(
        &with("    scopes: s\nauth:\n  scopes:\n    s: {description: \" \"}\n"),
        "empty-text",
        "the scope's description is empty",
        "tools.yaml:12:22",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("say what a token with this scope may do")
    );
    single(
        &with("    scopes: s\nauth:\n  scopes:\n    s: {}\n"),
        "missing-field",
        "a scope is missing the required key `description`",
        "tools.yaml:12:8",
    );
}

#[test]
fn bad_auth_url() {
    let text = with(&format!(
        "{AUTH}  resource: http://mcp.example.com/mcp\n  authorization_servers: [https://auth.example.com, \"https://auth.example.com/#x\"]\n"
    ))
    .replace("    output: text\n", "    output: text\n    scopes: [files:read, files:edit]\n");
    let diags = refused_at(
        &text,
        &[
            ("bad-auth-url", "tools.yaml:16:13"),
            ("bad-auth-url", "tools.yaml:17:53"),
        ],
    );
    assert_eq!(
        diags[0].message,
        "the resource identifier `http://mcp.example.com/mcp` is not an absolute https URL: `http://` is for a loopback host, not `mcp.example.com`"
    );
    assert_eq!(
        diags[1].message,
        "the authorization server `https://auth.example.com/#x` is not an absolute https URL: it has a fragment"
    );
    assert!(
        diags[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("loopback"))
    );
}

#[test]
fn every_scope_fault_is_reported_at_once() {
    // A misspelt and a duplicate reference, and a badly named declaration, which is not also
    // unknown where a prompt lists it; `files:edit`, unused, waits for the misspelling.
    let text = with(
        "    scopes: [files:raed]\n    groups: look\ngroups:\n  look:\n    description: Looks.\n    scopes: [files:read, files:read]\nauth:\n  scopes:\n    files:read:\n      description: Read files.\n    bad name:\n      description: Bad.\n    files:edit:\n      description: Change files.\nprompts:\n  - name: review\n    title: Review\n    description: Reviews.\n    scopes: [bad name]\n",
    );
    let (source, diags) = refused(&text);
    let found: Vec<(&str, String)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.location(&source)))
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-scope", "tools.yaml:9:14".to_owned()),
            ("duplicate-scope", "tools.yaml:14:26".to_owned()),
            ("bad-scope-name", "tools.yaml:19:5".to_owned()),
        ],
        "{}",
        render_all(&diags, &source)
    );
}
