//! `mcp-contract`: the generator's checks from the command line, for editors and pre-commit
//! hooks. It shares the build script's engine, so it cannot disagree with the build.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_contract_codegen::diff::{self, Report};
use mcp_contract_codegen::{Contract, Date, Profile, Revision, Severity, Source, load, render_all};

mod compare;
mod import;
mod init;
mod live;
mod verify;
mod version;

/// Exit code for a manifest with errors.
const INVALID: u8 = 1;
/// Exit code for a usage error, or a file that cannot be read or written; for `diff`, also a
/// manifest that does not load, since no comparison was made.
const USAGE: u8 = 2;
/// Exit code for `diff --check-version` finding a version that did not move as far as the
/// changes need.
const VERSION_SHORT: u8 = 4;

/// Exit code for `verify` finding that the server does not honour the contract.
const NOT_HONOURED: u8 = 1;

/// Exit code for `diff` finding a breaking change that `--allow` does not cover.
const BREAKING: u8 = 3;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-contract",
    version,
    about = "Contract-first MCP servers in Rust: check a tools.yaml manifest, scaffold a server \
             from it, print what clients will see and what the build generates, and classify \
             every change to the contract as breaking or compatible."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validates a manifest with the build's own rules and prints every diagnostic.
    Check {
        /// The manifest to check.
        #[arg(default_value = "tools.yaml")]
        path: PathBuf,
        /// Judge removal windows (`remove_after`) on this day instead of today (UTC).
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = day)]
        today: Option<Date>,
        /// Lint for a client's known limits, beside the manifest's `server.profiles`: claude,
        /// copilot, gemini, openai, portable (all four) or strict (every lint an error).
        /// Repeatable.
        #[arg(long = "profile", value_name = "NAME")]
        profiles: Vec<Profile>,
    },
    /// Prints the JSON Schema of tools.yaml, for editors (the content of
    /// docs/tools.schema.json).
    Schema,
    /// Scaffolds a new server crate that builds and passes its tests at once.
    Init {
        /// The crate's and the server's name.
        name: String,
        /// Where to create it (default: a folder named NAME).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Depend on a checkout of mcp-contract at this path (written relative to the new
        /// crate) instead of crates.io.
        #[arg(
            long,
            value_name = "CHECKOUT",
            alias = "path-deps",
            conflicts_with = "git"
        )]
        path: Option<PathBuf>,
        /// Depend on mcp-contract from this git repository instead of crates.io.
        #[arg(long, value_name = "URL")]
        git: Option<String>,
        /// With --git: the commit, tag or branch to build.
        #[arg(long, value_name = "REV", requires = "git")]
        rev: Option<String>,
    },
    /// Prints what the build generates from a manifest: the Rust module, the README tool table
    /// or the tool reference. Exits with 1 on a manifest with errors, printing them.
    Generate {
        /// What to print.
        #[arg(value_enum, default_value_t = Generated::Rust)]
        what: Generated,
        /// The manifest.
        #[arg(long, default_value = "tools.yaml")]
        manifest: PathBuf,
    },
    /// Prints the exact `tools/list` result clients will see, or one tool of it; on
    /// 2026-07-28 the server adds its name, title and version in the result's `_meta`.
    Show {
        /// Only this tool's object.
        tool: Option<String>,
        /// The protocol revision the client speaks (a date, such as 2025-11-25).
        #[arg(long, default_value_t = Revision::LATEST)]
        revision: Revision,
        /// The manifest.
        #[arg(long, default_value = "tools.yaml")]
        manifest: PathBuf,
    },
    /// Compares two manifests and classifies every change as breaking or compatible.
    ///
    /// `diff OLD NEW` compares two files; `diff --against REV [PATH]` compares PATH (default
    /// tools.yaml) with its version at git revision REV; `diff --against url:URL [PATH]` or
    /// `--against stdio:CMD` compares it with what a running server publishes (the manifest is
    /// the old side, the deployment the new). Exits with 3 when a breaking change is found
    /// that no --allow covers, 2 on a usage error, a manifest that does not load or a server
    /// that cannot be reached.
    Diff {
        /// OLD and NEW; with --against, only the manifest to compare (default tools.yaml).
        #[arg(value_name = "PATH", num_args = 0..=2)]
        paths: Vec<PathBuf>,
        /// Compare with the manifest at this git revision (`origin/main`, a tag, a commit), or
        /// with a running server: `url:http://HOST/mcp` or `stdio:COMMAND ARGS`.
        #[arg(long, value_name = "REV")]
        against: Option<String>,
        /// With a running server: a request header, `NAME: VALUE` (repeatable).
        #[arg(long = "header", value_name = "NAME: VALUE")]
        headers: Vec<String>,
        /// With a running server: send `Authorization: Bearer` with the token held in this
        /// environment variable (a secret never goes on the command line).
        #[arg(long, value_name = "VAR")]
        bearer_env: Option<String>,
        /// With a running server: the protocol revision to speak (by default the newest it
        /// speaks).
        #[arg(long)]
        revision: Option<Revision>,
        /// How a change to a description alone counts: `breaking` fails the run, `compatible`
        /// lists it, `ignore` leaves it out.
        #[arg(long, value_enum, default_value_t = compare::DescriptionPolicy::Compatible)]
        descriptions: compare::DescriptionPolicy,
        /// How to print the changes.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        /// Accept the findings of this rule: still listed, marked allowed, never fail the run.
        #[arg(long, value_name = "RULE_ID")]
        allow: Vec<String>,
        /// Judge removal windows (`remove_after`) on this day instead of today (UTC).
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = day)]
        today: Option<Date>,
        /// Check that the crate's version (its Cargo.toml beside the manifest, and
        /// dist/server.json where present) moved at least as far as the changes need since
        /// the old side; exit 4 when it did not. Breaking changes that come with their bump
        /// are accepted without --allow.
        #[arg(long)]
        check_version: bool,
    },
    /// Checks a running server, in any language, against the manifest on each protocol
    /// revision it speaks: what it publishes (tools, resources, templates, prompts, and what
    /// `initialize` says), calls with the manifest's examples, reads and prompts, and calls
    /// that must be refused. Exits with 0 when it honours the contract, 1 when it does not,
    /// 2 when it could not be checked.
    Verify {
        /// The manifest.
        #[arg(default_value = "tools.yaml")]
        manifest: PathBuf,
        /// Start the server with this command line and speak to it over stdio.
        #[arg(
            long,
            value_name = "CMD ARGS",
            required_unless_present = "url",
            conflicts_with = "url"
        )]
        stdio: Option<String>,
        /// The server's streamable HTTP endpoint, such as http://127.0.0.1:8080/mcp.
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// A request header, `NAME: VALUE` (repeatable).
        #[arg(long = "header", value_name = "NAME: VALUE")]
        headers: Vec<String>,
        /// Send `Authorization: Bearer` with the token held in this environment variable (a
        /// secret never goes on the command line).
        #[arg(long, value_name = "VAR")]
        bearer_env: Option<String>,
        /// Check this group's route (`URL/GROUP`) against the group's tools.
        #[arg(long)]
        group: Option<String>,
        /// The revision to speak (repeatable); by default each one, skipping those the server
        /// does not speak.
        #[arg(long = "revision", value_name = "REVISION")]
        revisions: Vec<Revision>,
        /// Also call the tools that may write, with their examples. Never point this at a
        /// production server: the examples really run.
        #[arg(long)]
        allow_writes: bool,
        /// How a change to a description alone counts: `breaking`, `compatible` (reported)
        /// or `ignore`.
        #[arg(long, value_enum, default_value_t = compare::DescriptionPolicy::Compatible)]
        descriptions: compare::DescriptionPolicy,
        /// How to print the findings.
        #[arg(long, value_enum, default_value_t = verify::Format::Text)]
        format: verify::Format,
    },
    /// Writes a manifest that reproduces what a running server (or a saved `tools/list`
    /// result) publishes: its tools, resources, resource templates, prompts, name and
    /// instructions, with a `TODO` at each thing the wire does not say; `check` refuses the
    /// file at each one until it is decided.
    Import {
        /// Start the server with this command line and speak to it over stdio.
        #[arg(long, value_name = "CMD ARGS", conflicts_with_all = ["url", "from"])]
        stdio: Option<String>,
        /// The server's streamable HTTP endpoint.
        #[arg(long, value_name = "URL", conflicts_with = "from")]
        url: Option<String>,
        /// A saved `tools/list` result (a JSON file with `tools`; `resources`,
        /// `resourceTemplates`, `prompts`, `serverInfo` and `instructions` beside it are read
        /// too).
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// Where to write the manifest (`-` for stdout).
        #[arg(short, long, value_name = "FILE", default_value = "tools.yaml")]
        output: PathBuf,
        /// A request header, `NAME: VALUE` (repeatable).
        #[arg(long = "header", value_name = "NAME: VALUE")]
        headers: Vec<String>,
        /// Send `Authorization: Bearer` with the token held in this environment variable.
        #[arg(long, value_name = "VAR")]
        bearer_env: Option<String>,
        /// The revision to speak (by default the newest the server speaks).
        #[arg(long)]
        revision: Option<Revision>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// A `--today` value.
fn day(text: &str) -> Result<Date, String> {
    Date::parse(text).ok_or_else(|| format!("`{text}` is not a day written YYYY-MM-DD"))
}

/// What `generate` prints.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Generated {
    /// The Rust module `include_contract!` includes.
    Rust,
    /// The README tool table, as it goes between the table markers.
    Table,
    /// The full tool reference (`docs/tools.md`).
    Reference,
}

