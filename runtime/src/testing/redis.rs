//! A `redis-server` of a test's own (features `testing` and `redis`): on a free loopback port,
//! in a directory of its own, stopped when dropped; and what a test looks at behind a
//! [`crate::state::RedisStore`]: the commands clients send it, and the keys left with their expiry.

use futures::StreamExt as _;
use std::io::{Read as _, Write as _};
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
        while !self.ready() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis-server did not answer within 10 s: {}",
                std::fs::read_to_string(self.dir.join("redis.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether it answers `PING` with `PONG`. Listening is not enough: a Redis loading its
    /// append-only file after a restart answers every command `LOADING` until it is done.
    fn ready(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)) else {
            return false;
        };
        let mut reply = [0u8; 7];
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .is_ok()
            && stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut reply).is_ok()
            && &reply == b"+PONG\r\n"
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

    /// Every command clients send from now on, as `MONITOR` reports them.
    pub async fn monitor(&self) -> Monitor {
        let client = redis::Client::open(self.url()).expect("a Redis client");
        let monitor = client.get_async_monitor().await.expect("MONITOR");
        let (lines, seen) = tokio::sync::mpsc::unbounded_channel();
        let mut reported = monitor.into_on_message::<String>();
        tokio::spawn(async move {
            while let Some(line) = reported.next().await {
                if lines.send(line).is_err() {
                    return;
                }
            }
        });
        Monitor {
            url: self.url(),
            seen,
            marks: 0,
        }
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

/// The commands clients send to a [`RedisServer`] ([`RedisServer::monitor`]).
#[derive(Debug)]
pub struct Monitor {
    url: String,
    seen: tokio::sync::mpsc::UnboundedReceiver<String>,
    marks: u64,
}

impl Monitor {
    /// The names of the commands clients sent since the last call (or since monitoring began),
    /// in order: each round trip's commands, not those its scripts ran, nor a connection's
    /// greeting (`HELLO`, `CLIENT SETINFO`).
    pub async fn sent(&mut self) -> Vec<String> {
        // MONITOR reports asynchronously: a mark sent now is reported after everything before.
        self.marks += 1;
        let mark = format!("mcp-contract-mark-{}", self.marks);
        let client = redis::Client::open(self.url.as_str()).expect("a Redis client");
        let mut redis = (client.get_multiplexed_async_connection().await).expect("connected");
        (redis::cmd("ECHO").arg(&mark))
            .query_async::<String>(&mut redis)
            .await
            .expect("ECHO");
        let mut sent = Vec::new();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.seen.recv())
                .await
                .expect("MONITOR reports the mark within 10 s")
                .expect("MONITOR reports");
            if line.contains(&mark) {
                return sent;
            }
            // `1700000000.000000 [0 127.0.0.1:50000] "evalsha" "…" …`; a script's own
            // commands come from `[0 lua]`.
            let Some((from, command)) = line.split_once("] ") else {
                continue;
            };
            if from.ends_with(" lua") {
                continue;
            }
            let name = command.split('"').nth(1).unwrap_or_default().to_lowercase();
            if !matches!(name.as_str(), "hello" | "client") {
                sent.push(name);
            }
        }
    }
}
