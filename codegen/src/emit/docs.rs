//! Generated documents: the README tool table and the full tool reference, written straight
//! from the contract (no template engine in what `build.rs` compiles).

use std::fmt::{self, Display, Write as _};

use mcp_contract_spec::planning::Encoding;
use serde_json::Value;

use crate::keyword::Limit;
use crate::model::*;
use mcp_contract_spec::Hint;

/// The README table goes between these two lines, which the user places.
pub const TABLE_BEGIN: &str = "<!-- tools:begin -->";
/// See [`TABLE_BEGIN`].
pub const TABLE_END: &str = "<!-- tools:end -->";

/// The tool table as Markdown: name, title, what it does, its hints and groups.
///
/// A server with a `distribution` also gets the visible `mcp-name:` line the MCP registry
/// looks for in a cargo package's README.
pub(crate) fn readme_table(contract: &Contract) -> String {
    let mut out = String::new();
    // Writing to a `String` cannot fail.
    let _ = table(&mut out, contract);
    if let Some(d) = &contract.server.distribution {
        let _ = write!(out, "\n{}\n", crate::emit::distribution::mcp_name_line(d));
    }
    out
}

/// The full per-tool reference as Markdown.
pub(crate) fn reference(contract: &Contract) -> String {
    let mut out = String::with_capacity(1024 * (1 + contract.tools.len()));
    let _ = document(&mut out, contract);
    out
}

/// Why a README cannot take the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkerError {
    /// A marker is not there.
    Missing(&'static str),
    /// A marker is there more than once.
    Doubled(&'static str),
    /// The end marker comes before the begin marker.
    Reversed,
}

impl std::fmt::Display for MarkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MarkerError::Missing(m) => write!(
                f,
                "the marker `{m}` is missing; put `{TABLE_BEGIN}` and `{TABLE_END}` on their own lines where the tool table belongs"
            ),
            MarkerError::Doubled(m) => write!(
                f,
                "the marker `{m}` appears more than once; keep exactly one `{TABLE_BEGIN}` and one `{TABLE_END}`"
            ),
            MarkerError::Reversed => write!(f, "`{TABLE_END}` comes before `{TABLE_BEGIN}`"),
        }
    }
}

/// `readme` with the text between the markers replaced by `table`; nothing outside the
/// markers changes.
pub fn splice(readme: &str, table: &str) -> Result<String, MarkerError> {
    let find = |marker: &'static str| match readme.match_indices(marker).count() {
        0 => Err(MarkerError::Missing(marker)),
        1 => Ok(readme.find(marker).unwrap_or_default()),
        _ => Err(MarkerError::Doubled(marker)),
    };
    let begin = find(TABLE_BEGIN)?;
    let end = find(TABLE_END)?;
    if end < begin {
        return Err(MarkerError::Reversed);
    }
    let body_start = begin + TABLE_BEGIN.len();
    Ok(format!(
        "{}\n{}{}",
        &readme[..body_start],
        table,
        &readme[end..]
    ))
}

/// Text as one Markdown table cell: pipes escaped, lines joined.
struct Cell<'a>(&'a str);

impl Display for Cell<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(['|', '\n']) {
            f.write_str(&rest[..i])?;
            f.write_str(if rest.as_bytes()[i] == b'|' {
                "\\|"
            } else {
                " "
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

fn cell(text: &str) -> Cell<'_> {
    Cell(text)
}

/// An optional text as a cell, empty when there is none.
fn cell_or_empty(text: Option<&str>) -> Cell<'_> {
    Cell(text.unwrap_or_default())
}

/// Names as links to their sections, comma-separated.
struct Links<'a>(&'a [String]);

impl Display for Links<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}[`{name}`](#{name})")?;
        }
        Ok(())
    }
}

/// Names in code spans, comma-separated.
struct Codes<'a>(&'a [String]);

impl Display for Codes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}`{name}`")?;
        }
        Ok(())
    }
}

/// Each published hint as the documents show it, in [`Hint::ALL`] order: `true`, `false`
/// or `*unset*`, as table cells.
struct HintCells<'a>(&'a ToolDef);

impl Display for HintCells<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, hint) in Hint::ALL.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { " | " };
            match self.0.published_hints.get(hint) {
                Some(b) => write!(f, "{sep}{b}")?,
                None => write!(f, "{sep}*unset*")?,
            }
        }
        Ok(())
    }
}