/// `--format` of `diff`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// `tools.yaml:LINE:COL: RULE_ID message` lines and a summary.
    Text,
    /// One JSON object with `changes` and `summary`.
    Json,
    /// GitHub Actions annotations.
    Github,
    /// A Markdown table for a pull-request comment.
    Markdown,
}

impl From<OutputFormat> for diff::Format {
    fn from(f: OutputFormat) -> Self {
        match f {
            OutputFormat::Text => diff::Format::Text,
            OutputFormat::Json => diff::Format::Json,
            OutputFormat::Github => diff::Format::Github,
            OutputFormat::Markdown => diff::Format::Markdown,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Check {
            path,
            today,
            profiles,
        } => check(&path, today.unwrap_or_else(Date::today), &profiles),
        Command::Schema => schema(),
        Command::Generate { what, manifest } => generate(&manifest, what),
        Command::Init {
            name,
            dir,
            path,
            git,
            rev,
        } => {
            let deps = match (path, git) {
                (Some(root), _) => init::Dependencies::Checkout(root),
                (None, Some(url)) => init::Dependencies::Git { url, rev },
                (None, None) => init::Dependencies::Registry(env!("CARGO_PKG_VERSION").into()),
            };
            init(&name, dir, &deps)
        }
        Command::Show {
            tool,
            revision,
            manifest,
        } => show(&manifest, tool.as_deref(), revision),
        Command::Diff {
            paths,
            against,
            format,
            allow,
            today,
            headers,
            bearer_env,
            revision,
            descriptions,
            check_version,
        } if against
            .as_deref()
            .and_then(live::Target::parse_prefixed)
            .is_some() =>
        {
            let target = against
                .as_deref()
                .and_then(live::Target::parse_prefixed)
                .expect("checked by the guard");
            let live = LiveArgs {
                target,
                headers: &headers,
                bearer_env: bearer_env.as_deref(),
                revision,
            };
            if check_version {
                eprintln!(
                    "error: `--check-version` reads the versions of two manifests' crates, not of a running server"
                );
                return ExitCode::from(USAGE);
            }
            exit(diff_live(
                &paths,
                &live,
                format.into(),
                &allow,
                today,
                descriptions,
            ))
        }
        Command::Verify {
            manifest,
            stdio,
            url,
            headers,
            bearer_env,
            group,
            revisions,
            allow_writes,
            descriptions,
            format,
        } => {
            let target = match (stdio, url) {
                (Some(cmd), _) => live::Target::Stdio(cmd),
                (None, Some(url)) => live::Target::Url(url),
                (None, None) => unreachable!("clap requires one"),
            };
            exit(run_verify(
                &manifest,
                target,
                &headers,
                bearer_env.as_deref(),
                group,
                revisions,
                allow_writes,
                descriptions,
                format,
            ))
        }
        Command::Import {
            stdio,
            url,
            from,
            output,
            headers,
            bearer_env,
            revision,
            force,
        } => exit(run_import(
            stdio,
            url,
            from,
            &output,
            &headers,
            bearer_env.as_deref(),
            revision,
            force,
        )),
        Command::Diff {
            paths,
            against,
            format,
            allow,
            today,
            check_version,
            ..
        } => match run_diff(
            &paths,
            against.as_deref(),
            format.into(),
            &allow,
            today,
            check_version,
        ) {
            Ok(code) => code,
            Err(message) => {
                if !message.is_empty() {
                    eprintln!("{message}");
                }
                ExitCode::from(USAGE)
            }
        },
    }
}

/// The exit code of a command that returns `Err` with what to print before exiting with
/// [`USAGE`].
fn exit(result: Result<ExitCode, String>) -> ExitCode {
    result.unwrap_or_else(|message| {
        if !message.is_empty() {
            eprintln!("{message}");
        }
        ExitCode::from(USAGE)
    })
}

/// A runtime for the commands that speak to a running server.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("error: cannot start the async runtime: {e}"))
}

