//! `mcp-contract init`: a new server crate that builds and passes its tests at once.

use std::path::{Path, PathBuf};

use minijinja::{Environment, context};

use mcp_contract_codegen::{Source, load, splice};

/// Where the new crate takes mcp-contract from.
#[derive(Debug, Clone)]
pub enum Dependencies {
    /// crates.io, at this version requirement.
    Registry(String),
    /// A checkout of this repository (its `runtime/` and `codegen/` folders), written as a
    /// path relative to the new crate so the crate can move with the checkout.
    Checkout(PathBuf),
    /// The repository at a git URL, at a revision (a commit, tag or branch) when given.
    Git {
        /// The repository's URL.
        url: String,
        /// The revision to build, `None` for the default branch.
        rev: Option<String>,
    },
}

/// What `init` wrote, and what the user should know about where it stands.
#[derive(Debug)]
pub struct Scaffolded {
    /// Every file written.
    pub files: Vec<PathBuf>,
    /// A Cargo workspace above the new crate, which it was made independent of.
    pub enclosing_workspace: Option<PathBuf>,
}

/// Why a crate could not be scaffolded.
#[derive(Debug)]
pub enum ScaffoldError {
    /// The name cannot be a package and server name.
    BadName(String),
    /// The target folder exists and is not empty: nothing is overwritten.
    NotEmpty(PathBuf),
    /// The checkout given to `--path` holds no mcp-contract crates.
    NotACheckout(PathBuf),
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
            ScaffoldError::NotACheckout(p) => write!(
                f,
                "`{}` is not a checkout of mcp-contract: it has no `runtime/Cargo.toml` and `codegen/Cargo.toml`",
                p.display()
            ),
            ScaffoldError::Io(p, e) => write!(f, "cannot write `{}`: {e}", p.display()),
        }
    }
}

impl std::error::Error for ScaffoldError {}

const TEMPLATES: [(&str, &str); 7] = [
    (
        "Cargo.toml",
        include_str!("../templates/init/Cargo.toml.j2"),
    ),
    (
        "tools.yaml",
        include_str!("../templates/init/tools.yaml.j2"),
    ),
    ("build.rs", include_str!("../templates/init/build.rs.j2")),
    ("src/lib.rs", include_str!("../templates/init/lib.rs.j2")),
    ("src/main.rs", include_str!("../templates/init/main.rs.j2")),
    (
        "tests/contract.rs",
        include_str!("../templates/init/contract.rs.j2"),
    ),
    ("README.md", include_str!("../templates/init/README.md.j2")),
];

/// Writes a server crate named `name` into `dir`, with its README table, tool reference and
/// manifest schema already generated, so its first build (even in CI's check mode) passes.
pub fn scaffold(dir: &Path, name: &str, deps: &Dependencies) -> Result<Scaffolded, ScaffoldError> {
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
    std::fs::create_dir_all(dir).map_err(|e| ScaffoldError::Io(dir.to_owned(), e))?;
    // Absolute but not canonical: a checkout reached through a link stays named by the link,
    // as the user wrote it.
    let here = std::path::absolute(dir).map_err(|e| ScaffoldError::Io(dir.to_owned(), e))?;
    let (runtime, codegen) = sources(&here, deps)?;
    let enclosing_workspace = enclosing_workspace(&here);
    let title = name.replace(['-', '_'], " ");
    let krate = name.replace('-', "_");
    let env = Environment::new();
    let ctx = context! {
        name, title, krate, runtime, codegen,
        standalone => enclosing_workspace.is_some(),
        schema_url => "tools.schema.json",
    };
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
    files.push((
        dir.join("tools.schema.json"),
        mcp_contract_codegen::editor_schema_text(),
    ));
    files.push((dir.join(".gitignore"), "/target\n".into()));
    for (path, text) in &files {
        write(path, text).map_err(|e| ScaffoldError::Io(path.clone(), e))?;
    }
    Ok(Scaffolded {
        files: files.into_iter().map(|(p, _)| p).collect(),
        enclosing_workspace,
    })
}

/// The TOML source of the runtime and of the generator for `deps`, from the crate at `here`.
fn sources(here: &Path, deps: &Dependencies) -> Result<(String, String), ScaffoldError> {
    Ok(match deps {
        Dependencies::Registry(version) => (
            format!("version = \"{version}\""),
            format!("version = \"{version}\""),
        ),
        Dependencies::Checkout(root) => {
            let root = std::path::absolute(root)
                .ok()
                .filter(|r| {
                    r.join("runtime/Cargo.toml").is_file() && r.join("codegen/Cargo.toml").is_file()
                })
                .ok_or_else(|| ScaffoldError::NotACheckout(root.clone()))?;
            let path = |sub: &str| {
                relative(here, &root.join(sub))
                    .display()
                    .to_string()
                    .replace('\\', "/")
            };
            (
                format!("path = \"{}\"", path("runtime")),
                format!("path = \"{}\"", path("codegen")),
            )
        }
        Dependencies::Git { url, rev } => {
            let source = match rev {
                Some(rev) => format!("git = \"{url}\", rev = \"{rev}\""),
                None => format!("git = \"{url}\""),
            };
            (source.clone(), source)
        }
    })
}

/// `to` as seen from `from`, both absolute: `../../mcp-contract/runtime`.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out: PathBuf =
        std::iter::repeat_n(std::path::Component::ParentDir, from.len() - common).collect();
    out.extend(&to[common..]);
    out
}

/// The nearest folder above `dir` whose `Cargo.toml` declares a workspace: cargo would take
/// the new crate for a member it does not list, and refuse to build it.
fn enclosing_workspace(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().skip(1).find_map(|up| {
        let manifest = up.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).ok()?;
        text.lines()
            .any(|l| l.trim() == "[workspace]")
            .then_some(manifest)
    })
}

/// Writes a new file, creating its folder.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}
