//! Listing a directory, optionally several levels deep and filtered by a glob.

use cap_std::fs::Dir;
use serde::{Deserialize, Serialize};

use crate::contract::ListDirectoryArgs;
use crate::workspace::atomic::is_temp_name;
use crate::workspace::entry::entry_kind;
use crate::workspace::globs::PathGlobs;
use crate::workspace::path::WorkspacePath;
use crate::workspace::sandbox::io_error;
use crate::workspace::walking::MAX_VISITED_ENTRIES;
use crate::workspace::{EntryKind, Workspace, WorkspaceError};

/// How many levels [`Workspace::list_directory`] descends unless told otherwise:
/// `list_directory`'s default `depth` (the directory's own entries only).
pub const DEFAULT_LIST_DEPTH: u32 = ListDirectoryArgs::DEFAULT_DEPTH as u32;

/// The most levels [`Workspace::list_directory`] descends, `list_directory`'s largest `depth`;
/// a deeper request is cut to this.
pub const MAX_LIST_DEPTH: u32 = ListDirectoryArgs::MAX_DEPTH as u32;

/// The most entries one listing returns; a larger request is cut to this.
pub const MAX_LIST_ENTRIES: usize = 1000;

/// How [`Workspace::list_directory`] lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListOptions {
    /// How many levels to descend: 1 lists the directory's own entries, 2 adds its
    /// subdirectories' entries, and so on. Cut to 1..=[`MAX_LIST_DEPTH`].
    pub depth: u32,
    /// Keeps only the entries this glob matches: a glob without `/` matches an entry's name at
    /// any depth (`*.rs`), one with `/` its workspace-relative path (`src/**/*.rs`), and `*`
    /// never crosses a `/`. Directories left out are still descended into.
    pub glob: Option<String>,
    /// The most entries to return; past it the listing stops and says it was truncated. Cut to
    /// 1..=[`MAX_LIST_ENTRIES`].
    pub max_entries: usize,
    /// The most entries to look at, returned or not (a glob may keep few of many); past it the
    /// listing stops and says it was truncated. Cut to 1..=[`MAX_VISITED_ENTRIES`].
    pub max_visited: usize,
}

impl Default for ListOptions {
    fn default() -> Self {
        ListOptions {
            depth: DEFAULT_LIST_DEPTH,
            glob: None,
            max_entries: MAX_LIST_ENTRIES,
            max_visited: MAX_VISITED_ENTRIES,
        }
    }
}

