//! The one error type of the workspace operations.
//!
//! Every message is written for a model that reads it and retries: it names the workspace-relative
//! path or the pattern at fault, says what was wrong, and where it helps, what to do instead. No
//! message ever contains a host path: the variants only hold paths that the caller gave or that
//! were built relative to the workspace root, and I/O failures keep only the operating system's
//! own description, which names no path.

use std::fmt;

use crate::workspace::EntryKind;

/// The most characters of a caller's input (a path or a pattern) that an error repeats back.
///
/// An error echoes the input so the caller can see what was refused; a 64 KiB input need not be
/// echoed whole for that.
const ECHO_CHARS: usize = 200;

/// Why a workspace operation failed.
///
/// Each variant carries the fields its message needs, so a tool handler can map it onto a
/// published error code and fill that code's message from the same fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkspaceError {
    /// Nothing exists at the path.
    NotFound {
        /// The workspace-relative path that was looked up.
        path: String,
    },
    /// The path names something other than a directory where a directory is needed.
    NotADirectory {
        /// The workspace-relative path.
        path: String,
    },
    /// The path names a directory or a special file where a regular file is needed.
    NotAFile {
        /// The workspace-relative path.
        path: String,
        /// What the path names instead.
        kind: EntryKind,
    },
    /// The path was refused: it is absolute, climbs with `..`, holds a NUL byte or is too long
    /// (all found before the filesystem is touched), or it leads through a loop of symbolic
    /// links.
    InvalidPath {
        /// The path as the caller gave it, with control characters escaped and cut to 200
        /// characters.
        path: String,
        /// Why it was refused.
        reason: String,
    },
    /// The path resolves, through a symbolic link, to somewhere outside the workspace root.
    OutsideRoot {
        /// The workspace-relative path that was asked for.
        path: String,
    },
    /// The file is too large to return whole.
    TooLarge {
        /// The workspace-relative path.
        path: String,
        /// The file's size in bytes.
        size: u64,
        /// The largest size, in bytes, that is returned whole.
        limit: u64,
    },
    /// A file of a multi-file read was not read, because with it the call would return more
    /// than one call may.
    OverBudget {
        /// The workspace-relative path.
        path: String,
        /// The file's size in bytes.
        size: u64,
        /// How many bytes the files read before it came to.
        used: u64,
        /// The most bytes one call returns.
        limit: u64,
    },
    /// The file holds binary data or text that is not UTF-8.
    NotText {
        /// The workspace-relative path.
        path: String,
    },
    /// The requested line range does not fit the file.
    LineRange {
        /// The workspace-relative path.
        path: String,
        /// What is wrong with the range.
        reason: String,
        /// How many lines the file has, so the caller can ask again within them.
        total_lines: u64,
    },
    /// A glob or a regular expression does not compile, or a search query is empty.
    InvalidPattern {
        /// The pattern as the caller gave it, with control characters escaped and cut to 200
        /// characters.
        pattern: String,
        /// Why it does not compile.
        reason: String,
    },
    /// A write was given a version the file no longer has (or the file is gone): someone
    /// changed it since the caller read it, and writing would discard that change.
    StaleVersion {
        /// The workspace-relative path.
        path: String,
        /// What changed, such as "its version is now 3a4b…".
        reason: String,
    },
    /// Something already exists where a write would create something new.
    AlreadyExists {
        /// The workspace-relative path.
        path: String,
    },
    /// An edit's `old_text` occurs nowhere in the file (as the earlier edits left it).
    NoMatch {
        /// The workspace-relative path.
        path: String,
        /// The edit's position in the list, counting from 0.
        index: u64,
    },
    /// An edit's `old_text` occurs more than once, so which one to replace is unclear.
    AmbiguousMatch {
        /// The workspace-relative path.
        path: String,
        /// The edit's position in the list, counting from 0.
        index: u64,
        /// How many times it occurs (overlapping occurrences count).
        count: u64,
    },
    /// An edit cannot be applied whatever the file holds, such as one with an empty
    /// `old_text`.
    InvalidEdit {
        /// The workspace-relative path.
        path: String,
        /// The edit's position in the list, counting from 0.
        index: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// A directory was to be deleted without the caller saying that its contents go too.
    RecursiveRequired {
        /// The workspace-relative path.
        path: String,
    },
    /// The filesystem failed in a way none of the other variants describe, such as a permission
    /// error.
    Io {
        /// The workspace-relative path being accessed.
        path: String,
        /// The operating system's description of the failure.
        message: String,
    },
    /// The workspace root itself could not be opened (only from [`Workspace::open`]).
    ///
    /// This one is for the operator who starts the server, not for a model: no model sees it,
    /// since without a root there is no workspace to call.
    ///
    /// [`Workspace::open`]: crate::workspace::Workspace::open
    RootUnavailable {
        /// The operating system's description of the failure.
        reason: String,
    },
}

