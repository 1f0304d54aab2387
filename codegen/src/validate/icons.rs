//! Icons, on any entity that has them: each an `https:` URL, or an image file relative to the
//! manifest, which the build checks by its bytes and embeds as a `data:` URI. The spec tells
//! clients to reject every other scheme and to verify an icon's type by its magic number; both
//! are checked here, before anything is published.

use std::path::{Component, Path};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::Validator;
use super::image::{ImageType, SUPPORTED};
use super::resources::fixed_uri;
use crate::diagnostic::codes;
use crate::manifest as raw;
use crate::model::{IconDef, IconTheme};
use crate::source::Spanned;

/// The largest icon file embedded. Its `data:` URI (a third larger) travels in every result
/// that lists the entity: each `tools/list`, `initialize` and `server/discover`. 32 KiB holds a
/// 256x256 PNG icon or any reasonable SVG; an image beyond it belongs at an `https:` URL.
pub(super) const MAX_ICON_BYTES: u64 = 32 * 1024;

impl Validator<'_> {
    /// The icons of one entity, each checked whole; the ones that pass every rule.
    pub(super) fn icons(&mut self, icons: &[raw::Icon]) -> Vec<IconDef> {
        icons.iter().filter_map(|icon| self.icon(icon)).collect()
    }

    /// One icon. Its source, sizes and theme are independent, so each is judged.
    fn icon(&mut self, icon: &raw::Icon) -> Option<IconDef> {
        let bad_sizes: Vec<&Spanned<String>> =
            icon.sizes.iter().filter(|s| !is_size(&s.value)).collect();
        for size in &bad_sizes {
            self.report(
                &codes::BAD_ICON_SIZE,
                format!("`{}` is not an icon size", size.value),
                size.span,
            );
        }
        let theme = icon.theme.as_ref().map(|t| match t.value.as_str() {
            "light" => Some(IconTheme::Light),
            "dark" => Some(IconTheme::Dark),
            other => {
                self.report(
                    &codes::BAD_ICON_THEME,
                    format!("unknown icon theme `{other}`"),
                    t.span,
                );
                None
            }
        });
        let source = match (&icon.src, &icon.file) {
            (Some(url), None) => self.icon_url(url, icon.mime_type.as_ref()),
            (None, Some(file)) => self.icon_file(file, icon.mime_type.as_ref()),
            (Some(_), Some(file)) => {
                self.report(
                    &codes::ICON_SOURCE,
                    "an icon has `src` or `file`, not both",
                    file.span,
                );
                None
            }
            (None, None) => {
                self.report(
                    &codes::ICON_SOURCE,
                    "an icon has no `src` or `file`",
                    icon.span,
                );
                None
            }
        };
        // Unwritten, the theme is none; written wrong, the icon is refused.
        let theme = theme.map_or(Some(None), |t| t.map(Some));
        let (source, theme) = (source?, theme?);
        bad_sizes.is_empty().then(|| IconDef {
            sizes: icon.sizes.iter().map(|s| s.value.clone()).collect(),
            theme,
            ..source
        })
    }

    /// An `https:` URL, published as written, with its MIME type when one is given.
    fn icon_url(
        &mut self,
        url: &Spanned<String>,
        mime_type: Option<&Spanned<String>>,
    ) -> Option<IconDef> {
        let problem = if !url.value.starts_with("https://") {
            Some(format!(
                "`{}` is not an https URL; clients refuse icons from any other scheme",
                url.value
            ))
        } else if url.value["https://".len()..]
            .split(['/', '?', '#'])
            .next()
            .is_none_or(str::is_empty)
        {
            Some(format!("`{}` has no host", url.value))
        } else {
            fixed_uri(&url.value)
                .err()
                .map(|p| format!("`{}` is not a URL: {p}", url.value))
        };
        let url_ok = problem.is_none();
        if let Some(problem) = problem {
            let help = if url.value.contains("://") || url.value.starts_with("data:") {
                "write an `https://` URL, or `file:` with an image in the crate, which the build embeds as a `data:` URI"
            } else {
                "a file in the crate is written `file:`, relative to the manifest"
            };
            self.error(&codes::BAD_ICON_URL, problem, url.span, help);
        }
        let mime_ok = match mime_type {
            None => true,
            Some(m) => match ImageType::from_mime(&m.value) {
                Some(t) if t.supported() => true,
                _ => {
                    self.unsupported(
                        m,
                        format!(
                            "`{}` is not one of the icon types the spec asks clients to render",
                            m.value
                        ),
                    );
                    false
                }
            },
        };
        (url_ok && mime_ok).then(|| IconDef {
            src: url.value.clone(),
            mime_type: mime_type.map(|m| m.value.trim().to_owned()),
            sizes: Vec::new(),
            theme: None,
            file: None,
            path: None,
        })
    }

    /// An image file relative to the manifest, read, told by its bytes and embedded.
    fn icon_file(
        &mut self,
        file: &Spanned<String>,
        mime_type: Option<&Spanned<String>>,
    ) -> Option<IconDef> {
        let relative = Path::new(&file.value);
        if !inside_the_folder(&file.value) {
            self.error(
                &codes::BAD_ICON_FILE,
                format!("`{}` is not a path inside the manifest's folder", file.value),
                file.span,
                "write the path relative to the manifest, with `/` and without `..`, such as `icons/tool.png`",
            );
            return None;
        }
        let path = self.dir.join(relative);
        let bytes = match std::fs::metadata(&path) {
            Ok(m) if !m.is_file() => Err(format!("`{}` is not a file", file.value)),
            Ok(m) if m.len() > MAX_ICON_BYTES => {
                self.error(
                    &codes::ICON_TOO_LARGE,
                    format!(
                        "`{}` has {} bytes; an icon file may have at most {MAX_ICON_BYTES}",
                        file.value,
                        m.len()
                    ),
                    file.span,
                    "shrink the image, or host it and write `src: https://…`",
                );
                return None;
            }
            Ok(_) => std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", file.value)),
            Err(e) => Err(format!("cannot read `{}`: {e}", file.value)),
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(problem) => {
                self.error(
                    &codes::BAD_ICON_FILE,
                    problem,
                    file.span,
                    format!(
                        "the path is relative to the manifest's folder, `{}`",
                        self.dir.display()
                    ),
                );
                return None;
            }
        };
        let Some(found) = ImageType::sniff(&bytes) else {
            self.unsupported(
                file,
                format!("`{}` is not a PNG, JPEG, SVG or WebP image", file.value),
            );
            return None;
        };
        if let Some(m) = mime_type
            && ImageType::from_mime(&m.value) != Some(found)
        {
            self.error(
                &codes::ICON_TYPE_MISMATCH,
                format!(
                    "`mime_type: {}`, but `{}` is {}",
                    m.value,
                    file.value,
                    found.name()
                ),
                m.span,
                format!(
                    "write `mime_type: {}`, or leave it out: the build reads the type from the file",
                    found.mime_type()
                ),
            );
            return None;
        }
        if !found.supported() {
            self.unsupported(
                file,
                format!(
                    "`{}` is {}, which clients need not render",
                    file.value,
                    found.name()
                ),
            );
            return None;
        }
        if found == ImageType::Svg
            && let Some(what) = super::image::svg_active_content(&bytes)
        {
            self.error(
                &codes::ACTIVE_SVG_ICON,
                format!("`{}` holds {what}", file.value),
                file.span,
                "remove it: an icon is a picture, and clients are told to distrust SVGs that carry code",
            );
            return None;
        }
        Some(IconDef {
            src: format!(
                "data:{};base64,{}",
                found.mime_type(),
                STANDARD.encode(&bytes)
            ),
            mime_type: Some(
                mime_type.map_or(found.mime_type().to_owned(), |m| m.value.trim().to_owned()),
            ),
            sizes: Vec::new(),
            theme: None,
            file: Some(file.value.clone()),
            path: Some(path),
        })
    }

    /// `unsupported-icon-type` at `at`.
    fn unsupported(&mut self, at: &Spanned<String>, message: String) {
        self.error(
            &codes::UNSUPPORTED_ICON_TYPE,
            message,
            at.span,
            format!("use an image in one of the types clients render: {SUPPORTED}"),
        );
    }
}

/// `WxH` in whole pixels (`48x48`), or `any` for an image that scales.
fn is_size(size: &str) -> bool {
    let pixels =
        |n: &str| !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(w, h)| pixels(w) && pixels(h))
}

/// Whether `file`, as written, is a path inside the manifest's folder: relative, with `/`,
/// without `..`. Files the build embeds (icons, apps' HTML) are part of the crate.
pub(super) fn inside_the_folder(file: &str) -> bool {
    !file.is_empty()
        && !file.contains('\\')
        && (Path::new(file).components())
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}
