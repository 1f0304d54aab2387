//! The comparison: two validated contracts walked side by side, one [`Change`] per difference a
//! client could notice.

use std::collections::HashMap;

use mcp_contract_spec::planning::Encoding;

use super::rules::*;
use crate::keyword::{Bound, KEYWORDS, Limit};
use crate::model::{
    CompletionDef, ContentKind, Contract, Date, Field, IconDef, Kind, Lifecycle, NamedType,
    OutputDef, PromptDef, ResourceDef, ResourceUri, Schema, SharedTypes, ToolDef, UnionDef,
};
use crate::source::Span;
use mcp_contract_spec::Hint;

/// Which manifest a change's span points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The old manifest: for what was removed.
    Old,
    /// The new manifest: for everything else.
    New,
}

/// One difference between two contracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Its classification.
    pub rule: &'static Rule,
    /// One line for a reviewer.
    pub message: String,
    /// Where in the contract, like `tools[read_file].parameters.path`.
    pub path: String,
    /// Which manifest [`Change::span`] points into.
    pub side: Side,
    /// Where in that manifest.
    pub span: Span,
}

/// Every change from `old` to `new`, in a stable order: removed tools, then tools in the new
/// manifest's order, then pinned sentences. Removal windows (`remove_after`) are judged on
/// today's date (UTC); [`diff_as_of`] takes the day.
pub fn diff(old: &Contract, new: &Contract) -> Vec<Change> {
    diff_as_of(old, new, Date::today())
}

/// [`diff`], judging removal windows on `today`.
pub fn diff_as_of(old: &Contract, new: &Contract, today: Date) -> Vec<Change> {
    let mut d = Differ {
        old,
        new,
        today,
        out: Vec::new(),
    };
    let (old_tools, new_tools) = (
        by_name(&old.tools, |t| &t.name),
        by_name(&new.tools, |t| &t.name),
    );
    // A tool gone under its name but kept as another's alias was renamed: the new tool is
    // compared with it, not reported as added.
    let mut renamed: HashMap<&str, &ToolDef> = HashMap::new();
    for t in &old.tools {
        if new_tools.contains_key(t.name.as_str()) {
            continue;
        }
        let heir = new.tools.iter().find_map(|n| {
            let alias = n.lifecycle.aliases.iter().find(|a| a.name == t.name)?;
            (!old_tools.contains_key(n.name.as_str())).then_some((n, alias.span))
        });
        if let Some((n, _)) = heir {
            renamed.insert(n.name.as_str(), t);
        }
        d.gone(
            Gone {
                what: "tool",
                name: &t.name,
                address: &t.name,
                span: t.span,
                path: format!("tools[{}]", t.name),
                lifecycle: &t.lifecycle,
            },
            heir.map(|(n, at)| (n.name.as_str(), at)),
        );
    }
    for t in &new.tools {
        match old_tools
            .get(t.name.as_str())
            .or(renamed.get(t.name.as_str()))
        {
            Some(o) => d.tool(o, t),
            None => d.push(
                &TOOL_ADDED,
                format!("tool `{}` was added", t.name),
                format!("tools[{}]", t.name),
                Side::New,
                t.span,
            ),
        }
    }
    d.resources();
    d.planning_keys();
    d.prompts();
    d.access();
    d.icons(
        "the server",
        "server.icons".into(),
        &old.server.icons,
        &new.server.icons,
        Span::default(),
    );
    d.list_changed();
    d.shared_types();
    if old.groups.is_empty() != new.groups.is_empty() {
        let (message, side, span) = match new.groups.first() {
            Some(g) => (
                "the contract now declares groups: HTTP routes move from `/mcp` to `/mcp/GROUP`",
                Side::New,
                g.span,
            ),
            None => (
                "the contract no longer declares groups: HTTP routes move to `/mcp`",
                Side::Old,
                old.groups.first().map_or(Span::default(), |g| g.span),
            ),
        };
        d.push(
            &ROUTES_NO_CHANGE,
            message.into(),
            "groups".into(),
            side,
            span,
        );
    }
    d.at_changed_keys();
    let old_sentences = by_name(&old.sentences, |s| &s.name);
    for s in &new.sentences {
        if let Some(o) = old_sentences.get(s.name.as_str())
            && o.text != s.text
        {
            d.push(
                &SENTENCE_CHANGED,
                format!("pinned sentence `{}` changed its text", s.name),
                format!("sentences[{}]", s.name),
                Side::New,
                s.span,
            );
        }
    }
    d.out
}

/// An entry that left the contract under its name.
pub(super) struct Gone<'a> {
    /// `tool`, `prompt` or `resource`.
    pub(super) what: &'static str,
    /// Its name (a resource's, with its URI in `address`).
    pub(super) name: &'a str,
    /// What its callers call: its name, or a resource's URI.
    pub(super) address: &'a str,
    /// Where the old manifest wrote it.
    pub(super) span: Span,
    /// Its path in the contract, `tools[NAME]`.
    pub(super) path: String,
    /// Its lifecycle in the old contract.
    pub(super) lifecycle: &'a Lifecycle,
}

/// Whether a schema describes what callers send or what they receive: the same edit breaks
/// one and not the other (a tighter bound refuses calls, but never surprises a reader).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

/// Shared types may refer to each other; validation refuses cycles, and this bound keeps the
/// walk finite even if that ever changed.
const MAX_DEPTH: usize = 64;

pub(super) struct Differ<'c> {
    pub(super) old: &'c Contract,
    pub(super) new: &'c Contract,
    /// The day removal windows are judged on.
    pub(super) today: Date,
    out: Vec<Change>,
}

