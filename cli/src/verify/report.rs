//! The report of `verify`: every finding placed at its manifest entry, the same finding on
//! several revisions shown once, rendered as text, JSON, JUnit XML or GitHub annotations.

use std::fmt::Write as _;

use mcp_contract_codegen::diff::{Change, Severity};
use mcp_contract_codegen::{Revision, Source, Span};
use serde_json::json;

use super::rules::VerifyRule;

/// `--format` of `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// `tools.yaml:LINE:COL: breaking RULE_ID [REVISIONS] message` lines and a summary.
    Text,
    /// One JSON object with `findings`, `skipped` and `summary`.
    Json,
    /// JUnit XML: one test suite per revision, one test case per check.
    Junit,
    /// GitHub Actions annotations.
    Github,
}

/// One finding, with every revision it was found on.
#[derive(Debug, Clone)]
struct Finding {
    rule: &'static str,
    /// Why the rule matters to callers.
    why: &'static str,
    breaking: bool,
    message: String,
    line: usize,
    column: usize,
    revisions: Vec<Revision>,
}

/// One check made: its revision, what it checked, the findings it made.
#[derive(Debug, Clone)]
struct Check {
    revision: Revision,
    name: String,
    findings: Vec<usize>,
}

/// Everything one `verify` run found.
pub(super) struct Report {
    file: String,
    lines: Source,
    pub(super) target: String,
    allow_writes: bool,
    findings: Vec<Finding>,
    checks: Vec<Check>,
    /// The revisions checked.
    pub(super) revisions: Vec<Revision>,
    /// The revisions the server did not speak, with why.
    pub(super) skips: Vec<String>,
    /// The tools that could not be called, with why.
    not_called: Vec<(String, &'static str)>,
    /// The resources and prompts that could not be requested: `resource` or `prompt`, the
    /// URI or name, and why.
    not_requested: Vec<(&'static str, String, &'static str)>,
}

impl Report {
    pub(super) fn new(source: &Source, target: String, allow_writes: bool) -> Report {
        Report {
            file: source.name.clone(),
            lines: source.clone(),
            target,
            allow_writes,
            findings: Vec::new(),
            checks: Vec::new(),
            revisions: Vec::new(),
            skips: Vec::new(),
            not_called: Vec::new(),
            not_requested: Vec::new(),
        }
    }

    /// Notes a tool this client cannot call (once, whatever the revisions).
    pub(super) fn not_called(&mut self, tool: &str, why: &'static str) {
        if !self.not_called.iter().any(|(t, _)| t == tool) {
            self.not_called.push((tool.to_owned(), why));
        }
    }

    /// Notes a resource or prompt (`kind`) this client cannot request (once, whatever the
    /// revisions).
    pub(super) fn not_requested(&mut self, kind: &'static str, name: &str, why: &'static str) {
        if !(self.not_requested.iter()).any(|(k, n, _)| *k == kind && n == name) {
            self.not_requested.push((kind, name.to_owned(), why));
        }
    }

    /// Withdraws check `check`, which could not be made: it is not counted.
    pub(super) fn uncheckable(&mut self, check: usize) {
        if check + 1 == self.checks.len() && self.checks[check].findings.is_empty() {
            self.checks.pop();
        }
    }

    pub(super) fn revision(&mut self, revision: Revision) {
        self.revisions.push(revision);
    }

    pub(super) fn skipped(&mut self, revision: Revision, why: String) {
        self.skips.push(format!("{revision}: {why}"));
    }

    /// Starts a check on the current revision; its index.
    pub(super) fn check(&mut self, name: String) -> usize {
        let revision = *self.revisions.last().expect("a revision is being checked");
        self.checks.push(Check {
            revision,
            name,
            findings: Vec::new(),
        });
        self.checks.len() - 1
    }

    pub(super) fn finding(
        &mut self,
        check: usize,
        rule: &'static VerifyRule,
        span: Span,
        message: String,
    ) {
        self.add(check, (rule.id, rule.why), rule.breaking, span, message);
    }

    pub(super) fn diff_finding(&mut self, check: usize, change: Change) {
        let breaking = change.rule.severity() == Severity::Breaking;
        let rule = (change.rule.id, change.rule.why);
        self.add(check, rule, breaking, change.span, change.message);
    }

    fn add(
        &mut self,
        check: usize,
        (rule, why): (&'static str, &'static str),
        breaking: bool,
        span: Span,
        message: String,
    ) {
        let (line, column) = self.lines.line_col(span.start);
        let revision = self.checks[check].revision;
        let same = (self.findings.iter()).position(|f| {
            f.rule == rule && f.line == line && f.column == column && f.message == message
        });
        let index = match same {
            Some(i) => {
                if !self.findings[i].revisions.contains(&revision) {
                    self.findings[i].revisions.push(revision);
                }
                i
            }
            None => {
                self.findings.push(Finding {
                    rule,
                    why,
                    breaking,
                    message,
                    line,
                    column,
                    revisions: vec![revision],
                });
                self.findings.len() - 1
            }
        };
        self.checks[check].findings.push(index);
    }

