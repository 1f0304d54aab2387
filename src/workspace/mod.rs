//! The workspace: one root directory and the read-only operations on the files under it,
//! sandboxed so that nothing outside the root can be reached.
//!
//! [`Workspace::open`] takes a capability for the root (a `cap_std::fs::Dir`), and every later
//! access resolves paths beneath it, so a path that leads outside, by `..`, an absolute path or
//! a symbolic link, fails in the capability checks rather than by string comparison. Paths still
//! get a cheap syntactic check first, so a caller gets a precise reason for the common mistakes.
//!
//! The operations are transport-free: they take plain arguments, return plain serializable
//! structs, and fail with one [`WorkspaceError`] whose messages are written for a model to read
//! and retry. Paths in and out are workspace-relative with `/` separators; no result or message
//! contains the root's host path.
//!
//! - [`Workspace::list_directory`]: the entries of a directory, optionally deeper and by glob.
//! - [`Workspace::read_file`]: a text file, whole or by lines, with its version (SHA-256).
//! - [`Workspace::search_text`]: matching lines under a directory, ripgrep-style.
//! - [`Workspace::file_info`]: the kind, size, time and read-only flag of one path.

mod error;
mod globs;
mod info;
mod listing;
mod path;
mod reading;
mod sandbox;
mod searching;
mod timestamp;

#[cfg(test)]
mod testing;

pub use error::WorkspaceError;
pub use info::FileInfo;
pub use listing::{
    DEFAULT_LIST_DEPTH, Entry, EntryKind, ListOptions, Listing, MAX_LIST_DEPTH, MAX_LIST_ENTRIES,
};
pub use path::{MAX_COMPONENT_BYTES, MAX_PATH_BYTES};
pub use reading::{FileContent, MAX_READ_BYTES};
pub use sandbox::Workspace;
pub use searching::{
    DEFAULT_MAX_RESULTS, MAX_LINE_CHARS, MAX_SEARCH_RESULTS, SearchMatch, SearchOptions,
    SearchResults,
};
