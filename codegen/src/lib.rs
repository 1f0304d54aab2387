//! Contract-first MCP servers: `tools.yaml` in, a typed rmcp server out. This is the build
//! dependency; its partner at run time is the `mcp-contract` crate.
//!
//! A server's `build.rs` is one line:
//!
//! ```ignore
//! fn main() {
//!     mcp_contract_codegen::compile("tools.yaml");
//! }
//! ```
//!
//! It reads the manifest, checks every rule, and writes the Rust module the server includes
//! with `mcp_contract::include_contract!()`: the argument and output types, the error codes,
//! the `Tools` trait with one `async fn` per tool, and `server()`. An `integer` becomes the
//! narrowest Rust integer that holds both its `minimum` and `maximum` (`minimum: 1, maximum:
//! 50` is a `u8`; unsigned when `minimum` is 0 or more), and without both bounds a `u64`
//! (under `minimum: 0` or more) or an `i64`; `mcp-contract generate rust` shows the types. A manifest with errors
//! stops the build with every diagnostic at once, each as `tools.yaml:LINE:COL` with the line,
//! a caret and a `help:`, like rustc's. [`Builder`] also keeps a README tool table and a tool
//! reference current (and checks them in CI).
//!
//! Data flows one way: the manifest is read with a span on every node, decoded into its
//! shape, checked rule by rule into a validated [`Contract`], and emitted as what a server
//! ships: its wire JSON, its Rust module, its docs and its contract fixtures. The same engine
//! backs the `mcp-contract` command (`check`, `show`, `diff`, `generate`, `init`), so the two
//! can never disagree.
//!
//! Features (none is on by default, so a build script compiles neither): `diff`, the
//! contract comparison behind `mcp-contract diff`; `editor-schema`, `editor_schema()`, the
//! JSON Schema of `tools.yaml` for editors.
//!
//! The manifest format is described in `docs/manifest.md` of the repository, the design in
//! `docs/architecture.md`.

#![warn(missing_docs, unreachable_pub)]

mod diagnostic;
#[cfg(feature = "diff")]
pub mod diff;
#[cfg(feature = "editor-schema")]
mod editor_schema;
mod emit;
mod ident;
mod keyword;
mod manifest;
mod model;
mod portability;
#[cfg(feature = "diff")]
pub mod probe;
mod source;
mod validate;
mod write;
mod yaml;

use std::path::{Path, PathBuf};

pub use diagnostic::{Code, Diagnostic, Severity, render_all};
#[cfg(feature = "editor-schema")]
pub use editor_schema::{editor_schema, editor_schema_text};
pub use emit::docs::{MarkerError, TABLE_BEGIN, TABLE_END, splice};
pub use mcp_contract_spec::{GENERATED_FILE, Revision};
pub use model::{Client, Contract, Date, Profile, UnknownProfile};
pub use source::{Source, Span};

/// What a validated contract gives its users: the wire JSON, the Rust module, the documents
/// and the distribution files, each from its emitter. The model below knows none of them.
impl Contract {
    /// The `tools/list` result a client speaking `revision` receives.
    pub fn tools_list(&self, revision: Revision) -> serde_json::Value {
        emit::wire::tools_list(self, revision)
    }

    /// The Rust module the server includes, formatted and headed.
    pub fn rust_module(&self) -> String {
        emit::rust::generate(self)
    }

    /// The README tool table, as it goes between the table markers.
    pub fn readme_table(&self) -> String {
        emit::docs::readme_table(self)
    }

    /// The full tool reference (`docs/tools.md`).
    pub fn reference(&self) -> String {
        emit::docs::reference(self)
    }

    /// `past-removal`: each deprecated entry, or alias, whose `remove_after` is before
    /// `today`, as warnings (errors when `deny`). Loading does not judge windows, since its
    /// verdict would change with the calendar; the build and `mcp-contract check` ask this.
    pub fn past_removal(&self, today: Date, deny: bool) -> Vec<Diagnostic> {
        validate::past_removal(self, today, deny)
    }

    /// The portability lints of the profiles the manifest names (`server.profiles`) and of
    /// `profiles`: what the contract publishes that a known client refuses, cuts or misreads,
    /// each placed in the manifest. Warnings, or errors under the `strict` profile. Loading
    /// does not lint, since which clients matter is the caller's choice; the build asks for
    /// the manifest's profiles, `mcp-contract check --profile` for more.
    pub fn portability(&self, profiles: &[Profile]) -> Vec<Diagnostic> {
        portability::lint(self, profiles)
    }

