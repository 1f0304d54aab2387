//! The facts about MCP and about generated servers that both halves of mcp-contract state:
//! the generator (`mcp-contract-codegen`), which publishes them at build time, and the runtime
//! (`mcp-contract`), which serves and reads them. Each fact lives here once.

#![warn(missing_docs, unreachable_pub)]

pub mod apps;
pub mod check;
pub mod error_codes;
mod format;
mod headers;
mod hints;
pub mod pattern;
pub mod planning;
pub mod pointer;
mod revision;
pub mod uri_template;

pub use format::Format;
pub use headers::{MCP_HEADER, strip_mcp_headers};
pub use hints::{CHANGING_LIST_TTL_MS, CacheHint, Hint, PublishedHints};
pub use revision::{Revision, SERVER_INFO_META, UnknownRevision};

/// The extension a server with task tools advertises on 2026-07-28 (rmcp's
/// `TASKS_EXTENSION_ID`, which the runtime uses and a test holds to this).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The name of the Rust file the generator writes into `OUT_DIR`, as a literal, for macros
/// such as `mcp_contract::include_contract!` whose `concat!` takes only literals.
#[macro_export]
macro_rules! generated_file {
    () => {
        "mcp_contract.rs"
    };
}

/// The name of the Rust file the generator writes into `OUT_DIR`, which
/// `mcp_contract::include_contract!` includes.
pub const GENERATED_FILE: &str = generated_file!();

/// The `_meta` key under which a tool publishes its lifecycle: `{"state": "active" |
/// "deprecated", "since", "deprecatedSince", "reason", "replacedBy", "removeAfter"}`, each
/// but `state` only when the manifest says it. An alias the server is told to list carries
/// `{"state": "alias", "aliasOf": NAME}`. No MCP key exists for it (SEP-1575 and the
/// lifecycle of SEP-2596 concern other things), so the project's namespace holds it.
pub const LIFECYCLE_META_KEY: &str = "io.github.mcp-contract/lifecycle";
