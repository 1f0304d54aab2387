//! The hints a published contract carries: the four tool annotations and the list cache hint.

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
    /// Each hint under its key in `annotations`, in the order tools publish them.
    pub const fn keyed(&self) -> [(&'static str, Option<bool>); 4] {
        [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ]
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
}
