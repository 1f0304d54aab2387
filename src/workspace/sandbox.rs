//! The sandbox: a [`Workspace`] holds a capability for its root directory, and every file
//! operation goes through it.
//!
//! `cap_std::fs::Dir` resolves each path beneath the directory it was opened on and refuses any
//! path that would leave it: `..` past the root, absolute paths, and symbolic links whose target
//! lies outside (on Linux the kernel enforces this with `openat2(RESOLVE_BENEATH)`). So escaping
//! the root is impossible by construction, not by string checks; [`WorkspacePath::parse`] only
//! adds early, well-explained refusals on top.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, Metadata, OpenOptions};

use crate::workspace::WorkspaceError;
use crate::workspace::entry::entry_kind;
use crate::workspace::locks::{PathGuard, PathLocks};
use crate::workspace::path::WorkspacePath;

/// A directory tree that can be listed, read, searched and written, and nothing outside it.
///
/// Cloning is cheap and clones share the open root, so a clone can be moved into a blocking
/// task. Every operation is synchronous and does blocking file I/O.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The capability for the root: the only way the operations reach the filesystem, except the
    /// search walker's directory reads (see `walk_root`).
    dir: Arc<Dir>,
    /// The root's canonical host path, known only to the search walker, whose ripgrep library
    /// enumerates directories by host path. The walker only learns names from it: every file it
    /// finds is opened through `dir`. Never put into a result or an error message.
    walk_root: Arc<PathBuf>,
    /// The paths being written right now, shared by every clone, so that a write's version
    /// check and its rename are never interleaved with another write to the same path.
    locks: Arc<PathLocks>,
}

impl Workspace {
    /// Opens the directory `root` as a workspace.
    ///
    /// This is the one place that uses ambient authority (the process's right to open any path);
    /// everything after goes through the opened directory.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::RootUnavailable`] when `root` is missing, not a directory, or cannot be
    /// opened.
    pub fn open(root: &Path) -> Result<Workspace, WorkspaceError> {
        let unavailable = |err: io::Error| WorkspaceError::RootUnavailable {
            reason: err.to_string(),
        };
        let dir = Dir::open_ambient_dir(root, ambient_authority()).map_err(unavailable)?;
        // Canonical, so the walker's paths do not depend on the working directory or on a
        // symbolic link in `root` being changed later.
        let walk_root = std::fs::canonicalize(root).map_err(unavailable)?;
        Ok(Workspace {
            dir: Arc::new(dir),
            walk_root: Arc::new(walk_root),
            locks: Arc::default(),
        })
    }

    /// The capability for the root.
    pub(crate) fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Holds `paths` against every other write until the guard drops, each locked by the
    /// file it names: the same file reached through a linked directory is the same lock.
    pub(crate) fn lock(&self, paths: &[&WorkspacePath]) -> PathGuard<'_> {
        self.locks
            .lock(paths.iter().map(|path| self.identity(path)).collect())
    }

    /// `path` with every link inside the root resolved, as far as it exists: the longest
    /// existing prefix canonicalized by the sandbox, then the rest as written. A path the
    /// sandbox refuses keeps its spelling; the operation refuses it later, under the lock.
    fn identity(&self, path: &WorkspacePath) -> String {
        let written = Path::new(path.as_str());
        let resolved = written.ancestors().find_map(|prefix| {
            let canonical = if prefix.as_os_str().is_empty() {
                PathBuf::new()
            } else {
                self.dir.canonicalize(prefix).ok()?
            };
            let rest = written.strip_prefix(prefix).ok()?;
            Some(canonical.join(rest))
        });
        match resolved.as_deref().and_then(Path::to_str) {
            Some("") => ".".to_owned(),
            Some(key) => key.to_owned(),
            None => path.as_str().to_owned(),
        }
    }

    /// The root's host path, for the search walker only.
    pub(crate) fn walk_root(&self) -> &Path {
        &self.walk_root
    }

    /// The metadata of what `path` names, following symbolic links that stay inside the root.
    pub(crate) fn metadata(&self, path: &WorkspacePath) -> Result<Metadata, WorkspaceError> {
        self.dir
            .metadata(path.to_relative_path())
            .map_err(|err| io_error(path, &err))
    }

    /// Opens the regular file `path` names for reading. What was opened is what is checked, so
    /// a file swapped for something else after a caller looked at it is still refused; and it
    /// is opened without blocking, since opening a named pipe would wait for a writer.
    pub(crate) fn open_file(&self, path: &WorkspacePath) -> Result<File, WorkspaceError> {
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt as _;
            // Reads of a regular file never block, so the flag changes nothing once it is open.
            options.custom_flags(libc::O_NONBLOCK);
        }
        let file = self
            .dir
            .open_with(path.to_relative_path(), &options)
            .map_err(|err| io_error(path, &err))?;
        let metadata = file.metadata().map_err(|err| io_error(path, &err))?;
        if metadata.is_file() {
            Ok(file)
        } else {
            Err(WorkspaceError::NotAFile {
                path: path.as_str().to_owned(),
                kind: entry_kind(metadata.file_type()),
            })
        }
    }

    /// The metadata of what `path` names, which must be a directory.
    pub(crate) fn directory_metadata(
        &self,
        path: &WorkspacePath,
    ) -> Result<Metadata, WorkspaceError> {
        let metadata = self.metadata(path)?;
        if metadata.is_dir() {
            Ok(metadata)
        } else {
            Err(WorkspaceError::NotADirectory {
                path: path.as_str().to_owned(),
            })
        }
    }
}

