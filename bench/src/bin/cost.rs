//! The cost benchmark: the same server of N tools written with rmcp's macros, with
//! mcp-contract, and by hand, built, timed and called side by side in one run (issue 16; see
//! `docs/benchmarks.md`).
//!
//! `cargo run --release -p workspace-bench --bin cost -- [--only calls,rss,build] [options]`

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use workspace_bench::cost::{self, DRIVER_MAIN, Paths, Style, Variant};

const HELP: &str = "\
cost [options]
  --only LIST       calls, rss, build (comma-separated; default all three)
  --sizes LIST      tool counts for calls (default 10,100,1000)
  --rounds N        timed rounds per call figure (default 300)
  --rss-tools N     tools of the stdio servers whose peak RSS is measured (default 1000)
  --build-tools N   tools of the server whose builds are timed (default 100)
  --repeat N        clean builds and rebuilds per style and profile (default 3)
  --profiles LIST   debug, release (default both)
  --out DIR         scratch folder (default <workspace>/target/peer)
";

struct Options {
    only: Vec<String>,
    sizes: Vec<usize>,
    rounds: usize,
    rss_tools: usize,
    build_tools: usize,
    repeat: usize,
    profiles: Vec<String>,
    out: PathBuf,
}

fn list<T: std::str::FromStr>(v: &str) -> Vec<T> {
    v.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .unwrap_or_else(|_| panic!("bad list item {x}"))
        })
        .collect()
}

fn options(root: &Path) -> Options {
    let mut o = Options {
        only: list("calls,rss,build"),
        sizes: vec![10, 100, 1000],
        rounds: 300,
        rss_tools: 1000,
        build_tools: 100,
        repeat: 3,
        profiles: list("debug,release"),
        out: root.join("target/peer"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--only" => o.only = list(&value()),
            "--sizes" => o.sizes = list(&value()),
            "--rounds" => o.rounds = value().parse().expect("--rounds N"),
            "--rss-tools" => o.rss_tools = value().parse().expect("--rss-tools N"),
            "--build-tools" => o.build_tools = value().parse().expect("--build-tools N"),
            "--repeat" => o.repeat = value().parse().expect("--repeat N"),
            "--profiles" => o.profiles = list(&value()),
            "--out" => o.out = PathBuf::from(value()),
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => panic!("unknown option {other}\n{HELP}"),
        }
    }
    o
}

fn uptime() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// Writes `files` under `dir`, each only when its text changed (so that cargo sees no edit
/// where there is none).
fn write(dir: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().expect("a file has a folder")).expect("create a folder");
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            fs::write(&path, text).expect("write a generated file");
        }
    }
}

/// `cargo build` of the package or workspace at `dir` into `target`: the time and the
/// number of crates compiled.
fn cargo_build(dir: &Path, target: &Path, release: bool, extra: &[&str]) -> (Duration, usize) {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.arg("build")
        .arg("--offline")
        .args(extra)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target);
    if release {
        cmd.arg("--release");
    }
    let start = Instant::now();
    let output = cmd.output().expect("run cargo");
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "cargo build in {} failed:\n{stderr}",
        dir.display()
    );
    let compiled = stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("Compiling "))
        .count();
    (elapsed, compiled)
}

fn paths(root: &Path) -> Paths {
    Paths {
        runtime: root.join("runtime").display().to_string(),
        codegen: root.join("codegen").display().to_string(),
    }
}

/// The workspace holding every server of `sizes` (and the stdio servers of `rss_tools`) and
/// the driver, written to `<out>/calls`.
fn calls_workspace(root: &Path, o: &Options) -> PathBuf {
    let dir = o.out.join("calls");
    let p = paths(root);
    let mut sizes = o.sizes.clone();
    if o.only.iter().any(|x| x == "rss") && !sizes.contains(&o.rss_tools) {
        sizes.push(o.rss_tools);
    }
    let mut members = Vec::new();
    for &n in &sizes {
        for style in Style::ALL {
            let variant = Variant {
                tools: n,
                edit: 0,
                stdio: n == o.rss_tools,
            };
            write(
                &dir.join(style.package(n)),
                &cost::package(style, variant, &p, false),
            );
            members.push(format!("\"{}\"", style.package(n)));
        }
    }
    members.push("\"driver\"".into());
    write(
        &dir,
        &[
            (
                "Cargo.toml".into(),
                format!(
                    "[workspace]\nmembers = [{}]\nresolver = \"3\"\n\n[profile.release]\ndebug = false\n",
                    members.join(", ")
                ),
            ),
            (
                "driver/Cargo.toml".into(),
                cost::driver_manifest(&sizes, &p),
            ),
            ("driver/src/main.rs".into(), DRIVER_MAIN.into()),
            ("driver/src/servers.rs".into(), cost::driver_servers(&sizes)),
        ],
    );
    copy_lock(root, &dir);
    dir
}

