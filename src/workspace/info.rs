//! Facts about one file or directory, without reading it.

use serde::{Deserialize, Serialize};

use crate::workspace::entry::entry_kind;
use crate::workspace::path::WorkspacePath;
use crate::workspace::sandbox::io_error;
use crate::workspace::timestamp::rfc3339_utc;
use crate::workspace::{EntryKind, Workspace, WorkspaceError};

/// What [`Workspace::file_info`] reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileInfo {
    /// The path relative to the workspace root, with `/` separators (`.` for the root).
    pub path: String,
    /// What the path leads to, after following symbolic links inside the workspace; so never
    /// [`EntryKind::Symlink`].
    pub kind: EntryKind,
    /// Whether the path itself is a symbolic link (one that stays inside the workspace, since
    /// others are refused).
    pub symlink: bool,
    /// The size in bytes; present for regular files only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// When the contents last changed, as an RFC 3339 timestamp in UTC to the second (such as
    /// `2024-05-01T12:34:56Z`); absent where the filesystem does not record it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Whether the permissions forbid writing, for everyone (on Unix: no write bit at all).
    pub read_only: bool,
    /// For a regular file, the lowercase hex SHA-256 of its bytes: the version `read_file`
    /// returns and the writes check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// For a regular file without NUL bytes, its line count as `read_file` counts lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u64>,
}

