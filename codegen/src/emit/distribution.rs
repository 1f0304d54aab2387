//! The files that publish a server, from the manifest's `server.distribution`: the MCP
//! registry's `server.json`, an MCPB bundle's `manifest.json`, and the configurations the
//! common clients take. One identity everywhere: every file names the same server, version and
//! package as `serverInfo` does.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::model::{Contract, DistributionDef};

/// The registry schema `server.json` is written against.
pub(crate) const SERVER_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The MCPB manifest version written.
const MCPB_VERSION: &str = "0.3";

/// The registry entry: a cargo package over stdio, and the HTTP deployment when there is one.
pub(crate) fn server_json(c: &Contract, d: &DistributionDef, version: &str) -> String {
    let mut entry = json!({
        "$schema": SERVER_SCHEMA,
        "name": d.registry_name,
        "description": d.description,
        "version": version,
    });
    if let Some(title) = &c.server.title {
        entry["title"] = json!(title);
    }
    if let Some(url) = &d.repository
        && let Some(source) = repository_source(url)
    {
        entry["repository"] = json!({ "url": url, "source": source });
    }
    entry["packages"] = json!([{
        "registryType": "cargo",
        "identifier": d.package,
        "version": version,
        "transport": { "type": "stdio" },
    }]);
    if let Some(url) = &d.remote {
        entry["remotes"] = json!([{ "type": "streamable-http", "url": url }]);
    }
    pretty(&entry)
}

/// The registry's name for where a repository is hosted; the registry accepts only these.
fn repository_source(url: &str) -> Option<&'static str> {
    let host = url.strip_prefix("https://")?.split('/').next()?;
    match host {
        "github.com" => Some("github"),
        "gitlab.com" => Some("gitlab"),
        _ => None,
    }
}

/// The MCPB bundle manifest: the server's binary under `server/`, and the tools it has.
pub(crate) fn mcpb_manifest(c: &Contract, d: &DistributionDef, version: &str) -> String {
    let binary = format!("server/{}", d.package);
    let tools: Vec<Value> = c
        .tools
        .iter()
        .map(|t| json!({ "name": t.name, "description": t.published_description }))
        .collect();
    let mut manifest = json!({
        "manifest_version": MCPB_VERSION,
        "name": c.server.name,
        "version": version,
        "description": d.description,
        "author": { "name": d.author },
    });
    if let Some(title) = &c.server.title {
        manifest["display_name"] = json!(title);
    }
    if let Some(url) = &d.repository {
        manifest["repository"] = json!({ "type": "git", "url": url });
    }
    manifest["server"] = json!({
        "type": "binary",
        "entry_point": binary,
        "mcp_config": {
            "command": format!("${{__dirname}}/{binary}"),
            "args": [],
            "platform_overrides": {
                "win32": { "command": format!("${{__dirname}}/{binary}.exe") },
            },
        },
    });
    manifest["tools"] = Value::Array(tools);
    manifest["tools_generated"] = json!(false);
    pretty(&manifest)
}

/// Ready configurations for the common clients, as Markdown.
pub(crate) fn clients(c: &Contract, d: &DistributionDef) -> String {
    let (name, package) = (&c.server.name, &d.package);
    let stdio = json!({ "command": package });
    let mut out = format!(
        "# Connecting a client to {name}\n\n\
         Generated from `{source}`; do not edit: change the manifest and rebuild.\n\n\
         Install the server with `cargo install {package}`, which puts `{package}` on your\n\
         `PATH`.\n\n\
         ## Claude Code\n\n```sh\nclaude mcp add {name} -- {package}\n```\n\n\
         ## VS Code (`.vscode/mcp.json`)\n\n```json\n{vscode}\n```\n\n\
         ## Any client that takes `mcpServers`\n\n```json\n{generic}\n```\n",
        source = c.source_name,
        vscode =
            pretty_inline(&json!({ "servers": { name: { "type": "stdio", "command": package } } })),
        generic = pretty_inline(&json!({ "mcpServers": { name: stdio } })),
    );
    if let Some(url) = &d.remote {
        let _ = write!(
            out,
            "\n## The deployment at {url}\n\n```sh\nclaude mcp add --transport http {name} {url}\n```\n\n```json\n{}\n```\n",
            pretty_inline(&json!({ "mcpServers": { name: { "type": "http", "url": url } } }))
        );
    }
    out
}

/// The visible line the MCP registry looks for in a cargo package's README to prove that
/// the crate belongs to the registry name (crates.io strips HTML comments, so it must show).
pub(crate) fn mcp_name_line(d: &DistributionDef) -> String {
    format!("mcp-name: {}", d.registry_name)
}

fn pretty(value: &Value) -> String {
    pretty_inline(value) + "\n"
}

fn pretty_inline(value: &Value) -> String {
    // A `Value` built from strings and numbers always serializes.
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::{Source, load};

    fn contract(distribution: &str) -> crate::Contract {
        let text = format!(
            "server:\n  name: notes\n  title: Notes\n  distribution:\n{distribution}tools:\n  - name: ping\n    title: Ping\n    description: Answers.\n    \
             hints: {{read_only: true, destructive: false, idempotent: true, open_world: false}}\n    output: text\n"
        );
        load(&Source::new("tools.yaml", text))
            .unwrap_or_else(|_| panic!("valid"))
            .contract
    }

    fn file(c: &crate::Contract, name: &str) -> serde_json::Value {
        let files = c.distribution_files("2.0.0").expect("declared");
        let (_, text) = files.iter().find(|(n, _)| *n == name).expect("written");
        serde_json::from_str(text).expect("JSON")
    }

    const BASE: &str =
        "    registry_name: com.example/notes\n    description: Notes.\n    author: Example\n";

    #[test]
    fn a_remote_is_listed_and_the_package_defaults_to_the_server_name() {
        let c = contract(&format!(
            "{BASE}    remote: https://notes.example.com/mcp\n"
        ));
        let server = file(&c, "server.json");
        assert_eq!(server["packages"][0]["identifier"], "notes");
        assert_eq!(server["version"], "2.0.0");
        assert_eq!(
            server["remotes"],
            serde_json::json!([{"type": "streamable-http", "url": "https://notes.example.com/mcp"}])
        );
        let clients = c.distribution_files("2.0.0").expect("declared")[2]
            .1
            .clone();
        assert!(
            clients.contains("claude mcp add --transport http notes https://notes.example.com/mcp"),
            "{clients}"
        );
    }

    #[test]
    fn a_repository_the_registry_cannot_name_is_left_to_the_bundle() {
        let c = contract(&format!(
            "{BASE}    repository: https://git.example.com/notes\n    package: notes-server\n"
        ));
        let server = file(&c, "server.json");
        assert!(server.get("repository").is_none(), "{server}");
        assert_eq!(server["packages"][0]["identifier"], "notes-server");
        let bundle = file(&c, "manifest.json");
        assert_eq!(bundle["repository"]["url"], "https://git.example.com/notes");
        assert_eq!(bundle["server"]["entry_point"], "server/notes-server");
    }

    #[test]
    fn a_version_in_the_manifest_wins_over_the_crate_s() {
        let text =
            format!("server:\n  name: notes\n  version: 3.1.4\n  distribution:\n{BASE}tools: []\n");
        let c = load(&Source::new("tools.yaml", text))
            .unwrap_or_else(|_| panic!("valid"))
            .contract;
        assert_eq!(file(&c, "server.json")["version"], "3.1.4");
        assert_eq!(file(&c, "manifest.json")["version"], "3.1.4");
    }
}