/// One entry of a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The entry's own name. A name that is not UTF-8 is converted lossily, and such an entry
    /// cannot be opened by its reported name.
    pub name: String,
    /// The entry's path relative to the workspace root, with `/` separators.
    pub path: String,
    /// What the entry is; a symbolic link is reported as one, whatever it points at.
    pub kind: EntryKind,
    /// The size in bytes; present for regular files only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// The result of [`Workspace::list_directory`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The entries in tree order: sorted by name within each directory, and each directory
    /// followed by its own entries when listing deeper. For depth 1 this is plain name order.
    pub entries: Vec<Entry>,
    /// True when the listing stopped early: more entries matched than were returned, or it
    /// looked at as many entries as it may.
    pub truncated: bool,
    /// When truncated, which limit stopped the listing and how to ask for less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Workspace {
    /// Lists the directory at `path` (workspace-relative; `""` or `"."` is the root).
    ///
    /// The named directory may be reached through a symbolic link that stays inside the root,
    /// but the listing never descends into a symbolic link it finds: such an entry is reported
    /// as [`EntryKind::Symlink`] and left alone. A subdirectory that cannot be read is listed
    /// but not descended into. Hidden and ignored entries are listed like any other, except
    /// the temporary files of unfinished writes, which are never listed.
    ///
    /// At most `options.max_entries` entries are returned and `options.max_visited` looked at;
    /// a listing that stops at either says so with `truncated` and a hint.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for a path that may not
    /// be used, [`WorkspaceError::NotFound`] or [`WorkspaceError::NotADirectory`] when it names
    /// no directory, [`WorkspaceError::InvalidPattern`] for a bad glob, and
    /// [`WorkspaceError::Io`] when the directory cannot be read.
    pub fn list_directory(
        &self,
        path: &str,
        options: &ListOptions,
    ) -> Result<Listing, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let glob = options
            .glob
            .as_deref()
            .map(|glob| PathGlobs::new([glob]))
            .transpose()?;
        self.directory_metadata(&target)?;
        let dir = self
            .dir()
            .open_dir(target.to_relative_path())
            .map_err(|err| io_error(&target, &err))?;

        let mut collector = Collector {
            glob,
            max_depth: options.depth.clamp(1, MAX_LIST_DEPTH),
            max_entries: options.max_entries.clamp(1, MAX_LIST_ENTRIES),
            max_visited: options.max_visited.clamp(1, MAX_VISITED_ENTRIES),
            visited: 0,
            entries: Vec::new(),
            stopped: None,
        };
        // The named directory must be readable; below it, an unreadable subdirectory is skipped.
        let children =
            sorted_children(&dir, collector.room()).map_err(|err| io_error(&target, &err))?;
        collector.visit(children, &target, 1);
        let hint = collector.stopped.map(|limit| match limit {
            Limit::Entries(count) => format!(
                "The listing stopped at {count} entries; ask for less with a smaller depth, a \
                 glob, or a subdirectory as path."
            ),
            Limit::Visited(count) => format!(
                "The listing stopped after looking at {count} entries; ask for less with a \
                 smaller depth or a subdirectory as path."
            ),
        });
        Ok(Listing {
            entries: collector.entries,
            truncated: hint.is_some(),
            hint,
        })
    }
}

/// A directory's entries, sorted by name; at most `most` of them, so that one enormous directory
/// costs no more than the listing may look at. (When there are more, the listing stops at the
/// visit limit among these, and says it was truncated.)
fn sorted_children(dir: &Dir, most: usize) -> std::io::Result<Vec<cap_std::fs::DirEntry>> {
    let mut children = Vec::new();
    for child in dir.entries()? {
        if children.len() == most {
            break;
        }
        match child {
            Ok(child) => children.push(child),
            // An entry removed while being read, for instance; the rest are still worth listing.
            Err(err) => tracing::debug!(error = %err, "list: skipping an unreadable entry"),
        }
    }
    // Sorting by the raw name (bytes on Unix) gives one order on every run and machine.
    children.sort_by_cached_key(cap_std::fs::DirEntry::file_name);
    Ok(children)
}

/// Which limit stopped a listing early, with its value.
#[derive(Debug, Clone, Copy)]
enum Limit {
    /// As many entries matched as may be returned, and one more.
    Entries(usize),
    /// As many entries were looked at as may be.
    Visited(usize),
}

/// Walks a directory tree depth first, collecting the entries that pass the glob.
struct Collector {
    /// The filter on entries; `None` keeps them all.
    glob: Option<PathGlobs>,
    /// The deepest level to collect, counting the listed directory's own entries as 1.
    max_depth: u32,
    /// The most entries to collect.
    max_entries: usize,
    /// The most entries to look at.
    max_visited: usize,
    /// How many entries have been looked at.
    visited: usize,
    /// The entries collected so far, in tree order.
    entries: Vec<Entry>,
    /// The limit that stopped the walk, once one has.
    stopped: Option<Limit>,
}

impl Collector {
    /// How many entries of one directory are worth reading: one more than may still be looked
    /// at, so that running out shows.
    fn room(&self) -> usize {
        self.max_visited
            .saturating_sub(self.visited)
            .saturating_add(1)
    }

