//! The atomic-write protocol: new content is staged in a temporary file beside its target,
//! synced, and renamed (or, for a new file, hard-linked) over the target in one step, so a
//! reader sees the old file or the new one and a crash leaves the old one.
//!
//! The temporary files' names are part of the protocol: the readers (listings, trees, walks)
//! recognise them by [`is_temp_name`] and never report them.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::fs::{OpenOptions, Permissions};

use crate::workspace::path::WorkspacePath;
use crate::workspace::sandbox::io_error;
use crate::workspace::{Workspace, WorkspaceError};

/// How many temporary names to try before giving up; a clash needs a leftover file of the same
/// process id and counter, so more than one retry is already unlikely.
const TEMP_NAME_ATTEMPTS: u32 = 16;

/// Numbers the temporary files of this process, so concurrent writes never share one.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// How a temporary file's name starts; the rest is `{process id}-{counter}.tmp`.
const TEMP_PREFIX: &str = ".mcp-workspace-";

/// Whether `name` is the name of a write's temporary file, `.mcp-workspace-{pid}-{n}.tmp`.
///
/// Such a file exists only while a write is under way, or after a crash in the middle of one.
/// Listings, trees, searches and finds never report it: it holds either a copy of content that
/// is already in place or content that never was, and nothing should be built on it.
pub(crate) fn is_temp_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix(TEMP_PREFIX)
        .and_then(|rest| rest.strip_suffix(".tmp"))
    else {
        return false;
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    rest.split_once('-')
        .is_some_and(|(pid, number)| digits(pid) && digits(number))
}

impl Workspace {
    /// Puts `bytes` at `target` in one step: a temporary file beside it is written, given
    /// `permissions` (the replaced file's), synced, and renamed over `target`.
    pub(super) fn replace_atomically(
        &self,
        target: &WorkspacePath,
        bytes: &[u8],
        permissions: Option<Permissions>,
    ) -> Result<(), WorkspaceError> {
        let temp = self.stage(target, bytes, permissions)?;
        self.commit(&temp, target)
    }

    /// Writes `bytes` to a new temporary file beside `target`, with `permissions`, and syncs
    /// it; returns its path. Nothing visible at `target` changes yet.
    pub(super) fn stage(
        &self,
        target: &WorkspacePath,
        bytes: &[u8],
        permissions: Option<Permissions>,
    ) -> Result<WorkspacePath, WorkspaceError> {
        let parent = target.parent().unwrap_or_else(WorkspacePath::root);
        let (temp, mut file) = self.create_temp(&parent)?;
        let written = (|| {
            // Permissions first, so a private file's new content is never readable by others,
            // not even for the moment before the rename.
            if let Some(permissions) = permissions {
                file.set_permissions(permissions)?;
            }
            file.write_all(bytes)?;
            file.flush()?;
            file.sync_all()
        })();
        if let Err(err) = written {
            self.discard(std::slice::from_ref(&temp));
            return Err(io_error(target, &err));
        }
        Ok(temp)
    }

    /// Renames the staged file `temp` over `target`, the one step that makes the change
    /// visible; on failure the temporary file is removed.
    pub(super) fn commit(
        &self,
        temp: &WorkspacePath,
        target: &WorkspacePath,
    ) -> Result<(), WorkspaceError> {
        if let Err(err) = self.dir().rename(
            temp.to_relative_path(),
            self.dir(),
            target.to_relative_path(),
        ) {
            self.discard(std::slice::from_ref(temp));
            return Err(io_error(target, &err));
        }
        self.sync_parent(target);
        Ok(())
    }

