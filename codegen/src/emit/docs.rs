//! Generated documents: the README tool table and the full tool reference, rendered from the
//! contract with minijinja templates shipped in this crate.

use mcp_contract_spec::planning::Encoding;
use minijinja::Environment;
use serde_json::{Value, json};

use crate::hint::Hint;
use crate::keyword::Limit;
use crate::model::*;

/// The README table goes between these two lines, which the user places.
pub const TABLE_BEGIN: &str = "<!-- tools:begin -->";
/// See [`TABLE_BEGIN`].
pub const TABLE_END: &str = "<!-- tools:end -->";

const TABLE_TEMPLATE: &str = include_str!("../../templates/readme_table.md.j2");
const REFERENCE_TEMPLATE: &str = include_str!("../../templates/tools.md.j2");

/// The tool table as Markdown: name, title, what it does, its hints and groups.
///
/// A server with a `distribution` also gets the visible `mcp-name:` line the MCP registry
/// looks for in a cargo package's README.
pub(crate) fn readme_table(contract: &Contract) -> String {
    let table = render(TABLE_TEMPLATE, contract, table_view);
    match &contract.server.distribution {
        Some(d) => format!(
            "{table}
{}
",
            crate::emit::distribution::mcp_name_line(d)
        ),
        None => table,
    }
}

/// The full per-tool reference as Markdown.
pub(crate) fn reference(contract: &Contract) -> String {
    render(REFERENCE_TEMPLATE, contract, tool_view)
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

/// Renders `template` with each tool seen through `view`: the table reads a few facts of a
/// tool, the reference all of them, and building a view is most of a render's time.
fn render(template: &str, contract: &Contract, view: fn(&Contract, &ToolDef) -> Value) -> String {
    let mut env = Environment::new();
    if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .build()
    {
        env.set_syntax(syntax);
    }
    env.add_filter("cell", cell);
    let tools: Vec<Value> = contract.tools.iter().map(|t| view(contract, t)).collect();
    let server = json!({
        "name": contract.server.name,
        "title": contract.server.title,
        "icons": icons_line(&contract.server.icons),
    });
    let groups: Vec<Value> = contract
        .groups
        .iter()
        .map(|g| json!({"name": g.name, "description": g.description, "tools": g.tools, "scopes": scopes_text(&[g.scopes.iter().map(String::as_str).collect()])}))
        .collect();
    let resources: Vec<Value> = contract
        .resources
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "uri": r.uri.text(),
                "template": matches!(r.uri, ResourceUri::Template { .. }),
                "title": r.title,
                "description": r.description,
                "mime_type": r.mime_type,
                "method": r.method,
                "completions": r.completions.iter().map(|(v, c)| json!({"variable": v, "completion": completion_text(c)})).collect::<Vec<_>>(),
                "icons": icons_line(&r.icons),
                "scopes": scopes_text(&[r.scopes.iter().map(String::as_str).collect()]),
            })
        })
        .collect();
    let prompts: Vec<Value> = contract.prompts.iter().map(prompt_view).collect();
    let access = contract.access.as_ref().map(|a| {
        json!({
            "scopes": a.scopes.iter().map(|s| json!({"name": s.name, "description": s.description})).collect::<Vec<_>>(),
            "resource": a.resource.as_ref().map(|(r, _)| r),
            "authorization_servers": a.authorization_servers.iter().map(|(s, _)| format!("`{s}`")).collect::<Vec<_>>().join(", "),
        })
    });
    let planning = &contract.planning;
    let data = json!({
        "tools": tools,
        "server": server,
        "source": contract.source_name,
        "groups": groups,
        "resources": resources,
        "prompts": prompts,
        "access": access,
        "kinds": planning.kinds.iter().map(|(k, d)| json!({"kind": k, "description": d})).collect::<Vec<_>>(),
        "artifacts_key": subscripts(&planning.artifacts_key.keys),
        "composition_key": subscripts(&planning.composition_key.keys),
        "planned": contract.tools.iter().any(|t| t.artifacts.is_some() || !t.encapsulates.is_empty()),
    });
    env.render_str(
        template,
        minijinja::Value::from(minijinja::value::Serde(data)),
    )
    .unwrap_or_else(|e| {
        format!("<!-- mcp-contract-codegen could not render this document: {e} -->\n")
    })
}

/// A key path as the subscripts that follow `_meta`: `["gnougo"]["artifacts"]`.
fn subscripts(path: &[String]) -> String {
    path.iter()
        .map(|k| format!("[{}]", Value::from(k.as_str())))
        .collect()
}

