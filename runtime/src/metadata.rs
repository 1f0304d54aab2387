//! Reading planning metadata from any server's `tools/list`: the artifact contract and the
//! composition contract of seed 003, published as versioned `_meta` entries.
//!
//! A planner uses them to chain tools (one tool materializes a `workspace.directory`, another
//! consumes it) and to prefer a complete operation over the primitives it wraps. They are
//! planning information, never authorization: a tool must still check every path and policy
//! when it runs, whatever its metadata says.
//!
//! The parsers refuse a malformed or inconsistent contract with an error naming the tool and
//! the field, rather than guessing: a planner acting on a half-understood contract is worse
//! than one that ignores it.

use std::collections::{HashMap, HashSet};
use std::fmt;

use rmcp::model::Tool;
use serde_json::Value;

/// The only version of both contracts so far.
pub const VERSION: u64 = 1;

/// What a tool produces and consumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactContract {
    /// Artifacts found in the tool's structured output.
    pub produces: Vec<Produced>,
    /// Artifacts the tool takes in its arguments.
    pub consumes: Vec<Consumed>,
}

/// An artifact a tool materializes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Produced {
    /// The artifact's kind, such as `workspace.directory`.
    pub kind: String,
    /// A JSON pointer into the structured output.
    pub pointer: String,
    /// Whether the string field holds an exact JSON array (`encoding: json_array`).
    pub json_array: bool,
}

/// An artifact a tool takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consumed {
    /// The artifact's kind.
    pub kind: String,
    /// A JSON pointer into the arguments.
    pub pointer: String,
    /// Whether the tool needs it.
    pub required: bool,
}

/// A high-level tool and the same-server tools it encapsulates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composition {
    /// The names of the encapsulated tools, in order.
    pub encapsulates: Vec<String>,
}

/// Why a tool's metadata was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataError {
    /// The tool whose metadata it is.
    pub tool: String,
    /// Where in the metadata, as a JSON pointer below the `_meta` key.
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

/// Reads the artifact contract of `tool` under the `_meta` key `key`; `Ok(None)` when the
/// tool has none. Every pointer must resolve in the tool's own input or output schema, and
/// `json_array` may only describe a string field.
pub fn artifacts(tool: &Tool, key: &str) -> Result<Option<ArtifactContract>, MetadataError> {
    let e = refuse(tool);
    let Some(map) = contract_object(tool, key, &["version", "produces", "consumes"], &e)? else {
        return Ok(None);
    };
    let output = tool
        .output_schema
        .as_ref()
        .map(|s| Value::Object((**s).clone()));
    let input = Value::Object((*tool.input_schema).clone());
    let mut contract = ArtifactContract {
        produces: Vec::new(),
        consumes: Vec::new(),
    };
    for (i, entry) in entries(map, "produces", &e)?.iter().enumerate() {
        let at = format!("/produces/{i}");
        let entry = entry
            .as_object()
            .ok_or_else(|| e(&at, "must be an object".into()))?;
        known_keys(entry, &["kind", "pointer", "mode", "encoding"], &at, &e)?;
        let kind = kind(entry, &at, &e)?;
        let pointer = text(entry, "pointer", &at, &e)?;
        match entry.get("mode").and_then(Value::as_str) {
            Some("materialize") => {}
            other => {
                return Err(e(
                    &format!("{at}/mode"),
                    format!("the mode must be `materialize`, found {other:?}"),
                ));
            }
        }
        let json_array = match entry.get("encoding") {
            None => false,
            Some(Value::String(s)) if s == "json_array" => true,
            Some(other) => {
                return Err(e(
                    &format!("{at}/encoding"),
                    format!("unknown encoding {other}; the only one is `json_array`"),
                ));
            }
        };
        let Some(output) = &output else {
            return Err(e(
                &at,
                "the tool produces an artifact but declares no outputSchema".into(),
            ));
        };
        let field = resolve(output, &pointer).ok_or_else(|| {
            e(
                &format!("{at}/pointer"),
                format!("`{pointer}` is not in the outputSchema"),
            )
        })?;
        if json_array && field.get("type").and_then(Value::as_str) != Some("string") {
            return Err(e(
                &format!("{at}/encoding"),
                format!("`json_array` describes a string field, and `{pointer}` is not one"),
            ));
        }
        contract.produces.push(Produced {
            kind,
            pointer,
            json_array,
        });
    }
    for (i, entry) in entries(map, "consumes", &e)?.iter().enumerate() {
        let at = format!("/consumes/{i}");
        let entry = entry
            .as_object()
            .ok_or_else(|| e(&at, "must be an object".into()))?;
        known_keys(entry, &["kind", "pointer", "required"], &at, &e)?;
        let kind = kind(entry, &at, &e)?;
        let pointer = text(entry, "pointer", &at, &e)?;
        let required = match entry.get("required") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(e(
                    &format!("{at}/required"),
                    format!("must be true or false, found {other}"),
                ));
            }
        };
        resolve(&input, &pointer).ok_or_else(|| {
            e(
                &format!("{at}/pointer"),
                format!("`{pointer}` is not in the inputSchema"),
            )
        })?;
        contract.consumes.push(Consumed {
            kind,
            pointer,
            required,
        });
    }
    Ok(Some(contract))
}