impl<'c> Differ<'c> {
    pub(super) fn push(
        &mut self,
        rule: &'static Rule,
        message: String,
        path: String,
        side: Side,
        span: Span,
    ) {
        // A reviewer reads the line without the manifest open: it names the entry it
        // concerns (`tool `read_file`: `path` changed maxLength`), since several entries may
        // have a parameter of the same name.
        let message = match entry_of(&path) {
            Some((noun, name)) if !message.contains(&format!("`{name}`")) => {
                format!("{noun} `{name}`: {message}")
            }
            _ => message,
        };
        self.out.push(Change {
            rule,
            message,
            path,
            side,
            span,
        });
    }

    /// Moves each change placed at its entry's name to the key of the entry it concerns
    /// (`tools[x].title` at `title:`), where the manifest writes that key: a reviewer is shown
    /// what changed, not which tool. A change already placed more exactly keeps its place.
    fn at_changed_keys(&mut self) {
        for change in &mut self.out {
            let Some((noun, name)) = entry_of(&change.path) else {
                continue;
            };
            let rest = &change.path[change.path.find(']').map_or(0, |i| i + 1)..];
            let Some(key) = rest
                .strip_prefix('.')
                .map(|k| k.split(['.', '[']).next().unwrap_or(k))
            else {
                continue;
            };
            let contract = match change.side {
                Side::Old => self.old,
                Side::New => self.new,
            };
            let entry: Option<(Span, &[(String, Span)])> = match noun {
                "tool" => (contract.tools.iter())
                    .find(|t| t.name == name)
                    .map(|t| (t.span, t.keys.as_slice())),
                "prompt" => (contract.prompts.iter())
                    .find(|p| p.name == name)
                    .map(|p| (p.span, p.keys.as_slice())),
                "resource" => (contract.resources.iter())
                    .find(|r| r.name == name)
                    .map(|r| (r.span, r.keys.as_slice())),
                _ => None,
            };
            let Some((at_name, keys)) = entry else {
                continue;
            };
            if change.span != at_name {
                continue;
            }
            if let Some((_, span)) = keys.iter().find(|(k, _)| k == key) {
                change.span = *span;
            }
        }
    }

    /// The kinds of content block a tool answers with, and their MIME types: one text block
    /// when it declares none.
    /// `server.list_changed` turned on or off: whether clients may listen for list changes.
    fn list_changed(&mut self) {
        let (o, n) = (&self.old.server, &self.new.server);
        if o.list_changed == n.list_changed {
            return;
        }
        let path = "server.list_changed".to_owned();
        if n.list_changed {
            let at = n.list_changed_at.unwrap_or_default();
            let message = "the contract's lists may now change while it runs".to_owned();
            self.push(&LIST_CHANGED_ADDED, message, path, Side::New, at);
        } else {
            let message = "the contract's lists no longer change, and it stops advertising \
                           `listChanged`"
                .to_owned();
            // At `list_changed: false` when written, else where it said `true`.
            let (side, at) = match n.list_changed_at {
                Some(at) => (Side::New, at),
                None => (Side::Old, o.list_changed_at.unwrap_or_default()),
            };
            self.push(&LIST_CHANGED_NO_DELETE, message, path, side, at);
        }
    }

    /// `server.shared_types` switched: once, for every schema whose form it changes. What
    /// each schema accepts is the same (a `$ref` stands for the schema it names), so the tools'
    /// own comparisons, which read the model, report nothing.
    fn shared_types(&mut self) {
        let (o, n) = (&self.old.server, &self.new.server);
        if o.shared_types == n.shared_types {
            return;
        }
        let changed = (self.new.tools.iter())
            .filter(|t| self.new.shared_types_matter(t, o.shared_types))
            .count();
        if changed == 0 {
            return;
        }
        let (form, side, at) = match n.shared_types {
            SharedTypes::Defs => (
                "under `$defs`, referred to with `$ref`",
                Side::New,
                n.shared_types_at,
            ),
            SharedTypes::Inline => match n.shared_types_at {
                Some(at) => ("inline", Side::New, Some(at)),
                None => ("inline", Side::Old, o.shared_types_at),
            },
        };
        let tools = if changed == 1 { "tool" } else { "tools" };
        let message = format!(
            "the schemas of {changed} {tools} now publish the shared types they use {form}; they accept the same values"
        );
        let path = "server.shared_types".to_owned();
        self.push(
            &SHARED_TYPES_PUBLICATION,
            message,
            path,
            side,
            at.unwrap_or_default(),
        );
    }

    fn content(&mut self, o: &ToolDef, n: &ToolDef, path: &str) {
        let blocks = |t: &ToolDef| -> Vec<(ContentKind, Vec<String>, Span)> {
            if t.content.is_empty() {
                return vec![(ContentKind::Text, Vec::new(), t.span)];
            }
            let lower = |m: &String| m.to_ascii_lowercase();
            t.content
                .iter()
                .map(|b| (b.kind, b.mime_types.iter().map(lower).collect(), b.span))
                .collect()
        };
        let (old, new) = (blocks(o), blocks(n));
        for (kind, types, span) in &old {
            let Some((_, new_types, new_span)) = new.iter().find(|(k, ..)| k == kind) else {
                self.push(
                    &CONTENT_KIND_NO_DELETE,
                    format!(
                        "tool `{}` no longer answers with {} content",
                        n.name,
                        kind.prose()
                    ),
                    format!("{path}.{}", kind.name()),
                    Side::Old,
                    *span,
                );
                continue;
            };
            for m in types.iter().filter(|m| !new_types.contains(m)) {
                self.push(
                    &CONTENT_MIME_TYPE_NO_DELETE,
                    format!(
                        "tool `{}` no longer answers with {} content of type `{m}`",
                        n.name,
                        kind.prose()
                    ),
                    format!("{path}.{}", kind.name()),
                    Side::New,
                    *new_span,
                );
            }
            for m in new_types.iter().filter(|m| !types.contains(m)) {
                self.push(
                    &CONTENT_MIME_TYPE_ADDED,
                    format!(
                        "tool `{}` may answer with {} content of type `{m}`",
                        n.name,
                        kind.prose()
                    ),
                    format!("{path}.{}", kind.name()),
                    Side::New,
                    *new_span,
                );
            }
        }
        for (kind, _, span) in new
            .iter()
            .filter(|(k, ..)| !old.iter().any(|(o, ..)| o == k))
        {
            self.push(
                &CONTENT_KIND_ADDED,
                format!("tool `{}` may answer with {} content", n.name, kind.prose()),
                format!("{path}.{}", kind.name()),
                Side::New,
                *span,
            );
        }
    }

