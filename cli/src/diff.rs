//! `diff`: every change between two contracts, classified as breaking or compatible by the
//! diff engine, between two manifests, a manifest and its version at a git revision, or a
//! manifest and what a running server publishes.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use mcp_contract_codegen::diff::{self as engine, Report};
use mcp_contract_codegen::{Date, Source};

use crate::compare::{self, DescriptionPolicy};
use crate::connection::Connection;
use crate::live::Target;
use crate::manifest::{contract, group_tools, read};
use crate::version;

/// Exit code for a breaking change that `--allow` does not cover.
const BREAKING: u8 = 3;
/// Exit code for `--check-version` finding a version that did not move as far as the changes
/// need.
const VERSION_SHORT: u8 = 4;

/// The flags of `diff`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// OLD and NEW; with --against, only the manifest to compare (default tools.yaml).
    #[arg(value_name = "PATH", num_args = 0..=2)]
    paths: Vec<PathBuf>,
    /// Compare with the manifest at this git revision (`origin/main`, a tag, a commit), or
    /// with a running server: `url:http://HOST/mcp` or `stdio:COMMAND ARGS`.
    #[arg(long, value_name = "REV")]
    against: Option<String>,
    /// With a running server: how a change to a description alone counts: `breaking` fails
    /// the run, `compatible` lists it, `ignore` leaves it out.
    #[arg(long, value_enum, default_value_t = DescriptionPolicy::Compatible)]
    descriptions: DescriptionPolicy,
    /// Compare with this group's tools, as `verify --group` does: over HTTP the group's route
    /// (`URL/GROUP`); a command started over stdio chooses its tools by its own flags.
    #[arg(long)]
    group: Option<String>,
    /// How to print the changes.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Accept the findings of this rule: still listed, marked allowed, never fail the run.
    #[arg(long, value_name = "RULE_ID")]
    allow: Vec<String>,
    /// Judge removal windows (`remove_after`) on this day instead of today (UTC).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = crate::manifest::day)]
    today: Option<Date>,
    /// Check that the crate's version (its Cargo.toml beside the manifest, and
    /// dist/server.json where present) moved at least as far as the changes need since
    /// the old side; exit 4 when it did not. Breaking changes that come with their bump
    /// are accepted without --allow.
    #[arg(long)]
    check_version: bool,
    #[command(flatten)]
    connection: Connection,
}

/// Runs `diff`: prints the report and returns the exit code; `Err` carries what to print
/// before exiting with the usage error's code.
pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let format = args.format.into();
    let target = args.against.as_deref().and_then(Target::parse_prefixed);
    match target {
        Some(_) if args.check_version => Err(
            "error: `--check-version` reads the versions of two manifests' crates, not of a running server"
                .into(),
        ),
        Some(target) => against_server(&args.paths, &target, args, format),
        None if args.connection.sends_headers()
            || !args.connection.revisions.is_empty()
            || args.group.is_some() =>
        {
            Err(
                "error: `--header`, `--bearer-env`, `--revision` and `--group` are for a running server: `--against url:URL` or `--against stdio:CMD`"
                    .into(),
            )
        }
        None => between_manifests(
            &args.paths,
            args.against.as_deref(),
            format,
            &args.allow,
            args.today,
            args.check_version,
        ),
    }
}

/// `--format`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum OutputFormat {
    /// `tools.yaml:LINE:COL: RULE_ID message` lines and a summary.
    Text,
    /// One JSON object with `changes` and `summary`.
    Json,
    /// GitHub Actions annotations.
    Github,
    /// A Markdown table for a pull-request comment.
    Markdown,
}

impl From<OutputFormat> for engine::Format {
    fn from(f: OutputFormat) -> Self {
        match f {
            OutputFormat::Text => engine::Format::Text,
            OutputFormat::Json => engine::Format::Json,
            OutputFormat::Github => engine::Format::Github,
            OutputFormat::Markdown => engine::Format::Markdown,
        }
    }
}

/// `diff --against url:URL|stdio:CMD [PATH]`: the manifest (old) against what the server
/// publishes (new), through the diff engine's report.
fn against_server(
    paths: &[PathBuf],
    target: &Target,
    args: &Args,
    format: engine::Format,
) -> Result<ExitCode, String> {
    let allow = allowed_rules(&args.allow)?;
    let path = match paths {
        [] => PathBuf::from("tools.yaml"),
        [one] => one.clone(),
        _ => {
            return Err(
                "error: with `--against url:|stdio:`, give at most one manifest path".into(),
            );
        }
    };
    let source = read(&path)?;
    let contract = contract(&source)?;
    let group = (args.group.as_deref())
        .map(|g| group_tools(&contract, g))
        .transpose()?;
    let target = target.clone().with_group(args.group.as_deref());
    let (revision, published) = args.connection.fetch(&target)?;
    let compared = compare::compare(
        &contract,
        revision,
        group.as_deref(),
        &published,
        args.descriptions,
        args.today.unwrap_or_else(Date::today),
    )
    .map_err(|e| format!("error: {e}"))?;
    for (note, _) in &compared.notes {
        eprintln!(
            "note: tool `{}` publishes {} (at `{}`)",
            note.tool, note.what, note.at
        );
    }
    let report = Report::new(compared.changes, &source, &source, &allow);
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(report.render(format).as_bytes()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("error: cannot write the report: {e}")),
    }
    Ok(if report.blocks() {
        ExitCode::from(BREAKING)
    } else {
        ExitCode::SUCCESS
    })
}

