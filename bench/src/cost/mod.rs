//! The cost benchmark's generator: the same server of N tools in three styles, written as
//! Cargo packages (`src/bin/cost.rs` builds, times and drives them; see `docs/benchmarks.md`).
//!
//! Every tool has the shape of issue 16: two strings (`path`, at least one character, and
//! `query`), a bounded integer (`limit`, 1 to 100), an optional boolean (`recursive`) and an
//! enum (`mode`: `fast` or `slow`); it answers `{"echo": "<tool>|<path>|<query>|<limit>|<recursive>|<mode>"}`.
//! The styles:
//! - `macros`: rmcp's `#[tool_router]`/`#[tool]` with a schemars argument struct per tool, the
//!   router built once and kept in a field (the macros' fastest configuration), and the bounds
//!   checked by hand in each handler, since serde does not check them;
//! - `contract`: a `tools.yaml`, a `build.rs` calling `mcp_contract_codegen::compile`, and the
//!   generated `Tools` trait implemented;
//! - `hand`: a hand-written `ServerHandler` with a precomputed tool list and a map from name to
//!   handler function, the floor.

mod contract;
mod driver;
mod hand;
mod macros;

use std::fmt::Write as _;

pub use driver::{DRIVER_MAIN, driver_manifest, driver_servers};

/// The three ways of writing the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// rmcp's macros.
    Macros,
    /// mcp-contract.
    Contract,
    /// A hand-written `ServerHandler`.
    Hand,
}

impl Style {
    /// Every style, in the order tables show them.
    pub const ALL: [Style; 3] = [Style::Macros, Style::Contract, Style::Hand];

    /// The style's name in package names and tables.
    pub fn name(self) -> &'static str {
        match self {
            Style::Macros => "macros",
            Style::Contract => "contract",
            Style::Hand => "hand",
        }
    }

    /// The package name of this style's server of `tools` tools.
    pub fn package(self, tools: usize) -> String {
        format!("{}-{tools}", self.name())
    }
}

/// Where the generated packages find the workspace's runtime and generator.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The folder of the `mcp-contract` runtime package.
    pub runtime: String,
    /// The folder of the `mcp-contract-codegen` package.
    pub codegen: String,
}

/// One generated file: its path in the package and its text.
pub type File = (String, String);

/// What a generated package varies by: how many tools, and which revision of the first
/// handler's body (a rebuild after editing one handler flips it).
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// How many tools.
    pub tools: usize,
    /// The first handler's edit: 0 is the original body.
    pub edit: u32,
    /// Whether the package has a `src/main.rs` serving it over stdio.
    pub stdio: bool,
}

/// The files of `style`'s package for `variant`, with its own `[workspace]` so that it builds
/// on its own, wherever it is written.
pub fn package(style: Style, variant: Variant, paths: &Paths, standalone: bool) -> Vec<File> {
    let mut files = match style {
        Style::Macros => macros::files(variant),
        Style::Contract => contract::files(variant, paths),
        Style::Hand => hand::files(variant),
    };
    if standalone {
        let (_, manifest) = files
            .iter_mut()
            .find(|(path, _)| path == "Cargo.toml")
            .expect("every package has a manifest");
        manifest.push_str("\n[workspace]\n");
    }
    if variant.stdio {
        files.push(("src/main.rs".into(), main_rs(style, variant.tools)));
    }
    files
}

/// The name of tool `i`.
pub fn tool_name(i: usize) -> String {
    format!("tool_{i}")
}

/// The Rust type-name stem of tool `i` (`Tool7`).
fn stem(i: usize) -> String {
    format!("Tool{i}")
}

/// The format every style's `echo` function shares, so that all three answer alike.
const ECHO_FN: &str = "\
/// The answer every tool gives: what it was asked, in one line.
pub fn echo(tool: &str, path: &str, query: &str, limit: u64, recursive: Option<bool>, mode: &str) -> String {
    format!(\"{tool}|{path}|{query}|{limit}|{recursive:?}|{mode}\")
}
";

/// The bounds serde does not check, checked by hand in the macro and hand-written styles, as
/// their users would (`ErrorData` in scope).
const CHECK_FN: &str = "\
/// The bounds serde does not check.
pub fn check(path: &str, limit: u64) -> Result<(), ErrorData> {
    if path.is_empty() {
        return Err(ErrorData::invalid_params(\"`path` must not be empty\", None));
    }
    if !(1..=100).contains(&limit) {
        return Err(ErrorData::invalid_params(\"`limit` must be between 1 and 100\", None));
    }
    Ok(())
}
";

/// The statement the first handler's body starts with for edit `edit` (nothing for 0): real
/// code, so that the compiler has a function body to compile again.
fn edit_statement(i: usize, edit: u32) -> String {
    if i == 0 && edit > 0 {
        format!("std::hint::black_box(\"edit {edit}\"); ")
    } else {
        String::new()
    }
}

/// The package's `[package]` and `[profile]` head.
fn package_head(name: &str) -> String {
    let mut head = String::new();
    let _ = write!(
        head,
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\npath = \"src/lib.rs\"\n\n"
    );
    head
}

/// A stdio `main` for a style's server.
fn main_rs(style: Style, tools: usize) -> String {
    let krate = style.package(tools).replace('-', "_");
    match style {
        Style::Contract => format!(
            "#[tokio::main]\nasync fn main() -> std::io::Result<()> {{\n    {krate}::server().serve_stdio().await\n}}\n"
        ),
        Style::Macros | Style::Hand => format!(
            "use rmcp::ServiceExt;\n\n#[tokio::main]\nasync fn main() {{\n    \
             let running = {krate}::Server::new().serve(rmcp::transport::stdio()).await.expect(\"initialized\");\n    \
             let _ = running.waiting().await;\n}}\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> Paths {
        Paths {
            runtime: "/r".into(),
            codegen: "/c".into(),
        }
    }

    #[test]
    fn every_style_has_a_manifest_and_a_library_with_every_tool() {
        for style in Style::ALL {
            let files = package(
                style,
                Variant {
                    tools: 3,
                    edit: 0,
                    stdio: true,
                },
                &paths(),
                true,
            );
            let find = |p: &str| {
                files
                    .iter()
                    .find(|(path, _)| path == p)
                    .map(|(_, t)| t.clone())
            };
            let manifest = find("Cargo.toml").expect("manifest");
            assert!(manifest.contains(&format!("name = \"{}\"", style.package(3))));
            assert!(manifest.ends_with("[workspace]\n"));
            assert!(find("src/main.rs").is_some());
            let all: String = files.iter().map(|(_, t)| t.as_str()).collect();
            for i in 0..3 {
                assert!(
                    all.contains(&format!("\"tool_{i}\""))
                        || all.contains(&format!("name: tool_{i}\n")),
                    "{style:?} {i}"
                );
            }
        }
    }

    #[test]
    fn an_edit_changes_only_the_first_handler() {
        for style in Style::ALL {
            let v = |edit| Variant {
                tools: 2,
                edit,
                stdio: false,
            };
            let a = package(style, v(0), &paths(), false);
            let b = package(style, v(1), &paths(), false);
            let changed: Vec<&str> = a
                .iter()
                .zip(&b)
                .filter(|(x, y)| x != y)
                .map(|(x, _)| x.0.as_str())
                .collect();
            assert_eq!(changed, ["src/lib.rs"], "{style:?}");
        }
    }
}
