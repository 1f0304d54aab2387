//! Reading planning metadata from any server's `tools/list`: the artifact contract and the
//! composition contract, published as versioned `_meta` entries.
//!
//! A planner uses them to chain tools (one tool materializes a `workspace.directory`, another
//! consumes it) and to prefer a complete operation over the primitives it wraps. They are
//! planning information, never authorization: a tool must still check every path and policy
//! when it runs, whatever its metadata says.
//!
//! The parsers refuse a malformed or inconsistent contract with an error naming the tool and
//! the field, rather than guessing: a planner acting on a half-understood contract is worse
//! than one that ignores it.
//!
//! Each contract is read at a key path: one `_meta` key (`&["com.example/artifacts"]`), or
//! that key and the nested keys below it, for a server that publishes both contracts in one
//! object (`&["gnougo", "artifacts"]` reads `_meta.gnougo.artifacts`). A generated server's
//! paths are in its `SPEC` (`artifacts_key`, `composition_key`).

use std::collections::HashSet;
use std::fmt;

use mcp_contract_spec::check::InDocument;
use mcp_contract_spec::planning::{self, CompositionProblem, Malformed, key_path};
pub use mcp_contract_spec::planning::{
    ArtifactContract, Composition, Consumed, Encoding, Mode, Produced, VERSION,
};
use mcp_contract_spec::pointer;
use rmcp::model::Tool;
use serde_json::Value;

/// Why a tool's metadata was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataError {
    /// The tool whose metadata it is.
    pub tool: String,
    /// Where in the metadata, as a JSON pointer below the contract's key path.
    pub at: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for MetadataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the planning metadata of `{}` is refused at `{}`: {}",
            self.tool, self.at, self.problem
        )
    }
}

impl std::error::Error for MetadataError {}

/// Reads the artifact contract of `tool` at the key path `key`; `Ok(None)` when the tool has
/// none there. Every pointer must resolve in the tool's own input or output schema (see
/// [`mcp_contract_spec::pointer`] for how), and an encoding must fit its field.
pub fn artifacts(tool: &Tool, key: &[&str]) -> Result<Option<ArtifactContract>, MetadataError> {
    let Some(meta) = at(tool, key) else {
        return Ok(None);
    };
    let e = refuse(tool);
    let contract = ArtifactContract::from_json(meta).map_err(|m| malformed(tool, m))?;
    let output = tool
        .output_schema
        .as_ref()
        .map(|s| Value::Object((**s).clone()));
    let input = Value::Object((*tool.input_schema).clone());
    for (i, produced) in contract.produces.iter().enumerate() {
        let at = format!("/produces/{i}");
        let Some(output) = &output else {
            return Err(e(
                &at,
                "the tool produces an artifact but declares no outputSchema".into(),
            ));
        };
        let pointer = &produced.pointer;
        let field = pointer::resolve(InDocument::new(output), pointer).map_err(|problem| {
            e(
                &format!("{at}/pointer"),
                format!("`{pointer}` is not in the outputSchema: {problem}"),
            )
        })?;
        if let Some(encoding) = produced.encoding.filter(|enc| !enc.fits(&field)) {
            return Err(e(
                &format!("{at}/encoding"),
                format!("`{encoding}` describes a string field, and `{pointer}` is not one"),
            ));
        }
    }
    for (i, consumed) in contract.consumes.iter().enumerate() {
        let pointer = &consumed.pointer;
        pointer::resolve(InDocument::new(&input), pointer).map_err(|problem| {
            e(
                &format!("/consumes/{i}/pointer"),
                format!("`{pointer}` is not in the inputSchema: {problem}"),
            )
        })?;
    }
    Ok(Some(contract))
}

/// Reads the composition contract of `tool` at the key path `key`; `Ok(None)` when it has
/// none there. Each
/// encapsulated method must be another tool of the same server (`tools`), named once.
pub fn composition(
    tool: &Tool,
    key: &[&str],
    tools: &[Tool],
) -> Result<Option<Composition>, MetadataError> {
    composition_among(tool, key, &|name| tools.iter().any(|t| t.name == name))
}

/// [`composition`], with `is_tool` telling the names of the server's tools.
fn composition_among(
    tool: &Tool,
    key: &[&str],
    is_tool: &dyn Fn(&str) -> bool,
) -> Result<Option<Composition>, MetadataError> {
    let Some(meta) = at(tool, key) else {
        return Ok(None);
    };
    let composition = Composition::from_json(meta).map_err(|m| malformed(tool, m))?;
    let methods: Vec<&str> = composition
        .encapsulates
        .iter()
        .map(String::as_str)
        .collect();
    let (_, problems) = planning::encapsulated(&tool.name, &methods, is_tool);
    let Some(&problem) = problems.first() else {
        return Ok(Some(composition));
    };
    let e = refuse(tool);
    let entry = |at: usize| format!("/encapsulates/{at}/method");
    Err(match problem {
        CompositionProblem::Empty => e(
            "/encapsulates",
            "a complete operation encapsulates at least one capability".into(),
        ),
        CompositionProblem::Itself { at } => {
            e(&entry(at), "a tool cannot encapsulate itself".into())
        }
        CompositionProblem::Duplicate { at } => {
            e(&entry(at), format!("`{}` is listed twice", methods[at]))
        }
        CompositionProblem::UnknownTool { at } => e(
            &entry(at),
            format!("`{}` is not a tool of this server", methods[at]),
        ),
    })
}

