//! Searching the text of the files under a directory, with the ripgrep libraries.
//!
//! The shared walker (`walking.rs`, on `ignore::WalkBuilder`) finds the files, honouring
//! `.gitignore` and `.ignore` files and skipping hidden ones as ripgrep does, and
//! `grep_searcher` searches each with a `grep_regex` matcher. The walker only contributes names:
//! each file it names is opened through the sandbox `Dir` by its workspace-relative path. If a
//! directory is swapped for a symbolic link to somewhere else during the walk, cap-std refuses to
//! open what lies beyond, and the file is skipped.
//!
//! A search does bounded work: it looks at no more than [`MAX_VISITED_ENTRIES`] entries and
//! reads no more than [`MAX_SEARCH_BYTES`], and says it was truncated when it stops there.

use std::io;

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use serde::{Deserialize, Serialize};

use crate::contract::SearchTextArgs;
use crate::workspace::globs::PathGlobs;
use crate::workspace::path::WorkspacePath;
use crate::workspace::walking::{MAX_VISITED_ENTRIES, WalkRules, Watch};
use crate::workspace::{Workspace, WorkspaceError};

/// How many matching lines [`Workspace::search_text`] returns unless told otherwise:
/// `search_text`'s default `max_results`.
pub const DEFAULT_MAX_RESULTS: usize = SearchTextArgs::DEFAULT_MAX_RESULTS as usize;

/// The most matching lines one search returns, `search_text`'s largest `max_results`; a larger
/// request is cut to this.
pub const MAX_SEARCH_RESULTS: usize = SearchTextArgs::MAX_MAX_RESULTS as usize;

/// The most characters of a matching line that a result repeats.
pub const MAX_LINE_CHARS: usize = 500;

/// The most bytes of file content one search reads; past it the search stops and says it was
/// truncated.
pub const MAX_SEARCH_BYTES: u64 = 256 * 1024 * 1024;

/// Where and how [`Workspace::search_text`] searches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// The directory to search, workspace-relative; `""` or `"."` is the root. It is searched
    /// even if it is itself hidden or ignored; ignore rules apply to what lies below it.
    pub path: String,
    /// Treat the query as a regular expression (Rust `regex` syntax) instead of literal text.
    pub regex: bool,
    /// Match regardless of letter case (Unicode-aware).
    pub case_insensitive: bool,
    /// Only search files whose workspace-relative path matches one of these globs (none: every
    /// file). A glob without `/` matches the file's name at any depth.
    pub include: Vec<String>,
    /// Skip files, and whole directories, whose workspace-relative path matches one of these
    /// globs.
    pub exclude: Vec<String>,
    /// Stop after this many matching lines. Cut to 1..=[`MAX_SEARCH_RESULTS`].
    pub max_results: usize,
    /// Stop after looking at this many entries (files, directories and links). Cut to
    /// 1..=[`MAX_VISITED_ENTRIES`].
    pub max_visited: usize,
    /// Stop before a file that would take the bytes read past this. Cut to
    /// 1..=[`MAX_SEARCH_BYTES`].
    pub max_bytes: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            path: ".".into(),
            regex: false,
            case_insensitive: false,
            include: Vec::new(),
            exclude: Vec::new(),
            max_results: DEFAULT_MAX_RESULTS,
            max_visited: MAX_VISITED_ENTRIES,
            max_bytes: MAX_SEARCH_BYTES,
        }
    }
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchMatch {
    /// The file's path relative to the workspace root, with `/` separators.
    pub path: String,
    /// The line's number, counting from 1.
    pub line: u64,
    /// The line without its line ending, cut to [`MAX_LINE_CHARS`] characters. Bytes that are not
    /// UTF-8 are shown as U+FFFD.
    pub text: String,
}

