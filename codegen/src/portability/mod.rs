//! Client portability: what a valid contract publishes that a known client refuses, cuts or
//! misreads. Each lint is a rule of [`RULES`], with the client it protects and why; the
//! profiles a manifest (`server.profiles`) or `mcp-contract check --profile` names choose the
//! clients. A lint is a warning, since the cost is the client's, and an error under `strict`.
//!
//! The lints read what is published: the schemas as `tools/list` carries them (with shared
//! types inlined, so a lint finds a shape wherever a type puts it), the names, the
//! descriptions. A finding is placed at the parameter or field it concerns.

use mcp_contract_spec::check::schema_objects;
use mcp_contract_spec::pointer;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Severity, codes};
use crate::model::{Client, Contract, Field, OutputDef, Profile, Selection, SharedTypes, ToolDef};
use crate::source::Span;

/// One lint: the diagnostic code it reports under, the client it protects, and why.
#[derive(Debug)]
pub(crate) struct Rule {
    /// Its code, which names it in the output and in the manifest reference.
    pub code: &'static Code,
    /// The client whose limit it states.
    pub client: Client,
    /// Why, in one line, with where the limit is stated or observed.
    pub why: &'static str,
}

/// Every lint, in the order of the manifest reference's table.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        code: &codes::PORTABLE_DEFS,
        client: Client::Gemini,
        why: "Gemini rejects `$defs` references and `$ref` with sibling keys (gemini-cli#13326, opencode#12295).",
    },
    Rule {
        code: &codes::PORTABLE_UNION_IN_ITEMS,
        client: Client::Gemini,
        why: "Gemini answers 400 to tools whose array items hold an `anyOf` (mcp-server-excel#672).",
    },
    Rule {
        code: &codes::PORTABLE_ROOT_COMPOSITION,
        client: Client::Claude,
        why: "The Anthropic API refuses every request listing a tool whose `input_schema` has `oneOf`, `allOf` or `anyOf` at its root (claude-code#5319, gitlab-mcp#551).",
    },
    Rule {
        code: &codes::PORTABLE_TOOL_COUNT,
        client: Client::Copilot,
        why: "VS Code caps the tools it sends to the model at 128, other servers' tools included (vscode#248021).",
    },
    Rule {
        code: &codes::PORTABLE_NAME_LENGTH,
        client: Client::Gemini,
        why: "Gemini CLI cuts a tool name longer than 63 characters, replacing its middle with `___` (its tool-name normalization).",
    },
    Rule {
        code: &codes::PORTABLE_PREFIXED_NAME,
        client: Client::Claude,
        why: "Claude Code names an MCP tool `mcp__SERVER__TOOL`, and the Anthropic API takes tool names of at most 64 characters.",
    },
    Rule {
        code: &codes::PORTABLE_DESCRIPTION_LENGTH,
        client: Client::Claude,
        why: "Claude Code cuts MCP tool descriptions at 2,048 characters, silently (claude-code#87650).",
    },
    Rule {
        code: &codes::PORTABLE_ENUM_SIZE,
        client: Client::OpenAi,
        why: "OpenAI's strict schemas take at most 500 enum values in one schema (the API's error: \"Expected at most 500 enum values in total within a single schema\").",
    },
    Rule {
        code: &codes::PORTABLE_OMITTED_HINT,
        client: Client::OpenAi,
        why: "OpenAI's plugin portal refuses every tool whose `destructiveHint` is missing, read-only or not (anythingmcp#579).",
    },
];

/// Copilot's cap on the tools of one request.
const COPILOT_TOOLS: usize = 128;
/// The longest tool name Gemini CLI keeps whole.
const GEMINI_NAME: usize = 63;
/// The longest tool name the Anthropic API takes, prefix included.
const CLAUDE_NAME: usize = 64;
/// Where Claude Code cuts a tool description.
const CLAUDE_DESCRIPTION: usize = 2048;
/// The most enum values OpenAI's strict schemas take in one schema.
const OPENAI_ENUM_VALUES: usize = 500;

/// The lints of every client `profiles` and the manifest's own `server.profiles` select.
pub(crate) fn lint(contract: &Contract, profiles: &[Profile]) -> Vec<Diagnostic> {
    let selection =
        Selection::of((contract.server.profiles.iter().map(|(p, _)| p)).chain(profiles));
    if selection.clients.is_empty() {
        return Vec::new();
    }
    let mut lints = Lints {
        contract,
        selection,
        out: Vec::new(),
    };
    lints.defs();
    for tool in &contract.tools {
        lints.tool(tool);
    }
    lints.tool_count();
    lints.omitted_hints();
    let mut out = lints.out;
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// The manifest reference's table of lints: rule, client, why, severity.
#[cfg(test)]
pub(crate) fn table() -> String {
    use std::fmt::Write as _;
    let mut out =
        String::from("| rule | client | why | reported as |\n| --- | --- | --- | --- |\n");
    for r in RULES {
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | warning; error under `strict` |",
            r.code,
            r.client.name(),
            r.why
        );
    }
    out
}

