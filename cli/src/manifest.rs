//! A manifest a command reads: its source, named as the user gave its path, its contract,
//! and the day its removal windows are judged on.

use std::path::Path;

use mcp_contract_codegen::{Contract, Date, Source, load, render_all};

/// A `--today` value.
pub(crate) fn day(text: &str) -> Result<Date, String> {
    Date::parse(text).ok_or_else(|| format!("`{text}` is not a day written YYYY-MM-DD"))
}

/// The manifest at `path`; `Err` says it cannot be read.
pub(crate) fn read(path: &Path) -> Result<Source, String> {
    std::fs::read(path)
        .map(|bytes| {
            Source::from_bytes(path.to_string_lossy().replace('\\', "/"), bytes)
                .with_dir(path.parent().unwrap_or(Path::new("")))
        })
        .map_err(|e| format!("error: cannot read `{}`: {e}", path.display()))
}

/// The contract of a manifest; on failure, its rendered diagnostics.
pub(crate) fn contract(source: &Source) -> Result<Contract, String> {
    load(source)
        .map(|loaded| loaded.contract)
        .map_err(|d| render_all(&d, source))
}

/// The tools of group `group`, in the manifest's order, as `--group` names it; `Err` names
/// the groups there are.
pub(crate) fn group_tools(contract: &Contract, group: &str) -> Result<Vec<String>, String> {
    let groups = contract.probes().groups;
    if let Some((_, tools)) = groups.iter().find(|(name, _)| name == group) {
        return Ok(tools.clone());
    }
    let names: Vec<&str> = groups.iter().map(|(n, _)| n.as_str()).collect();
    Err(format!(
        "error: `--group {group}`: the manifest declares no such group; its groups are: {}",
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    ))
}
