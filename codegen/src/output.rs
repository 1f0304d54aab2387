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
    tmp.write_all(content.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(Written::Updated)
}