/// Reads the composition contract of `tool` under `key`; `Ok(None)` when it has none. Each
/// encapsulated method must be another tool of the same server (`tools`), named once.
pub fn composition(
    tool: &Tool,
    key: &str,
    tools: &[Tool],
) -> Result<Option<Composition>, MetadataError> {
    composition_among(tool, key, &|name| tools.iter().any(|t| t.name == name))
}

/// [`composition`], with `is_tool` telling the names of the server's tools.
fn composition_among(
    tool: &Tool,
    key: &str,
    is_tool: &dyn Fn(&str) -> bool,
) -> Result<Option<Composition>, MetadataError> {
    let e = refuse(tool);
    let Some(map) = contract_object(tool, key, &["version", "kind", "encapsulates"], &e)? else {
        return Ok(None);
    };
    match map.get("kind").and_then(Value::as_str) {
        Some("complete_operation") => {}
        other => {
            return Err(e(
                "/kind",
                format!("the kind must be `complete_operation`, found {other:?}"),
            ));
        }
    }
    let list = entries(map, "encapsulates", &e)?;
    if list.is_empty() {
        return Err(e(
            "/encapsulates",
            "a complete operation encapsulates at least one capability".into(),
        ));
    }
    let mut encapsulates = Vec::new();
    let mut seen = HashSet::new();
    for (i, entry) in list.iter().enumerate() {
        let at = format!("/encapsulates/{i}");
        let entry = entry
            .as_object()
            .ok_or_else(|| e(&at, "must be an object".into()))?;
        known_keys(entry, &["kind", "method"], &at, &e)?;
        if entry.get("kind").and_then(Value::as_str) != Some("tool") {
            return Err(e(&format!("{at}/kind"), "the kind must be `tool`".into()));
        }
        let method = text(entry, "method", &at, &e)?;
        if method == tool.name {
            return Err(e(
                &format!("{at}/method"),
                "a tool cannot encapsulate itself".into(),
            ));
        }
        if !is_tool(&method) {
            return Err(e(
                &format!("{at}/method"),
                format!("`{method}` is not a tool of this server"),
            ));
        }
        if !seen.insert(method.clone()) {
            return Err(e(
                &format!("{at}/method"),
                format!("`{method}` is listed twice"),
            ));
        }
        encapsulates.push(method);
    }
    Ok(Some(Composition { encapsulates }))
}