    /// An entity's icons as clients receive them: a file whose bytes changed is another image.
    fn icons(&mut self, who: &str, path: String, o: &[IconDef], n: &[IconDef], at: Span) {
        let wire = |icons: &[IconDef]| icons.iter().map(IconDef::to_json).collect::<Vec<_>>();
        if wire(o) != wire(n) {
            self.push(
                &ICONS_CHANGED,
                format!("{who} changed its icons"),
                path,
                Side::New,
                at,
            );
        }
    }

    fn tool(&mut self, o: &ToolDef, n: &ToolDef) {
        let path = format!("tools[{}]", n.name);
        let at = n.span;
        let new = self.new;
        self.lifecycle(
            "tool",
            &n.name,
            &path,
            (&o.lifecycle, &n.lifecycle),
            (o.name != n.name).then_some(o.name.as_str()),
            &|name| new.tools.iter().any(|t| t.name == name),
        );
        self.icons(
            &format!("tool `{}`", n.name),
            format!("{path}.icons"),
            &o.icons,
            &n.icons,
            at,
        );
        if o.title != n.title {
            self.push(
                &TITLE_CHANGED,
                format!("tool `{}` changed its title to \"{}\"", n.name, n.title),
                format!("{path}.title"),
                Side::New,
                at,
            );
        }
        if o.description != n.description {
            self.push(
                &DESCRIPTION_CHANGED,
                format!("tool `{}` changed its description", n.name),
                format!("{path}.description"),
                Side::New,
                at,
            );
        }
        self.hints(o, n, &path);
        self.membership(o, n, &path);
        self.scopes(
            &format!("tool `{}`", n.name),
            &path,
            &o.scopes,
            &n.scopes,
            at,
        );
        self.questions(
            &format!("tool `{}`", n.name),
            &o.questions,
            &n.questions,
            &path,
        );
        self.task(o, n, &path);
        self.tool_app(o, n, &path);
        if o.input != n.input {
            let what = match (&o.input, &n.input) {
                (Some(_), Some(_)) => "changed its `input_schema` document",
                (None, _) => "now gives its input as an `input_schema` document",
                (_, None) => "no longer gives its input as an `input_schema` document",
            };
            self.push(
                &JSON_SCHEMA_CHANGED,
                format!("tool `{}` {what}", n.name),
                format!("{path}.input_schema"),
                Side::New,
                at,
            );
        }
        self.fields(
            &o.parameters,
            &n.parameters,
            &format!("{path}.parameters"),
            Direction::Input,
            0,
        );
        match (&o.output, &n.output) {
            (OutputDef::Text, OutputDef::Text) => {}
            (OutputDef::Object { fields: of, .. }, OutputDef::Object { fields: nf, .. }) => {
                self.fields(of, nf, &format!("{path}.output"), Direction::Output, 0)
            }
            (OutputDef::Document(od), OutputDef::Document(nd)) if od == nd => {}
            (
                OutputDef::Document(_) | OutputDef::Object { .. },
                OutputDef::Document(_) | OutputDef::Object { .. },
            ) => self.push(
                &JSON_SCHEMA_CHANGED,
                format!(
                    "tool `{}` changed its output's `json_schema` document",
                    n.name
                ),
                format!("{path}.output"),
                Side::New,
                at,
            ),
            (_, new_output) => self.push(
                &OUTPUT_SAME_KIND,
                format!(
                    "tool `{}` now returns {}",
                    n.name,
                    match new_output {
                        OutputDef::Text => "text instead of a structured object",
                        OutputDef::Object { .. } | OutputDef::Document(_) =>
                            "a structured object instead of text",
                    }
                ),
                format!("{path}.output"),
                Side::New,
                at,
            ),
        }
        self.content(o, n, &format!("{path}.output.content"));
        let codes = |c: &Contract, t: &ToolDef| -> Vec<(String, bool)> {
            // Indices come from validation; `get` keeps a hand-built contract from panicking.
            t.errors
                .iter()
                .filter_map(|&i| c.errors.get(i).map(|e| (e.code.clone(), e.names_argument)))
                .collect()
        };
        let (oc, nc) = (codes(self.old, o), codes(self.new, n));
        for (code, named) in &nc {
            let Some((_, was)) = oc.iter().find(|(c, _)| c == code) else {
                continue;
            };
            if was != named {
                let (rule, now) = if *named {
                    (&ERROR_ARGUMENT_ADDED, "now names")
                } else {
                    (&ERROR_ARGUMENT_NO_DELETE, "no longer names")
                };
                self.push(
                    rule,
                    format!("the error `{code}` of tool `{}` {now} its argument", n.name),
                    format!("{path}.errors[{code}]"),
                    Side::New,
                    at,
                );
            }
        }
        let (oc, nc): (Vec<String>, Vec<String>) = (
            oc.into_iter().map(|(c, _)| c).collect(),
            nc.into_iter().map(|(c, _)| c).collect(),
        );
        for code in oc.iter().filter(|c| !nc.contains(c)) {
            self.push(
                &ERROR_CODE_NO_DELETE,
                format!("tool `{}` no longer returns the error `{code}`", n.name),
                format!("{path}.errors[{code}]"),
                Side::New,
                at,
            );
        }
        for code in nc.iter().filter(|c| !oc.contains(c)) {
            self.push(
                &ERROR_CODE_ADDED,
                format!("tool `{}` may now return the error `{code}`", n.name),
                format!("{path}.errors[{code}]"),
                Side::New,
                at,
            );
        }
    }