/// Reads the composition contracts of every tool of a server and refuses a cycle (a tool that
/// encapsulates, through others, itself): a planner expanding it would never finish. The
/// error names the first tool on a cycle, with its shortest one; finding it is linear in the
/// tools and their compositions, however hostile the list.
pub fn compositions(
    tools: &[Tool],
    key: &[&str],
) -> Result<Vec<(String, Composition)>, MetadataError> {
    let names: HashSet<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    let mut found = Vec::new();
    for tool in tools {
        if let Some(c) = composition_among(tool, key, &|name| names.contains(name))? {
            found.push((tool.name.to_string(), c));
        }
    }
    let graph: Vec<(&str, &[String])> = found
        .iter()
        .map(|(name, c)| (name.as_str(), c.encapsulates.as_slice()))
        .collect();
    if let Some(cycle) = planning::cycles(&graph).next() {
        return Err(MetadataError {
            tool: found[cycle.tool].0.clone(),
            at: "/encapsulates".into(),
            problem: format!("a cycle: {}", cycle.path.join(" → ")),
        });
    }
    Ok(found)
}

/// The value at `key` in the tool's `_meta`, if any.
fn at<'t>(tool: &'t Tool, key: &[&str]) -> Option<&'t Value> {
    tool.meta.as_ref().and_then(|m| key_path::lookup(m, key))
}

/// Builds the errors of one tool's metadata.
fn refuse(tool: &Tool) -> impl Fn(&str, String) -> MetadataError + '_ {
    |at: &str, problem: String| MetadataError {
        tool: tool.name.to_string(),
        at: at.to_owned(),
        problem,
    }
}

