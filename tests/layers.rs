//! The layers keep their arrows one way: no import cycle among the runtime's top-level modules,
//! among the generator's (its model and its emitters) or inside its Rust emitter, nor among the
//! reference server's workspace modules.
//!
//! A file's module is its path under `src` cut to a depth (at depth 1, `server.rs` and
//! `http/front.rs` are `server` and `http`). An arrow A → B is a path to B written in a file of
//! A: `crate::b::…`, `super::b::…`, or `b::…` in the file that declares `mod b`, and each path
//! of a `use` group (`crate::{a::X, b::Y}`). What a module takes from its own ancestors is no
//! arrow (the ancestor declares it), and neither is anything in comments, `#[cfg(test)]` modules
//! or test files. A path names the deepest module it reaches: `crate::model::Contract` is
//! `model`. The failure names each cycle's modules and every arrow between them, file:line.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The runtime's top-level modules: the served contract, the access rules, the server, the
/// transports.
#[test]
fn the_runtime_modules_form_no_cycle() {
    assert_no_cycle("runtime/src", 1);
}

/// The generator's model, its readers and its emitters: the model imports nothing above it.
#[test]
fn the_generator_model_and_emitters_form_no_cycle() {
    assert_no_cycle("codegen/src", 1);
}

/// One level down in the generator: the emitters among themselves (the Rust emitter's parts
/// and the fixtures it writes) and the manifest readers among themselves.
#[test]
fn the_generator_submodules_form_no_cycle() {
    assert_no_cycle("codegen/src", 3);
}

/// The reference server's modules, the workspace's operations among them.
#[test]
fn the_reference_server_modules_form_no_cycle() {
    assert_no_cycle("src", 2);
}

/// The reading itself, on a crate made up for it: each kind of arrow is seen, at its line, and
/// what is no arrow (a comment, test code, a module's own ancestor) is not.
#[test]
fn every_kind_of_arrow_is_read_and_nothing_else() {
    let root = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\n\npub use d::Top;\n",
        ),
        (
            "a.rs",
            "use crate::b::X;\n\n#[cfg(all(test, feature = \"x\"))]\nmod tests {\n    use crate::c::T;\n}\n",
        ),
        ("b/mod.rs", "mod inner;\n\npub use inner::Y;\n"),
        (
            "b/inner.rs",
            "use crate::b::Y;\nuse super::super::c::{self, Z};\n",
        ),
        (
            "c.rs",
            "// crate::b::Comment\nuse crate::{a::W, Top};\n\n#[cfg(test)]\nmod tests {\n    use crate::b::T;\n}\n",
        ),
        // Reached through the root's re-export only: `crate::Top` in c.rs is an arrow to d.
        ("d.rs", "use crate::c::Z;\n"),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("created");
        std::fs::write(path, text).expect("written");
    }
    let described = |depth| {
        let graph = Graph::read(&root, depth);
        graph.describe(&graph.cycles())
    };
    let (one, two) = (described(1), described(2));
    std::fs::remove_dir_all(&root).expect("removed");
    assert_eq!(
        one,
        "cycle: a b c d\n  a -> b: a.rs:1\n  b -> c: b/inner.rs:2\n  c -> a: c.rs:2\n  \
         c -> d: c.rs:2\n  d -> c: d.rs:1\n"
    );
    assert_eq!(
        two,
        "cycle: a b b::inner c d\n  a -> b: a.rs:1\n  b -> b::inner: b/mod.rs:3\n  \
         b::inner -> c: b/inner.rs:2\n  c -> a: c.rs:2\n  c -> d: c.rs:2\n  d -> c: d.rs:1\n"
    );
}

/// Fails with every cycle among the modules of `src` (relative to the repository) at `depth`,
/// and the arrows (file:line) that close it.
#[track_caller]
fn assert_no_cycle(src: &str, depth: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let graph = Graph::read(&root, depth);
    let cycles = graph.cycles();
    assert!(
        cycles.is_empty(),
        "{src} at depth {depth} has {} import cycle(s):\n{}",
        cycles.len(),
        graph.describe(&cycles)
    );
}

/// A module path, `["emit", "rust"]`; the crate root is empty.
type Module = Vec<String>;

/// The arrows between the modules of one crate, each with the places that write it.
struct Graph {
    arrows: BTreeMap<(String, String), Vec<String>>,
}

