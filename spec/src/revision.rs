//! The protocol revisions a generated server speaks, and what each one allows.

use std::fmt;
use std::str::FromStr;

/// The `_meta` key of the server's identity (name, title, version) on 2026-07-28 results.
pub const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// A revision of the MCP specification that generated servers speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Revision {
    /// 2025-11-25: the `initialize` handshake, sessions, server-to-client requests.
    V2025_11_25,
    /// 2026-07-28: stateless and discover-first, with list cache hints and `x-mcp-header`.
    V2026_07_28,
}

// Every capability is an exhaustive match, so a new revision makes the compiler ask what it
// allows instead of silently answering `false`.
impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 2] = [Revision::V2025_11_25, Revision::V2026_07_28];

    /// The newest revision, which servers prefer.
    pub const LATEST: Revision = Revision::V2026_07_28;

    /// The revision's date, as the protocol spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision whose rules a peer of protocol version `version` follows: the newest one
    /// not after it (dates compare as text). A version older than every revision here, or
    /// none at all (a request outside any lifecycle), follows the oldest.
    pub fn negotiated(version: Option<&str>) -> Revision {
        let version = version.unwrap_or_default();
        Revision::ALL
            .into_iter()
            .rev()
            .find(|r| version >= r.as_str())
            .unwrap_or(Revision::ALL[0])
    }

    /// Whether a client opens with the `initialize` handshake; otherwise it may call
    /// `server/discover`, and every request carries its own version and capabilities.
    pub const fn has_initialize(self) -> bool {
        match self {
            Revision::V2025_11_25 => true,
            Revision::V2026_07_28 => false,
        }
    }

    /// Whether list results carry `ttlMs` and `cacheScope`.
    pub const fn has_cache_hints(self) -> bool {
        match self {
            Revision::V2026_07_28 => true,
            Revision::V2025_11_25 => false,
        }
    }

    /// Whether input schemas may carry `x-mcp-header`, which clients mirror into HTTP headers.
    pub const fn has_mcp_headers(self) -> bool {
        match self {
            Revision::V2026_07_28 => true,
            Revision::V2025_11_25 => false,
        }
    }

    /// Whether every result names the server in `_meta` under [`SERVER_INFO_META`], as
    /// `server/discover` does; the revision before it names the server once, in the
    /// `initialize` result.
    pub const fn has_server_info_meta(self) -> bool {
        match self {
            Revision::V2026_07_28 => true,
            Revision::V2025_11_25 => false,
        }
    }

    /// Whether an unknown resource is the dedicated error `-32002`; 2026-07-28 replaced it
    /// with invalid params (`-32602`).
    pub const fn has_resource_not_found_error(self) -> bool {
        match self {
            Revision::V2025_11_25 => true,
            Revision::V2026_07_28 => false,
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A revision string that names no revision generated servers speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRevision(pub String);

impl fmt::Display for UnknownRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Revision::ALL.iter().map(|r| r.as_str()).collect();
        write!(
            f,
            "`{}` is not a protocol revision generated servers speak; the revisions are {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownRevision {}

impl FromStr for Revision {
    type Err = UnknownRevision;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Revision::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRevision(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_revision_reads_back_from_its_date() {
        for r in Revision::ALL {
            assert_eq!(r.as_str().parse::<Revision>(), Ok(r));
        }
        assert!("2024-11-05".parse::<Revision>().is_err());
    }

    #[test]
    fn a_peer_follows_the_newest_revision_not_after_its_version() {
        for r in Revision::ALL {
            assert_eq!(Revision::negotiated(Some(r.as_str())), r);
        }
        assert_eq!(
            Revision::negotiated(Some("2026-01-01")),
            Revision::V2025_11_25
        );
        assert_eq!(Revision::negotiated(Some("2027-01-01")), Revision::LATEST);
        assert_eq!(
            Revision::negotiated(Some("2024-11-05")),
            Revision::V2025_11_25
        );
        assert_eq!(Revision::negotiated(None), Revision::V2025_11_25);
    }

    #[test]
    fn revisions_are_ordered_by_date() {
        assert!(Revision::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Revision::ALL.last(), Some(&Revision::LATEST));
    }
}