/// Translates a failed filesystem access to `path` into the error the caller should see.
pub(crate) fn io_error(path: &WorkspacePath, err: &io::Error) -> WorkspaceError {
    let path = path.as_str().to_owned();
    if is_escape_attempt(err) {
        return WorkspaceError::OutsideRoot { path };
    }
    if is_symlink_loop(err) {
        return WorkspaceError::invalid_path(
            &path,
            "it leads through a loop of symbolic links (or a chain too long to follow)",
        );
    }
    match err.kind() {
        // `a/b` where `a` is a file: nothing exists at `a/b`, which is what the caller needs.
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => WorkspaceError::NotFound { path },
        // An operating system error's text names no path, so it is safe to pass on; the
        // non-OS errors cap-std makes are fixed sentences, also without paths.
        _ => WorkspaceError::Io {
            path,
            message: err.to_string(),
        },
    }
}

/// Whether cap-std refused `err`'s access for leaving the root.
///
/// cap-std reports an escape as `PermissionDenied` without an OS error code (it builds the error
/// itself, and turns the kernel's `EXDEV` from `RESOLVE_BENEATH` into the same), while a real
/// permission failure always carries the OS code `EACCES` or `EPERM`.
fn is_escape_attempt(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::PermissionDenied && err.raw_os_error().is_none()
}

