//! What the server says when a person runs it in a terminal.

use std::fmt::Write as _;
use std::path::Path;

use crate::contract;

/// The greeting: what this is, its tools with their hints, and a client configuration that
/// starts this very binary on `root`.
pub fn render(root: &Path) -> String {
    let published = mcp_contract::Published::new(&contract::SPEC);
    let spec = published.spec;
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let exe = std::env::current_exe().unwrap_or_else(|_| "mcp-workspace".into());
    let config = serde_json::json!({
        "mcpServers": {
            "workspace": {
                "command": exe.display().to_string(),
                "args": ["--root", root.display().to_string()],
            }
        }
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}: {}",
        spec.name,
        spec.version,
        spec.title.unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "Serving the files under {} over stdio (MCP).\n\nTools:",
        root.display()
    );
    // The titles line up in one column past the longest name, however long the names grow.
    let width = published
        .tools
        .iter()
        .map(|tool| tool.name.len())
        .max()
        .unwrap_or(0);
    for tool in &published.tools {
        let read_only = tool
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false);
        let title = tool.title.as_deref().unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<width$} {title}{}",
            tool.name,
            if read_only { " (read-only)" } else { "" }
        );
    }
    let _ = writeln!(
        out,
        "\nTo connect a client, add this to its MCP configuration:\n\n  {config}\n"
    );
    let _ = writeln!(out, "Waiting for a client on stdin; press Ctrl-D to stop.");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_tool_and_gives_a_working_client_configuration() {
        let dir = std::env::temp_dir();
        let text = render(&dir);
        for name in [
            contract::names::LIST_DIRECTORY,
            contract::names::READ_FILE,
            contract::names::SEARCH_TEXT,
            contract::names::WRITE_FILE,
            contract::names::CREATE_DIRECTORY,
            contract::names::EDIT_FILE,
            contract::names::MOVE_PATH,
            contract::names::DELETE_PATH,
            contract::names::APPLY_EDITS,
        ] {
            assert!(text.contains(name), "{name} missing from:\n{text}");
        }
        // The longest name still has a space before its title, and the titles line up.
        assert!(
            text.contains("  create_directory Create a directory\n"),
            "{text}"
        );
        assert!(
            text.contains("  list_directory   List a directory (read-only)\n"),
            "{text}"
        );
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with('{'))
            .expect("a configuration line");
        let config: serde_json::Value =
            serde_json::from_str(line.trim()).expect("the configuration is JSON");
        let args = &config["mcpServers"]["workspace"]["args"];
        assert_eq!(args[0], "--root");
        assert_eq!(
            args[1],
            std::fs::canonicalize(&dir).unwrap().display().to_string()
        );
    }
}
