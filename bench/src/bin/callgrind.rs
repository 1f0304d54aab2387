//! The call profile: instructions per `tools/call` round trip (valid, and with a missing and
//! an unknown argument) and per whole `tools/list`, counted by callgrind, for the contract server and the hand-written
//! one of the cost benchmark, at each size (issue 16, goal 4; see `docs/benchmarks.md`).
//!
//! `cargo run --release -p workspace-bench --bin callgrind -- [--sizes 10,100,1000] [--calls N] [--out DIR] [--telemetry]`
//!
//! With `--telemetry` the contract servers are built with the runtime's feature `telemetry`,
//! given a `Telemetry` with no exporter (`.telemetry(..)`), and the driver's subscriber holds
//! only its layer, at `INFO`: the cost of the feature on, as `docs/observing.md` gives it.
//!
//! Each run's callgrind file stays in `<out>/profiles` for `callgrind_annotate --inclusive=yes`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use workspace_bench::cost::{self, Paths, Style, Variant};

const DRIVER_MAIN: &str = include_str!("../../callgrind-driver/main.rs");
const STYLES: [Style; 2] = [Style::Contract, Style::Hand];

fn write(dir: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().expect("a folder")).expect("create a folder");
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            fs::write(&path, text).expect("write a generated file");
        }
    }
}

/// The workspace of every server of `sizes` in both styles and the driver; with `telemetry`,
/// the contract servers observed.
fn workspace(root: &Path, out: &Path, sizes: &[usize], telemetry: bool) -> PathBuf {
    let dir = out.join("workspace");
    let paths = Paths {
        runtime: root.join("runtime").display().to_string(),
        codegen: root.join("codegen").display().to_string(),
    };
    let mut members = Vec::new();
    let mut deps = String::new();
    let mut arms = String::new();
    for &n in sizes {
        for (k, style) in STYLES.iter().enumerate() {
            let variant = Variant {
                tools: n,
                edit: 0,
                stdio: false,
            };
            let package = style.package(n);
            write(
                &dir.join(&package),
                &cost::package(*style, variant, &paths, false),
            );
            members.push(format!("\"{package}\""));
            let _ = writeln!(deps, "{package} = {{ path = \"../{package}\" }}");
            let krate = package.replace('-', "_");
            let body = match style {
                Style::Contract => format!(
                    "let (read, write) = tokio::io::split(io); \
                     let _ = {krate}::server(){observed}.serve_stream(read, write, mcp_contract::stdio::Options::default()).await;",
                    observed = if telemetry {
                        ".telemetry(&TELEMETRY)"
                    } else {
                        ""
                    },
                ),
                _ => format!(
                    "if let Ok(running) = {krate}::Server::new().serve(io).await {{ let _ = running.waiting().await; }}"
                ),
            };
            let _ = writeln!(
                arms,
                "        ({k}, {n}) => {{ tokio::spawn(async move {{ {body} }}); }}"
            );
        }
    }
    members.push("\"driver\"".into());
    let manifest = format!(
        "[package]\nname = \"callgrind-driver\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [[bin]]\nname = \"callgrind-driver\"\npath = \"src/main.rs\"\n\n\
         [dependencies]\n\
         rmcp = {{ version = \"3.11\", default-features = false, features = [\"server\", \"client\", \"transport-io\"] }}\n\
         serde_json = \"1\"\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt\", \"io-util\"] }}\n\
         mcp-contract = {{ path = \"{}\"{} }}\n{}{deps}",
        paths.runtime,
        if telemetry {
            ", features = [\"telemetry\"]"
        } else {
            ""
        },
        if telemetry {
            "tracing = \"0.1\"\ntracing-subscriber = \"0.3\"\n"
        } else {
            ""
        },
    );
    // The telemetry of the observed servers, and the subscriber holding its layer, made
    // before the first server: no exporter, so the cost is the spans' and metrics' own.
    let observe = if telemetry {
        "pub static TELEMETRY: std::sync::LazyLock<mcp_contract::telemetry::Telemetry> = \
         std::sync::LazyLock::new(|| {\n\
         \x20   use tracing_subscriber::layer::{Layer as _, SubscriberExt as _};\n\
         \x20   let telemetry = mcp_contract::telemetry::Telemetry::builder(\"bench\").build().expect(\"telemetry\");\n\
         \x20   let layer = telemetry.layer().with_filter(tracing_subscriber::filter::LevelFilter::INFO);\n\
         \x20   tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).expect(\"one subscriber\");\n\
         \x20   telemetry\n\
         });\n\n"
    } else {
        ""
    };
    let servers = format!(
        "//! Generated by workspace-bench.\n\nuse rmcp::ServiceExt;\n\n{observe}\
         pub fn spawn(style: usize, tools: usize, io: tokio::io::DuplexStream) {{\n    match (style, tools) {{\n{arms}\
         \x20       _ => panic!(\"no server of style {{style}} with {{tools}} tools\"),\n    }}\n}}\n"
    );
    write(
        &dir,
        &[
            (
                "Cargo.toml".into(),
                format!(
                    "[workspace]\nmembers = [{}]\nresolver = \"3\"\n\n\
                     # Symbols for the profile, at release optimisation.\n\
                     [profile.release]\ndebug = \"line-tables-only\"\n",
                    members.join(", ")
                ),
            ),
            ("driver/Cargo.toml".into(), manifest),
            ("driver/src/main.rs".into(), DRIVER_MAIN.into()),
            ("driver/src/servers.rs".into(), servers),
        ],
    );
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        fs::copy(root.join("Cargo.lock"), lock).expect("copy Cargo.lock");
    }
    dir
}

