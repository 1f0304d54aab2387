//! `mcp-workspace`: serves the files of one directory to MCP clients over stdio.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mcp_workspace::{Workspace, banner, contract};

/// A sandboxed workspace-files MCP server: list, read and search the files under one root.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// The workspace root; nothing outside it can be reached.
    #[arg(long, default_value = ".")]
    root: PathBuf,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let cli = Cli::parse();
    let workspace = match Workspace::open(&cli.root) {
        Ok(w) => w,
        Err(e) => {
            eprintln!(
                "mcp-workspace: cannot open the workspace root `{}`: {e}",
                cli.root.display()
            );
            return ExitCode::FAILURE;
        }
    };
    if std::io::stdin().is_terminal() {
        // A person started us by hand: say what this is; keep serving in case they type JSON-RPC.
        eprint!("{}", banner::render(&cli.root));
    }
    tracing::info!(root = %cli.root.display(), "serving over stdio");
    match contract::server(workspace).serve_stdio().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-workspace: {e}");
            ExitCode::FAILURE
        }
    }
}
