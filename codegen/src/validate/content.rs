//! `output.content`: the kinds of content block a tool answers with, and their MIME types.

use super::Validator;
use super::resources::is_mime_type;
use crate::diagnostic::{Diagnostic, codes, suggest};
use crate::manifest as raw;
use crate::model::{ContentBlockDef, ContentKind};
use crate::source::Spanned;

impl Validator<'_> {
    /// The declared blocks, each kind once with sound MIME types; empty when none is declared.
    pub(super) fn content(
        &mut self,
        content: Option<&Spanned<Vec<raw::ContentBlock>>>,
    ) -> Vec<ContentBlockDef> {
        let Some(content) = content else {
            return Vec::new();
        };
        if content.value.is_empty() {
            self.report(
                &codes::EMPTY_CONTENT,
                "`content` lists no block",
                content.span,
            );
        }
        let mut blocks: Vec<ContentBlockDef> = Vec::new();
        for block in &content.value {
            let Some(kind) = &block.kind else { continue };
            let Some(k) = ContentKind::from_name(&kind.value) else {
                let known = ContentKind::ALL.map(ContentKind::name);
                let help = match suggest(&kind.value, &known) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("a content kind is one of {}", list(&known)),
                };
                self.error(
                    &codes::UNKNOWN_CONTENT_KIND,
                    format!("unknown content kind `{}`", kind.value),
                    kind.span,
                    help,
                );
                continue;
            };
            if let Some(first) = blocks.iter().find(|b| b.kind == k) {
                let d = Diagnostic::new(
                    &codes::DUPLICATE_CONTENT_KIND,
                    format!("the content kind `{}` is listed twice", kind.value),
                    kind.span,
                )
                .label("listed again here")
                .related(first.span, "first listed here");
                self.diags.push(d);
                continue;
            }
            let mime_types = self.mime_types(k, block);
            blocks.push(ContentBlockDef {
                kind: k,
                mime_types,
                span: kind.span,
            });
        }
        blocks
    }

    /// A block's MIME types: required and sound for the kinds that carry one, absent for the
    /// others.
    fn mime_types(&mut self, kind: ContentKind, block: &raw::ContentBlock) -> Vec<String> {
        let name = kind.name();
        let Some(written) = &block.mime_types else {
            if kind.has_mime_types() {
                self.error(
                    &codes::CONTENT_MIME_TYPES,
                    format!("`{name}` content needs `mime_types`"),
                    block.span,
                    format!(
                        "list the MIME types its blocks may have, such as `mime_types: [{}]`",
                        example(kind)
                    ),
                );
            }
            return Vec::new();
        };
        if !kind.has_mime_types() {
            self.error(
                &codes::CONTENT_MIME_TYPES,
                format!("`{name}` content has no MIME type to declare"),
                written.span,
                match kind {
                    ContentKind::ResourceLink => {
                        "remove `mime_types:`; a link's MIME type is the linked resource's"
                    }
                    _ => "remove `mime_types:`; a text block is always text",
                },
            );
            return Vec::new();
        }
        if written.value.is_empty() {
            self.error(
                &codes::CONTENT_MIME_TYPES,
                format!("`{name}` content lists no MIME type"),
                written.span,
                format!(
                    "list at least one, such as `mime_types: [{}]`",
                    example(kind)
                ),
            );
        }
        let mut sound = Vec::new();
        for m in &written.value {
            let mime = m.value.trim();
            if !is_mime_type(mime) {
                self.report(
                    &codes::BAD_MIME_TYPE,
                    format!("`{}` is not a MIME type", m.value),
                    m.span,
                );
                continue;
            }
            if let Some(top) = kind.mime_top_level()
                && !mime
                    .split('/')
                    .next()
                    .is_some_and(|t| t.eq_ignore_ascii_case(top))
            {
                self.error(
                    &codes::MIME_TYPE_MISMATCH,
                    format!("`{name}` content cannot be `{mime}`"),
                    m.span,
                    format!(
                        "an `{name}` block's MIME type is `{top}/…`, such as `{}`",
                        example(kind)
                    ),
                );
                continue;
            }
            if !sound.iter().any(|s: &String| s.eq_ignore_ascii_case(mime)) {
                sound.push(mime.to_owned());
            }
        }
        sound
    }
}

/// A MIME type a block of `kind` may have, for help texts.
fn example(kind: ContentKind) -> &'static str {
    match kind {
        ContentKind::Image => "image/png",
        ContentKind::Audio => "audio/wav",
        _ => "text/plain",
    }
}

fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}