/// How to reach a running server for `diff --against url:|stdio:`.
struct LiveArgs<'a> {
    target: live::Target,
    headers: &'a [String],
    bearer_env: Option<&'a str>,
    revision: Option<Revision>,
}

/// `diff --against url:URL|stdio:CMD [PATH]`: the manifest (old) against what the server
/// publishes (new), through the diff engine's report.
fn diff_live(
    paths: &[PathBuf],
    live: &LiveArgs<'_>,
    format: diff::Format,
    allow: &[String],
    today: Option<Date>,
    descriptions: compare::DescriptionPolicy,
) -> Result<ExitCode, String> {
    let allow = allowed_rules(allow)?;
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
    let headers = live::Headers::read(live.headers, live.bearer_env)?;
    let (revision, published) = fetch(&live.target, live.revision, &headers)?;
    let compared = compare::compare(
        &contract,
        revision,
        None,
        &published,
        descriptions,
        today.unwrap_or_else(Date::today),
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

/// What the server publishes on `revision`, or, without one, on the newest revision it
/// speaks; with the revision spoken.
fn fetch(
    target: &live::Target,
    revision: Option<Revision>,
    headers: &live::Headers,
) -> Result<(Revision, live::Published), String> {
    let tried: Vec<Revision> = match revision {
        Some(r) => vec![r],
        None => Revision::ALL.iter().rev().copied().collect(),
    };
    runtime()?.block_on(async {
        let mut failures = Vec::new();
        for revision in tried {
            match live::Live::connect(target, revision, headers).await {
                Ok(session) => {
                    let published = session.published().await;
                    session.close().await;
                    return published
                        .map(|p| (revision, p))
                        .map_err(|e| format!("error: {e}"));
                }
                Err(e) => failures.push(e),
            }
        }
        Err(format!("error: {}", failures.join("; ")))
    })
}

/// `verify`: prints the report; 0 when the server honours the contract, 1 when not.
#[allow(clippy::too_many_arguments)]
fn run_verify(
    manifest: &Path,
    target: live::Target,
    headers: &[String],
    bearer_env: Option<&str>,
    group: Option<String>,
    revisions: Vec<Revision>,
    allow_writes: bool,
    descriptions: compare::DescriptionPolicy,
    format: verify::Format,
) -> Result<ExitCode, String> {
    let source = read(manifest)?;
    let contract = contract(&source)?;
    let headers = live::Headers::read(headers, bearer_env)?;
    let revisions_named = !revisions.is_empty();
    let options = verify::Options {
        target,
        headers,
        revisions: if revisions_named {
            revisions
        } else {
            Revision::ALL.to_vec()
        },
        revisions_named,
        group,
        allow_writes,
        descriptions,
        format,
    };
    let outcome = runtime()?.block_on(verify::run(&source, &contract, &options))?;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(outcome.text.as_bytes()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("error: cannot write the report: {e}")),
    }
    Ok(if outcome.failed {
        ExitCode::from(NOT_HONOURED)
    } else {
        ExitCode::SUCCESS
    })
}

/// `import`: writes the manifest the publication reads back to, and says what is left to
/// decide and what was not copied.
#[allow(clippy::too_many_arguments)]
fn run_import(
    stdio: Option<String>,
    url: Option<String>,
    from: Option<PathBuf>,
    output: &Path,
    headers: &[String],
    bearer_env: Option<&str>,
    revision: Option<Revision>,
    force: bool,
) -> Result<ExitCode, String> {
    let to_stdout = output == Path::new("-");
    if !to_stdout && !force && output.exists() {
        return Err(format!(
            "error: `{}` exists; pass --force to overwrite it, or -o another path",
            output.display()
        ));
    }
    let (name, list) = match (stdio, url, from) {
        (_, _, Some(file)) => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("error: cannot read `{}`: {e}", file.display()))?;
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("error: `{}` is not JSON: {e}", file.display()))?;
            // A whole JSON-RPC response, or the result alone.
            let list = if value.get("result").is_some() {
                value["result"].clone()
            } else {
                value
            };
            if !list["tools"].is_array() {
                return Err(format!(
                    "error: `{}` holds no `tools` array: save a `tools/list` result",
                    file.display()
                ));
            }
            let name = file
                .file_stem()
                .map_or("server".into(), |s| s.to_string_lossy().into_owned());
            (name, list)
        }
        (stdio, url, None) => {
            let target = match (stdio, url) {
                (Some(cmd), _) => live::Target::Stdio(cmd),
                (None, Some(url)) => live::Target::Url(url),
                (None, None) => {
                    return Err("error: give --stdio CMD, --url URL or --from FILE".into());
                }
            };
            let headers = live::Headers::read(headers, bearer_env)?;
            let (_, published) = fetch(&target, revision, &headers)?;
            (published.server_name.clone(), published.publication())
        }
    };
    let imported = import::import(&name, &list, import::Gaps::Todo);
    let header = "# Imported by `mcp-contract import`. Decide each TODO below; `mcp-contract check` refuses\n\
                  # the file until every one is decided, then `mcp-contract verify` checks the server.\n\n";
    let text = format!("{header}{}", imported.yaml);
    if to_stdout {
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    } else {
        std::fs::write(output, &text)
            .map_err(|e| format!("error: cannot write `{}`: {e}", output.display()))?;
    }
    for note in &imported.notes {
        eprintln!(
            "note: tool `{}` publishes {} (at `{}`); not copied",
            note.tool, note.what, note.at
        );
    }
    eprintln!(
        "{}: {} imported, {} TODOs to decide",
        if to_stdout {
            "-".into()
        } else {
            output.display().to_string()
        },
        imported.entries,
        imported.todos
    );
    Ok(ExitCode::SUCCESS)
}

