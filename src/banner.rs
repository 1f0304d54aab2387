//! What the server says when a person runs it in a terminal.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;

use mcp_contract::rmcp::model::Tool;
use serde_json::json;

use crate::contract;

/// How the server is reached.
#[derive(Debug, Clone)]
pub enum Transport {
    /// stdin and stdout.
    Stdio,
    /// Stateless streamable HTTP on this address, at these routes.
    Http(SocketAddr, Vec<String>),
}

/// The greeting: what this is, the tools it serves with their hints, and a client
/// configuration that reaches this very server.
pub fn render(root: &Path, tools: &[Tool], transport: &Transport, read_only: bool) -> String {
    let spec = &contract::SPEC;
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}: {}",
        spec.name,
        spec.version,
        spec.title.unwrap_or_default()
    );
    let over = match transport {
        Transport::Stdio => "stdio (MCP)".to_owned(),
        Transport::Http(addr, _) => format!("streamable HTTP (MCP) on http://{addr}"),
    };
    let only = if read_only { ", read-only" } else { "" };
    let _ = writeln!(
        out,
        "Serving the files under {} over {over}{only}.\n\nTools:",
        root.display()
    );
    // The titles line up in one column past the longest name, however long the names grow.
    let width = tools.iter().map(|tool| tool.name.len()).max().unwrap_or(0);
    for tool in tools {
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
    let config = match transport {
        Transport::Stdio => {
            let exe = std::env::current_exe().unwrap_or_else(|_| "mcp-workspace".into());
            let mut args = vec!["--root".to_owned(), root.display().to_string()];
            if read_only {
                args.push("--read-only".into());
            }
            json!({ "mcpServers": { "workspace": { "command": exe.display().to_string(), "args": args } } })
        }
        Transport::Http(addr, routes) => {
            let _ = writeln!(out, "\nRoutes, one per tool group:");
            let mut servers = serde_json::Map::new();
            // Only the groups served: a group left without tools (`--read-only`) is not mounted.
            let served = spec
                .groups
                .iter()
                .filter(|g| routes.contains(&format!("/mcp/{}", g.name)));
            for group in served {
                let _ = writeln!(
                    out,
                    "  http://{addr}/mcp/{:<6} {}",
                    group.name, group.description
                );
                // Which tools answer there: the served ones of the group, in manifest order.
                let members: Vec<&str> = tools
                    .iter()
                    .map(|t| t.name.as_ref())
                    .filter(|name| group.tools.contains(name))
                    .collect();
                let _ = writeln!(out, "    tools: {}", members.join(", "));
                servers.insert(
                    format!("workspace-{}", group.name),
                    json!({ "type": "http", "url": format!("http://{addr}/mcp/{}", group.name) }),
                );
            }
            json!({ "mcpServers": servers })
        }
    };
    let _ = writeln!(
        out,
        "\nTo connect a client, add this to its MCP configuration:\n\n  {config}\n"
    );
    let _ = match transport {
        Transport::Stdio => writeln!(out, "Waiting for a client on stdin; press Ctrl-D to stop."),
        Transport::Http(..) => writeln!(out, "Press Ctrl-C to stop."),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_tool_and_gives_a_working_client_configuration() {
        let dir = std::env::temp_dir();
        let published = mcp_contract::codegen::Published::new(&contract::SPEC);
        let text = render(&dir, published.tools(), &Transport::Stdio, false);
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

    #[test]
    fn over_http_it_names_each_group_route_and_a_configuration_for_each() {
        let dir = std::env::temp_dir();
        let published = mcp_contract::codegen::Published::new(&contract::SPEC);
        let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let routes = vec!["/mcp/read".to_owned(), "/mcp/edit".to_owned()];
        let text = render(
            &dir,
            published.tools(),
            &Transport::Http(addr, routes),
            false,
        );
        assert!(text.contains("http://127.0.0.1:8080/mcp/read "), "{text}");
        assert!(text.contains("http://127.0.0.1:8080/mcp/edit "), "{text}");
        // Each route says which tools it serves.
        let tools_of = |route: &str| {
            let at = text.find(route).expect("the route is listed");
            text[at..]
                .lines()
                .nth(1)
                .expect("its tools line")
                .to_owned()
        };
        let read = tools_of("/mcp/read ");
        assert!(
            read.trim_start()
                .starts_with("tools: list_directory, read_file"),
            "{read}"
        );
        assert!(!read.contains("write_file"), "{read}");
        assert!(tools_of("/mcp/edit ").contains("write_file"), "{text}");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with('{'))
            .expect("a configuration line");
        let config: serde_json::Value = serde_json::from_str(line.trim()).expect("JSON");
        assert_eq!(
            config["mcpServers"]["workspace-read"],
            json!({"type": "http", "url": "http://127.0.0.1:8080/mcp/read"})
        );
    }

    #[test]
    fn read_only_says_so_and_passes_the_flag_on() {
        let dir = std::env::temp_dir();
        let published = mcp_contract::codegen::Published::new(&contract::SPEC);
        let text = render(&dir, published.tools(), &Transport::Stdio, true);
        assert!(text.contains("over stdio (MCP), read-only."), "{text}");
        assert!(text.contains("\"--read-only\""), "{text}");
    }
}
