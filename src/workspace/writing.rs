//! Changing the workspace without losing data: creating and replacing files, exact text edits,
//! creating directories, moving and deleting.
//!
//! Three rules keep every write safe:
//!
//! - **Nothing is replaced unseen.** A file is only replaced by a caller that passes the version
//!   (SHA-256) it read; a stale version is refused. The check and the replacement run under a
//!   per-path lock ([`PathLocks`](crate::workspace::locks::PathLocks)), so of two writes from
//!   the same version exactly one wins and the other is told to read again.
//! - **A file is never half-written.** New content goes to a temporary file in the same
//!   directory, is flushed and synced, gets the old file's permissions, and is renamed over the
//!   target in one step: a reader sees the old file or the new one, and a crash leaves the old
//!   one (and at worst a stray temporary file). `atomic.rs` holds this protocol.
//! - **Nothing outside the root is touched.** Every access goes through the root's `Dir`, and a
//!   path whose symbolic links lead outside is refused like it is by the reads. A rename never
//!   follows a link in its last component, so even a link that appears in a race is replaced,
//!   not written through.

use std::io::{self, Read};
use std::time::Duration;

use cap_std::fs::{Metadata, OpenOptions, Permissions};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use similar::TextDiff;

use crate::workspace::entry::entry_kind;
use crate::workspace::path::WorkspacePath;
use crate::workspace::sandbox::io_error;
use crate::workspace::{EntryKind, Workspace, WorkspaceError};

/// How many lines of context a diff shows around each change (as `diff -u` does).
const DIFF_CONTEXT_LINES: usize = 3;

/// The most diff text one call returns: `edit_file`'s one diff, or all of `apply_edits`'
/// together. A longer diff is cut after its last whole line within the cap and marked so.
pub const MAX_DIFF_BYTES: usize = 256 * 1024;

/// How long a diff may look for the fewest changed lines. The search takes time that grows with
/// the square of the lines changed, hours for a 4 MiB rewrite, while the file stays locked;
/// past this it settles for a coarser diff, still exact, that marks more lines as changed.
const DIFF_TIMEOUT: Duration = Duration::from_secs(1);

// A rename that fails half way through a batch cannot be provoked from outside (the server
// runs as any user, root included), so test builds can fail the commit of the n-th file.
#[cfg(test)]
thread_local! {
    static FAIL_COMMIT_AT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The failure injected into the commit of the `n`-th changed file of a batch, in tests only.
#[cfg(test)]
fn injected_commit_failure(n: usize) -> Option<io::Error> {
    FAIL_COMMIT_AT
        .with(|at| at.get() == Some(n))
        .then(|| io::Error::other("injected commit failure"))
}

#[cfg(not(test))]
fn injected_commit_failure(_: usize) -> Option<io::Error> {
    None
}

/// Which path of a move an error concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveEnd {
    /// What is moved.
    From,
    /// Where it goes.
    To,
}

/// Tags an error of a move with the end it concerns.
fn at(end: MoveEnd) -> impl FnOnce(WorkspaceError) -> (MoveEnd, WorkspaceError) {
    move |error| (end, error)
}

/// The outcome of [`Workspace::write_file`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// The file's workspace-relative path.
    pub path: String,
    /// The new content's version, for the next write.
    pub version: String,
    /// Whether the file was created (rather than replaced).
    pub created: bool,
}

/// One exact replacement for [`Workspace::edit_file`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The text to find; it must occur exactly once.
    pub old_text: String,
    /// The text to put in its place.
    pub new_text: String,
}

/// The outcome of [`Workspace::edit_file`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edited {
    /// The file's workspace-relative path.
    pub path: String,
    /// The change as a unified diff; empty when the edits change nothing.
    pub diff: String,
    /// Whether `diff` was cut to stay within [`MAX_DIFF_BYTES`].
    pub diff_truncated: bool,
    /// The file's version after the call: the new one, or the unchanged one after a dry run.
    pub version: String,
    /// Whether the file was written (false for a dry run, and for edits that change nothing).
    pub applied: bool,
}

/// One file's edits for [`Workspace::apply_edits`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEdits {
    /// The file, workspace-relative.
    pub path: String,
    /// The version the caller read.
    pub version: String,
    /// The replacements, applied in order.
    pub edits: Vec<Edit>,
}

/// An edit worked out in memory and not yet written.
struct EditPlan {
    target: WorkspacePath,
    /// The file's permissions, for the replacement.
    permissions: Permissions,
    /// Which file this is, whatever the spelling of `target`.
    identity: Option<FileIdentity>,
    /// The version of `old`.
    version: String,
    old: String,
    new: String,
}

impl EditPlan {
    fn changes(&self) -> bool {
        self.old != self.new
    }

    /// The outcome, with the new version when `applied` and the old one otherwise; its diff
    /// takes what it needs of `budget`, and is cut to what is left.
    fn into_edited(self, applied: bool, budget: &mut usize) -> Edited {
        let shown = self.target.as_str();
        let mut diff = unified_diff(shown, &self.old, &self.new);
        let diff_truncated = diff.len() > *budget;
        if diff_truncated {
            let end = diff.get(..*budget).and_then(|fits| fits.rfind('\n'));
            diff.truncate(end.map_or(0, |at| at + 1));
        }
        *budget -= diff.len();
        Edited {
            path: shown.to_owned(),
            diff,
            diff_truncated,
            version: if applied {
                version_of_bytes(self.new.as_bytes())
            } else {
                self.version
            },
            applied,
        }
    }
}

