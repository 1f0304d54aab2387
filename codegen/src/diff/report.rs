//! The report: changes placed in their manifests, `--allow` applied, and rendered as text,
//! JSON, GitHub annotations or Markdown.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::compare::{Change, Side};
use super::rules::{Bump, Rule, Severity};
use crate::source::Source;

/// How a finding counts: what every format shows and the summary tallies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Breaking, and fails the run.
    Breaking,
    /// Breaking, but accepted by `--allow`.
    Allowed,
    /// Compatible.
    Compatible,
}

impl Status {
    /// Where findings of this status come in a report: what blocks first.
    fn rank(self) -> u8 {
        match self {
            Status::Breaking => 0,
            Status::Allowed => 1,
            Status::Compatible => 2,
        }
    }

    /// The word every format shows.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Breaking => "breaking",
            Status::Allowed => "allowed",
            Status::Compatible => "compatible",
        }
    }
}

/// A change placed in its manifest, with `--allow` applied.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The change.
    pub change: Change,
    /// The manifest's display name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// Breaking, but named by `--allow`: listed, not counted for the exit code.
    pub allowed: bool,
}

impl Finding {
    /// How it counts.
    pub fn status(&self) -> Status {
        match (self.change.rule.severity(), self.allowed) {
            (Severity::Compatible, _) => Status::Compatible,
            (Severity::Breaking, true) => Status::Allowed,
            (Severity::Breaking, false) => Status::Breaking,
        }
    }

    fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The output formats of `mcp-contract diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `tools.yaml:LINE:COL: STATUS: RULE_ID message`, breaking first, then a summary.
    Text,
    /// One JSON object: `changes` and `summary`.
    Json,
    /// GitHub Actions workflow commands, which annotate the pull request.
    Github,
    /// A table for a pull-request comment.
    Markdown,
}

/// Every change between two manifests, placed and ready to render.
#[derive(Debug, Clone)]
pub struct Report {
    /// The findings, breaking ones first, then allowed, then compatible; each group in
    /// manifest order (file, line, column), so what blocks a release is read first.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Places `changes` in their manifests and marks the breaking ones whose rule is in
    /// `allow` (allowing a compatible rule changes nothing: it never fails a run).
    pub fn new(changes: Vec<Change>, old: &Source, new: &Source, allow: &[&Rule]) -> Report {
        let mut findings = changes
            .into_iter()
            .map(|change| {
                let source = match change.side {
                    Side::Old => old,
                    Side::New => new,
                };
                let (line, column) = source.line_col(change.span.start);
                Finding {
                    allowed: change.rule.severity() == Severity::Breaking
                        && allow.contains(&change.rule),
                    file: source.name.clone(),
                    line,
                    column,
                    change,
                }
            })
            .collect::<Vec<Finding>>();
        // Stable: changes at one place keep the comparison's order.
        findings.sort_by(|a, b| {
            (a.status().rank(), &a.file, a.line, a.column).cmp(&(
                b.status().rank(),
                &b.file,
                b.line,
                b.column,
            ))
        });
        Report { findings }
    }

    /// Whether any finding is breaking and not allowed.
    pub fn blocks(&self) -> bool {
        self.findings.iter().any(|f| f.status() == Status::Breaking)
    }

    /// The bump the changes call for. An allowed breaking change still calls for a major
    /// bump: `--allow` accepts the break, it does not make callers immune to it.
    pub fn bump(&self) -> Bump {
        self.findings
            .iter()
            .map(|f| f.change.rule.bump)
            .max()
            .unwrap_or(Bump::None)
    }

    fn count(&self, status: Status) -> usize {
        self.findings
            .iter()
            .filter(|f| f.status() == status)
            .count()
    }

    /// `2 breaking, 1 allowed, 3 compatible changes; the contract needs a major version bump`.
    pub fn summary(&self) -> String {
        if self.findings.is_empty() {
            return "no changes; the contract needs no version bump".to_owned();
        }
        let (breaking, allowed, compatible) = (
            self.count(Status::Breaking),
            self.count(Status::Allowed),
            self.count(Status::Compatible),
        );
        let mut parts = vec![format!("{breaking} breaking")];
        if allowed > 0 {
            parts.push(format!("{allowed} allowed"));
        }
        let noun = if self.findings.len() == 1 {
            "change"
        } else {
            "changes"
        };
        parts.push(format!("{compatible} compatible {noun}"));
        format!(
            "{}; the contract needs a {} version bump",
            parts.join(", "),
            self.bump().as_str()
        )
    }

    /// Renders the report in `format`; every format ends with a newline.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => self.json(),
            Format::Github => self.github(),
            Format::Markdown => self.markdown(),
        }
    }

    /// `tools.yaml:LINE:COL: STATUS: RULE_ID message` lines, the form compilers print and
    /// editors link, then the summary.
    fn text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let _ = writeln!(
                out,
                "{}: {}: {} {}",
                f.location(),
                f.status().as_str(),
                f.change.rule.id,
                f.change.message
            );
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    fn json(&self) -> String {
        let changes: Vec<Value> = self
            .findings
            .iter()
            .map(|f| {
                json!({
                    "rule": f.change.rule.id,
                    "severity": f.change.rule.severity().as_str(),
                    "allowed": f.allowed,
                    "message": f.change.message,
                    "path": f.change.path,
                    "file": f.file,
                    "line": f.line,
                    "column": f.column,
                })
            })
            .collect();
        let report = json!({
            "changes": changes,
            "summary": {
                "breaking": self.count(Status::Breaking),
                "allowed": self.count(Status::Allowed),
                "compatible": self.count(Status::Compatible),
                "bump": self.bump().as_str(),
                "text": self.summary(),
            },
        });
        // Serializing a `Value` built from strings and numbers cannot fail.
        let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
        out.push('\n');
        out
    }

    fn github(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let level = match f.status() {
                Status::Breaking => "error",
                Status::Allowed => "warning",
                Status::Compatible => "notice",
            };
            let _ = writeln!(
                out,
                "::{level} file={},line={},col={},title={}::{}",
                gh_property(&f.file),
                f.line,
                f.column,
                gh_property(f.change.rule.id),
                gh_data(&f.change.message)
            );
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("**Contract changes:** {}\n", self.summary());
        if self.findings.is_empty() {
            return out;
        }
        out.push_str("\n| Severity | Rule | Location | Change |\n| --- | --- | --- | --- |\n");
        for f in &self.findings {
            let _ = writeln!(
                out,
                "| {} | `{}` | `{}` | {} |",
                f.status().as_str(),
                f.change.rule.id,
                f.location(),
                // Names and messages may hold `|` or a newline, which would break the row.
                f.change.message.replace('|', "\\|").replace('\n', " ")
            );
        }
        out
    }
}

/// Escapes a workflow command's message.
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value, which also may not hold `:` or `,`.
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}