/// The result of [`Workspace::search_text`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResults {
    /// The matching lines, sorted by path (name by name, as in a directory tree) and then by
    /// line number.
    pub matches: Vec<SearchMatch>,
    /// How many text files were searched; skipped binary files are not counted.
    pub files_searched: u64,
    /// True when the search stopped early: more lines matched than were returned, or it
    /// stopped at its limit on entries looked at or bytes read.
    pub truncated: bool,
    /// When truncated, which limit stopped the search and how to ask for less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Workspace {
    /// Searches the text of the files under `options.path` for `query`: literal text, or a
    /// regular expression with `options.regex`. A match never spans lines.
    ///
    /// Like ripgrep: `.gitignore`, `.ignore` and `.git/info/exclude` rules apply (also outside a
    /// git repository), hidden files and directories are skipped, symbolic links are not
    /// followed, and binary files (those with a NUL byte) are skipped. Files are searched in
    /// path order, so the lines returned when the search is truncated are the first ones. A file
    /// or directory that cannot be read is skipped rather than failing the whole search.
    ///
    /// The search stops, saying it was truncated and why, at `options.max_results` matching
    /// lines, after looking at `options.max_visited` entries, or before a file that would take
    /// the bytes read past `options.max_bytes`.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::InvalidPattern`] for an empty query, a regular expression or glob that
    /// does not compile, or a query that would have to match a line break or a NUL byte;
    /// [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for an `options.path`
    /// that may not be used; [`WorkspaceError::NotFound`] or [`WorkspaceError::NotADirectory`]
    /// when it names no directory.
    pub fn search_text(
        &self,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchResults, WorkspaceError> {
        self.search_text_watched(query, options, &Watch::default())
    }

    /// [`Workspace::search_text`] under `watch`, which counts the entries looked at and can
    /// stop the search; a stopped search returns what it found, truncated, saying so.
    ///
    /// # Errors
    ///
    /// Those of [`Workspace::search_text`].
    pub fn search_text_watched(
        &self,
        query: &str,
        options: &SearchOptions,
        watch: &Watch,
    ) -> Result<SearchResults, WorkspaceError> {
        let target = WorkspacePath::parse(&options.path)?;
        let matcher = build_matcher(query, options)?;
        let include = PathGlobs::new(options.include.iter().map(String::as_str))?;
        let exclude = PathGlobs::new(options.exclude.iter().map(String::as_str))?;
        self.directory_metadata(&target)?;
        let max_results = options.max_results.clamp(1, MAX_SEARCH_RESULTS);
        let max_visited = options.max_visited.clamp(1, MAX_VISITED_ENTRIES);
        let max_bytes = options.max_bytes.clamp(1, MAX_SEARCH_BYTES);

        let mut searcher = SearcherBuilder::new()
            .binary_detection(BinaryDetection::quit(0))
            .line_number(true)
            .build();
        let mut results = SearchResults::default();
        let rules = WalkRules {
            ignore_files: true,
            skip_hidden: true,
            max_depth: None,
            exclude: Some(exclude),
        };
        let mut bytes_read = 0;
        let mut stopped = None;
        let mut visits = self.visit(&target, rules, max_visited, "search", watch);
        for entry in visits.by_ref() {
            if !entry
                .file_type()
                .is_some_and(|file_type| file_type.is_file())
            {
                continue;
            }
            let Some(path) = WorkspacePath::from_host(self.walk_root(), entry.path()) else {
                continue;
            };
            if !include.is_empty() && !include.matches(path.as_str(), path.name()) {
                continue;
            }
            let file = match self.open_file(&path) {
                Ok(file) => file.into_std(),
                Err(err) => {
                    let path = path.as_str();
                    tracing::debug!(path, error = %err, "search: the sandbox refused a file");
                    continue;
                }
            };
            // The size of the file opened, which is the one searched.
            let size = file.metadata().map_or(0, |metadata| metadata.len());
            if bytes_read + size > max_bytes {
                stopped = Some(Limit::Bytes(max_bytes));
                break;
            }
            bytes_read += size;
            let mut sink = FileSink::new(&path, max_results.saturating_sub(results.matches.len()));
            if let Err(err) = searcher.search_file(&matcher, &file, &mut sink) {
                let path = path.as_str();
                tracing::debug!(path, error = %err, "search: skipping an unreadable file");
                continue;
            }
            if sink.binary {
                continue;
            }
            results.files_searched += 1;
            results.matches.append(&mut sink.found);
            if sink.overflowed {
                stopped = Some(Limit::Results(max_results));
                break;
            }
        }
        if visits.cut() {
            stopped = Some(Limit::Visited(max_visited));
        }
        if visits.stopped() {
            stopped = Some(Limit::Stopped);
        }
        results.hint = stopped.map(Limit::hint);
        results.truncated = results.hint.is_some();
        // The walk already yields this order; sorting here makes the promise hold on its own.
        results.matches.sort_by(|a, b| {
            a.path
                .split('/')
                .cmp(b.path.split('/'))
                .then(a.line.cmp(&b.line))
        });
        Ok(results)
    }
}

