//! `mcp-contract`: the generator's checks from the command line, for editors and pre-commit
//! hooks. It shares the build script's engine, so it cannot disagree with the build.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_contract_codegen::{Date, Profile, Revision, Severity, load, render_all};

mod compare;
mod connection;
mod diff;
mod import;
mod init;
mod live;
mod manifest;
mod verify;
mod version;

use connection::Connection;
use manifest::{contract, day, read};

/// Exit code for a manifest with errors.
const INVALID: u8 = 1;
/// Exit code for a usage error, or a file that cannot be read or written; for `diff`, also a
/// manifest that does not load, since no comparison was made; for `verify`, `import` and
/// `diff --against`, also a server that could not be reached or checked.
const USAGE: u8 = 2;

/// Exit code for `verify` finding that the server does not honour the contract.
const NOT_HONOURED: u8 = 1;

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
    Diff(diff::Args),
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
        /// Check this group's route (`URL/GROUP`) against the group's tools.
        #[arg(long)]
        group: Option<String>,
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
        #[command(flatten)]
        connection: Connection,
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
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        connection: Connection,
    },
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
        Command::Verify {
            manifest,
            stdio,
            url,
            connection,
            group,
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
                &connection,
                group,
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
            connection,
            force,
        } => exit(run_import(stdio, url, from, &output, &connection, force)),
        Command::Diff(args) => exit(diff::run(&args)),
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

/// `verify`: prints the report; 0 when the server honours the contract, 1 when not.
#[allow(clippy::too_many_arguments)]
fn run_verify(
    manifest: &Path,
    target: live::Target,
    connection: &Connection,
    group: Option<String>,
    allow_writes: bool,
    descriptions: compare::DescriptionPolicy,
    format: verify::Format,
) -> Result<ExitCode, String> {
    let source = read(manifest)?;
    let contract = contract(&source)?;
    let headers = connection.headers(&target)?;
    let revisions_named = !connection.revisions.is_empty();
    let options = verify::Options {
        target,
        headers,
        revisions: if revisions_named {
            connection.revisions.clone()
        } else {
            Revision::ALL.to_vec()
        },
        revisions_named,
        group,
        allow_writes,
        descriptions,
        format,
    };
    let outcome = connection::runtime()?.block_on(verify::run(&source, &contract, &options))?;
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
    connection: &Connection,
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
        (_, _, Some(_)) if connection.sends_headers() || !connection.revisions.is_empty() => {
            return Err(
                "error: `--header`, `--bearer-env` and `--revision` are for a running server (`--stdio` or `--url`), not `--from`"
                    .into(),
            );
        }
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
            let (_, published) = connection.fetch(&target)?;
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
