//! The tree below a directory, a few levels deep, honouring ignore files.
//!
//! The shared walker (`walking.rs`) finds the entries; each is then looked at through the
//! sandbox `Dir` (without following a symbolic link), which gives its kind and size and refuses
//! anything a swapped directory would put outside the root. The tree is a flat list in tree
//! order, each entry with its depth: the manifest's types are inlined into the published schema
//! and so cannot nest themselves, and a flat list is as easy for a model to read.

use serde::{Deserialize, Serialize};

use crate::contract::DirectoryTreeArgs;
use crate::workspace::entry::entry_kind;
use crate::workspace::globs::PathGlobs;
use crate::workspace::path::WorkspacePath;
use crate::workspace::walking::{MAX_VISITED_ENTRIES, WalkRules, Watch};
use crate::workspace::{EntryKind, Workspace, WorkspaceError};

/// How many levels [`Workspace::directory_tree`] descends unless told otherwise:
/// `directory_tree`'s default `max_depth`.
pub const DEFAULT_TREE_DEPTH: u32 = DirectoryTreeArgs::DEFAULT_MAX_DEPTH as u32;

/// The most levels [`Workspace::directory_tree`] descends, `directory_tree`'s largest
/// `max_depth`; a deeper request is cut to this.
pub const MAX_TREE_DEPTH: u32 = DirectoryTreeArgs::MAX_MAX_DEPTH as u32;

/// The most entries one tree returns.
pub const MAX_TREE_ENTRIES: usize = 500;

/// How [`Workspace::directory_tree`] walks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TreeOptions {
    /// How many levels to show: 1 shows the directory's own entries, 2 adds theirs, and so on.
    /// Cut to 1..=[`MAX_TREE_DEPTH`].
    pub max_depth: u32,
    /// Keeps only the entries this glob matches, and the directories that lead to them. A glob
    /// without `/` matches names at any depth (`*.rs`); one with `/` matches the path relative
    /// to the tree's directory or to the workspace root (`src/**/*.rs`).
    pub glob: Option<String>,
    /// Show what ignore files (`.gitignore`, `.ignore`, `.git/info/exclude`) leave out, and
    /// `.git` directories.
    pub include_ignored: bool,
    /// The most entries to return. Cut to 1..=[`MAX_TREE_ENTRIES`].
    pub max_entries: usize,
    /// The most entries to look at, shown or not. Cut to 1..=[`MAX_VISITED_ENTRIES`].
    pub max_visited: usize,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            max_depth: DEFAULT_TREE_DEPTH,
            glob: None,
            include_ignored: false,
            max_entries: MAX_TREE_ENTRIES,
            max_visited: MAX_VISITED_ENTRIES,
        }
    }
}

/// One entry of a tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeEntry {
    /// The entry's own name. A name that is not UTF-8 is converted lossily.
    pub name: String,
    /// The entry's path relative to the workspace root, with `/` separators.
    pub path: String,
    /// What the entry is; a symbolic link is reported as one and not followed.
    pub kind: EntryKind,
    /// The size in bytes; present for regular files only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// How deep the entry lies below the tree's directory: 1 for its own entries.
    pub depth: u32,
}

/// The result of [`Workspace::directory_tree`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    /// The tree's directory, relative to the workspace root (`.` for the root).
    pub path: String,
    /// The entries in tree order: sorted by name within each directory, each directory followed
    /// by its own entries.
    pub entries: Vec<TreeEntry>,
    /// True when the tree stopped early, at `max_entries` entries or after looking at
    /// `max_visited`.
    pub truncated: bool,
    /// When truncated, which limit stopped the tree and how to ask for less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Which limit stopped a tree early.
#[derive(Debug, Clone)]
enum Limit {
    /// As many entries were shown as may be, and one more was due; with the top-level
    /// directory being shown at the time, if any.
    Entries(usize, Option<String>),
    /// As many entries were looked at as may be.
    Visited(usize),
    /// Its watch stopped it.
    Stopped,
}