    /// The files that publish the server, by file name, when the manifest has a
    /// `server.distribution` block: the MCP registry's `server.json`, the MCPB bundle's
    /// `manifest.json` and `clients.md` (ready client configurations). `crate_version` is
    /// the version when the manifest states none, as `serverInfo` publishes it.
    pub fn distribution_files(&self, crate_version: &str) -> Option<Vec<(&'static str, String)>> {
        use emit::distribution as files;
        let d = self.server.distribution.as_ref()?;
        let version = self.server.version.as_deref().unwrap_or(crate_version);
        Some(vec![
            ("server.json", files::server_json(self, d, version)),
            ("manifest.json", files::mcpb_manifest(self, d, version)),
            ("clients.md", files::clients(self, d)),
        ])
    }
}

/// A manifest that loaded: its contract and any warnings.
#[derive(Debug)]
pub struct Loaded {
    /// The validated contract.
    pub contract: Contract,
    /// Warnings, which do not stop the build.
    pub warnings: Vec<Diagnostic>,
}

/// Loads and validates a manifest text. On failure, every diagnostic found, errors and
/// warnings, sorted by position.
pub fn load(source: &Source) -> Result<Loaded, Vec<Diagnostic>> {
    if let Some(at) = source.invalid_utf8() {
        return Err(vec![
            Diagnostic::new(
                &diagnostic::codes::NOT_UTF_8,
                "the manifest is not UTF-8 text: the bytes here are not valid UTF-8",
                Span::new(at, at + '\u{fffd}'.len_utf8()),
            )
            .label("shown as \u{fffd}"),
        ]);
    }
    let mut diags = diagnostic::Diagnostics::default();
    let contract = yaml::parse(source, &mut diags).map(|root| {
        let manifest =
            manifest::decode(&root, &mut manifest::reader::Decoder { diags: &mut diags });
        validate::validate(&manifest, source, &mut diags)
    });
    match contract {
        Some(contract) if !diags.has_errors() => Ok(Loaded {
            contract,
            warnings: diags.into_sorted(),
        }),
        _ => Err(diags.into_sorted()),
    }
}