/// `text` when `shown`, else nothing: an optional column's header or separator, or an aside.
fn shown_if(shown: bool, text: &'static str) -> &'static str {
    if shown { text } else { "" }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// `1 tool` or `N tools`.
fn tools_counted(n: usize) -> String {
    format!("{n} tool{}", if n == 1 { "" } else { "s" })
}

/// The README table and, when there are prompts, the prompt table.
fn table(out: &mut String, c: &Contract) -> fmt::Result {
    let groups = !c.groups.is_empty();
    let access = c.access.is_some();
    let apps = c.tools.iter().any(|t| t.app.is_some());
    writeln!(
        out,
        "| Tool | Title | What it does | Answers with | readOnly | destructive | idempotent | openWorld | Writes files |{}{}{}",
        shown_if(groups, " Groups |"),
        shown_if(access, " Scopes |"),
        shown_if(apps, " App |"),
    )?;
    writeln!(
        out,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |{}{}{}",
        shown_if(groups, " --- |"),
        shown_if(access, " --- |"),
        shown_if(apps, " --- |"),
    )?;
    for t in &c.tools {
        let what = match &t.lifecycle.deprecated {
            None => first_sentence(&t.description),
            Some(d) => format!(
                "**Deprecated**{}. {}",
                d.replaced_by
                    .as_ref()
                    .map_or(String::new(), |by| format!(": use `{by}`")),
                first_sentence(&t.description)
            ),
        };
        write!(
            out,
            "| `{}`{} | {} | {} | {} | {} | {} |",
            t.name,
            former_names(&t.lifecycle),
            cell(&t.title),
            cell(&what),
            answers(t),
            HintCells(t),
            if t.hints.read_only { "no" } else { "yes" },
        )?;
        if groups {
            write!(out, " {} |", Codes(&t.groups))?;
        }
        if access {
            write!(out, " {} |", scopes_text(&c.tool_requirement(t)))?;
        }
        if apps {
            match &t.app {
                Some(app) => write!(
                    out,
                    " `{}`{} |",
                    app.resource,
                    shown_if(app.app_only(), " (app only)")
                )?,
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    if !c.prompts.is_empty() {
        writeln!(
            out,
            "\n| Prompt | Title | What it does | Arguments |{}",
            shown_if(access, " Scopes |")
        )?;
        writeln!(
            out,
            "| --- | --- | --- | --- |{}",
            shown_if(access, " --- |")
        )?;
        for p in &c.prompts {
            let names: Vec<String> = p
                .arguments
                .iter()
                .map(|a| match a.required {
                    true => format!("`{}`", a.name),
                    false => format!("`{}`?", a.name),
                })
                .collect();
            write!(
                out,
                "| `{}`{} | {} | {} | {} |",
                p.name,
                former_names(&p.lifecycle),
                cell(&p.title),
                cell(&first_sentence(&p.description)),
                cell(&names.join(", ")),
            )?;
            if access {
                write!(out, " {} |", prompt_scopes(p))?;
            }
            out.push('\n');
        }
    }
    Ok(())
}

/// ` (was `a`, `b`)` after an entry's name in a table, for its aliases.
fn former_names(l: &Lifecycle) -> String {
    if l.aliases.is_empty() {
        return String::new();
    }
    let names: Vec<String> = l.aliases.iter().map(|a| format!("`{}`", a.name)).collect();
    format!(" (was {})", names.join(", "))
}

/// The reference's lifecycle paragraph of an entry: when it appeared, its deprecation, its
/// former names and until when each is answered; `None` when the manifest says none of it.
fn lifecycle_text(l: &Lifecycle, what: &str) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(since) = &l.since {
        parts.push(format!("Since {since}."));
    }
    if let Some(d) = &l.deprecated {
        let since = d
            .since
            .as_ref()
            .map_or(String::new(), |s| format!(" since {s}"));
        let mut text = format!("**Deprecated**{since}: {}", d.reason.trim_end_matches('.'));
        text.push('.');
        if let Some(by) = &d.replaced_by {
            text.push_str(&format!(" Use the {what} [`{by}`](#{by}) instead."));
        }
        if let Some(date) = d.remove_after {
            text.push_str(&format!(" It may be removed after {date}."));
        }
        parts.push(text);
    }
    if !l.aliases.is_empty() {
        let names: Vec<String> = (l.aliases.iter())
            .map(|a| match a.remove_after {
                Some(date) => format!("`{}` (until {date})", a.name),
                None => format!("`{}`", a.name),
            })
            .collect();
        parts.push(format!(
            "Former names, still answered and not listed: {}.",
            names.join(", ")
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

fn prompt_scopes(p: &PromptDef) -> String {
    scopes_text(&[p.scopes.iter().map(String::as_str).collect()])
}

/// The whole reference: the server, its groups, access, resources, prompts and planning
/// metadata, then a section per tool.
fn document(out: &mut String, c: &Contract) -> fmt::Result {
    let access = c.access.is_some();
    writeln!(
        out,
        "<!-- @generated by mcp-contract-codegen from `{}`. Do not edit: change the manifest and run `cargo build`. -->\n",
        c.source_name
    )?;
    writeln!(out, "# Tools of `{}`\n", c.server.name)?;
    let counted = tools_counted(c.tools.len());
    match c.server.title.as_deref().filter(|t| !t.is_empty()) {
        Some(title) => writeln!(out, "{title}: {counted}, published in this order.")?,
        None => writeln!(out, "{counted}, published in this order.")?,
    }
    if let Some(icons) = icons_line(&c.server.icons) {
        writeln!(out, "Server icons: {icons}.")?;
    }
    out.push_str(
        "Hints that the manifest's policy leaves off the wire are shown as *unset*.\n\n\
         | Tool | Title | readOnly | destructive | idempotent | openWorld |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for t in &c.tools {
        writeln!(
            out,
            "| [`{0}`](#{0}) | {1} | {2} |",
            t.name,
            cell(&t.title),
            HintCells(t)
        )?;
    }
    groups_section(out, c, access)?;
    access_section(out, c)?;
    resources_section(out, c, access)?;
    prompts_section(out, c, access)?;
    planning_section(out, c)?;
    for t in &c.tools {
        tool_section(out, c, t, access)?;
    }
    Ok(())
}

fn groups_section(out: &mut String, c: &Contract, access: bool) -> fmt::Result {
    if c.groups.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n## Groups\n\nOver HTTP each group is served at its own route; stdio serves every tool.\n\n\
         | Group | Route | Tools | What for |{}\n| --- | --- | --- | --- |{}",
        shown_if(access, " Scopes |"),
        shown_if(access, " --- |"),
    )?;
    for g in &c.groups {
        write!(
            out,
            "| `{0}` | `/mcp/{0}` | {1} | {2} |",
            g.name,
            Links(&g.tools),
            cell(&g.description)
        )?;
        if access {
            let scopes = scopes_text(&[g.scopes.iter().map(String::as_str).collect()]);
            write!(out, " {scopes} |")?;
        }
        out.push('\n');
    }
    Ok(())
}

fn access_section(out: &mut String, c: &Contract) -> fmt::Result {
    let Some(a) = &c.access else {
        return Ok(());
    };
    out.push_str(
        "\n## Access\n\n\
         Over HTTP with authorization, a caller lists and calls only what its token's scopes allow;\n\
         anything else is as if it did not exist. A tool needs its own scopes and, in groups, those of\n\
         one of its groups; a group's scopes guard its route too. stdio serves everything. A\n\
         requirement is written as a token's `scope` carries it, space-separated and each needed, with\n\
         \"or\" between alternatives.\n\n\
         | Scope | What it grants |\n\
         | --- | --- |\n",
    );
    for s in &a.scopes {
        writeln!(out, "| `{}` | {} |", s.name, cell(&s.description))?;
    }
    if let Some((resource, _)) = a.resource.as_ref().filter(|(r, _)| !r.is_empty()) {
        writeln!(
            out,
            "\nResource identifier (the tokens' audience): `{resource}`."
        )?;
    }
    if !a.authorization_servers.is_empty() {
        let servers: Vec<String> = a
            .authorization_servers
            .iter()
            .map(|(s, _)| format!("`{s}`"))
            .collect();
        writeln!(out, "\nAuthorization servers: {}.", servers.join(", "))?;
    }
    Ok(())
}

fn resources_section(out: &mut String, c: &Contract, access: bool) -> fmt::Result {
    if c.resources.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n## Resources\n\n| Name | URI | Title | MIME type | Description | Handler |{}\n| --- | --- | --- | --- | --- | --- |{}",
        shown_if(access, " Scopes |"),
        shown_if(access, " --- |"),
    )?;
    for r in &c.resources {
        write!(
            out,
            "| `{}` | `{}`{}{} | {} | `{}` | {} | {} |",
            r.name,
            r.uri.text(),
            former_names(&r.lifecycle),
            shown_if(matches!(r.uri, ResourceUri::Template { .. }), " (template)"),
            cell(&r.title),
            r.mime_type,
            cell(&r.description),
            if r.handled() {
                format!("`{}`", r.method)
            } else {
                "none: an app, its HTML served by the runtime".to_owned()
            },
        )?;
        if access {
            let scopes = scopes_text(&[r.scopes.iter().map(String::as_str).collect()]);
            write!(out, " {scopes} |")?;
        }
        out.push('\n');
    }
    for r in &c.resources {
        for (variable, completion) in &r.completions {
            writeln!(
                out,
                "\n`{{{variable}}}` of `{}` completes {}.",
                r.name,
                completion_text(completion)
            )?;
        }
    }
    let mut first = true;
    for r in &c.resources {
        if let Some(icons) = icons_line(&r.icons) {
            if std::mem::take(&mut first) {
                out.push('\n');
            }
            writeln!(out, "- Icons of `{}`: {icons}.", r.name)?;
        }
    }
    for r in &c.resources {
        owned_questions(out, "A read of", &r.name, &r.questions)?;
    }
    for r in &c.resources {
        if let Some(app) = &r.app {
            app_section(out, r, app)?;
        }
    }
    Ok(())
}

/// A tool's app line: the resource it opens and who may call it.
fn app_text(app: &ToolAppDef) -> String {
    let who = match app.visibility.as_slice() {
        [Visibility::Model] => "the model only; the app cannot call it",
        [Visibility::App] => "the app only; hosts keep it from the model",
        _ => "the model and the app",
    };
    format!(
        "App: opens `{}` (`{}`). Called by {who}.",
        app.resource, app.uri
    )
}

/// What a host is told about an app's frame.
fn app_section(out: &mut String, r: &ResourceDef, app: &AppDef) -> fmt::Result {
    let source = app
        .file
        .as_deref()
        .map_or("written in the manifest".to_owned(), |f| {
            format!("from `{f}`")
        });
    writeln!(
        out,
        "
App `{}`: HTML {source}, served as `{}` (the version is the start of the HTML's SHA-256).",
        r.name,
        r.published_uri()
    )?;
    for (name, origins) in app.csp.lists() {
        if !origins.is_empty() {
            writeln!(out, "- CSP `{name}`: {}.", Codes(origins))?;
        }
    }
    if !app.permissions.is_empty() {
        let names: Vec<String> = app
            .permissions
            .iter()
            .map(|p| p.wire_name().to_owned())
            .collect();
        writeln!(out, "- Permissions: {}.", Codes(&names))?;
    }
    if let Some(domain) = &app.domain {
        writeln!(out, "- Domain: `{domain}`.")?;
    }
    if let Some(border) = app.prefers_border {
        writeln!(out, "- Prefers a border: {}.", yes_no(border))?;
    }
    Ok(())
}

/// The questions of a prompt or resource, under a line naming it (`what` `name`).
fn owned_questions(out: &mut String, what: &str, name: &str, qs: &[QuestionDef]) -> fmt::Result {
    if qs.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "
{what} `{name}` may ask the user (elicitation), when the client can:"
    )?;
    for q in qs {
        questions(out, q)?;
    }
    Ok(())
}

fn prompts_section(out: &mut String, c: &Contract, access: bool) -> fmt::Result {
    if c.prompts.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n## Prompts\n\n| Prompt | Title | Description | Handler |{}\n| --- | --- | --- | --- |{}",
        shown_if(access, " Scopes |"),
        shown_if(access, " --- |"),
    )?;
    for p in &c.prompts {
        write!(
            out,
            "| `{}`{} | {} | {} | `{}` |",
            p.name,
            former_names(&p.lifecycle),
            cell(&p.title),
            cell(&p.description),
            p.method
        )?;
        if access {
            write!(out, " {} |", prompt_scopes(p))?;
        }
        out.push('\n');
    }
    let mut first = true;
    for p in &c.prompts {
        if let Some(icons) = icons_line(&p.icons) {
            if std::mem::take(&mut first) {
                out.push('\n');
            }
            writeln!(out, "- Icons of `{}`: {icons}.", p.name)?;
        }
    }
    for p in c.prompts.iter().filter(|p| !p.arguments.is_empty()) {
        writeln!(
            out,
            "\nArguments of `{}`:\n\n| Argument | Required | Completion | Description |\n| --- | --- | --- | --- |",
            p.name
        )?;
        for a in &p.arguments {
            let completion = a.completion.as_ref().map(completion_text);
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                a.name,
                yes_no(a.required),
                cell_or_empty(completion.as_deref()),
                cell(&a.description)
            )?;
        }
    }
    for p in &c.prompts {
        owned_questions(out, "The prompt", &p.name, &p.questions)?;
    }
    Ok(())
}

fn planning_section(out: &mut String, c: &Contract) -> fmt::Result {
    let planned = c
        .tools
        .iter()
        .any(|t| t.artifacts.is_some() || !t.encapsulates.is_empty());
    if !planned {
        return Ok(());
    }
    let planning = &c.planning;
    writeln!(
        out,
        "\n## Planning metadata\n\n\
         Tools publish what they produce and consume under `_meta{}`, and the tools a\n\
         complete operation wraps under `_meta{}` (both `version: 1`). A planner uses\n\
         them to chain tools and to prefer a complete operation over its parts. They are planning\n\
         information, never authorization: every call is still checked when it runs.\n\n\
         | Artifact kind | What it is |\n\
         | --- | --- |",
        subscripts(&planning.artifacts_key.keys),
        subscripts(&planning.composition_key.keys),
    )?;
    for (kind, description) in &planning.kinds {
        writeln!(out, "| `{kind}` | {} |", cell(description))?;
    }
    Ok(())
}

/// A tool's section: everything about it.
fn tool_section(out: &mut String, c: &Contract, t: &ToolDef, access: bool) -> fmt::Result {
    writeln!(
        out,
        "\n## {}\n\n**{}**\n\n{}\n",
        t.name, t.title, t.published_description
    )?;
    if let Some(icons) = icons_line(&t.icons) {
        writeln!(out, "Icons: {icons}.\n")?;
    }
    if let Some(lifecycle) = lifecycle_text(&t.lifecycle, "tool") {
        writeln!(out, "{lifecycle}\n")?;
    }
    if access {
        writeln!(out, "Scopes: {}.\n", scopes_text(&c.tool_requirement(t)))?;
    }
    if let Some(app) = &t.app {
        writeln!(out, "{}\n", app_text(app))?;
    }
    match t.task {
        TaskMode::Forbidden => {}
        TaskMode::Optional => out.push_str(
            "Runs long: a client that opted in to tasks gets a task (`task: optional`); any other client, a normal call.\n\n",
        ),
        TaskMode::Required => out.push_str(
            "Runs long: only as a task (`task: required`); a client that did not opt in to tasks is refused.\n\n",
        ),
    }
    if let Some(why) = t.why.as_deref().filter(|w| !w.is_empty()) {
        writeln!(out, "### Why these hints\n\n{why}\n")?;
    }
    out.push_str("### Parameters\n\n");
    if let Some(document) = &t.input {
        out.push_str("As this JSON Schema states them:\n\n");
        json_block(out, document)?;
    } else if t.parameters.is_empty() {
        out.push_str("Takes no arguments.\n");
    } else {
        out.push_str(
            "| Name | Type | Required | Default | Constraints | Description | Examples |\n\
             | --- | --- | --- | --- | --- | --- | --- |\n",
        );
        for f in &t.parameters {
            field_rows(out, c, f, "", true, "")?;
        }
    }
    out.push_str("\n### Output\n\n");
    match &t.output {
        OutputDef::Text if t.content.is_empty() => out.push_str("Plain text.\n"),
        OutputDef::Text => out.push_str("No structured output.\n"),
        OutputDef::Document(document) => json_block(out, document)?,
        OutputDef::Object {
            description,
            fields,
        } => {
            if let Some(d) = description.as_deref().filter(|d| !d.is_empty()) {
                writeln!(out, "{d}\n")?;
            }
            out.push_str(
                "| Field | Type | Always present | Description |\n| --- | --- | --- | --- |\n",
            );
            for f in fields {
                field_rows(out, c, f, "", false, "")?;
            }
        }
    }
    if !t.content.is_empty() {
        let beside = match t.output {
            OutputDef::Text => "",
            OutputDef::Object { .. } | OutputDef::Document(_) => ", beside the structured output",
        };
        writeln!(
            out,
            "\nAnswers with content blocks of these kinds, any number of each, in the handler's order{beside}:\n\n| Kind | MIME types |\n| --- | --- |"
        )?;
        for b in &t.content {
            let (kind, what) = (b.kind.name(), b.kind.prose());
            write!(out, "| `{kind}`")?;
            if what != kind {
                write!(out, " ({what})")?;
            }
            if b.mime_types.is_empty() {
                out.push_str(" | — |\n");
            } else {
                writeln!(out, " | {} |", Codes(&b.mime_types))?;
            }
        }
    }
    if !t.errors.is_empty() {
        out.push_str("\n### Errors\n\n| Code | Message | Hint |\n| --- | --- | --- |\n");
        for &i in &t.errors {
            let e = &c.errors[i];
            writeln!(
                out,
                "| `{}`{} | {} | {} |",
                e.code,
                shown_if(e.names_argument, " (names its argument)"),
                cell(&e.message.source),
                cell_or_empty(e.hint.as_ref().map(|h| h.source.as_str())),
            )?;
        }
    }
    if !t.questions.is_empty() {
        out.push_str(
            "\n### Questions\n\nIt may ask the user (elicitation), when the client can:\n",
        );
        for q in &t.questions {
            questions(out, q)?;
        }
    }
    composition(out, t)?;
    let meta = crate::emit::wire::published_meta(c, t);
    if !meta.is_empty() {
        writeln!(
            out,
            "\n### `_meta`\n\n```json\n{}\n```",
            serde_json::to_string_pretty(&meta).unwrap_or_default()
        )?;
    }
    Ok(())
}

/// A question as the reference lists it: its id, type, mode and message, and each field's
/// kind with its constraints.
fn questions(out: &mut String, q: &QuestionDef) -> fmt::Result {
    writeln!(
        out,
        "\n- `{}` (`{}`{}): {}",
        q.id,
        q.rust_name,
        shown_if(matches!(q.mode, QuestionMode::Url), ", URL mode"),
        q.message.source
    )?;
    if q.fields().is_empty() {
        return Ok(());
    }
    out.push_str(
        "\n  | Field | Kind | Required | Title | Description |\n  | --- | --- | --- | --- | --- |\n",
    );
    for f in q.fields() {
        let field = &f.field;
        let values = |e: &EnumDef| {
            e.values
                .iter()
                .map(|(v, _)| match f.titles.iter().find(|(t, _)| t == v) {
                    Some((_, title)) => format!("`{v}` ({title})"),
                    None => format!("`{v}`"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut kind = match &field.schema.kind {
            Kind::Enum(e) => format!("one of {}", values(e)),
            Kind::Array(items) => match &items.kind {
                Kind::Enum(e) => format!("any of {}", values(e)),
                _ => "array".into(),
            },
            Kind::String => "string".into(),
            Kind::Integer => "integer".into(),
            Kind::Number => "number".into(),
            Kind::Boolean => "boolean".into(),
            Kind::Json | Kind::Object(_) | Kind::Named(_) | Kind::Document(_) | Kind::Union(_) => {
                String::new()
            }
        };
        for (keyword, value) in field.schema.constraints.iter() {
            let _ = write!(kind, "; `{}: {}`", keyword.name(), value.to_json());
        }
        let required = match (&field.default, field.required) {
            (_, true) => "yes".to_owned(),
            (Some(d), false) => format!("no, default {d}"),
            (None, false) => "no".to_owned(),
        };
        let dash = |text: Option<&str>| match text.filter(|t| !t.is_empty()) {
            Some(t) => cell(t).to_string(),
            None => "—".to_owned(),
        };
        writeln!(
            out,
            "  | `{}` | {} | {required} | {} | {} |",
            field.name,
            cell(&kind),
            dash(f.title.as_deref()),
            dash(field.schema.description.as_deref()),
        )?;
    }
    Ok(())
}

/// A tool's groups, the artifacts it produces and consumes, and what it encapsulates.
fn composition(out: &mut String, t: &ToolDef) -> fmt::Result {
    let produces = t.artifacts.iter().flat_map(|a| &a.produces);
    let consumes = t.artifacts.iter().flat_map(|a| &a.consumes);
    if t.groups.is_empty()
        && produces.clone().next().is_none()
        && consumes.clone().next().is_none()
        && t.encapsulates.is_empty()
    {
        return Ok(());
    }
    out.push_str("\n### Composition\n\n");
    if !t.groups.is_empty() {
        writeln!(out, "- Groups: {}.", Codes(&t.groups))?;
    }
    for p in produces {
        writeln!(
            out,
            "- Produces a `{}` at `{}` of its output{}.",
            p.kind,
            p.pointer,
            shown_if(
                p.encoding == Some(Encoding::JsonArray),
                " (a string holding a JSON array)"
            ),
        )?;
    }
    for a in consumes {
        writeln!(
            out,
            "- Consumes a `{}` from `{}` of its arguments ({}).",
            a.kind,
            a.pointer,
            if a.required { "required" } else { "optional" },
        )?;
    }
    if !t.encapsulates.is_empty() {
        writeln!(
            out,
            "- A complete operation: prefer it over {}.",
            Links(&t.encapsulates)
        )?;
    }
    Ok(())
}

/// A key path as the subscripts that follow `_meta`: `["gnougo"]["artifacts"]`.
fn subscripts(path: &[String]) -> String {
    path.iter()
        .map(|k| format!("[{}]", Value::from(k.as_str())))
        .collect()
}

/// How a completion reads in the documents.
fn completion_text(c: &CompletionDef) -> String {
    match c {
        CompletionDef::Values(values) => {
            let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
            format!("from {}", listed.join(", "))
        }
        CompletionDef::Handler { method } => format!("by `{method}`"),
    }
}

/// An entity's icons for people, where each comes from (a file by its name, never its bytes)
/// and what it is for; `None` when it has none.
fn icons_line(icons: &[IconDef]) -> Option<String> {
    let each = icons.iter().map(|i| {
        let facts: Vec<String> = i
            .mime_type
            .iter()
            .cloned()
            .chain(i.sizes.iter().cloned())
            .chain(i.theme.map(|t| format!("{} theme", t.as_str())))
            .collect();
        match facts.is_empty() {
            true => format!("`{}`", i.origin()),
            false => format!("`{}` ({})", i.origin(), facts.join(", ")),
        }
    });
    (!icons.is_empty()).then(|| each.collect::<Vec<_>>().join("; "))
}

/// A requirement for people: each alternative as a token's `scope` value carries it
/// (space-separated), the alternatives joined by "or"; "none" when nothing is required.
fn scopes_text(alternatives: &[Vec<&str>]) -> String {
    if alternatives.iter().any(Vec::is_empty) {
        return "none".into();
    }
    let each: Vec<String> = alternatives
        .iter()
        .map(|all| format!("`{}`", all.join(" ")))
        .collect();
    each.join(" or ")
}

/// A JSON Schema document as a fenced block, as published.
fn json_block(out: &mut String, document: &Value) -> fmt::Result {
    let pretty = serde_json::to_string_pretty(document).unwrap_or_default();
    writeln!(out, "```json\n{pretty}\n```")
}

/// What a tool answers with: text or structured, and its declared content blocks.
fn answers(t: &ToolDef) -> String {
    if t.content.is_empty() {
        match t.output {
            OutputDef::Text => "text".to_owned(),
            OutputDef::Object { .. } | OutputDef::Document(_) => "structured".to_owned(),
        }
    } else {
        let kinds: Vec<&str> = t.content.iter().map(|b| b.kind.prose()).collect();
        match t.output {
            OutputDef::Text => kinds.join(", "),
            OutputDef::Object { .. } | OutputDef::Document(_) => {
                format!("structured; {}", kinds.join(", "))
            }
        }
    }
}

/// One row per field, and one per nested field (`window.start`, `matches[].path`); a union's
/// tag and each variant's fields, marked with the variant (`note`, before the description).
fn field_rows(
    out: &mut String,
    c: &Contract,
    f: &Field,
    prefix: &str,
    input: bool,
    note: &str,
) -> fmt::Result {
    let name = format!("{prefix}{}", f.name);
    let description = if input {
        f.published_description()
    } else {
        f.schema.description.clone().unwrap_or_default()
    };
    let description = format!("{note}{description}");
    let schema = match &f.schema.kind {
        Kind::Named(i) => &c.types[*i].schema,
        _ => &f.schema,
    };
    let mut constraints = if input {
        constraints(&schema.input_constraints())
    } else {
        constraints(&schema.constraints)
    };
    if let Some(h) = f.header.as_ref().map(|h| &h.value) {
        // Only 2026-07-28 HTTP clients mirror it; say which header it becomes.
        let sep = if constraints.is_empty() { "" } else { ", " };
        let _ = write!(constraints, "{sep}header `Mcp-Param-{h}`");
    }
    let ty = type_name(c, &f.schema);
    let required = yes_no(f.required || (!input && f.default.is_some()));
    if input {
        let default = f.default.as_ref().map(|d| format!("`{d}`"));
        let examples: Vec<String> = f.schema.examples.iter().map(|e| format!("`{e}`")).collect();
        writeln!(
            out,
            "| `{name}` | {} | {required} | {} | {} | {} | {} |",
            cell(&ty),
            cell_or_empty(default.as_deref()),
            cell(&constraints),
            cell(&description),
            cell(&examples.join(", ")),
        )?;
    } else {
        writeln!(
            out,
            "| `{name}` | {} | {required} | {} |",
            cell(&ty),
            cell(&description)
        )?;
    }
    let (inner, suffix) = match &f.schema.kind {
        Kind::Array(items) => (items.as_ref(), "[]."),
        _ => (&f.schema, "."),
    };
    let prefix = format!("{name}{suffix}");
    let inner = match &inner.kind {
        Kind::Named(i) => &c.types[*i].schema,
        _ => inner,
    };
    match &inner.kind {
        Kind::Object(o) => {
            for child in &o.fields {
                field_rows(out, c, child, &prefix, input, note)?;
            }
        }
        Kind::Union(u) => variant_rows(out, c, u, &prefix, input, note)?,
        _ => {}
    }
    Ok(())
}

/// A union's rows under `prefix`: its tag, then each variant's fields, each marked with the
/// tag value it belongs to.
fn variant_rows(
    out: &mut String,
    c: &Contract,
    u: &UnionDef,
    prefix: &str,
    input: bool,
    note: &str,
) -> fmt::Result {
    let values: Vec<String> = u
        .variants
        .iter()
        .map(|v| format!("`{}`", v.value))
        .collect();
    let ty = format!("one of {}", values.join(", "));
    let description = format!(
        "{note}Which variant the value is; the rows marked with it hold that variant's fields."
    );
    if input {
        writeln!(
            out,
            "| `{prefix}{}` | {ty} | yes |  |  | {} |  |",
            u.tag,
            cell(&description)
        )?;
    } else {
        writeln!(
            out,
            "| `{prefix}{}` | {ty} | yes | {} |",
            u.tag,
            cell(&description)
        )?;
    }
    for v in &u.variants {
        // A shared object type, perhaps through aliases.
        let mut object = &v.schema;
        while let Kind::Named(i) = object.kind {
            object = &c.types[i].schema;
        }
        let Kind::Object(o) = &object.kind else {
            continue;
        };
        let note = format!("{note}When `{}` is `{}`: ", u.tag, v.value);
        for child in &o.fields {
            field_rows(out, c, child, prefix, input, &note)?;
        }
    }
    Ok(())
}

/// A schema's type as a reader wants it: `string`, `array of integer`, `` `Entry` (object) ``.
fn type_name(c: &Contract, s: &Schema) -> String {
    match &s.kind {
        Kind::String => "string".into(),
        Kind::Integer => "integer".into(),
        Kind::Number => "number".into(),
        Kind::Boolean => "boolean".into(),
        Kind::Json => "any JSON value".into(),
        // Its keywords, not its JSON: a table cell holds one line, and the description and
        // examples have their own columns.
        Kind::Document(document) => {
            let keywords: Vec<String> = document
                .as_object()
                .into_iter()
                .flat_map(|o| o.keys())
                .filter(|k| !matches!(k.as_str(), "description" | "examples" | "title"))
                .map(|k| format!("`{k}`"))
                .collect();
            format!("JSON Schema document: {}", keywords.join(", "))
        }
        Kind::Enum(e) => {
            let values: Vec<String> = e.values.iter().map(|(v, _)| format!("`{v}`")).collect();
            format!("one of {}", values.join(", "))
        }
        Kind::Array(items) => format!("array of {}", type_name(c, items)),
        Kind::Object(_) => "object".into(),
        Kind::Union(u) => {
            let values: Vec<String> = u
                .variants
                .iter()
                .map(|v| format!("`{}`", v.value))
                .collect();
            format!(
                "one of the objects `{}` names: {}",
                u.tag,
                values.join(", ")
            )
        }
        Kind::Named(i) => {
            let t = &c.types[*i];
            format!("`{}` ({})", t.name, type_name(c, &t.schema))
        }
    }
}

fn constraints(c: &Constraints) -> String {
    let parts: Vec<String> = c
        .iter()
        .map(|(keyword, value)| match value {
            Limit::Text(pattern) => format!("{} `{pattern}`", keyword.name()),
            value => format!("{} {value}", keyword.name()),
        })
        .collect();
    parts.join(", ")
}
/// The description's first sentence, for a one-line summary.
pub(crate) fn first_sentence(text: &str) -> String {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, ch)| {
            matches!(ch, '.' | '!' | '?')
                && text[i + ch.len_utf8()..].starts_with(char::is_whitespace)
        })
        .map_or(text.len(), |(i, ch)| i + ch.len_utf8());
    text[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_escapes_pipes_and_joins_lines() {
        assert_eq!(cell("a|b\nc || d").to_string(), "a\\|b c \\|\\| d");
        assert_eq!(cell_or_empty(None).to_string(), "");
    }

    #[test]
    fn the_first_sentence_ends_at_the_first_full_stop_before_a_space() {
        assert_eq!(first_sentence("Reads a file. Then more."), "Reads a file.");
        assert_eq!(
            first_sentence("Reads v1.2 files! More"),
            "Reads v1.2 files!"
        );
        assert_eq!(first_sentence("No stop at all"), "No stop at all");
    }

    #[test]
    fn a_tools_scopes_are_its_own_with_those_of_one_of_its_groups() {
        let text = "server: {name: s}\nauth:\n  scopes:\n    r: {description: R.}\n    e: {description: E.}\n    x: {description: X.}\ngroups:\n  read: {description: R., scopes: r}\n  edit: {description: E., scopes: [e, r]}\n  open: {description: O.}\ntools:\n  - {name: both, title: B, description: B., output: text, groups: [read, edit], scopes: x, hints: {read_only: true, destructive: false, idempotent: true, open_world: false}}\n  - {name: either, title: E, description: E., output: text, groups: [read, open], hints: {read_only: true, destructive: false, idempotent: true, open_world: false}}\n  - {name: own, title: O, description: O., output: text, groups: open, scopes: [x], hints: {read_only: true, destructive: false, idempotent: true, open_world: false}}\n  - {name: free, title: F, description: F., output: text, groups: open, hints: {read_only: true, destructive: false, idempotent: true, open_world: false}}\n";
        let c = crate::load(&crate::Source::new("tools.yaml", text))
            .unwrap_or_else(|d| panic!("{d:?}"))
            .contract;
        let shown: Vec<String> = c
            .tools
            .iter()
            .map(|t| scopes_text(&c.tool_requirement(t)))
            .collect();
        assert_eq!(shown, ["`x r` or `x e r`", "none", "`x`", "none"]);
        let table = readme_table(&c);
        assert!(
            table.contains("| `read`, `edit` | `x r` or `x e r` |"),
            "{table}"
        );
        assert!(reference(&c).contains("| `e` | E. |"));
    }

    #[test]
    fn splicing_replaces_only_what_is_between_the_markers() {
        let readme = format!("# T\nbefore\n{TABLE_BEGIN}\nold\n{TABLE_END}\nafter\n");
        let out = splice(&readme, "| new |\n").expect("spliced");
        assert_eq!(
            out,
            format!("# T\nbefore\n{TABLE_BEGIN}\n| new |\n{TABLE_END}\nafter\n")
        );
        assert_eq!(
            splice(&out, "| new |\n").expect("spliced"),
            out,
            "idempotent"
        );
        assert_eq!(
            splice("no markers", ""),
            Err(MarkerError::Missing(TABLE_BEGIN))
        );
        let doubled = format!("{TABLE_BEGIN}\n{TABLE_BEGIN}\n{TABLE_END}\n");
        assert_eq!(splice(&doubled, ""), Err(MarkerError::Doubled(TABLE_BEGIN)));
        let reversed = format!("{TABLE_END}\n{TABLE_BEGIN}\n");
        assert_eq!(splice(&reversed, ""), Err(MarkerError::Reversed));
    }
}