impl Limit {
    /// What the caller reads: which limit stopped the tree, and how to ask for less.
    fn hint(self) -> String {
        match self {
            Limit::Entries(count, Some(within)) => format!(
                "The tree stopped at {count} entries, inside `{within}`; ask for less with a \
                 smaller max_depth or a glob, or call directory_tree on a subdirectory such as \
                 `{within}`."
            ),
            Limit::Entries(count, None) => format!(
                "The tree stopped at {count} entries; ask for less with a smaller max_depth, a \
                 glob, or a subdirectory as path."
            ),
            Limit::Visited(count) => format!(
                "The tree stopped after looking at {count} entries; ask for less with a smaller \
                 max_depth or a subdirectory as path."
            ),
            Limit::Stopped => "The tree was stopped before it was complete.".into(),
        }
    }
}

/// A directory above the entry being looked at, waiting to be shown if something below it is.
struct Ancestor {
    entry: TreeEntry,
    shown: bool,
}

impl Workspace {
    /// The tree below the directory at `path` (workspace-relative; `""` or `"."` is the root),
    /// `options.max_depth` levels deep.
    ///
    /// Like a listing, it never follows a symbolic link (reported as [`EntryKind::Symlink`]),
    /// skips what it cannot read, and never shows the temporary files of unfinished writes.
    /// Unlike a listing, it honours ignore files as `search_text` does, and skips `.git`
    /// directories, unless `options.include_ignored`; hidden entries are shown. The directory
    /// itself is shown even if ignored. With a glob, an entry is kept when it matches or lies
    /// above one that does.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for a path that may not
    /// be used, [`WorkspaceError::NotFound`] or [`WorkspaceError::NotADirectory`] when it names
    /// no directory, and [`WorkspaceError::InvalidPattern`] for a bad glob.
    pub fn directory_tree(
        &self,
        path: &str,
        options: &TreeOptions,
    ) -> Result<Tree, WorkspaceError> {
        self.directory_tree_watched(path, options, &Watch::default())
    }

    /// [`Workspace::directory_tree`] under `watch`, which counts the entries looked at and can
    /// stop the walk; a stopped walk returns the tree so far, truncated, saying so.
    ///
    /// # Errors
    ///
    /// Those of [`Workspace::directory_tree`].
    pub fn directory_tree_watched(
        &self,
        path: &str,
        options: &TreeOptions,
        watch: &Watch,
    ) -> Result<Tree, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let glob = options
            .glob
            .as_deref()
            .map(|glob| PathGlobs::new([glob]))
            .transpose()?;
        self.directory_metadata(&target)?;
        let max_depth = options.max_depth.clamp(1, MAX_TREE_DEPTH);
        let max_entries = options.max_entries.clamp(1, MAX_TREE_ENTRIES);
        let max_visited = options.max_visited.clamp(1, MAX_VISITED_ENTRIES);
        let rules = WalkRules {
            ignore_files: !options.include_ignored,
            skip_hidden: false,
            max_depth: usize::try_from(max_depth).ok(),
            exclude: None,
        };