    /// Resources, by the URIs they answer: a changed URI is a removal plus an addition, while
    /// renaming a template's variable changes no URI a client reads.
    fn resources(&mut self) {
        /// A template with its variables blanked: two with the same shape match the same URIs.
        fn shape(r: &ResourceDef) -> (bool, String) {
            match &r.uri {
                ResourceUri::Fixed(uri) => (false, uri.clone()),
                ResourceUri::Template {
                    template,
                    variables,
                } => (
                    true,
                    variables.iter().fold(template.clone(), |out, v| {
                        out.replacen(&format!("{{{v}}}"), "{}", 1)
                    }),
                ),
            }
        }
        let index = |resources: &'c [ResourceDef]| -> HashMap<(bool, String), &'c ResourceDef> {
            resources.iter().rev().map(|r| (shape(r), r)).collect()
        };
        let (old_shapes, new_shapes) = (index(&self.old.resources), index(&self.new.resources));
        let mut renamed: HashMap<&str, &ResourceDef> = HashMap::new();
        for r in &self.old.resources {
            if new_shapes.contains_key(&shape(r)) {
                continue;
            }
            let heir = self.new.resources.iter().find_map(|n| {
                let alias = n
                    .lifecycle
                    .aliases
                    .iter()
                    .find(|a| a.name == r.uri.text())?;
                (!old_shapes.contains_key(&shape(n))).then_some((n, alias.span))
            });
            if let Some((n, _)) = heir {
                renamed.insert(n.uri.text(), r);
            }
            self.gone(
                Gone {
                    what: "resource",
                    name: &r.name,
                    address: r.uri.text(),
                    span: r.span,
                    path: format!("resources[{}]", r.name),
                    lifecycle: &r.lifecycle,
                },
                heir.map(|(n, at)| (n.name.as_str(), at)),
            );
        }
        for r in &self.new.resources {
            let old = old_shapes.get(&shape(r)).or(renamed.get(r.uri.text()));
            if let Some(o) = old {
                self.resource(o, r);
                self.variable_completions(o, r);
            } else {
                self.push(
                    &RESOURCE_ADDED,
                    format!("resource `{}` at `{}` was added", r.name, r.uri.text()),
                    format!("resources[{}]", r.name),
                    Side::New,
                    r.span,
                );
            }
        }
    }

    /// Prompts by name: removed, then each in the new manifest's order.
    fn prompts(&mut self) {
        let (old, new) = (
            by_name(&self.old.prompts, |p| &p.name),
            by_name(&self.new.prompts, |p| &p.name),
        );
        let mut renamed: HashMap<&str, &PromptDef> = HashMap::new();
        for p in &self.old.prompts {
            if new.contains_key(p.name.as_str()) {
                continue;
            }
            let heir = self.new.prompts.iter().find_map(|n| {
                let alias = n.lifecycle.aliases.iter().find(|a| a.name == p.name)?;
                (!old.contains_key(n.name.as_str())).then_some((n, alias.span))
            });
            if let Some((n, _)) = heir {
                renamed.insert(n.name.as_str(), p);
            }
            self.gone(
                Gone {
                    what: "prompt",
                    name: &p.name,
                    address: &p.name,
                    span: p.span,
                    path: format!("prompts[{}]", p.name),
                    lifecycle: &p.lifecycle,
                },
                heir.map(|(n, at)| (n.name.as_str(), at)),
            );
        }
        for p in &self.new.prompts {
            match old.get(p.name.as_str()).or(renamed.get(p.name.as_str())) {
                Some(o) => self.prompt(o, p),
                None => self.push(
                    &PROMPT_ADDED,
                    format!("prompt `{}` was added", p.name),
                    format!("prompts[{}]", p.name),
                    Side::New,
                    p.span,
                ),
            }
        }
    }

