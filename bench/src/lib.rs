//! The pure parts of the peer benchmark (`benches/peer.rs`): the generated tree, the
//! statistics and the table. The benchmark itself drives real server processes and lives in
//! the bench target, which `cargo test` does not build; see `docs/benchmarks.md`.

pub mod stats;
pub mod table;
pub mod tree;
