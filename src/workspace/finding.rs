//! Finding files by glob below a directory, honouring ignore files.
//!
//! The shared walker (`walking.rs`, on the `ignore` crate) finds the entries, a `globset` set
//! (`globs.rs`) picks the files, and each one picked is looked at through the sandbox `Dir`
//! (without following a symbolic link) for its size, which also refuses anything a swapped
//! directory would put outside the root.

use serde::{Deserialize, Serialize};

use crate::contract::FindFilesArgs;
use crate::workspace::globs::PathGlobs;
use crate::workspace::path::WorkspacePath;
use crate::workspace::walking::{MAX_VISITED_ENTRIES, WalkRules, Watch};
use crate::workspace::{Workspace, WorkspaceError};

/// How many files [`Workspace::find_files`] returns unless told otherwise: `find_files`'s
/// default `limit`.
pub const DEFAULT_FIND_LIMIT: usize = FindFilesArgs::DEFAULT_LIMIT as usize;

/// The most files one find returns, `find_files`'s largest `limit`; a larger limit is cut to
/// this.
pub const MAX_FIND_LIMIT: usize = FindFilesArgs::MAX_LIMIT as usize;

/// Where and how [`Workspace::find_files`] looks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FindOptions {
    /// The directory to look in, workspace-relative; `""` or `"."` is the root.
    pub path: String,
    /// The most files to return. Cut to 1..=[`MAX_FIND_LIMIT`].
    pub limit: usize,
    /// Also find what ignore files (`.gitignore`, `.ignore`, `.git/info/exclude`) leave out,
    /// and what lies in `.git` directories.
    pub include_ignored: bool,
    /// The most entries to look at, found or not. Cut to 1..=[`MAX_VISITED_ENTRIES`].
    pub max_visited: usize,
}

impl Default for FindOptions {
    fn default() -> Self {
        FindOptions {
            path: ".".into(),
            limit: DEFAULT_FIND_LIMIT,
            include_ignored: false,
            max_visited: MAX_VISITED_ENTRIES,
        }
    }
}

/// One file found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundFile {
    /// The file's path relative to the workspace root, with `/` separators.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
}

/// The result of [`Workspace::find_files`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// The files found, sorted by path (name by name, as in a directory tree).
    pub files: Vec<FoundFile>,
    /// True when the find stopped early: more files matched than `limit`, or it looked at
    /// `max_visited` entries.
    pub truncated: bool,
    /// When truncated, which limit stopped the find and how to ask for less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Which limit stopped a find early.
#[derive(Debug, Clone, Copy)]
enum Limit {
    /// More files matched than may be returned.
    Files(usize),
    /// As many entries were looked at as may be.
    Visited(usize),
}

impl Limit {
    /// What the caller reads: which limit stopped the find, and how to ask for less.
    fn hint(self) -> String {
        match self {
            Limit::Files(count) => format!(
                "More than {count} files match; these are the first {count} by path. Ask for \
                 less with a more specific pattern or a subdirectory as path, or raise limit \
                 (at most {MAX_FIND_LIMIT})."
            ),
            Limit::Visited(count) => format!(
                "The find stopped after looking at {count} entries; ask for less with a \
                 subdirectory as path."
            ),
        }
    }
}

