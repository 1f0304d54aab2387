//! Writing generated files: atomically, and only when their content changed, so an
//! unchanged build touches nothing and recompiles nothing downstream.

use std::io::Write as _;
use std::path::Path;

/// What [`write_if_changed`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The file did not exist or differed, and was replaced.
    Updated,
    /// The file already held exactly this content.
    Unchanged,
}

/// Writes `content` to `path` unless it already holds it. The new content goes to a
/// temporary file beside the target first and is renamed over it, so a reader never sees
/// half a file.
pub fn write_if_changed(path: &Path, content: &str) -> std::io::Result<Written> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(Written::Unchanged);
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    keep_permissions(path, tmp.as_file())?;
    tmp.write_all(content.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(Written::Updated)
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