/// Reads the composition contracts of every tool of a server and refuses a cycle (a tool that
/// encapsulates, through others, itself): a planner expanding it would never finish.
pub fn compositions(
    tools: &[Tool],
    key: &str,
) -> Result<Vec<(String, Composition)>, MetadataError> {
    let names: HashSet<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    let mut found = Vec::new();
    for tool in tools {
        if let Some(c) = composition_among(tool, key, &|name| names.contains(name))? {
            found.push((tool.name.to_string(), c));
        }
    }
    // Only a tool on a cycle can reach itself, and which tools are is found in linear time;
    // breadth first from the first of them then names its shortest cycle, remembering every
    // tool reached, where following every path would be exponential on a hostile list.
    let position: HashMap<&str, usize> = found
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = found
        .iter()
        .map(|(_, c)| {
            c.encapsulates
                .iter()
                .filter_map(|m| position.get(m.as_str()).copied())
                .collect()
        })
        .collect();
    let cyclic = on_cycle(&edges);
    if let Some(first) = cyclic.iter().position(|&on| on) {
        let start = &found[first].0;
        let mut parent: HashMap<&str, &str> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start.as_str()]);
        while let Some(name) = queue.pop_front() {
            let Some(&i) = position.get(name) else {
                continue;
            };
            for next in &found[i].1.encapsulates {
                if next == start {
                    let mut path = vec![name];
                    while let Some(&up) = parent.get(path[path.len() - 1]) {
                        path.push(up);
                    }
                    path.reverse();
                    return Err(MetadataError {
                        tool: start.clone(),
                        at: "/encapsulates".into(),
                        problem: format!("a cycle: {} → {start}", path.join(" → ")),
                    });
                }
                if !parent.contains_key(next.as_str()) {
                    parent.insert(next, name);
                    queue.push_back(next);
                }
            }
        }
    }
    Ok(found)
}

/// Which nodes lie on a cycle of `edges` (node `i` points at the nodes `edges[i]`): the
/// members of the strongly connected components of more than one node, since no tool
/// encapsulates itself. Tarjan's algorithm without recursion, linear in nodes and edges.
fn on_cycle(edges: &[Vec<usize>]) -> Vec<bool> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut cyclic = vec![false; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        // The depth-first path: each node with the number of its edges followed so far.
        let mut path = vec![(root, 0)];
        while let Some(&(v, followed)) = path.last() {
            if let Some(&w) = edges[v].get(followed) {
                if let Some(top) = path.last_mut() {
                    top.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(u, _)) = path.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 {
                    for w in members {
                        cyclic[w] = true;
                    }
                }
            }
        }
    }
    cyclic
}

type Refuse<'a> = &'a dyn Fn(&str, String) -> MetadataError;

/// Builds the errors of one tool's metadata.
fn refuse(tool: &Tool) -> impl Fn(&str, String) -> MetadataError + '_ {
    |at: &str, problem: String| MetadataError {
        tool: tool.name.to_string(),
        at: at.to_owned(),
        problem,
    }
}

/// The versioned object under `key` with only `known` fields; `None` when the tool has none.
fn contract_object<'t>(
    tool: &'t Tool,
    key: &str,
    known: &[&str],
    e: Refuse<'_>,
) -> Result<Option<&'t serde_json::Map<String, Value>>, MetadataError> {
    let Some(meta) = tool.meta.as_ref().and_then(|m| m.get(key)) else {
        return Ok(None);
    };
    let map = meta
        .as_object()
        .ok_or_else(|| e("", "must be an object".into()))?;
    version(map, e)?;
    known_keys(map, known, "", e)?;
    Ok(Some(map))
}

fn version(map: &serde_json::Map<String, Value>, e: Refuse<'_>) -> Result<(), MetadataError> {
    match map.get("version").and_then(Value::as_u64) {
        Some(VERSION) => Ok(()),
        other => Err(e(
            "/version",
            format!("version {VERSION} is the one understood, found {other:?}"),
        )),
    }
}

fn known_keys(
    map: &serde_json::Map<String, Value>,
    known: &[&str],
    at: &str,
    e: Refuse<'_>,
) -> Result<(), MetadataError> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(unknown) => Err(e(
            at,
            format!(
                "unknown field `{unknown}`; the fields are {}",
                known.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

fn entries<'m>(
    map: &'m serde_json::Map<String, Value>,
    key: &str,
    e: Refuse<'_>,
) -> Result<&'m [Value], MetadataError> {
    match map.get(key) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(e(&format!("/{key}"), "must be an array".into())),
    }
}