/// A prompt as the documents show it.
fn prompt_view(p: &PromptDef) -> Value {
    let arguments: Vec<Value> = p
        .arguments
        .iter()
        .map(|a| {
            json!({
                "name": a.name,
                "required": a.required,
                "description": a.description,
                "completion": a.completion.as_ref().map(completion_text),
            })
        })
        .collect();
    json!({
        "name": p.name,
        "title": p.title,
        "description": p.description,
        "summary": first_sentence(&p.description),
        "method": p.method,
        "icons": icons_line(&p.icons),
        "scopes": scopes_text(&[p.scopes.iter().map(String::as_str).collect()]),
        "arguments": arguments,
        "argument_names": p.arguments.iter().map(|a| if a.required { format!("`{}`", a.name) } else { format!("`{}`?", a.name) }).collect::<Vec<_>>().join(", "),
    })
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

/// A question as the reference lists it: its id, type, mode and message, and each field's
/// kind with its constraints.
fn question(q: &QuestionDef) -> Value {
    let fields: Vec<Value> = q
        .fields()
        .iter()
        .map(|f| {
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
                Kind::Json | Kind::Object(_) | Kind::Named(_) => String::new(),
            };
            for (keyword, value) in &field.schema.constraints.0 {
                kind.push_str(&format!("; `{}: {}`", keyword.name(), value.to_json()));
            }
            json!({
                "name": field.name,
                "kind": kind,
                "required": field.required,
                "default": field.default.as_ref().map(Value::to_string),
                "title": f.title,
                "description": field.schema.description,
            })
        })
        .collect();
    json!({
        "id": q.id,
        "type": q.rust_name,
        "url": matches!(q.mode, QuestionMode::Url),
        "message": q.message.source,
        "fields": fields,
    })
}

/// A value as one Markdown table cell: pipes escaped, lines joined.
fn cell(value: minijinja::Value) -> String {
    let text = if value.is_none() || value.is_undefined() {
        String::new()
    } else {
        value.to_string()
    };
    text.replace('|', "\\|").replace('\n', " ")
}

/// What the README table shows of a tool.
fn table_view(c: &Contract, t: &ToolDef) -> Value {
    json!({
        "scopes": scopes_text(&c.tool_requirement(t)),
        "name": t.name,
        "title": t.title,
        "summary": first_sentence(&t.description),
        "answers": answers(t),
        "hints": hints_shown(t),
        "read_only": t.hints.read_only,
        "groups": t.groups,
    })
}

/// Each published hint as the documents show it.
fn hints_shown(t: &ToolDef) -> serde_json::Map<String, Value> {
    let shown = |v: Option<bool>| v.map_or("*unset*".to_owned(), |b| b.to_string());
    Hint::ALL
        .map(|hint| {
            (
                hint.key().to_owned(),
                shown(t.published_hints.get(hint)).into(),
            )
        })
        .into_iter()
        .collect()
}

/// What a tool answers with: text or structured, and its declared content blocks.
fn answers(t: &ToolDef) -> String {
    if t.content.is_empty() {
        match t.output {
            OutputDef::Text => "text".to_owned(),
            OutputDef::Object { .. } => "structured".to_owned(),
        }
    } else {
        let kinds: Vec<&str> = t.content.iter().map(|b| b.kind.prose()).collect();
        match t.output {
            OutputDef::Text => kinds.join(", "),
            OutputDef::Object { .. } => format!("structured; {}", kinds.join(", ")),
        }
    }
}