/// Why generation failed.
#[derive(Debug)]
pub enum Error {
    /// The manifest could not be read.
    Read {
        /// The manifest's path.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The manifest has errors; the rendered diagnostics.
    Invalid(String),
    /// A generated file could not be written.
    Write {
        /// The file's path.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The README's table markers are missing, doubled or out of order.
    Markers {
        /// The README's path.
        path: PathBuf,
        /// What is wrong with them.
        error: MarkerError,
    },
    /// [`Builder::distribution`] was asked for, but the manifest has no `server.distribution`.
    NoDistribution {
        /// The manifest's path.
        manifest: PathBuf,
    },
    /// Check mode: a generated document differs from what the manifest gives.
    Stale {
        /// The documents that are out of date.
        paths: Vec<PathBuf>,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Read { path, error } => write!(f, "cannot read `{}`: {error}", path.display()),
            Error::Invalid(rendered) => f.write_str(rendered),
            Error::Write { path, error } => write!(f, "cannot write `{}`: {error}", path.display()),
            Error::Markers { path, error } => write!(
                f,
                "cannot place the tool table in `{}`: {error}",
                path.display()
            ),
            Error::NoDistribution { manifest } => write!(
                f,
                "the build writes distribution files, but `{}` has no `server.distribution` \
                 block; add one (registry_name, description, author) or drop `.distribution(..)`",
                manifest.display()
            ),
            Error::Stale { paths } => {
                let list: Vec<String> =
                    paths.iter().map(|p| format!("`{}`", p.display())).collect();
                write!(
                    f,
                    "{} out of date with the manifest. Regenerate with `cargo build` \
                     (with neither `CI` nor `{CHECK_ENV}=1` set) and commit the result.",
                    if list.len() == 1 {
                        format!("{} is", list[0])
                    } else {
                        format!("{} are", list.join(", "))
                    }
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Set to `1` to check generated documents instead of writing them, as `CI` does.
pub const CHECK_ENV: &str = "MCP_CONTRACT_CHECK";

/// What happened to one generated document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentStatus {
    /// Rewritten with new content.
    Updated,
    /// Already current; not touched.
    Unchanged,
    /// Check mode: already current.
    Checked,
}

/// What one generation run produced.
#[derive(Debug)]
pub struct Generated {
    /// The validated contract.
    pub contract: Contract,
    /// The rendered warnings, empty when there are none.
    pub warnings: String,
    /// Where the Rust module was written.
    pub rust_path: PathBuf,
    /// Each generated document and what happened to it.
    pub documents: Vec<(PathBuf, DocumentStatus)>,
}

/// Configures and runs generation, typically from `build.rs`.
#[derive(Debug, Clone)]
pub struct Builder {
    manifest: PathBuf,
    out_dir: Option<PathBuf>,
    readme: Option<PathBuf>,
    docs: Option<PathBuf>,
    distribution: Option<PathBuf>,
    check: Option<bool>,
    today: Option<Date>,
    deny_past_removal: Option<bool>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            manifest: PathBuf::from("tools.yaml"),
            out_dir: None,
            readme: None,
            docs: None,
            distribution: None,
            check: None,
            today: None,
            deny_past_removal: None,
        }
    }
}

impl Builder {
    /// A builder for `tools.yaml` in the crate root, writing to `OUT_DIR`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses another manifest path, relative to the crate root.
    pub fn manifest(mut self, path: impl Into<PathBuf>) -> Self {
        self.manifest = path.into();
        self
    }

    /// Writes the generated Rust somewhere other than `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Keeps the tool table of this README current, between the `<!-- tools:begin -->` and
    /// `<!-- tools:end -->` lines the user places; nothing outside them is touched.
    pub fn readme(mut self, path: impl Into<PathBuf>) -> Self {
        self.readme = Some(path.into());
        self
    }

    /// Keeps the full tool reference at this path current.
    pub fn docs(mut self, path: impl Into<PathBuf>) -> Self {
        self.docs = Some(path.into());
        self
    }

    /// Keeps the files that publish the server current in the folder `dir`: the MCP
    /// registry's `server.json`, the MCPB bundle's `manifest.json` and `clients.md` (ready
    /// configurations for common clients), from the manifest's `server.distribution`.
    pub fn distribution(mut self, dir: impl Into<PathBuf>) -> Self {
        self.distribution = Some(dir.into());
        self
    }

    /// Forces check mode on or off. By default it is on when `CI` is set (and not `false`
    /// or `0`) or when `MCP_CONTRACT_CHECK=1`: documents are then compared, never written.
    pub fn check(mut self, check: bool) -> Self {
        self.check = Some(check);
        self
    }

    /// The day a deprecated entry's `remove_after` is compared with; today by the system
    /// clock (UTC) by default.
    pub fn today(mut self, today: Date) -> Self {
        self.today = Some(today);
        self
    }

    /// Whether an entry past its `remove_after` fails the build (`past-removal` as an
    /// error) instead of warning. By default it does in check mode: CI says when a window
    /// is over, a developer's build only warns.
    pub fn deny_past_removal(mut self, deny: bool) -> Self {
        self.deny_past_removal = Some(deny);
        self
    }

    fn checking(&self) -> bool {
        self.check.unwrap_or_else(|| {
            let set = |name: &str| {
                std::env::var(name).is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
            };
            set("CI") || std::env::var(CHECK_ENV).is_ok_and(|v| v == "1")
        })
    }

    /// Loads, validates and generates; returns rendered diagnostics on failure.
    pub fn generate(&self) -> Result<Generated, Error> {
        let bytes = std::fs::read(&self.manifest).map_err(|error| Error::Read {
            path: self.manifest.clone(),
            error,
        })?;
        let source = Source::from_bytes(display_name(&self.manifest), bytes)
            .with_dir(self.manifest.parent().unwrap_or(Path::new("")));
        let mut loaded =
            load(&source).map_err(|d| Error::Invalid(diagnostic::render_all(&d, &source)))?;
        let deny = self.deny_past_removal.unwrap_or_else(|| self.checking());
        let today = self.today.unwrap_or_else(Date::today);
        let late = loaded.contract.past_removal(today, deny);
        if deny && !late.is_empty() {
            return Err(Error::Invalid(diagnostic::render_all(&late, &source)));
        }
        loaded.warnings.extend(late);
        // The manifest's own profiles: warnings, or under `strict` errors that stop the build.
        loaded.warnings.extend(loaded.contract.portability(&[]));
        if loaded
            .warnings
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return Err(Error::Invalid(diagnostic::render_all(
                &loaded.warnings,
                &source,
            )));
        }
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("."));
        let rust_path = out_dir.join(GENERATED_FILE);
        let code = loaded.contract.rust_module();
        write::write_if_changed(&rust_path, &code).map_err(|error| Error::Write {
            path: rust_path.clone(),
            error,
        })?;
        let documents = self.documents(&loaded.contract)?;
        let warnings = if loaded.warnings.is_empty() {
            String::new()
        } else {
            diagnostic::render_all(&loaded.warnings, &source)
        };
        Ok(Generated {
            contract: loaded.contract,
            warnings,
            rust_path,
            documents,
        })
    }

    /// Renders the configured documents, then writes them, or in check mode compares them.
    fn documents(&self, contract: &Contract) -> Result<Vec<(PathBuf, DocumentStatus)>, Error> {
        let mut wanted: Vec<(PathBuf, String)> = Vec::new();
        if let Some(path) = &self.readme {
            let current = std::fs::read_to_string(path).map_err(|error| Error::Read {
                path: path.clone(),
                error,
            })?;
            let spliced =
                splice(&current, &contract.readme_table()).map_err(|error| Error::Markers {
                    path: path.clone(),
                    error,
                })?;
            wanted.push((path.clone(), spliced));
        }
        if let Some(path) = &self.docs {
            wanted.push((path.clone(), contract.reference()));
        }
        if let Some(dir) = &self.distribution {
            // In a build script cargo names the crate's version; `serverInfo` publishes it
            // when the manifest states none.
            let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
            let files =
                contract
                    .distribution_files(&version)
                    .ok_or_else(|| Error::NoDistribution {
                        manifest: self.manifest.clone(),
                    })?;
            wanted.extend(files.into_iter().map(|(name, text)| (dir.join(name), text)));
        }
        let checking = self.checking();
        let mut statuses = Vec::new();
        let mut stale = Vec::new();
        for (path, content) in wanted {
            if checking {
                let current = std::fs::read_to_string(&path).unwrap_or_default();
                if current == content {
                    statuses.push((path, DocumentStatus::Checked));
                } else {
                    stale.push(path);
                }
                continue;
            }
            let written =
                write::write_if_changed(&path, &content).map_err(|error| Error::Write {
                    path: path.clone(),
                    error,
                })?;
            let status = match written {
                write::Written::Updated => DocumentStatus::Updated,
                write::Written::Unchanged => DocumentStatus::Unchanged,
            };
            statuses.push((path, status));
        }
        if stale.is_empty() {
            Ok(statuses)
        } else {
            Err(Error::Stale { paths: stale })
        }
    }

    /// The build-script entry point: generates, tells cargo to rerun when a file it reads or
    /// checks changes, and on failure prints every diagnostic and stops the build.
    pub fn compile(&self) {
        println!("cargo::rerun-if-changed={}", self.manifest.display());
        for var in ["CI", CHECK_ENV] {
            println!("cargo::rerun-if-env-changed={var}");
        }
        match self.generate() {
            Ok(generated) => {
                // An embedded icon or app is part of the generated module: the build reruns
                // when one changes, as it does for the manifest.
                let embedded = generated.contract.icon_files().into_iter();
                for file in embedded.chain(generated.contract.app_files()) {
                    println!("cargo::rerun-if-changed={}", file.display());
                }
                // So is each JSON Schema document file it publishes.
                for file in &generated.contract.document_files {
                    println!("cargo::rerun-if-changed={}", file.display());
                }
                // In check mode so is each document it checked: a hand edit to one fails the
                // next build, even when nothing else changed. Written documents are not: a
                // trigger the build itself touches would rerun it once more after each write.
                if self.checking() {
                    for (file, _) in &generated.documents {
                        println!("cargo::rerun-if-changed={}", file.display());
                    }
                }
                for line in generated.warnings.lines().filter(|l| !l.is_empty()) {
                    println!("cargo::warning={line}");
                }
            }
            Err(error) => {
                eprintln!("{error}");
                let summary = match &error {
                    Error::Invalid(_) => format!(
                        "{} is not a valid contract; its diagnostics are in the build script's stderr below",
                        self.manifest.display()
                    ),
                    other => other.to_string(),
                };
                println!("cargo::error={summary}");
                std::process::exit(1);
            }
        }
    }
}

/// The one-line form of [`Builder::compile`] for a manifest at `path`.
pub fn compile(path: impl AsRef<Path>) {
    Builder::new().manifest(path.as_ref()).compile();
}

fn display_name(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}