impl Workspace {
    /// The regular files below `options.path` whose path matches the glob `pattern`.
    ///
    /// A pattern without `/` matches a file's name at any depth (`*.rs`); one with `/` matches
    /// its path relative to `options.path`, or its workspace-relative path (`src/**/*.rs`), and
    /// `*` never crosses a `/`. Ignore files are honoured and `.git` directories skipped unless
    /// `options.include_ignored`; hidden files are found. Symbolic links are not followed, nor
    /// found, and the temporary files of unfinished writes are never found.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::InvalidPattern`] for an empty pattern or one that does not compile;
    /// [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for an `options.path`
    /// that may not be used; [`WorkspaceError::NotFound`] or [`WorkspaceError::NotADirectory`]
    /// when it names no directory.
    pub fn find_files(
        &self,
        pattern: &str,
        options: &FindOptions,
    ) -> Result<Found, WorkspaceError> {
        let target = WorkspacePath::parse(&options.path)?;
        if pattern.is_empty() {
            return Err(WorkspaceError::invalid_pattern(
                pattern,
                "the pattern is empty; pass a glob such as `**/*.rs`",
            ));
        }
        let glob = PathGlobs::new([pattern])?;
        self.directory_metadata(&target)?;
        let limit = options.limit.clamp(1, MAX_FIND_LIMIT);
        let max_visited = options.max_visited.clamp(1, MAX_VISITED_ENTRIES);
        let rules = WalkRules {
            ignore_files: !options.include_ignored,
            skip_hidden: false,
            max_depth: None,
            exclude: None,
        };

        let mut found = Found::default();
        let mut stopped = None;
        let unwatched = Watch::default();
        let mut visits = self.visit(&target, rules, max_visited, "find", &unwatched);
        for walked in visits.by_ref() {
            if !walked
                .file_type()
                .is_some_and(|file_type| file_type.is_file())
            {
                continue;
            }
            let Some(path) = WorkspacePath::from_host(self.walk_root(), walked.path()) else {
                continue;
            };
            if !glob.matches_below(path.relative_to(&target), path.as_str(), path.name()) {
                continue;
            }
            // The walker only names the file; the sandbox says what it is, or refuses it.
            let metadata = match self.dir().symlink_metadata(path.to_relative_path()) {
                Ok(metadata) if metadata.is_file() => metadata,
                Ok(_) => continue,
                Err(err) => {
                    let path = path.as_str();
                    tracing::debug!(path, error = %err, "find: the sandbox refused a file");
                    continue;
                }
            };
            if found.files.len() == limit {
                stopped = Some(Limit::Files(limit));
                break;
            }
            found.files.push(FoundFile {
                path: path.as_str().to_owned(),
                size: metadata.len(),
            });
        }
        if visits.cut() {
            stopped = Some(Limit::Visited(max_visited));
        }
        // The walk already yields this order; sorting here makes the promise hold on its own.
        found
            .files
            .sort_by(|a, b| a.path.split('/').cmp(b.path.split('/')));
        found.hint = stopped.map(Limit::hint);
        found.truncated = found.hint.is_some();
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::Fixture;

    fn find(fixture: &Fixture, pattern: &str, options: &FindOptions) -> Found {
        match fixture.workspace.find_files(pattern, options) {
            Ok(found) => found,
            Err(err) => panic!("finding `{pattern}` failed: {err}"),
        }
    }

    fn paths(found: &Found) -> Vec<&str> {
        found.files.iter().map(|file| file.path.as_str()).collect()
    }

    fn under(path: &str) -> FindOptions {
        FindOptions {
            path: path.into(),
            ..FindOptions::default()
        }
    }

    #[test]
    fn a_name_glob_finds_files_at_any_depth_sorted_with_sizes() {
        let fixture = Fixture::new();
        fixture.write("a-b.rs", "");
        fixture.write("a/z.rs", "");
        let found = find(&fixture, "*.rs", &FindOptions::default());
        assert_eq!(
            paths(&found),
            ["a/z.rs", "a-b.rs", "src/main.rs", "src/nested/lib.rs"],
            "sorted name by name, as in a tree"
        );
        assert_eq!(found.files[2].size, 34);
        assert!(!found.truncated);
        assert_eq!(found.hint, None);
        assert_eq!(
            paths(&find(&fixture, "**/*.rs", &FindOptions::default())),
            paths(&found)
        );
    }

    #[test]
    fn a_path_glob_matches_relative_to_the_directory_or_the_root() {
        let fixture = Fixture::new();
        for (pattern, path) in [
            ("nested/*.rs", "src"),
            ("src/nested/*.rs", "src"),
            ("src/nested/*.rs", "."),
            ("**/nested/**", "."),
        ] {
            assert_eq!(
                paths(&find(&fixture, pattern, &under(path))),
                ["src/nested/lib.rs"],
                "{pattern} in {path}"
            );
        }
        assert_eq!(
            paths(&find(&fixture, "src/*.rs", &FindOptions::default())),
            ["src/main.rs"],
            "`*` does not cross a `/`"
        );
        assert_eq!(
            paths(&find(&fixture, "*.rs", &under("src/nested"))),
            ["src/nested/lib.rs"]
        );
    }

    #[test]
    fn directories_and_links_are_not_found() {
        let fixture = Fixture::new();
        assert_eq!(
            paths(&find(&fixture, "nested", &FindOptions::default())),
            Vec::<&str>::new()
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("README.md", fixture.host_path("alias.md")).expect("a link");
            assert_eq!(
                paths(&find(&fixture, "*.md", &FindOptions::default())),
                ["README.md"]
            );
        }
    }

    #[test]
    fn ignore_files_are_honoured_unless_ignored_files_are_asked_for() {
        let fixture = Fixture::new();
        fixture.write(".git/config", "[core]\n");
        fixture.write(".github/workflows/ci.yml", "on: push\n");
        fixture.write("src/.ignore", "nested/\n");
        let default = find(&fixture, "*", &FindOptions::default());
        assert_eq!(
            paths(&default),
            [
                ".github/workflows/ci.yml",
                ".gitignore",
                "README.md",
                "empty",
                "src/.ignore",
                "src/main.rs"
            ],
            "hidden files are found; ignored ones and .git are not"
        );
        let everything = FindOptions {
            include_ignored: true,
            ..FindOptions::default()
        };
        let all = find(&fixture, "*", &everything);
        for path in [".git/config", "ignored.log", "src/nested/lib.rs"] {
            assert!(paths(&all).contains(&path), "{path}: {:?}", paths(&all));
        }
        assert_eq!(
            paths(&find(&fixture, "*.rs", &under("src/nested"))),
            ["src/nested/lib.rs"],
            "a directory named directly is looked in even if ignored"
        );
    }

    #[test]
    fn the_limit_truncates_in_path_order_and_says_how_to_ask_for_less() {
        let fixture = Fixture::new();
        let two = FindOptions {
            limit: 2,
            ..FindOptions::default()
        };
        let cut = find(&fixture, "*", &two);
        assert_eq!(paths(&cut), [".gitignore", "README.md"]);
        assert!(cut.truncated);
        let hint = cut.hint.expect("a hint");
        assert!(hint.contains("More than 2 files match"), "{hint}");
        assert!(
            hint.contains("subdirectory as path") && hint.contains("at most 1000"),
            "{hint}"
        );
        let exact = FindOptions {
            limit: 5,
            ..FindOptions::default()
        };
        let all = find(&fixture, "*", &exact);
        assert_eq!(all.files.len(), 5);
        assert!(!all.truncated, "exactly the limit is not a truncation");
        let zero = FindOptions {
            limit: 0,
            ..FindOptions::default()
        };
        assert_eq!(
            find(&fixture, "*", &zero).files.len(),
            1,
            "a limit of 0 acts as 1"
        );
    }

    #[test]
    fn a_sparse_pattern_stops_after_looking_at_as_many_entries_as_it_may() {
        // The walk: .gitignore, README.md, empty, src, src/main.rs, src/nested, src/nested/lib.rs.
        let fixture = Fixture::new();
        let limited = |max_visited| FindOptions {
            max_visited,
            ..FindOptions::default()
        };
        let stopped = find(&fixture, "lib.rs", &limited(6));
        assert_eq!(paths(&stopped), Vec::<&str>::new());
        let hint = stopped.hint.expect("a hint");
        assert!(hint.contains("after looking at 6 entries"), "{hint}");
        let enough = find(&fixture, "lib.rs", &limited(7));
        assert_eq!(paths(&enough), ["src/nested/lib.rs"]);
        assert!(!enough.truncated);
    }

    #[test]
    fn temporary_files_of_unfinished_writes_are_never_found() {
        let fixture = Fixture::new();
        fixture.write(".mcp-workspace-5-1.tmp", "half a write");
        let everything = FindOptions {
            include_ignored: true,
            ..FindOptions::default()
        };
        assert_eq!(
            paths(&find(&fixture, "*.tmp", &everything)),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn bad_patterns_and_paths_are_refused() {
        let fixture = Fixture::new();
        let err = fixture
            .workspace
            .find_files("[", &FindOptions::default())
            .expect_err("a bad glob");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref pattern, .. } if pattern == "["),
            "{err:?}"
        );
        let err = fixture
            .workspace
            .find_files("", &FindOptions::default())
            .expect_err("empty");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref reason, .. } if reason.contains("empty")),
            "{err:?}"
        );
        let err = fixture
            .workspace
            .find_files("*", &under("README.md"))
            .expect_err("a file");
        assert_eq!(
            err,
            WorkspaceError::NotADirectory {
                path: "README.md".into()
            }
        );
        let err = fixture
            .workspace
            .find_files("*", &under("nope"))
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "nope".into()
            }
        );
    }
}