impl WorkspaceError {
    /// A refusal of `raw`, a path the caller gave, with the input made safe to repeat back.
    pub(crate) fn invalid_path(raw: &str, reason: impl Into<String>) -> Self {
        WorkspaceError::InvalidPath {
            path: echo(raw),
            reason: reason.into(),
        }
    }

    /// A refusal of `raw`, a pattern the caller gave, with the input made safe to repeat back.
    pub(crate) fn invalid_pattern(raw: &str, reason: impl Into<String>) -> Self {
        WorkspaceError::InvalidPattern {
            pattern: echo(raw),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkspaceError::NotFound { path } => write!(
                f,
                "nothing exists at `{path}`; list its parent directory to see what exists"
            ),
            WorkspaceError::NotADirectory { path } => write!(
                f,
                "`{path}` is a file, not a directory; read it, or list its parent directory"
            ),
            WorkspaceError::NotAFile {
                path,
                kind: EntryKind::Directory,
            } => write!(
                f,
                "`{path}` is a directory, not a file; list it to see the files in it"
            ),
            WorkspaceError::NotAFile { path, .. } => write!(
                f,
                "`{path}` is a special file (such as a pipe, socket or device), not a regular \
                 file; only regular files can be read"
            ),
            WorkspaceError::InvalidPath { path, reason } => write!(
                f,
                "`{path}` is not a valid workspace path: {reason}; pass a path relative to the \
                 workspace root, such as `src/main.rs`, or `.` for the root itself"
            ),
            WorkspaceError::OutsideRoot { path } => write!(
                f,
                "`{path}` leads outside the workspace through a symbolic link; only files inside \
                 the workspace root can be reached"
            ),
            WorkspaceError::TooLarge { path, size, limit } => write!(
                f,
                "`{path}` is {size} bytes, over the limit of {limit} bytes for reading a whole \
                 file; read a range of lines with start_line and end_line instead, or find the \
                 lines you need with a text search"
            ),
            WorkspaceError::OverBudget {
                path,
                size,
                used,
                limit,
            } => write!(
                f,
                "`{path}` was not read: it is {size} bytes, and the files read before it came to \
                 {used}, so together they would pass the limit of {limit} bytes for one call; \
                 read it in a call of its own"
            ),
            WorkspaceError::NotText { path } => write!(
                f,
                "`{path}` is not UTF-8 text (it holds binary data or uses another encoding); \
                 only text files can be read"
            ),
            WorkspaceError::LineRange {
                path,
                reason,
                total_lines: 0,
            } => write!(
                f,
                "the line range does not fit `{path}`: {reason}; the file is empty, so read it \
                 without start_line"
            ),
            WorkspaceError::LineRange {
                path,
                reason,
                total_lines,
            } => write!(
                f,
                "the line range does not fit `{path}`: {reason}; the file has {total_lines} \
                 lines, so pass start_line and end_line within 1..={total_lines}"
            ),
            WorkspaceError::InvalidPattern { pattern, reason } => {
                write!(f, "`{pattern}` is not a valid pattern: {reason}")
            }
            WorkspaceError::StaleVersion { path, reason } => write!(
                f,
                "`{path}` changed since it was read: {reason}; read it again and redo the change \
                 against its current content and version"
            ),
            WorkspaceError::AlreadyExists { path } => write!(
                f,
                "`{path}` already exists; choose another path, or, to replace a file, pass the \
                 version read from it"
            ),
            WorkspaceError::NoMatch { path, index } => write!(
                f,
                "edits[{index}].old_text matches nothing in `{path}`; copy it exactly from the \
                 file, whitespace and line endings included"
            ),
            WorkspaceError::AmbiguousMatch { path, index, count } => write!(
                f,
                "edits[{index}].old_text matches {count} places in `{path}`; include more of \
                 the surrounding text so that it matches exactly one"
            ),
            WorkspaceError::InvalidEdit {
                path,
                index,
                reason,
            } => write!(f, "edits[{index}] cannot be applied to `{path}`: {reason}"),
            WorkspaceError::RecursiveRequired { path } => write!(
                f,
                "`{path}` is a directory; deleting it and everything in it needs recursive: true"
            ),
            WorkspaceError::Io { path, message } => {
                write!(f, "accessing `{path}` failed: {message}")
            }
            WorkspaceError::RootUnavailable { reason } => {
                write!(f, "the workspace root cannot be opened: {reason}")
            }
        }
    }
}