/// What the reference shows of a tool: everything.
fn tool_view(c: &Contract, t: &ToolDef) -> Value {
    let mut parameters = Vec::new();
    for f in &t.parameters {
        field_rows(c, f, "", true, &mut parameters);
    }
    let output = match &t.output {
        OutputDef::Text => Value::Null,
        OutputDef::Object {
            description,
            fields,
        } => {
            let mut rows = Vec::new();
            for f in fields {
                field_rows(c, f, "", false, &mut rows);
            }
            json!({"description": description, "fields": rows})
        }
    };
    let content: Vec<Value> = t
        .content
        .iter()
        .map(|b| {
            let types: Vec<String> = b.mime_types.iter().map(|m| format!("`{m}`")).collect();
            json!({"kind": b.kind.name(), "what": b.kind.prose(), "mime_types": types.join(", ")})
        })
        .collect();
    let errors: Vec<Value> = t
        .errors
        .iter()
        .map(|&i| {
            let e = &c.errors[i];
            json!({"code": e.code, "message": e.message.source, "hint": e.hint.as_ref().map(|h| h.source.clone()), "names_argument": e.names_argument})
        })
        .collect();
    json!({
        "name": t.name,
        "title": t.title,
        "summary": first_sentence(&t.description),
        "description": t.published_description,
        "read_only": t.hints.read_only,
        "hints": hints_shown(t),
        "parameters": parameters,
        "why": t.why,
        "icons": icons_line(&t.icons),
        "scopes": scopes_text(&c.tool_requirement(t)),
        "output": output,
        "content": content,
        "answers": answers(t),
        "errors": errors,
        "questions": t.questions.iter().map(question).collect::<Vec<_>>(),
        "task": t.task.as_str(),
        "groups": t.groups,
        "produces": t.artifacts.iter().flat_map(|a| &a.produces).map(|p| {
            json!({"kind": p.kind, "pointer": p.pointer, "json_array": p.encoding == Some(Encoding::JsonArray)})
        }).collect::<Vec<_>>(),
        "consumes": t.artifacts.iter().flat_map(|a| &a.consumes).map(|c| {
            json!({"kind": c.kind, "pointer": c.pointer, "required": c.required})
        }).collect::<Vec<_>>(),
        "encapsulates": t.encapsulates,
        "meta": match crate::emit::wire::published_meta(c, t) {
            m if m.is_empty() => Value::Null,
            m => serde_json::to_string_pretty(&m).unwrap_or_default().into(),
        },
    })
}

/// One row per field, and one per nested field (`window.start`, `matches[].path`).
fn field_rows(c: &Contract, f: &Field, prefix: &str, input: bool, rows: &mut Vec<Value>) {
    let name = format!("{prefix}{}", f.name);
    let description = if input {
        f.published_description()
    } else {
        f.schema.description.clone().unwrap_or_default()
    };
    let examples: Vec<String> = f.schema.examples.iter().map(|e| format!("`{e}`")).collect();
    let schema = match &f.schema.kind {
        Kind::Named(i) => &c.types[*i].schema,
        _ => &f.schema,
    };
    let mut constraints = constraints(&if input {
        schema.input_constraints()
    } else {
        schema.constraints.clone()
    });
    if let Some(h) = f.header.as_ref().map(|h| &h.value) {
        // Only 2026-07-28 HTTP clients mirror it; say which header it becomes.
        let sep = if constraints.is_empty() { "" } else { ", " };
        constraints.push_str(&format!("{sep}header `Mcp-Param-{h}`"));
    }
    rows.push(json!({
        "name": name,
        "type": type_name(c, &f.schema),
        "required": f.required || (!input && f.default.is_some()),
        "default": f.default.as_ref().map(|d| format!("`{d}`")),
        "constraints": constraints,
        "description": description,
        "examples": examples.join(", "),
    }));
    let (inner, suffix) = match &f.schema.kind {
        Kind::Array(items) => (items.as_ref(), "[]."),
        _ => (&f.schema, "."),
    };
    let fields = match &inner.kind {
        Kind::Object(o) => &o.fields,
        Kind::Named(i) => match &c.types[*i].schema.kind {
            Kind::Object(o) => &o.fields,
            _ => return,
        },
        _ => return,
    };
    for child in fields {
        field_rows(c, child, &format!("{name}{suffix}"), input, rows);
    }
}

/// A schema's type as a reader wants it: `string`, `array of integer`, `` `Entry` (object) ``.
fn type_name(c: &Contract, s: &Schema) -> String {
    match &s.kind {
        Kind::String => "string".into(),
        Kind::Integer => "integer".into(),
        Kind::Number => "number".into(),
        Kind::Boolean => "boolean".into(),
        Kind::Json => "any JSON value".into(),
        Kind::Enum(e) => {
            let values: Vec<String> = e.values.iter().map(|(v, _)| format!("`{v}`")).collect();
            format!("one of {}", values.join(", "))
        }
        Kind::Array(items) => format!("array of {}", type_name(c, items)),
        Kind::Object(_) => "object".into(),
        Kind::Named(i) => {
            let t = &c.types[*i];
            format!("`{}` ({})", t.name, type_name(c, &t.schema))
        }
    }
}

fn constraints(c: &Constraints) -> String {
    let parts: Vec<String> =
        c.0.iter()
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
