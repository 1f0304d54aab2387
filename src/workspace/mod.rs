//! The workspace: one root directory and the operations on the files under it,
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
//! contains the root's host path. What a tool's parameters declare, the default and the most
//! files, results or levels, the operations take from the generated contract
//! (`FindFilesArgs::MAX_LIMIT`, …), so `tools.yaml` states each limit once.
//!
//! - [`Workspace::list_directory`]: the entries of a directory, optionally deeper and by glob.
//! - [`Workspace::read_file`]: a text file, whole or by lines, with its version (SHA-256).
//! - [`Workspace::search_text`]: matching lines under a directory, ripgrep-style.
//! - [`Workspace::read_files`]: several text files at once, within one total size.
//! - [`Workspace::directory_tree`]: the tree below a directory, a few levels deep.
//! - [`Workspace::find_files`]: the files below a directory whose path matches a glob.
//! - [`Workspace::file_info`]: the kind, size, time, read-only flag, version and line count of
//!   one path.
//! - [`Workspace::write_file`]: create a file, or replace one whose version the caller read.
//! - [`Workspace::create_directory`]: a directory and its missing parents.
//! - [`Workspace::edit_file`]: exact, version-checked text replacements, with a unified diff.
//! - [`Workspace::apply_edits`]: the same over several files, all or nothing.
//! - [`Workspace::move_path`]: move or rename, never onto something that exists.
//! - [`Workspace::delete_path`]: a file, or a directory when asked for recursively.
//!
//! Writes are atomic (a synced temporary file renamed over the target) and ordered per path
//! (see `locks.rs`), so no write loses another's update; `writing.rs` says how.

mod atomic;
mod entry;
mod error;
mod finding;
mod globs;
mod info;
mod listing;
mod locks;
mod path;
mod reading;
mod sandbox;
mod searching;
mod timestamp;
mod tree;
mod walking;
mod writing;

#[cfg(test)]
mod testing;

pub use entry::EntryKind;
pub use error::WorkspaceError;
pub use finding::{DEFAULT_FIND_LIMIT, FindOptions, Found, FoundFile, MAX_FIND_LIMIT};
pub use info::FileInfo;
pub use listing::{
    DEFAULT_LIST_DEPTH, Entry, ListOptions, Listing, MAX_LIST_DEPTH, MAX_LIST_ENTRIES,
};
pub use path::{MAX_COMPONENT_BYTES, MAX_PATH_BYTES, canonical_path};
pub use reading::{FileContent, MAX_READ_BYTES, MAX_READ_FILES_BYTES};
pub use sandbox::Workspace;
pub use searching::{
    DEFAULT_MAX_RESULTS, MAX_LINE_CHARS, MAX_SEARCH_BYTES, MAX_SEARCH_RESULTS, SearchMatch,
    SearchOptions, SearchResults,
};
pub use tree::{
    DEFAULT_TREE_DEPTH, MAX_TREE_DEPTH, MAX_TREE_ENTRIES, Tree, TreeEntry, TreeOptions,
};
pub use walking::{MAX_VISITED_ENTRIES, Watch};
pub use writing::{Edit, Edited, FileEdits, MAX_DIFF_BYTES, MoveEnd, Written};
