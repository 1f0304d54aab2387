//! Reading a text file, whole or a range of its lines, with a version that a later write can
//! check against.
//!
//! The file is streamed once: every byte goes into the SHA-256 that becomes the version and into
//! the line count, and only the requested lines are kept. So a range of a file far over
//! [`MAX_READ_BYTES`] can still be read, with the whole file's version and line count, in memory
//! bounded by the cap; time stays linear in the file's size.

use std::io::{self, Read};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::workspace::entry::entry_kind;
use crate::workspace::path::WorkspacePath;
use crate::workspace::sandbox::io_error;
use crate::workspace::{Workspace, WorkspaceError};

/// The most bytes [`Workspace::read_file`] returns: the largest file it reads whole, and the
/// largest text a line range may come to.
pub const MAX_READ_BYTES: u64 = 4 * 1024 * 1024;

/// The most bytes of content one [`Workspace::read_files`] call returns, all files together:
/// no more than one whole-file read.
pub const MAX_READ_FILES_BYTES: u64 = MAX_READ_BYTES;

/// The size of the chunks a file is streamed in.
const CHUNK_BYTES: usize = 64 * 1024;

// A file growing between `read_files` measuring it and reading it is a race no test can win
// from outside, so test builds can run a hook at that point.
#[cfg(test)]
type MeasureHook = Box<dyn FnMut(&str)>;

#[cfg(test)]
thread_local! {
    static AFTER_MEASURE: std::cell::RefCell<Option<MeasureHook>> =
        std::cell::RefCell::new(None);
}

/// Runs the test hook, if any, on the path just measured.
#[cfg(test)]
fn after_measure(path: &str) {
    AFTER_MEASURE.with(|hook| {
        if let Some(hook) = hook.borrow_mut().as_mut() {
            hook(path);
        }
    });
}

#[cfg(not(test))]
fn after_measure(_: &str) {}

/// The text of a file, or of a range of its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileContent {
    /// The file's path relative to the workspace root, with `/` separators.
    pub path: String,
    /// The requested lines, each with its line ending as in the file (`\n` or `\r\n`; the last
    /// line may have none).
    pub content: String,
    /// How many lines the whole file has: the count of `\n`, plus one if the last line has no
    /// ending. An empty file has 0.
    pub total_lines: u64,
    /// The first line returned, counting from 1; 0 when nothing is returned (an empty file).
    pub start_line: u64,
    /// The last line returned, inclusive; 0 when nothing is returned (an empty file).
    pub end_line: u64,
    /// The lowercase hex SHA-256 of the whole file's bytes, whatever range was returned; a write
    /// can pass it to be refused if the file has changed since.
    pub version: String,
}

impl Workspace {
    /// Reads the UTF-8 text file at `path` (workspace-relative): whole when neither line is
    /// given, else lines `start_line..=end_line`, counting from 1.
    ///
    /// - A missing `start_line` means the first line, a missing `end_line` the last; an
    ///   `end_line` past the last line is cut to it, so "the first 100 lines" works on any file.
    /// - A `start_line` past the last line, a line number of 0, or a `start_line` after the
    ///   `end_line` is a [`WorkspaceError::LineRange`] that gives the file's line count.
    /// - A whole read of a file over [`MAX_READ_BYTES`] is [`WorkspaceError::TooLarge`]; a range
    ///   may be read from a file of any size, as long as the range's own text stays within the
    ///   cap.
    /// - A file with a NUL byte anywhere (binary), or whose returned text is not UTF-8, is
    ///   [`WorkspaceError::NotText`].
    ///
    /// # Errors
    ///
    /// Those above; [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for a path
    /// that may not be used; [`WorkspaceError::NotFound`] or [`WorkspaceError::NotAFile`] when it
    /// names no regular file; and [`WorkspaceError::Io`] when reading fails.
    pub fn read_file(
        &self,
        path: &str,
        start_line: Option<u64>,
        end_line: Option<u64>,
    ) -> Result<FileContent, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        let shown = || target.as_str().to_owned();
        // Look before opening, to name what a special file is (a socket cannot be opened) and
        // to refuse a file too large before reading it; opening checks again.
        let metadata = self.metadata(&target)?;
        if !metadata.is_file() {
            return Err(WorkspaceError::NotAFile {
                path: shown(),
                kind: entry_kind(metadata.file_type()),
            });
        }
        let whole = start_line.is_none() && end_line.is_none();
        if whole && metadata.len() > MAX_READ_BYTES {
            return Err(WorkspaceError::TooLarge {
                path: shown(),
                size: metadata.len(),
                limit: MAX_READ_BYTES,
            });
        }

