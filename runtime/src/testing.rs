//! Running a generated server in process, for tests: an rmcp client connected over an
//! in-memory pipe, on either protocol revision.

use rmcp::model::ProtocolVersion;
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientLifecycleMode, ClientServiceExt as _, ServiceExt as _};

use crate::{Dispatch, Server};

/// The protocol revisions a generated server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revision {
    /// The `initialize` handshake of 2025-11-25.
    V2025_11_25,
    /// The stateless, discover-first 2026-07-28.
    V2026_07_28,
}

impl Revision {
    /// Both revisions, oldest first.
    pub const ALL: [Revision; 2] = [Revision::V2025_11_25, Revision::V2026_07_28];

    /// The revision's date, as the protocol spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }
}

/// A client connected to a server running on this runtime.
pub type Client = RunningService<RoleClient, ()>;

/// Starts `server` on one end of an in-memory pipe and connects a client to the other end,
/// speaking `revision`.
pub async fn connect<D: Dispatch>(
    server: Server<D>,
    revision: Revision,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = match revision {
        Revision::V2025_11_25 => ().serve(client_io).await?,
        Revision::V2026_07_28 => {
            ().serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await?
        }
    };
    Ok(client)
}

/// The official JSON Schema of `revision`, copied from the MCP specification repository
/// (see `mcp-schema/LICENSE-NOTE.md`).
pub fn official_schema(revision: Revision) -> &'static serde_json::Value {
    static V2025: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../mcp-schema/2025-11-25/schema.json"))
            .unwrap_or_default()
    });
    static V2026: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../mcp-schema/2026-07-28/schema.json"))
            .unwrap_or_default()
    });
    match revision {
        Revision::V2025_11_25 => &V2025,
        Revision::V2026_07_28 => &V2026,
    }
}

/// Validates `value` against the definition `definition` (such as `ListToolsResult`) of the
/// official schema of `revision`; on failure, every violation with its location.
pub fn check_wire(
    revision: Revision,
    definition: &str,
    value: &serde_json::Value,
) -> Result<(), Vec<String>> {
    let official = official_schema(revision);
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": official["$defs"],
        "$ref": format!("#/$defs/{definition}"),
    });
    let validator = jsonschema::validator_for(&schema).map_err(|e| vec![e.to_string()])?;
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