/// The rules `--allow` names; an unknown ID is refused, since a typo would allow nothing.
fn allowed_rules(allow: &[String]) -> Result<Vec<&'static engine::Rule>, String> {
    allow
        .iter()
        .map(|id| {
            engine::rule(id).ok_or_else(|| {
                let ids: Vec<&str> = engine::RULES.iter().map(|r| r.id).collect();
                format!(
                    "error: `--allow {id}`: no such rule; the rules are {}",
                    ids.join(", ")
                )
            })
        })
        .collect()
}

/// `diff OLD NEW` and `diff --against REV [PATH]`: loads both manifests, prints the report,
/// and returns the exit code.
fn between_manifests(
    paths: &[PathBuf],
    against: Option<&str>,
    format: engine::Format,
    allow: &[String],
    today: Option<Date>,
    check_version: bool,
) -> Result<ExitCode, String> {
    let allow = allowed_rules(allow)?;
    let mut first = false;
    let (old, new) = match (against, paths) {
        (Some(rev), [] | [_]) => {
            let path = paths
                .first()
                .cloned()
                .unwrap_or_else(|| PathBuf::from("tools.yaml"));
            let new = read(&path)?;
            // Both sides carry the working path's name: a removal's location is then the file
            // a reviewer opens (at the old line), and GitHub annotates the right file.
            let old = match git_show(rev, &path)? {
                // Its icon files are read from the working tree, beside the new manifest.
                Some(text) => Source::new(new.name.clone(), text)
                    .with_dir(path.parent().unwrap_or(Path::new(""))),
                None => {
                    // The change that first adds the manifest: no client can depend on it yet.
                    eprintln!(
                        "note: `{}` does not exist at `{rev}`: every tool is new",
                        new.name
                    );
                    first = true;
                    Source::new(new.name.clone(), NO_CONTRACT)
                }
            };
            (old, new)
        }
        (Some(_), _) => {
            return Err("error: with `--against REV`, give at most one manifest path".into());
        }
        (None, [old, new]) => (read(old)?, read(new)?),
        (None, _) => {
            return Err(
                "error: give two manifests (`diff OLD NEW`) or a revision (`diff --against REV [PATH]`)"
                    .into(),
            );
        }
    };
    let (old_contract, new_contract) = (contract(&old)?, contract(&new)?);
    let today = today.unwrap_or_else(Date::today);
    let mut changes = engine::diff_as_of(&old_contract, &new_contract, today);
    if first {
        // Routes move only for clients of an earlier contract, and there is none.
        changes.retain(|c| c.rule.id != "ROUTES_NO_CHANGE");
    }
    let mut report = Report::new(changes, &old, &new, &allow);
    let versions = if check_version {
        let new_dir = manifest_dir(
            paths
                .last()
                .map_or(Path::new("tools.yaml"), |p| p.as_path()),
        );
        let old_dir = match (against, paths) {
            (None, [old, _]) => manifest_dir(old),
            _ => new_dir.clone(),
        };
        let working = |p: &Path| match std::fs::read_to_string(p) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("error: cannot read `{}`: {e}", p.display())),
        };
        let at_rev = |p: &Path| match against {
            Some(rev) => git_show(rev, p),
            None => working(p),
        };
        let mut stated = stated_versions(&old_dir, &new_dir, &at_rev, &working)?;
        // Where the manifest states `server.version`, that is what clients see, not the crate's.
        if let Some(published) = new_contract.server_version() {
            let crate_old = stated.first().map(|s| &s.old);
            stated.push(version::published(
                &new.name,
                old_contract.server_version(),
                crate_old,
                published,
            )?);
        }
        Some(stated)
    } else {
        None
    };
    let bump = report.bump();
    let short: Vec<String> = match &versions {
        Some(stated) => stated
            .iter()
            .filter(|s| s.new < version::least(&s.old, bump))
            .map(|s| {
                format!(
                    "`{}` states {} (was {}), but the changes need a {} bump, to {} at least",
                    s.file,
                    s.new,
                    s.old,
                    version::word(&s.old, bump),
                    version::least(&s.old, bump)
                )
            })
            .collect(),
        None => Vec::new(),
    };
    if let Some(stated) = &versions {
        for s in stated {
            eprintln!("version: `{}` {} → {}", s.file, s.old, s.new);
        }
        // A breaking change that comes with the bump it needs is what a release is for.
        if short.is_empty() && bump == engine::Bump::Major {
            for f in &mut report.findings {
                f.allowed = true;
            }
        }
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(report.render(format).as_bytes()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("error: cannot write the report: {e}")),
    }
    for problem in &short {
        match format {
            engine::Format::Github => eprintln!("::error::{problem}"),
            _ => eprintln!("error: {problem}"),
        }
    }
    Ok(if !short.is_empty() {
        ExitCode::from(VERSION_SHORT)
    } else if report.blocks() {
        ExitCode::from(BREAKING)
    } else {
        ExitCode::SUCCESS
    })
}

