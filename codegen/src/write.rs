//! Writing generated files: atomically, and only when their content changed, so an
//! unchanged build touches nothing and recompiles nothing downstream.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What [`write_if_changed`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// The file did not exist or differed, and was replaced.
    Updated,
    /// The file already held exactly this content.
    Unchanged,
}

/// Writes `content` to `path` unless it already holds it. The new content goes to a
/// temporary file beside the target first and is renamed over it, so a reader never sees
/// half a file.
pub(crate) fn write_if_changed(path: &Path, content: &str) -> std::io::Result<Written> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(Written::Unchanged);
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let (tmp, mut file) = temporary_beside(path, dir)?;
    let written = keep_permissions(path, &file)
        .and_then(|()| file.write_all(content.as_bytes()))
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|()| Written::Updated)
}

/// A new file in `dir` named after `path`, this process and a counter: `create_new` refuses
/// one another writer holds, and the next name is tried.
fn temporary_beside(path: &Path, dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// A temporary file is private (0600); the generated file keeps the permissions of the file
/// it replaces, or gets those of an ordinary source file.
#[cfg(unix)]
fn keep_permissions(path: &Path, file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let permissions = std::fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o644));
    file.set_permissions(permissions)
}

#[cfg(not(unix))]
fn keep_permissions(_path: &Path, _file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unchanged_file_is_not_rewritten() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("out.rs");
        assert_eq!(
            write_if_changed(&path, "a").expect("written"),
            Written::Updated
        );
        let before = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .expect("mtime");
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(
            write_if_changed(&path, "a").expect("checked"),
            Written::Unchanged
        );
        let after = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .expect("mtime");
        assert_eq!(before, after, "an unchanged build touches nothing");
        assert_eq!(
            write_if_changed(&path, "b").expect("written"),
            Written::Updated
        );
        assert_eq!(std::fs::read_to_string(&path).expect("readable"), "b");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(left, ["out.rs"], "no temporary file is left beside it");
    }

    #[cfg(unix)]
    #[test]
    fn a_new_generated_file_is_world_readable() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("new.rs");
        write_if_changed(&path, "x").expect("written");
        let mode = std::fs::metadata(&path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o644);
    }
}