fn malformed(tool: &Tool, m: Malformed) -> MetadataError {
    refuse(tool)(&m.at, m.problem.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const KEY: &str = "com.example/artifacts";
    const COMPOSITION: &str = "com.example/composition";

    fn tool(name: &str, meta: Value) -> Tool {
        let mut tool: Tool = serde_json::from_value(json!({
            "name": name,
            "inputSchema": {"type": "object", "properties": {"workdir": {"type": "string"}, "files": {"type": "array", "items": {"type": "object", "properties": {"path": {"type": "string"}}}}}},
            "outputSchema": {"type": "object", "properties": {"dir": {"type": "string"}, "pages": {"type": "string"}, "count": {"type": "integer"}}},
        }))
        .expect("a tool");
        tool.meta = serde_json::from_value(meta).ok();
        tool
    }

    fn refused(meta: Value) -> String {
        artifacts(&tool("t", json!({ KEY: meta })), &[KEY])
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_well_formed_artifact_contract_reads_back() {
        let t = tool(
            "t",
            json!({ KEY: {
                "version": 1,
                "produces": [{"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"},
                             {"kind": "pages", "pointer": "/pages", "mode": "materialize", "encoding": "json_array"}],
                "consumes": [{"kind": "workspace.directory", "pointer": "/workdir", "required": true},
                             {"kind": "file", "pointer": "/files/0/path"}]
            }}),
        );
        let contract = artifacts(&t, &[KEY]).expect("valid").expect("present");
        assert_eq!(
            contract.produces[1],
            Produced {
                kind: "pages".into(),
                pointer: "/pages".into(),
                mode: Mode::Materialize,
                encoding: Some(Encoding::JsonArray),
            }
        );
        assert_eq!(
            contract.consumes[1],
            Consumed {
                kind: "file".into(),
                pointer: "/files/0/path".into(),
                required: false
            }
        );
        assert_eq!(
            artifacts(&tool("t", json!({})), &[KEY]),
            Ok(None),
            "no metadata is no contract"
        );
    }

    /// Both contracts in one parent object, as `_meta.gnougo.artifacts` and
    /// `_meta.gnougo.composition`: each is read at its key path, and only there.
    #[test]
    fn contracts_nested_under_one_parent_are_read_at_their_key_paths() {
        let artifacts_at: &[&str] = &["gnougo", "artifacts"];
        let composition_at: &[&str] = &["gnougo", "composition"];
        let whole = tool(
            "run",
            json!({"gnougo": {
                "artifacts": {"version": 1, "produces": [{"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"}], "consumes": []},
                "composition": {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": "start"}]}
            }}),
        );
        let all = [tool("start", json!({})), whole.clone()];
        let contract = artifacts(&whole, artifacts_at)
            .expect("valid")
            .expect("present");
        assert_eq!(contract.produces[0].pointer, "/dir");
        assert_eq!(
            compositions(&all, composition_at).expect("valid"),
            [(
                "run".to_owned(),
                Composition {
                    encapsulates: vec!["start".into()]
                }
            )]
        );
        // The parent is no contract, a flat key is not a path, and a path into a
        // non-object finds nothing.
        assert!(artifacts(&whole, &["gnougo"]).is_err());
        assert_eq!(artifacts(&whole, &["gnougo/artifacts"]), Ok(None));
        assert_eq!(
            artifacts(&tool("t", json!({"gnougo": 1})), artifacts_at),
            Ok(None)
        );
        // A malformed nested contract is refused, not skipped.
        let broken = tool("t", json!({"gnougo": {"artifacts": {"version": 2}}}));
        assert!(artifacts(&broken, artifacts_at).is_err());
    }

    #[test]
    fn malformed_or_inconsistent_artifact_contracts_are_refused() {
        let cases = [
            (json!({"version": 2}), "/version"),
            (
                json!({"version": 1, "extra": true}),
                "unknown field `extra`",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/dir", "mode": "copy"}]}),
                "/produces/0/mode",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/nope", "mode": "materialize"}]}),
                "`/nope` is not in the outputSchema",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/dir", "mode": "materialize", "encoding": "csv"}]}),
                "unknown encoding",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "/count", "mode": "materialize", "encoding": "json_array"}]}),
                "describes a string field",
            ),
            (
                json!({"version": 1, "produces": [{"kind": "Work Dir", "pointer": "/dir", "mode": "materialize"}]}),
                "is not a kind",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": "/dir"}]}),
                "`/dir` is not in the inputSchema",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": "/workdir", "required": "yes"}]}),
                "/consumes/0/required",
            ),
            (
                json!({"version": 1, "consumes": {"kind": "x"}}),
                "/consumes",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": "/files/01/path"}]}),
                "`/files/01/path` is not in the inputSchema",
            ),
            (
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": "/files/+0/path"}]}),
                "`/files/+0/path` is not in the inputSchema",
            ),
        ];
        for (meta, expected) in cases {
            let message = refused(meta.clone());
            assert!(message.contains(expected), "{meta}: {message}");
            assert!(
                message.starts_with("the planning metadata of `t` is refused"),
                "{message}"
            );
        }
    }

    /// RFC 6901's empty pointer names the whole arguments or result object, never a field
    /// an artifact can be; the generator refuses it too.
    #[test]
    fn the_empty_pointer_is_refused() {
        for (side, meta) in [
            (
                "outputSchema",
                json!({"version": 1, "produces": [{"kind": "x", "pointer": "", "mode": "materialize"}]}),
            ),
            (
                "inputSchema",
                json!({"version": 1, "consumes": [{"kind": "x", "pointer": ""}]}),
            ),
        ] {
            let message = refused(meta);
            assert!(
                message.contains(&format!(
                    "`` is not in the {side}: the empty pointer names the whole document, not a field"
                )),
                "{message}"
            );
        }
    }

    /// `properties` describes every object instance whatever `type` says: a schema without
    /// `type` is followed through it, one whose `type` rules objects out is not.
    #[test]
    fn a_pointer_follows_properties_unless_the_type_rules_objects_out() {
        let with_output = |output: Value| {
            let mut t = tool(
                "t",
                json!({ KEY: {"version": 1, "produces": [{"kind": "x", "pointer": "/window/start", "mode": "materialize"}]}}),
            );
            t.output_schema = serde_json::from_value(output).ok();
            artifacts(&t, &[KEY])
        };
        let untyped = json!({"type": "object", "properties": {"window": {"properties": {"start": {"type": "string"}}}}});
        assert!(with_output(untyped).is_ok_and(|c| c.is_some()));
        let string = json!({"type": "object", "properties": {"window": {"type": "string", "properties": {"start": {"type": "string"}}}}});
        let refused = with_output(string).expect_err("a string has no fields");
        assert!(
            refused
                .problem
                .contains("`/window/start` is not in the outputSchema"),
            "{refused}"
        );
    }

    #[test]
    fn compositions_name_other_tools_of_the_same_server_once() {
        let parts = [tool("start", json!({})), tool("finish", json!({}))];
        let whole = tool(
            "run",
            json!({ COMPOSITION: {"version": 1, "kind": "complete_operation",
            "encapsulates": [{"kind": "tool", "method": "start"}, {"kind": "tool", "method": "finish"}]}}),
        );
        let all = [parts[0].clone(), parts[1].clone(), whole.clone()];
        assert_eq!(
            composition(&whole, &[COMPOSITION], &all).expect("valid"),
            Some(Composition {
                encapsulates: vec!["start".into(), "finish".into()]
            })
        );
        let bad = |encapsulates: Value| {
            let t = tool(
                "run",
                json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": encapsulates}}),
            );
            composition(&t, &[COMPOSITION], &all)
                .expect_err("refused")
                .problem
        };
        assert_eq!(
            bad(json!([{"kind": "tool", "method": "run"}])),
            "a tool cannot encapsulate itself"
        );
        assert_eq!(
            bad(json!([{"kind": "tool", "method": "elsewhere"}])),
            "`elsewhere` is not a tool of this server"
        );
        assert_eq!(
            bad(json!([{"kind": "tool", "method": "start"}, {"kind": "tool", "method": "start"}])),
            "`start` is listed twice"
        );
        assert_eq!(
            bad(json!([])),
            "a complete operation encapsulates at least one capability"
        );
        assert_eq!(
            bad(json!([{"kind": "prompt", "method": "start"}])),
            "the kind must be `tool`"
        );
    }

    #[test]
    fn a_cycle_of_compositions_is_refused() {
        let wraps = |name: &str, inner: &str| {
            tool(
                name,
                json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": inner}]}}),
            )
        };
        let cyclic = [wraps("a", "b"), wraps("b", "c"), wraps("c", "a")];
        let error = compositions(&cyclic, &[COMPOSITION]).expect_err("a cycle");
        assert_eq!(error.problem, "a cycle: a → b → c → a");
        let into = [wraps("a", "b"), wraps("b", "c"), wraps("c", "b")];
        let error = compositions(&into, &[COMPOSITION]).expect_err("a cycle");
        assert_eq!(error.tool, "b");
        assert_eq!(error.problem, "a cycle: b → c → b");
        let chain = [wraps("a", "b"), wraps("b", "c"), tool("c", json!({}))];
        assert_eq!(
            compositions(&chain, &[COMPOSITION])
                .expect("no cycle")
                .len(),
            2
        );
    }

    /// A long chain, each tool wrapping the next: every start reaches the rest of the chain,
    /// so looking each reached tool up by scanning the list would be cubic.
    #[test]
    fn a_long_chain_of_compositions_is_read_quickly() {
        // A bound on complexity, not a benchmark: linear takes a fraction of a second here even
        // on a loaded machine, cubic about a minute.
        const BOUND: std::time::Duration = std::time::Duration::from_secs(20);
        let n = 3000;
        let name = |i: usize| format!("t{i}");
        let tools: Vec<Tool> = (0..n)
            .map(|i| {
                let meta = if i + 1 == n {
                    json!({})
                } else {
                    json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": name(i + 1)}]}})
                };
                tool(&name(i), meta)
            })
            .collect();
        let started = std::time::Instant::now();
        assert_eq!(
            compositions(&tools, &[COMPOSITION]).expect("acyclic").len(),
            n - 1
        );
        let took = started.elapsed();
        assert!(took < BOUND, "took {took:?}");

        // The same chain ending in a cycle: the first tool on it is named, not a tool that
        // only reaches it.
        let mut cyclic = tools;
        cyclic[n - 1] = tool(
            &name(n - 1),
            json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": name(n - 2)}]}}),
        );
        let started = std::time::Instant::now();
        let error = compositions(&cyclic, &[COMPOSITION]).expect_err("a cycle");
        assert_eq!(error.tool, name(n - 2));
        assert_eq!(error.problem, "a cycle: t2998 → t2999 → t2998");
        let took = started.elapsed();
        assert!(took < BOUND, "took {took:?}");
    }

    /// Forty tools, each wrapping every later one: 2^38 paths, but each tool is reached once.
    #[test]
    fn a_dense_list_of_compositions_is_read_without_following_every_path() {
        let n = 40;
        let name = |i: usize| format!("t{i}");
        let tools: Vec<Tool> = (0..n)
            .map(|i| {
                let inner: Vec<Value> = (i + 1..n)
                    .map(|j| json!({"kind": "tool", "method": name(j)}))
                    .collect();
                let meta = if inner.is_empty() {
                    json!({})
                } else {
                    json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": inner}})
                };
                tool(&name(i), meta)
            })
            .collect();
        assert_eq!(
            compositions(&tools, &[COMPOSITION]).expect("acyclic").len(),
            n - 1
        );
        let mut cyclic = tools;
        cyclic[n - 1] = tool(
            &name(n - 1),
            json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": "t0"}]}}),
        );
        let error = compositions(&cyclic, &[COMPOSITION]).expect_err("a cycle");
        assert_eq!(error.problem, "a cycle: t0 → t39 → t0");
    }
}