    /// Collects `children`, the sorted entries of the directory at `parent`, which is `level`
    /// levels below the listed directory (its own entries are level 1). Returns early, with
    /// `stopped` set, once one entry more than the cap has matched or been looked at.
    fn visit(&mut self, children: Vec<cap_std::fs::DirEntry>, parent: &WorkspacePath, level: u32) {
        for child in children {
            if self.stopped.is_some() {
                return;
            }
            // Every entry read counts, the skipped ones too, so that a directory read only in
            // part (see `room`) always ends the walk at this limit.
            if self.visited == self.max_visited {
                self.stopped = Some(Limit::Visited(self.max_visited));
                return;
            }
            self.visited += 1;
            let name = child.file_name().to_string_lossy().into_owned();
            if is_temp_name(&name) {
                continue;
            }
            let path = parent.join(&name);
            // The kind comes from the directory entry itself, so a symbolic link is never
            // followed to learn it.
            let kind = match child.file_type() {
                Ok(file_type) => entry_kind(file_type),
                Err(err) => {
                    let path = path.as_str();
                    tracing::debug!(path, error = %err, "list: skipping an entry of unknown kind");
                    continue;
                }
            };
            if self
                .glob
                .as_ref()
                .is_none_or(|glob| glob.matches(path.as_str(), &name))
            {
                if self.entries.len() == self.max_entries {
                    self.stopped = Some(Limit::Entries(self.max_entries));
                    return;
                }
                let size = match kind {
                    // `DirEntry::metadata` does not follow symbolic links; a file that vanished
                    // since the directory was read is still listed, just without a size.
                    EntryKind::File => child.metadata().ok().map(|metadata| metadata.len()),
                    _ => None,
                };
                self.entries.push(Entry {
                    name,
                    path: path.as_str().to_owned(),
                    kind,
                    size,
                });
            }
            if kind == EntryKind::Directory && level < self.max_depth {
                // Opening through the entry keeps the walk inside the directory just read: if the
                // entry was swapped for a symbolic link since, cap-std refuses to leave.
                let room = self.room();
                match child.open_dir().and_then(|dir| sorted_children(&dir, room)) {
                    Ok(grandchildren) => self.visit(grandchildren, &path, level + 1),
                    Err(err) => {
                        let path = path.as_str();
                        tracing::debug!(path, error = %err, "list: cannot descend into it");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::Fixture;

    fn list(fixture: &Fixture, path: &str, options: &ListOptions) -> Listing {
        match fixture.workspace.list_directory(path, options) {
            Ok(listing) => listing,
            Err(err) => panic!("listing `{path}` failed: {err}"),
        }
    }

    fn paths(listing: &Listing) -> Vec<&str> {
        listing
            .entries
            .iter()
            .map(|entry| entry.path.as_str())
            .collect()
    }

    #[test]
    fn the_root_lists_its_own_entries_sorted_with_kinds_and_sizes() {
        let fixture = Fixture::new();
        let listing = list(&fixture, ".", &ListOptions::default());
        assert_eq!(
            paths(&listing),
            [".gitignore", "README.md", "empty", "ignored.log", "src"]
        );
        assert!(!listing.truncated);
        let readme = &listing.entries[1];
        assert_eq!(
            readme,
            &Entry {
                name: "README.md".into(),
                path: "README.md".into(),
                kind: EntryKind::File,
                size: Some(34),
            }
        );
        let src = &listing.entries[4];
        assert_eq!((src.kind, src.size), (EntryKind::Directory, None));
        let empty = &listing.entries[2];
        assert_eq!((empty.kind, empty.size), (EntryKind::File, Some(0)));
    }

    #[test]
    fn a_subdirectory_lists_paths_relative_to_the_root() {
        let fixture = Fixture::new();
        let listing = list(&fixture, "src/", &ListOptions::default());
        assert_eq!(paths(&listing), ["src/main.rs", "src/nested"]);
        assert_eq!(listing.entries[0].name, "main.rs");
        assert_eq!(listing.entries[0].size, Some(34));
    }

    #[test]
    fn depth_descends_in_tree_order() {
        let fixture = Fixture::new();
        let options = ListOptions {
            depth: 3,
            ..ListOptions::default()
        };
        let listing = list(&fixture, "", &options);
        assert_eq!(
            paths(&listing),
            [
                ".gitignore",
                "README.md",
                "empty",
                "ignored.log",
                "src",
                "src/main.rs",
                "src/nested",
                "src/nested/lib.rs",
            ]
        );
        let two = list(
            &fixture,
            "",
            &ListOptions {
                depth: 2,
                ..ListOptions::default()
            },
        );
        assert!(paths(&two).contains(&"src/nested"));
        assert!(
            !paths(&two).contains(&"src/nested/lib.rs"),
            "depth 2 stops above lib.rs"
        );
    }

    #[test]
    fn a_glob_filters_entries_but_not_descent() {
        let fixture = Fixture::new();
        let by_path = ListOptions {
            depth: 3,
            glob: Some("**/*.rs".into()),
            ..ListOptions::default()
        };
        assert_eq!(
            paths(&list(&fixture, "src", &by_path)),
            ["src/main.rs", "src/nested/lib.rs"]
        );
        let by_name = ListOptions {
            depth: 10,
            glob: Some("lib.*".into()),
            ..ListOptions::default()
        };
        assert_eq!(paths(&list(&fixture, ".", &by_name)), ["src/nested/lib.rs"]);
        let one_level = ListOptions {
            depth: 10,
            glob: Some("src/*".into()),
            ..ListOptions::default()
        };
        assert_eq!(
            paths(&list(&fixture, ".", &one_level)),
            ["src/main.rs", "src/nested"]
        );
    }

    #[test]
    fn a_bad_glob_is_refused() {
        let fixture = Fixture::new();
        let options = ListOptions {
            glob: Some("[".into()),
            ..ListOptions::default()
        };
        let err = fixture
            .workspace
            .list_directory(".", &options)
            .expect_err("an invalid glob");
        assert!(
            matches!(err, WorkspaceError::InvalidPattern { ref pattern, .. } if pattern == "["),
            "{err:?}"
        );
    }

    #[test]
    fn the_cap_truncates_and_says_so() {
        let fixture = Fixture::new();
        let capped = ListOptions {
            depth: 3,
            max_entries: 3,
            ..ListOptions::default()
        };
        let listing = list(&fixture, ".", &capped);
        assert_eq!(paths(&listing), [".gitignore", "README.md", "empty"]);
        assert!(listing.truncated);
        // Exactly as many entries as the cap is not a truncation.
        let exact = ListOptions {
            depth: 3,
            max_entries: 8,
            ..ListOptions::default()
        };
        let listing = list(&fixture, ".", &exact);
        assert_eq!(listing.entries.len(), 8);
        assert!(!listing.truncated);
    }

    #[test]
    fn the_cap_says_how_to_ask_for_less() {
        let fixture = Fixture::new();
        let capped = ListOptions {
            depth: 3,
            max_entries: 3,
            ..ListOptions::default()
        };
        let hint = list(&fixture, ".", &capped).hint.expect("a hint");
        assert!(hint.contains("stopped at 3 entries"), "{hint}");
        assert!(
            hint.contains("smaller depth") && hint.contains("subdirectory"),
            "{hint}"
        );
        assert_eq!(list(&fixture, ".", &ListOptions::default()).hint, None);
    }

    #[test]
    fn a_sparse_glob_stops_after_looking_at_as_many_entries_as_it_may() {
        // lib.rs is the eighth entry of the walk; everything before it is looked at and dropped.
        let fixture = Fixture::new();
        let sparse = |max_visited| ListOptions {
            depth: 10,
            glob: Some("lib.*".into()),
            max_visited,
            ..ListOptions::default()
        };
        let stopped = list(&fixture, ".", &sparse(7));
        assert_eq!(paths(&stopped), Vec::<&str>::new());
        assert!(stopped.truncated);
        let hint = stopped.hint.expect("a hint");
        assert!(hint.contains("after looking at 7 entries"), "{hint}");
        let enough = list(&fixture, ".", &sparse(8));
        assert_eq!(paths(&enough), ["src/nested/lib.rs"]);
        assert!(!enough.truncated, "exactly the limit is not a truncation");
    }

    #[test]
    fn one_enormous_directory_is_read_only_as_far_as_the_limit() {
        let fixture = Fixture::new();
        for index in 0..50 {
            fixture.write(&format!("many/{index:02}"), "");
        }
        let options = ListOptions {
            max_visited: 10,
            ..ListOptions::default()
        };
        let listing = list(&fixture, "many", &options);
        assert_eq!(listing.entries.len(), 10);
        assert!(listing.truncated);
        let sorted = {
            let mut sorted = paths(&listing);
            sorted.sort_unstable();
            sorted
        };
        assert_eq!(paths(&listing), sorted, "what is read is still sorted");
    }

    #[test]
    fn temporary_files_of_unfinished_writes_are_never_listed() {
        let fixture = Fixture::new();
        fixture.write(".mcp-workspace-123-4.tmp", "half a write");
        fixture.write("src/nested/.mcp-workspace-9-0.tmp", "");
        fixture.write(".mcp-workspace-notes.tmp", "a file of the user's");
        let options = ListOptions {
            depth: 3,
            ..ListOptions::default()
        };
        let listed = paths(&list(&fixture, ".", &options)).join(" ");
        assert!(!listed.contains("-123-4.tmp"), "{listed}");
        assert!(!listed.contains("-9-0.tmp"), "{listed}");
        assert!(listed.contains(".mcp-workspace-notes.tmp"), "{listed}");
    }

    #[test]
    fn out_of_range_options_are_cut_to_their_limits() {
        let fixture = Fixture::new();
        let zero = ListOptions {
            depth: 0,
            max_entries: 0,
            ..ListOptions::default()
        };
        let listing = list(&fixture, ".", &zero);
        assert_eq!(
            paths(&listing),
            [".gitignore"],
            "depth 0 acts as 1, a cap of 0 as 1"
        );
        assert!(listing.hint.is_some());
        let look_at_none = ListOptions {
            max_visited: 0,
            ..ListOptions::default()
        };
        let listing = list(&fixture, ".", &look_at_none);
        assert_eq!(listing.entries.len(), 1, "a limit of 0 acts as 1");
        assert!(listing.truncated);
        assert!(listing.truncated);
        let huge = ListOptions {
            depth: u32::MAX,
            max_entries: usize::MAX,
            max_visited: usize::MAX,
            ..ListOptions::default()
        };
        assert_eq!(list(&fixture, ".", &huge).entries.len(), 8);
    }

    #[test]
    fn a_file_or_a_missing_path_is_not_a_directory() {
        let fixture = Fixture::new();
        let options = ListOptions::default();
        let err = fixture
            .workspace
            .list_directory("README.md", &options)
            .expect_err("a file");
        assert_eq!(
            err,
            WorkspaceError::NotADirectory {
                path: "README.md".into()
            }
        );
        let err = fixture
            .workspace
            .list_directory("nope", &options)
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "nope".into()
            }
        );
        let err = fixture
            .workspace
            .list_directory("README.md/x", &options)
            .expect_err("under a file");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "README.md/x".into()
            }
        );
    }

    #[test]
    fn listings_serialize_with_snake_case_kinds_and_no_size_for_directories() {
        let fixture = Fixture::new();
        let listing = list(&fixture, "src", &ListOptions::default());
        let json = serde_json::to_value(&listing).expect("serializable");
        assert_eq!(
            json,
            serde_json::json!({
                "entries": [
                    {"name": "main.rs", "path": "src/main.rs", "kind": "file", "size": 34},
                    {"name": "nested", "path": "src/nested", "kind": "directory"},
                ],
                "truncated": false,
            })
        );
    }
}
