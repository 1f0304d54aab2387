//! The facts about MCP and about generated servers that both halves of mcp-contract state:
//! the generator (`mcp-contract-codegen`), which publishes them at build time, and the runtime
//! (`mcp-contract`), which serves and reads them. Each fact lives here once.

#![warn(missing_docs, unreachable_pub)]

mod revision;

pub use revision::Revision;

/// The name of the Rust file the generator writes into `OUT_DIR`, which
/// `mcp_contract::include_contract!` includes.
pub const GENERATED_FILE: &str = "mcp_contract.rs";
