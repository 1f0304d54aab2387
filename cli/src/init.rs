//! `mcp-contract init`: a new server crate that builds and passes its tests at once.

use std::path::{Path, PathBuf};

use minijinja::{Environment, context};

use mcp_contract_codegen::{Source, load, splice};

/// Where the new crate takes mcp-contract from.
#[derive(Debug, Clone)]
pub enum Dependencies {
    /// crates.io, at this version requirement.
    Registry(String),
    /// A checkout of this repository (its `runtime/` and `codegen/` folders).
    Checkout(PathBuf),
}

/// Why a crate could not be scaffolded.
#[derive(Debug)]
pub enum ScaffoldError {
    /// The name cannot be a package and server name.
    BadName(String),
    /// The target folder exists and is not empty: nothing is overwritten.
    NotEmpty(PathBuf),
    /// A file could not be written.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScaffoldError::BadName(n) => write!(
                f,
                "`{n}` is not a valid crate name: use letters, digits, `-` and `_`, starting with a letter"
            ),
            ScaffoldError::NotEmpty(p) => write!(
                f,
                "`{}` exists and is not empty; choose a new folder",
                p.display()
            ),
            ScaffoldError::Io(p, e) => write!(f, "cannot write `{}`: {e}", p.display()),
        }
    }
}

impl std::error::Error for ScaffoldError {}

const TEMPLATES: [(&str, &str); 5] = [
    (
        "Cargo.toml",
        include_str!("../templates/init/Cargo.toml.j2"),
    ),
    (
        "tools.yaml",
        include_str!("../templates/init/tools.yaml.j2"),
    ),
    ("build.rs", include_str!("../templates/init/build.rs.j2")),
    ("src/main.rs", include_str!("../templates/init/main.rs.j2")),
    ("README.md", include_str!("../templates/init/README.md.j2")),
];

/// Writes a server crate named `name` into `dir`, with its README table, tool reference and
/// manifest schema already generated, so its first build (even in CI's check mode) passes.
/// Returns the files written.
pub fn scaffold(
    dir: &Path,
    name: &str,
    deps: &Dependencies,
) -> Result<Vec<PathBuf>, ScaffoldError> {
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err(ScaffoldError::BadName(name.to_owned()));
    }
    if std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(ScaffoldError::NotEmpty(dir.to_owned()));
    }
    let (runtime, runtime_testing, codegen) = match deps {
        Dependencies::Registry(version) => (
            format!("\"{version}\""),
            format!("{{ version = \"{version}\", features = [\"testing\"] }}"),
            format!("\"{version}\""),
        ),
        Dependencies::Checkout(root) => {
            let path = |sub: &str| root.join(sub).display().to_string().replace('\\', "/");
            (
                format!("{{ path = \"{}\" }}", path("runtime")),
                format!(
                    "{{ path = \"{}\", features = [\"testing\"] }}",
                    path("runtime")
                ),
                format!("{{ path = \"{}\" }}", path("codegen")),
            )
        }
    };
    let title = name.replace(['-', '_'], " ");
    let env = Environment::new();
    let ctx = context! { name, title, runtime, runtime_testing, codegen, schema_url => "tools.schema.json" };
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for (path, template) in TEMPLATES {
        let mut text = env
            .render_str(template, &ctx)
            .unwrap_or_else(|e| format!("# template error: {e}"));
        text.push('\n'); // minijinja drops a template's final newline
        files.push((dir.join(path), text));
    }
    // Generate what the first build would, so the crate is current from the start.
    let manifest = files
        .iter()
        .find(|(p, _)| p.ends_with("tools.yaml"))
        .map(|(_, t)| t.clone())
        .unwrap_or_default();
    if let Ok(loaded) = load(&Source::new("tools.yaml", manifest)) {
        if let Some((_, readme)) = files.iter_mut().find(|(p, _)| p.ends_with("README.md"))
            && let Ok(spliced) = splice(readme, &loaded.contract.readme_table())
        {
            *readme = spliced;
        }
        files.push((dir.join("docs/tools.md"), loaded.contract.reference()));
    }
    let schema = mcp_contract_codegen::editor_schema_text();
    files.push((dir.join("tools.schema.json"), schema));
    files.push((dir.join(".gitignore"), "/target\n".into()));
    for (path, text) in &files {
        write(path, text).map_err(|e| ScaffoldError::Io(path.clone(), e))?;
    }
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

/// Writes a new file, creating its folder.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}
