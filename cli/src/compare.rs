//! The manifest against what a server publishes: both publications mapped back to manifests
//! through [`import`](crate::import) and compared by the diff engine, every change placed at
//! the manifest entry it concerns.

use mcp_contract_codegen::diff::{self, Bump, Change, Rule, Side};
use mcp_contract_codegen::probe::Probes;
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
    /// What the comparison covered: "3 tools, 1 resource, 1 template and 1 prompt".
    pub(crate) covered: String,
}

/// The lists whose entries a publication holds, with what a report calls one entry.
const LISTS: [(&str, &str); 4] = [
    ("tools", "tool"),
    ("resources", "resource"),
    ("resourceTemplates", "template"),
    ("prompts", "prompt"),
];

/// What the manifest publishes on `revision`, on `group`'s route when one is given, in the
/// form [`Published::publication`] gives: its tools (only the group's) and every resource,
/// template and prompt (a group's route serves them all).
pub(crate) fn published_by(
    contract: &Contract,
    revision: Revision,
    group: Option<&[String]>,
) -> Value {
    let mut list = contract.tools_list(revision);
    if let (Some(names), Some(tools)) = (group, list["tools"].as_array_mut()) {
        tools.retain(|t| names.iter().any(|n| t["name"] == n.as_str()));
    }
    let entries = contract.listed_entries();
    for (key, _) in &LISTS[1..] {
        list[*key] = entries[*key].clone();
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
    let theirs = import::import(name, &live.publication(), Gaps::Fill);
    let load_side = |label: &str, yaml: &str| -> Result<Contract, String> {
        let source = Source::new(label.to_owned(), yaml.to_owned());
        load(&source).map(|l| l.contract).map_err(|d| {
            format!(
                "what {label} publishes cannot be read as a manifest:\n{}",
                render_all(&d, &source)
            )
        })
    };
    let old = load_side("the manifest", &mine.yaml)?;
    let new = load_side("the server", &theirs.yaml)?;
    let mut changes = diff::diff_as_of(&old, &new, today);
    changes
        .retain(|c| !(policy == DescriptionPolicy::Ignore && c.rule.id == "DESCRIPTION_CHANGED"));
    let (probes, their_probes) = (contract.probes(), new.probes());
    for c in &mut changes {
        c.span = contract.locate(&manifest_path(&c.path, &probes, &their_probes));
        // Both sides now point into the manifest.
        c.side = Side::New;
        if policy == DescriptionPolicy::Breaking && c.rule.id == "DESCRIPTION_CHANGED" {
            c.rule = &DESCRIPTION_BREAKING;
        }
    }
    // Icons are not compared (the importer leaves them out and says so, for a person).
    let notes = (theirs.notes.into_iter())
        .filter(|n| n.at != "icons" && !mine.notes.contains(n))
        .map(|n| {
            let span = contract.locate(&format!("tools[{}]", n.tool));
            (n, span)
        })
        .collect();
    let publication = live.publication();
    let covered: Vec<String> = (LISTS.iter())
        .map(|(key, what)| (publication[*key].as_array().map_or(0, Vec::len), what))
        .filter(|(n, what)| *n > 0 || **what == "tool")
        .map(|(n, what)| format!("{n} {what}{}", if n == 1 { "" } else { "s" }))
        .collect();
    Ok(Compared {
        changes,
        notes,
        covered: covered.join(", "),
    })
}

/// An entry whose `_meta` differs from the manifest's.
pub(crate) struct MetaDifference {
    /// Its diff path, `tools[NAME]`, `resources[NAME]` or `prompts[NAME]`, for
    /// [`Contract::locate`].
    pub(crate) path: String,
    /// What a report calls it: "tool `get_note`".
    pub(crate) entry: String,
}

/// Each tool, resource, template and prompt whose `_meta` (a tool's own entries and planning
/// contracts, any entry's lifecycle) differs from the manifest's: the diff engine compares
/// what a manifest declares, and a proxy that strips or rewrites `_meta` changes only the
/// wire. Entries are matched by name, resources by URI.
pub(crate) fn meta_differences(ours: &Value, theirs: &Value) -> Vec<MetaDifference> {
    let empty = Vec::new();
    let mut found = Vec::new();
    for (key, what) in LISTS {
        let id = match key {
            "resources" => "uri",
            "resourceTemplates" => "uriTemplate",
            _ => "name",
        };
        let list = |v: &Value| v[key].as_array().unwrap_or(&empty).clone();
        let (ours, theirs) = (list(ours), list(theirs));
        for o in &ours {
            let Some(t) = theirs.iter().find(|t| t[id] == o[id]) else {
                continue;
            };
            if o.get("_meta") != t.get("_meta") {
                let name = o["name"].as_str().unwrap_or_default();
                let path = match key {
                    "tools" => format!("tools[{name}]"),
                    "prompts" => format!("prompts[{name}]"),
                    _ => format!("resources[{name}]"),
                };
                let shown = o[id].as_str().unwrap_or_default();
                found.push(MetaDifference {
                    path,
                    entry: format!("{what} `{shown}`"),
                });
            }
        }
    }
    found
}

/// The manifest's path for a change the diff engine placed on the server's side. The engine
/// names a resource as the new side (the server) does, which may name it otherwise; the URI
/// is what both share.
fn manifest_path(path: &str, ours: &Probes, theirs: &Probes) -> String {
    let renamed = (path.strip_prefix("resources["))
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(name, tail)| {
            let uri = &theirs.resources.iter().find(|r| r.name == name)?.uri;
            let ours = ours.resources.iter().find(|r| &r.uri == uri)?;
            Some(format!("resources[{}]{tail}", ours.name))
        });
    renamed.unwrap_or_else(|| path.to_owned())
}

#[cfg(test)]
mod tests {
    use mcp_contract_codegen::{Date, Revision, Source, load};
    use serde_json::json;

    use super::{DescriptionPolicy, compare, published_by};
    use crate::live::Published;

    /// A resource the server names otherwise, at the same URI: what changed on it is placed
    /// at the manifest's entry for that URI, not at the top of the file.
    #[test]
    fn a_renamed_resource_s_changes_are_placed_at_the_manifest_s_entry() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/foreign/tools.yaml"
        );
        let text = std::fs::read_to_string(path).expect("the manifest");
        let source = Source::new("tools.yaml", text.clone());
        let contract = load(&source).expect("it loads").contract;
        let revision = Revision::ALL[0];
        let mut entries = published_by(&contract, revision, None);
        let readme = &mut entries["resources"][0];
        assert_eq!(readme["uri"], "notes://readme");
        readme["name"] = json!("about");
        readme["mimeType"] = json!("text/plain");
        let published = Published {
            tools_list: json!({"tools": entries["tools"].clone()}),
            server_name: contract.server_name().to_owned(),
            entries: entries.clone(),
            initialize: json!({"serverInfo": {"name": contract.server_name()}}),
            cache: None,
        };
        let compared = compare(
            &contract,
            revision,
            None,
            &published,
            DescriptionPolicy::Compatible,
            Date::parse("2026-12-04").expect("a day"),
        )
        .expect("compared");
        let line = text
            .lines()
            .position(|l| l == "  - name: readme")
            .expect("readme")
            + 1;
        let placed: Vec<(&str, usize)> = (compared.changes.iter())
            .map(|c| (c.rule.id, source.line_col(c.span.start).0))
            .collect();
        assert!(!placed.is_empty());
        for (rule, at) in placed {
            assert!(
                at >= line && at < line + 5,
                "{rule} at line {at}, not readme's ({line})"
            );
        }
    }
}