/// The change from `old` to `new` as a unified diff with `a/` and `b/` headers naming `shown`.
fn unified_diff(shown: &str, old: &str, new: &str) -> String {
    TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(DIFF_CONTEXT_LINES)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

impl Workspace {
    /// Creates the file at `path` with `content`, or replaces it when `version` is the version
    /// of its current content. Missing parent directories are created.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::AlreadyExists`] when the file exists and no version is given;
    /// [`WorkspaceError::StaleVersion`] when the version is not the file's (or the file is gone);
    /// [`WorkspaceError::NotAFile`] when `path` is a directory or special file;
    /// [`WorkspaceError::NotADirectory`] when a parent is a file; the path errors of every
    /// operation; [`WorkspaceError::Io`] when the filesystem fails.
    pub fn write_file(
        &self,
        path: &str,
        content: &str,
        version: Option<&str>,
    ) -> Result<Written, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let _guard = self.lock(&[&target]);
        let existing = self.existing_file(&target)?;
        match (&existing, version) {
            (None, None) => self.create_parents(&target)?,
            (None, Some(_)) => {
                return Err(WorkspaceError::StaleVersion {
                    path: target.as_str().to_owned(),
                    reason: "it no longer exists".into(),
                });
            }
            (Some(_), None) => {
                return Err(WorkspaceError::AlreadyExists {
                    path: target.as_str().to_owned(),
                });
            }
            (Some(_), Some(expected)) => {
                let current = self.version_of(&target)?;
                check_version(&target, expected, &current)?;
            }
        }
        match existing {
            Some(metadata) => {
                self.replace_atomically(&target, content.as_bytes(), Some(metadata.permissions()))?;
            }
            None => {
                let temp = self.stage(&target, content.as_bytes(), None)?;
                self.commit_new(&temp, &target)?;
            }
        }
        Ok(Written {
            path: target.as_str().to_owned(),
            version: version_of_bytes(content.as_bytes()),
            created: version.is_none(),
        })
    }

    /// Creates the directory at `path` and any missing parents; returns whether it was created
    /// (false when it already existed, which is not an error).
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::NotADirectory`] when `path` or a parent is a file; the path errors of
    /// every operation; [`WorkspaceError::Io`] when the filesystem fails.
    pub fn create_directory(&self, path: &str) -> Result<bool, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let _guard = self.lock(&[&target]);
        self.create_parents(&target)?;
        self.ensure_directory(&target)
    }

    /// Applies `edits` to the text file at `path`, in order, each to the text the ones before
    /// it left, provided `version` is the file's current version. Each edit's `old_text` must
    /// occur exactly once. With `dry_run`, only reports the diff.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::StaleVersion`] when the version is not the file's;
    /// [`WorkspaceError::NoMatch`], [`WorkspaceError::AmbiguousMatch`] or
    /// [`WorkspaceError::InvalidEdit`] for the first edit that cannot be applied (and then
    /// nothing is written); the errors of [`Workspace::read_file`] for reading it whole.
    pub fn edit_file(
        &self,
        path: &str,
        version: &str,
        edits: &[Edit],
        dry_run: bool,
    ) -> Result<Edited, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let _guard = self.lock(&[&target]);
        let plan = self.plan_edit(target, version, edits)?;
        let mut budget = MAX_DIFF_BYTES;
        if dry_run || !plan.changes() {
            return Ok(plan.into_edited(false, &mut budget));
        }
        self.replace_atomically(
            &plan.target,
            plan.new.as_bytes(),
            Some(plan.permissions.clone()),
        )?;
        Ok(plan.into_edited(true, &mut budget))
    }

    /// Applies edits to several text files, all or nothing: every file's version must be its
    /// current one and every edit must apply, or no file is written. Each file is edited as by
    /// [`Workspace::edit_file`], and may be listed once.
    ///
    /// The new contents are all staged in synced temporary files before the first rename, so
    /// only a filesystem failure during the renames themselves can interrupt the change; the
    /// files already renamed are then put back (best effort) and the failure is reported.
    ///
    /// # Errors
    ///
    /// Those of [`Workspace::edit_file`], for the first file that fails;
    /// [`WorkspaceError::InvalidPath`] for a file listed twice, under one spelling or two (a
    /// linked directory, a hard link).
    pub fn apply_edits(
        &self,
        files: &[FileEdits],
        dry_run: bool,
    ) -> Result<Vec<Edited>, WorkspaceError> {
        let mut targets: Vec<WorkspacePath> = Vec::with_capacity(files.len());
        for file in files {
            let target = WorkspacePath::parse(&file.path)?;
            if targets.contains(&target) {
                return Err(WorkspaceError::invalid_path(
                    &file.path,
                    "it is listed twice; put all of its edits in one entry",
                ));
            }
            targets.push(target);
        }
        let _guard = self.lock(&targets.iter().collect::<Vec<_>>());
        let mut plans: Vec<EditPlan> = Vec::with_capacity(files.len());
        for (file, target) in files.iter().zip(targets) {
            let plan = self.plan_edit(target, &file.version, &file.edits)?;
            // One file under two names (a linked directory, a hard link) would be planned twice
            // from the same text, and its second rename would discard the first one's edits.
            if let Some(earlier) = plans
                .iter()
                .find(|earlier| plan.identity.is_some() && earlier.identity == plan.identity)
            {
                return Err(WorkspaceError::invalid_path(
                    &file.path,
                    format!(
                        "it is the same file as `{}`, listed before it; put all of its edits in \
                         one entry",
                        earlier.target.as_str()
                    ),
                ));
            }
            plans.push(plan);
        }
        let mut budget = MAX_DIFF_BYTES;
        if dry_run {
            return Ok(plans
                .into_iter()
                .map(|plan| plan.into_edited(false, &mut budget))
                .collect());
        }

        let changing: Vec<&EditPlan> = plans.iter().filter(|plan| plan.changes()).collect();
        let mut staged = Vec::with_capacity(changing.len());
        for plan in &changing {
            match self.stage(
                &plan.target,
                plan.new.as_bytes(),
                Some(plan.permissions.clone()),
            ) {
                Ok(temp) => staged.push(temp),
                Err(err) => {
                    self.discard(&staged);
                    return Err(err);
                }
            }
        }
        for (done, (plan, temp)) in changing.iter().zip(&staged).enumerate() {
            let committed = match injected_commit_failure(done) {
                Some(err) => Err(io_error(&plan.target, &err)),
                None => self.commit(temp, &plan.target),
            };
            if let Err(err) = committed {
                self.discard(&staged[done..]);
                // Put back the files already replaced; their old text is at hand.
                for earlier in &changing[..done] {
                    let _ = self.replace_atomically(
                        &earlier.target,
                        earlier.old.as_bytes(),
                        Some(earlier.permissions.clone()),
                    );
                }
                return Err(err);
            }
        }
        Ok(plans
            .into_iter()
            .map(|plan| {
                let applied = plan.changes();
                plan.into_edited(applied, &mut budget)
            })
            .collect())
    }

    /// Reads the text file at `target`, checks its version and applies `edits` in memory.
    fn plan_edit(
        &self,
        target: WorkspacePath,
        version: &str,
        edits: &[Edit],
    ) -> Result<EditPlan, WorkspaceError> {
        let Some(metadata) = self.existing_file(&target)? else {
            return Err(WorkspaceError::NotFound {
                path: target.as_str().to_owned(),
            });
        };
        // One read gives the text and the version of the same bytes.
        let current = self.read_file(target.as_str(), None, None)?;
        check_version(&target, version, &current.version)?;
        let new = apply(&target, &current.content, edits)?;
        Ok(EditPlan {
            permissions: metadata.permissions(),
            identity: file_identity(&metadata),
            version: current.version,
            old: current.content,
            new,
            target,
        })
    }

    /// Moves or renames what is at `from` to `to`, which must not exist; `to`'s directory must.
    /// A symbolic link is moved itself, not what it points to. Returns what was moved.
    ///
    /// # Errors
    ///
    /// Each with the end of the move it concerns: [`WorkspaceError::AlreadyExists`] when
    /// something is at `to`; [`WorkspaceError::NotFound`] when nothing is at `from` or `to`'s
    /// directory is missing; [`WorkspaceError::InvalidPath`] for the root (`from`) or a
    /// directory moved into itself (`to`); the path errors of every operation;
    /// [`WorkspaceError::Io`] when the filesystem fails.
    pub fn move_path(&self, from: &str, to: &str) -> Result<EntryKind, (MoveEnd, WorkspaceError)> {
        use MoveEnd::{From, To};
        let source = WorkspacePath::parse(from).map_err(at(From))?;
        let destination = WorkspacePath::parse(to).map_err(at(To))?;
        if source.is_root() {
            return Err((
                From,
                WorkspaceError::invalid_path(from, "the workspace root itself cannot be moved"),
            ));
        }
        if destination.is_within(&source) {
            return Err((
                To,
                WorkspaceError::invalid_path(
                    to,
                    format!("it is `{}` itself or inside it", source.as_str()),
                ),
            ));
        }
        let _guard = self.lock(&[&source, &destination]);
        // Following links here refuses a source whose links lead outside, as the reads do.
        self.metadata(&source).map_err(at(From))?;
        let kind = entry_kind(self.link_metadata(&source).map_err(at(From))?.file_type());
        if let Some(parent) = destination.parent() {
            self.directory_metadata(&parent).map_err(at(To))?;
        }
        match self.dir().symlink_metadata(destination.to_relative_path()) {
            Ok(_) => return Err((To, already_exists(&destination))),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => return Err((To, io_error(&destination, &err))),
        }
        let (src, dst) = (source.to_relative_path(), destination.to_relative_path());
        if kind == EntryKind::Directory {
            // No portable rename refuses to replace; but renaming a directory onto a file fails,
            // and onto a directory only succeeds when that one is empty, so a target that
            // appeared since the check above loses no data.
            self.dir()
                .rename(&src, self.dir(), &dst)
                .map_err(|err| (To, move_error(&destination, &err)))?;
        } else {
            // Linking fails if the target exists, atomically; only then is the old name removed.
            // So a file that appears at the target in the meantime is never overwritten.
            self.dir()
                .hard_link(&src, self.dir(), &dst)
                .map_err(|err| (To, move_error(&destination, &err)))?;
            if let Err(err) = self.dir().remove_file(&src) {
                // Undo, so the move either happened or did not; the content is safe either way.
                let _ = self.dir().remove_file(&dst);
                return Err((From, io_error(&source, &err)));
            }
        }
        self.sync_parent(&source);
        self.sync_parent(&destination);
        Ok(kind)
    }

    /// Deletes what is at `path`: a file or a symbolic link (the link, not its target), or a
    /// directory with everything in it when `recursive` is true. Returns what was deleted.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::RecursiveRequired`] for a directory without `recursive`;
    /// [`WorkspaceError::InvalidPath`] for the root; the path errors of every operation;
    /// [`WorkspaceError::Io`] when the filesystem fails.
    pub fn delete_path(&self, path: &str, recursive: bool) -> Result<EntryKind, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        if target.is_root() {
            return Err(WorkspaceError::invalid_path(
                path,
                "the workspace root itself cannot be deleted",
            ));
        }
        let _guard = self.lock(&[&target]);
        self.metadata(&target)?;
        let kind = entry_kind(self.link_metadata(&target)?.file_type());
        let relative = target.to_relative_path();
        let removed = if kind == EntryKind::Directory {
            if !recursive {
                return Err(WorkspaceError::RecursiveRequired {
                    path: target.as_str().to_owned(),
                });
            }
            // cap-std's removal does not follow symbolic links inside the tree: a link to
            // elsewhere is removed as a link.
            self.dir().remove_dir_all(&relative)
        } else {
            self.dir().remove_file(&relative)
        };
        removed.map_err(|err| io_error(&target, &err))?;
        self.sync_parent(&target);
        Ok(kind)
    }

    /// The metadata of the regular file at `target`, or `None` when nothing is there.
    ///
    /// Refuses a path whose links lead outside or loop, a symbolic link (a write would replace
    /// the link, not change the file it points to), and a directory or special file.
    fn existing_file(&self, target: &WorkspacePath) -> Result<Option<Metadata>, WorkspaceError> {
        let followed = match self.metadata(target) {
            Ok(metadata) => Some(metadata),
            Err(WorkspaceError::NotFound { .. }) => None,
            Err(err) => return Err(err),
        };
        if let Ok(link) = self.dir().symlink_metadata(target.to_relative_path())
            && link.file_type().is_symlink()
        {
            return Err(WorkspaceError::invalid_path(
                target.as_str(),
                "it is a symbolic link; write to the path it points to instead",
            ));
        }
        match followed {
            Some(metadata) if !metadata.is_file() => Err(WorkspaceError::NotAFile {
                path: target.as_str().to_owned(),
                kind: entry_kind(metadata.file_type()),
            }),
            Some(metadata) if metadata.permissions().readonly() => Err(WorkspaceError::Io {
                path: target.as_str().to_owned(),
                message: "the file is read-only, and a write keeps permissions rather than \
                          override them"
                    .into(),
            }),
            Some(metadata) => self.may_write(target).map(|()| Some(metadata)),
            None => Ok(None),
        }
    }

    /// Refuses a file the server's user may not write. The write bits are not the whole
    /// answer (another user's file, mode 0644), and a write renames a new file over the old
    /// one, which needs only the directory's permission; so the kernel is asked, by opening
    /// the file for writing without truncating it.
    fn may_write(&self, target: &WorkspacePath) -> Result<(), WorkspaceError> {
        let mut options = OpenOptions::new();
        options.write(true);
        match self.dir().open_with(target.to_relative_path(), &options) {
            Err(err) if err.kind() == io::ErrorKind::PermissionDenied => Err(WorkspaceError::Io {
                path: target.as_str().to_owned(),
                message: "the server may not write this file, and replacing it would take it \
                          from its owner"
                    .into(),
            }),
            // Anything else (a file being executed, say) is for the write itself to meet.
            _ => Ok(()),
        }
    }

    /// The metadata of `path` itself, not following a symbolic link in its last component.
    fn link_metadata(&self, path: &WorkspacePath) -> Result<Metadata, WorkspaceError> {
        self.dir()
            .symlink_metadata(path.to_relative_path())
            .map_err(|err| io_error(path, &err))
    }

    /// The version (SHA-256, lowercase hex) of the bytes of the file at `target`, streamed.
    fn version_of(&self, target: &WorkspacePath) -> Result<String, WorkspaceError> {
        let mut file = self.open_file(target)?;
        let mut hasher = Sha256::new();
        let mut buffer = vec![0; 64 * 1024];
        loop {
            match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => hasher.update(&buffer[..read]),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(io_error(target, &err)),
            }
        }
        Ok(format!("{:x}", hasher.finalize()))
    }

    /// Creates every missing directory above `target`.
    fn create_parents(&self, target: &WorkspacePath) -> Result<(), WorkspaceError> {
        for ancestor in target.ancestors().iter().filter(|a| !a.is_root()) {
            self.ensure_directory(ancestor)?;
        }
        Ok(())
    }

    /// Creates the directory `path` unless a directory is already there; true if created.
    fn ensure_directory(&self, path: &WorkspacePath) -> Result<bool, WorkspaceError> {
        if path.is_root() {
            return Ok(false);
        }
        match self.dir().create_dir(path.to_relative_path()) {
            Ok(()) => {
                self.sync_parent(path);
                Ok(true)
            }
            // Whatever is there must be a directory (a link to one inside the root will do).
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                self.directory_metadata(path).map(|_| false)
            }
            Err(err) => Err(io_error(path, &err)),
        }
    }
}

