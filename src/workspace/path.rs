//! Workspace-relative paths: checking what a caller passes before the filesystem is touched.
//!
//! The sandbox `Dir` already refuses to leave the root, so these checks are not what keeps the
//! root safe; they exist to refuse bad input early with a reason the caller can act on ("`..` is
//! refused") rather than a bare "permission denied", and to give every result one canonical
//! spelling of each path.

use std::path::{Component, Path, PathBuf};

use crate::workspace::WorkspaceError;

/// The longest path, in bytes, that a caller may pass (Linux's `PATH_MAX`).
pub const MAX_PATH_BYTES: usize = 4096;

/// The longest single path component, in bytes, that a caller may pass (`NAME_MAX` on common
/// filesystems).
pub const MAX_COMPONENT_BYTES: usize = 255;

/// The canonical spelling of `raw` (`./a//b/` is `a/b`, `` is `.`), or `None` if it is not a
/// valid workspace path.
pub fn canonical_path(raw: &str) -> Option<String> {
    WorkspacePath::parse(raw)
        .ok()
        .map(|path| path.as_str().to_owned())
}

/// A checked path relative to the workspace root: no root or prefix, no `..`, no `.`, no empty
/// components, and within the length limits.
///
/// It is spelled with `/` separators whatever the host, and the root itself is the empty path,
/// which displays as `.`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WorkspacePath {
    /// The components joined with `/`; empty for the root.
    joined: String,
}

impl WorkspacePath {
    /// The workspace root.
    pub(crate) fn root() -> Self {
        WorkspacePath {
            joined: String::new(),
        }
    }

    /// Checks a path a caller passed. `""` and `"."` name the root; `./a//b/` is `a/b`.
    pub(crate) fn parse(raw: &str) -> Result<Self, WorkspaceError> {
        if raw.contains('\0') {
            return Err(WorkspaceError::invalid_path(raw, "it contains a NUL byte"));
        }
        if raw.len() > MAX_PATH_BYTES {
            return Err(WorkspaceError::invalid_path(
                raw,
                format!(
                    "it is {} bytes long, over the limit of {MAX_PATH_BYTES} bytes",
                    raw.len()
                ),
            ));
        }
        let mut path = WorkspacePath::root();
        // `Path::components` knows the host's separators and prefixes, so `C:\x` and `\\server`
        // are caught on Windows as well as `/x` everywhere.
        for component in Path::new(raw).components() {
            match component {
                Component::Prefix(_) | Component::RootDir => {
                    return Err(WorkspaceError::invalid_path(
                        raw,
                        "absolute paths are refused, since every path is relative to the \
                         workspace root",
                    ));
                }
                Component::ParentDir => {
                    return Err(WorkspaceError::invalid_path(
                        raw,
                        "`..` is refused, since a path may not climb out of a directory",
                    ));
                }
                Component::CurDir => {}
                Component::Normal(name) => {
                    // The input is a `&str`, so each of its components is valid UTF-8 too and
                    // the conversion is lossless.
                    let name = name.to_string_lossy();
                    if name.len() > MAX_COMPONENT_BYTES {
                        return Err(WorkspaceError::invalid_path(
                            raw,
                            format!(
                                "one of its names is {} bytes long, over the limit of \
                                 {MAX_COMPONENT_BYTES} bytes",
                                name.len()
                            ),
                        ));
                    }
                    path = path.join(&name);
                }
            }
        }
        Ok(path)
    }

    /// The workspace-relative path of what the search walker found at `host_path`, given that
    /// the walk runs below `walk_root`; `None` if `host_path` is not below it.
    ///
    /// Names that are not UTF-8 are converted lossily: the result still reports the file, though
    /// such a name cannot be passed back to open it.
    pub(crate) fn from_host(walk_root: &Path, host_path: &Path) -> Option<Self> {
        let relative = host_path.strip_prefix(walk_root).ok()?;
        let mut path = WorkspacePath::root();
        for component in relative.components() {
            match component {
                Component::Normal(name) => path = path.join(&name.to_string_lossy()),
                Component::CurDir => {}
                // A walker below `walk_root` never yields these; refuse rather than guess.
                Component::Prefix(_) | Component::RootDir | Component::ParentDir => return None,
            }
        }
        Some(path)
    }

    /// This path with the name `name` appended.
    pub(crate) fn join(&self, name: &str) -> Self {
        if self.joined.is_empty() {
            WorkspacePath {
                joined: name.to_owned(),
            }
        } else {
            WorkspacePath {
                joined: format!("{}/{name}", self.joined),
            }
        }
    }

    /// Whether this is the workspace root.
    pub(crate) fn is_root(&self) -> bool {
        self.joined.is_empty()
    }

    /// The path as results report it: `a/b`, or `.` for the root.
    pub(crate) fn as_str(&self) -> &str {
        if self.joined.is_empty() {
            "."
        } else {
            &self.joined
        }
    }

    /// The last component, or `.` for the root.
    pub(crate) fn name(&self) -> &str {
        let path = self.as_str();
        path.rsplit_once('/').map_or(path, |(_, name)| name)
    }

    /// The directories above this path, from the root down: for `a/b/c` they are the root, `a`
    /// and `a/b`. The root has none.
    pub(crate) fn ancestors(&self) -> Vec<WorkspacePath> {
        let mut ancestors = Vec::new();
        let mut current = WorkspacePath::root();
        let mut names = self
            .joined
            .split('/')
            .filter(|name| !name.is_empty())
            .peekable();
        while let Some(name) = names.next() {
            if names.peek().is_none() {
                break;
            }
            let next = current.join(name);
            ancestors.push(current);
            current = next;
        }
        if !self.is_root() {
            ancestors.push(current);
        }
        ancestors
    }

