//! Glob filters on workspace-relative paths, shared by listing and searching.
//!
//! The rules are those of `.gitignore` and of ripgrep's `--glob`, which a model has most likely
//! seen: a glob without `/` matches an entry's name at any depth (`*.rs`), a glob with `/` matches
//! the whole workspace-relative path (`src/**/*.rs`), and `*` never crosses a `/`. A leading `/`
//! only says "from the root", so `/Cargo.toml` matches the root's `Cargo.toml` and no other.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::workspace::WorkspaceError;

/// A set of globs; an entry matches the set when it matches any one of them.
#[derive(Debug, Clone)]
pub(crate) struct PathGlobs {
    /// The globs written without `/`, matched against the entry's name.
    by_name: GlobSet,
    /// The globs written with `/`, matched against the workspace-relative path.
    by_path: GlobSet,
    /// How many globs the set holds.
    len: usize,
}

impl PathGlobs {
    /// Compiles `patterns`, refusing the first one that does not compile.
    pub(crate) fn new<'a>(
        patterns: impl IntoIterator<Item = &'a str>,
    ) -> Result<PathGlobs, WorkspaceError> {
        let mut by_name = GlobSetBuilder::new();
        let mut by_path = GlobSetBuilder::new();
        let mut len = 0;
        for pattern in patterns {
            let anchored = pattern
                .strip_prefix('/')
                .or_else(|| pattern.strip_prefix("./"));
            let body = anchored.unwrap_or(pattern);
            let glob = GlobBuilder::new(body)
                .literal_separator(true)
                .build()
                .map_err(|err| WorkspaceError::invalid_pattern(pattern, err.kind().to_string()))?;
            if anchored.is_none() && !body.contains('/') {
                by_name.add(glob);
            } else {
                by_path.add(glob);
            }
            len += 1;
        }
        let build = |builder: GlobSetBuilder| {
            builder.build().map_err(|err| {
                let pattern = err.glob().unwrap_or_default();
                WorkspaceError::invalid_pattern(pattern, err.kind().to_string())
            })
        };
        Ok(PathGlobs {
            by_name: build(by_name)?,
            by_path: build(by_path)?,
            len,
        })
    }

    /// Whether the set holds no globs at all (and so, as a filter, keeps everything).
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the entry at `path` (workspace-relative, `/`-separated), whose last component is
    /// `name`, matches any glob of the set.
    pub(crate) fn matches(&self, path: &str, name: &str) -> bool {
        self.by_name.is_match(name) || self.by_path.is_match(path)
    }

    /// Whether an entry found below a directory matches: by its `name`, or, for a glob with
    /// `/`, by its path `relative` to that directory or by its workspace-relative `path`. So with
    /// `src` searched, `nested/*.rs` and `src/nested/*.rs` both find `src/nested/lib.rs`, whichever
    /// way the caller thought of the pattern.
    pub(crate) fn matches_below(&self, relative: &str, path: &str, name: &str) -> bool {
        self.by_name.is_match(name)
            || self.by_path.is_match(relative)
            || self.by_path.is_match(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globs(patterns: &[&str]) -> PathGlobs {
        PathGlobs::new(patterns.iter().copied()).expect("valid globs")
    }

    #[test]
    fn a_glob_without_a_slash_matches_names_at_any_depth() {
        let set = globs(&["*.rs"]);
        assert!(set.matches("main.rs", "main.rs"));
        assert!(set.matches("src/nested/lib.rs", "lib.rs"));
        assert!(!set.matches("src/notes.md", "notes.md"));
    }

    #[test]
    fn a_glob_with_a_slash_matches_the_whole_path_and_star_stays_in_one_directory() {
        let set = globs(&["src/*.rs"]);
        assert!(set.matches("src/main.rs", "main.rs"));
        assert!(!set.matches("src/nested/lib.rs", "lib.rs"));
        assert!(!set.matches("other/src/main.rs", "main.rs"));
        let deep = globs(&["**/*.rs"]);
        assert!(deep.matches("main.rs", "main.rs"));
        assert!(deep.matches("src/nested/lib.rs", "lib.rs"));
    }

    #[test]
    fn a_leading_slash_anchors_at_the_root() {
        let set = globs(&["/Cargo.toml"]);
        assert!(set.matches("Cargo.toml", "Cargo.toml"));
        assert!(!set.matches("sub/Cargo.toml", "Cargo.toml"));
    }

    #[test]
    fn any_glob_of_the_set_may_match() {
        let set = globs(&["*.md", "src/**"]);
        assert!(set.matches("README.md", "README.md"));
        assert!(set.matches("src/a/b.txt", "b.txt"));
        assert!(!set.matches("docs/a.txt", "a.txt"));
        assert!(!set.is_empty());
        assert!(globs(&[]).is_empty());
    }

    #[test]
    fn below_a_directory_a_path_glob_may_be_relative_to_it_or_to_the_root() {
        let set = globs(&["nested/*.rs"]);
        assert!(set.matches_below("nested/lib.rs", "src/nested/lib.rs", "lib.rs"));
        let set = globs(&["src/nested/*.rs"]);
        assert!(set.matches_below("nested/lib.rs", "src/nested/lib.rs", "lib.rs"));
        assert!(!set.matches_below("lib.rs", "lib.rs", "lib.rs"));
        let set = globs(&["*.rs"]);
        assert!(set.matches_below("a/b/c.rs", "x/a/b/c.rs", "c.rs"));
        assert!(!set.matches_below("a/b/c.md", "x/a/b/c.md", "c.md"));
    }

    #[test]
    fn a_bad_glob_is_named_with_the_reason() {
        let Err(WorkspaceError::InvalidPattern { pattern, reason }) =
            PathGlobs::new(["*.rs", "src/[a"])
        else {
            panic!("an unclosed class must be refused");
        };
        assert_eq!(pattern, "src/[a");
        assert!(reason.contains("unclosed"), "{reason}");
    }
}
