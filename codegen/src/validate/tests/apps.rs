//! MCP Apps: a `ui://` resource's HTML and frame settings, and each tool's link to one. Each
//! rule is pinned by a manifest that breaks it, with its code, message and place; what loads
//! is pinned by what it publishes.

use serde_json::json;
use sha2::Digest as _;

use super::{refused, refused_at, single, tool_json};
use crate::{Contract, Diagnostic, Source, load, render_all};

/// The HTML of [`APP`].
const HTML: &str = "<!DOCTYPE html><title>Board</title>";

/// A tool opening an app, and the app: the tool's `app:` is line 9, the resource's `uri:`
/// line 12, its `mime_type:` line 15 and its `app:` mapping starts on line 17.
const APP: &str = "\
server:
  name: demo
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    app: {resource: ui://demo/board}
resources:
  - name: board
    uri: ui://demo/board
    title: Board
    description: The board.
    mime_type: text/html;profile=mcp-app
    app:
      html: \"<!DOCTYPE html><title>Board</title>\"
";

/// [`APP`] with its only occurrence of `from` replaced.
fn app(from: &str, to: &str) -> String {
    assert_eq!(APP.matches(from).count(), 1, "`{from}` must occur once");
    APP.replacen(from, to, 1)
}

/// The version the build gives `html`: the first 16 hex digits of its SHA-256.
fn version(html: &str) -> String {
    let hex: String = (sha2::Sha256::digest(html.as_bytes()).iter())
        .map(|b| format!("{b:02x}"))
        .collect();
    hex[..16].to_owned()
}

/// Loads `text` beside `files` (name, bytes) in a temporary folder.
fn load_beside(text: &str, files: &[(&str, &[u8])]) -> (Source, Result<Contract, Vec<Diagnostic>>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let source = Source::new("tools.yaml", text).with_dir(dir.path());
    let loaded = load(&source).map(|l| l.contract);
    (source, loaded)
}

/// The one diagnostic of `text` loaded beside `files`: its code, place and message.
#[track_caller]
fn refused_beside(text: &str, files: &[(&str, &[u8])]) -> (String, String, String) {
    let (source, loaded) = load_beside(text, files);
    let diags = loaded.map(|_| ()).expect_err("refused");
    assert_eq!(diags.len(), 1, "{}", render_all(&diags, &source));
    let d = &diags[0];
    (d.code.to_string(), d.location(&source), d.message.clone())
}

#[test]
fn a_tool_publishes_its_app_by_a_uri_versioned_by_the_html() {
    let (source, loaded) = load_beside(APP, &[]);
    let contract = loaded.unwrap_or_else(|d| panic!("{}", render_all(&d, &source)));
    let uri = format!("ui://demo/board?v={}", version(HTML));
    let tool = tool_json(&contract, &contract.tools[0]);
    assert_eq!(
        tool["_meta"],
        json!({"ui": {"resourceUri": uri, "visibility": ["model", "app"]}})
    );
    let board = &contract.resources[0];
    assert_eq!(board.published_uri(), uri);
    assert!(!board.handled(), "an app has no handler method");
    let app = board.app.as_ref().unwrap();
    assert_eq!(app.html, HTML);
    // No settings written: an empty `ui`, which still tells a host the resource is an app's.
    assert_eq!(app.meta(), json!({}));
}

#[test]
fn another_html_is_another_uri() {
    let changed = app("<title>Board</title>", "<title>Board 2</title>");
    let (_, loaded) = load_beside(&changed, &[]);
    let contract = loaded.unwrap();
    let before = load_beside(APP, &[]).1.unwrap();
    assert_ne!(
        contract.resources[0].published_uri(),
        before.resources[0].published_uri()
    );
}

#[test]
fn every_setting_is_published_under_the_extension_s_names() {
    let text = app(
        "      html: \"<!DOCTYPE html><title>Board</title>\"\n",
        "      file: apps/board.html
      csp:
        connect_domains: [https://api.example.com, wss://live.example.com:8443]
        resource_domains: [https://*.cdn.example.com]
        frame_domains: [https://www.youtube.com]
        base_uri_domains: [https://cdn.example.com]
      permissions: [clipboard_write, camera]
      prefers_border: false
      domain: a904794854a047f6.claudemcpcontent.com
",
    )
    .replace(
        "app: {resource: ui://demo/board}",
        "app: {resource: ui://demo/board, visibility: [app]}",
    );
    let html = "<!-- the board -->\n<!doctype html>\n<p>board</p>\n";
    let (source, loaded) = load_beside(&text, &[("apps/board.html", html.as_bytes())]);
    let contract = loaded.unwrap_or_else(|d| panic!("{}", render_all(&d, &source)));
    let app = contract.resources[0].app.as_ref().unwrap();
    assert_eq!(
        app.meta(),
        json!({
            "csp": {
                "connectDomains": ["https://api.example.com", "wss://live.example.com:8443"],
                "resourceDomains": ["https://*.cdn.example.com"],
                "frameDomains": ["https://www.youtube.com"],
                "baseUriDomains": ["https://cdn.example.com"],
            },
            "permissions": {"clipboardWrite": {}, "camera": {}},
            "domain": "a904794854a047f6.claudemcpcontent.com",
            "prefersBorder": false,
        })
    );
    assert_eq!(app.html, html);
    assert_eq!(contract.app_files().len(), 1);
    let tool = tool_json(&contract, &contract.tools[0]);
    assert_eq!(tool["_meta"]["ui"]["visibility"], json!(["app"]));
    assert_eq!(
        tool["_meta"]["ui"]["resourceUri"],
        format!("ui://demo/board?v={}", version(html))
    );
}

#[test]
fn an_app_only_tool_keeps_its_schema_and_hints() {
    let text = app(
        "app: {resource: ui://demo/board}",
        "app: {resource: ui://demo/board, visibility: [app]}\n    parameters:\n      \
         day: {type: string, description: The day., example: monday}",
    );
    let (_, loaded) = load_beside(&text, &[]);
    let contract = loaded.unwrap();
    let tool = tool_json(&contract, &contract.tools[0]);
    assert_eq!(tool["inputSchema"]["properties"]["day"]["type"], "string");
    assert_eq!(tool["inputSchema"]["required"], json!(["day"]));
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], false);
    // Hidden from the model is no excuse for missing hints: the same refusal as any tool's.
    let text = text.replace(
        "    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n",
        "",
    );
    let (_, diags) = refused(&text);
    assert!(
        diags.iter().all(|d| d.code == "unresolved-hint"),
        "{diags:?}"
    );
    assert!(!diags.is_empty());
}

#[test]
fn unknown_app() {
    let d = single(
        &app("{resource: ui://demo/board}", "{resource: ui://demo/bord}"),
        "unknown-app",
        "`ui://demo/bord` names no app resource",
        "tools.yaml:9:21",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("the apps declared are `ui://demo/board`")
    );
}

#[test]
fn a_resource_without_app_is_no_app() {
    let text = APP.replace("{resource: ui://demo/board}", "{resource: x://plain}")
        + "  - name: plain\n    uri: x://plain\n    title: Plain\n    description: Text.\n    mime_type: text/plain\n";
    single(
        &text,
        "unknown-app",
        "the resource `plain` holds no app",
        "tools.yaml:9:21",
    );
}

#[test]
fn app_mime_type() {
    let d = single(
        &app(
            "mime_type: text/html;profile=mcp-app",
            "mime_type: text/html",
        ),
        "app-mime-type",
        "an app's MIME type is `text/html;profile=mcp-app`, not `text/html`",
        "tools.yaml:15:16",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `mime_type: text/html;profile=mcp-app`")
    );
}

#[test]
fn bad_app_resource() {
    // Not `ui://`; the tool opening it says nothing more.
    single(
        &app("uri: ui://demo/board", "uri: https://example.com/board").replace(
            "resource: ui://demo/board",
            "resource: https://example.com/board",
        ),
        "bad-app-resource",
        "`https://example.com/board` holds an app, but is not a `ui://` URI",
        "tools.yaml:12:10",
    );
    single(
        &app("uri: ui://demo/board", "uri: ui://demo/board?theme=dark").replace(
            "resource: ui://demo/board}",
            "resource: \"ui://demo/board?theme=dark\"}",
        ),
        "bad-app-resource",
        "`ui://demo/board?theme=dark` has a query or fragment",
        "tools.yaml:12:10",
    );
    single(
        &app("    app:\n", "    subscribe: true\n    app:\n"),
        "bad-app-resource",
        "an app's HTML never changes while the server runs",
        "tools.yaml:16:16",
    );
    // A `ui://` resource must be an app; the tool opening it says nothing more.
    let text = app(
        "    app:\n      html: \"<!DOCTYPE html><title>Board</title>\"\n",
        "",
    );
    single(
        &text,
        "bad-app-resource",
        "`ui://demo/board` is a `ui://` resource without `app:`",
        "tools.yaml:12:10",
    );
}

#[test]
fn app_settings_on_tool() {
    let d = refused_at(
        &app(
            "app: {resource: ui://demo/board}",
            "app: {resource: ui://demo/board, csp: {connect_domains: [https://a.example.com]}, prefers_border: true}\n    \
             _meta: {ui: {resourceUri: ui://demo/board}}",
        ),
        &[
            ("app-settings-on-tool", "tools.yaml:9:38"),
            ("app-settings-on-tool", "tools.yaml:9:87"),
            ("app-settings-on-tool", "tools.yaml:10:13"),
        ],
    );
    assert_eq!(
        d[0].message,
        "`csp` belongs to the app's resource, not to a tool"
    );
    assert_eq!(d[2].message, "`_meta.ui` is written by hand beside `app:`");
    // Without `app:`, `_meta.ui` passes through as any key, but never with frame settings.
    single(
        &app(
            "app: {resource: ui://demo/board}",
            "_meta: {ui: {resourceUri: ui://demo/board, csp: {connectDomains: []}}}",
        ),
        "app-settings-on-tool",
        "`_meta.ui.csp` is set on a tool",
        "tools.yaml:9:13",
    );
}

#[test]
fn bad_csp_origin() {
    let d = refused_at(
        &app(
            "    app:\n",
            "    app:\n      csp:\n        connect_domains: [api.example.com, https://api.example.com/v1]\n        frame_domains: [\"'self'\"]\n",
        ),
        &[
            ("bad-csp-origin", "tools.yaml:18:27"),
            ("bad-csp-origin", "tools.yaml:18:44"),
            ("bad-csp-origin", "tools.yaml:19:25"),
        ],
    );
    assert_eq!(
        d[1].message,
        "`https://api.example.com/v1` in `connect_domains` is not an origin: an origin ends after the host and port, and `/v1` follows"
    );
}

#[test]
fn bad_app_permission() {
    let d = single(
        &app(
            "    app:\n",
            "    app:\n      permissions: [camera, clipboard]\n",
        ),
        "bad-app-permission",
        "`clipboard` is not a permission an app can ask for",
        "tools.yaml:17:29",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write one of camera, microphone, geolocation, clipboard_write")
    );
}

#[test]
fn bad_app_visibility() {
    single(
        &app(
            "{resource: ui://demo/board}",
            "{resource: ui://demo/board, visibility: [model, user]}",
        ),
        "bad-app-visibility",
        "`user` is not a visibility",
        "tools.yaml:9:58",
    );
    single(
        &app(
            "{resource: ui://demo/board}",
            "{resource: ui://demo/board, visibility: []}",
        ),
        "bad-app-visibility",
        "a tool visible to no one can never be called",
        "tools.yaml:9:50",
    );
}

#[test]
fn app_html() {
    let file = |name: &str| {
        app(
            "      html: \"<!DOCTYPE html><title>Board</title>\"\n",
            &format!("      file: {name}\n"),
        )
    };
    assert_eq!(
        refused_beside(&file("board.html"), &[]).0,
        "app-html",
        "a missing file"
    );
    assert_eq!(
        refused_beside(
            &file("board.html"),
            &[("board.html", b"<!DOCTYPE html>\xff\xfe")]
        ),
        (
            "app-html".into(),
            "tools.yaml:17:13".into(),
            "`board.html` is not UTF-8 (byte 15 is not)".into()
        )
    );
    assert_eq!(
        refused_beside(
            &file("board.html"),
            &[("board.html", b"<div>a fragment</div>")]
        ),
        (
            "app-html".into(),
            "tools.yaml:17:13".into(),
            "`board.html` is not an HTML document: it does not begin with `<!DOCTYPE html>`".into()
        )
    );
    assert_eq!(
        refused_beside(&file("../board.html"), &[]).2,
        "`../board.html` is not a path inside the manifest's folder"
    );
    single(
        &app("<!DOCTYPE html><title>Board</title>", "<p>Board</p>"),
        "app-html",
        "`html:` is not an HTML document: it does not begin with `<!DOCTYPE html>`",
        "tools.yaml:17:13",
    );
    single(
        &app("    app:\n", "    app:\n      file: board.html\n"),
        "app-html",
        "an app has `file:` or `html:`, not both",
        "tools.yaml:18:13",
    );
}