    /// One prompt of the same name: its arguments, then what people and the model read.
    fn prompt(&mut self, o: &PromptDef, n: &PromptDef) {
        let path = format!("prompts[{}]", n.name);
        let new = self.new;
        self.lifecycle(
            "prompt",
            &n.name,
            &path,
            (&o.lifecycle, &n.lifecycle),
            (o.name != n.name).then_some(o.name.as_str()),
            &|name| new.prompts.iter().any(|p| p.name == name),
        );
        self.questions(
            &format!("prompt `{}`", n.name),
            &o.questions,
            &n.questions,
            &path,
        );
        self.scopes(
            &format!("prompt `{}`", n.name),
            &path,
            &o.scopes,
            &n.scopes,
            n.span,
        );
        self.icons(
            &format!("prompt `{}`", n.name),
            format!("{path}.icons"),
            &o.icons,
            &n.icons,
            n.span,
        );
        for a in &o.arguments {
            if !n.arguments.iter().any(|b| b.name == a.name) {
                self.push(
                    &PROMPT_ARGUMENT_NO_DELETE,
                    format!(
                        "prompt `{}` no longer has the argument `{}`",
                        n.name, a.name
                    ),
                    format!("{path}.arguments.{}", a.name),
                    Side::New,
                    n.span,
                );
            }
        }
        for a in &n.arguments {
            let at = format!("{path}.arguments.{}", a.name);
            let Some(b) = o.arguments.iter().find(|b| b.name == a.name) else {
                let (rule, what) = if a.required {
                    (&PROMPT_ARGUMENT_NEW_REQUIRED, "a new required")
                } else {
                    (&PROMPT_ARGUMENT_ADDED, "a new optional")
                };
                self.push(
                    rule,
                    format!("prompt `{}` has {what} argument `{}`", n.name, a.name),
                    at,
                    Side::New,
                    n.span,
                );
                continue;
            };
            if a.required != b.required {
                let (rule, now) = if a.required {
                    (&PROMPT_ARGUMENT_NEW_REQUIRED, "required")
                } else {
                    (&PROMPT_ARGUMENT_ADDED, "optional")
                };
                self.push(
                    rule,
                    format!("argument `{}` of prompt `{}` is now {now}", a.name, n.name),
                    at.clone(),
                    Side::New,
                    n.span,
                );
            }
            if a.description != b.description {
                self.push(
                    &DESCRIPTION_CHANGED,
                    format!(
                        "argument `{}` of prompt `{}` changed its description",
                        a.name, n.name
                    ),
                    at.clone(),
                    Side::New,
                    n.span,
                );
            }
            self.completion(b.completion.as_ref(), a.completion.as_ref(), &at, n.span);
        }
        if o.title != n.title {
            self.push(
                &TITLE_CHANGED,
                format!("prompt `{}` changed its title", n.name),
                format!("{path}.title"),
                Side::New,
                n.span,
            );
        }
        if o.description != n.description {
            self.push(
                &DESCRIPTION_CHANGED,
                format!("prompt `{}` changed its description", n.name),
                format!("{path}.description"),
                Side::New,
                n.span,
            );
        }
    }

