//! The hints a published contract carries: the four tool annotations and the list cache hint.

use std::fmt;

/// One of a tool's four hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hint {
    /// `readOnlyHint`: the tool changes nothing.
    ReadOnly,
    /// `destructiveHint`: a change may destroy something.
    Destructive,
    /// `idempotentHint`: calling it again with the same arguments changes nothing more.
    Idempotent,
    /// `openWorldHint`: it reaches outside the server's own domain.
    OpenWorld,
}

impl Hint {
    /// Every hint, in the order they are written and published.
    pub const ALL: [Hint; 4] = [
        Hint::ReadOnly,
        Hint::Destructive,
        Hint::Idempotent,
        Hint::OpenWorld,
    ];

    /// Its snake_case name: the key a manifest writes it under, and its field of
    /// [`PublishedHints`].
    pub const fn key(self) -> &'static str {
        match self {
            Hint::ReadOnly => "read_only",
            Hint::Destructive => "destructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "open_world",
        }
    }

    /// The hint written as `key`, if there is one.
    pub fn from_key(key: &str) -> Option<Hint> {
        Hint::ALL.into_iter().find(|h| h.key() == key)
    }

    /// Its name in a tool's `annotations`.
    pub const fn wire_name(self) -> &'static str {
        match self {
            Hint::ReadOnly => "readOnlyHint",
            Hint::Destructive => "destructiveHint",
            Hint::Idempotent => "idempotentHint",
            Hint::OpenWorld => "openWorldHint",
        }
    }

    /// The value that promises a client safety: a change towards it never breaks one.
    pub const fn safe(self) -> bool {
        match self {
            Hint::ReadOnly | Hint::Idempotent => true,
            Hint::Destructive | Hint::OpenWorld => false,
        }
    }

    /// Whether it may be left out on a read-only tool, where the specification gives it no
    /// meaning.
    pub const fn omissible(self) -> bool {
        matches!(self, Hint::Destructive | Hint::Idempotent)
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` as a tool
/// publishes them; `None` where the manifest's hint policy leaves one off the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl PublishedHints {
    /// The hints as published, from what each publishes.
    pub fn from_fn(value: impl Fn(Hint) -> Option<bool>) -> PublishedHints {
        PublishedHints {
            read_only: value(Hint::ReadOnly),
            destructive: value(Hint::Destructive),
            idempotent: value(Hint::Idempotent),
            open_world: value(Hint::OpenWorld),
        }
    }

    /// One hint as published; `None` is left off the wire.
    pub const fn get(&self, hint: Hint) -> Option<bool> {
        match hint {
            Hint::ReadOnly => self.read_only,
            Hint::Destructive => self.destructive,
            Hint::Idempotent => self.idempotent,
            Hint::OpenWorld => self.open_world,
        }
    }
}

/// The cache hint of 2026-07-28's list results (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHint {
    /// `ttlMs`.
    pub ttl_ms: u64,
    /// `cacheScope: "public"` when true (the lists are the same for every caller), `"private"`
    /// otherwise.
    pub public: bool,
}

impl CacheHint {
    /// What a result carries when the server states no hint: rmcp fills in `ttlMs: 0` and
    /// `cacheScope: "private"`, since nothing may be cached or shared that was not allowed.
    pub const UNSTATED: CacheHint = CacheHint {
        ttl_ms: 0,
        public: false,
    };

    /// `cacheScope` as the protocol spells it.
    pub const fn scope(&self) -> &'static str {
        if self.public { "public" } else { "private" }
    }

    /// The hint as served: for lists that can change (`list_changed`), no longer than
    /// [`CHANGING_LIST_TTL_MS`].
    pub fn served(self, list_changed: bool) -> CacheHint {
        CacheHint {
            ttl_ms: if list_changed {
                self.ttl_ms.min(CHANGING_LIST_TTL_MS)
            } else {
                self.ttl_ms
            },
            ..self
        }
    }
}

/// The `ttlMs` ceiling of every cache hint of a contract whose lists can change: a client
/// that does not listen for changes still sees one within this long, whatever the manifest's
/// `cache.ttl_ms` says. The scope stays as declared: a change is the same for every caller.
pub const CHANGING_LIST_TTL_MS: u64 = 5_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hint_reads_back_from_its_key_and_its_field() {
        for hint in Hint::ALL {
            assert_eq!(Hint::from_key(hint.key()), Some(hint));
            let only = PublishedHints::from_fn(|h| (h == hint).then_some(true));
            assert_eq!(
                Hint::ALL.map(|h| only.get(h)),
                Hint::ALL.map(|h| (h == hint).then_some(true))
            );
        }
        assert_eq!(Hint::from_key("readOnlyHint"), None);
    }
}