/// Applies `edits` to `text` in order, each to the result of the ones before.
fn apply(target: &WorkspacePath, text: &str, edits: &[Edit]) -> Result<String, WorkspaceError> {
    let mut text = text.to_owned();
    for (index, edit) in (0..).zip(edits) {
        let path = || target.as_str().to_owned();
        if edit.old_text.is_empty() {
            return Err(WorkspaceError::InvalidEdit {
                path: path(),
                index,
                reason: "old_text is empty, and an empty text matches everywhere".into(),
            });
        }
        let count = occurrences(&text, &edit.old_text);
        match (count, text.find(&edit.old_text)) {
            (1, Some(at)) => text.replace_range(at..at + edit.old_text.len(), &edit.new_text),
            (0, _) | (_, None) => {
                return Err(WorkspaceError::NoMatch {
                    path: path(),
                    index,
                });
            }
            (count, _) => {
                return Err(WorkspaceError::AmbiguousMatch {
                    path: path(),
                    index,
                    count,
                });
            }
        }
    }
    Ok(text)
}

/// How many times `needle` occurs in `haystack`, overlapping occurrences included: `aa` occurs
/// twice in `aaa`, and replacing "the" one would be a guess.
fn occurrences(haystack: &str, needle: &str) -> u64 {
    let mut count = 0;
    let mut from = 0;
    while let Some(found) = haystack[from..].find(needle) {
        count += 1;
        let at = from + found;
        // The next search starts one character on, so overlapping occurrences are found; the
        // first character's length keeps the index on a character boundary.
        from = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
    }
    count
}

