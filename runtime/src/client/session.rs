//! Opening a client session with any MCP server (feature `connect`), the way a client of one
//! protocol revision does: the `initialize` handshake of 2025-11-25, or 2026-07-28's
//! `server/discover` followed by stateless requests. The test clients and the command line's
//! `verify` both open sessions here, so they speak each revision alike.

use rmcp::model::ProtocolVersion;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::IntoTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt as _};

use mcp_contract_spec::Revision;

/// A client session with a server.
pub type Session = RunningService<RoleClient, ()>;

/// Opens a client session over `transport` the way a client of `revision` does: with the
/// `initialize` handshake, or by discovery, preferring that revision.
pub async fn open<T, E, A>(
    transport: T,
    revision: Revision,
) -> Result<Session, Box<dyn std::error::Error + Send + Sync>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let lifecycle = if revision.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        let preferred = ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .filter(|v| v.as_str() == revision.as_str())
            .cloned()
            .collect();
        ClientLifecycleMode::Discover {
            preferred_versions: preferred,
        }
    };
    Ok(().serve_with_lifecycle(transport, lifecycle).await?)
}
