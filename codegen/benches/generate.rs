//! How generation time grows with the manifest: 10, 100 and 1,000 tools, measured side by
//! side in one run and reported with their ratios.
//!
//! `cargo bench -p mcp-contract-codegen --bench generate`

use std::time::{Duration, Instant};

use common::manifest;
use mcp_contract_codegen::{Source, load};

mod common;

/// The medians of `runs` timings of loading and validating `text`, and of emitting its Rust.
fn time(text: &str, runs: usize) -> (Duration, Duration) {
    let source = Source::new("tools.yaml", text);
    let mut load_times = Vec::with_capacity(runs);
    let mut emit_times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let loaded = load(&source).unwrap_or_else(|_| panic!("the bench manifest is valid"));
        load_times.push(start.elapsed());
        let start = Instant::now();
        std::hint::black_box(loaded.contract.rust_module());
        emit_times.push(start.elapsed());
    }
    load_times.sort();
    emit_times.sort();
    (load_times[runs / 2], emit_times[runs / 2])
}

fn main() {
    let sizes = [10usize, 100, 1000];
    let manifests: Vec<String> = sizes.iter().map(|&n| manifest(n)).collect();
    let timings: Vec<(Duration, Duration)> = manifests.iter().map(|m| time(m, 7)).collect();
    let total = |(l, e): &(Duration, Duration)| (*l + *e).as_secs_f64();
    println!("generation time, median of 7 runs");
    println!(
        "{:>6} {:>9} {:>16} {:>11} {:>10} {:>10} {:>12}",
        "tools", "yaml KiB", "load+validate", "emit Rust", "total", "per tool", "vs 10 tools"
    );
    for ((n, m), t) in sizes.iter().zip(&manifests).zip(&timings) {
        println!(
            "{n:>6} {:>9} {:>14.1}ms {:>9.1}ms {:>8.1}ms {:>8.1}µs {:>11.1}x",
            m.len() / 1024,
            t.0.as_secs_f64() * 1e3,
            t.1.as_secs_f64() * 1e3,
            total(t) * 1e3,
            total(t) * 1e6 / *n as f64,
            total(t) / total(&timings[0])
        );
    }
}
