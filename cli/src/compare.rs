//! The manifest against what a server publishes: both publications mapped back to manifests
//! through [`import`](crate::import) and compared by the diff engine, every change placed at
//! the manifest entry it concerns.

use mcp_contract_codegen::diff::{self, Bump, Change, Rule, Side};
use mcp_contract_codegen::{Contract, Date, Revision, Source, load, render_all};
use serde_json::Value;

use crate::import::{self, Gaps, Note};
use crate::live::Published;

/// How a change to a description alone counts; teams disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DescriptionPolicy {
    /// It fails the run: the model reads descriptions, and a lost sentence changes its calls.
    Breaking,
    /// Listed, never failing a `diff` (a `verify` still reports it).
    Compatible,
    /// Not listed.
    Ignore,
}

/// `DESCRIPTION_CHANGED` under `--descriptions breaking`.
static DESCRIPTION_BREAKING: Rule = Rule {
    id: "DESCRIPTION_CHANGED",
    bump: Bump::Major,
    why: "The model reads the description to choose and fill the call; a changed one changes its calls.",
};

/// What a comparison found.
#[derive(Debug)]
pub(crate) struct Compared {
    /// The diff engine's changes from the manifest to the server, each placed in the
    /// manifest (both sides are the manifest's source).
    pub(crate) changes: Vec<Change>,
    /// What the server publishes that a manifest forbids, with where in the manifest the
    /// tool is.
    pub(crate) notes: Vec<(Note, mcp_contract_codegen::Span)>,
    /// The tools the comparison covered.
    pub(crate) tools: usize,
}

/// The `tools/list` the manifest publishes on `revision`, on `group`'s route when one is given.
pub(crate) fn published_by(
    contract: &Contract,
    revision: Revision,
    group: Option<&[String]>,
) -> Value {
    let mut list = contract.tools_list(revision);
    if let (Some(names), Some(tools)) = (group, list["tools"].as_array_mut()) {
        tools.retain(|t| names.iter().any(|n| t["name"] == n.as_str()));
    }
    list
}

/// Compares `contract` (the manifest) with what a server published, on `revision`.
/// `Err` when the server's publication cannot be read as a manifest at all.
pub(crate) fn compare(
    contract: &Contract,
    revision: Revision,
    group: Option<&[String]>,
    live: &Published,
    policy: DescriptionPolicy,
    today: Date,
) -> Result<Compared, String> {
    let ours = published_by(contract, revision, group);
    let name = contract.server_name();
    let mine = import::import(name, &ours, Gaps::Fill);
    let theirs = import::import(name, &live.tools_list, Gaps::Fill);
    let load_side = |label: &str, yaml: &str| -> Result<Contract, String> {
        let source = Source::new(label.to_owned(), yaml.to_owned());
        load(&source).map(|l| l.contract).map_err(|d| {
            format!(
                "the tools {label} publishes cannot be read as a manifest:\n{}",
                render_all(&d, &source)
            )
        })
    };
    let old = load_side("the manifest", &mine.yaml)?;
    let new = load_side("the server", &theirs.yaml)?;
    let mut changes = diff::diff_as_of(&old, &new, today);
    changes
        .retain(|c| !(policy == DescriptionPolicy::Ignore && c.rule.id == "DESCRIPTION_CHANGED"));
    for c in &mut changes {
        c.span = contract.locate(&c.path);
        // Both sides now point into the manifest.
        c.side = Side::New;
        if policy == DescriptionPolicy::Breaking && c.rule.id == "DESCRIPTION_CHANGED" {
            c.rule = &DESCRIPTION_BREAKING;
        }
    }
    let notes = (theirs.notes.into_iter())
        .filter(|n| !mine.notes.contains(n))
        .map(|n| {
            let span = contract.locate(&format!("tools[{}]", n.tool));
            (n, span)
        })
        .collect();
    let tools = live.tools_list["tools"].as_array().map_or(0, Vec::len);
    Ok(Compared {
        changes,
        notes,
        tools,
    })
}

/// Each tool whose `_meta` (its own entries and the planning contracts) differs from the
/// manifest's: the diff engine compares what a manifest declares, and a proxy that strips or
/// rewrites `_meta` changes only the wire.
pub(crate) fn meta_differences(ours: &Value, theirs: &Value) -> Vec<String> {
    let empty = Vec::new();
    let tools = |v: &Value| v["tools"].as_array().unwrap_or(&empty).clone();
    let (ours, theirs) = (tools(ours), tools(theirs));
    (ours.iter())
        .filter_map(|o| {
            let t = theirs.iter().find(|t| t["name"] == o["name"])?;
            let (om, tm) = (o.get("_meta"), t.get("_meta"));
            (om != tm).then(|| o["name"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}
