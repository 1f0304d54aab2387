//! The servers a run drives: instances of the reference server on free loopback ports, their
//! state in memory or in a Redis of the run's own, each process stopped when dropped.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use mcp_contract::testing::RedisServer;
use workspace_bench::scale::{cpu_ticks, redis_command, vm_rss_kib};

/// Where the instances keep their state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Store {
    /// Each in its own memory (the default).
    Memory,
    /// In one Redis all of them share (`--state redis://…`).
    Redis,
}

impl Store {
    pub fn label(self) -> &'static str {
        match self {
            Store::Memory => "memory",
            Store::Redis => "Redis",
        }
    }
}

/// One `mcp-workspace --http 127.0.0.1:0` process.
pub struct Instance {
    child: Child,
    pub addr: SocketAddr,
}

impl Instance {
    /// Starts `binary` over `root`, its state in `state` (a Redis URL) or in memory, holding
    /// at most `sessions` 2025-11-25 sessions; returns once it said where it listens.
    pub fn start(
        binary: &Path,
        root: &Path,
        state: Option<&str>,
        sessions: usize,
    ) -> Result<Instance, String> {
        let mut command = Command::new(binary);
        command
            .arg("--root")
            .arg(root)
            .args(["--http", "127.0.0.1:0", "--sessions", &sessions.to_string()])
            // The host's own bound on requests at once is above the clients of any run, so
            // that requests wait in the server, not in a queue of its bound.
            .args(["--max-in-flight", "1024"])
            .env("RUST_LOG", "warn")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(url) = state {
            command.args(["--state", url]);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let stderr = child.stderr.take().expect("stderr is piped");
        let (lines, said) = mpsc::channel();
        // Read the log to its end, so that the server never blocks writing it.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let mut seen = Vec::new();
        let start = loop {
            match said.recv_timeout(Duration::from_secs(30)) {
                Ok(line) if line.contains("listening on http://") => break line,
                Ok(line) => seen.push(line),
                Err(_) => {
                    let _ = child.kill();
                    return Err(format!("mcp-workspace did not start: {}", seen.join("\n")));
                }
            }
        };
        let addr = (start.split("listening on http://").nth(1))
            .and_then(|at| at.split_whitespace().next())
            .and_then(|at| at.parse().ok())
            .ok_or_else(|| format!("no address in {start}"))?;
        Ok(Instance { child, addr })
    }

    /// Its resident set, KiB.
    pub fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .as_deref()
            .and_then(vm_rss_kib)
            .unwrap_or(0)
    }

    /// The processor time all its threads used so far.
    pub fn cpu(&self) -> Duration {
        cpu_of(self.child.id())
    }
}

/// The processor time all threads of process `pid` used so far (`/proc/PID/stat`).
pub fn cpu_of(pid: u32) -> Duration {
    let ticks = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .as_deref()
        .and_then(cpu_ticks)
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Instances sharing one store: a Redis of their own, or each its memory.
pub struct Fleet {
    pub store: Store,
    pub instances: Vec<Instance>,
    pub redis: Option<RedisServer>,
}

impl Fleet {
    /// `count` instances over `root` with their state in `store` (a new Redis for
    /// [`Store::Redis`], its `appendfsync` changed when given).
    pub fn start(
        binary: &Path,
        root: &Path,
        store: Store,
        count: usize,
        sessions: usize,
        appendfsync: Option<&str>,
    ) -> Result<Fleet, String> {
        let redis = (store == Store::Redis).then(RedisServer::start);
        if let (Some(redis), Some(mode)) = (&redis, appendfsync) {
            redis_command(redis.port(), &format!("CONFIG SET appendfsync {mode}"))?;
        }
        let url = redis.as_ref().map(|r| format!("{}/0", r.url()));
        let instances = (0..count)
            .map(|_| Instance::start(binary, root, url.as_deref(), sessions))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Fleet {
            store,
            instances,
            redis,
        })
    }

    /// Each instance's base URL.
    pub fn bases(&self) -> Vec<String> {
        self.instances
            .iter()
            .map(|i| format!("http://{}", i.addr))
            .collect()
    }

    /// The processor time of all its instances so far.
    pub fn cpu(&self) -> Duration {
        self.instances.iter().map(Instance::cpu).sum()
    }

    /// What it is: `3 × Redis`.
    pub fn label(&self) -> String {
        format!("{} × {}", self.instances.len(), self.store.label())
    }
}