struct Lints<'c> {
    contract: &'c Contract,
    selection: Selection,
    out: Vec<Diagnostic>,
}

impl Lints<'_> {
    /// Reports a finding of `code` when a selected client's rule has it.
    fn report(&mut self, code: &'static Code, message: String, span: Span, help: &str) {
        let Some(rule) = RULES.iter().find(|r| r.code == code) else {
            return;
        };
        if !self.selection.clients.contains(&rule.client) {
            return;
        }
        let mut d = Diagnostic::new(code, message, span)
            .label(format!("{}: {}", rule.client.name(), rule.why))
            .help(help);
        if self.selection.strict {
            d.severity = Severity::Error;
        }
        self.out.push(d);
    }

    /// `shared_types: defs`, when some schema refers to a type so.
    fn defs(&mut self) {
        let c = self.contract;
        if c.server.shared_types != SharedTypes::Defs {
            return;
        }
        let referring: Vec<&str> = (c.tools.iter())
            // A document's own `$defs` are its author's (`portable-defs` reports them there).
            .filter(|t| c.shared_types_matter(t, SharedTypes::Inline))
            .map(|t| t.name.as_str())
            .collect();
        if referring.is_empty() {
            return;
        }
        let message = format!(
            "the schemas of {} refer to shared types with `$ref` into `$defs`",
            listed("tool", &referring)
        );
        let at = c.server.shared_types_at.unwrap_or_default();
        self.report(
            &codes::PORTABLE_DEFS,
            message,
            at,
            "publish shared types inline (`shared_types: inline`, the default) for this client",
        );
    }

    fn tool(&mut self, tool: &ToolDef) {
        let c = self.contract;
        let name_at = tool.span;
        let chars = tool.name.chars().count();
        if chars > GEMINI_NAME {
            self.report(
                &codes::PORTABLE_NAME_LENGTH,
                format!("the tool name `{}` has {chars} characters", tool.name),
                name_at,
                &format!("shorten it to at most {GEMINI_NAME} characters"),
            );
        }
        let prefixed = format!("mcp__{}__{}", c.server.name, tool.name);
        let length = prefixed.chars().count();
        if length > CLAUDE_NAME {
            self.report(
                &codes::PORTABLE_PREFIXED_NAME,
                format!(
                    "the tool `{}` is `{prefixed}` to Claude Code: {length} characters",
                    tool.name
                ),
                name_at,
                &format!(
                    "keep the server's and the tool's names together within {} characters",
                    CLAUDE_NAME - "mcp____".len()
                ),
            );
        }
        let chars = tool.published_description.chars().count();
        if chars > CLAUDE_DESCRIPTION {
            self.report(
                &codes::PORTABLE_DESCRIPTION_LENGTH,
                format!("the tool `{}`'s published description has {chars} characters", tool.name),
                key(tool, "description"),
                &format!(
                    "say what the tool is for in at most {CLAUDE_DESCRIPTION} characters; a parameter's own description can carry its details"
                ),
            );
        }
        let input = (c.input_schema_as(tool, SharedTypes::Inline), Side::Input);
        let output = c
            .output_schema_as(tool, SharedTypes::Inline)
            .map(|o| (o, Side::Output));
        for (schema, side) in std::iter::once(input).chain(output) {
            self.schema(tool, &schema, side);
        }
    }

    /// The lints of one published schema, each found once per top-level property.
    fn schema(&mut self, tool: &ToolDef, schema: &Value, side: Side) {
        let place = |at: &str| Place::of(tool, side, at);
        let root = place("");
        let objects = schema_objects(schema);
        if side == Side::Input
            && let Some(keyword) = ["oneOf", "allOf", "anyOf"]
                .into_iter()
                .find(|k| schema.get(*k).is_some())
        {
            self.report(
                &codes::PORTABLE_ROOT_COMPOSITION,
                format!(
                    "the tool `{}`'s `inputSchema` has `{keyword}` at its root",
                    tool.name
                ),
                root.span,
                "state the alternatives on properties, or with `if`/`then`/`else` at the root",
            );
        }
        let referring = ["$ref", "$defs"].into_iter().find_map(|keyword| {
            let (at, _) = objects
                .iter()
                .find(|(_, keys)| keys.contains_key(keyword))?;
            Some((at, keyword))
        });
        if let Some((at, keyword)) = referring {
            let p = place(at);
            self.report(
                &codes::PORTABLE_DEFS,
                format!(
                    "the tool `{}`'s `{}` document has `{keyword}` at `{at}`",
                    tool.name,
                    side.schema()
                ),
                p.span,
                "write the referenced schemas in place of each `$ref`",
            );
        }
        let mut seen: Vec<Span> = Vec::new();
        for (at, keys) in &objects {
            let union = ["anyOf", "oneOf"]
                .into_iter()
                .find(|k| keys.contains_key(*k));
            if let Some(keyword) = union
                && under_items(at)
            {
                let p = place(at);
                if !seen.contains(&p.span) {
                    seen.push(p.span);
                    self.report(
                        &codes::PORTABLE_UNION_IN_ITEMS,
                        format!(
                            "{} has `{keyword}` inside array items at `{}{at}`",
                            p.what,
                            side.schema()
                        ),
                        p.span,
                        "give the array items one object shape, or move the choice out of the array",
                    );
                }
            }
        }
        let enums: Vec<(&String, usize)> = (objects.iter())
            .filter_map(|(at, keys)| Some((at, keys.get("enum")?.as_array()?.len())))
            .collect();
        let total: usize = enums.iter().map(|(_, n)| n).sum();
        if total > OPENAI_ENUM_VALUES
            && let Some((at, largest)) = enums.iter().max_by_key(|(_, n)| *n)
        {
            let p = place(at);
            self.report(
                &codes::PORTABLE_ENUM_SIZE,
                format!(
                    "the tool `{}`'s `{}` has {total} enum values; {} has {largest} of them",
                    tool.name,
                    side.schema(),
                    p.what
                ),
                p.span,
                &format!(
                    "keep each schema within {OPENAI_ENUM_VALUES} enum values: take a long list as a `string` the handler checks"
                ),
            );
        }
    }

    /// Tools without `destructiveHint`: once, at the first of them.
    fn omitted_hints(&mut self) {
        let bare: Vec<&ToolDef> = (self.contract.tools.iter())
            .filter(|t| t.published_hints.destructive.is_none())
            .collect();
        let Some(first) = bare.first() else { return };
        let names: Vec<&str> = bare.iter().map(|t| t.name.as_str()).collect();
        self.report(
            &codes::PORTABLE_OMITTED_HINT,
            format!("{} publish no `destructiveHint`", listed("tool", &names)),
            first.span,
            "publish all four hints: `hint_policy: all` (the default), or omit only `idempotent`",
        );
    }

    /// More tools than Copilot sends: placed at the first one over the cap.
    fn tool_count(&mut self) {
        let tools = &self.contract.tools;
        let Some(first_over) = tools.get(COPILOT_TOOLS) else {
            return;
        };
        self.report(
            &codes::PORTABLE_TOOL_COUNT,
            format!(
                "the server publishes {} tools; `{}` is the {}th",
                tools.len(),
                first_over.name,
                COPILOT_TOOLS + 1
            ),
            first_over.span,
            &format!(
                "serve tool groups (`groups:`) of at most {COPILOT_TOOLS} tools, each at its own route, and point this client at one"
            ),
        );
    }
}

