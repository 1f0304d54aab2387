//! What the clients connect to in front of a fleet: the instances themselves, each request to
//! the next in turn, or HAProxy running the repository's `deploy/haproxy.cfg` as a deployer
//! would, round-robin over them.

use std::path::Path;
use std::time::Duration;

use mcp_contract::testing::Haproxy;

use crate::client::Endpoint;
use crate::fleet::{Fleet, cpu_of};

/// One way to reach a fleet.
pub enum Front {
    /// Each request straight to the next instance, by the client.
    Direct(Vec<String>),
    /// HAProxy, and its process id (for its processor time).
    Haproxy(Haproxy, Option<u32>),
}

impl Front {
    /// The ways the run reaches a fleet, in order: directly, then through HAProxy.
    pub const WAYS: [&str; 2] = ["direct", "HAProxy"];

    /// Reaches `fleet` the `way`th of [`Front::WAYS`]. HAProxy runs only while its front
    /// lives, so that its health checks never fall in a direct run.
    pub fn start(way: usize, fleet: &Fleet) -> Front {
        if way == 0 {
            return Front::Direct(fleet.bases());
        }
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/haproxy.cfg");
        // The configuration names three instances; in front of fewer, the same instance
        // fills the other places, so that every request still goes to an instance of the fleet.
        let vars: Vec<(String, String)> = (0..3)
            .map(|i| {
                let addr = fleet.instances[i % fleet.instances.len()].addr;
                (format!("MCP_INSTANCE_{}", i + 1), addr.to_string())
            })
            .collect();
        let before = haproxy_pids();
        let haproxy = Haproxy::start(&config, &vars);
        let pid = haproxy_pids().into_iter().find(|p| !before.contains(p));
        // Its first health checks mark the instances up.
        std::thread::sleep(Duration::from_millis(500));
        Front::Haproxy(haproxy, pid)
    }

    pub fn label(&self) -> &'static str {
        match self {
            Front::Direct(_) => "direct",
            Front::Haproxy(..) => "HAProxy",
        }
    }

    /// A client of it.
    pub fn endpoint(&self) -> Endpoint {
        match self {
            Front::Direct(bases) => Endpoint::new(bases.clone()),
            Front::Haproxy(haproxy, _) => Endpoint::new(vec![haproxy.url()]),
        }
    }

    /// The processor time of what it runs besides the instances (HAProxy's) so far.
    pub fn cpu(&self) -> Option<Duration> {
        match self {
            Front::Direct(_) => None,
            Front::Haproxy(_, pid) => pid.map(cpu_of),
        }
    }
}

/// The processes of this one named `haproxy`.
fn haproxy_pids() -> Vec<u32> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let Some((name, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            // `PID (NAME) STATE PPID …`
            name.ends_with("(haproxy") && rest.split_whitespace().nth(1) == Some(me.as_str())
        })
        .collect()
}