/// The workspace's own lock file, so that every style builds the same dependency versions.
fn copy_lock(root: &Path, dir: &Path) {
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        fs::copy(root.join("Cargo.lock"), lock).expect("copy Cargo.lock");
    }
}

fn calls(root: &Path, o: &Options, dir: &Path) {
    let target = o.out.join("target");
    eprintln!(
        "building the driver and {} servers (release)...",
        o.sizes.len() * 3
    );
    let (t, n) = cargo_build(dir, &target, true, &["-p", "driver"]);
    eprintln!("built in {:.0} s ({n} crates)", t.as_secs_f64());
    let _ = root;
    println!(
        "\n## Calls, in-process over a duplex pipe, rmcp client, 2025-11-25 (load before {})\n",
        uptime()
    );
    let sizes: Vec<String> = o.sizes.iter().map(usize::to_string).collect();
    let status = Command::new(target.join("release/driver"))
        .args([
            "--rounds",
            &o.rounds.to_string(),
            "--sizes",
            &sizes.join(","),
        ])
        .status()
        .expect("run the driver");
    assert!(status.success(), "the driver failed");
    println!("\n(load after {})", uptime());
}

/// Peak RSS (`VmHWM`, KiB) of a stdio server after `initialize` and
/// `notifications/initialized`, and after its first `tools/list` answer.
fn rss_once(binary: &Path) -> (u64, u64) {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a stdio server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"cost","version":"0"}}}}}}"#
    )
    .expect("send initialize");
    let mut line = String::new();
    stdout
        .read_line(&mut line)
        .expect("read the initialize answer");
    assert!(line.contains("\"result\""), "initialize failed: {line}");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("send initialized");
    std::thread::sleep(Duration::from_millis(300));
    let peak = || -> u64 {
        let status =
            fs::read_to_string(format!("/proc/{}/status", child.id())).expect("read /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM")
    };
    let initialized = peak();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#)
        .expect("send tools/list");
    line.clear();
    stdout
        .read_line(&mut line)
        .expect("read the tools/list answer");
    assert!(line.contains("\"tools\""), "tools/list failed: {line}");
    let listed = peak();
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    (initialized, listed)
}

fn rss(o: &Options, dir: &Path) {
    let target = o.out.join("target");
    let packages: Vec<String> = Style::ALL.iter().map(|s| s.package(o.rss_tools)).collect();
    let mut args = Vec::new();
    for p in &packages {
        args.extend(["-p", p.as_str()]);
    }
    args.push("--bins");
    eprintln!(
        "building the stdio servers of {} tools (release)...",
        o.rss_tools
    );
    cargo_build(dir, &target, true, &args);
    println!(
        "\n## Peak RSS after initialize over stdio, {} tools (load before {})\n",
        o.rss_tools,
        uptime()
    );
    // samples[when][style]: after initialize (0) and after the first tools/list (1).
    let mut samples = vec![vec![Vec::new(); 3]; 2];
    for round in 0..5 {
        for k in 0..3 {
            let s = (round + k) % 3;
            let (initialized, listed) = rss_once(&target.join("release").join(&packages[s]));
            samples[0][s].push(initialized);
            samples[1][s].push(listed);
        }
    }
    let mib = |k: u64| k as f64 / 1024.0;
    println!(
        "| style | when | VmHWM min–max (MiB, 5 runs) | median / macros | median / hand-written |"
    );
    println!("| --- | --- | ---: | ---: | ---: |");
    for (when, samples) in ["after initialize", "after the first tools/list"]
        .iter()
        .zip(&mut samples)
    {
        let medians: Vec<u64> = samples
            .iter_mut()
            .map(|s| {
                s.sort();
                s[s.len() / 2]
            })
            .collect();
        for (k, style) in Style::ALL.iter().enumerate() {
            let s = &samples[k];
            println!(
                "| {} | {when} | {:.1}–{:.1} | {:.2}x | {:.2}x |",
                style.name(),
                mib(s[0]),
                mib(s[s.len() - 1]),
                medians[k] as f64 / medians[0] as f64,
                medians[k] as f64 / medians[2] as f64
            );
        }
    }
    println!("\n(load after {})", uptime());
}

