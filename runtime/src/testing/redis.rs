//! A `redis-server` of a test's own (features `testing` and `redis`): on a free loopback port,
//! in a directory of its own, stopped when dropped; and what a test looks at behind a
//! [`crate::state::RedisStore`]: the commands Redis ran, and the keys left with their expiry.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to get `redis-server`, as README.md's "Prerequisites" says.
const INSTALL: &str = "install Redis 7 or Valkey (Debian: `apt-get install redis-server`)";

/// A `redis-server` that answers a write only once it is in its append-only file
/// (`appendfsync always`), so a task acknowledged before a crash is there after it.
#[derive(Debug)]
pub struct RedisServer {
    port: u16,
    dir: PathBuf,
    process: Option<Child>,
}

impl RedisServer {
    /// Starts one, and waits until it listens. A machine without `redis-server` fails the
    /// test with one line saying how to install it.
    pub fn start() -> RedisServer {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir =
            std::env::temp_dir().join(format!("mcp-contract-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory for Redis");
        let mut redis = RedisServer {
            port,
            dir,
            process: None,
        };
        redis.run();
        redis
    }

    fn run(&mut self) {
        let log = std::fs::File::create(self.dir.join("redis.log")).expect("a log file");
        let process = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(Stdio::null())
            .spawn();
        match process {
            Ok(process) => self.process = Some(process),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let line =
                    format!("this test needs `redis-server`, which is not installed: {INSTALL}");
                eprintln!("{line}");
                // Unwinding without the panic hook leaves the line above as the whole report.
                std::panic::resume_unwind(Box::new(line))
            }
            Err(e) => panic!("redis-server did not start: {e}"),
        }
        let started = Instant::now();
        while TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis-server did not listen within 10 s: {}",
                std::fs::read_to_string(self.dir.join("redis.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills it, as a crash would (no save on shutdown): what survives is what it
    /// acknowledged.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.kill();
            let _ = process.wait();
        }
    }

    /// Starts it again, killed first if it runs, on the same port and files.
    pub fn restart(&mut self) {
        self.kill();
        self.run();
    }

    async fn connection(&self) -> redis::aio::MultiplexedConnection {
        let client = redis::Client::open(self.url()).expect("a Redis client");
        client
            .get_multiplexed_async_connection()
            .await
            .expect("Redis is reachable")
    }

    /// Forgets the commands counted so far ([`RedisServer::commands`]).
    pub async fn reset_commands(&self) {
        let mut redis = self.connection().await;
        (redis::cmd("CONFIG").arg("RESETSTAT"))
            .query_async::<()>(&mut redis)
            .await
            .expect("CONFIG RESETSTAT");
    }

    /// Each command Redis ran since the last [`RedisServer::reset_commands`], and how many
    /// times (`INFO commandstats`), leaving out those the reset and the reading take.
    pub async fn commands(&self) -> BTreeMap<String, u64> {
        let mut redis = self.connection().await;
        let info: String = (redis::cmd("INFO").arg("commandstats"))
            .query_async(&mut redis)
            .await
            .expect("INFO commandstats");
        // Lines such as `cmdstat_evalsha:calls=3,usec=40,...`.
        (info.lines())
            .filter_map(|line| {
                let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
                let calls = stats.strip_prefix("calls=")?.split(',').next()?;
                Some((name.to_owned(), calls.parse().ok()?))
            })
            .filter(|(name, _)| {
                !matches!(
                    name.as_str(),
                    "config|resetstat" | "hello" | "client|setinfo" | "info"
                )
            })
            .collect()
    }

    /// Every key matching `pattern` (`SCAN`), with its time to live in milliseconds (`PTTL`:
    /// -1 for none, -2 when it went between the scan and the look).
    pub async fn keys(&self, pattern: &str) -> Vec<(String, i64)> {
        let mut redis = self.connection().await;
        let mut keys = Vec::new();
        let mut cursor = 0u64;
        loop {
            let (next, batch): (u64, Vec<String>) = (redis::cmd("SCAN").arg(cursor))
                .arg("MATCH")
                .arg(pattern)
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut redis)
                .await
                .expect("SCAN");
            keys.extend(batch);
            if next == 0 {
                break;
            }
            cursor = next;
        }
        let mut timed = Vec::new();
        for key in keys {
            let ttl: i64 = (redis::cmd("PTTL").arg(&key))
                .query_async(&mut redis)
                .await
                .expect("PTTL");
            timed.push((key, ttl));
        }
        timed
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