fn text(
    map: &serde_json::Map<String, Value>,
    key: &str,
    at: &str,
    e: Refuse<'_>,
) -> Result<String, MetadataError> {
    match map.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(e(
            &format!("{at}/{key}"),
            format!("`{key}` must be a non-empty string"),
        )),
    }
}

/// A kind is dot-separated lowercase words, such as `workspace.directory`.
fn kind(
    map: &serde_json::Map<String, Value>,
    at: &str,
    e: Refuse<'_>,
) -> Result<String, MetadataError> {
    let kind = text(map, "kind", at, e)?;
    let word = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    };
    if kind.split('.').all(word) {
        Ok(kind)
    } else {
        Err(e(
            &format!("{at}/kind"),
            format!(
                "`{kind}` is not a kind: dot-separated lowercase words, such as `workspace.directory`"
            ),
        ))
    }
}

/// The schema of the value a JSON pointer designates in instances of `schema`, following
/// `properties` by name and `items` for array indices.
fn resolve<'s>(schema: &'s Value, pointer: &str) -> Option<&'s Value> {
    if pointer.is_empty() {
        return Some(schema);
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').try_fold(schema, |node, token| {
        let token = token.replace("~1", "/").replace("~0", "~");
        match node.get("type").and_then(Value::as_str) {
            // RFC 6901: an array index is `0` or digits without a leading zero.
            Some("array")
                if token == "0"
                    || (!token.is_empty()
                        && !token.starts_with('0')
                        && token.bytes().all(|b| b.is_ascii_digit())) =>
            {
                node.get("items")
            }
            _ => node.get("properties")?.get(&token),
        }
    })
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
        artifacts(&tool("t", json!({ KEY: meta })), KEY)
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
        let contract = artifacts(&t, KEY).expect("valid").expect("present");
        assert_eq!(
            contract.produces[1],
            Produced {
                kind: "pages".into(),
                pointer: "/pages".into(),
                json_array: true
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
            artifacts(&tool("t", json!({})), KEY),
            Ok(None),
            "no metadata is no contract"
        );
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
            composition(&whole, COMPOSITION, &all).expect("valid"),
            Some(Composition {
                encapsulates: vec!["start".into(), "finish".into()]
            })
        );
        let bad = |encapsulates: Value| {
            let t = tool(
                "run",
                json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": encapsulates}}),
            );
            composition(&t, COMPOSITION, &all)
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
        let error = compositions(&cyclic, COMPOSITION).expect_err("a cycle");
        assert_eq!(error.problem, "a cycle: a → b → c → a");
        let into = [wraps("a", "b"), wraps("b", "c"), wraps("c", "b")];
        let error = compositions(&into, COMPOSITION).expect_err("a cycle");
        assert_eq!(error.tool, "b");
        assert_eq!(error.problem, "a cycle: b → c → b");
        let chain = [wraps("a", "b"), wraps("b", "c"), tool("c", json!({}))];
        assert_eq!(
            compositions(&chain, COMPOSITION).expect("no cycle").len(),
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
            compositions(&tools, COMPOSITION).expect("acyclic").len(),
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
        let error = compositions(&cyclic, COMPOSITION).expect_err("a cycle");
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
            compositions(&tools, COMPOSITION).expect("acyclic").len(),
            n - 1
        );
        let mut cyclic = tools;
        cyclic[n - 1] = tool(
            &name(n - 1),
            json!({ COMPOSITION: {"version": 1, "kind": "complete_operation", "encapsulates": [{"kind": "tool", "method": "t0"}]}}),
        );
        let error = compositions(&cyclic, COMPOSITION).expect_err("a cycle");
        assert_eq!(error.problem, "a cycle: t0 → t39 → t0");
    }
}