/// Which limit stopped a search early, with its value.
#[derive(Debug, Clone, Copy)]
enum Limit {
    /// More lines matched than may be returned.
    Results(usize),
    /// As many entries were looked at as may be.
    Visited(usize),
    /// The next file would have taken the bytes read past the limit.
    Bytes(u64),
    /// Its watch stopped it.
    Stopped,
}

impl Limit {
    /// What the caller reads: which limit stopped the search, and how to ask for less.
    fn hint(self) -> String {
        let narrow = "narrow it with path, include or exclude";
        match self {
            Limit::Results(count) => format!(
                "The search stopped at {count} matching lines; {narrow}, or make the query more \
                 specific."
            ),
            Limit::Visited(count) => {
                format!("The search stopped after looking at {count} entries; {narrow}.")
            }
            Limit::Bytes(count) => {
                format!("The search stopped at its limit of {count} bytes of files read; {narrow}.")
            }
            Limit::Stopped => "The search was stopped before it was complete.".into(),
        }
    }
}

/// Compiles the query: escaped as literal text unless `options.regex`, and never matching across
/// a line break.
fn build_matcher(query: &str, options: &SearchOptions) -> Result<RegexMatcher, WorkspaceError> {
    if query.is_empty() {
        return Err(WorkspaceError::invalid_pattern(
            query,
            "the query is empty; pass the text to find",
        ));
    }
    RegexMatcherBuilder::new()
        .case_insensitive(options.case_insensitive)
        .fixed_strings(!options.regex)
        // With the line terminator declared, the matcher refuses patterns that would need to
        // match `\n`, instead of silently never matching.
        .line_terminator(Some(b'\n'))
        // Binary detection stops at NUL, so a pattern with NUL could never match: refuse it.
        .ban_byte(Some(0))
        .build(query)
        .map_err(|err| WorkspaceError::invalid_pattern(query, regex_reason(&err.to_string())))
}

/// The gist of a regex error: its last line without the `error: ` label. The regex crate's
/// message repeats the pattern with a caret under the fault, over several lines, which the error
/// already conveys by naming the pattern.
fn regex_reason(message: &str) -> String {
    let last = message
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or(message);
    last.trim()
        .strip_prefix("error: ")
        .unwrap_or(last.trim())
        .to_owned()
}

/// Collects one file's matching lines, up to the room left under the cap.
struct FileSink<'p> {
    /// The file's workspace-relative path.
    path: &'p WorkspacePath,
    /// How many more lines may be collected before the search is truncated.
    room: usize,
    /// The lines collected so far.
    found: Vec<SearchMatch>,
    /// Whether a line matched when there was no room left.
    overflowed: bool,
    /// Whether the file turned out to be binary; its lines are then dropped.
    binary: bool,
}

impl<'p> FileSink<'p> {
    fn new(path: &'p WorkspacePath, room: usize) -> Self {
        FileSink {
            path,
            room,
            found: Vec::new(),
            overflowed: false,
            binary: false,
        }
    }
}

