//! What a path names, in the terms every result uses: a file, a directory, a symbolic link or
//! something else.

use serde::{Deserialize, Serialize};

/// What a path names: a file, a directory, a symbolic link or something else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link, reported as such wherever links are not followed.
    Symlink,
    /// Anything else: a pipe, a socket, a device.
    Other,
}

/// What a file type is, in the terms results use.
pub(crate) fn entry_kind(file_type: cap_std::fs::FileType) -> EntryKind {
    if file_type.is_symlink() {
        EntryKind::Symlink
    } else if file_type.is_dir() {
        EntryKind::Directory
    } else if file_type.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    }
}