/// The rules `--allow` names; an unknown ID is refused, since a typo would allow nothing.
fn allowed_rules(allow: &[String]) -> Result<Vec<&'static diff::Rule>, String> {
    allow
        .iter()
        .map(|id| {
            diff::rule(id).ok_or_else(|| {
                let ids: Vec<&str> = diff::RULES.iter().map(|r| r.id).collect();
                format!(
                    "error: `--allow {id}`: no such rule; the rules are {}",
                    ids.join(", ")
                )
            })
        })
        .collect()
}

/// Loads both manifests, prints the report, and returns the exit code; `Err` carries what to
/// print before exiting with [`USAGE`].
fn run_diff(
    paths: &[PathBuf],
    against: Option<&str>,
    format: diff::Format,
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
    let mut changes = diff::diff_as_of(&old_contract, &new_contract, today);
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
        if short.is_empty() && bump == diff::Bump::Major {
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
            diff::Format::Github => eprintln!("::error::{problem}"),
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

fn read(path: &Path) -> Result<Source, String> {
    std::fs::read(path)
        .map(|bytes| {
            Source::from_bytes(path.to_string_lossy().replace('\\', "/"), bytes)
                .with_dir(path.parent().unwrap_or(Path::new("")))
        })
        .map_err(|e| format!("error: cannot read `{}`: {e}", path.display()))
}

/// The contract of a manifest; on failure, its rendered diagnostics.
fn contract(source: &Source) -> Result<Contract, String> {
    load(source)
        .map(|loaded| loaded.contract)
        .map_err(|d| render_all(&d, source))
}

/// The text of `path` at git revision `rev`. `git show REV:PATH` wants a path from the
/// repository root, so the manifest's directory gives the root and its own prefix.
/// The manifest of a revision that has none: a server with no tools yet.
const NO_CONTRACT: &str = "server: {name: none}\ntools: []\n";

/// The text of `path` at git revision `rev`, `None` when the revision does not have it.
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

fn schema() -> ExitCode {
    match std::io::stdout()
        .lock()
        .write_all(mcp_contract_codegen::editor_schema_text().as_bytes())
    {
        Ok(()) => ExitCode::SUCCESS,
        // `mcp-contract schema | head` closing the pipe early is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the schema: {e}");
            ExitCode::from(USAGE)
        }
    }
}

fn check(path: &std::path::Path, today: Date, profiles: &[Profile]) -> ExitCode {
    let source = match read(path) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(USAGE);
        }
    };
    match load(&source) {
        Ok(mut loaded) => {
            // An entry past its window is worth a warning; the build in CI refuses it.
            loaded
                .warnings
                .extend(loaded.contract.past_removal(today, false));
            // What the profiles find is an error only under `strict`.
            let lints = loaded.contract.portability(profiles);
            loaded.warnings.extend(lints);
            if !loaded.warnings.is_empty() {
                eprintln!("{}", render_all(&loaded.warnings, &source));
            }
            if loaded
                .warnings
                .iter()
                .any(|d| d.severity == Severity::Error)
            {
                return ExitCode::from(INVALID);
            }
            let tools = loaded.contract.tool_names().count();
            let noun = if tools == 1 { "tool" } else { "tools" };
            eprintln!("{}: {tools} {noun}, valid", source.name);
            ExitCode::SUCCESS
        }
        Err(diagnostics) => {
            eprintln!("{}", render_all(&diagnostics, &source));
            ExitCode::from(INVALID)
        }
    }
}