    /// Puts the staged file `temp` at `target`, where nothing may exist: the temporary file is
    /// hard-linked there, which fails atomically if anything appeared at `target` since it was
    /// checked (another process's new file is never replaced), and then its temporary name is
    /// removed.
    ///
    /// On a filesystem without hard links this falls back to the rename, which has no such
    /// guarantee against other processes (this server's own writes are ordered by the lock).
    pub(super) fn commit_new(
        &self,
        temp: &WorkspacePath,
        target: &WorkspacePath,
    ) -> Result<(), WorkspaceError> {
        let (from, to) = (temp.to_relative_path(), target.to_relative_path());
        match self.dir().hard_link(&from, self.dir(), &to) {
            Ok(()) => {
                self.discard(std::slice::from_ref(temp));
                self.sync_parent(target);
                Ok(())
            }
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                self.discard(std::slice::from_ref(temp));
                Err(WorkspaceError::AlreadyExists {
                    path: target.as_str().to_owned(),
                })
            }
            Err(_) => self.commit(temp, target),
        }
    }

    /// Removes staged temporary files that will not be used. A failure leaves a stray file that
    /// a listing shows, which is better than failing a call whose outcome is already decided.
    pub(super) fn discard(&self, temps: &[WorkspacePath]) {
        for temp in temps {
            let _ = self.dir().remove_file(temp.to_relative_path());
        }
    }

    /// Creates a new, empty temporary file in `parent`, under a name no other write uses.
    fn create_temp(
        &self,
        parent: &WorkspacePath,
    ) -> Result<(WorkspacePath, cap_std::fs::File), WorkspaceError> {
        let mut options = OpenOptions::new();
        // `create_new` fails on anything already there, a symbolic link included, so the
        // temporary file is always a new file of ours.
        options.write(true).create_new(true);
        let mut last_error = None;
        for _ in 0..TEMP_NAME_ATTEMPTS {
            let number = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("{TEMP_PREFIX}{}-{number}.tmp", std::process::id());
            let temp = parent.join(&name);
            match self.dir().open_with(temp.to_relative_path(), &options) {
                Ok(file) => return Ok((temp, file)),
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last_error = Some(err),
                Err(err) => return Err(io_error(parent, &err)),
            }
        }
        let err = last_error.unwrap_or_else(|| io::Error::other("no temporary name was free"));
        Err(io_error(parent, &err))
    }

    /// Syncs the directory holding `path`, so a rename or removal in it survives a crash.
    ///
    /// Best effort: the data itself is already synced, and some filesystems cannot sync a
    /// directory; failing the write for that would report a change that did happen as failed.
    pub(super) fn sync_parent(&self, path: &WorkspacePath) {
        let parent = path.parent().unwrap_or_else(WorkspacePath::root);
        if let Ok(dir) = self.dir().open(parent.to_relative_path()) {
            let _ = dir.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::{Fixture, leftovers};

    #[test]
    fn temporary_names_are_recognised_exactly() {
        let fixture = Fixture::new();
        let (temp, _file) = fixture
            .workspace
            .create_temp(&WorkspacePath::root())
            .expect("a temporary file");
        assert!(is_temp_name(temp.name()), "{}", temp.name());
        for name in [".mcp-workspace-1-0.tmp", ".mcp-workspace-4242-17.tmp"] {
            assert!(is_temp_name(name), "{name}");
        }
        for name in [
            ".mcp-workspace-notes.tmp",
            ".mcp-workspace--1.tmp",
            ".mcp-workspace-1-.tmp",
            ".mcp-workspace-1-2.tmp.bak",
            "mcp-workspace-1-2.tmp",
            ".mcp-workspace-1-2-3.tmp",
            ".mcp-workspace-1-x.tmp",
        ] {
            assert!(!is_temp_name(name), "{name}");
        }
    }

    #[test]
    fn a_new_file_never_replaces_one_that_appeared_after_the_check() {
        // The moment between write_file's check and its commit, forced: another process
        // creates the file after the new content is staged.
        let fixture = Fixture::new();
        let ws = &fixture.workspace;
        let target = WorkspacePath::parse("src/new.rs").expect("valid");
        let temp = ws.stage(&target, b"ours\n", None).expect("staged");
        fixture.write("src/new.rs", "theirs\n");
        assert_eq!(
            ws.commit_new(&temp, &target),
            Err(WorkspaceError::AlreadyExists {
                path: "src/new.rs".into()
            })
        );
        let theirs = std::fs::read_to_string(fixture.host_path("src/new.rs")).expect("readable");
        assert_eq!(theirs, "theirs\n");
        assert_eq!(leftovers(&fixture.host_path("src")), Vec::<String>::new());
    }
}