impl Graph {
    fn read(root: &Path, depth: usize) -> Graph {
        let mut files = Vec::new();
        source_files(root, &mut files);
        let reexports = root_reexports(root);
        let mut arrows: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for file in files {
            let rel = file.strip_prefix(root).expect("under the root");
            let module = module_of(rel);
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            let code = without_comments(without_test_module(&text));
            let children = declared_modules(&code);
            for (line, target) in paths(&code, &module, &children) {
                // A name the root re-exports (`crate::Server`) stands for the module that defines
                // it: going through the root hides an arrow, it does not remove it.
                let target = match (deepest_module(root, &target), target.first()) {
                    (found, Some(first)) if found.is_empty() => {
                        reexports.get(first).cloned().unwrap_or_default()
                    }
                    (found, _) => found,
                };
                let (from, to) = (cut(&module, depth), cut(&target, depth));
                // An ancestor (the crate root included) declares its descendants: taking what it
                // holds is no arrow back.
                if from == to || from.starts_with(&to) {
                    continue;
                }
                let places = arrows.entry((name(&from), name(&to))).or_default();
                let place = format!("{}:{line}", rel.display());
                // One line may write several paths to one module: `c::{self, Z}`.
                if places.last() != Some(&place) {
                    places.push(place);
                }
            }
        }
        Graph { arrows }
    }

    /// The strongly connected groups of more than one module (Tarjan), each sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, to) in self.arrows.keys() {
            next.entry(from).or_default().push(to);
            next.entry(to).or_default();
        }
        struct Walk<'g> {
            next: &'g BTreeMap<&'g str, Vec<&'g str>>,
            index: BTreeMap<&'g str, usize>,
            low: BTreeMap<&'g str, usize>,
            stack: Vec<&'g str>,
            groups: Vec<Vec<String>>,
        }
        impl<'g> Walk<'g> {
            fn visit(&mut self, v: &'g str) {
                let n = self.index.len();
                self.index.insert(v, n);
                self.low.insert(v, n);
                self.stack.push(v);
                for &w in &self.next[v] {
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let low = self.low[v].min(self.low[w]);
                        self.low.insert(v, low);
                    } else if self.stack.contains(&w) {
                        let low = self.low[v].min(self.index[w]);
                        self.low.insert(v, low);
                    }
                }
                if self.low[v] == self.index[v] {
                    let at = self
                        .stack
                        .iter()
                        .rposition(|&w| w == v)
                        .expect("on the stack");
                    let mut group: Vec<String> =
                        self.stack.drain(at..).map(str::to_owned).collect();
                    if group.len() > 1 {
                        group.sort();
                        self.groups.push(group);
                    }
                }
            }
        }
        let mut walk = Walk {
            next: &next,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            groups: Vec::new(),
        };
        for &v in next.keys() {
            if !walk.index.contains_key(v) {
                walk.visit(v);
            }
        }
        walk.groups.sort();
        walk.groups
    }

    /// Each cycle's modules, then every arrow between two of them with where it is written.
    fn describe(&self, cycles: &[Vec<String>]) -> String {
        let mut out = String::new();
        for group in cycles {
            let _ = writeln!(out, "cycle: {}", group.join(" "));
            for ((from, to), places) in &self.arrows {
                if group.contains(from) && group.contains(to) {
                    let _ = writeln!(out, "  {from} -> {to}: {}", places.join(", "));
                }
            }
        }
        out
    }
}

/// The `.rs` files under `dir`, test folders and test files left out.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a readable source directory")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "tests" && name != "test" {
                source_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src` holds: `emit/rust/mod.rs` is `emit::rust`, `lib.rs` the root.
fn module_of(rel: &Path) -> Module {
    let mut parts: Module = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// `text` up to its test module, `#[cfg(test)] mod … {` or `#[cfg(all(test, …))] mod … {`,
/// which by the usual shape runs to the end.
fn without_test_module(text: &str) -> &str {
    let mut from = 0;
    while let Some(at) = text[from..].find("#[cfg(") {
        let start = from + at;
        from = start + 1;
        let Some(end) = text[start..].find(")]") else {
            break;
        };
        let condition = &text[start + "#[cfg(".len()..start + end];
        let for_tests = (condition == "test" || condition.starts_with("all("))
            && condition
                .split(|c: char| !is_word(c))
                .any(|word| word == "test")
            && !condition.contains("not(test)");
        let rest = text[start + end + ")]".len()..].trim_start();
        let rest = rest
            .strip_prefix("pub(crate)")
            .or_else(|| rest.strip_prefix("pub(super)"))
            .or_else(|| rest.strip_prefix("pub"))
            .unwrap_or(rest)
            .trim_start();
        let opens_a_module = rest.strip_prefix("mod ").is_some_and(|rest| {
            rest.trim_start_matches(is_word)
                .trim_start()
                .starts_with('{')
        });
        if for_tests && opens_a_module {
            return &text[..start];
        }
    }
    text
}

/// `text` with every `//` comment (doc comments too) blanked, lines kept.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a file declares itself: `mod x;`, `pub(crate) mod x;`.
fn declared_modules(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim();
            let at = line.find("mod ")?;
            let before = line[..at].trim();
            let visibility = before.is_empty() || before.starts_with("pub");
            let name = line[at + 4..].strip_suffix(';')?.trim();
            (visibility && !name.is_empty() && name.chars().all(is_word)).then(|| name.to_owned())
        })
        .collect()
}

