//! Icons: what loads and is published, and every refusal, located and all at once.

use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

use super::{tool_json, with};
use crate::{Contract, Diagnostic, Source, load, render_all};

/// The smallest PNG signature and header, which is all the build reads of a PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x02\0\0\0";
const SVG: &[u8] = b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n";

/// A folder holding `files`, beside which a manifest is loaded.
fn folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

/// The tool of the shared valid manifest with `icons` (an indented YAML sequence) on it,
/// loaded in `dir`; the first icon is on line 10.
fn load_in(dir: &Path, icons: &str) -> (Source, Result<Contract, Vec<Diagnostic>>) {
    let text = with(&format!("    icons:\n{icons}"));
    let source = Source::new("tools.yaml", text).with_dir(dir);
    let loaded = load(&source).map(|l| l.contract);
    (source, loaded)
}

/// The codes, places and messages of a refused manifest's diagnostics, in file order.
#[track_caller]
fn refusals(dir: &Path, icons: &str) -> Vec<(String, String, String)> {
    let (source, loaded) = load_in(dir, icons);
    let diags = loaded.map(|_| ()).expect_err("refused");
    diags
        .iter()
        .map(|d| (d.code.to_string(), d.location(&source), d.message.clone()))
        .collect()
}

#[track_caller]
fn refusal(dir: &Path, icons: &str, code: &str, at: &str, message: &str) {
    let found = refusals(dir, icons);
    assert_eq!(found, [(code.into(), at.into(), message.into())]);
}

