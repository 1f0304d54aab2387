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

/// One generation's parts: loading and validating, the Rust module, the documents (README
/// table and reference), and both revisions' `tools/list` results (which a build does not
/// write: the server builds them from `SPEC`).
#[derive(Clone, Copy, Default)]
struct Parts {
    load: Duration,
    rust: Duration,
    docs: Duration,
    lists: Duration,
}

impl Parts {
    /// What `build.rs` runs: load and validate, the Rust module, the documents.
    fn build(&self) -> Duration {
        self.load + self.rust + self.docs
    }

    fn total(&self) -> Duration {
        self.build() + self.lists
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
    std::hint::black_box(loaded.contract.readme_table());
    std::hint::black_box(loaded.contract.reference());
    let docs = start.elapsed();
    let start = Instant::now();
    for revision in Revision::ALL {
        std::hint::black_box(loaded.contract.tools_list(revision));
    }
    let lists = start.elapsed();
    Parts {
        load: load_time,
        rust,
        docs,
        lists,
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
        lists: median(|p| p.lists),
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
    println!(
        "generation time, median of 7 runs (3 above 2,000 tools); build = load + Rust + docs, \
         what build.rs runs; lists = both tools/list results, the bench's only"
    );
    println!(
        "{:>6} {:>9} {:>14} {:>11} {:>8} {:>10} {:>8} {:>10} {:>10} {:>9}",
        "tools",
        "yaml KiB",
        "load+validate",
        "Rust module",
        "docs",
        "build",
        "lists",
        "total",
        "per tool",
        "vs first"
    );
    for ((n, m), t) in sizes.iter().zip(&manifests).zip(&timings) {
        println!(
            "{n:>6} {:>9} {:>12.1}ms {:>9.1}ms {:>6.1}ms {:>8.1}ms {:>6.1}ms {:>8.1}ms {:>8.1}µs {:>8.1}x",
            m.len() / 1024,
            ms(t.load),
            ms(t.rust),
            ms(t.docs),
            ms(t.build()),
            ms(t.lists),
            ms(t.total()),
            t.total().as_secs_f64() * 1e6 / *n as f64,
            t.total().as_secs_f64() / timings[0].total().as_secs_f64()
        );
    }
}