impl Workspace {
    /// Reports the kind, size, modification time and read-only flag of what `path`
    /// (workspace-relative) names, and for a regular file its version and line count.
    ///
    /// The version and the line count cost one streamed pass over the file, in memory bounded
    /// whatever its size (as a range read does). A special file is never opened.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::InvalidPath`] or [`WorkspaceError::OutsideRoot`] for a path that may not
    /// be used, [`WorkspaceError::NotFound`] when nothing is there, and [`WorkspaceError::Io`]
    /// when its metadata cannot be read.
    pub fn file_info(&self, path: &str) -> Result<FileInfo, WorkspaceError> {
        let target = WorkspacePath::parse(path)?;
        // Following links first means a link that leaves the workspace is refused before
        // anything about it is reported.
        let metadata = self.metadata(&target)?;
        let link = self
            .dir()
            .symlink_metadata(target.to_relative_path())
            .map_err(|err| io_error(&target, &err))?;
        let kind = entry_kind(metadata.file_type());
        let (version, total_lines) = if kind == EntryKind::File {
            let (version, lines) = self.fingerprint(&target)?;
            (Some(version), lines)
        } else {
            (None, None)
        };
        Ok(FileInfo {
            path: target.as_str().to_owned(),
            kind,
            symlink: link.file_type().is_symlink(),
            size: (kind == EntryKind::File).then(|| metadata.len()),
            modified: metadata
                .modified()
                .ok()
                .and_then(|time| rfc3339_utc(time.into_std())),
            read_only: metadata.permissions().readonly(),
            version,
            total_lines,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::testing::Fixture;
    use sha2::Digest as _;
    use std::time::{Duration, SystemTime};

    fn info(fixture: &Fixture, path: &str) -> FileInfo {
        match fixture.workspace.file_info(path) {
            Ok(info) => info,
            Err(err) => panic!("file_info `{path}` failed: {err}"),
        }
    }

    #[test]
    fn a_file_reports_its_kind_size_and_time() {
        let fixture = Fixture::new();
        let file = std::fs::File::options()
            .write(true)
            .open(fixture.host_path("README.md"))
            .expect("writable");
        let stamp = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        file.set_modified(stamp).expect("the time can be set");
        let readme = info(&fixture, "README.md");
        assert_eq!(
            readme,
            FileInfo {
                path: "README.md".into(),
                kind: EntryKind::File,
                symlink: false,
                size: Some(34),
                modified: Some("2023-11-14T22:13:20Z".into()),
                read_only: false,
                version: Some(
                    fixture
                        .workspace
                        .read_file("README.md", None, None)
                        .expect("read")
                        .version
                ),
                total_lines: Some(2),
            }
        );
    }

    #[test]
    fn a_files_version_and_line_count_are_those_a_read_gives() {
        let fixture = Fixture::new();
        for (name, content) in [
            ("no-ending.txt", "one\ntwo".as_bytes()),
            ("crlf.txt", b"a\r\nb\r\n".as_slice()),
            ("latin1.txt", b"caf\xe9\n".as_slice()),
        ] {
            fixture.write(name, content);
            let info = info(&fixture, name);
            assert_eq!(
                info.version.as_deref(),
                Some(format!("{:x}", sha2::Sha256::digest(content)).as_str()),
                "{name}"
            );
        }
        assert_eq!(info(&fixture, "no-ending.txt").total_lines, Some(2));
        assert_eq!(info(&fixture, "crlf.txt").total_lines, Some(2));
        assert_eq!(
            info(&fixture, "latin1.txt").total_lines,
            Some(1),
            "counted even though read_file refuses it"
        );
        assert_eq!(info(&fixture, "empty").total_lines, Some(0));
        let read = fixture
            .workspace
            .read_file("src/main.rs", None, None)
            .expect("read");
        let main = info(&fixture, "src/main.rs");
        assert_eq!(
            (main.version.as_deref(), main.total_lines),
            (Some(read.version.as_str()), Some(read.total_lines))
        );
    }

    #[test]
    fn a_binary_file_has_a_version_but_no_line_count() {
        let fixture = Fixture::new();
        fixture.write("data.bin", b"\x00\x01\n\x02".as_slice());
        let data = info(&fixture, "data.bin");
        assert_eq!(data.total_lines, None);
        assert_eq!(data.version.map(|v| v.len()), Some(64));
    }

    #[test]
    fn a_large_file_is_fingerprinted_in_chunks() {
        let fixture = Fixture::new();
        let text = "0123456789\n".repeat(50_000);
        fixture.write("large.txt", &text);
        let large = info(&fixture, "large.txt");
        assert_eq!(large.total_lines, Some(50_000));
        assert_eq!(
            large.version.as_deref(),
            Some(format!("{:x}", sha2::Sha256::digest(text.as_bytes())).as_str())
        );
    }

    #[test]
    fn a_directory_has_no_size() {
        let fixture = Fixture::new();
        let src = info(&fixture, "src");
        assert_eq!(
            (src.kind, src.size, src.symlink),
            (EntryKind::Directory, None, false)
        );
        assert_eq!((src.version, src.total_lines), (None, None));
        assert!(src.modified.is_some());
        assert_eq!(info(&fixture, "").path, ".");
    }

    #[test]
    fn a_read_only_file_says_so() {
        let fixture = Fixture::new();
        let host = fixture.host_path("src/main.rs");
        let mut permissions = std::fs::metadata(&host).expect("exists").permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&host, permissions).expect("permissions set");
        assert!(info(&fixture, "src/main.rs").read_only);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_inside_the_workspace_is_followed_and_flagged() {
        let fixture = Fixture::new();
        std::os::unix::fs::symlink("README.md", fixture.host_path("alias.md")).expect("a link");
        let alias = info(&fixture, "alias.md");
        assert_eq!(
            (alias.kind, alias.size, alias.symlink),
            (EntryKind::File, Some(34), true)
        );
    }

    #[test]
    fn a_missing_path_is_not_found() {
        let fixture = Fixture::new();
        let err = fixture
            .workspace
            .file_info("missing/file")
            .expect_err("missing");
        assert_eq!(
            err,
            WorkspaceError::NotFound {
                path: "missing/file".into()
            }
        );
    }

    #[test]
    fn info_serializes_with_optional_fields_left_out() {
        let fixture = Fixture::new();
        let json = serde_json::to_value(info(&fixture, "src")).expect("json");
        assert_eq!(json["kind"], "directory");
        assert!(json.get("size").is_none());
        assert!(json.get("version").is_none());
        assert!(json.get("total_lines").is_none());
        assert_eq!(json["read_only"], false);
    }
}