#[test]
fn a_url_is_published_as_written_and_a_file_as_a_data_uri_of_its_bytes() {
    let dir = folder(&[("icons/tool.png", PNG), ("logo.svg", SVG)]);
    let (source, loaded) = load_in(
        dir.path(),
        "      - src: https://example.com/tool.png\n        mime_type: image/png\n        \
         sizes: [48x48, 96x96]\n        theme: dark\n      - file: icons/tool.png\n      \
         - {file: ./logo.svg, sizes: [any], theme: light, mime_type: image/svg+xml}\n",
    );
    let contract = loaded.unwrap_or_else(|d| panic!("{}", render_all(&d, &source)));
    let icons: Vec<_> = contract.tools[0]
        .icons
        .iter()
        .map(|i| i.to_json())
        .collect();
    assert_eq!(
        icons,
        [
            json!({"src": "https://example.com/tool.png", "mimeType": "image/png",
                   "sizes": ["48x48", "96x96"], "theme": "dark"}),
            json!({"src": format!("data:image/png;base64,{}", STANDARD.encode(PNG)),
                   "mimeType": "image/png"}),
            json!({"src": format!("data:image/svg+xml;base64,{}", STANDARD.encode(SVG)),
                   "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "light"}),
        ]
    );
    // The wire carries them; the build reruns when either file changes, each named once.
    let wire = tool_json(&contract, &contract.tools[0]);
    assert_eq!(wire["icons"], json!(icons));
    let files = contract.icon_files();
    assert_eq!(
        files,
        [
            dir.path().join("icons/tool.png"),
            dir.path().join("./logo.svg")
        ]
    );
}

#[test]
fn the_server_and_resources_take_icons_too() {
    let dir = folder(&[("icon.png", PNG)]);
    let text = "\
server:
  name: demo
  icons: [{file: icon.png}]
resources:
  - name: about
    uri: demo://about
    title: About
    description: What this is.
    mime_type: text/plain
    icons: [{file: icon.png}, {src: https://example.com/about.svg}]
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
";
    let source = Source::new("tools.yaml", text).with_dir(dir.path());
    let contract = load(&source)
        .unwrap_or_else(|d| panic!("{}", render_all(&d, &source)))
        .contract;
    assert_eq!(contract.server.icons.len(), 1);
    assert_eq!(contract.resources[0].icons.len(), 2);
    assert_eq!(contract.icon_files(), [dir.path().join("icon.png")]);
}

#[test]
fn a_src_must_be_an_https_url() {
    let dir = folder(&[]);
    for (src, message) in [
        (
            "http://example.com/a.png",
            "`http://example.com/a.png` is not an https URL; clients refuse icons from any other scheme",
        ),
        (
            "data:image/png;base64,iVBORw0KGgo=",
            "`data:image/png;base64,iVBORw0KGgo=` is not an https URL; clients refuse icons from any other scheme",
        ),
        (
            "icons/a.png",
            "`icons/a.png` is not an https URL; clients refuse icons from any other scheme",
        ),
        ("https:///a.png", "`https:///a.png` has no host"),
        (
            "https://example.com/a b.png",
            "`https://example.com/a b.png` is not a URL: ' ' cannot appear in a URI",
        ),
    ] {
        refusal(
            dir.path(),
            &format!("      - src: \"{src}\"\n"),
            "bad-icon-url",
            "tools.yaml:10:14",
            message,
        );
    }
    // A path in `src` is told where files go.
    let (_, loaded) = load_in(dir.path(), "      - src: icons/a.png\n");
    let help = loaded.map(|_| ()).unwrap_err()[0].help.clone();
    assert_eq!(
        help.as_deref(),
        Some("a file in the crate is written `file:`, relative to the manifest")
    );
}

#[test]
fn a_file_must_be_a_readable_file_inside_the_manifests_folder() {
    let dir = folder(&[("sub/a.png", PNG)]);
    let outside = "is not a path inside the manifest's folder";
    for (file, message) in [
        ("../a.png", format!("`../a.png` {outside}")),
        ("/etc/passwd", format!("`/etc/passwd` {outside}")),
        ("sub\\\\a.png", format!("`sub\\a.png` {outside}")),
        ("sub", "`sub` is not a file".to_owned()),
    ] {
        refusal(
            dir.path(),
            &format!("      - file: \"{file}\"\n"),
            "bad-icon-file",
            "tools.yaml:10:15",
            &message,
        );
    }
    let found = refusals(dir.path(), "      - file: missing.png\n");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "bad-icon-file");
    assert!(
        found[0].2.starts_with("cannot read `missing.png`: "),
        "{}",
        found[0].2
    );
}

#[test]
fn a_file_over_32_kib_is_refused_and_one_of_32_kib_loads() {
    let mut png = PNG.to_vec();
    png.resize(32 * 1024, 0);
    let mut larger = png.clone();
    larger.push(0);
    let dir = folder(&[("ok.png", &png), ("big.png", &larger)]);
    let (source, loaded) = load_in(dir.path(), "      - file: ok.png\n");
    loaded.unwrap_or_else(|d| panic!("{}", render_all(&d, &source)));
    refusal(
        dir.path(),
        "      - file: big.png\n",
        "icon-too-large",
        "tools.yaml:10:15",
        "`big.png` has 32769 bytes; an icon file may have at most 32768",
    );
}

#[test]
fn the_type_is_read_from_the_bytes_and_must_be_one_clients_render() {
    let dir = folder(&[
        ("a.png", PNG),
        ("a.svg", SVG),
        ("a.gif", b"GIF89a\x01\0\x01\0\0\0\0;"),
        ("notes.txt", b"not an image"),
    ]);
    refusal(
        dir.path(),
        "      - {file: a.svg, mime_type: image/png}\n",
        "icon-type-mismatch",
        "tools.yaml:10:34",
        "`mime_type: image/png`, but `a.svg` is an SVG image",
    );
    // The name says nothing: a PNG called `.svg` is a PNG.
    let (source, loaded) = load_in(dir.path(), "      - {file: a.png, mime_type: image/jpg}\n");
    assert_eq!(
        loaded.map(|_| ()).unwrap_err()[0].help.as_deref(),
        Some(
            "write `mime_type: image/png`, or leave it out: the build reads the type from the file"
        ),
        "{}",
        source.text
    );
    refusal(
        dir.path(),
        "      - file: a.gif\n",
        "unsupported-icon-type",
        "tools.yaml:10:15",
        "`a.gif` is a GIF image, which clients need not render",
    );
    refusal(
        dir.path(),
        "      - file: notes.txt\n",
        "unsupported-icon-type",
        "tools.yaml:10:15",
        "`notes.txt` is not a PNG, JPEG, SVG or WebP image",
    );
    refusal(
        dir.path(),
        "      - {src: \"https://example.com/a.gif\", mime_type: image/gif}\n",
        "unsupported-icon-type",
        "tools.yaml:10:55",
        "`image/gif` is not one of the icon types the spec asks clients to render",
    );
}

#[test]
fn an_svg_that_could_run_code_is_refused() {
    let dir = folder(&[(
        "a.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"steal()\"/>",
    )]);
    refusal(
        dir.path(),
        "      - file: a.svg\n",
        "active-svg-icon",
        "tools.yaml:10:15",
        "`a.svg` holds an event handler attribute (`on…=`)",
    );
}

#[test]
fn sizes_are_wxh_or_any_and_the_theme_light_or_dark() {
    let dir = folder(&[]);
    let found = refusals(
        dir.path(),
        "      - src: https://example.com/a.png\n        \
         sizes: [48x48, \"48\", 48X48, 048x48, \"0x0\", any, 16x]\n        theme: night\n",
    );
    let found: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|(c, at, m)| (c.as_str(), at.as_str(), m.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "bad-icon-size",
                "tools.yaml:11:24",
                "`48` is not an icon size"
            ),
            (
                "bad-icon-size",
                "tools.yaml:11:30",
                "`48X48` is not an icon size"
            ),
            (
                "bad-icon-size",
                "tools.yaml:11:37",
                "`048x48` is not an icon size"
            ),
            (
                "bad-icon-size",
                "tools.yaml:11:45",
                "`0x0` is not an icon size"
            ),
            (
                "bad-icon-size",
                "tools.yaml:11:57",
                "`16x` is not an icon size"
            ),
            (
                "bad-icon-theme",
                "tools.yaml:12:16",
                "unknown icon theme `night`"
            ),
        ]
    );
}

#[test]
fn an_icon_has_src_or_file_and_every_icon_is_judged() {
    let dir = folder(&[("a.png", PNG)]);
    let found = refusals(
        dir.path(),
        "      - {src: \"https://example.com/a.png\", file: a.png}\n      - {sizes: [any]}\n      \
         - src: http://example.com/b.png\n      - file: a.png\n",
    );
    let found: Vec<(&str, &str)> = found
        .iter()
        .map(|(c, at, _)| (c.as_str(), at.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("icon-source", "tools.yaml:10:50"),
            ("icon-source", "tools.yaml:11:9"),
            ("bad-icon-url", "tools.yaml:12:14"),
        ]
    );
}

#[test]
fn an_icon_has_only_the_keys_of_the_spec() {
    let dir = folder(&[]);
    let (_, loaded) = load_in(
        dir.path(),
        "      - {src: \"https://example.com/a.png\", size: 48x48}\n",
    );
    let diags = loaded.map(|_| ()).unwrap_err();
    assert_eq!(diags[0].code, "unknown-key");
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `sizes`?"));
}