/// What tells one file from another whatever path reaches it: its device and inode.
type FileIdentity = (u64, u64);

#[cfg(unix)]
fn file_identity(metadata: &Metadata) -> Option<FileIdentity> {
    use cap_std::fs::MetadataExt as _;
    Some((metadata.dev(), metadata.ino()))
}

/// Elsewhere a file's identity is not at hand, and only equal spellings are caught.
#[cfg(not(unix))]
fn file_identity(_: &Metadata) -> Option<FileIdentity> {
    None
}

/// Refuses a write whose `expected` version is not the file's `current` one.
fn check_version(
    target: &WorkspacePath,
    expected: &str,
    current: &str,
) -> Result<(), WorkspaceError> {
    if expected.trim().eq_ignore_ascii_case(current) {
        return Ok(());
    }
    Err(WorkspaceError::StaleVersion {
        path: target.as_str().to_owned(),
        reason: format!("its version is now {current}, not the one given"),
    })
}

fn already_exists(path: &WorkspacePath) -> WorkspaceError {
    WorkspaceError::AlreadyExists {
        path: path.as_str().to_owned(),
    }
}

/// A failed rename or link onto `destination`: something there already is the caller's
/// `already_exists`, whatever the operating system called it.
fn move_error(destination: &WorkspacePath, err: &io::Error) -> WorkspaceError {
    // `DirectoryNotEmpty`: a directory renamed onto a non-empty one.
    if matches!(
        err.kind(),
        io::ErrorKind::AlreadyExists | io::ErrorKind::DirectoryNotEmpty
    ) {
        return already_exists(destination);
    }
    io_error(destination, err)
}

