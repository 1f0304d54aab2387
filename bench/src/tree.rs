//! A deterministic tree of source-like text files to run the workload on.
//!
//! The same seed and file count always give the same paths, sizes and bytes, so runs on
//! different days (and different servers in one run) see the same tree.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::Path;

/// The literal the content search looks for; the generator plants it in about one file in ten.
pub const MARKER: &str = "TODO(peer-bench)";

/// The top-level directories of the tree.
const AREAS: [&str; 10] = [
    "api", "cli", "core", "docs", "infra", "net", "storage", "tests", "tools", "ui",
];

/// Module directories per area; each module also has a `detail/` subdirectory.
const MODULES_PER_AREA: usize = 6;

/// Words for names and text; a few are not ASCII, as real text has.
const WORDS: [&str; 48] = [
    "alpha", "buffer", "cache", "config", "cursor", "delta", "encode", "entry", "error", "event",
    "field", "filter", "frame", "graph", "handle", "index", "input", "layer", "limit", "lookup",
    "merge", "node", "offset", "option", "packet", "parse", "query", "queue", "range", "reader",
    "record", "render", "route", "schema", "scope", "shard", "signal", "state", "stream", "token",
    "update", "value", "vector", "writer", "café", "naïve", "über", "zone",
];

/// Extensions with their weights (out of 100).
const EXTENSIONS: [(&str, u64); 8] = [
    ("rs", 35),
    ("ts", 15),
    ("py", 10),
    ("md", 10),
    ("txt", 10),
    ("json", 10),
    ("toml", 5),
    ("yaml", 5),
];

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeSpec {
    /// How many files.
    pub files: usize,
    /// The generator's seed.
    pub seed: u64,
}

impl Default for TreeSpec {
    fn default() -> Self {
        Self {
            files: 3000,
            seed: 0x5eed_2025_1125,
        }
    }
}

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The path relative to the tree's root, with `/` separators.
    pub path: String,
    /// The size in bytes.
    pub size: u64,
    /// How many lines of it contain [`MARKER`].
    pub marker_lines: usize,
}

/// What was generated: enough to know the right answer to every operation of the workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// Every file, sorted by path.
    pub files: Vec<GeneratedFile>,
    /// Every directory below the root, sorted.
    pub dirs: Vec<String>,
}

impl Tree {
    /// The total size of the files in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// How many lines contain [`MARKER`], over all files.
    pub fn marker_lines(&self) -> usize {
        self.files.iter().map(|f| f.marker_lines).sum()
    }

    /// How many files contain [`MARKER`].
    pub fn marker_files(&self) -> usize {
        self.files.iter().filter(|f| f.marker_lines > 0).count()
    }

    /// How many files have the extension `ext` (without the dot).
    pub fn files_with_extension(&self, ext: &str) -> usize {
        let suffix = format!(".{ext}");
        self.files
            .iter()
            .filter(|f| f.path.ends_with(&suffix))
            .count()
    }

    /// The names of the direct entries (files and directories) of `dir` (`""` for the root), sorted.
    pub fn entry_names(&self, dir: &str) -> BTreeSet<String> {
        let child_name = |path: &str| -> Option<String> {
            let rest = if dir.is_empty() {
                path
            } else {
                path.strip_prefix(dir)?.strip_prefix('/')?
            };
            (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_owned())
        };
        self.files
            .iter()
            .map(|f| f.path.as_str())
            .chain(self.dirs.iter().map(String::as_str))
            .filter_map(child_name)
            .collect()
    }

    /// The module directories (`area/module`), the ones the listing rotates through.
    pub fn module_dirs(&self) -> Vec<&str> {
        self.dirs
            .iter()
            .map(String::as_str)
            .filter(|d| d.matches('/').count() == 1)
            .collect()
    }

    /// `count` files spread over the tree (every k-th file by path), for reading.
    pub fn sample_files(&self, count: usize) -> Vec<&GeneratedFile> {
        let step = (self.files.len() / count.max(1)).max(1);
        self.files.iter().step_by(step).take(count).collect()
    }
}

/// SplitMix64: small, fast, and good enough to make test data.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number in `0.0..1.0`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len() as u64) as usize]
    }

    fn extension(&mut self) -> &'static str {
        let mut roll = self.below(100);
        for (ext, weight) in EXTENSIONS {
            if roll < weight {
                return ext;
            }
            roll -= weight;
        }
        EXTENSIONS[0].0
    }

    /// A file size: log-uniform between 128 B and 16 KiB, with one file in a hundred between
    /// 64 KiB and 256 KiB.
    fn size(&mut self) -> usize {
        let (low, high) = if self.below(100) == 0 {
            (64.0 * 1024.0, 256.0 * 1024.0)
        } else {
            (128.0, 16.0 * 1024.0)
        };
        let log = f64::ln(low) + self.unit() * (f64::ln(high) - f64::ln(low));
        log.exp() as usize
    }
}

