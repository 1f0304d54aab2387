//! Manifest prose as rustdoc: every line made safe for rustc, clippy and doctests (no bare
//! carriage returns, tabs or bidirectional controls; no lazy continuations; fences as text).

/// Text rustc and clippy accept in a doc comment: a bare carriage return (an error there)
/// breaks the line, a tab (clippy's `tabs_in_doc_comments`) is four spaces, and a character
/// that changes the direction of text (denied in comments, since it can make code read
/// differently from how it runs) is written as its escape, `\u{202E}`.
pub(super) fn comment_safe(text: &str) -> String {
    // Only non-ASCII text can hold a direction control.
    if text.is_ascii() && !text.contains(['\r', '\t']) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => out.push('\n'),
            '\t' => out.push_str("    "),
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                out.push_str(&format!("\\u{{{:X}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// Manifest prose as rustdoc lines that neither run as doctests nor trip clippy's doc lints:
/// text holding a code fence (of backticks or of tildes) goes inside a longer `text` fence of
/// backticks; otherwise lines lose their indentation (an indented line would be a code block,
/// hence a doctest), and a line that continues a list item or a quote lazily is indented under
/// the item's text or given the quote's `>` (clippy's `doc_lazy_continuation`).
pub(super) fn rustdoc_safe(text: &str) -> Vec<String> {
    match plain(text) {
        Some(line) => vec![line.to_owned()],
        None => made_safe(text),
    }
}

/// The one line `text` is, trimmed, when none of [`made_safe`]'s rules would change it: no
/// fence, no footnote reference, and no quote, list item or rule marker where it starts.
/// Most manifest prose is such a line; the rules' own work is then skipped.
pub(super) fn plain(text: &str) -> Option<&str> {
    let line = text.trim();
    let starts_block = line
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b">-*_+".contains(&b));
    let plain = !text.is_empty()
        && !text.contains(['\n', '\r'])
        && !starts_block
        && !["[^", "```", "~~~"].iter().any(|s| text.contains(s));
    plain.then_some(line)
}

fn made_safe(text: &str) -> Vec<String> {
    if text.contains("```") || text.contains("~~~") {
        let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(3) + 1);
        let mut lines = vec![format!("{fence}text")];
        lines.extend(text.lines().map(str::to_owned));
        lines.push(fence);
        return lines;
    }
    let mut lines = Vec::new();
    // The indentation under the current list item, outside any quote.
    let mut base = String::new();
    // What a continuation line starts with: `base`, then the markers of any quote and the
    // indentation of any item opened inside it.
    let mut continuation = String::new();
    // Footnotes defined at the start of a line (`[^1]: …`); references to others are escaped.
    let defined: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter_map(|l| footnote_label(l).filter(|label| l[label.len()..].starts_with(':')))
        .collect();
    for line in text.lines().map(str::trim) {
        let escaped = escape_footnotes(line, &defined);
        let line = escaped.as_str();
        match open_blocks(line) {
            _ if line.is_empty() => {
                base.clear();
                continuation.clear();
                lines.push(String::new());
            }
            Some((opened, under)) if line.starts_with('>') => {
                lines.push(format!("{base}{opened}"));
                continuation = format!("{base}{under}");
            }
            Some((opened, under)) => {
                lines.push(opened);
                base.clone_from(&under);
                continuation = under;
            }
            None => lines.push(format!("{continuation}{line}")),
        }
    }
    lines
}

/// When `line` opens a quote or a list item (`>`, `-`, `*`, `+`, or up to nine digits and
/// `.` or `)`), possibly nested: the line with one space after each marker, so its text can
/// never be indented code (a doctest), and the prefix that continues it.
pub(super) fn open_blocks(line: &str) -> Option<(String, String)> {
    let (marker, rest, under) = if let Some(rest) = line.strip_prefix('>') {
        (">", rest, "> ".to_owned())
    } else {
        // `- - -` and `***` are rules, after which an indented line would be code.
        let mut chars = line.chars().filter(|c| *c != ' ');
        if let Some(c @ ('-' | '*' | '_')) = chars.next()
            && chars.clone().count() >= 2
            && chars.all(|d| d == c)
        {
            return None;
        }
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        let width = match line.as_bytes().get(digits) {
            Some(b'-' | b'*' | b'+') if digits == 0 => 1,
            Some(b'.' | b')') if (1..=9).contains(&digits) => digits + 1,
            _ => return None,
        };
        let rest = &line[width..];
        if !rest.starts_with(' ') {
            return None;
        }
        (&line[..width], rest, " ".repeat(width + 1))
    };
    let rest = rest.trim_start();
    // A link reference definition (`[a]: url`) cannot sit in a quote or a list item (clippy's
    // doc_nested_refdefs): escaped, it reads as written.
    let refdef = rest.starts_with('[')
        && rest
            .find(']')
            .is_some_and(|end| rest[end + 1..].starts_with(':'));
    let text = if refdef {
        format!("\\{rest}")
    } else {
        rest.to_owned()
    };
    let (inner, inner_under) = open_blocks(rest).unwrap_or((text, String::new()));
    Some((
        format!("{marker} {inner}").trim_end().to_owned(),
        format!("{under}{inner_under}"),
    ))
}

/// `[^12]` when `text` starts with a footnote reference: a caret and digits in brackets.
pub(super) fn footnote_label(text: &str) -> Option<&str> {
    let digits = text
        .strip_prefix("[^")?
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    (digits > 0 && text[2 + digits..].starts_with(']')).then(|| &text[..3 + digits])
}

/// `line` with a backslash before each footnote reference (`[^1]`) that has no definition and
/// is not in a code span: rustdoc shows it as written, and clippy's doc_suspicious_footnotes
/// flags it.
pub(super) fn escape_footnotes(line: &str, defined: &[&str]) -> String {
    let mut out = String::with_capacity(line.len());
    // The length of the backtick run that opened the current code span.
    let mut code: Option<usize> = None;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let run = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..run];
            code = match code {
                Some(n) if n == run => None,
                None if rest[run..].contains(fence) => Some(run),
                open => open,
            };
            out.push_str(fence);
            rest = &rest[run..];
            continue;
        }
        if code.is_none()
            && !out.ends_with('\\')
            && let Some(label) = footnote_label(rest)
            && !rest[label.len()..].starts_with(':')
            && !defined.contains(&label)
        {
            out.push('\\');
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_reads_as_the_rules_would_leave_it() {
        let texts = [
            "", " ", "a", "  a b  ", "- a", "-  a", "-a", "1.  a", "1a", ">  q", ">q", "[^1] x",
            "a [^1]", "[^1]: x", "***", "_x_", "+ x", "x```y", "x~~~", "é ü", "a\tb", "a\rb",
            "a\nb",
        ];
        for text in texts {
            if let Some(line) = plain(text) {
                assert_eq!(vec![line.to_owned()], made_safe(text), "{text:?}");
            }
        }
        assert_eq!(plain("  Does a thing.  "), Some("Does a thing."));
        assert_eq!(plain("- a"), None);
    }
}
