//! Whether the manifest's tools cost the same each however many there are: `check` of a
//! valid manifest, rendering one error per tool, and `diff` of two versions, each at N, 2N
//! and 4N tools side by side in one run. Linear means doubling the input at most 2.2× the
//! time; the last column says whether each doubling stayed under that.
//!
//! `cargo bench -p mcp-contract-codegen --bench scaling [-- N]` (N defaults to 10,000 tools)

use std::time::{Duration, Instant};

use common::manifest;
use mcp_contract_codegen::{Source, diff, load, render_all};

mod common;

/// The median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// Each tool of [`manifest`] with a misspelt key, so every tool has one error to render.
fn with_errors(tools: usize) -> String {
    manifest(tools).replace("    effect: read\n", "    effect: read\n    titel: oops\n")
}

/// A second version of [`manifest`] in which every tool's bound changed.
fn changed(tools: usize) -> String {
    manifest(tools).replace("maximum: 100,", "maximum: 50,")
}

fn row(what: &str, sizes: &[usize], times: &[Duration]) {
    let mut line = format!("{what:<22}");
    for (i, (n, t)) in sizes.iter().zip(times).enumerate() {
        line += &format!(" {n:>6}: {:>8.1}ms", t.as_secs_f64() * 1e3);
        if i > 0 {
            let ratio = t.as_secs_f64() / times[i - 1].as_secs_f64();
            line += &format!(
                " ({ratio:.2}x{})",
                if ratio <= 2.2 { "" } else { " SUPERLINEAR" }
            );
        }
    }
    println!("{line}");
}

fn main() {
    let base: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let sizes = [base, base * 2, base * 4];
    println!("median of 5 runs; doubling the tools should at most 2.2x the time");

    let check: Vec<Duration> = sizes
        .iter()
        .map(|&n| {
            let source = Source::new("tools.yaml", manifest(n));
            median(5, || {
                std::hint::black_box(load(&source).is_ok());
            })
        })
        .collect();
    row("check, valid", &sizes, &check);

    let render: Vec<Duration> = sizes
        .iter()
        .map(|&n| {
            let source = Source::new("tools.yaml", with_errors(n));
            median(5, || {
                let diags = load(&source).expect_err("one error a tool");
                std::hint::black_box(render_all(&diags, &source));
            })
        })
        .collect();
    row("check + render errors", &sizes, &render);

    let diffs: Vec<Duration> = sizes
        .iter()
        .map(|&n| {
            let old = load(&Source::new("old.yaml", manifest(n)))
                .expect("valid")
                .contract;
            let new = load(&Source::new("new.yaml", changed(n)))
                .expect("valid")
                .contract;
            median(5, || {
                std::hint::black_box(diff::diff(&old, &new));
            })
        })
        .collect();
    row("diff", &sizes, &diffs);
}
