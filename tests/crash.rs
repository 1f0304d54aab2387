//! A writer killed in the middle of a write: the built server binary is sent a large
//! `write_file` over stdio and killed (SIGKILL on Unix, so it gets no chance to clean up) at
//! points spread over the time a whole write takes. After every kill the file must hold exactly
//! its old content or exactly its new content, and no temporary file the dead writer left may
//! show in a listing, a tree or a find.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use mcp_workspace::Workspace;
use mcp_workspace::workspace::{FindOptions, ListOptions, TreeOptions};
use serde_json::json;
use sha2::{Digest as _, Sha256};
use support::Server;

mod support;

/// How many writers are killed.
const KILLS: u32 = 20;

/// The size of each of the two contents the file alternates between.
const CONTENT_BYTES: usize = 4 * 1024 * 1024;

/// The server on `root`, initialized and ready for calls.
fn initialized(root: &Path) -> Server {
    let mut server = Server::start(root);
    server.request(
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "crash-test", "version": "0"}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server
}

/// Sends `write_file` from another thread (a 4 MiB line fills the pipe, so sending blocks
/// until the server has read it) and returns at once; the send fails quietly if the server
/// is killed first.
fn send_write_in_background(
    server: &mut Server,
    content: &str,
    version: &str,
) -> std::thread::JoinHandle<()> {
    let mut stdin = server.stdin.take().expect("stdin is open");
    let line = write_request(content, version);
    std::thread::spawn(move || {
        let _ = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush());
        // Keep stdin open until the server is gone, so it never sees an early EOF.
        std::thread::sleep(Duration::from_secs(30));
    })
}

/// The JSON-RPC line of a `write_file` call that replaces `big.txt` with `content`.
fn write_request(content: &str, version: &str) -> String {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "write_file",
        "arguments": {"path": "big.txt", "content": content, "version": version}}});
    format!("{request}\n")
}

fn version(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Lines of `fill` characters whose lengths differ from the other content's, so any mix of the
/// two, at any offset, is neither of them.
fn content(fill: char, line_length: usize) -> String {
    let line = format!("{}\n", fill.to_string().repeat(line_length - 1));
    let mut text = line.repeat(CONTENT_BYTES / line_length + 1);
    text.truncate(CONTENT_BYTES);
    text
}

/// A small xorshift generator: kill points vary from run to run, and a failing run prints its
/// seed so it can be repeated with `MCP_CRASH_SEED`.
struct Jitter(u64);

impl Jitter {
    fn new() -> (Jitter, u64) {
        let seed = std::env::var("MCP_CRASH_SEED")
            .ok()
            .and_then(|seed| seed.parse().ok())
            .unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(1, |elapsed| elapsed.subsec_nanos().into())
            })
            | 1;
        (Jitter(seed), seed)
    }

    /// A factor in 0.75..1.25.
    fn factor(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        0.75 + (self.0 % 1000) as f64 / 2000.0
    }
}

/// The names of the write's temporary files in `dir` on the host.
fn temporary_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("listed")
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".mcp-workspace-") && name.ends_with(".tmp"))
        .collect()
}

/// Asserts that no listing, tree or find of the workspace shows a temporary file.
fn assert_no_temporary_file_shows(root: &Path, context: &str) {
    let workspace = Workspace::open(root).expect("the workspace opens");
    let listing = workspace
        .list_directory(".", &ListOptions::default())
        .expect("listed");
    let names: Vec<&str> = listing.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(names, ["big.txt"], "{context}: the listing");
    let everything = TreeOptions {
        include_ignored: true,
        ..TreeOptions::default()
    };
    let tree = workspace.directory_tree(".", &everything).expect("a tree");
    assert_eq!(tree.entries.len(), 1, "{context}: the tree {tree:?}");
    let all = FindOptions {
        include_ignored: true,
        ..FindOptions::default()
    };
    let found = workspace.find_files("*", &all).expect("found");
    assert_eq!(found.files.len(), 1, "{context}: the find {found:?}");
}

