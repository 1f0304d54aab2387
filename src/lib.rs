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

/// The server as a client meets it: every tool, or with `read_only` only the tools whose
/// `readOnlyHint` is true; the write tools are then absent from `tools/list`, not refused.
pub fn server(
    workspace: Workspace,
    read_only: bool,
) -> mcp_contract::Server<contract::Dispatcher<Workspace>> {
    let server = contract::server(workspace);
    if read_only {
        server.restrict(|tool| {
            tool.annotations
                .as_ref()
                .and_then(|a| a.read_only_hint)
                .unwrap_or(false)
        })
    } else {
        server
    }
}
