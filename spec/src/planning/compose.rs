//! The composition rules: what a complete operation may encapsulate, and no tool reaching
//! itself through others, since a planner expanding it would never finish.

use std::collections::{HashMap, VecDeque};

/// Why a complete operation's list of tools, or one entry of it, is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompositionProblem {
    /// The list is empty: a complete operation wraps at least one tool.
    Empty,
    /// Entry `at` names the operation itself.
    Itself {
        /// The entry's index.
        at: usize,
    },
    /// Entry `at` names a tool an earlier entry already lists.
    Duplicate {
        /// The entry's index.
        at: usize,
    },
    /// Entry `at` names no tool of the server.
    UnknownTool {
        /// The entry's index.
        at: usize,
    },
}

/// The tools the complete operation `tool` encapsulates out of `methods`, in order, and what
/// is wrong with the list, in order: each entry must name another tool of the same server
/// (`is_tool`), once. An entry refused for one reason is not held against later ones: a
/// name listed twice but unknown is unknown twice.
pub fn encapsulated<'m>(
    tool: &str,
    methods: &[&'m str],
    is_tool: impl Fn(&str) -> bool,
) -> (Vec<&'m str>, Vec<CompositionProblem>) {
    let mut kept: Vec<&str> = Vec::new();
    let mut problems = Vec::new();
    if methods.is_empty() {
        problems.push(CompositionProblem::Empty);
    }
    for (at, &method) in methods.iter().enumerate() {
        if method == tool {
            problems.push(CompositionProblem::Itself { at });
        } else if kept.contains(&method) {
            problems.push(CompositionProblem::Duplicate { at });
        } else if is_tool(method) {
            kept.push(method);
        } else {
            problems.push(CompositionProblem::UnknownTool { at });
        }
    }
    (kept, problems)
}

/// A tool that encapsulates itself through others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle<'a> {
    /// The tool's position in the list given to [`cycles`].
    pub tool: usize,
    /// A shortest way back: the tool, the tools it goes through, and the tool again.
    pub path: Vec<&'a str>,
}

/// Every tool on a cycle of `compositions` (each complete operation's name with the names it
/// encapsulates), in the order given, with a shortest path back to itself.
///
/// The strongly connected components are found at once, in time linear in tools and edges
/// (Tarjan's algorithm, without recursion, so a hostile list cannot overflow the stack). A
/// tool's path is then one breadth-first search kept inside its component, run when the
/// iterator reaches the tool: a tool alone in its component looks at its own edges only, so a
/// reader that stops at the first cycle stays linear. Following every path instead would be
/// exponential on a dense list.
pub fn cycles<'a>(
    compositions: &[(&'a str, &'a [String])],
) -> impl Iterator<Item = Cycle<'a>> + use<'a> {
    let mut position: HashMap<&str, usize> = HashMap::new();
    for (i, (name, _)) in compositions.iter().enumerate() {
        position.entry(name).or_insert(i);
    }
    let edges: Vec<Vec<usize>> = compositions
        .iter()
        .map(|(_, inner)| {
            inner
                .iter()
                .filter_map(|m| position.get(m.as_str()).copied())
                .collect()
        })
        .collect();
    let component = components(&edges);
    let names: Vec<&'a str> = compositions.iter().map(|(n, _)| *n).collect();
    (0..names.len()).filter_map(move |v| {
        let path = shortest_cycle(v, &edges, &component)?;
        Some(Cycle {
            tool: v,
            path: path.into_iter().map(|i| names[i]).collect(),
        })
    })
}

/// Breadth first from `root` inside its component: the first tool found that leads back
/// closes a shortest cycle, as positions from `root` to `root`.
fn shortest_cycle(root: usize, edges: &[Vec<usize>], component: &[usize]) -> Option<Vec<usize>> {
    let mut parent: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([root]);
    while let Some(at) = queue.pop_front() {
        for &next in &edges[at] {
            if next == root {
                let mut path = vec![root];
                let mut back = at;
                while back != root {
                    path.insert(1, back);
                    back = parent[&back];
                }
                path.push(root);
                return Some(path);
            }
            if component[next] == component[root] && !parent.contains_key(&next) {
                parent.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The strongly connected component of each node of `edges` (node `i` points at the nodes
/// `edges[i]`), numbered in the order Tarjan's algorithm closes them.
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; n];
    let mut components = 0;
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
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        edges
            .iter()
            .map(|(n, e)| (n.to_string(), e.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    fn found(graph: &[(String, Vec<String>)]) -> Vec<String> {
        let borrowed: Vec<(&str, &[String])> = graph
            .iter()
            .map(|(n, e)| (n.as_str(), e.as_slice()))
            .collect();
        cycles(&borrowed).map(|c| c.path.join(" → ")).collect()
    }

    #[test]
    fn entries_name_other_tools_of_the_server_once() {
        let known = |name: &str| ["start", "finish", "run"].contains(&name);
        assert_eq!(
            encapsulated("run", &["start", "finish"], known),
            (vec!["start", "finish"], vec![])
        );
        assert_eq!(
            encapsulated("run", &[], known),
            (vec![], vec![CompositionProblem::Empty])
        );
        assert_eq!(
            encapsulated(
                "run",
                &["run", "start", "start", "elsewhere", "elsewhere"],
                known
            ),
            (
                vec!["start"],
                vec![
                    CompositionProblem::Itself { at: 0 },
                    CompositionProblem::Duplicate { at: 2 },
                    CompositionProblem::UnknownTool { at: 3 },
                    CompositionProblem::UnknownTool { at: 4 },
                ]
            )
        );
    }

    #[test]
    fn each_tool_on_a_cycle_has_its_shortest_way_back() {
        let ring = graph(&[
            ("ping", &["a"]),
            ("a", &["b"]),
            ("b", &["c"]),
            ("c", &["a"]),
        ]);
        assert_eq!(
            found(&ring),
            ["a → b → c → a", "b → c → a → b", "c → a → b → c"]
        );
        let pair = graph(&[("ping", &["a", "b"]), ("a", &["b"]), ("b", &["a"])]);
        assert_eq!(found(&pair), ["a → b → a", "b → a → b"]);
        let chain = graph(&[("a", &["b"]), ("b", &["c"]), ("c", &[])]);
        assert!(found(&chain).is_empty());
    }

    /// Forty tools, each wrapping every later one, and the last wrapping the first: 2^38
    /// paths, but each search reaches each tool once.
    #[test]
    fn a_dense_list_is_searched_without_following_every_path() {
        let names: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
        let mut dense: Vec<(String, Vec<String>)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), names[i + 1..].to_vec()))
            .collect();
        dense[39].1 = vec!["t0".into()];
        let first = found(&dense).into_iter().next();
        assert_eq!(first.as_deref(), Some("t0 → t39 → t0"));
    }
}
