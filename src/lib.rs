//! The reference server of mcp-contract: a sandboxed workspace-files MCP server whose whole
//! published contract comes from `tools.yaml`.

pub mod banner;
mod handlers;
pub mod workspace;

/// The code generated from `tools.yaml` at build time.
pub mod contract {
    mcp_contract::include_contract!();
}

pub use workspace::Workspace;
