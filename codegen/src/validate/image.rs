//! What an icon file is, told from its first bytes (its magic number) rather than its name,
//! as the spec asks of anyone handling icons: "detect content type via magic bytes". A few
//! bytes per format, so the build dependency gains no image crate.

/// An image format an icon file may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ImageType {
    Png,
    Jpeg,
    WebP,
    Svg,
    Gif,
    Ico,
}

/// The MIME types clients that render icons must (PNG, JPEG) or should (SVG, WebP) support,
/// as the spec's `Icons` lists them; an icon of any other type may be shown by no client.
pub(super) const SUPPORTED: &str = "image/png, image/jpeg, image/svg+xml or image/webp";

impl ImageType {
    /// The MIME type the file is published with, and the `data:` URI names.
    pub(super) fn mime_type(self) -> &'static str {
        match self {
            ImageType::Png => "image/png",
            ImageType::Jpeg => "image/jpeg",
            ImageType::WebP => "image/webp",
            ImageType::Svg => "image/svg+xml",
            ImageType::Gif => "image/gif",
            ImageType::Ico => "image/x-icon",
        }
    }

    /// What the bytes are, in a message.
    pub(super) fn name(self) -> &'static str {
        match self {
            ImageType::Png => "a PNG image",
            ImageType::Jpeg => "a JPEG image",
            ImageType::WebP => "a WebP image",
            ImageType::Svg => "an SVG image",
            ImageType::Gif => "a GIF image",
            ImageType::Ico => "an ICO image",
        }
    }

    /// Whether the spec asks clients to render it.
    pub(super) fn supported(self) -> bool {
        !matches!(self, ImageType::Gif | ImageType::Ico)
    }

    /// The type a MIME type names, parameters and case aside; `image/jpg` is the alias the
    /// spec itself lists beside `image/jpeg`.
    pub(super) fn from_mime(mime: &str) -> Option<ImageType> {
        let essence = mime.split(';').next().unwrap_or_default().trim();
        Some(match essence.to_ascii_lowercase().as_str() {
            "image/png" => ImageType::Png,
            "image/jpeg" | "image/jpg" => ImageType::Jpeg,
            "image/webp" => ImageType::WebP,
            "image/svg+xml" => ImageType::Svg,
            "image/gif" => ImageType::Gif,
            "image/x-icon" | "image/vnd.microsoft.icon" => ImageType::Ico,
            _ => return None,
        })
    }

    /// The type of a file's bytes, when they are one of the formats above.
    pub(super) fn sniff(bytes: &[u8]) -> Option<ImageType> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageType::Png)
        } else if bytes.starts_with(b"\xff\xd8\xff") {
            Some(ImageType::Jpeg)
        } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
            Some(ImageType::WebP)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageType::Gif)
        } else if bytes.starts_with(b"\0\0\x01\0") {
            Some(ImageType::Ico)
        } else if is_svg(bytes) {
            Some(ImageType::Svg)
        } else {
            None
        }
    }
}

/// What in an SVG could run when it is drawn, the first found: a script, a `javascript:`
/// link, a `foreignObject` (HTML inside) or an event handler attribute (`onload=`). A check of
/// the markup a well-meaning author ships, not a sanitizer.
pub(super) fn svg_active_content(bytes: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    let found = [
        ("<script", "a `<script>`"),
        ("javascript:", "a `javascript:` link"),
        ("<foreignobject", "a `<foreignObject>`"),
    ]
    .into_iter()
    .find(|(needle, _)| text.contains(needle));
    if let Some((_, what)) = found {
        return Some(what);
    }
    let b = text.as_bytes();
    let handler = (1..b.len()).any(|i| {
        let rest = &b[i..];
        let name = rest
            .iter()
            .skip(2)
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        b[i - 1].is_ascii_whitespace()
            && rest.starts_with(b"on")
            && name > 0
            && rest[2 + name..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'=')
    });
    handler.then_some("an event handler attribute (`on…=`)")
}

/// UTF-8 text whose first element is `<svg`, after an optional byte-order mark, XML
/// declaration, comments and doctype.
fn is_svg(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    loop {
        rest = rest.trim_start();
        let skipped = [("<?", "?>"), ("<!--", "-->"), ("<!", ">")]
            .into_iter()
            .find(|(open, _)| rest.starts_with(open))
            .map(|(open, close)| {
                rest[open.len()..]
                    .find(close)
                    .map(|i| open.len() + i + close.len())
            });
        match skipped {
            Some(Some(end)) => rest = &rest[end..],
            Some(None) => return false,
            None => break,
        }
    }
    rest.strip_prefix("<svg")
        .and_then(|after| after.chars().next())
        .is_some_and(|c| c.is_whitespace() || c == '>' || c == '/')
}

#[cfg(test)]
mod tests {
    use super::ImageType::{self, *};

    #[test]
    fn each_format_is_told_by_its_first_bytes() {
        let cases: [(&[u8], Option<ImageType>); 12] = [
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Some(Png)),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", Some(Jpeg)),
            (b"RIFF\x24\0\0\0WEBPVP8 ", Some(WebP)),
            (b"RIFF\x24\0\0\0WAVEfmt ", None),
            (b"GIF89a\x01\0\x01\0", Some(Gif)),
            (b"\0\0\x01\0\x01\0\x10\x10", Some(Ico)),
            (b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>", Some(Svg)),
            (
                b"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- an icon -->\n<!DOCTYPE svg>\n<svg>",
                Some(Svg),
            ),
            (b"<svgx>", None),
            (b"<html><svg></svg></html>", None),
            (b"<!-- never closed <svg>", None),
            (b"\x89PNG", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(ImageType::sniff(bytes), expected, "{bytes:?}");
        }
    }

    #[test]
    fn active_svg_content_is_found() {
        use super::svg_active_content as active;
        assert_eq!(
            active(b"<svg><path d='M0 0'/><title>Done once</title></svg>"),
            None
        );
        assert_eq!(
            active(b"<svg><SCRIPT>alert(1)</SCRIPT></svg>"),
            Some("a `<script>`")
        );
        assert_eq!(
            active(b"<svg><a href='JavaScript:x()'/></svg>"),
            Some("a `javascript:` link")
        );
        assert_eq!(
            active(b"<svg><foreignObject/></svg>"),
            Some("a `<foreignObject>`")
        );
        assert_eq!(
            active(b"<svg onload = \"x()\"/>"),
            Some("an event handler attribute (`on…=`)")
        );
    }

    #[test]
    fn mime_types_are_read_by_their_essence() {
        assert_eq!(ImageType::from_mime("IMAGE/PNG"), Some(Png));
        assert_eq!(ImageType::from_mime("image/jpg"), Some(Jpeg));
        assert_eq!(
            ImageType::from_mime("image/svg+xml; charset=utf-8"),
            Some(Svg)
        );
        assert_eq!(ImageType::from_mime("image/bmp"), None);
        for t in [Png, Jpeg, WebP, Svg, Gif, Ico] {
            assert_eq!(ImageType::from_mime(t.mime_type()), Some(t));
        }
    }
}
