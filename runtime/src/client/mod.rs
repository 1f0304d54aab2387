//! For MCP clients and planners, not servers: reading what any server publishes.
//!
//! - [`metadata`] reads the artifact and composition `_meta` contracts from a `tools/list`,
//!   refusing malformed or inconsistent ones (planning information, never authorization).
//! - `session` (feature `connect`) opens a client session of either revision with any
//!   server.
//! - [`normalize`] marks an untyped tool result `isError` when it carries a clear failure
//!   envelope, for servers that report failures in band without saying so.

pub mod metadata;
pub mod normalize;
#[cfg(feature = "connect")]
pub mod session;