/// Generates the tree under `root`, which must exist (and should be empty).
pub fn generate(root: &Path, spec: &TreeSpec) -> io::Result<Tree> {
    let mut rng = Rng(spec.seed);
    let mut dirs = Vec::new();
    let mut leaves = Vec::new();
    for area in AREAS {
        dirs.push(area.to_owned());
        let mut modules = BTreeSet::new();
        while modules.len() < MODULES_PER_AREA {
            modules.insert(format!("{}_{}", rng.word(), rng.word()));
        }
        for module in modules {
            let module_dir = format!("{area}/{module}");
            let detail_dir = format!("{module_dir}/detail");
            leaves.push(module_dir.clone());
            leaves.push(detail_dir.clone());
            dirs.push(module_dir);
            dirs.push(detail_dir);
        }
    }
    for dir in &dirs {
        fs::create_dir_all(root.join(dir))?;
    }

    let mut files = Vec::with_capacity(spec.files);
    for index in 0..spec.files {
        let leaf = &leaves[index % leaves.len()];
        let ext = rng.extension();
        let path = format!("{leaf}/{}_{}_{index}.{ext}", rng.word(), rng.word());
        let markers = if rng.below(10) == 0 {
            1 + rng.below(2) as usize
        } else {
            0
        };
        let size = rng.size();
        let text = file_text(&mut rng, ext, size, markers);
        fs::write(root.join(&path), &text)?;
        files.push(GeneratedFile {
            path,
            size: text.len() as u64,
            marker_lines: markers,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    dirs.sort();
    Ok(Tree { files, dirs })
}

/// Text of about `size` bytes in the style of `ext`, with `markers` lines carrying [`MARKER`].
fn file_text(rng: &mut Rng, ext: &str, size: usize, markers: usize) -> String {
    let comment = match ext {
        "rs" | "ts" => "// ",
        "py" | "toml" | "yaml" => "# ",
        _ => "",
    };
    let mut lines = Vec::new();
    let mut len = 0;
    if ext == "json" {
        lines.push("{".to_owned());
    }
    while len < size {
        let line = code_line(rng, ext, comment, lines.len());
        len += line.len() + 1;
        lines.push(line);
    }
    if ext == "json" {
        lines.push("  \"end\": true".to_owned());
        lines.push("}".to_owned());
    }
    for _ in 0..markers {
        let at = rng.below(lines.len() as u64 + 1) as usize;
        let note = format!("{comment}{MARKER}: {} the {}", rng.word(), rng.word());
        lines.insert(at.min(lines.len()), note);
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

fn code_line(rng: &mut Rng, ext: &str, comment: &str, n: usize) -> String {
    let words = 3 + rng.below(9) as usize;
    let phrase: Vec<&str> = (0..words).map(|_| rng.word()).collect();
    let phrase = phrase.join(" ");
    let (a, b) = (rng.word(), rng.word());
    match (ext, rng.below(4)) {
        ("rs", 0) => format!("{comment}{phrase}"),
        ("rs", 1) => format!("fn {a}_{b}_{n}(input: &str) -> usize {{ input.len() }}"),
        ("rs", _) => format!("    let {a}_{n} = {b}.get({n}).unwrap_or_default();"),
        ("ts", 0) => format!("{comment}{phrase}"),
        ("ts", _) => format!("  const {a}{n} = await {b}.fetch(\"{phrase}\");"),
        ("py", 0) => format!("{comment}{phrase}"),
        ("py", _) => format!("    {a}_{n} = {b}.get(\"{a}\", {n})"),
        ("md", 0) => format!("## {a} {b}"),
        ("md", _) | ("txt", _) => phrase,
        ("json", _) => format!("  \"{a}_{n}\": \"{phrase}\","),
        ("toml", 0) => format!("[{a}.{b}{n}]"),
        ("toml", _) => format!("{a}_{n} = \"{phrase}\""),
        ("yaml", _) => format!("{a}_{n}: {phrase}"),
        _ => phrase,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> TreeSpec {
        TreeSpec {
            files: 300,
            seed: 7,
        }
    }

    fn read_all(root: &Path, tree: &Tree) -> Vec<Vec<u8>> {
        tree.files
            .iter()
            .map(|f| fs::read(root.join(&f.path)).unwrap())
            .collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes() {
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let first = generate(one.path(), &small()).unwrap();
        let second = generate(two.path(), &small()).unwrap();
        assert_eq!(first, second);
        assert_eq!(read_all(one.path(), &first), read_all(two.path(), &second));
    }

    #[test]
    fn another_seed_gives_another_tree() {
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let first = generate(one.path(), &small()).unwrap();
        let other = TreeSpec { seed: 8, ..small() };
        assert_ne!(first, generate(two.path(), &other).unwrap());
    }

    #[test]
    fn the_record_matches_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        let tree = generate(dir.path(), &small()).unwrap();
        assert_eq!(tree.files.len(), 300);
        let contents = read_all(dir.path(), &tree);
        for (file, bytes) in tree.files.iter().zip(&contents) {
            assert_eq!(file.size, bytes.len() as u64, "{}", file.path);
            let text = std::str::from_utf8(bytes).unwrap();
            assert_eq!(
                file.marker_lines,
                text.matches(MARKER).count(),
                "{}",
                file.path
            );
        }
        for dir_path in &tree.dirs {
            assert!(dir.path().join(dir_path).is_dir(), "{dir_path}");
        }
        let on_disk: BTreeSet<String> = fs::read_dir(dir.path().join(tree.module_dirs()[0]))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(on_disk, tree.entry_names(tree.module_dirs()[0]));
        assert_eq!(tree.entry_names("").len(), AREAS.len());
    }

    #[test]
    fn the_tree_has_what_the_workload_needs() {
        let dir = tempfile::tempdir().unwrap();
        let tree = generate(dir.path(), &small()).unwrap();
        assert_eq!(tree.module_dirs().len(), AREAS.len() * MODULES_PER_AREA);
        assert!(tree.marker_files() > 0 && tree.marker_lines() >= tree.marker_files());
        assert!(tree.files_with_extension("md") > 0);
        let sample = tree.sample_files(20);
        assert_eq!(sample.len(), 20);
        let distinct: BTreeSet<&str> = sample.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(distinct.len(), 20);
    }
}
