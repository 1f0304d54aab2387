//! A workspace to test against, with a secret beside it that no operation may ever reach.

use std::path::{Path, PathBuf};

use crate::workspace::Workspace;

/// The content of the file outside the workspace; no result or error may ever contain it.
pub(crate) const SECRET: &str = "TOP-SECRET-do-not-leak-7f3a";

/// A temporary directory holding `outside/secret.txt` and the workspace root `ws`:
///
/// ```text
/// ws/.gitignore         "*.log\n"
/// ws/README.md          "# Demo\nfn main is documented here\n" (34 bytes)
/// ws/empty              ""
/// ws/ignored.log        "fn main in a log\n"
/// ws/src/main.rs        "fn main() {\n    println!(\"hi\");\n}\n" (34 bytes)
/// ws/src/nested/lib.rs  "pub fn Main() {}\n"
/// ```
pub(crate) struct Fixture {
    /// Keeps the directory alive; it is removed on drop.
    _outer: tempfile::TempDir,
    /// The workspace root on the host.
    pub(crate) root: PathBuf,
    /// The directory beside the root that holds the secret.
    pub(crate) outside: PathBuf,
    /// The workspace opened on `root`.
    pub(crate) workspace: Workspace,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        let outer = tempfile::tempdir().expect("a temporary directory");
        let outside = outer.path().join("outside");
        let root = outer.path().join("ws");
        for dir in [&outside, &root] {
            std::fs::create_dir_all(dir).expect("created");
        }
        std::fs::write(outside.join("secret.txt"), format!("{SECRET}\n")).expect("written");
        let files: [(&str, &str); 6] = [
            (".gitignore", "*.log\n"),
            ("README.md", "# Demo\nfn main is documented here\n"),
            ("empty", ""),
            ("ignored.log", "fn main in a log\n"),
            ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
            ("src/nested/lib.rs", "pub fn Main() {}\n"),
        ];
        for (path, contents) in files {
            write_file(&root.join(path), contents.as_bytes());
        }
        let workspace = Workspace::open(&root).expect("the workspace opens");
        Fixture {
            _outer: outer,
            root,
            outside,
            workspace,
        }
    }

    /// The host path of `relative` inside the root, for setting up and checking tests.
    pub(crate) fn host_path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Asserts that the error `operation` gave for `path` holds neither the secret nor a host
    /// path the caller did not write themselves.
    pub(crate) fn assert_no_leak(&self, operation: &str, path: &str, err: &super::WorkspaceError) {
        let text = format!("{err} {err:?}");
        assert!(
            !text.contains(SECRET),
            "{operation} `{path}` leaked the secret: {text}"
        );
        for host in [&self.root, &self.outside] {
            let host = host.to_string_lossy();
            if !path.contains(host.as_ref()) {
                assert!(
                    !text.contains(host.as_ref()),
                    "{operation} `{path}` leaked {host}: {text}"
                );
            }
        }
    }

    /// Writes a file inside the root, creating its directories.
    pub(crate) fn write(&self, relative: &str, contents: impl AsRef<[u8]>) {
        write_file(&self.host_path(relative), contents.as_ref());
    }
}

fn write_file(path: &Path, contents: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("directories created");
    }
    std::fs::write(path, contents).expect("written");
}

/// The names in `dir` (host path) that look like the atomic writes' temporary files.
pub(crate) fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("listed")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".mcp-workspace-"))
        .collect()
}