        let file = self.open_file(&target)?;
        let first = start_line.unwrap_or(1);
        let last = end_line.unwrap_or(u64::MAX);
        let scan = Scan::run(file, first..=last).map_err(|err| io_error(&target, &err))?;
        if scan.binary {
            return Err(WorkspaceError::NotText { path: shown() });
        }
        let total_lines = scan.total_lines;
        let range_error = |reason: String| WorkspaceError::LineRange {
            path: shown(),
            reason,
            total_lines,
        };

        if first == 0 || last == 0 {
            return Err(range_error(
                "lines count from 1, so there is no line 0".into(),
            ));
        }
        if first > last {
            return Err(range_error(format!(
                "start_line {first} is after end_line {last}"
            )));
        }
        if total_lines == 0 && start_line.is_none() {
            // Nothing to return, and nothing was asked for that is missing.
            return Ok(FileContent {
                path: shown(),
                content: String::new(),
                total_lines,
                start_line: 0,
                end_line: 0,
                version: scan.version,
            });
        }
        if first > total_lines {
            return Err(range_error(format!(
                "start_line {first} is past the last line"
            )));
        }
        let last = last.min(total_lines);
        if scan.overflowed {
            if whole {
                // The file grew past the cap after its size was checked.
                return Err(WorkspaceError::TooLarge {
                    path: shown(),
                    size: scan.total_bytes,
                    limit: MAX_READ_BYTES,
                });
            }
            return Err(range_error(format!(
                "lines {first}..={last} come to more than {MAX_READ_BYTES} bytes; ask for fewer \
                 lines"
            )));
        }
        let content = String::from_utf8(scan.content)
            .map_err(|_| WorkspaceError::NotText { path: shown() })?;
        Ok(FileContent {
            path: shown(),
            content,
            total_lines,
            start_line: first,
            end_line: last,
            version: scan.version,
        })
    }
}

impl Workspace {
    /// Reads several UTF-8 text files whole, each as by [`Workspace::read_file`], in the order
    /// given; one file's failure is its own result and does not stop the others.
    ///
    /// All files together return at most [`MAX_READ_FILES_BYTES`] of content: a file that would
    /// take the total past it is not read, and is [`WorkspaceError::OverBudget`], while the
    /// smaller files after it are still read.
    pub fn read_files(&self, paths: &[String]) -> Vec<Result<FileContent, WorkspaceError>> {
        let mut used: u64 = 0;
        paths
            .iter()
            .map(|path| {
                let over =
                    |target: &WorkspacePath, size: u64, used: u64| WorkspaceError::OverBudget {
                        path: target.as_str().to_owned(),
                        size,
                        used,
                        limit: MAX_READ_FILES_BYTES,
                    };
                let target = WorkspacePath::parse(path)?;
                // Refuse by size before reading; a file over the whole-read cap, or anything
                // that is not a file, gets `read_file`'s own error instead.
                let metadata = self.metadata(&target)?;
                let size = metadata.len();
                if metadata.is_file()
                    && size <= MAX_READ_BYTES
                    && used + size > MAX_READ_FILES_BYTES
                {
                    return Err(over(&target, size, used));
                }
                after_measure(target.as_str());
                let content = self.read_file(target.as_str(), None, None)?;
                // The file may have grown since it was measured.
                let read = content.content.len() as u64;
                if used + read > MAX_READ_FILES_BYTES {
                    return Err(over(&target, read, used));
                }
                used += read;
                Ok(content)
            })
            .collect()
    }

    /// The version (SHA-256) of the regular file at `target` and, unless it holds a NUL byte,
    /// its line count as [`Workspace::read_file`] counts lines; one pass over the file.
    pub(crate) fn fingerprint(
        &self,
        target: &WorkspacePath,
    ) -> Result<(String, Option<u64>), WorkspaceError> {
        let mut file = self.open_file(target)?;
        let mut hasher = Sha256::new();
        let mut buffer = vec![0; CHUNK_BYTES];
        let (mut endings, mut last_byte, mut binary) = (0_u64, None, false);
        loop {
            let read = match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(io_error(target, &err)),
            };
            let chunk = buffer.get(..read).unwrap_or_default();
            hasher.update(chunk);
            binary |= chunk.contains(&0);
            endings += chunk.iter().filter(|&&byte| byte == b'\n').count() as u64;
            last_byte = chunk.last().copied();
        }
        let lines = match last_byte {
            None => 0,
            Some(b'\n') => endings,
            Some(_) => endings + 1,
        };
        Ok((
            format!("{:x}", hasher.finalize()),
            (!binary).then_some(lines),
        ))
    }
}

