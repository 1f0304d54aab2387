//! Walking the tree below a directory with the `ignore` crate's walker, for the operations that
//! look at many entries: searching, the directory tree and finding files.
//!
//! The walker reads directories by host path, since that is what the library takes, so it only
//! contributes names. Every caller checks what the walker names through the sandbox `Dir` before
//! reporting or opening it, so a directory swapped for a symbolic link to somewhere else during
//! the walk yields nothing from beyond it.
//!
//! Ignore rules come from inside the workspace only: from the walked directory and below (read
//! by the walker) and from its ancestors up to the workspace root (read here, through the
//! sandbox). Ignore files above the root and the user's global git configuration never affect
//! results, so they depend on the workspace's contents alone.
//!
//! How much one walk may look at is capped ([`MAX_VISITED_ENTRIES`]); the callers stop there and
//! say their result was truncated, so a call on a huge tree costs bounded work.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{Match, WalkBuilder};

use crate::workspace::Workspace;
use crate::workspace::atomic::is_temp_name;
use crate::workspace::globs::PathGlobs;
use crate::workspace::path::WorkspacePath;

/// The most entries (files, directories and links) that one listing, tree, search or find looks
/// at, whether or not they end up in its result; past it the operation stops and says its
/// result was truncated.
pub const MAX_VISITED_ENTRIES: usize = 50_000;

/// The largest ignore file read from the walked directory's ancestors; a larger one is not an
/// ignore file anyone wrote by hand, and is skipped rather than loaded.
const MAX_IGNORE_FILE_BYTES: u64 = 1024 * 1024;

/// Which entries a walk skips.
pub(crate) struct WalkRules {
    /// Apply `.gitignore`, `.ignore` and `.git/info/exclude` rules, inside the workspace only,
    /// and skip `.git` directories.
    pub(crate) ignore_files: bool,
    /// Skip hidden entries (those whose name starts with `.`), as ripgrep does.
    pub(crate) skip_hidden: bool,
    /// The deepest level to walk, counting the walked directory's own entries as 1; `None`
    /// walks the whole tree.
    pub(crate) max_depth: Option<usize>,
    /// Entries, and whole directories, whose workspace-relative path matches one of these globs
    /// are skipped.
    pub(crate) exclude: Option<PathGlobs>,
}

/// The entries below a walked directory, at most a set number of them: what one listing, tree,
/// search or find looks at. Unreadable entries (a directory without permission, a file removed
/// mid-walk) are skipped, as ripgrep does, but count as looked at.
/// A window on a long walk from another thread: how many entries it has looked at, and a
/// way to stop it early (a client that cancelled its search).
#[derive(Debug, Default)]
pub struct Watch {
    visited: AtomicU64,
    stop: AtomicBool,
}

impl Watch {
    /// The entries looked at so far.
    pub fn visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }

    /// Stops the walk at its next entry; what it found so far is returned, marked truncated.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Watch::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

pub(crate) struct Visits<'w> {
    walk: ignore::Walk,
    watch: &'w Watch,
    left: usize,
    operation: &'static str,
    cut: bool,
}

impl Visits<'_> {
    /// Whether the walk stopped at its limit with entries still unvisited.
    pub(crate) fn cut(&self) -> bool {
        self.cut
    }

    /// Whether the walk ended because its watch stopped it.
    pub(crate) fn stopped(&self) -> bool {
        self.watch.stopped()
    }
}

impl Iterator for Visits<'_> {
    type Item = ignore::DirEntry;

    fn next(&mut self) -> Option<ignore::DirEntry> {
        loop {
            if self.watch.stopped() {
                return None;
            }
            let found = self.walk.next()?;
            // The walked directory itself is not one of the entries looked at.
            if found.as_ref().is_ok_and(|entry| entry.depth() == 0) {
                continue;
            }
            if self.left == 0 {
                self.cut = true;
                return None;
            }
            self.left -= 1;
            self.watch.visited.fetch_add(1, Ordering::Relaxed);
            match found {
                Ok(entry) => return Some(entry),
                Err(err) => {
                    tracing::debug!(operation = self.operation, error = %err, "skipping an unreadable entry");
                }
            }
        }
    }
}