/// `path` from the current directory, as a person would type it (`../Cargo.toml`).
fn relative(path: &Path) -> String {
    let Ok(here) = std::env::current_dir().and_then(std::fs::canonicalize) else {
        return path.display().to_string();
    };
    let common = here.ancestors().find(|a| path.starts_with(a));
    match common {
        Some(common) => {
            let up = here.components().count() - common.components().count();
            let rest = path.strip_prefix(common).unwrap_or(path);
            let mut out = PathBuf::new();
            for _ in 0..up {
                out.push("..");
            }
            out.join(rest).display().to_string()
        }
        None => path.display().to_string(),
    }
}

/// The folder of a manifest, absolute, so that a workspace above it can be found.
fn manifest_dir(manifest: &Path) -> PathBuf {
    let dir = manifest.parent().unwrap_or(Path::new(""));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned())
}

/// The versions stated on both sides: the crate's `Cargo.toml` (required), then
/// `dist/server.json` where the new side has one.
fn stated_versions(
    old_dir: &Path,
    new_dir: &Path,
    old: version::Reader<'_>,
    new: version::Reader<'_>,
) -> Result<Vec<version::Stated>, String> {
    let mut stated = Vec::new();
    let pairs = [
        (
            version::cargo_version(old_dir, old)?,
            version::cargo_version(new_dir, new)?,
        ),
        (
            version::server_json_version(old_dir, old)?,
            version::server_json_version(new_dir, new)?,
        ),
    ];
    for (i, pair) in pairs.into_iter().enumerate() {
        match pair {
            (Some((_, o)), Some((path, n))) => stated.push(version::Stated {
                file: relative(&path),
                old: o,
                new: n,
            }),
            (None, _) if i > 0 => {}
            (_, None) if i > 0 => {}
            _ => {
                return Err(format!(
                    "error: `--check-version` reads the version of the crate beside the manifest, \
                     and `{}` has no Cargo.toml on both sides",
                    new_dir.display()
                ));
            }
        }
    }
    Ok(stated)
}

/// The manifest of a revision that has none: a server with no tools yet.
const NO_CONTRACT: &str = "server: {name: none}\ntools: []\n";

/// The text of `path` at git revision `rev`, `None` when the revision does not have it.
/// `git show REV:PATH` wants a path from the repository root, so the manifest's directory
/// gives the root and its own prefix.
fn git_show(rev: &str, path: &Path) -> Result<Option<String>, String> {
    if path.file_name().is_none() {
        return Err(format!("error: `{}` is not a file path", path.display()));
    }
    // git runs in the nearest folder that exists now: the revision may hold a folder
    // (`dist/`) the working tree does not.
    let dir = (path.ancestors().skip(1))
        .find(|d| d.as_os_str().is_empty() || d.is_dir())
        .map_or(Path::new("."), |d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        });
    let file = if dir == Path::new(".") && path.is_relative() {
        path.to_string_lossy().into_owned()
    } else {
        path.strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    };
    let root = git(dir, &["rev-parse", "--show-toplevel"])?;
    let prefix = git(dir, &["rev-parse", "--show-prefix"])?;
    let root = Path::new(&root);
    // An unknown revision is a usage error; a known one without the file is a first contract.
    git(
        root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| format!("error: `{rev}` is not a git revision here"))?;
    let spec = format!("{rev}:{prefix}{}", file.replace('\\', "/"));
    if git(root, &["cat-file", "-e", &spec]).is_err() {
        return Ok(None);
    }
    git(root, &["show", &spec]).map(Some)
}

/// Runs git in `dir`; stdout on success, git's own message on failure.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("error: cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "error: `git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8(out.stdout)
        .map_err(|_| format!("error: `git {}` printed invalid UTF-8", args.join(" ")))?;
    // `rev-parse` ends its answers with a newline; `show` must keep the file's text intact.
    Ok(if args.first() == Some(&"rev-parse") {
        text.trim_end_matches(['\n', '\r']).to_owned()
    } else {
        text
    })
}