/// What one pass over a file found.
struct Scan {
    /// The lowercase hex SHA-256 of every byte read.
    version: String,
    /// How many bytes were read.
    total_bytes: u64,
    /// How many lines the file has.
    total_lines: u64,
    /// The bytes of the lines in the requested range (empty once `overflowed`).
    content: Vec<u8>,
    /// Whether the requested lines came to more than [`MAX_READ_BYTES`].
    overflowed: bool,
    /// Whether a NUL byte was found; the pass stops there, leaving the other fields partial.
    binary: bool,
}

impl Scan {
    /// Reads `reader` to the end, keeping the lines numbered within `wanted` (counting from 1).
    fn run(mut reader: impl Read, wanted: std::ops::RangeInclusive<u64>) -> io::Result<Scan> {
        let content_limit = usize::try_from(MAX_READ_BYTES).unwrap_or(usize::MAX);
        let mut hasher = Sha256::new();
        let mut buffer = vec![0; CHUNK_BYTES];
        let mut scan = Scan {
            version: String::new(),
            total_bytes: 0,
            total_lines: 0,
            content: Vec::new(),
            overflowed: false,
            binary: false,
        };
        // The number of the line the next byte belongs to, and the last byte seen.
        let mut line: u64 = 1;
        let mut last_byte = None;
        loop {
            let read = match reader.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            let Some(chunk) = buffer.get(..read) else {
                return Err(io::Error::other(
                    "a read reported more bytes than its buffer holds",
                ));
            };
            // Git's test for binary content, applied to the whole file: text has no NUL bytes.
            if chunk.contains(&0) {
                scan.binary = true;
                return Ok(scan);
            }
            hasher.update(chunk);
            scan.total_bytes += read as u64;
            last_byte = chunk.last().copied();
            if line > *wanted.end() || scan.overflowed {
                // Past the range: only the count of lines is still needed.
                line += chunk.iter().filter(|&&byte| byte == b'\n').count() as u64;
                continue;
            }
            for piece in chunk.split_inclusive(|&byte| byte == b'\n') {
                if wanted.contains(&line) && !scan.overflowed {
                    if scan.content.len() + piece.len() > content_limit {
                        scan.overflowed = true;
                        scan.content = Vec::new();
                    } else {
                        scan.content.extend_from_slice(piece);
                    }
                }
                if piece.ends_with(b"\n") {
                    line += 1;
                }
            }
        }
        scan.total_lines = match last_byte {
            None => 0,
            Some(b'\n') => line - 1,
            Some(_) => line,
        };
        scan.version = format!("{:x}", hasher.finalize());
        Ok(scan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::EntryKind;
    use crate::workspace::testing::Fixture;

    /// The SHA-256 of `bytes`, computed in one call rather than streamed.
    fn sha256_hex(bytes: &[u8]) -> String {
        Sha256::digest(bytes)
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    fn read(fixture: &Fixture, path: &str, start: Option<u64>, end: Option<u64>) -> FileContent {
        match fixture.workspace.read_file(path, start, end) {
            Ok(content) => content,
            Err(err) => panic!("reading `{path}` failed: {err}"),
        }
    }

    fn range_error(
        fixture: &Fixture,
        path: &str,
        start: Option<u64>,
        end: Option<u64>,
    ) -> (String, u64) {
        match fixture.workspace.read_file(path, start, end) {
            Err(WorkspaceError::LineRange {
                reason,
                total_lines,
                ..
            }) => (reason, total_lines),
            other => panic!("expected a line range error, got {other:?}"),
        }
    }

    #[test]
    fn a_whole_file_comes_with_its_line_count_and_version() {
        let fixture = Fixture::new();
        let whole = read(&fixture, "src/main.rs", None, None);
        let bytes = std::fs::read(fixture.host_path("src/main.rs")).expect("readable");
        assert_eq!(
            whole,
            FileContent {
                path: "src/main.rs".into(),
                content: "fn main() {\n    println!(\"hi\");\n}\n".into(),
                total_lines: 3,
                start_line: 1,
                end_line: 3,
                version: sha256_hex(&bytes),
            }
        );
    }

    #[test]
    fn the_version_is_the_known_sha256_of_the_bytes() {
        let fixture = Fixture::new();
        fixture.write("abc.txt", "abc");
        let content = read(&fixture, "abc.txt", None, None);
        assert_eq!(
            content.version,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            (content.total_lines, content.start_line, content.end_line),
            (1, 1, 1)
        );
    }

    #[test]
    fn a_range_returns_its_lines_and_the_whole_files_version() {
        let fixture = Fixture::new();
        let whole = read(&fixture, "src/main.rs", None, None);
        let middle = read(&fixture, "src/main.rs", Some(2), Some(2));
        assert_eq!(middle.content, "    println!(\"hi\");\n");
        assert_eq!(
            (middle.start_line, middle.end_line, middle.total_lines),
            (2, 2, 3)
        );
        assert_eq!(middle.version, whole.version);

        let from_two = read(&fixture, "src/main.rs", Some(2), None);
        assert_eq!(from_two.content, "    println!(\"hi\");\n}\n");
        assert_eq!((from_two.start_line, from_two.end_line), (2, 3));
        let up_to_one = read(&fixture, "src/main.rs", None, Some(1));
        assert_eq!(up_to_one.content, "fn main() {\n");
        assert_eq!((up_to_one.start_line, up_to_one.end_line), (1, 1));
    }

    #[test]
    fn an_end_past_the_last_line_is_cut_to_it() {
        let fixture = Fixture::new();
        let content = read(&fixture, "src/main.rs", Some(3), Some(100));
        assert_eq!(content.content, "}\n");
        assert_eq!((content.start_line, content.end_line), (3, 3));
    }

    #[test]
    fn a_start_past_the_end_names_the_line_count() {
        let fixture = Fixture::new();
        let (reason, total) = range_error(&fixture, "src/main.rs", Some(9), None);
        assert_eq!(total, 3);
        assert!(
            reason.contains("start_line 9 is past the last line"),
            "{reason}"
        );
        let err = fixture
            .workspace
            .read_file("src/main.rs", Some(4), Some(5))
            .expect_err("past");
        assert!(err.to_string().contains("the file has 3 lines"), "{err}");
    }

    #[test]
    fn a_start_after_the_end_and_line_zero_are_refused() {
        let fixture = Fixture::new();
        let (reason, total) = range_error(&fixture, "src/main.rs", Some(3), Some(2));
        assert_eq!(reason, "start_line 3 is after end_line 2");
        assert_eq!(total, 3);
        let (reason, _) = range_error(&fixture, "src/main.rs", Some(0), None);
        assert!(reason.contains("no line 0"), "{reason}");
        let (reason, _) = range_error(&fixture, "src/main.rs", None, Some(0));
        assert!(reason.contains("no line 0"), "{reason}");
    }

    #[test]
    fn a_last_line_without_an_ending_still_counts() {
        let fixture = Fixture::new();
        fixture.write("two.txt", "one\r\ntwo");
        let whole = read(&fixture, "two.txt", None, None);
        assert_eq!((whole.total_lines, whole.end_line), (2, 2));
        assert_eq!(read(&fixture, "two.txt", Some(2), None).content, "two");
        assert_eq!(
            read(&fixture, "two.txt", Some(1), Some(1)).content,
            "one\r\n",
            "CRLF is kept"
        );
    }

    #[test]
    fn an_empty_file_has_no_lines() {
        let fixture = Fixture::new();
        let empty = read(&fixture, "empty", None, None);
        assert_eq!((empty.content.as_str(), empty.total_lines), ("", 0));
        assert_eq!((empty.start_line, empty.end_line), (0, 0));
        assert_eq!(empty.version, sha256_hex(b""));
        assert_eq!(read(&fixture, "empty", None, Some(50)).end_line, 0);
        let (_, total) = range_error(&fixture, "empty", Some(1), None);
        assert_eq!(total, 0);
    }

    #[test]
    fn multibyte_text_is_returned_intact() {
        let fixture = Fixture::new();
        fixture.write("greek.txt", "αβγ\nδέλτα\n");
        assert_eq!(
            read(&fixture, "greek.txt", Some(2), None).content,
            "δέλτα\n"
        );
    }

    #[test]
    fn binary_and_non_utf8_files_are_not_text() {
        let fixture = Fixture::new();
        fixture.write("nul.bin", b"text\0more\n".as_slice());
        fixture.write("latin1.txt", b"caf\xe9\n".as_slice());
        for (path, start) in [
            ("nul.bin", None),
            ("nul.bin", Some(1)),
            ("latin1.txt", None),
        ] {
            let err = fixture
                .workspace
                .read_file(path, start, None)
                .expect_err("not text");
            assert_eq!(err, WorkspaceError::NotText { path: path.into() });
        }
    }

    #[test]
    fn a_nul_byte_late_in_a_large_file_still_makes_it_binary() {
        let fixture = Fixture::new();
        let mut bytes = "line\n".repeat(40_000).into_bytes();
        bytes.push(0);
        fixture.write("late.bin", bytes);
        let err = fixture
            .workspace
            .read_file("late.bin", Some(1), Some(1))
            .expect_err("binary");
        assert_eq!(
            err,
            WorkspaceError::NotText {
                path: "late.bin".into()
            }
        );
    }

    #[test]
    fn a_file_over_the_cap_is_refused_whole_but_readable_by_range() {
        let fixture = Fixture::new();
        let line = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n";
        let lines = MAX_READ_BYTES as usize / line.len() + 10;
        let text = line.repeat(lines);
        fixture.write("big.txt", &text);
        let size = text.len() as u64;

        let err = fixture
            .workspace
            .read_file("big.txt", None, None)
            .expect_err("too large");
        assert_eq!(
            err,
            WorkspaceError::TooLarge {
                path: "big.txt".into(),
                size,
                limit: MAX_READ_BYTES
            }
        );
        assert!(err.to_string().contains("start_line and end_line"), "{err}");

        let tail = read(&fixture, "big.txt", Some(lines as u64 - 1), None);
        assert_eq!(tail.content, line.repeat(2));
        assert_eq!(tail.total_lines, lines as u64);
        assert_eq!(tail.version, sha256_hex(text.as_bytes()));

        let (reason, total) = range_error(&fixture, "big.txt", Some(1), None);
        assert!(reason.contains("ask for fewer lines"), "{reason}");
        assert_eq!(total, lines as u64);
    }

    #[test]
    fn directories_and_missing_files_are_refused() {
        let fixture = Fixture::new();
        let err = fixture
            .workspace
            .read_file("src", None, None)
            .expect_err("a directory");
        assert_eq!(
            err,
            WorkspaceError::NotAFile {
                path: "src".into(),
                kind: EntryKind::Directory
            }
        );
        let err = fixture
            .workspace
            .read_file(".", None, None)
            .expect_err("the root");
        assert_eq!(
            err,
            WorkspaceError::NotAFile {
                path: ".".into(),
                kind: EntryKind::Directory
            }
        );
        let err = fixture
            .workspace
            .read_file("nope.txt", None, None)
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "nope.txt".into()
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_special_file_is_refused_without_opening_it() {
        let fixture = Fixture::new();
        let _listener = std::os::unix::net::UnixListener::bind(fixture.host_path("socket"))
            .expect("a socket file");
        let err = fixture
            .workspace
            .read_file("socket", None, None)
            .expect_err("a socket");
        assert_eq!(
            err,
            WorkspaceError::NotAFile {
                path: "socket".into(),
                kind: EntryKind::Other
            }
        );
    }

    fn read_many(fixture: &Fixture, paths: &[&str]) -> Vec<Result<FileContent, WorkspaceError>> {
        let paths: Vec<String> = paths.iter().map(|&path| path.to_owned()).collect();
        fixture.workspace.read_files(&paths)
    }

    #[test]
    fn several_files_are_read_in_order_and_one_failure_stays_its_own() {
        let fixture = Fixture::new();
        fixture.write("latin1.txt", b"caf\xe9\n".as_slice());
        let results = read_many(
            &fixture,
            &[
                "src/main.rs",
                "missing.rs",
                "src",
                "../x",
                "latin1.txt",
                "./README.md",
            ],
        );
        assert_eq!(results.len(), 6);
        assert_eq!(
            results[0],
            Ok(read(&fixture, "src/main.rs", None, None)),
            "as read_file reads it, with its version"
        );
        assert_eq!(
            results[1],
            Err(WorkspaceError::NotFound {
                path: "missing.rs".into()
            })
        );
        assert!(
            matches!(results[2], Err(WorkspaceError::NotAFile { ref path, .. }) if path == "src"),
            "{:?}",
            results[2]
        );
        assert!(
            matches!(results[3], Err(WorkspaceError::InvalidPath { .. })),
            "{:?}",
            results[3]
        );
        assert_eq!(
            results[4],
            Err(WorkspaceError::NotText {
                path: "latin1.txt".into()
            })
        );
        let readme = results[5].as_ref().expect("read");
        assert_eq!(readme.path, "README.md");
        assert_eq!(readme.total_lines, 2);
    }

    #[test]
    fn files_past_the_total_limit_are_refused_and_smaller_ones_after_them_still_read() {
        let fixture = Fixture::new();
        let third = "x".repeat(usize::try_from(MAX_READ_FILES_BYTES / 3).expect("fits") + 1);
        for name in ["a.txt", "b.txt", "c.txt"] {
            fixture.write(name, &third);
        }
        let results = read_many(&fixture, &["a.txt", "b.txt", "c.txt", "README.md"]);
        assert!(results[0].is_ok() && results[1].is_ok());
        let size = third.len() as u64;
        assert_eq!(
            results[2],
            Err(WorkspaceError::OverBudget {
                path: "c.txt".into(),
                size,
                used: 2 * size,
                limit: MAX_READ_FILES_BYTES,
            })
        );
        let message = results[2].as_ref().expect_err("refused").to_string();
        assert!(
            message.contains("read it in a call of its own"),
            "{message}"
        );
        assert_eq!(
            results[3].as_ref().map(|content| content.total_lines),
            Ok(2),
            "a smaller file after it still fits"
        );
        let total: usize = results
            .iter()
            .filter_map(|result| result.as_ref().ok())
            .map(|content| content.content.len())
            .sum();
        assert!(total as u64 <= MAX_READ_FILES_BYTES);
    }

    #[test]
    fn a_file_that_grows_after_it_was_measured_is_charged_what_was_read() {
        let fixture = Fixture::new();
        let mib = 1024 * 1024;
        fixture.write("a.txt", "a".repeat(2 * mib));
        fixture.write("b.txt", "b".repeat(mib));
        let grown = fixture.host_path("b.txt");
        AFTER_MEASURE.with(|hook| {
            *hook.borrow_mut() = Some(Box::new(move |path| {
                if path == "b.txt" {
                    std::fs::write(&grown, "b".repeat(3 * mib)).expect("grow b.txt");
                }
            }));
        });
        let results = read_many(&fixture, &["a.txt", "b.txt", "README.md"]);
        AFTER_MEASURE.with(|hook| hook.borrow_mut().take());
        assert!(results[0].is_ok(), "{:?}", results[0].as_ref().err());
        assert_eq!(
            results[1],
            Err(WorkspaceError::OverBudget {
                path: "b.txt".into(),
                size: 3 * mib as u64,
                used: 2 * mib as u64,
                limit: MAX_READ_FILES_BYTES,
            }),
            "measured at 1 MiB, it fitted; read at 3 MiB, it does not"
        );
        assert!(results[2].is_ok(), "a smaller file after it still fits");
    }

    #[test]
    fn a_file_over_the_whole_read_cap_is_too_large_not_over_budget() {
        let fixture = Fixture::new();
        let big = "y".repeat(usize::try_from(MAX_READ_BYTES).expect("fits") + 1);
        fixture.write("big.txt", &big);
        let results = read_many(&fixture, &["big.txt", "README.md"]);
        assert!(
            matches!(results[0], Err(WorkspaceError::TooLarge { ref path, .. }) if path == "big.txt"),
            "{:?}",
            results[0]
        );
        assert!(results[1].is_ok());
    }

    #[test]
    fn read_results_serialize_as_plain_fields() {
        let fixture = Fixture::new();
        let json =
            serde_json::to_value(read(&fixture, "README.md", Some(1), Some(1))).expect("json");
        assert_eq!(json["content"], "# Demo\n");
        assert_eq!(json["total_lines"], 2);
        assert_eq!(json["start_line"], 1);
        assert_eq!(json["end_line"], 1);
        assert_eq!(json["path"], "README.md");
        assert_eq!(json["version"].as_str().map(str::len), Some(64));
    }
}