impl std::error::Error for WorkspaceError {}

/// `raw` made safe to repeat inside an error message: control characters (a NUL byte, a newline)
/// are escaped so the message stays one readable line, and anything past [`ECHO_CHARS`]
/// characters is replaced by an ellipsis.
fn echo(raw: &str) -> String {
    let mut out = String::new();
    for (count, c) in raw.chars().enumerate() {
        if count == ECHO_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_escapes_control_characters_and_cuts_long_input() {
        assert_eq!(echo("a\0b\nc"), "a\\u{0}b\\nc");
        let echoed = echo(&"x".repeat(5000));
        assert_eq!(echoed.chars().count(), ECHO_CHARS + 1);
        assert!(echoed.ends_with('…'));
        assert_eq!(echo("src/main.rs"), "src/main.rs");
    }

    #[test]
    fn messages_name_the_path_the_numbers_and_what_to_do() {
        let err = WorkspaceError::LineRange {
            path: "src/lib.rs".into(),
            reason: "start_line 9 is past the last line".into(),
            total_lines: 3,
        };
        let text = err.to_string();
        assert!(text.contains("`src/lib.rs`"), "{text}");
        assert!(text.contains("has 3 lines"), "{text}");
        assert!(text.contains("1..=3"), "{text}");

        let err = WorkspaceError::TooLarge {
            path: "big.log".into(),
            size: 5_000_000,
            limit: 4_194_304,
        };
        let text = err.to_string();
        assert!(
            text.contains("5000000 bytes") && text.contains("4194304 bytes"),
            "{text}"
        );
        assert!(text.contains("start_line and end_line"), "{text}");

        let err = WorkspaceError::LineRange {
            path: "empty".into(),
            reason: "start_line 1 is past the last line".into(),
            total_lines: 0,
        };
        assert!(err.to_string().contains("the file is empty"), "{err}");

        let err = WorkspaceError::NotAFile {
            path: "src".into(),
            kind: EntryKind::Directory,
        };
        assert!(err.to_string().contains("is a directory"));
        let err = WorkspaceError::NotAFile {
            path: "fifo".into(),
            kind: EntryKind::Other,
        };
        assert!(err.to_string().contains("special file"));
    }

    #[test]
    fn refused_input_is_echoed_safely() {
        let err = WorkspaceError::invalid_path("a\0b", "it contains a NUL byte");
        assert_eq!(
            err,
            WorkspaceError::InvalidPath {
                path: "a\\u{0}b".into(),
                reason: "it contains a NUL byte".into()
            }
        );
        let err = WorkspaceError::invalid_pattern("(\n", "unclosed group");
        assert!(
            err.to_string()
                .starts_with("`(\\n` is not a valid pattern: unclosed group")
        );
    }
}