#[test]
fn a_writer_killed_mid_write_leaves_the_old_content_or_the_new_never_a_mix() {
    let outer = tempfile::tempdir().expect("a temporary directory");
    let root: PathBuf = outer.path().join("ws");
    std::fs::create_dir(&root).expect("created");
    let file = root.join("big.txt");
    let (old, new) = (content('a', 64), content('b', 80));
    std::fs::write(&file, &old).expect("written");

    // How long one whole write takes, from the first byte sent to the answer.
    // The request is serialized before the clock starts, as it is before each kill's.
    let mut server = initialized(&root);
    let request = write_request(&new, &version(old.as_bytes()));
    let started = Instant::now();
    let stdin = server.stdin.as_mut().expect("stdin is open");
    stdin.write_all(request.as_bytes()).expect("written");
    stdin.flush().expect("flushed");
    let answer = server.response(1);
    let whole_write = started.elapsed();
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    assert_eq!(std::fs::read(&file).expect("readable"), new.as_bytes());
    server.kill();

    let (mut jitter, seed) = Jitter::new();
    let (mut kept_old, mut became_new, mut left_behind) = (0, 0, 0);
    for kill in 0..KILLS {
        let before = std::fs::read(&file).expect("readable");
        let next = if before == old.as_bytes() { &new } else { &old };
        // The first kill comes at once; the others spread from a tenth of a whole write to a
        // little past its end, each shifted a little at random.
        let share = if kill == 0 {
            0.0
        } else {
            0.1 + 1.1 * f64::from(kill - 1) / f64::from(KILLS - 2)
        };
        let delay = whole_write.mul_f64(share * jitter.factor());
        let mut server = initialized(&root);
        let leftovers = temporary_files(&root);
        let sender = send_write_in_background(&mut server, next, &version(&before));
        let context = if kill % 2 == 0 {
            std::thread::sleep(delay);
            format!("kill {kill} after {delay:?} (seed {seed})")
        } else {
            // Aim inside the write itself: wait for its temporary file to appear, then kill
            // within a few milliseconds, while it is being filled, synced or renamed.
            let deadline = Instant::now() + whole_write * 3;
            while temporary_files(&root).len() == leftovers.len() && Instant::now() < deadline {
                std::hint::spin_loop();
            }
            let delay = Duration::from_millis(4).mul_f64(jitter.factor() - 0.75);
            std::thread::sleep(delay);
            format!("kill {kill} {delay:?} after the temporary file appeared (seed {seed})")
        };
        server.kill();
        drop(sender);

        let after = std::fs::read(&file).expect("readable");
        if after == before {
            kept_old += 1;
        } else if after == next.as_bytes() {
            became_new += 1;
        } else {
            panic!(
                "{context}: the file is neither the old content nor the new ({} bytes)",
                after.len()
            );
        }
        left_behind = temporary_files(&root).len();
        assert_no_temporary_file_shows(&root, &context);
    }
    assert!(
        left_behind > 0,
        "no kill landed inside a write (seed {seed}), so the test proved little; the kills \
         aimed at the temporary file should"
    );
    eprintln!(
        "{KILLS} kills over a {whole_write:?} write (seed {seed}): {kept_old} kept the old \
         content, {became_new} had the new, {left_behind} temporary files were left behind"
    );

    // The workspace is still usable: the file reads with the version of its bytes, and a write
    // from that version succeeds.
    let workspace = Workspace::open(&root).expect("the workspace opens");
    let bytes = std::fs::read(&file).expect("readable");
    let read = workspace
        .read_file("big.txt", Some(1), Some(1))
        .expect("read");
    assert_eq!(read.version, version(&bytes));
    workspace
        .write_file("big.txt", "done\n", Some(&read.version))
        .expect("written");
    assert_eq!(std::fs::read_to_string(&file).expect("readable"), "done\n");
}