/// Whether `err` is `ELOOP`: too many symbolic links, as a loop gives.
///
/// `io::ErrorKind::FilesystemLoop` is not stable, so the code is compared; its value differs
/// between the Linux and BSD families.
fn is_symlink_loop(err: &io::Error) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const ELOOP: Option<i32> = Some(40);
    #[cfg(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ))]
    const ELOOP: Option<i32> = Some(62);
    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )))]
    const ELOOP: Option<i32> = None;
    ELOOP.is_some() && err.raw_os_error() == ELOOP
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::{Fixture, SECRET};
    use crate::workspace::{
        EntryKind, FindOptions, ListOptions, MAX_LIST_DEPTH, MAX_TREE_DEPTH, SearchOptions,
        TreeOptions,
    };

    #[cfg(unix)]
    #[test]
    fn opening_a_named_pipe_neither_blocks_nor_succeeds() {
        // A file swapped for a pipe after it was looked at: opening the pipe for reading would
        // wait for a writer that never comes, holding a blocking thread for good.
        let fixture = Fixture::new();
        let made = std::process::Command::new("mkfifo")
            .arg(fixture.host_path("pipe"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let workspace = fixture.workspace.clone();
        let (sent, received) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let path = WorkspacePath::parse("pipe").expect("a path");
            let _ = sent.send(workspace.open_file(&path).map(|_| ()));
        });
        let opened = received
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("an answer, not a wait for a writer");
        assert_eq!(
            opened,
            Err(WorkspaceError::NotAFile {
                path: "pipe".into(),
                kind: EntryKind::Other
            })
        );
    }

    /// Every operation that takes a path, run on `path`, each outcome rendered in full: a result
    /// by its `Debug` form, an error by its message and its `Debug` form.
    fn every_operation(
        workspace: &Workspace,
        path: &str,
    ) -> Vec<(&'static str, Result<String, WorkspaceError>)> {
        let deep = ListOptions {
            depth: MAX_LIST_DEPTH,
            ..ListOptions::default()
        };
        let search = SearchOptions {
            path: path.to_owned(),
            ..SearchOptions::default()
        };
        let tree = TreeOptions {
            max_depth: MAX_TREE_DEPTH,
            include_ignored: true,
            ..TreeOptions::default()
        };
        let find = FindOptions {
            path: path.to_owned(),
            include_ignored: true,
            ..FindOptions::default()
        };
        // read_files answers each path with its own result; its one result stands for the call.
        let read_files = workspace
            .read_files(&[path.to_owned()])
            .pop()
            .unwrap_or_else(|| panic!("read_files gave no result for `{path}`"));
        vec![
            (
                "list_directory",
                workspace
                    .list_directory(path, &deep)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "read_file",
                workspace
                    .read_file(path, None, None)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "read_file range",
                workspace
                    .read_file(path, Some(1), Some(1))
                    .map(|r| format!("{r:?}")),
            ),
            (
                "search_text",
                workspace
                    .search_text(SECRET, &search)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "file_info",
                workspace.file_info(path).map(|r| format!("{r:?}")),
            ),
            ("read_files", read_files.map(|r| format!("{r:?}"))),
            (
                "directory_tree",
                workspace
                    .directory_tree(path, &tree)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "find_files",
                workspace.find_files("*", &find).map(|r| format!("{r:?}")),
            ),
        ]
    }

    /// Asserts that every operation refuses `path` with an error `expected` accepts, and that no
    /// error holds the secret or, unless the caller passed it, a host path of the fixture.
    fn assert_refused_everywhere(
        fixture: &Fixture,
        path: &str,
        expected: fn(&WorkspaceError) -> bool,
    ) {
        for (operation, outcome) in every_operation(&fixture.workspace, path) {
            let err = match outcome {
                Ok(found) => panic!("{operation} `{path}` succeeded: {found}"),
                Err(err) => err,
            };
            assert!(expected(&err), "{operation} `{path}` gave {err:?}");
            fixture.assert_no_leak(operation, path, &err);
        }
    }

    fn invalid_path(err: &WorkspaceError) -> bool {
        matches!(err, WorkspaceError::InvalidPath { .. })
    }

    fn outside_root(err: &WorkspaceError) -> bool {
        matches!(err, WorkspaceError::OutsideRoot { .. })
    }

    #[test]
    fn climbing_absolute_nul_and_overlong_paths_are_refused_by_every_operation() {
        let fixture = Fixture::new();
        let secret_on_host = fixture.outside.join("secret.txt");
        let overlong_path = vec!["d"; 3000].join("/");
        let overlong_name = "n".repeat(256);
        for path in [
            "..",
            "../outside/secret.txt",
            "src/../../outside/secret.txt",
            "/etc/passwd",
            &secret_on_host.to_string_lossy(),
            "/",
            "src/\0/x",
            &overlong_path,
            &overlong_name,
        ] {
            assert_refused_everywhere(&fixture, path, invalid_path);
        }
    }

    #[test]
    fn a_workspace_can_be_shared_across_threads() {
        fn shareable<T: Clone + Send + Sync + 'static>() {}
        shareable::<Workspace>();
        let fixture = Fixture::new();
        let clone = fixture.workspace.clone();
        let listed =
            std::thread::spawn(move || clone.list_directory("src", &ListOptions::default()))
                .join()
                .expect("the thread finished");
        assert!(listed.is_ok_and(|listing| listing.entries.len() == 2));
    }

    #[test]
    fn a_missing_root_cannot_be_opened() {
        let fixture = Fixture::new();
        let err = Workspace::open(&fixture.root.join("missing")).expect_err("no such directory");
        assert!(
            matches!(err, WorkspaceError::RootUnavailable { .. }),
            "{err:?}"
        );
        let err = Workspace::open(&fixture.root.join("README.md")).expect_err("a file");
        assert!(
            matches!(err, WorkspaceError::RootUnavailable { .. }),
            "{err:?}"
        );
    }

    #[test]
    fn the_root_spelled_any_way_is_the_same_directory() {
        let fixture = Fixture::new();
        let options = ListOptions::default();
        let plain = fixture
            .workspace
            .list_directory(".", &options)
            .expect("listed");
        let empty = fixture
            .workspace
            .list_directory("", &options)
            .expect("listed");
        let slashed = fixture
            .workspace
            .list_directory("./", &options)
            .expect("listed");
        assert_eq!(plain, empty);
        assert_eq!(plain, slashed);
    }

    #[test]
    fn the_walker_contributes_names_only_so_a_swapped_root_leaks_nothing() {
        // After the workspace is opened, its root is renamed and another directory, holding the
        // secret, put in its place. The search walker, which goes by host path, now walks the
        // impostor; but every file is opened through the capability for the original root.
        let fixture = Fixture::new();
        let moved = fixture.outside.with_file_name("ws-moved");
        std::fs::rename(&fixture.root, &moved).expect("renamed");
        std::fs::create_dir(&fixture.root).expect("impostor created");
        std::fs::write(fixture.root.join("planted.txt"), SECRET).expect("written");
        std::fs::write(fixture.root.join("README.md"), SECRET).expect("written");

        let results = fixture
            .workspace
            .search_text(SECRET, &SearchOptions::default())
            .expect("searched");
        assert_eq!(results.matches, []);
        assert_eq!(
            results.files_searched, 1,
            "only README.md exists in both, and the original is read"
        );
        assert!(!format!("{results:?}").contains(SECRET));
        let readme = fixture
            .workspace
            .read_file("README.md", None, None)
            .expect("read");
        assert_eq!(
            readme.content, "# Demo\nfn main is documented here\n",
            "the original root"
        );

        // The tree and the find name only what exists in the original root too.
        let everything = TreeOptions {
            include_ignored: true,
            ..TreeOptions::default()
        };
        let tree = fixture
            .workspace
            .directory_tree(".", &everything)
            .expect("a tree");
        let paths: Vec<&str> = tree.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["README.md"], "{tree:?}");
        assert_eq!(tree.entries[0].size, Some(34), "the original's size");
        let all = FindOptions {
            include_ignored: true,
            ..FindOptions::default()
        };
        let found = fixture.workspace.find_files("*", &all).expect("found");
        let paths: Vec<&str> = found.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["README.md"], "{found:?}");
    }

    #[cfg(unix)]
    mod links {
        use super::*;
        use std::os::unix::fs::symlink;

        /// The fixture plus links that leave the root, loop, or stay inside it.
        fn linked() -> Fixture {
            let fixture = Fixture::new();
            let link = |target: &Path, name: &str| {
                symlink(target, fixture.host_path(name)).expect("a symbolic link");
            };
            link(&fixture.outside.join("secret.txt"), "to-secret");
            link(Path::new("../outside/secret.txt"), "to-secret-relative");
            link(&fixture.outside, "to-outside");
            link(Path::new("../outside"), "to-outside-relative");
            link(Path::new("../../outside"), "src/to-outside-from-below");
            link(&fixture.host_path("README.md"), "absolute-alias");
            link(Path::new("loop"), "loop");
            link(Path::new("loop-b"), "loop-a");
            link(Path::new("loop-a"), "loop-b");
            link(Path::new("README.md"), "alias.md");
            link(Path::new("../README.md"), "src/up.md");
            link(Path::new("src"), "src-alias");
            fixture
        }

        #[test]
        fn links_to_a_file_or_directory_outside_are_refused_by_every_operation() {
            let fixture = linked();
            for path in [
                "to-secret",
                "to-secret-relative",
                "to-outside",
                "to-outside/",
                "to-outside/secret.txt",
                "to-outside-relative",
                "to-outside-relative/secret.txt",
                "src/to-outside-from-below",
                "src/to-outside-from-below/secret.txt",
            ] {
                assert_refused_everywhere(&fixture, path, outside_root);
            }
        }

        #[test]
        fn an_absolute_link_is_refused_even_when_it_points_inside() {
            // Its meaning depends on where the root sits on the host, which the sandbox does not
            // know; cap-std refuses every absolute link.
            let fixture = linked();
            assert_refused_everywhere(&fixture, "absolute-alias", outside_root);
        }

        #[test]
        fn a_loop_of_links_is_refused_by_every_operation() {
            let fixture = linked();
            for path in ["loop", "loop-a", "loop-b/x"] {
                assert_refused_everywhere(&fixture, path, |err| {
                    matches!(err, WorkspaceError::InvalidPath { reason, .. }
                            if reason.contains("loop"))
                });
            }
        }

        #[test]
        fn links_that_stay_inside_are_followed_when_named() {
            let fixture = linked();
            let alias = fixture
                .workspace
                .read_file("alias.md", None, None)
                .expect("read");
            assert_eq!(alias.content, "# Demo\nfn main is documented here\n");
            let up = fixture
                .workspace
                .read_file("src/up.md", Some(2), None)
                .expect("read");
            assert_eq!(up.content, "fn main is documented here\n");
            let listing = fixture
                .workspace
                .list_directory("src-alias", &ListOptions::default())
                .expect("listed");
            let paths: Vec<&str> = listing.entries.iter().map(|e| e.path.as_str()).collect();
            assert!(paths.contains(&"src-alias/main.rs"), "{paths:?}");
        }

        #[test]
        fn walking_the_whole_tree_never_follows_a_link_out() {
            let fixture = linked();
            let deep = ListOptions {
                depth: MAX_LIST_DEPTH,
                ..ListOptions::default()
            };
            let listing = fixture
                .workspace
                .list_directory(".", &deep)
                .expect("listed");
            let rendered = format!("{listing:?}");
            assert!(!rendered.contains("secret.txt"), "{rendered}");
            assert!(!rendered.contains(SECRET));
            for name in ["to-secret", "to-outside", "loop", "alias.md", "src-alias"] {
                let entry = listing.entries.iter().find(|entry| entry.path == name);
                let entry = entry.unwrap_or_else(|| panic!("`{name}` is listed: {rendered}"));
                assert_eq!(
                    (entry.kind, entry.size),
                    (EntryKind::Symlink, None),
                    "{name}"
                );
            }
            assert!(
                !listing
                    .entries
                    .iter()
                    .any(|entry| entry.path.starts_with("src-alias/")),
                "a linked directory is not descended into"
            );

            for regex in [false, true] {
                let options = SearchOptions {
                    regex,
                    case_insensitive: true,
                    ..SearchOptions::default()
                };
                let query = if regex { "top-secret.*" } else { "top-secret" };
                let results = fixture
                    .workspace
                    .search_text(query, &options)
                    .expect("searched");
                assert_eq!(results.matches, [], "regex: {regex}");
            }
            let everything = SearchOptions {
                regex: true,
                max_results: 1000,
                ..SearchOptions::default()
            };
            let results = fixture
                .workspace
                .search_text(".", &everything)
                .expect("searched");
            assert!(!format!("{results:?}").contains(SECRET));
            assert!(
                results
                    .matches
                    .iter()
                    .all(|found| !found.path.contains("alias")),
                "links are not followed by the search: {results:?}"
            );

            let everything = TreeOptions {
                max_depth: MAX_TREE_DEPTH,
                include_ignored: true,
                ..TreeOptions::default()
            };
            let tree = fixture
                .workspace
                .directory_tree(".", &everything)
                .expect("a tree");
            let rendered = format!("{tree:?}");
            assert!(!rendered.contains("secret.txt"), "{rendered}");
            for name in ["to-secret", "to-outside", "loop", "alias.md", "src-alias"] {
                let entry = tree.entries.iter().find(|entry| entry.path == name);
                let entry = entry.unwrap_or_else(|| panic!("`{name}` is shown: {rendered}"));
                assert_eq!(
                    (entry.kind, entry.size),
                    (EntryKind::Symlink, None),
                    "{name}"
                );
            }
            assert!(
                !tree
                    .entries
                    .iter()
                    .any(|e| e.path.starts_with("src-alias/") || e.path.starts_with("to-outside/")),
                "a linked directory is not descended into: {rendered}"
            );
            let all = FindOptions {
                include_ignored: true,
                ..FindOptions::default()
            };
            for pattern in ["*", "**/secret*", "*.txt", "to-outside/*"] {
                let found = fixture.workspace.find_files(pattern, &all).expect("found");
                let rendered = format!("{found:?}");
                assert!(!rendered.contains("secret"), "{pattern}: {rendered}");
                assert!(
                    found.files.iter().all(|f| !f.path.contains("alias")
                        && !f.path.starts_with("to-")
                        && !f.path.starts_with("loop")),
                    "links are neither followed nor found: {rendered}"
                );
            }
        }
    }
}