    /// The completions of a resource's template variables, by variable.
    fn variable_completions(&mut self, o: &ResourceDef, n: &ResourceDef) {
        fn find<'r>(r: &'r ResourceDef, v: &str) -> Option<&'r CompletionDef> {
            r.completions.iter().find(|(x, _)| x == v).map(|(_, c)| c)
        }
        let mut variables: Vec<&str> = o.completions.iter().map(|(v, _)| v.as_str()).collect();
        for (v, _) in &n.completions {
            if !variables.contains(&v.as_str()) {
                variables.push(v);
            }
        }
        for v in variables {
            let path = format!("resources[{}].{v}", n.name);
            self.completion(find(o, v), find(n, v), &path, n.span);
        }
    }

    /// A completion added, removed or changed (values compared as a list, a handler by its
    /// method).
    fn completion(
        &mut self,
        o: Option<&CompletionDef>,
        n: Option<&CompletionDef>,
        path: &str,
        at: Span,
    ) {
        if o != n {
            let what = match (o, n) {
                (None, _) => "gained a completion",
                (_, None) => "lost its completion",
                _ => "changed its completion",
            };
            self.push(
                &COMPLETION_CHANGED,
                format!("`{path}` {what}"),
                format!("{path}.completion"),
                Side::New,
                at,
            );
        }
    }

    /// One resource at the same URI: what a client decodes, then what it shows.
    fn resource(&mut self, o: &ResourceDef, n: &ResourceDef) {
        let uri = n.uri.text();
        let new = self.new;
        self.lifecycle(
            "resource",
            &n.name,
            &format!("resources[{}]", n.name),
            (&o.lifecycle, &n.lifecycle),
            (o.uri.text() != uri).then_some(o.uri.text()),
            &|address| new.resources.iter().any(|r| r.uri.text() == address),
        );
        self.questions(
            &format!("the resource at `{uri}`"),
            &o.questions,
            &n.questions,
            &format!("resources[{}]", n.name),
        );
        self.scopes(
            &format!("the resource at `{uri}`"),
            &format!("resources[{}]", n.name),
            &o.scopes,
            &n.scopes,
            n.span,
        );
        self.icons(
            &format!("the resource at `{uri}`"),
            format!("resources[{}].icons", n.name),
            &o.icons,
            &n.icons,
            n.span,
        );
        self.resource_app(o, n);
        let fields = [
            (
                &RESOURCE_SAME_MIME_TYPE,
                "mime_type",
                o.mime_type.as_str(),
                n.mime_type.as_str(),
            ),
            (&TITLE_CHANGED, "uri_template", o.uri.text(), n.uri.text()),
            (&TITLE_CHANGED, "name", o.name.as_str(), n.name.as_str()),
            (&TITLE_CHANGED, "title", o.title.as_str(), n.title.as_str()),
            (
                &DESCRIPTION_CHANGED,
                "description",
                o.description.as_str(),
                n.description.as_str(),
            ),
        ];
        for (rule, key, old, new) in fields {
            if old != new {
                let to = match key {
                    "description" => String::new(),
                    _ => format!(" from \"{old}\" to \"{new}\""),
                };
                self.push(
                    rule,
                    format!("the resource at `{uri}` changed its {key}{to}"),
                    format!("resources[{}].{key}", n.name),
                    Side::New,
                    n.span,
                );
            }
        }
    }

    /// A planning contract moved to another key path, while some tool published it: a planner
    /// reading the old path finds nothing. Reported where the new manifest writes the path, or,
    /// back to the default, where the old one did.
    fn planning_keys(&mut self) {
        let (o, n) = (&self.old.planning, &self.new.planning);
        let contracts = [
            (
                "artifacts",
                &o.artifacts_key,
                &n.artifacts_key,
                self.old.tools.iter().any(|t| t.artifacts.is_some()),
            ),
            (
                "composition",
                &o.composition_key,
                &n.composition_key,
                self.old.tools.iter().any(|t| !t.encapsulates.is_empty()),
            ),
        ];
        for (name, was, is, published) in contracts {
            if !published || was.keys == is.keys {
                continue;
            }
            let (side, span) = match (is.span, was.span) {
                (Some(span), _) => (Side::New, span),
                (None, span) => (Side::Old, span.unwrap_or_default()),
            };
            self.push(
                &PLANNING_KEY_NO_CHANGE,
                format!(
                    "the {name} contract moved from `{}` to `{}`",
                    was.shown(),
                    is.shown()
                ),
                format!("{name}.meta_key"),
                side,
                span,
            );
        }
    }

    /// Groups and planning metadata: lists compared as sets, each lost entry breaking.
    fn membership(&mut self, o: &ToolDef, n: &ToolDef, path: &str) {
        fn compared<T: PartialEq>(old: &[T], new: &[T]) -> (Vec<usize>, Vec<usize>) {
            let lost = (0..old.len()).filter(|&i| !new.contains(&old[i])).collect();
            let gained = (0..new.len()).filter(|&i| !old.contains(&new[i])).collect();
            (lost, gained)
        }
        let (left, joined) = compared(&o.groups, &n.groups);
        for i in left {
            self.push(
                &GROUP_NO_LEAVE,
                format!("tool `{}` left the group `{}`", n.name, o.groups[i]),
                format!("{path}.groups[{}]", o.groups[i]),
                Side::New,
                n.span,
            );
        }
        for i in joined {
            self.push(
                &GROUP_JOINED,
                format!("tool `{}` joined the group `{}`", n.name, n.groups[i]),
                format!("{path}.groups[{}]", n.groups[i]),
                Side::New,
                n.span,
            );
        }
        let links = |t: &ToolDef| -> Vec<String> {
            let artifacts = t.artifacts.clone().unwrap_or_default();
            let produced = artifacts.produces.iter().map(|p| {
                let encoded = match p.encoding {
                    Some(Encoding::JsonArray) => " as a JSON array",
                    None => "",
                };
                format!("produces `{}` at `{}`{encoded}", p.kind, p.pointer)
            });
            let consumed = artifacts.consumes.iter().map(|c| {
                let need = if c.required { "requires" } else { "consumes" };
                format!("{need} `{}` at `{}`", c.kind, c.pointer)
            });
            let wrapped = t.encapsulates.iter().map(|m| format!("encapsulates `{m}`"));
            produced.chain(consumed).chain(wrapped).collect()
        };
        let (ol, nl) = (links(o), links(n));
        let (lost, gained) = compared(&ol, &nl);
        for i in lost {
            self.push(
                &PLANNING_NO_DELETE,
                format!("tool `{}` no longer {}", n.name, ol[i]),
                format!("{path}.planning"),
                Side::New,
                n.span,
            );
        }
        for i in gained {
            self.push(
                &PLANNING_ADDED,
                format!("tool `{}` now {}", n.name, nl[i]),
                format!("{path}.planning"),
                Side::New,
                n.span,
            );
        }
    }

    /// Compares the resolved hints (effect plus overrides), which is what a client acts on.
    fn hints(&mut self, o: &ToolDef, n: &ToolDef, path: &str) {
        for hint in Hint::ALL {
            let (key, was, is) = (hint.key(), o.hints.get(hint), n.hints.get(hint));
            if was == is {
                continue;
            }
            let rule = if is == hint.safe() {
                &HINT_SAFER
            } else {
                &HINT_NO_LESS_SAFE
            };
            self.push(
                rule,
                format!("tool `{}` changed {key} from {was} to {is}", n.name),
                format!("{path}.hints.{key}"),
                Side::New,
                n.span,
            );
        }
    }

    /// Compares the properties of an object: a removed one is reported where the old
    /// manifest wrote it, everything else where the new one does.
    fn fields(&mut self, old: &[Field], new: &[Field], path: &str, dir: Direction, depth: usize) {
        let (old_fields, new_fields) = (by_name(old, |f| &f.name), by_name(new, |f| &f.name));
        for f in old
            .iter()
            .filter(|f| !new_fields.contains_key(f.name.as_str()))
        {
            let (rule, what) = match dir {
                Direction::Input => (&PARAMETER_NO_DELETE, "parameter"),
                Direction::Output => (&OUTPUT_FIELD_NO_DELETE, "output field"),
            };
            self.push(
                rule,
                format!("{what} `{}` was removed", f.name),
                format!("{path}.{}", f.name),
                Side::Old,
                f.span,
            );
        }
        for n in new {
            let here = format!("{path}.{}", n.name);
            let Some(o) = old_fields.get(n.name.as_str()) else {
                let (rule, message) = match (dir, n.required) {
                    (Direction::Input, true) => (
                        &PARAMETER_NEW_REQUIRED,
                        format!("required parameter `{}` was added", n.name),
                    ),
                    (Direction::Input, false) => (
                        &PARAMETER_ADDED,
                        format!("optional parameter `{}` was added", n.name),
                    ),
                    (Direction::Output, _) => (
                        &OUTPUT_FIELD_ADDED,
                        format!("output field `{}` was added", n.name),
                    ),
                };
                self.push(rule, message, here, Side::New, n.span);
                continue;
            };
            match (dir, o.required, n.required) {
                (Direction::Input, false, true) => self.push(
                    &PARAMETER_SAME_REQUIRED,
                    format!("parameter `{}` is now required", n.name),
                    here.clone(),
                    Side::New,
                    n.span,
                ),
                (Direction::Input, true, false) => self.push(
                    &CONSTRAINT_LOOSENED,
                    format!("parameter `{}` is now optional", n.name),
                    here.clone(),
                    Side::New,
                    n.span,
                ),
                // A reader that relied on the field being present now may find it absent.
                (Direction::Output, true, false) => self.push(
                    &OUTPUT_FIELD_NO_DELETE,
                    format!("output field `{}` may now be absent", n.name),
                    here.clone(),
                    Side::New,
                    n.span,
                ),
                _ => {}
            }
            if o.published_description() != n.published_description() {
                self.push(
                    &DESCRIPTION_CHANGED,
                    format!("`{}` changed its description", n.name),
                    here.clone(),
                    Side::New,
                    n.span,
                );
            }
            let name_of = |f: &Field| f.header.as_ref().map(|h| h.value.clone());
            let message = match (name_of(o), name_of(n)) {
                (Some(was), Some(is)) if was != is => Some(format!(
                    "`{}` is now mirrored as `{is}`, not `{was}`",
                    n.name
                )),
                (Some(was), None) => Some(format!("`{}` is no longer mirrored as `{was}`", n.name)),
                (None, Some(is)) => {
                    Some(format!("`{}` is now mirrored as the header `{is}`", n.name))
                }
                _ => None,
            };
            if let Some(message) = message {
                self.push(&HEADER_NO_CHANGE, message, here.clone(), Side::New, n.span);
            }
            if o.schema.examples != n.schema.examples {
                self.push(
                    &EXAMPLE_CHANGED,
                    format!("`{}` changed its examples", n.name),
                    here.clone(),
                    Side::New,
                    n.span,
                );
            }
            self.schema(&o.schema, &n.schema, &here, &n.name, dir, n.span, depth);
        }
    }

    /// Compares two schemas at the same place: constraints, then the type, recursing into
    /// items, properties and shared types. Findings on this schema and its items are reported
    /// at `at`, the field's name; nested properties at their own names.
    #[allow(
        clippy::too_many_arguments,
        reason = "the place (path, name, span) travels with the pair being compared"
    )]
    fn schema(
        &mut self,
        o: &Schema,
        n: &Schema,
        path: &str,
        name: &str,
        dir: Direction,
        at: Span,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        // A shared type stands for its schema: `type: Color` and an inline enum with the same
        // values are the same thing on the wire.
        let (old_types, new_types) = (&self.old.types, &self.new.types);
        let resolve = |types: &'c [NamedType], s: &Schema| match s.kind {
            Kind::Named(i) => types.get(i).map(|t| &t.schema),
            _ => None,
        };
        let (ro, rn) = (resolve(old_types, o), resolve(new_types, n));
        // Constraints written beside a reference are compared only against constraints written
        // beside a reference; once one side is inline, the type's own are what it meets.
        if dir == Direction::Input && ro.is_some() == rn.is_some() {
            self.constraints(o, n, path, name, at);
        }
        if ro.is_some() || rn.is_some() {
            let (ro, rn) = (ro.unwrap_or(o), rn.unwrap_or(n));
            return self.schema(ro, rn, path, name, dir, at, depth + 1);
        }
        match (&o.kind, &n.kind) {
            (Kind::Enum(oe), Kind::Enum(ne)) => {
                // Compared by published value; the Rust variant names are not on the wire.
                let has = |values: &[(String, String)], v: &str| values.iter().any(|(x, _)| x == v);
                for (v, _) in oe.values.iter().filter(|(v, _)| !has(&ne.values, v)) {
                    self.push(
                        &ENUM_VALUE_NO_DELETE,
                        format!("`{name}` no longer has the enum value `{v}`"),
                        path.to_owned(),
                        Side::New,
                        at,
                    );
                }
                for (v, _) in ne.values.iter().filter(|(v, _)| !has(&oe.values, v)) {
                    self.push(
                        &ENUM_VALUE_ADDED,
                        format!("`{name}` has the new enum value `{v}`"),
                        path.to_owned(),
                        Side::New,
                        at,
                    );
                }
            }
            (Kind::Array(oi), Kind::Array(ni)) => {
                self.schema(
                    oi,
                    ni,
                    &format!("{path}.items"),
                    &format!("{name}[]"),
                    dir,
                    at,
                    depth + 1,
                );
            }
            (Kind::Object(oo), Kind::Object(no)) => {
                self.fields(&oo.fields, &no.fields, path, dir, depth + 1);
            }
            (Kind::Union(ou), Kind::Union(nu)) => self.union(ou, nu, path, name, dir, at, depth),
            (Kind::Document(od), Kind::Document(nd)) if od == nd => {}
            (Kind::Document(_), _) | (_, Kind::Document(_)) => self.push(
                &JSON_SCHEMA_CHANGED,
                format!("`{name}` changed its `json_schema` document"),
                path.to_owned(),
                Side::New,
                at,
            ),
            (ok, nk) if kind_name(ok) == kind_name(nk) => {}
            (ok, nk) => {
                let rule = match dir {
                    Direction::Input => &PARAMETER_SAME_TYPE,
                    Direction::Output => &OUTPUT_FIELD_SAME_TYPE,
                };
                self.push(
                    rule,
                    format!(
                        "`{name}` changed its type from {} to {}",
                        kind_name(ok),
                        kind_name(nk)
                    ),
                    path.to_owned(),
                    Side::New,
                    at,
                );
            }
        }
    }

    /// Compares two tagged unions: the tag, the variants by their tag values (a new one widens
    /// what a call may pass and what a result may hold, so it is compatible for an input and
    /// breaking for an output; a removed one the reverse), and each variant kept, as an object.
    #[allow(
        clippy::too_many_arguments,
        reason = "the place (path, name, span) travels with the pair being compared"
    )]
    fn union(
        &mut self,
        o: &UnionDef,
        n: &UnionDef,
        path: &str,
        name: &str,
        dir: Direction,
        at: Span,
        depth: usize,
    ) {
        if o.tag != n.tag {
            self.push(
                &UNION_TAG_NO_CHANGE,
                format!("`{name}` is now told apart by `{}`, not `{}`", n.tag, o.tag),
                path.to_owned(),
                Side::New,
                at,
            );
            return;
        }
        let has = |u: &UnionDef, value: &str| u.variants.iter().any(|v| v.value == value);
        for gone in o.variants.iter().filter(|v| !has(n, &v.value)) {
            let rule = match dir {
                Direction::Input => &UNION_VARIANT_NO_DELETE,
                Direction::Output => &OUTPUT_UNION_VARIANT_REMOVED,
            };
            let message = format!("`{name}` no longer has the variant `{}`", gone.value);
            self.push(rule, message, path.to_owned(), Side::New, at);
        }
        for new in &n.variants {
            let here = format!("{path}.one_of[{}]", new.value);
            let Some(old) = o.variants.iter().find(|v| v.value == new.value) else {
                let rule = match dir {
                    Direction::Input => &UNION_VARIANT_ADDED,
                    Direction::Output => &OUTPUT_UNION_VARIANT_NO_ADD,
                };
                let message = format!("`{name}` has the new variant `{}`", new.value);
                self.push(rule, message, here, Side::New, new.span);
                continue;
            };
            let variant = format!("{name}.{}", new.value);
            if old.schema.description != new.schema.description {
                self.push(
                    &DESCRIPTION_CHANGED,
                    format!("`{variant}` changed its description"),
                    here.clone(),
                    Side::New,
                    new.span,
                );
            }
            self.schema(
                &old.schema,
                &new.schema,
                &here,
                &variant,
                dir,
                new.span,
                depth + 1,
            );
        }
    }

    /// Compares the constraint keywords of an input schema as published, with the bounds its
    /// Rust type implies: `minimum: 0` dropped from an integer lowers its published maximum.
    /// Each finding points at the keyword's value where the new manifest writes one, else at
    /// the field (`at`).
    fn constraints(&mut self, o: &Schema, n: &Schema, path: &str, name: &str, at: Span) {
        let (oc, nc) = (&o.input_constraints(), &n.input_constraints());
        let mut found: Vec<(bool, String, Span)> = Vec::new();
        for def in &KEYWORDS {
            let key = def.name;
            let (was, is) = (oc.get(def.keyword), nc.get(def.keyword));
            if was == is {
                continue;
            }
            let at = nc.span(def.keyword).unwrap_or(at);
            let lower = match def.bound {
                Bound::Lower(_) => true,
                Bound::Upper => false,
                Bound::Other => {
                    found.push(match (was, is) {
                        (Some(w), Some(i)) => (
                            true,
                            format!("`{name}` changed its {key} from `{w}` to `{i}`"),
                            at,
                        ),
                        (None, Some(i)) => (true, format!("`{name}` gained the {key} `{i}`"), at),
                        (Some(w), _) => (false, format!("`{name}` lost the {key} `{w}`"), at),
                        (None, None) => continue,
                    });
                    continue;
                }
            };
            // A lower bound tightens when it appears or grows; an upper one when it appears
            // or shrinks.
            let tighter = match (was.and_then(Limit::as_f64), is.and_then(Limit::as_f64)) {
                (Some(w), Some(i)) if w == i => continue,
                (None, None) => continue,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(w), Some(i)) => (i > w) == lower,
            };
            // As written: a bound near 2^64 has no exact `f64` to print.
            let show = |v: Option<&Limit>| v.map_or_else(|| "none".to_owned(), Limit::to_string);
            found.push((
                tighter,
                format!("`{name}` changed {key} from {} to {}", show(was), show(is)),
                at,
            ));
        }
        for (tighter, message, at) in found {
            let rule = if tighter {
                &CONSTRAINT_NO_TIGHTEN
            } else {
                &CONSTRAINT_LOOSENED
            };
            self.push(rule, message, path.to_owned(), Side::New, at);
        }
    }
}

