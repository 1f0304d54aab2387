//! The pure parts of the benchmarks, so that `cargo test` checks them: for the peer benchmark
//! (`benches/peer.rs`) the generated tree, the statistics and the table; for the cost
//! benchmark (`src/bin/cost.rs`) the generator of the same server in three styles; for the
//! scale benchmark (`benches/scale/`) what it reads of Redis, the kernel and HTTP answers. The
//! benchmarks themselves drive real servers; see `docs/benchmarks.md`.

pub mod cost;
pub mod reference;
pub mod scale;
pub mod stats;
pub mod table;
pub mod tree;