/// The version of `bytes`: their SHA-256 in lowercase hex, as [`Workspace::read_file`] reports.
fn version_of_bytes(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::atomic::is_temp_name;
    use crate::workspace::testing::{Fixture, SECRET, leftovers};

    fn read(fixture: &Fixture, path: &str) -> String {
        std::fs::read_to_string(fixture.host_path(path)).expect("readable")
    }

    fn version(fixture: &Fixture, path: &str) -> String {
        fixture
            .workspace
            .read_file(path, None, None)
            .expect("read")
            .version
    }

    fn edit(old_text: &str, new_text: &str) -> Edit {
        Edit {
            old_text: old_text.into(),
            new_text: new_text.into(),
        }
    }

    #[test]
    fn write_creates_a_file_and_its_parents_and_returns_the_version_read_gives() {
        let fixture = Fixture::new();
        let written = fixture
            .workspace
            .write_file("./notes//deep/todo.md", "one\n", None)
            .expect("written");
        assert_eq!(written.path, "notes/deep/todo.md");
        assert!(written.created);
        assert_eq!(read(&fixture, "notes/deep/todo.md"), "one\n");
        assert_eq!(written.version, version(&fixture, "notes/deep/todo.md"));
        assert_eq!(
            leftovers(&fixture.host_path("notes/deep")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn write_replaces_only_with_the_current_version() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        let err = ws.write_file("README.md", "x", None).expect_err("exists");
        assert_eq!(
            err,
            WorkspaceError::AlreadyExists {
                path: "README.md".into()
            }
        );

        let stale = version_of_bytes(b"something else");
        let err = ws
            .write_file("README.md", "x", Some(&stale))
            .expect_err("stale");
        assert!(
            matches!(err, WorkspaceError::StaleVersion { .. }),
            "{err:?}"
        );
        assert_eq!(
            read(&fixture, "README.md"),
            "# Demo\nfn main is documented here\n"
        );

        let current = version(&fixture, "README.md").to_uppercase();
        let written = ws
            .write_file("README.md", "new\n", Some(&current))
            .expect("replaced");
        assert!(!written.created);
        assert_eq!(read(&fixture, "README.md"), "new\n");
        // The version just used is now stale itself.
        let err = ws
            .write_file("README.md", "again\n", Some(&current))
            .expect_err("stale");
        assert!(
            matches!(err, WorkspaceError::StaleVersion { .. }),
            "{err:?}"
        );
        assert_eq!(read(&fixture, "README.md"), "new\n");
    }

    #[test]
    fn write_with_a_version_refuses_a_file_that_is_gone() {
        let fixture = Fixture::new();
        let err = fixture
            .workspace
            .write_file("gone.txt", "x", Some(&version_of_bytes(b"")))
            .expect_err("gone");
        assert_eq!(
            err,
            WorkspaceError::StaleVersion {
                path: "gone.txt".into(),
                reason: "it no longer exists".into()
            }
        );
        assert!(!fixture.host_path("gone.txt").exists());
    }

    #[test]
    fn write_refuses_directories_the_root_and_files_as_parents() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        for path in ["src", ".", ""] {
            let err = ws.write_file(path, "x", None).expect_err("a directory");
            assert!(
                matches!(err, WorkspaceError::NotAFile { .. }),
                "{path}: {err:?}"
            );
        }
        let err = ws
            .write_file("README.md/x", "x", None)
            .expect_err("a file as parent");
        assert_eq!(
            err,
            WorkspaceError::NotADirectory {
                path: "README.md".into()
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_and_read_only_files_are_refused() {
        use std::os::unix::fs::PermissionsExt;
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        let host = fixture.host_path("src/main.rs");
        let mode = |path: &std::path::Path| {
            std::fs::metadata(path).expect("stat").permissions().mode() & 0o7777
        };
        std::fs::set_permissions(&host, std::fs::Permissions::from_mode(0o751)).expect("chmod");
        let v = version(&fixture, "src/main.rs");
        let written = ws
            .write_file("src/main.rs", "fn main() {}\n", Some(&v))
            .expect("written");
        assert_eq!(mode(&host), 0o751);
        ws.edit_file("src/main.rs", &written.version, &[edit("{}", "{ }")], false)
            .expect("edited");
        assert_eq!(mode(&host), 0o751);
        assert_eq!(read(&fixture, "src/main.rs"), "fn main() { }\n");

        std::fs::set_permissions(&host, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let v = version(&fixture, "src/main.rs");
        let err = ws
            .write_file("src/main.rs", "x", Some(&v))
            .expect_err("read-only");
        assert!(
            matches!(err, WorkspaceError::Io { ref message, .. } if message.contains("read-only")),
            "{err:?}"
        );
        assert_eq!(read(&fixture, "src/main.rs"), "fn main() { }\n");
    }

    #[test]
    fn create_directory_is_idempotent_and_refuses_files_in_the_way() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        assert_eq!(ws.create_directory("a/b/c"), Ok(true));
        assert!(fixture.host_path("a/b/c").is_dir());
        assert_eq!(ws.create_directory("a/b/c"), Ok(false));
        assert_eq!(ws.create_directory("."), Ok(false));
        assert_eq!(
            ws.create_directory("README.md"),
            Err(WorkspaceError::NotADirectory {
                path: "README.md".into()
            })
        );
        assert_eq!(
            ws.create_directory("README.md/sub"),
            Err(WorkspaceError::NotADirectory {
                path: "README.md".into()
            })
        );
    }

    #[test]
    fn edits_apply_in_order_and_return_a_unified_diff_and_the_new_version() {
        let fixture = Fixture::new();
        let v = version(&fixture, "src/main.rs");
        let edited = fixture
            .workspace
            .edit_file(
                "src/main.rs",
                &v,
                &[edit("\"hi\"", "\"hello\""), edit("hello", "hello, world")],
                false,
            )
            .expect("edited");
        assert!(edited.applied);
        let expected = "fn main() {\n    println!(\"hello, world\");\n}\n";
        assert_eq!(read(&fixture, "src/main.rs"), expected);
        assert_eq!(edited.version, version_of_bytes(expected.as_bytes()));
        assert_eq!(
            edited.diff,
            "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    \
             println!(\"hi\");\n+    println!(\"hello, world\");\n }\n"
        );
    }

    #[test]
    fn a_dry_run_reports_the_diff_and_changes_nothing() {
        let fixture = Fixture::new();
        let host = fixture.host_path("src/main.rs");
        let before = std::fs::metadata(&host)
            .and_then(|m| m.modified())
            .expect("mtime");
        let v = version(&fixture, "src/main.rs");
        let dry = fixture
            .workspace
            .edit_file("src/main.rs", &v, &[edit("hi", "bye")], true)
            .expect("dry run");
        assert!(!dry.applied);
        assert_eq!(dry.version, v);
        assert!(dry.diff.contains("+    println!(\"bye\");"), "{}", dry.diff);
        assert_eq!(
            read(&fixture, "src/main.rs"),
            "fn main() {\n    println!(\"hi\");\n}\n"
        );
        let after = std::fs::metadata(&host)
            .and_then(|m| m.modified())
            .expect("mtime");
        assert_eq!(before, after);
        assert_eq!(leftovers(&fixture.host_path("src")), Vec::<String>::new());
    }

    #[test]
    fn failing_edits_name_their_index_and_count_and_write_nothing() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        let v = version(&fixture, "README.md");
        let original = read(&fixture, "README.md");
        let err = ws
            .edit_file(
                "README.md",
                &v,
                &[edit("Demo", "Show"), edit("absent", "x")],
                false,
            )
            .expect_err("no match");
        assert_eq!(
            err,
            WorkspaceError::NoMatch {
                path: "README.md".into(),
                index: 1
            }
        );
        let err = ws
            .edit_file("README.md", &v, &[edit("e", "E")], false)
            .expect_err("ambiguous");
        assert_eq!(
            err,
            WorkspaceError::AmbiguousMatch {
                path: "README.md".into(),
                index: 0,
                count: 5
            }
        );
        let err = ws
            .edit_file("README.md", &v, &[edit("", "x")], false)
            .expect_err("empty");
        assert!(
            matches!(err, WorkspaceError::InvalidEdit { index: 0, .. }),
            "{err:?}"
        );
        let err = ws
            .edit_file(
                "README.md",
                &version_of_bytes(b"old"),
                &[edit("Demo", "x")],
                false,
            )
            .expect_err("stale");
        assert!(
            matches!(err, WorkspaceError::StaleVersion { .. }),
            "{err:?}"
        );
        let err = ws
            .edit_file("missing", &v, &[edit("a", "b")], false)
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "missing".into()
            }
        );
        assert_eq!(read(&fixture, "README.md"), original);
    }

    #[test]
    fn overlapping_occurrences_are_ambiguous() {
        assert_eq!(occurrences("aaa", "aa"), 2);
        assert_eq!(occurrences("ééé", "éé"), 2);
        assert_eq!(occurrences("abc", "abc"), 1);
        assert_eq!(occurrences("abc", "x"), 0);
    }

    #[test]
    fn moves_rename_files_and_directories_and_never_overwrite() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        assert_eq!(ws.move_path("README.md", "docs.md"), Ok(EntryKind::File));
        assert_eq!(
            read(&fixture, "docs.md"),
            "# Demo\nfn main is documented here\n"
        );
        assert!(!fixture.host_path("README.md").exists());

        assert_eq!(ws.move_path("src", "code"), Ok(EntryKind::Directory));
        assert_eq!(read(&fixture, "code/nested/lib.rs"), "pub fn Main() {}\n");

        let err = ws.move_path("docs.md", "code/main.rs").expect_err("exists");
        assert_eq!(
            err,
            (
                MoveEnd::To,
                WorkspaceError::AlreadyExists {
                    path: "code/main.rs".into()
                }
            )
        );
        let (end, err) = ws
            .move_path("code/nested", "code")
            .expect_err("onto a directory");
        assert_eq!(end, MoveEnd::To);
        assert!(
            matches!(
                err,
                WorkspaceError::InvalidPath { .. } | WorkspaceError::AlreadyExists { .. }
            ),
            "{err:?}"
        );
        assert_eq!(
            read(&fixture, "docs.md"),
            "# Demo\nfn main is documented here\n"
        );
        assert_eq!(
            read(&fixture, "code/main.rs"),
            "fn main() {\n    println!(\"hi\");\n}\n"
        );

        let err = ws.move_path("code", "code/inner").expect_err("into itself");
        assert!(
            matches!(err, (MoveEnd::To, WorkspaceError::InvalidPath { .. })),
            "{err:?}"
        );
        let err = ws.move_path(".", "elsewhere").expect_err("the root");
        assert!(
            matches!(err, (MoveEnd::From, WorkspaceError::InvalidPath { .. })),
            "{err:?}"
        );
        let err = ws.move_path("missing", "x").expect_err("missing");
        assert_eq!(
            err,
            (
                MoveEnd::From,
                WorkspaceError::NotFound {
                    path: "missing".into()
                }
            )
        );
        let err = ws
            .move_path("docs.md", "no/such/dir/docs.md")
            .expect_err("no parent");
        assert!(
            matches!(err, (MoveEnd::To, WorkspaceError::NotFound { .. })),
            "{err:?}"
        );
        let err = ws.move_path("docs.md", "../out.md").expect_err("outside");
        assert!(
            matches!(err, (MoveEnd::To, WorkspaceError::InvalidPath { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn deletes_need_recursive_for_directories_and_spare_the_root() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        assert_eq!(ws.delete_path("README.md", false), Ok(EntryKind::File));
        assert!(!fixture.host_path("README.md").exists());
        assert_eq!(
            ws.delete_path("src", false),
            Err(WorkspaceError::RecursiveRequired { path: "src".into() })
        );
        assert!(fixture.host_path("src/main.rs").exists());
        assert_eq!(ws.delete_path("src", true), Ok(EntryKind::Directory));
        assert!(!fixture.host_path("src").exists());
        for root in [".", "", "./"] {
            let err = ws.delete_path(root, true).expect_err("the root");
            assert!(matches!(err, WorkspaceError::InvalidPath { .. }), "{err:?}");
        }
        assert!(fixture.root.is_dir());
        assert_eq!(
            ws.delete_path("README.md", false),
            Err(WorkspaceError::NotFound {
                path: "README.md".into()
            })
        );
    }

    #[test]
    fn concurrent_edits_from_one_version_let_exactly_one_win() {
        let fixture = Fixture::new();
        let v = version(&fixture, "src/main.rs");
        let outcomes: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|n| {
                    let (ws, v) = (&fixture.workspace, &v);
                    scope.spawn(move || {
                        ws.edit_file(
                            "src/main.rs",
                            v,
                            &[edit("hi", &format!("writer {n}"))],
                            false,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        let winners: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
        assert_eq!(winners.len(), 1, "{outcomes:?}");
        assert!(
            outcomes
                .iter()
                .filter(|o| o.is_err())
                .all(|o| matches!(o, Err(WorkspaceError::StaleVersion { .. }))),
            "{outcomes:?}"
        );
        assert_eq!(winners[0].version, version(&fixture, "src/main.rs"));
    }

    #[cfg(unix)]
    #[test]
    fn edits_through_two_spellings_of_one_file_let_exactly_one_win() {
        let fixture = Fixture::new();
        std::os::unix::fs::symlink("src", fixture.root.join("alias")).expect("linked");
        for round in 0..20 {
            let v = version(&fixture, "src/main.rs");
            let outcomes: Vec<_> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..8)
                    .map(|n| {
                        let (ws, v) = (&fixture.workspace, &v);
                        let path = if n % 2 == 0 {
                            "src/main.rs"
                        } else {
                            "alias/main.rs"
                        };
                        scope.spawn(move || {
                            ws.edit_file(path, v, &[edit("hi", &format!("hi {round} {n}"))], false)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("no panic"))
                    .collect()
            });
            let winners = outcomes.iter().filter(|o| o.is_ok()).count();
            assert_eq!(winners, 1, "round {round}: {outcomes:?}");
        }
    }

    /// Every write, aimed at `path` (and, for a move, from a good file to `path` and back).
    fn every_write(
        ws: &Workspace,
        path: &str,
    ) -> Vec<(&'static str, Result<String, WorkspaceError>)> {
        let any_version = version_of_bytes(format!("{SECRET}\n").as_bytes());
        vec![
            (
                "write_file new",
                ws.write_file(path, "planted", None)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "write_file replace",
                ws.write_file(path, "planted", Some(&any_version))
                    .map(|r| format!("{r:?}")),
            ),
            (
                "create_directory",
                ws.create_directory(path).map(|r| format!("{r:?}")),
            ),
            (
                "edit_file",
                ws.edit_file(path, &any_version, &[edit("TOP", "x")], false)
                    .map(|r| format!("{r:?}")),
            ),
            (
                "move_path from",
                ws.move_path(path, "moved-here")
                    .map(|r| format!("{r:?}"))
                    .map_err(|(_, e)| e),
            ),
            (
                "move_path to",
                ws.move_path("empty", path)
                    .map(|r| format!("{r:?}"))
                    .map_err(|(_, e)| e),
            ),
            (
                "delete_path",
                ws.delete_path(path, true).map(|r| format!("{r:?}")),
            ),
            (
                "apply_edits",
                ws.apply_edits(
                    &[FileEdits {
                        path: path.to_owned(),
                        version: any_version.clone(),
                        edits: vec![edit("TOP", "x")],
                    }],
                    false,
                )
                .map(|r| format!("{r:?}")),
            ),
        ]
    }

    /// The bytes and modification time of everything in the fixture's outside directory.
    fn outside_state(fixture: &Fixture) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
        let mut state: Vec<_> = std::fs::read_dir(&fixture.outside)
            .expect("listed")
            .filter_map(|e| e.ok())
            .map(|e| {
                let path = e.path();
                let meta = std::fs::metadata(&path).expect("stat");
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(&path).unwrap_or_default(),
                    meta.modified().expect("mtime"),
                )
            })
            .collect();
        state.sort();
        state
    }

    fn assert_every_write_refused(fixture: &Fixture, paths: &[&str]) {
        let before = outside_state(fixture);
        for path in paths {
            for (operation, outcome) in every_write(&fixture.workspace, path) {
                let err = match outcome {
                    Ok(done) => panic!("{operation} `{path}` succeeded: {done}"),
                    Err(err) => err,
                };
                // Moving onto a link refuses because the link exists; it is never followed.
                let refused = match err {
                    WorkspaceError::InvalidPath { .. } | WorkspaceError::OutsideRoot { .. } => true,
                    WorkspaceError::AlreadyExists { .. } => operation == "move_path to",
                    _ => false,
                };
                assert!(refused, "{operation} `{path}` gave {err:?}");
                fixture.assert_no_leak(operation, path, &err);
            }
        }
        assert_eq!(
            outside_state(fixture),
            before,
            "nothing outside the root changed"
        );
        assert!(
            fixture.host_path("empty").exists(),
            "the move source stayed"
        );
        assert!(!fixture.host_path("moved-here").exists());
    }

    #[test]
    fn climbing_and_absolute_paths_are_refused_by_every_write() {
        let fixture = Fixture::new();
        let secret_on_host = fixture.outside.join("secret.txt");
        assert_every_write_refused(
            &fixture,
            &[
                "..",
                "../outside/secret.txt",
                "src/../../outside/new.txt",
                "/etc/passwd",
                &secret_on_host.to_string_lossy(),
                "/",
            ],
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_leading_outside_are_refused_by_every_write() {
        use std::os::unix::fs::symlink;
        let fixture = Fixture::new();
        symlink(
            fixture.outside.join("secret.txt"),
            fixture.host_path("to-secret"),
        )
        .expect("link");
        symlink(
            "../outside/secret.txt",
            fixture.host_path("to-secret-relative"),
        )
        .expect("link");
        symlink("../outside", fixture.host_path("to-outside")).expect("link");
        symlink("../outside/new.txt", fixture.host_path("to-new-outside")).expect("link");
        assert_every_write_refused(
            &fixture,
            &[
                "to-secret",
                "to-secret-relative",
                "to-outside",
                "to-outside/secret.txt",
                "to-outside/new.txt",
                "to-outside/dir/new.txt",
            ],
        );
        // A dangling link to a new file outside: writing may not create that file.
        let _ = fixture
            .workspace
            .write_file("to-new-outside", "planted", None);
        assert!(!fixture.outside.join("new.txt").exists());
        let _ = fixture.workspace.create_directory("to-new-outside");
        assert!(!fixture.outside.join("new.txt").exists());
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_are_not_written_through_but_move_and_delete_as_links() {
        use std::os::unix::fs::symlink;
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        symlink("README.md", fixture.host_path("alias.md")).expect("link");
        let v = version(&fixture, "alias.md");
        let err = ws
            .write_file("alias.md", "x", Some(&v))
            .expect_err("a link");
        assert!(
            matches!(err, WorkspaceError::InvalidPath { ref reason, .. } if reason.contains("symbolic link")),
            "{err:?}"
        );
        let err = ws
            .edit_file("alias.md", &v, &[edit("Demo", "x")], false)
            .expect_err("a link");
        assert!(matches!(err, WorkspaceError::InvalidPath { .. }), "{err:?}");
        assert_eq!(ws.move_path("alias.md", "other.md"), Ok(EntryKind::Symlink));
        assert!(
            std::fs::symlink_metadata(fixture.host_path("other.md"))
                .is_ok_and(|m| m.file_type().is_symlink())
        );
        assert_eq!(ws.delete_path("other.md", false), Ok(EntryKind::Symlink));
        assert_eq!(
            read(&fixture, "README.md"),
            "# Demo\nfn main is documented here\n"
        );
    }

    #[test]
    fn a_batch_whose_third_file_fails_to_commit_restores_the_first_two() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        ws.write_file("notes.txt", "one note\n", None)
            .expect("a third file");
        let paths = ["README.md", "src/main.rs", "notes.txt"];
        let before: Vec<(String, String)> = paths
            .iter()
            .map(|p| (read(&fixture, p), version(&fixture, p)))
            .collect();
        let edits = [
            file_edits(paths[0], &before[0].1, &[("Demo", "Show")]),
            file_edits(paths[1], &before[1].1, &[("hi", "bye")]),
            file_edits(paths[2], &before[2].1, &[("one", "two")]),
        ];
        FAIL_COMMIT_AT.with(|at| at.set(Some(2)));
        let failed = ws.apply_edits(&edits, false);
        FAIL_COMMIT_AT.with(|at| at.set(None));
        assert!(
            matches!(failed, Err(WorkspaceError::Io { ref path, .. }) if path == "notes.txt"),
            "{failed:?}"
        );
        let after: Vec<(String, String)> = paths
            .iter()
            .map(|p| (read(&fixture, p), version(&fixture, p)))
            .collect();
        assert_eq!(
            after, before,
            "the first two files were put back, the third untouched"
        );
        let names: Vec<String> = ["", "src"]
            .iter()
            .flat_map(|dir| std::fs::read_dir(fixture.root.join(dir)).expect("listed"))
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert!(!names.iter().any(|n| is_temp_name(n)), "{names:?}");
        // The same batch commits whole once nothing fails.
        ws.apply_edits(&edits, false).expect("applied");
        assert_eq!(read(&fixture, "notes.txt"), "two note\n");
    }

    fn file_edits(path: &str, version: &str, edits: &[(&str, &str)]) -> FileEdits {
        FileEdits {
            path: path.into(),
            version: version.into(),
            edits: edits.iter().map(|(old, new)| edit(old, new)).collect(),
        }
    }

    #[test]
    fn apply_edits_changes_every_file_or_none() {
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        let (readme, main) = (
            version(&fixture, "README.md"),
            version(&fixture, "src/main.rs"),
        );
        let before = (read(&fixture, "README.md"), read(&fixture, "src/main.rs"));

        // The second file's edit fails: the first file, though valid, is not written.
        let err = ws
            .apply_edits(
                &[
                    file_edits("README.md", &readme, &[("Demo", "Show")]),
                    file_edits("src/main.rs", &main, &[("absent", "x")]),
                ],
                false,
            )
            .expect_err("no match");
        assert_eq!(
            err,
            WorkspaceError::NoMatch {
                path: "src/main.rs".into(),
                index: 0
            }
        );
        // A stale version on the second file: the same.
        let err = ws
            .apply_edits(
                &[
                    file_edits("README.md", &readme, &[("Demo", "Show")]),
                    file_edits("src/main.rs", &readme, &[("hi", "x")]),
                ],
                false,
            )
            .expect_err("stale");
        assert!(
            matches!(err, WorkspaceError::StaleVersion { .. }),
            "{err:?}"
        );
        let err = ws
            .apply_edits(
                &[
                    file_edits("README.md", &readme, &[("Demo", "Show")]),
                    file_edits("./README.md", &readme, &[("main", "x")]),
                ],
                false,
            )
            .expect_err("listed twice");
        assert!(
            matches!(err, WorkspaceError::InvalidPath { ref reason, .. } if reason.contains("twice")),
            "{err:?}"
        );
        let dry = ws
            .apply_edits(
                &[
                    file_edits("README.md", &readme, &[("Demo", "Show")]),
                    file_edits("src/main.rs", &main, &[("hi", "bye")]),
                ],
                true,
            )
            .expect("dry run");
        assert!(dry.iter().all(|file| !file.applied));
        assert_eq!(dry[1].version, main);
        assert_eq!(
            (read(&fixture, "README.md"), read(&fixture, "src/main.rs")),
            before
        );
        assert_eq!(leftovers(&fixture.root), Vec::<String>::new());
        assert_eq!(leftovers(&fixture.host_path("src")), Vec::<String>::new());

        let done = ws
            .apply_edits(
                &[
                    file_edits("README.md", &readme, &[("Demo", "Show")]),
                    file_edits("src/main.rs", &main, &[("hi", "bye")]),
                ],
                false,
            )
            .expect("applied");
        assert_eq!(
            read(&fixture, "README.md"),
            "# Show\nfn main is documented here\n"
        );
        assert_eq!(
            read(&fixture, "src/main.rs"),
            "fn main() {\n    println!(\"bye\");\n}\n"
        );
        assert_eq!(done[0].diff, dry[0].diff);
        assert_eq!(done[1].version, version(&fixture, "src/main.rs"));
        assert!(done.iter().all(|file| file.applied));
    }

    #[cfg(unix)]
    #[test]
    fn a_batch_naming_one_file_by_two_spellings_is_refused_whole() {
        // `alias` leads to `src`, so `alias/main.rs` is `src/main.rs`: both plans would start
        // from the same text, and the second rename would discard the first file's edits.
        use std::os::unix::fs::symlink;
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        symlink("src", fixture.host_path("alias")).expect("link");
        let v = version(&fixture, "src/main.rs");
        let before = read(&fixture, "src/main.rs");
        let err = ws
            .apply_edits(
                &[
                    file_edits("src/main.rs", &v, &[("hi", "hello")]),
                    file_edits("alias/main.rs", &v, &[("fn main", "pub fn main")]),
                ],
                false,
            )
            .expect_err("one file, listed twice");
        assert!(
            matches!(err, WorkspaceError::InvalidPath { ref path, ref reason }
                if path == "alias/main.rs" && reason.contains("src/main.rs")),
            "{err:?}"
        );
        assert_eq!(read(&fixture, "src/main.rs"), before);
        assert_eq!(leftovers(&fixture.host_path("src")), Vec::<String>::new());
    }

    /// `lines` numbered lines of about forty bytes, each with `word` in it.
    fn numbered(lines: usize, word: &str) -> String {
        (0..lines)
            .map(|i| format!("line {i:>6} of the {word} text, padded out\n"))
            .collect()
    }

    #[test]
    fn a_diff_over_the_cap_is_cut_at_a_line_and_says_so() {
        let fixture = Fixture::new();
        let (old, new) = (numbered(10_000, "old"), numbered(10_000, "new"));
        fixture.write("big.txt", &old);
        let v = version(&fixture, "big.txt");
        let edited = fixture
            .workspace
            .edit_file("big.txt", &v, &[edit(&old, &new)], true)
            .expect("a dry run");
        let whole = unified_diff("big.txt", &old, &new);
        assert!(
            whole.len() > MAX_DIFF_BYTES,
            "the whole diff is over the cap"
        );
        assert!(edited.diff_truncated);
        assert!(edited.diff.len() <= MAX_DIFF_BYTES);
        assert!(
            edited.diff.len() > MAX_DIFF_BYTES - 100,
            "cut only as far as needed"
        );
        assert!(edited.diff.ends_with('\n') && whole.starts_with(&edited.diff));

        let small = fixture
            .workspace
            .edit_file(
                "README.md",
                &version(&fixture, "README.md"),
                &[edit("Demo", "Show")],
                true,
            )
            .expect("a dry run");
        assert!(!small.diff_truncated && small.diff.contains("+# Show"));
    }

    #[test]
    fn a_batch_shares_one_diff_budget_in_the_order_given() {
        let fixture = Fixture::new();
        let (old, new) = (numbered(2_000, "old"), numbered(2_000, "new"));
        let names = ["a.txt", "b.txt", "c.txt", "d.txt"];
        for name in names {
            fixture.write(name, &old);
        }
        let files: Vec<FileEdits> = names
            .iter()
            .map(|name| {
                file_edits(
                    name,
                    &version(&fixture, name),
                    &[(old.as_str(), new.as_str())],
                )
            })
            .collect();
        let done = fixture
            .workspace
            .apply_edits(&files, true)
            .expect("a dry run");
        let one = unified_diff("a.txt", &old, &new).len();
        assert!(
            one < MAX_DIFF_BYTES && 4 * one > MAX_DIFF_BYTES,
            "the fixture's premise"
        );
        let total: usize = done.iter().map(|file| file.diff.len()).sum();
        assert!(total <= MAX_DIFF_BYTES, "{total}");
        let cut: Vec<bool> = done.iter().map(|file| file.diff_truncated).collect();
        let whole = MAX_DIFF_BYTES / one;
        assert_eq!(cut, (0..4).map(|i| i >= whole).collect::<Vec<_>>());
        assert_eq!(done[0].diff.len(), one, "the first files' diffs come whole");
    }

    #[test]
    fn the_diff_of_a_large_rewrite_takes_bounded_time_and_stays_exact() {
        // Every line differs, the worst case of a line diff: without a deadline its time grows
        // with the square of the lines (15 s of a debug build for 12,000 lines, minutes for
        // these, hours for a 4 MiB file), all of it under the file's lock. The bound leaves
        // room for a loaded machine: this guards the complexity, it does not measure speed.
        let lines = 40_000;
        let old: String = (0..lines).map(|i| format!("old line {i}\n")).collect();
        let new: String = (0..lines).map(|i| format!("new line {i}\n")).collect();
        let started = std::time::Instant::now();
        let diff = unified_diff("big.txt", &old, &new);
        let took = started.elapsed();
        assert!(
            took < DIFF_TIMEOUT * 30,
            "the diff took {took:?}, over thirty times its {DIFF_TIMEOUT:?} deadline"
        );
        // Cut short or not, the diff is a correct one: every old line out, every new line in.
        let count = |prefix: &str| {
            diff.lines()
                .filter(|line| line.starts_with(prefix) && !line.starts_with("---"))
                .filter(|line| !line.starts_with("+++"))
                .count()
        };
        assert_eq!((count("-"), count("+")), (lines, lines));
    }
}