fn generate(path: &Path, what: Generated) -> ExitCode {
    let source = match read(path) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(USAGE);
        }
    };
    match load(&source) {
        Ok(loaded) => {
            let text = match what {
                Generated::Rust => loaded.contract.rust_module(),
                Generated::Table => loaded.contract.readme_table(),
                Generated::Reference => loaded.contract.reference(),
            };
            match std::io::stdout().lock().write_all(text.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write: {e}");
                    ExitCode::from(USAGE)
                }
            }
        }
        Err(diagnostics) => {
            eprintln!("{}", render_all(&diagnostics, &source));
            ExitCode::from(INVALID)
        }
    }
}

fn show(path: &std::path::Path, tool: Option<&str>, revision: Revision) -> ExitCode {
    let (source, contract) =
        match read(path).and_then(|source| contract(&source).map(|c| (source, c))) {
            Ok(loaded) => loaded,
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(USAGE);
            }
        };
    let list = contract.tools_list(revision);
    let shown = match tool {
        None => list,
        Some(name) => match list["tools"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["name"] == name))
        {
            Some(t) => t.clone(),
            None => {
                let names: Vec<&str> = contract.tool_names().collect();
                eprintln!(
                    "error: no tool `{name}` in `{}`; its tools are: {}",
                    source.name,
                    names.join(", ")
                );
                return ExitCode::from(USAGE);
            }
        },
    };
    let text = serde_json::to_string_pretty(&shown).unwrap_or_default() + "\n";
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // `mcp-contract show | head` closing the pipe early is not a failure.
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write: {e}");
            ExitCode::from(USAGE)
        }
    }
}

fn init(name: &str, dir: Option<PathBuf>, deps: &init::Dependencies) -> ExitCode {
    let dir = dir.unwrap_or_else(|| PathBuf::from(name));
    match init::scaffold(&dir, name, deps) {
        Ok(done) => {
            for file in &done.files {
                eprintln!("     Created {}", file.display());
            }
            if let Some(workspace) = &done.enclosing_workspace {
                eprintln!(
                    "\nnote: `{}` is inside the Cargo workspace of `{}`; the new crate got its own \
                     `[workspace]` table so it builds on its own. To make it a member instead, \
                     delete that table and add its folder to the workspace's `members`.",
                    dir.display(),
                    workspace.display()
                );
            }
            eprintln!("\nNext: cd {} && cargo test", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(USAGE)
        }
    }
}
