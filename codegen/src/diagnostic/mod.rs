//! Manifest diagnostics: collected, never thrown, and rendered like rustc's.

use std::fmt::Write as _;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::source::{Source, Span};

pub(crate) mod codes;

pub use codes::Code;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The manifest is refused.
    Error,
    /// Reported, the build goes on.
    Warning,
}

/// One finding about the manifest, tied to the exact place it concerns.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The rule, whose stable identifier (`unknown-key`) it prints as.
    pub code: &'static Code,
    /// One line saying what is wrong.
    pub message: String,
    /// Where.
    pub span: Span,
    /// A short note under the caret.
    pub label: Option<String>,
    /// Other places that explain this one (the first definition of a duplicate, say).
    pub related: Vec<(Span, String)>,
    /// What to write instead.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A finding of rule `code` at `span`, as serious as the code is, with the code's help
    /// when the registry fixes it.
    pub(crate) fn new(code: &'static Code, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            message: message.into(),
            span,
            label: None,
            related: Vec::new(),
            help: code.fixed_help().map(str::to_owned),
        }
    }

    /// Sets the note under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a secondary place.
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push((span, label.into()));
        self
    }

    /// Sets the `help:` line of a code whose help varies.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        debug_assert!(
            self.code.fixed_help().is_none(),
            "the help of `{}` is fixed in the registry",
            self.code
        );
        self.help = Some(help.into());
        self
    }

    /// `tools.yaml:LINE:COL`, 1-based.
    pub fn location(&self, source: &Source) -> String {
        let (line, col) = source.line_col(self.span.start);
        format!("{}:{line}:{col}", source.name)
    }

    /// Renders the diagnostic as rustc would: header, location, snippet with a caret, help.
    pub fn render(&self, source: &Source) -> String {
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let annotations: Vec<(Span, AnnotationKind, Option<&str>)> =
            std::iter::once((self.span, AnnotationKind::Primary, self.label.as_deref()))
                .chain(
                    self.related.iter().map(|(span, label)| {
                        (*span, AnnotationKind::Context, Some(label.as_str()))
                    }),
                )
                .collect();
        let mut group = Group::with_title(
            level
                .primary_title(self.message.as_str())
                .id(self.code.as_str()),
        );
        for window in windows(source, &annotations) {
            let mut snippet = Snippet::source(&source.text[window.bytes.clone()])
                .line_start(window.first_line)
                .path(source.name.as_str());
            for &(span, kind, label) in &annotations[window.annotations] {
                let caret = first_line(source, span);
                let shifted = caret.start - window.bytes.start..caret.end - window.bytes.start;
                snippet = snippet.annotation(kind.span(shifted).label(label));
            }
            group = group.element(snippet);
        }
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        Renderer::plain().render(&[group])
    }
}

/// Annotations this many lines apart or fewer share one snippet, folded as rustc folds.
const SHARED_SNIPPET_LINES: usize = 50;

/// A run of the source lines that one snippet shows, and the annotations that fall in it.
struct Window {
    bytes: std::ops::Range<usize>,
    first_line: usize,
    annotations: std::ops::Range<usize>,
}

/// The snippets of a diagnostic: one over all its annotations when they stand close, one
/// for each otherwise. Each gets only its own lines, so rendering costs what it shows, not
/// the size of the manifest (thousands of diagnostics render in linear time).
fn windows(source: &Source, annotations: &[(Span, AnnotationKind, Option<&str>)]) -> Vec<Window> {
    let line_of = |span: Span| source.line_col(span.start).0;
    let lines: Vec<usize> = annotations.iter().map(|a| line_of(a.0)).collect();
    let (low, high) = (
        lines.iter().copied().min().unwrap_or(1),
        lines.iter().copied().max().unwrap_or(1),
    );
    let window = |from: usize, to: usize, annotations| Window {
        bytes: source.line_range(from).start..source.line_range(to).end,
        first_line: from,
        annotations,
    };
    if high - low <= SHARED_SNIPPET_LINES {
        return vec![window(low, high, 0..annotations.len())];
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, &line)| window(line, line, i..i + 1))
        .collect()
}

/// Clamps a span to its first line so a caret never runs over a whole block.
fn first_line(source: &Source, span: Span) -> std::ops::Range<usize> {
    let text = &source.text;
    let start = span.start.min(text.len());
    let end = span.end.min(text.len());
    let end = text[start..end].find('\n').map_or(end, |i| start + i);
    start..end
}

/// Every diagnostic found in one load, in the order found.
#[derive(Debug, Default, Clone)]
pub(crate) struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records a diagnostic.
    pub(crate) fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    /// Whether any error was recorded.
    pub(crate) fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// All diagnostics, sorted by position so a reader can walk the file top to bottom.
    pub(crate) fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.items.sort_by_key(|d| (d.span.start, d.span.end));
        self.items
    }
}

/// The known name closest to `name`, if it is close enough to be a likely typo.
pub(crate) fn suggest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(name, k), *k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// Renders diagnostics one after another, with a closing count as cargo prints it.
pub fn render_all(diagnostics: &[Diagnostic], source: &Source) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&d.render(source));
        out.push_str("\n\n");
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        let _ = write!(
            out,
            "error: could not load `{}` due to {errors} previous error{}",
            source.name,
            if errors == 1 { "" } else { "s" }
        );
    }
    out
}