        let mut entries = Vec::new();
        let mut ancestors: Vec<Ancestor> = Vec::new();
        let mut stopped = None;
        let mut visits = self.visit(&target, rules, max_visited, "tree", watch);
        'walk: for walked in visits.by_ref() {
            let Some(path) = WorkspacePath::from_host(self.walk_root(), walked.path()) else {
                continue;
            };
            // The walk is depth first, so the directories above this entry are exactly the
            // first `depth - 1` on the stack; trimmed first, so that an entry refused below
            // cannot leave a sibling directory standing as its children's parent.
            ancestors.truncate(walked.depth() - 1);
            // The walker only names the entry; the sandbox says what it is, or refuses it.
            let metadata = match self.dir().symlink_metadata(path.to_relative_path()) {
                Ok(metadata) => metadata,
                Err(err) => {
                    let path = path.as_str();
                    tracing::debug!(path, error = %err, "tree: the sandbox refused an entry");
                    continue;
                }
            };
            let kind = entry_kind(metadata.file_type());
            let depth = u32::try_from(walked.depth()).unwrap_or(u32::MAX);
            let entry = TreeEntry {
                name: path.name().to_owned(),
                path: path.as_str().to_owned(),
                kind,
                size: (kind == EntryKind::File).then(|| metadata.len()),
                depth,
            };
            let keep = glob.as_ref().is_none_or(|glob| {
                glob.matches_below(path.relative_to(&target), path.as_str(), path.name())
            });
            if keep {
                let unshown = ancestors.iter_mut().filter(|ancestor| !ancestor.shown);
                for next in unshown
                    .map(|ancestor| {
                        ancestor.shown = true;
                        ancestor.entry.clone()
                    })
                    .chain(std::iter::once(entry.clone()))
                {
                    if entries.len() == max_entries {
                        let within = ancestors.first().map(|top| top.entry.path.clone());
                        stopped = Some(Limit::Entries(max_entries, within));
                        break 'walk;
                    }
                    entries.push(next);
                }
            }
            if kind == EntryKind::Directory {
                ancestors.push(Ancestor { entry, shown: keep });
            }
        }
        if visits.cut() {
            stopped = Some(Limit::Visited(max_visited));
        }
        if visits.stopped() {
            stopped = Some(Limit::Stopped);
        }
        let hint = stopped.map(Limit::hint);
        Ok(Tree {
            path: target.as_str().to_owned(),
            entries,
            truncated: hint.is_some(),
            hint,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::Fixture;

    #[test]
    fn a_stopped_tree_is_truncated_and_says_so() {
        let fixture = Fixture::new();
        let watch = Watch::default();
        watch.stop();
        let options = TreeOptions::default();
        let tree = fixture
            .workspace
            .directory_tree_watched(".", &options, &watch);
        let tree = tree.expect("walked");
        assert_eq!(tree.entries, []);
        assert!(tree.truncated);
        assert_eq!(
            tree.hint.as_deref(),
            Some("The tree was stopped before it was complete.")
        );
    }

    fn tree(fixture: &Fixture, path: &str, options: &TreeOptions) -> Tree {
        match fixture.workspace.directory_tree(path, options) {
            Ok(tree) => tree,
            Err(err) => panic!("the tree of `{path}` failed: {err}"),
        }
    }

    /// Each entry as `depth path`, which shows the shape at a glance.
    fn shape(tree: &Tree) -> Vec<String> {
        tree.entries
            .iter()
            .map(|entry| format!("{} {}", entry.depth, entry.path))
            .collect()
    }

    #[test]
    fn the_tree_of_the_root_is_in_tree_order_with_depths_kinds_and_sizes() {
        let fixture = Fixture::new();
        let root = tree(&fixture, ".", &TreeOptions::default());
        assert_eq!(
            shape(&root),
            [
                "1 .gitignore",
                "1 README.md",
                "1 empty",
                "1 src",
                "2 src/main.rs",
                "2 src/nested",
                "3 src/nested/lib.rs",
            ],
            "ignored.log is left out by .gitignore; hidden files are shown"
        );
        assert_eq!(root.path, ".");
        assert!(!root.truncated);
        assert_eq!(root.hint, None);
        assert_eq!(
            root.entries[1],
            TreeEntry {
                name: "README.md".into(),
                path: "README.md".into(),
                kind: EntryKind::File,
                size: Some(34),
                depth: 1,
            }
        );
        let src = &root.entries[3];
        assert_eq!((src.kind, src.size), (EntryKind::Directory, None));
    }

    #[test]
    fn max_depth_limits_the_levels_shown() {
        let fixture = Fixture::new();
        let one = TreeOptions {
            max_depth: 1,
            ..TreeOptions::default()
        };
        assert_eq!(
            shape(&tree(&fixture, ".", &one)),
            ["1 .gitignore", "1 README.md", "1 empty", "1 src"]
        );
        let two = TreeOptions {
            max_depth: 2,
            ..TreeOptions::default()
        };
        let shown = shape(&tree(&fixture, "src", &two));
        assert_eq!(
            shown,
            ["1 src/main.rs", "1 src/nested", "2 src/nested/lib.rs"]
        );
    }

    #[test]
    fn ignored_entries_and_git_directories_are_shown_only_when_asked_for() {
        let fixture = Fixture::new();
        fixture.write(".git/HEAD", "ref: refs/heads/main\n");
        fixture.write("target/debug/app", "binary");
        fixture.write(".gitignore", "*.log\n/target/\n");
        let default = shape(&tree(&fixture, ".", &TreeOptions::default()));
        assert_eq!(
            default,
            [
                "1 .gitignore",
                "1 README.md",
                "1 empty",
                "1 src",
                "2 src/main.rs",
                "2 src/nested",
                "3 src/nested/lib.rs",
            ],
            "no ignored.log, target or .git"
        );
        let everything = TreeOptions {
            include_ignored: true,
            ..TreeOptions::default()
        };
        let all = shape(&tree(&fixture, ".", &everything));
        for shown in [
            "1 ignored.log",
            "1 target",
            "3 target/debug/app",
            "1 .git",
            "2 .git/HEAD",
        ] {
            assert!(all.iter().any(|entry| entry == shown), "{shown}: {all:?}");
        }
        let named = shape(&tree(&fixture, "target", &TreeOptions::default()));
        assert_eq!(
            named,
            ["1 target/debug", "2 target/debug/app"],
            "a directory named directly is shown even if ignored"
        );
    }

    #[test]
    fn a_glob_keeps_matches_and_the_directories_leading_to_them() {
        let fixture = Fixture::new();
        fixture.write("docs/guide.md", "# Guide\n");
        let rust = TreeOptions {
            glob: Some("*.rs".into()),
            ..TreeOptions::default()
        };
        assert_eq!(
            shape(&tree(&fixture, ".", &rust)),
            [
                "1 src",
                "2 src/main.rs",
                "2 src/nested",
                "3 src/nested/lib.rs"
            ]
        );
        for pattern in ["nested/*.rs", "src/nested/*.rs"] {
            let options = TreeOptions {
                glob: Some(pattern.into()),
                ..TreeOptions::default()
            };
            assert_eq!(
                shape(&tree(&fixture, "src", &options)),
                ["1 src/nested", "2 src/nested/lib.rs"],
                "{pattern}"
            );
        }
        let none = TreeOptions {
            glob: Some("*.py".into()),
            ..TreeOptions::default()
        };
        let empty = tree(&fixture, ".", &none);
        assert_eq!(empty.entries, []);
        assert!(!empty.truncated);
    }

    #[test]
    fn the_entry_cap_truncates_and_names_a_subdirectory_to_ask_for() {
        let fixture = Fixture::new();
        let capped = TreeOptions {
            max_entries: 5,
            ..TreeOptions::default()
        };
        let cut = tree(&fixture, ".", &capped);
        assert_eq!(
            shape(&cut),
            [
                "1 .gitignore",
                "1 README.md",
                "1 empty",
                "1 src",
                "2 src/main.rs"
            ]
        );
        assert!(cut.truncated);
        let hint = cut.hint.expect("a hint");
        assert!(hint.contains("stopped at 5 entries"), "{hint}");
        assert!(
            hint.contains("directory_tree on a subdirectory such as `src`"),
            "{hint}"
        );
        assert!(hint.contains("smaller max_depth"), "{hint}");

        let exact = TreeOptions {
            max_entries: 7,
            ..TreeOptions::default()
        };
        let whole = tree(&fixture, ".", &exact);
        assert_eq!(whole.entries.len(), 7);
        assert!(!whole.truncated, "exactly the cap is not a truncation");

        let top_level = TreeOptions {
            max_entries: 2,
            ..TreeOptions::default()
        };
        let hint = tree(&fixture, ".", &top_level).hint.expect("a hint");
        assert!(hint.contains("a subdirectory as path"), "{hint}");
    }

    #[test]
    fn the_cap_counts_the_directories_a_glob_brings_in() {
        let fixture = Fixture::new();
        let capped = TreeOptions {
            glob: Some("lib.rs".into()),
            max_entries: 2,
            ..TreeOptions::default()
        };
        let cut = tree(&fixture, ".", &capped);
        assert_eq!(shape(&cut), ["1 src", "2 src/nested"]);
        assert!(cut.truncated);
    }

    #[test]
    fn a_sparse_glob_stops_after_looking_at_as_many_entries_as_it_may() {
        // The walk: .gitignore, README.md, empty, src, src/main.rs, src/nested, src/nested/lib.rs.
        let fixture = Fixture::new();
        let sparse = |max_visited| TreeOptions {
            glob: Some("lib.rs".into()),
            max_visited,
            ..TreeOptions::default()
        };
        let stopped = tree(&fixture, ".", &sparse(6));
        assert_eq!(stopped.entries, []);
        let hint = stopped.hint.expect("a hint");
        assert!(hint.contains("after looking at 6 entries"), "{hint}");
        let enough = tree(&fixture, ".", &sparse(7));
        assert_eq!(
            shape(&enough),
            ["1 src", "2 src/nested", "3 src/nested/lib.rs"]
        );
        assert!(!enough.truncated);
    }

    #[test]
    fn temporary_files_of_unfinished_writes_are_never_shown() {
        let fixture = Fixture::new();
        fixture.write("src/.mcp-workspace-77-3.tmp", "half a write");
        let everything = TreeOptions {
            include_ignored: true,
            ..TreeOptions::default()
        };
        let shown = shape(&tree(&fixture, ".", &everything)).join(" ");
        assert!(!shown.contains(".tmp"), "{shown}");
    }

    #[test]
    fn a_file_a_missing_path_or_a_bad_glob_is_refused() {
        let fixture = Fixture::new();
        let options = TreeOptions::default();
        let err = fixture
            .workspace
            .directory_tree("README.md", &options)
            .expect_err("a file");
        assert_eq!(
            err,
            WorkspaceError::NotADirectory {
                path: "README.md".into()
            }
        );
        let err = fixture
            .workspace
            .directory_tree("nope", &options)
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "nope".into()
            }
        );
        let bad = TreeOptions {
            glob: Some("src/[".into()),
            ..TreeOptions::default()
        };
        let err = fixture
            .workspace
            .directory_tree(".", &bad)
            .expect_err("a bad glob");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref pattern, .. } if pattern == "src/["),
            "{err:?}"
        );
    }

    #[test]
    fn out_of_range_options_are_cut_to_their_limits() {
        let fixture = Fixture::new();
        let zero = TreeOptions {
            max_depth: 0,
            max_entries: 0,
            ..TreeOptions::default()
        };
        let cut = tree(&fixture, ".", &zero);
        assert_eq!(shape(&cut), ["1 .gitignore"]);
        assert!(cut.truncated);
        let huge = TreeOptions {
            max_depth: u32::MAX,
            max_entries: usize::MAX,
            max_visited: usize::MAX,
            ..TreeOptions::default()
        };
        fixture.write("a/b/c/d/e/f/g/h/i/j/k/l.txt", "deep");
        let deep = tree(&fixture, "a", &huge);
        assert_eq!(
            deep.entries.last().map(|entry| entry.depth),
            Some(MAX_TREE_DEPTH),
            "cut to {MAX_TREE_DEPTH} levels"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_are_shown_as_links_and_never_followed() {
        let fixture = Fixture::new();
        std::os::unix::fs::symlink("src", fixture.host_path("src-alias")).expect("a link");
        std::os::unix::fs::symlink(&fixture.outside, fixture.host_path("out")).expect("a link");
        let everything = TreeOptions {
            include_ignored: true,
            ..TreeOptions::default()
        };
        let shown = tree(&fixture, ".", &everything);
        let links: Vec<(&str, EntryKind)> = shown
            .entries
            .iter()
            .filter(|entry| entry.kind == EntryKind::Symlink)
            .map(|entry| (entry.path.as_str(), entry.kind))
            .collect();
        assert_eq!(
            links,
            [
                ("out", EntryKind::Symlink),
                ("src-alias", EntryKind::Symlink)
            ]
        );
        assert!(
            !shown
                .entries
                .iter()
                .any(|entry| entry.path.starts_with("src-alias/") || entry.path.starts_with("out/")),
            "{shown:?}"
        );
        let through = tree(&fixture, "src-alias", &TreeOptions::default());
        assert_eq!(
            shape(&through),
            [
                "1 src-alias/main.rs",
                "1 src-alias/nested",
                "2 src-alias/nested/lib.rs"
            ],
            "a link inside, named as the path, is followed"
        );
    }

    #[test]
    fn trees_serialize_with_snake_case_kinds_and_no_size_for_directories() {
        let fixture = Fixture::new();
        let options = TreeOptions {
            max_depth: 1,
            ..TreeOptions::default()
        };
        let json = serde_json::to_value(tree(&fixture, "src", &options)).expect("json");
        assert_eq!(
            json,
            serde_json::json!({
                "path": "src",
                "entries": [
                    {"name": "main.rs", "path": "src/main.rs", "kind": "file", "size": 34, "depth": 1},
                    {"name": "nested", "path": "src/nested", "kind": "directory", "depth": 1},
                ],
                "truncated": false,
            })
        );
    }
}