/// Minimum and median, in seconds.
fn min_median(samples: &mut [Duration]) -> (f64, f64) {
    samples.sort();
    (
        samples[0].as_secs_f64(),
        samples[samples.len() / 2].as_secs_f64(),
    )
}

fn build(root: &Path, o: &Options) {
    let p = paths(root);
    let styles = [Style::Macros, Style::Contract];
    let dirs: Vec<PathBuf> = styles
        .iter()
        .map(|s| o.out.join("build").join(s.name()))
        .collect();
    let targets: Vec<PathBuf> = dirs.iter().map(|d| d.join("target")).collect();
    let variant = |tools, edit| Variant {
        tools,
        edit,
        stdio: false,
    };
    let generate = |k: usize, v: Variant| {
        write(&dirs[k], &cost::package(styles[k], v, &p, true));
        copy_lock(root, &dirs[k]);
    };
    println!(
        "\n## Builds of the {}-tool server, {} repeats, interleaved (load before {})\n",
        o.build_tools,
        o.repeat,
        uptime()
    );
    println!(
        "| figure | macros min / median (s) | contract min / median (s) | contract / macros (min, median) | crates compiled (macros, contract) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for profile in &o.profiles {
        let release = profile == "release";
        let mut clean = vec![Vec::new(); 2];
        let mut crates = [0usize; 2];
        for round in 0..o.repeat {
            for j in 0..2 {
                let k = (round + j) % 2;
                generate(k, variant(o.build_tools, 0));
                let _ = fs::remove_dir_all(&targets[k]);
                // The last clean build of each also writes cargo's unit timings.
                let last = round + 1 == o.repeat;
                let (t, n) = cargo_build(
                    &dirs[k],
                    &targets[k],
                    release,
                    if last { &["--timings"] } else { &[] },
                );
                if last {
                    let report = o
                        .out
                        .join(format!("timings-{}-{profile}.html", styles[k].name()));
                    let _ = fs::copy(targets[k].join("cargo-timings/cargo-timing.html"), &report);
                    eprintln!("unit timings: {}", report.display());
                }
                eprintln!(
                    "clean {profile} {}: {:.1} s, {n} crates (load {})",
                    styles[k].name(),
                    t.as_secs_f64(),
                    uptime()
                );
                clean[k].push(t);
                crates[k] = n;
            }
        }
        let mut edit = vec![Vec::new(); 2];
        let mut add = vec![Vec::new(); 2];
        for round in 0..o.repeat {
            for j in 0..2 {
                let k = (round + j) % 2;
                generate(k, variant(o.build_tools, round as u32 + 1));
                let (t, _) = cargo_build(&dirs[k], &targets[k], release, &[]);
                edit[k].push(t);
                generate(k, variant(o.build_tools, 0));
                cargo_build(&dirs[k], &targets[k], release, &[]);
                generate(k, variant(o.build_tools + 1, 0));
                let (t, _) = cargo_build(&dirs[k], &targets[k], release, &[]);
                add[k].push(t);
                eprintln!(
                    "rebuilds {profile} {}: edit {:.1} s, add {:.1} s",
                    styles[k].name(),
                    edit[k][round].as_secs_f64(),
                    t.as_secs_f64()
                );
            }
        }
        for (figure, samples, show_crates) in [
            ("clean build", &mut clean, true),
            ("rebuild after editing one handler", &mut edit, false),
            ("rebuild after adding a tool", &mut add, false),
        ] {
            let m = min_median(&mut samples[0]);
            let c = min_median(&mut samples[1]);
            println!(
                "| {figure}, {profile} | {:.1} / {:.1} | {:.1} / {:.1} | {:.2}x / {:.2}x | {} |",
                m.0,
                m.1,
                c.0,
                c.1,
                c.0 / m.0,
                c.1 / m.1,
                if show_crates {
                    format!("{}, {}", crates[0], crates[1])
                } else {
                    String::new()
                }
            );
        }
    }
    println!("\n(load after {})", uptime());
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ is in the workspace")
        .to_path_buf();
    let o = options(&root);
    println!(
        "# Cost benchmark, {} cores, load {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        uptime()
    );
    if o.only.iter().any(|x| x == "calls" || x == "rss") {
        let dir = calls_workspace(&root, &o);
        if o.only.iter().any(|x| x == "calls") {
            calls(&root, &o, &dir);
        }
        if o.only.iter().any(|x| x == "rss") {
            rss(&o, &dir);
        }
    }
    if o.only.iter().any(|x| x == "build") {
        build(&root, &o);
    }
}
