//! The runtime's top-level modules import one another one way only: no module reaches,
//! through any chain of `crate::` paths, back to itself. A name used through the crate root
//! (`crate::Server`) counts as an arrow to the module that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, test files and folders left out.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            found.push(path);
        }
    }
}

/// The text of `file` up to its `#[cfg(test)] mod`, without `//` comments.
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a readable file");
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of each path after `crate::`, the names of a `crate::{…}` group included.
fn targets(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut item) = (0, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.insert(first_segment(&item));
        } else {
            found.insert(first_segment(rest));
        }
    }
    found.remove("");
    found
}

fn first_segment(path: &str) -> String {
    let path = path.trim_start();
    path.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn the_top_level_modules_import_one_another_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = code(&src.join("lib.rs"));
    // The root's names, by the module that defines them: `pub use context::Context;`.
    let mut root = BTreeMap::new();
    for line in lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub use "))
    {
        let (module, names) = line.split_once("::").unwrap_or((line, ""));
        for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            root.insert(name.to_owned(), module.to_owned());
        }
    }
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let first = relative.components().next().expect("a component");
        let module = first.as_os_str().to_str().expect("UTF-8");
        let module = module.strip_suffix(".rs").unwrap_or(module).to_owned();
        if module == "lib" {
            continue;
        }
        for target in targets(&code(file)) {
            let is_module =
                |name: &str| src.join(name).is_dir() || src.join(format!("{name}.rs")).is_file();
            // A name of the root stands for the module that defines it.
            let target = if is_module(&target) {
                Some(target)
            } else {
                root.get(&target).cloned().filter(|m| is_module(m))
            };
            if let Some(target) = target
                && target != module
            {
                arrows.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    // A module on a cycle reaches itself.
    let mut cycles = Vec::new();
    for start in arrows.keys() {
        let (mut seen, mut next) = (BTreeSet::new(), vec![start.clone()]);
        while let Some(module) = next.pop() {
            for target in arrows.get(&module).into_iter().flatten() {
                if seen.insert(target.clone()) {
                    next.push(target.clone());
                }
            }
        }
        if seen.contains(start) {
            cycles.push(start.clone());
        }
    }
    assert!(
        cycles.is_empty(),
        "these modules reach themselves through their imports: {cycles:?}\narrows: {arrows:#?}"
    );
}
