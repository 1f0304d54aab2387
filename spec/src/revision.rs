//! The protocol revisions a generated server speaks, and what each one allows.

use std::fmt;
use std::str::FromStr;

/// A revision of the MCP specification that generated servers speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Revision {
    /// 2025-11-25: the `initialize` handshake, sessions, server-to-client requests.
    V2025_11_25,
    /// 2026-07-28: stateless and discover-first, with list cache hints and `x-mcp-header`.
    V2026_07_28,
}

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

    /// Whether list results carry `ttlMs` and `cacheScope`.
    pub const fn has_cache_hints(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }

    /// Whether input schemas may carry `x-mcp-header`, which clients mirror into HTTP headers.
    pub const fn has_mcp_headers(self) -> bool {
        matches!(self, Revision::V2026_07_28)
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
            "`{}` is not a protocol revision this server speaks; the revisions are {}",
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
    fn revisions_are_ordered_by_date() {
        assert!(Revision::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Revision::ALL.last(), Some(&Revision::LATEST));
    }
}
