//! `mcp-contract`: the generator's checks from the command line, for editors and pre-commit
//! hooks. It shares the build script's engine, so it cannot disagree with the build.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_contract_codegen::{Source, diagnostic, format, load};

/// Exit code for a manifest with errors.
const INVALID: u8 = 1;
/// Exit code for a usage error, or a file that cannot be read or written.
const USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-contract",
    version,
    about = "Contract-first MCP servers: check tools.yaml manifests."
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
    },
    /// Prints the JSON Schema of tools.yaml, for editors (the content of
    /// docs/tools.schema.json).
    Schema,
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
        Command::Check { path } => check(&path),
        Command::Schema => schema(),
    }
}

fn schema() -> ExitCode {
    match std::io::stdout()
        .lock()
        .write_all(format::manifest_schema_text().as_bytes())
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

fn check(path: &std::path::Path) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", path.display());
            return ExitCode::from(USAGE);
        }
    };
    let source = Source::new(path.to_string_lossy(), text);
    match load(&source) {
        Ok(loaded) => {
            if !loaded.warnings.is_empty() {
                eprintln!("{}", diagnostic::render_all(&loaded.warnings, &source));
            }
            eprintln!(
                "{}: {} tools, valid",
                source.name,
                loaded.contract.tools.len()
            );
            ExitCode::SUCCESS
        }
        Err(diagnostics) => {
            eprintln!("{}", diagnostic::render_all(&diagnostics, &source));
            ExitCode::from(INVALID)
        }
    }
}