/// The instructions callgrind counted in `file` (its `totals:` line).
fn totals(file: &Path) -> u64 {
    let text = fs::read_to_string(file).expect("a callgrind file");
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a totals line")
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ is in the workspace")
        .to_path_buf();
    let mut sizes = vec![10, 100, 1000];
    let mut calls = 200usize;
    let mut out = root.join("target/callgrind");
    let mut telemetry = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--sizes" => {
                sizes = value()
                    .split(',')
                    .map(|v| v.parse().expect("a size"))
                    .collect()
            }
            "--calls" => calls = value().parse().expect("--calls N"),
            "--out" => out = PathBuf::from(value()),
            "--telemetry" => telemetry = true,
            other => panic!("unknown option {other}"),
        }
    }
    let dir = workspace(&root, &out, &sizes, telemetry);
    let target = out.join("target");
    eprintln!(
        "building the driver and {} servers (release)...",
        sizes.len() * 2
    );
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--offline", "--release", "-p", "callgrind-driver"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("run cargo");
    assert!(status.success(), "the build failed");
    let driver = target.join("release/callgrind-driver");
    let profiles = out.join("profiles");
    fs::create_dir_all(&profiles).expect("the profiles folder");
    println!(
        "| call | tools | contract (instructions per call) | hand-written | contract / hand |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for &n in &sizes {
        for kind in ["valid", "invalid", "list"] {
            // A list of 1,000 tools is some 500 times a call's work.
            let calls = if kind == "list" {
                (calls * 10 / n).clamp(2, calls)
            } else {
                calls
            };
            let mut per_call = Vec::new();
            for style in STYLES {
                let file = profiles.join(format!("{}-{n}-{kind}.out", style.name()));
                let status = Command::new("valgrind")
                    .args([
                        "--tool=callgrind",
                        "--collect-atstart=no",
                        "--toggle-collect=*measured*",
                        &format!("--callgrind-out-file={}", file.display()),
                    ])
                    .arg(&driver)
                    .args([style.name(), &n.to_string(), kind, &calls.to_string()])
                    .stderr(std::process::Stdio::null())
                    .status()
                    .expect("run valgrind");
                assert!(
                    status.success(),
                    "valgrind {} {n} {kind} failed",
                    style.name()
                );
                per_call.push(totals(&file) / calls as u64);
            }
            println!(
                "| {kind} | {n} | {} | {} | {:.2}x |",
                per_call[0],
                per_call[1],
                per_call[0] as f64 / per_call[1] as f64
            );
        }
    }
}
