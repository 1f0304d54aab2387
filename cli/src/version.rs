//! `diff --check-version`: the version a set of changes needs, held against the versions the
//! crate states before and after (its `Cargo.toml`, and the MCP registry's `server.json`
//! where the crate publishes one).

use std::path::{Path, PathBuf};

use mcp_contract_codegen::diff::Bump;
use semver::Version;

/// One file that states the server's version, on both sides.
#[derive(Debug)]
pub(crate) struct Stated {
    /// Where it is stated, as the user names it: a file, or a manifest's key.
    pub(crate) file: String,
    /// Its version on the old side.
    pub(crate) old: Version,
    /// Its version on the new side.
    pub(crate) new: Version,
}

/// The least version after `old` that a change calling for `bump` allows: below 1.0.0 a
/// breaking change moves the minor version (`0.3.1` → `0.4.0`), as Cargo reads versions.
pub(crate) fn least(old: &Version, bump: Bump) -> Version {
    let (major, minor, patch) = (old.major, old.minor, old.patch);
    match bump {
        Bump::None => old.clone(),
        Bump::Patch => Version::new(major, minor, patch + 1),
        Bump::Minor => Version::new(major, minor + 1, 0),
        Bump::Major if major == 0 => Version::new(0, minor + 1, 0),
        Bump::Major => Version::new(major + 1, 0, 0),
    }
}

/// The bump a breaking change calls for from `old`: `major`, or `minor` below 1.0.0.
pub(crate) fn word(old: &Version, bump: Bump) -> &'static str {
    match bump {
        Bump::Major if old.major == 0 => {
            "minor (below 1.0.0, a breaking change moves the minor version)"
        }
        other => other.as_str(),
    }
}

/// How a file is read on one side: from the working tree, or from a git revision.
pub(crate) type Reader<'a> = &'a dyn Fn(&Path) -> Result<Option<String>, String>;

/// The version a crate's `Cargo.toml` in `dir` states, following `version.workspace = true`
/// up to the workspace's root; `None` when there is no `Cargo.toml`.
pub(crate) fn cargo_version(
    dir: &Path,
    read: Reader<'_>,
) -> Result<Option<(PathBuf, Version)>, String> {
    let path = dir.join("Cargo.toml");
    let Some(text) = read(&path)? else {
        return Ok(None);
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e| format!("error: `{}` is not TOML: {e}", path.display()))?;
    let package = table.get("package").and_then(|p| p.get("version"));
    let version = match package {
        Some(toml::Value::String(v)) => v.clone(),
        Some(toml::Value::Table(t))
            if t.get("workspace").and_then(toml::Value::as_bool) == Some(true) =>
        {
            return workspace_version(dir, read);
        }
        _ => match table
            .get("workspace")
            .and_then(|w| w.get("package")?.get("version")?.as_str())
        {
            Some(v) => v.to_owned(),
            None => return Err(format!("error: `{}` states no version", path.display())),
        },
    };
    parse(&path, &version).map(|v| Some((path, v)))
}

/// The `workspace.package.version` of the nearest workspace above `dir`.
fn workspace_version(dir: &Path, read: Reader<'_>) -> Result<Option<(PathBuf, Version)>, String> {
    for parent in dir.ancestors().skip(1) {
        let path = parent.join("Cargo.toml");
        let Some(text) = read(&path)? else { continue };
        let table: toml::Table = text
            .parse()
            .map_err(|e| format!("error: `{}` is not TOML: {e}", path.display()))?;
        if let Some(v) = table
            .get("workspace")
            .and_then(|w| w.get("package")?.get("version")?.as_str())
        {
            return parse(&path, v).map(|v| Some((path, v)));
        }
    }
    Err(format!(
        "error: `{}` takes its version from a workspace that states none",
        dir.join("Cargo.toml").display()
    ))
}

/// The `version` of the MCP registry's `server.json` in `dist/` beside the manifest.
pub(crate) fn server_json_version(
    dir: &Path,
    read: Reader<'_>,
) -> Result<Option<(PathBuf, Version)>, String> {
    let path = dir.join("dist").join("server.json");
    let Some(text) = read(&path)? else {
        return Ok(None);
    };
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("error: `{}` is not JSON: {e}", path.display()))?;
    match json.get("version").and_then(serde_json::Value::as_str) {
        Some(v) => parse(&path, v).map(|v| Some((path, v))),
        None => Err(format!("error: `{}` states no version", path.display())),
    }
}

/// The `server.version` a manifest states, against the version clients saw before: the old
/// manifest's `server.version`, or the crate's when it stated none.
pub(crate) fn published(
    manifest: &str,
    old: Option<&str>,
    crate_old: Option<&Version>,
    new: &str,
) -> Result<Stated, String> {
    let label = format!("{manifest}` `server.version");
    let at = &PathBuf::from(&label);
    let old = match (old, crate_old) {
        (Some(text), _) => parse(at, text)?,
        (None, Some(v)) => v.clone(),
        (None, None) => parse(at, new)?,
    };
    Ok(Stated {
        file: label,
        old,
        new: parse(at, new)?,
    })
}

fn parse(path: &Path, text: &str) -> Result<Version, String> {
    Version::parse(text).map_err(|e| {
        format!(
            "error: `{}` states the version `{text}`, which is not semantic: {e}",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_version_follows_cargo_s_reading_below_one() {
        let v = |s| Version::parse(s).unwrap();
        assert_eq!(least(&v("1.4.2"), Bump::Major), v("2.0.0"));
        assert_eq!(least(&v("1.4.2"), Bump::Minor), v("1.5.0"));
        assert_eq!(least(&v("1.4.2"), Bump::Patch), v("1.4.3"));
        assert_eq!(least(&v("1.4.2"), Bump::None), v("1.4.2"));
        assert_eq!(least(&v("0.3.1"), Bump::Major), v("0.4.0"));
        assert_eq!(least(&v("0.3.1"), Bump::Minor), v("0.4.0"));
        assert!(v("2.0.0-rc.1") < least(&v("1.4.2"), Bump::Major));
    }
}
