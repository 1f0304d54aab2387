//! An `haproxy` of a test's own: a load balancer on a free loopback port in front of servers
//! the test runs, with the configuration a deployer would use (the repository's
//! `deploy/haproxy.cfg`), stopped when dropped.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to get `haproxy`, as README.md's "Prerequisites" says.
const INSTALL: &str = "install HAProxy 2.6 or newer (Debian: `apt-get install haproxy`)";

/// The environment variable a configuration binds its frontend to (`bind "${MCP_LISTEN}"`):
/// [`Haproxy::start`] sets it to the free loopback port it chose.
pub const LISTEN_VAR: &str = "MCP_LISTEN";

/// An `haproxy -f CONFIG -db` (in the foreground, its log on stderr kept in a file).
#[derive(Debug)]
pub struct Haproxy {
    addr: SocketAddr,
    dir: PathBuf,
    process: Option<Child>,
}

impl Haproxy {
    /// Starts HAProxy on `config` in front of `instances`, as `deploy/haproxy.cfg` reads
    /// them: the `N`th (from 1) in `MCP_INSTANCE_N`.
    pub fn in_front_of(config: impl AsRef<Path>, instances: &[SocketAddr]) -> Haproxy {
        let vars: Vec<(String, String)> = (instances.iter().enumerate())
            .map(|(i, addr)| (format!("MCP_INSTANCE_{}", i + 1), addr.to_string()))
            .collect();
        Haproxy::start(config, &vars)
    }

    /// Starts HAProxy on `config` with the environment variables `vars` besides
    /// [`LISTEN_VAR`], and waits until it accepts connections. A machine without `haproxy`
    /// fails the test with one line saying how to install it; a configuration it refuses fails
    /// it with HAProxy's own words.
    pub fn start<K: AsRef<str>, V: AsRef<str>>(
        config: impl AsRef<Path>,
        vars: &[(K, V)],
    ) -> Haproxy {
        let addr = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .expect("a free loopback port");
        let dir = std::env::temp_dir().join(format!(
            "mcp-contract-haproxy-{}-{}",
            std::process::id(),
            addr.port()
        ));
        std::fs::create_dir_all(&dir).expect("a directory for HAProxy");
        let log = std::fs::File::create(dir.join("haproxy.log")).expect("a log file");
        let mut command = Command::new("haproxy");
        command
            .arg("-f")
            .arg(config.as_ref())
            // In the foreground, so that dropping the child stops it.
            .arg("-db")
            .env(LISTEN_VAR, addr.to_string());
        for (name, value) in vars {
            command.env(name.as_ref(), value.as_ref());
        }
        let process = command
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log file"))
            .stderr(log)
            .spawn();
        let process = match process {
            Ok(process) => process,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let line = format!("this test needs `haproxy`, which is not installed: {INSTALL}");
                eprintln!("{line}");
                // Unwinding without the panic hook leaves the line above as the whole report.
                std::panic::resume_unwind(Box::new(line))
            }
            Err(e) => panic!("haproxy did not start: {e}"),
        };
        let mut haproxy = Haproxy {
            addr,
            dir,
            process: Some(process),
        };
        let started = Instant::now();
        while TcpStream::connect(addr).is_err() {
            let exited = haproxy.process.as_mut().and_then(|p| p.try_wait().ok()?);
            if let Some(status) = exited {
                panic!("haproxy exited ({status}): {}", haproxy.log());
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "haproxy did not listen within 10 s: {}",
                haproxy.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        haproxy
    }

    /// Its address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What it logged so far (its alerts: a server going down or up, a refused configuration).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("haproxy.log")).unwrap_or_default()
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.kill();
            let _ = process.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
