//! How `verify`, `import` and `diff --against` speak to a running server: the flags they
//! share (request headers, a bearer token's variable, the revisions), and what a server
//! publishes on the newest revision it speaks.

use mcp_contract_codegen::Revision;

use crate::live::{Headers, Live, Published, Target};

/// The flags of every command that speaks to a running server.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Speaking to the server")]
pub(crate) struct Connection {
    /// A request header for a server reached over HTTP, `NAME: VALUE` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Send `Authorization: Bearer` to a server reached over HTTP, with the token held in this
    /// environment variable (a secret never goes on the command line).
    #[arg(long, value_name = "VAR")]
    bearer_env: Option<String>,
    /// The protocol revision to speak (repeatable; by default every one). `verify` checks
    /// each the server speaks; `import` and `diff` read the newest it speaks.
    #[arg(long = "revision", value_name = "REVISION")]
    pub(crate) revisions: Vec<Revision>,
}

impl Connection {
    /// The request headers for `target`, with the bearer token read from its variable; `Err`
    /// names a malformed header, a variable that is not set, or headers for a command started
    /// over stdio (which has none: it would run without what the user meant to send).
    pub(crate) fn headers(&self, target: &Target) -> Result<Headers, String> {
        if matches!(target, Target::Stdio(_)) && self.sends_headers() {
            return Err(
                "error: `--header` and `--bearer-env` are for a server reached over HTTP; a command started over stdio takes its settings from its arguments and environment"
                    .into(),
            );
        }
        Headers::read(&self.headers, self.bearer_env.as_deref())
    }

    /// Whether any flag asks for a request header.
    pub(crate) fn sends_headers(&self) -> bool {
        !self.headers.is_empty() || self.bearer_env.is_some()
    }

    /// What the server at `target` publishes on the newest revision it speaks, of those
    /// given or of all; with the revision spoken.
    pub(crate) fn fetch(&self, target: &Target) -> Result<(Revision, Published), String> {
        let headers = self.headers(target)?;
        let mut tried: Vec<Revision> = if self.revisions.is_empty() {
            Revision::ALL.to_vec()
        } else {
            self.revisions.clone()
        };
        tried.sort();
        tried.dedup();
        runtime()?.block_on(async {
            let mut failures = Vec::new();
            for &revision in tried.iter().rev() {
                match Live::connect(target, revision, &headers).await {
                    Ok(session) => {
                        let published = session.published().await;
                        session.close().await;
                        return published
                            .map(|p| (revision, p))
                            .map_err(|e| format!("error: {e}"));
                    }
                    Err(e) if e.refused => return Err(format!("error: {e}")),
                    Err(e) => failures.push(e.message),
                }
            }
            Err(format!("error: {}", failures.join("; ")))
        })
    }
}

/// A runtime for the commands that speak to a running server.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("error: cannot start the async runtime: {e}"))
}
