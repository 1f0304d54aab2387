//! How generation time grows with the manifest: 10, 100 and 1,000 tools (or the sizes given),
//! measured side by side in one run and reported with their ratios.
//!
//! `cargo bench -p mcp-contract-codegen --bench generate [-- SIZE...]`
//! `cargo bench -p mcp-contract-codegen --bench generate -- --once N` generates everything once
//! for N tools and prints nothing: the run to put under a profiler
//! (`valgrind --tool=callgrind target/release/deps/generate-* --once 1000`).

use std::time::{Duration, Instant};

use common::manifest;
use mcp_contract_codegen::{Revision, Source, load};

mod common;

/// One generation's parts: loading and validating, the Rust module, the wire lists and the
/// documents (README table and reference).
#[derive(Clone, Copy, Default)]
struct Parts {
    load: Duration,
    rust: Duration,
    docs: Duration,
}

impl Parts {
    fn total(&self) -> Duration {
        self.load + self.rust + self.docs
    }
}

fn once(text: &str) -> Parts {
    let source = Source::new("tools.yaml", text);
    let start = Instant::now();
    let loaded = load(&source).unwrap_or_else(|_| panic!("the bench manifest is valid"));
    let load_time = start.elapsed();
    let start = Instant::now();
    std::hint::black_box(loaded.contract.rust_module());
    let rust = start.elapsed();
    let start = Instant::now();
    for revision in Revision::ALL {
        std::hint::black_box(loaded.contract.tools_list(revision));
    }
    std::hint::black_box(loaded.contract.readme_table());
    std::hint::black_box(loaded.contract.reference());
    let docs = start.elapsed();
    Parts {
        load: load_time,
        rust,
        docs,
    }
}

/// The medians, part by part, of `runs` generations of `text`.
fn time(text: &str, runs: usize) -> Parts {
    let all: Vec<Parts> = (0..runs).map(|_| once(text)).collect();
    let median = |f: fn(&Parts) -> Duration| {
        let mut v: Vec<Duration> = all.iter().map(f).collect();
        v.sort();
        v[runs / 2]
    };
    Parts {
        load: median(|p| p.load),
        rust: median(|p| p.rust),
        docs: median(|p| p.docs),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let [flag, n] = args.as_slice()
        && flag == "--once"
    {
        once(&manifest(n.parse().expect("--once N")));
        return;
    }
    let sizes: Vec<usize> = if args.is_empty() {
        vec![10, 100, 1000]
    } else {
        args.iter().map(|a| a.parse().expect("a size")).collect()
    };
    let manifests: Vec<String> = sizes.iter().map(|&n| manifest(n)).collect();
    let timings: Vec<Parts> = manifests
        .iter()
        .zip(&sizes)
        .map(|(m, &n)| time(m, if n > 2000 { 3 } else { 7 }))
        .collect();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("generation time, median of 7 runs (3 above 2,000 tools)");
    println!(
        "{:>6} {:>9} {:>14} {:>11} {:>12} {:>10} {:>10} {:>11}",
        "tools",
        "yaml KiB",
        "load+validate",
        "Rust module",
        "lists+docs",
        "total",
        "per tool",
        "vs first"
    );
    for ((n, m), t) in sizes.iter().zip(&manifests).zip(&timings) {
        println!(
            "{n:>6} {:>9} {:>12.1}ms {:>9.1}ms {:>10.1}ms {:>8.1}ms {:>8.1}µs {:>10.1}x",
            m.len() / 1024,
            ms(t.load),
            ms(t.rust),
            ms(t.docs),
            ms(t.total()),
            t.total().as_secs_f64() * 1e6 / *n as f64,
            t.total().as_secs_f64() / timings[0].total().as_secs_f64()
        );
    }
}
