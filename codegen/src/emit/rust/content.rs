//! A tool's declared content (`output.content`): the enum of the blocks its handler may build,
//! and what the dispatch arm tells the runtime to check.

use super::*;

/// `{Tool}Content`: one variant per declared kind, with a MIME type to give only where the
/// manifest allows more than one; and its conversion into the runtime's block.
pub(super) fn content_enum(w: &mut Code, t: &ToolDef) {
    if t.content.is_empty() {
        return;
    }
    let name = t.content_type();
    w.doc(
        0,
        &format!(
            "A content block `{}` answers with: only the kinds its manifest declares.",
            t.name
        ),
    );
    w.line(0, &["#[derive(Debug, Clone, PartialEq, Eq)]"]);
    ln!(w, 0, "pub enum {name} {{");
    for b in &t.content {
        variant(w, b);
    }
    w.line(0, &["}"]);
    declared(w, t);
    ln!(
        w,
        0,
        "impl ::core::convert::From<{name}> for ::mcp_contract::codegen::Block {{"
    );
    ln!(w, 1, "fn from(block: {name}) -> Self {{");
    w.line(2, &["use ::mcp_contract::codegen::Block;"]);
    w.line(2, &["match block {"]);
    for b in &t.content {
        arm(w, &name, b);
    }
    w.line(2, &["}"]);
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

fn variant(w: &mut Code, b: &ContentBlockDef) {
    let v = b.kind.variant();
    let mime = |w: &mut Code| {
        let listed: Vec<String> = b.mime_types.iter().map(|m| format!("`{m}`")).collect();
        w.doc(2, &format!("Its MIME type: one of {}.", listed.join(", ")));
        w.line(2, &["mime_type: ::std::string::String,"]);
    };
    match b.kind {
        ContentKind::Text => {
            w.doc(1, "A text block.");
            w.line(1, &["Text(::std::string::String),"]);
        }
        ContentKind::ResourceLink => {
            w.doc(1, "A link to a resource the client may read.");
            w.line(1, &["ResourceLink(::mcp_contract::ResourceLink),"]);
        }
        ContentKind::Image | ContentKind::Audio => {
            let what = if b.kind == ContentKind::Image {
                "An image"
            } else {
                "Audio"
            };
            match b.fixed_mime_type() {
                Some(m) => w.doc(1, &format!("{what}, `{m}`.")),
                None => w.doc(1, &format!("{what}, of a declared MIME type.")),
            }
            ln!(w, 1, "{v} {{");
            w.doc(2, "Its bytes, raw or base64.");
            w.line(2, &["data: ::mcp_contract::Data,"]);
            if b.fixed_mime_type().is_none() {
                mime(w);
            }
            w.line(1, &["},"]);
        }
        ContentKind::Resource => {
            match b.fixed_mime_type() {
                Some(m) => w.doc(1, &format!("An embedded resource, `{m}`.")),
                None => w.doc(1, "An embedded resource, of a declared MIME type."),
            }
            ln!(w, 1, "{v} {{");
            w.doc(2, "Its URI.");
            w.line(2, &["uri: ::std::string::String,"]);
            w.doc(2, "Its contents: text, or bytes (sent base64-encoded).");
            w.line(2, &["body: ::mcp_contract::ResourceBody,"]);
            if b.fixed_mime_type().is_none() {
                mime(w);
            }
            w.line(1, &["},"]);
        }
    }
}

fn arm(w: &mut Code, name: &str, b: &ContentBlockDef) {
    let v = b.kind.variant();
    let block = "Block";
    // The MIME type the manifest fixes, or the one the handler gave.
    let (bind, mime) = match b.fixed_mime_type() {
        Some(m) => (String::new(), format!("mime_type: {}.into()", string(m))),
        None => (", mime_type".into(), "mime_type".into()),
    };
    match b.kind {
        ContentKind::Text => ln!(w, 3, "{name}::Text(text) => {block}::Text(text),"),
        ContentKind::ResourceLink => {
            ln!(
                w,
                3,
                "{name}::ResourceLink(link) => {block}::ResourceLink(link),"
            );
        }
        ContentKind::Image | ContentKind::Audio => {
            ln!(
                w,
                3,
                "{name}::{v} {{ data{bind} }} => {block}::{v} {{ data, {mime} }},"
            );
        }
        ContentKind::Resource => {
            ln!(w, 3, "{name}::Resource {{ uri, body{bind} }} => {{");
            ln!(w, 4, "{block}::Resource {{ uri, body, {mime} }}");
            w.line(3, &["}"]);
        }
    }
}

/// `DECLARED`: the MIME types the manifest declares for each kind, which the runtime holds
/// every block the handler returns to.
fn declared(w: &mut Code, t: &ToolDef) {
    let of = |kind: ContentKind| {
        strings(
            t.content
                .iter()
                .filter(|b| b.kind == kind)
                .flat_map(|b| b.mime_types.iter()),
        )
    };
    ln!(w, 0, "impl {} {{", t.content_type());
    w.doc(
        1,
        "The MIME types the manifest declares, which the runtime holds each block to.",
    );
    w.line(1, &["const DECLARED: ::mcp_contract::codegen::Declared = ::mcp_contract::codegen::Declared {"]);
    ln!(w, 2, "image: &[{}],", of(ContentKind::Image));
    ln!(w, 2, "audio: &[{}],", of(ContentKind::Audio));
    ln!(w, 2, "resource: &[{}],", of(ContentKind::Resource));
    w.line(1, &["};"]);
    w.line(0, &["}"]);
}