/// Which of a tool's schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

impl Side {
    fn schema(self) -> &'static str {
        match self {
            Side::Input => "inputSchema",
            Side::Output => "outputSchema",
        }
    }
}

/// Where in the manifest a place of a published schema is written.
struct Place {
    /// Its parameter or field, or its tool.
    what: String,
    span: Span,
}

impl Place {
    /// The top-level property `at` is in, when the manifest declares it; else the key that
    /// gives the schema (`input_schema:`, `output:`), or the tool.
    fn of(tool: &ToolDef, side: Side, at: &str) -> Place {
        let (fields, document, noun): (&[Field], _, _) = match (side, &tool.output) {
            (Side::Input, _) => (&tool.parameters, "input_schema", "parameter"),
            (Side::Output, OutputDef::Object { fields, .. }) => (fields, "output", "field"),
            (Side::Output, _) => (&[], "output", "field"),
        };
        let name = at
            .strip_prefix("/properties/")
            .map(|rest| pointer::unescape(rest.split('/').next().unwrap_or_default()));
        match name.and_then(|n| fields.iter().find(|f| f.name == n)) {
            Some(f) => Place {
                what: format!("the {noun} `{}` of `{}`", f.name, tool.name),
                span: f.span,
            },
            None => Place {
                what: format!("the tool `{}`", tool.name),
                span: key(tool, document),
            },
        }
    }
}

/// Where `key` of the tool's mapping is written, or its name.
fn key(tool: &ToolDef, key: &str) -> Span {
    (tool.keys.iter())
        .find(|(k, _)| k == key)
        .map_or(tool.span, |(_, span)| *span)
}

/// Whether the schema at pointer `at` stands in an array's `items` (at any depth): a walk of
/// the pointer's tokens, where the token after `properties` (and the other maps of schemas)
/// is a name, after `anyOf` (and the other lists) an index, and any other a keyword.
fn under_items(at: &str) -> bool {
    let mut tokens = at.split('/').skip(1);
    while let Some(token) = tokens.next() {
        match token {
            "items" | "prefixItems" => return true,
            "properties" | "patternProperties" | "$defs" | "dependentSchemas" | "allOf"
            | "anyOf" | "oneOf" => {
                tokens.next();
            }
            _ => {}
        }
    }
    false
}

/// `3 tools (`a`, `b`, `c`)`, naming at most five.
fn listed(noun: &str, names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = if names.len() > 5 { ", …" } else { "" };
    let plural = if names.len() == 1 { "" } else { "s" };
    format!(
        "{} {noun}{plural} ({}{more})",
        names.len(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests;