impl Sink for FileSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _searcher: &Searcher, found: &SinkMatch<'_>) -> Result<bool, io::Error> {
        // One match past the cap is looked for, so that `truncated` means "there was more",
        // not "the cap was reached".
        if self.found.len() == self.room {
            self.overflowed = true;
            return Ok(false);
        }
        let line = found
            .line_number()
            .ok_or_else(|| io::Error::other("the searcher did not count lines"))?;
        self.found.push(SearchMatch {
            path: self.path.as_str().to_owned(),
            line,
            text: line_text(found.bytes()),
        });
        Ok(true)
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, io::Error> {
        self.binary = true;
        self.found.clear();
        Ok(false)
    }
}

/// A matching line as a result shows it: without its line ending, and cut to
/// [`MAX_LINE_CHARS`] characters on a character boundary.
fn line_text(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut text = String::from_utf8_lossy(line).into_owned();
    if let Some((cut, _)) = text.char_indices().nth(MAX_LINE_CHARS) {
        text.truncate(cut);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::Fixture;

    fn search(fixture: &Fixture, query: &str, options: &SearchOptions) -> SearchResults {
        match fixture.workspace.search_text(query, options) {
            Ok(results) => results,
            Err(err) => panic!("searching for `{query}` failed: {err}"),
        }
    }

    fn hits(results: &SearchResults) -> Vec<(&str, u64)> {
        results
            .matches
            .iter()
            .map(|found| (found.path.as_str(), found.line))
            .collect()
    }

    #[test]
    fn a_literal_search_honours_gitignore_and_sorts_by_path() {
        let fixture = Fixture::new();
        let results = search(&fixture, "fn main", &SearchOptions::default());
        assert_eq!(
            hits(&results),
            [("README.md", 2), ("src/main.rs", 1)],
            "ignored.log is ignored"
        );
        assert_eq!(results.matches[1].text, "fn main() {");
        assert!(!results.truncated);
        // README.md, empty, src/main.rs and src/nested/lib.rs: not the ignored ignored.log, nor
        // the hidden .gitignore.
        assert_eq!(results.files_searched, 4);
    }

    #[test]
    fn a_literal_query_is_not_a_regex() {
        let fixture = Fixture::new();
        fixture.write("notes.txt", "a.b\naxb\nprice (usd)\n");
        assert_eq!(
            hits(&search(&fixture, "a.b", &SearchOptions::default())),
            [("notes.txt", 1)]
        );
        assert_eq!(
            hits(&search(&fixture, "(usd)", &SearchOptions::default())),
            [("notes.txt", 3)]
        );
        let regex = SearchOptions {
            regex: true,
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "a.b", &regex)),
            [("notes.txt", 1), ("notes.txt", 2)]
        );
    }

    #[test]
    fn a_regex_search_matches_patterns() {
        let fixture = Fixture::new();
        let regex = SearchOptions {
            regex: true,
            ..SearchOptions::default()
        };
        let results = search(&fixture, r"^pub fn \w+", &regex);
        assert_eq!(hits(&results), [("src/nested/lib.rs", 1)]);
        assert_eq!(results.matches[0].text, "pub fn Main() {}");
    }

    #[test]
    fn case_insensitive_search_finds_every_case() {
        let fixture = Fixture::new();
        let rust = SearchOptions {
            include: vec!["*.rs".into()],
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "fn main", &rust)),
            [("src/main.rs", 1)]
        );
        let any_case = SearchOptions {
            case_insensitive: true,
            ..rust
        };
        assert_eq!(
            hits(&search(&fixture, "FN MAIN", &any_case)),
            [("src/main.rs", 1), ("src/nested/lib.rs", 1)]
        );
    }

    #[test]
    fn include_and_exclude_globs_filter_by_workspace_path() {
        let fixture = Fixture::new();
        let include = SearchOptions {
            include: vec!["src/**".into()],
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "main", &include)),
            [("src/main.rs", 1)]
        );
        let exclude = SearchOptions {
            exclude: vec!["*.md".into()],
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "fn main", &exclude)),
            [("src/main.rs", 1)]
        );
        let excluded_dir = SearchOptions {
            case_insensitive: true,
            exclude: vec!["nested".into()],
            ..SearchOptions::default()
        };
        let results = search(&fixture, "fn main", &excluded_dir);
        assert_eq!(hits(&results), [("README.md", 2), ("src/main.rs", 1)]);
        assert_eq!(
            results.files_searched, 3,
            "the excluded directory is not walked"
        );
    }

    #[test]
    fn a_bad_glob_or_regex_names_the_pattern() {
        let fixture = Fixture::new();
        let regex = SearchOptions {
            regex: true,
            ..SearchOptions::default()
        };
        let err = fixture
            .workspace
            .search_text("(", &regex)
            .expect_err("an invalid regex");
        let WorkspaceError::InvalidPattern { pattern, reason } = &err else {
            panic!("expected InvalidPattern, got {err:?}");
        };
        assert_eq!(pattern, "(");
        assert!(reason.contains("unclosed group"), "{reason}");
        assert!(!reason.contains('\n'), "one line: {reason}");

        let bad_glob = SearchOptions {
            include: vec!["[".into()],
            ..SearchOptions::default()
        };
        let err = fixture
            .workspace
            .search_text("x", &bad_glob)
            .expect_err("an invalid glob");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref pattern, .. } if pattern == "[")
        );
        let err = fixture
            .workspace
            .search_text("", &SearchOptions::default())
            .expect_err("empty");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref reason, .. }
                if reason.contains("empty"))
        );
        let err = fixture
            .workspace
            .search_text("a\nb", &SearchOptions::default())
            .expect_err("newline");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { .. }),
            "{err:?}"
        );
    }

    #[test]
    fn binary_files_are_skipped() {
        let fixture = Fixture::new();
        fixture.write("data.bin", b"fn main\0\x01\x02\n".as_slice());
        let results = search(&fixture, "fn main", &SearchOptions::default());
        assert_eq!(hits(&results), [("README.md", 2), ("src/main.rs", 1)]);
        assert_eq!(results.files_searched, 4, "the binary file is not counted");
    }

    #[test]
    fn hidden_files_are_skipped_but_a_hidden_directory_can_be_searched_by_name() {
        let fixture = Fixture::new();
        fixture.write(".config/settings.txt", "needle\n");
        fixture.write(".hidden.txt", "needle\n");
        assert_eq!(
            hits(&search(&fixture, "needle", &SearchOptions::default())),
            []
        );
        let inside = SearchOptions {
            path: ".config".into(),
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "needle", &inside)),
            [(".config/settings.txt", 1)]
        );
    }

    #[test]
    fn ignore_files_of_ancestors_inside_the_workspace_apply_to_a_subdirectory() {
        let fixture = Fixture::new();
        fixture.write(".gitignore", "*.log\nsrc/generated/\n");
        fixture.write("src/generated/out.rs", "needle\n");
        fixture.write("src/trace.log", "needle\n");
        fixture.write("src/kept.rs", "needle\n");
        fixture.write("src/.ignore", "kept.rs\n");
        fixture.write("src/nested/also.rs", "needle\n");
        let in_src = SearchOptions {
            path: "src".into(),
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "needle", &in_src)),
            [("src/nested/also.rs", 1)]
        );
        let in_nested = SearchOptions {
            path: "src/nested".into(),
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "needle", &in_nested)),
            [("src/nested/also.rs", 1)]
        );
        // Named directly, an ignored directory is searched, as ripgrep does.
        let generated = SearchOptions {
            path: "src/generated".into(),
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "needle", &generated)),
            [("src/generated/out.rs", 1)]
        );
    }

    #[test]
    fn git_exclude_rules_of_an_ancestor_apply_to_a_subdirectory() {
        let fixture = Fixture::new();
        fixture.write(".git/info/exclude", "private.rs\n");
        fixture.write("src/private.rs", "fn main\n");
        let in_src = SearchOptions {
            path: "src".into(),
            ..SearchOptions::default()
        };
        assert_eq!(
            hits(&search(&fixture, "fn main", &in_src)),
            [("src/main.rs", 1)]
        );
        let everywhere = search(&fixture, "fn main", &SearchOptions::default());
        assert_eq!(hits(&everywhere), [("README.md", 2), ("src/main.rs", 1)]);
    }

    #[test]
    fn ignore_files_above_the_root_have_no_effect() {
        let fixture = Fixture::new();
        let above = fixture.root.parent().expect("the root has a parent");
        std::fs::write(above.join(".gitignore"), "*.md\n*.rs\n").expect("written");
        std::fs::write(above.join(".ignore"), "src/\n").expect("written");
        let results = search(&fixture, "fn main", &SearchOptions::default());
        assert_eq!(hits(&results), [("README.md", 2), ("src/main.rs", 1)]);
    }

    #[test]
    fn a_negated_rule_re_includes_a_file() {
        let fixture = Fixture::new();
        fixture.write(".gitignore", "*.log\n!keep.log\n");
        fixture.write("keep.log", "fn main kept\n");
        let results = search(&fixture, "fn main", &SearchOptions::default());
        assert_eq!(
            hits(&results),
            [("README.md", 2), ("keep.log", 1), ("src/main.rs", 1)]
        );
    }

    #[test]
    fn the_cap_truncates_exactly() {
        let fixture = Fixture::new();
        fixture.write("many.txt", "hit\n".repeat(5));
        let capped = SearchOptions {
            max_results: 3,
            ..SearchOptions::default()
        };
        let results = search(&fixture, "hit", &capped);
        assert_eq!(
            hits(&results),
            [("many.txt", 1), ("many.txt", 2), ("many.txt", 3)]
        );
        assert!(results.truncated);
        let exact = SearchOptions {
            max_results: 5,
            ..SearchOptions::default()
        };
        let results = search(&fixture, "hit", &exact);
        assert_eq!(results.matches.len(), 5);
        assert!(!results.truncated, "exactly the cap is not a truncation");
        let zero = SearchOptions {
            max_results: 0,
            ..SearchOptions::default()
        };
        assert_eq!(
            search(&fixture, "hit", &zero).matches.len(),
            1,
            "a cap of 0 acts as 1"
        );
    }

    #[test]
    fn the_cap_says_how_to_ask_for_less() {
        let fixture = Fixture::new();
        fixture.write("many.txt", "hit\n".repeat(5));
        let capped = SearchOptions {
            max_results: 3,
            ..SearchOptions::default()
        };
        let hint = search(&fixture, "hit", &capped).hint.expect("a hint");
        assert!(hint.contains("stopped at 3 matching lines"), "{hint}");
        assert!(hint.contains("path, include or exclude"), "{hint}");
        assert_eq!(
            search(&fixture, "hit", &SearchOptions::default()).hint,
            None
        );
    }

    #[test]
    fn a_search_stops_after_looking_at_as_many_entries_as_it_may() {
        // The walk: README.md, empty, src, src/main.rs, src/nested, src/nested/lib.rs.
        let fixture = Fixture::new();
        let limited = |max_visited| SearchOptions {
            case_insensitive: true,
            max_visited,
            ..SearchOptions::default()
        };
        let stopped = search(&fixture, "fn main", &limited(4));
        assert_eq!(hits(&stopped), [("README.md", 2), ("src/main.rs", 1)]);
        assert!(stopped.truncated);
        let hint = stopped.hint.expect("a hint");
        assert!(hint.contains("after looking at 4 entries"), "{hint}");
        let enough = search(&fixture, "fn main", &limited(6));
        assert_eq!(
            hits(&enough),
            [
                ("README.md", 2),
                ("src/main.rs", 1),
                ("src/nested/lib.rs", 1)
            ]
        );
        assert!(!enough.truncated, "exactly the limit is not a truncation");
    }

    #[test]
    fn a_watched_search_counts_what_it_looked_at_and_stops_when_told() {
        let fixture = Fixture::new();
        let watch = Watch::default();
        let options = SearchOptions::default();
        let all = fixture
            .workspace
            .search_text_watched("fn main", &options, &watch);
        let all = all.expect("searched");
        assert!(!all.truncated);
        assert_eq!(watch.visited(), 6, "every entry but the hidden .gitignore");
        watch.stop();
        let stopped = fixture
            .workspace
            .search_text_watched("fn main", &options, &watch);
        let stopped = stopped.expect("searched");
        assert_eq!(stopped.files_searched, 0);
        assert!(stopped.truncated);
        assert_eq!(
            stopped.hint.as_deref(),
            Some("The search was stopped before it was complete.")
        );
    }

    #[test]
    fn a_search_stops_before_a_file_that_would_pass_the_byte_limit() {
        // README.md 34 bytes, empty 0, src/main.rs 34, src/nested/lib.rs 17: 85 in all.
        let fixture = Fixture::new();
        let limited = |max_bytes| SearchOptions {
            max_bytes,
            ..SearchOptions::default()
        };
        let stopped = search(&fixture, "fn main", &limited(60));
        assert_eq!(hits(&stopped), [("README.md", 2)]);
        assert_eq!(stopped.files_searched, 2, "README.md and empty");
        assert!(stopped.truncated);
        let hint = stopped.hint.expect("a hint");
        assert!(hint.contains("60 bytes"), "{hint}");
        let enough = search(&fixture, "fn main", &limited(85));
        assert_eq!(enough.files_searched, 4);
        assert!(!enough.truncated);
    }

    #[test]
    fn the_cap_spans_files_in_path_order() {
        let fixture = Fixture::new();
        fixture.write("b.txt", "hit\nhit\n");
        fixture.write("a/z.txt", "hit\n");
        fixture.write("a-z.txt", "hit\n");
        let capped = SearchOptions {
            max_results: 3,
            ..SearchOptions::default()
        };
        let results = search(&fixture, "hit", &capped);
        assert_eq!(
            hits(&results),
            [("a/z.txt", 1), ("a-z.txt", 1), ("b.txt", 1)]
        );
        assert!(results.truncated);
    }

    #[test]
    fn long_lines_are_cut_on_a_character_boundary() {
        let fixture = Fixture::new();
        let long = format!("needle {}\r\n", "é".repeat(1000));
        fixture.write("long.txt", &long);
        let results = search(&fixture, "needle", &SearchOptions::default());
        let text = &results.matches[0].text;
        assert_eq!(text.chars().count(), MAX_LINE_CHARS);
        assert!(text.starts_with("needle éé"));
        let short = search(&fixture, "fn main() {", &SearchOptions::default());
        assert_eq!(short.matches[0].text, "fn main() {", "no line ending");
    }

    #[test]
    fn a_file_or_missing_path_cannot_be_searched() {
        let fixture = Fixture::new();
        let file = SearchOptions {
            path: "README.md".into(),
            ..SearchOptions::default()
        };
        let err = fixture
            .workspace
            .search_text("x", &file)
            .expect_err("a file");
        assert_eq!(
            err,
            WorkspaceError::NotADirectory {
                path: "README.md".into()
            }
        );
        let missing = SearchOptions {
            path: "nope".into(),
            ..SearchOptions::default()
        };
        let err = fixture
            .workspace
            .search_text("x", &missing)
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "nope".into()
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_directory_named_as_the_path_is_searched_through_the_link() {
        let fixture = Fixture::new();
        std::os::unix::fs::symlink("src", fixture.host_path("src-alias")).expect("a link");
        let through = SearchOptions {
            path: "src-alias".into(),
            ..SearchOptions::default()
        };
        let results = search(&fixture, "fn main", &through);
        assert_eq!(hits(&results), [("src-alias/main.rs", 1)]);
    }

    #[test]
    fn regex_reasons_keep_only_the_gist() {
        let message = "regex parse error:\n    (\n    ^\nerror: unclosed group";
        assert_eq!(regex_reason(message), "unclosed group");
        assert_eq!(
            regex_reason("compiled regex exceeds size limit"),
            "compiled regex exceeds size limit"
        );
    }
}