/// Every module path written in `code` of `module`, absolute, with its line: `crate::a::b`,
/// `super::b` (resolved against `module`) and `child::b` for a declared child, each path of a
/// `use` group (`crate::{a::X, b::Y}`) on its own.
fn paths(code: &str, module: &Module, children: &BTreeSet<String>) -> Vec<(usize, Module)> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(code.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let (before, rest) = code.split_at(at);
        if !rest.starts_with(is_word) || before.ends_with(is_word) || before.ends_with("::") {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let (tree, length) = use_tree(rest);
        let line = line_starts.partition_point(|&start| start <= at);
        for segments in tree {
            let here = module.iter().map(String::as_str);
            let absolute: Option<Vec<&str>> = match segments[0] {
                "crate" => Some(segments[1..].to_vec()),
                "super" => {
                    let ups = segments.iter().take_while(|&&s| s == "super").count();
                    let base = module.len().saturating_sub(ups);
                    Some(
                        here.take(base)
                            .chain(segments[ups..].iter().copied())
                            .collect(),
                    )
                }
                "self" => Some(here.chain(segments[1..].iter().copied()).collect()),
                first if children.contains(first) && length > first.len() => {
                    Some(here.chain(segments.iter().copied()).collect())
                }
                _ => None,
            };
            if let Some(path) = absolute {
                found.push((line, path.into_iter().map(str::to_owned).collect()));
            }
        }
        at += length;
    }
    found
}

/// The paths a path or `use` tree at the start of `text` writes, and its length: `a::b::c` of
/// `a::b::c(…)`; `a::b` of `a::b::*`; `a::x`, `a::y::z` and `a` of `a::{x, y::z, self}`.
fn use_tree(text: &str) -> (Vec<Vec<&str>>, usize) {
    let mut prefix = Vec::new();
    let mut at = 0;
    loop {
        let word = text[at..]
            .find(|c: char| !is_word(c))
            .unwrap_or(text.len() - at);
        if word == 0 {
            return (vec![prefix], at);
        }
        prefix.push(&text[at..at + word]);
        at += word;
        let Some(next) = text[at..].strip_prefix("::") else {
            return (vec![prefix], at);
        };
        if next.starts_with(is_word) {
            at += 2;
        } else if next.starts_with('*') {
            return (vec![prefix], at + 3);
        } else if next.starts_with('{') {
            return group(text, at + 3, &prefix);
        } else {
            return (vec![prefix], at);
        }
    }
}

/// The paths of the `use` group that starts at `at` in `text` (just after its `{`), each
/// behind `prefix`, and where the group ends.
fn group<'t>(text: &'t str, mut at: usize, prefix: &[&'t str]) -> (Vec<Vec<&'t str>>, usize) {
    let mut paths = Vec::new();
    loop {
        let rest = text[at..].trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        at = text.len() - rest.len();
        if rest.is_empty() || rest.starts_with('}') {
            return (paths, (at + 1).min(text.len()));
        }
        let (items, length) = use_tree(rest);
        if length == 0 {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        for item in items {
            let item = item.into_iter().filter(|&s| s != "self");
            paths.push(prefix.iter().copied().chain(item).collect());
        }
        at += length;
        // `x as y`: the alias names nothing.
        if let Some(alias) = text[at..].trim_start().strip_prefix("as ") {
            let alias = alias.trim_start();
            let end = alias.find(|c: char| !is_word(c)).unwrap_or(alias.len());
            at = text.len() - alias.len() + end;
        }
    }
}

/// The names the crate root re-exports (`pub use server::{Server, View};` in `lib.rs` or
/// `main.rs`), each with the module that defines it.
fn root_reexports(root: &Path) -> BTreeMap<String, Module> {
    let mut names = BTreeMap::new();
    for file in ["lib.rs", "main.rs"] {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue;
        };
        let code = without_comments(without_test_module(&text));
        for (at, _) in code.match_indices("pub use ") {
            let (paths, _) = use_tree(&code[at + "pub use ".len()..]);
            for path in paths {
                let path: Vec<String> = path.into_iter().map(str::to_owned).collect();
                let module = deepest_module(root, &path);
                if let (Some(name), false) = (path.last(), module.is_empty()) {
                    names.insert(name.clone(), module);
                }
            }
        }
    }
    names
}

/// The deepest module `path` names under `root`: a module is a `.rs` file or a folder.
fn deepest_module(root: &Path, path: &[String]) -> Module {
    let mut module = Vec::new();
    let mut dir = root.to_path_buf();
    for segment in path {
        let file = dir.join(format!("{segment}.rs"));
        let folder = dir.join(segment);
        if !file.is_file() && !folder.is_dir() {
            break;
        }
        module.push(segment.clone());
        dir = folder;
    }
    module
}

/// `module` cut to its first `depth` names.
fn cut(module: &Module, depth: usize) -> Module {
    module[..module.len().min(depth)].to_vec()
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "(root)".to_owned()
    } else {
        module.join("::")
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