    /// The directory that holds this path; `None` for the root.
    pub(crate) fn parent(&self) -> Option<Self> {
        self.ancestors().pop()
    }

    /// Whether this path is `other` or lies beneath it.
    pub(crate) fn is_within(&self, other: &WorkspacePath) -> bool {
        other.is_root()
            || self == other
            || self
                .joined
                .strip_prefix(&other.joined)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// This path relative to `base`, which it lies within: `src/a/b.rs` relative to `src` is
    /// `a/b.rs`; the path relative to itself, or to the root, is its own workspace path.
    pub(crate) fn relative_to(&self, base: &WorkspacePath) -> &str {
        if base.is_root() {
            return self.as_str();
        }
        self.joined
            .strip_prefix(&base.joined)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(self.as_str())
    }

    /// The path to hand to the sandbox `Dir`: relative, `.` for the root.
    pub(crate) fn to_relative_path(&self) -> PathBuf {
        PathBuf::from(self.as_str())
    }

    /// This path below `base` on the host, for the search walker (the root is `base` itself).
    pub(crate) fn under(&self, base: &Path) -> PathBuf {
        if self.is_root() {
            base.to_path_buf()
        } else {
            base.join(&self.joined)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(raw: &str) -> String {
        match WorkspacePath::parse(raw) {
            Ok(path) => path.as_str().to_owned(),
            Err(err) => panic!("`{raw}` was refused: {err}"),
        }
    }

    fn refusal(raw: &str) -> String {
        match WorkspacePath::parse(raw) {
            Ok(path) => panic!("`{raw}` was accepted as `{}`", path.as_str()),
            Err(WorkspaceError::InvalidPath { reason, .. }) => reason,
            Err(other) => panic!("`{raw}` gave {other:?}"),
        }
    }

    #[test]
    fn the_root_has_several_spellings() {
        for raw in ["", ".", "./", ".//.", "./."] {
            assert_eq!(parsed(raw), ".", "{raw:?}");
            assert!(
                WorkspacePath::parse(raw).is_ok_and(|path| path.is_root()),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn paths_are_normalised_to_slash_separated_names() {
        assert_eq!(parsed("src/main.rs"), "src/main.rs");
        assert_eq!(parsed("./src//nested/./lib.rs/"), "src/nested/lib.rs");
        assert_eq!(parsed(".hidden"), ".hidden");
        assert_eq!(parsed("..."), "...", "three dots is a name, not a parent");
    }

    #[test]
    fn absolute_and_climbing_paths_are_refused() {
        assert!(refusal("/etc/passwd").contains("absolute"));
        assert!(refusal("/").contains("absolute"));
        assert!(refusal("..").contains("`..`"));
        assert!(refusal("../secret.txt").contains("`..`"));
        assert!(refusal("src/../../secret.txt").contains("`..`"));
        assert!(
            refusal("src/..").contains("`..`"),
            "even a `..` that would stay inside"
        );
    }

    #[test]
    fn nul_bytes_and_overlong_paths_are_refused() {
        assert!(refusal("a\0b").contains("NUL"));
        let long_name = "n".repeat(MAX_COMPONENT_BYTES + 1);
        assert!(refusal(&long_name).contains("256 bytes"));
        assert_eq!(
            parsed(&"n".repeat(MAX_COMPONENT_BYTES)).len(),
            MAX_COMPONENT_BYTES
        );
        let long_path = vec!["d"; MAX_PATH_BYTES / 2 + 1].join("/");
        assert!(refusal(&long_path).contains("over the limit of 4096 bytes"));
    }

    #[test]
    fn ancestors_run_from_the_root_down() {
        let as_strs = |path: &str| -> Vec<String> {
            let path = WorkspacePath::parse(path).expect("valid");
            path.ancestors()
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect()
        };
        assert_eq!(as_strs("a/b/c"), [".", "a", "a/b"]);
        assert_eq!(as_strs("a"), ["."]);
        assert!(as_strs(".").is_empty());
    }

    #[test]
    fn names_are_the_last_component() {
        assert_eq!(WorkspacePath::parse("a/b/c").expect("valid").name(), "c");
        assert_eq!(WorkspacePath::parse("c").expect("valid").name(), "c");
        assert_eq!(WorkspacePath::root().name(), ".");
    }

    #[test]
    fn paths_relative_to_a_directory_they_lie_within() {
        let path = WorkspacePath::parse("src/a/b.rs").expect("valid");
        let base = |raw: &str| WorkspacePath::parse(raw).expect("valid");
        assert_eq!(path.relative_to(&base("src")), "a/b.rs");
        assert_eq!(path.relative_to(&base("src/a")), "b.rs");
        assert_eq!(path.relative_to(&WorkspacePath::root()), "src/a/b.rs");
        assert_eq!(
            path.relative_to(&base("sr")),
            "src/a/b.rs",
            "a prefix of a name is not a directory"
        );
    }

    #[test]
    fn host_paths_below_the_walk_root_become_workspace_paths() {
        let base = Path::new("/w/root");
        let path = WorkspacePath::from_host(base, Path::new("/w/root/src/a.rs"));
        assert_eq!(
            path.map(|p| p.as_str().to_owned()),
            Some("src/a.rs".to_owned())
        );
        assert_eq!(WorkspacePath::from_host(base, Path::new("/w/other")), None);
        assert_eq!(
            WorkspacePath::parse("src").expect("valid").under(base),
            base.join("src")
        );
        assert_eq!(WorkspacePath::root().under(base), base);
    }
}