impl Workspace {
    /// The entries below `target`, at most `max` of them, for `operation` (named in logs).
    pub(crate) fn visit<'w>(
        &self,
        target: &WorkspacePath,
        rules: WalkRules,
        max: usize,
        operation: &'static str,
        watch: &'w Watch,
    ) -> Visits<'w> {
        Visits {
            walk: self.walk(target, rules),
            watch,
            left: max,
            operation,
            cut: false,
        }
    }

    /// A walker over the entries below `target` (not `target` itself), in tree order: sorted by
    /// name within each directory, each directory followed by its own entries. Symbolic links
    /// are reported, never followed. The temporary files of an unfinished write are never
    /// reported.
    pub(crate) fn walk(&self, target: &WorkspacePath, rules: WalkRules) -> ignore::Walk {
        let walk_root = self.walk_root().to_path_buf();
        let ancestor_rules = rules
            .ignore_files
            .then(|| AncestorRules::load(self, target));
        let mut builder = WalkBuilder::new(target.under(&walk_root));
        builder
            .hidden(rules.skip_hidden)
            .ignore(rules.ignore_files)
            .git_ignore(rules.ignore_files)
            .git_exclude(rules.ignore_files)
            // Rules from outside the workspace stay out: no global git configuration, no ignore
            // files above the walked directory but those `ancestor_rules` reads inside the root,
            // and `.gitignore` counts whether or not there is a `.git` directory, which might lie
            // above the root.
            .git_global(false)
            .parents(false)
            .require_git(false)
            .follow_links(false)
            .max_depth(rules.max_depth)
            .sort_by_file_name(Ord::cmp);
        let exclude = rules.exclude;
        let ignore_files = rules.ignore_files;
        builder.filter_entry(move |entry| {
            // The walked directory itself is always walked.
            if entry.depth() == 0 {
                return true;
            }
            let Some(path) = WorkspacePath::from_host(&walk_root, entry.path()) else {
                return false;
            };
            let is_dir = entry
                .file_type()
                .is_some_and(|file_type| file_type.is_dir());
            if is_temp_name(path.name()) || (ignore_files && is_dir && path.name() == ".git") {
                return false;
            }
            !exclude
                .as_ref()
                .is_some_and(|exclude| exclude.matches(path.as_str(), path.name()))
                && !ancestor_rules
                    .as_ref()
                    .is_some_and(|rules| rules.ignores(entry.path(), is_dir))
        });
        builder.build()
    }
}

/// The ignore rules of the directories between the workspace root and the walked directory,
/// which the walker does not see since it starts below them.
struct AncestorRules {
    /// The rules of each kind of ignore file, highest precedence first (`.ignore`, then
    /// `.gitignore`, then `.git/info/exclude`, as in ripgrep), each list nearest directory first.
    by_precedence: [Vec<Gitignore>; 3],
}

impl AncestorRules {
    /// Where each kind of ignore file sits in its directory, in order of precedence.
    const FILES: [&[&str]; 3] = [&[".ignore"], &[".gitignore"], &[".git", "info", "exclude"]];

    /// Reads the ignore files of `target`'s ancestors through the sandbox.
    fn load(workspace: &Workspace, target: &WorkspacePath) -> AncestorRules {
        let mut by_precedence: [Vec<Gitignore>; 3] = Default::default();
        for ancestor in target.ancestors().iter().rev() {
            let base = ancestor.under(workspace.walk_root());
            for (names, rules) in Self::FILES.iter().zip(&mut by_precedence) {
                let file = names
                    .iter()
                    .fold(ancestor.clone(), |path, name| path.join(name));
                if let Some(file_rules) = read_rules(workspace, &file, &base) {
                    rules.push(file_rules);
                }
            }
        }
        AncestorRules { by_precedence }
    }

    /// Whether these rules ignore the entry at `host_path`. As in ripgrep, a kind of file with
    /// higher precedence outranks the others, a nearer directory's rules outrank a farther one's,
    /// and a `!pattern` that re-includes an entry wins over the rules ranked below it.
    fn ignores(&self, host_path: &Path, is_dir: bool) -> bool {
        for rules in self.by_precedence.iter().flatten() {
            match rules.matched(host_path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }
}

/// The rules of the ignore file at `file`, whose patterns are relative to the host directory
/// `base`; `None` if there is no such file or it cannot be used.
fn read_rules(workspace: &Workspace, file: &WorkspacePath, base: &Path) -> Option<Gitignore> {
    let relative = file.to_relative_path();
    let metadata = workspace.dir().metadata(&relative).ok()?;
    if !metadata.is_file() || metadata.len() > MAX_IGNORE_FILE_BYTES {
        return None;
    }
    let bytes = workspace.dir().read(&relative).ok()?;
    let mut builder = GitignoreBuilder::new(base);
    let from = Some(PathBuf::from(file.as_str()));
    for line in String::from_utf8_lossy(&bytes).lines() {
        // Git skips a pattern it cannot parse and keeps the others; so does this.
        if let Err(err) = builder.add_line(from.clone(), line) {
            let file = file.as_str();
            tracing::debug!(file, error = %err, "walk: skipping a bad ignore pattern");
        }
    }
    match builder.build() {
        Ok(rules) => Some(rules),
        Err(err) => {
            tracing::debug!(file = file.as_str(), error = %err, "walk: skipping an ignore file");
            None
        }
    }
}
