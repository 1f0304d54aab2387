//! How generation time grows with the manifest: 10, 100 and 1,000 tools, measured side by
//! side in one run and reported with their ratios.
//!
//! `cargo bench -p mcp-contract-codegen --bench generate`

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use mcp_contract_codegen::{Source, load};

/// A manifest of `tools` tools, each with the mix of parameters a real server has.
fn manifest(tools: usize) -> String {
    let mut m = String::from(
        "server: {name: bench}\neffects:\n  read: {read_only: true, destructive: false, idempotent: true, open_world: false}\n\
         errors:\n  not_found: {message: \"No `{path}`.\", hint: \"Call list_{path}.\"}\n\
         types:\n  Range:\n    type: object\n    description: Lines.\n    properties:\n\
         \x20     start: {type: integer, minimum: 1, description: First.}\n\
         \x20     end: {type: integer, minimum: 1, description: Last.}\ntools:\n",
    );
    for i in 0..tools {
        let _ = write!(
            m,
            "  - name: tool_{i}\n    title: Tool number {i}\n    description: Does thing {i} to a file.\n    effect: read\n\
             \x20   parameters:\n\
             \x20     path: {{type: string, description: A path., example: src/main.rs, minLength: 1}}\n\
             \x20     limit: {{type: integer, description: At most., example: 5, minimum: 1, maximum: 100, default: 10}}\n\
             \x20     mode: {{type: string, enum: [fast, slow], description: How., example: fast, default: fast}}\n\
             \x20     tags: {{type: array, items: {{type: string}}, description: Tags., example: [a], required: false}}\n\
             \x20     range: {{type: Range, description: Which lines., example: {{start: 1, end: 2}}, required: false}}\n\
             \x20   output:\n      properties:\n        content: {{type: string, description: The text.}}\n\
             \x20   errors: [not_found]\n"
        );
    }
    m
}

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