    /// Any finding fails the run: the server does not serve the reviewed contract.
    pub(super) fn fails(&self) -> bool {
        !self.findings.is_empty()
    }

    /// Breaking findings first, each group in manifest order.
    fn ordered(&self) -> Vec<&Finding> {
        let mut all: Vec<&Finding> = self.findings.iter().collect();
        all.sort_by_key(|f| (!f.breaking, f.line, f.column));
        all
    }

    fn summary(&self) -> String {
        let breaking = self.findings.iter().filter(|f| f.breaking).count();
        let revisions: Vec<&str> = self.revisions.iter().map(|r| r.as_str()).collect();
        let verdict = if self.findings.is_empty() {
            "the server honours the contract".to_owned()
        } else {
            format!(
                "{} finding{} ({breaking} breaking)",
                self.findings.len(),
                if self.findings.len() == 1 { "" } else { "s" }
            )
        };
        format!(
            "verify: {} against {} on {}: {} checks, {verdict}",
            self.target,
            self.file,
            revisions.join(" and "),
            self.checks.len()
        )
    }

    pub(super) fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => self.json(),
            Format::Junit => self.junit(),
            Format::Github => self.github(),
        }
    }

    fn revisions_of(f: &Finding) -> String {
        f.revisions
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for f in self.ordered() {
            let _ = writeln!(
                out,
                "{}:{}:{}: {} {} [{}] {}",
                self.file,
                f.line,
                f.column,
                if f.breaking { "breaking" } else { "compatible" },
                f.rule,
                Self::revisions_of(f),
                f.message
            );
        }
        // What each rule found means, once, so a report reads without the docs.
        let mut explained: Vec<&str> = Vec::new();
        for f in self.ordered() {
            if !explained.contains(&f.rule) {
                explained.push(f.rule);
                let _ = writeln!(out, "  = {}: {}", f.rule, f.why);
            }
        }
        for skip in &self.skips {
            let _ = writeln!(out, "note: not checked on {skip}");
        }
        for (tool, why) in &self.not_called {
            let _ = writeln!(out, "note: `{tool}` was not called: {why}");
        }
        for (kind, name, why) in &self.not_requested {
            let _ = writeln!(out, "note: the {kind} `{name}` was not requested: {why}");
        }
        if !self.allow_writes {
            out.push_str(
                "note: tools that may write were not called (--allow-writes calls them)\n",
            );
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    fn json(&self) -> String {
        let findings: Vec<_> = (self.ordered().into_iter())
            .map(|f| {
                json!({
                    "rule": f.rule,
                    "severity": if f.breaking { "breaking" } else { "compatible" },
                    "file": self.file,
                    "line": f.line,
                    "column": f.column,
                    "revisions": f.revisions.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
                    "message": f.message,
                })
            })
            .collect();
        let value = json!({
            "target": self.target,
            "manifest": self.file,
            "findings": findings,
            "skipped": self.skips,
            "not_called": self.not_called.iter().map(|(t, why)| json!({"tool": t, "why": why})).collect::<Vec<_>>(),
            "not_requested": self.not_requested.iter().map(|(k, n, why)| json!({(*k): n, "why": why})).collect::<Vec<_>>(),
            "summary": {
                "revisions": self.revisions.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
                "checks": self.checks.len(),
                "findings": self.findings.len(),
                "breaking": self.findings.iter().filter(|f| f.breaking).count(),
                "passed": self.findings.is_empty(),
            },
        });
        serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
    }

    fn junit(&self) -> String {
        let mut out = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcp-contract verify\">\n",
        );
        for revision in &self.revisions {
            let checks: Vec<&Check> = self
                .checks
                .iter()
                .filter(|c| c.revision == *revision)
                .collect();
            let failures = checks.iter().filter(|c| !c.findings.is_empty()).count();
            let _ = writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">",
                xml(&format!("{} {revision}", self.target)),
                checks.len()
            );
            for c in checks {
                let _ = write!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{}\"",
                    xml(&self.file),
                    xml(&c.name)
                );
                if c.findings.is_empty() {
                    out.push_str("/>\n");
                    continue;
                }
                out.push_str(">\n");
                for &i in &c.findings {
                    let f = &self.findings[i];
                    let _ = writeln!(
                        out,
                        "      <failure type=\"{}\" message=\"{}\">{}:{}:{}: {}</failure>",
                        f.rule,
                        xml(&f.message),
                        xml(&self.file),
                        f.line,
                        f.column,
                        xml(&f.message)
                    );
                }
                out.push_str("    </testcase>\n");
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }

    fn github(&self) -> String {
        let mut out = String::new();
        for f in self.ordered() {
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},title={}::[{}] {}",
                if f.breaking { "error" } else { "warning" },
                self.file,
                f.line,
                f.column,
                f.rule,
                Self::revisions_of(f),
                f.message.replace('%', "%25").replace('\n', "%0A")
            );
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }
}

/// `text` escaped for an XML attribute or text node.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