/// The JSON Schema type a kind publishes; a shared type is resolved before this is asked.
fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::String => "string",
        Kind::Integer => "integer",
        Kind::Number => "number",
        Kind::Boolean => "boolean",
        Kind::Json => "json",
        Kind::Enum(_) => "enum",
        Kind::Array(_) => "array",
        Kind::Object(_) => "object",
        Kind::Named(_) => "shared type",
        Kind::Document(_) => "JSON Schema document",
        Kind::Union(_) => "one_of",
    }
}

/// Items by name, each name to its first item: lookups stay constant-time, so a diff of
/// two large contracts is linear in their size.
/// The entry a change's path begins with (`tools[read_file].parameters.path` is the tool
/// `read_file`), as its noun and name.
fn entry_of(path: &str) -> Option<(&'static str, &str)> {
    let (kind, rest) = path.split_once('[')?;
    let name = &rest[..rest.find(']')?];
    let noun = match kind {
        "tools" => "tool",
        "prompts" => "prompt",
        "resources" => "resource",
        "groups" => "group",
        _ => return None,
    };
    Some((noun, name))
}

fn by_name<T>(items: &[T], name: impl Fn(&T) -> &String) -> HashMap<&str, &T> {
    items.iter().rev().map(|t| (name(t).as_str(), t)).collect()
}
