//! Comparing two contracts: what changed for the clients of a server, and whether it breaks them.
//!
//! [`diff`] is pure: it walks two validated [`Contract`]s and returns one [`Change`] per
//! difference a caller could notice, each classified by a [`Rule`] of [`RULES`]. [`Report`]
//! places the changes in their manifests (`tools.yaml:LINE:COL`), applies `--allow`, and renders
//! them as text, JSON, GitHub annotations or Markdown.
//!
//! Identity is by name: a renamed tool or parameter is a removal plus an addition, which is
//! what a client sees on the wire.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::model::{
    Contract, Field, Kind, NamedType, OutputDef, ResourceDef, ResourceUri, Schema, ToolDef,
};
use crate::source::{Source, Span};

/// How much a release must bump its version for a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Nothing changed.
    None,
    /// Wording only: no caller can fail because of it.
    Patch,
    /// Something new callers can use; old calls still work.
    Minor,
    /// Some existing call or client may now fail.
    Major,
}

impl Bump {
    /// The word used in summaries and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// Whether a change can break an existing caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// An existing call or client may fail.
    Breaking,
    /// Existing calls and clients keep working.
    Compatible,
}

impl Severity {
    /// The word used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Breaking => "breaking",
            Severity::Compatible => "compatible",
        }
    }
}

/// A classification of changes, with a stable ID that `--allow` and CI configurations name.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable ID, SCREAMING_SNAKE like buf's.
    pub id: &'static str,
    /// The version bump the change calls for; [`Bump::Major`] is what makes it breaking.
    pub bump: Bump,
    /// Why it matters to callers, for the documentation's rule table.
    pub why: &'static str,
}

impl Rule {
    /// Breaking exactly when it calls for a major bump, so the two can never disagree.
    pub fn severity(&self) -> Severity {
        if self.bump == Bump::Major {
            Severity::Breaking
        } else {
            Severity::Compatible
        }
    }
}

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = $bump:ident, $why:literal;)*) => {
        $($(#[$doc])* pub const $name: Rule = Rule {
            id: stringify!($name),
            bump: Bump::$bump,
            why: $why,
        };)*
        /// Every rule, in the order of the documentation's table.
        pub const RULES: &[Rule] = &[$($name),*];
    };
}

rules! {
    /// A tool was removed (or renamed).
    TOOL_NO_DELETE = Major, "Calls to the tool fail with an unknown-tool error.";
    /// A parameter was removed (or renamed).
    PARAMETER_NO_DELETE = Major, "Calls that pass it are refused: argument objects do not accept unknown properties.";
    /// A new parameter is required.
    PARAMETER_NEW_REQUIRED = Major, "Existing calls do not pass it and are refused.";
    /// An optional parameter became required.
    PARAMETER_SAME_REQUIRED = Major, "Calls that leave it out are refused.";
    /// A parameter's type changed.
    PARAMETER_SAME_TYPE = Major, "Values valid for the old type are refused.";
    /// An enum value was removed.
    ENUM_VALUE_NO_DELETE = Major, "Calls passing the value are refused; clients matching on it in results never see it again.";
    /// A parameter accepts fewer values.
    CONSTRAINT_NO_TIGHTEN = Major, "Values that were accepted (a length, a bound, a pattern or format) are now refused.";
    /// An output field was removed, or may now be absent.
    OUTPUT_FIELD_NO_DELETE = Major, "Clients reading the field from structured content find nothing.";
    /// An output field's type changed.
    OUTPUT_FIELD_SAME_TYPE = Major, "Clients decoding the field with the old type fail.";
    /// The output switched between text and a structured object.
    OUTPUT_SAME_KIND = Major, "Clients reading structured content (or parsing the text) find something else.";
    /// A tool no longer lists an error code.
    ERROR_CODE_NO_DELETE = Major, "Clients handling the code lose the contract that it may occur; a code that moved to another name is no longer matched.";
    /// A hint now promises less safety.
    HINT_NO_LESS_SAFE = Major, "Clients that auto-approve calls on the old hint would run a riskier tool without asking.";
    /// A tool left a group, or a group was removed.
    GROUP_NO_LEAVE = Major, "Clients connected to the group's HTTP route can no longer list or call the tool.";
    /// A resource or resource template was removed (or its URI changed).
    RESOURCE_NO_DELETE = Major, "Reads of the URI fail with resource-not-found.";
    /// A resource's MIME type changed.
    RESOURCE_SAME_MIME_TYPE = Major, "Clients decoding the contents by the old type misread them.";
    /// A parameter's `x-mcp-header` was added, removed or renamed.
    HEADER_NO_CHANGE = Major, "On 2026-07-28 the server checks `Mcp-Param-{name}` against the arguments: a client holding the cached tool list sends the old header, or none, and is refused (-32020).";
    /// The contract started or stopped declaring groups.
    ROUTES_NO_CHANGE = Major, "The HTTP host moves between one route (`/mcp`) and one per group (`/mcp/GROUP`): clients configured with the old routes get 404.";
    /// A produced or consumed artifact, or an encapsulated tool, was removed.
    PLANNING_NO_DELETE = Major, "Planners chaining tools through the artifact, or preferring the complete operation, lose the link.";
    /// A tool was added.
    TOOL_ADDED = Minor, "New capability; existing calls are unaffected.";
    /// An optional parameter was added.
    PARAMETER_ADDED = Minor, "Existing calls leave it out and keep working.";
    /// An enum value was added.
    ENUM_VALUE_ADDED = Minor, "Callers may pass a new value; clients matching exhaustively on results may meet it.";
    /// An output field was added.
    OUTPUT_FIELD_ADDED = Minor, "Clients ignore fields they do not know.";
    /// A tool lists a new error code.
    ERROR_CODE_ADDED = Minor, "Clients meet a new code; the error envelope's message and hint still explain it.";
    /// A parameter accepts more values, or became optional.
    CONSTRAINT_LOOSENED = Minor, "Every value accepted before is still accepted.";
    /// A tool joined a group, or a group was added.
    GROUP_JOINED = Minor, "Clients of the group's route see one more tool.";
    /// A resource or resource template was added.
    RESOURCE_ADDED = Minor, "New capability; existing reads are unaffected.";
    /// An artifact or an encapsulated tool was declared.
    PLANNING_ADDED = Minor, "Planners learn a new link; nothing that worked stops working.";
    /// A hint now promises more safety.
    HINT_SAFER = Patch, "Clients may ask for approval less often; nothing they did before fails.";
    /// A tool's or resource's title changed, a resource's name, or a template's variable names.
    TITLE_CHANGED = Patch, "Display only; listed because humans see it.";
    /// A description changed (a parameter's includes its default).
    DESCRIPTION_CHANGED = Patch, "The model reads it and may call differently; no call fails.";
    /// An example changed.
    EXAMPLE_CHANGED = Patch, "Models copy examples; no call fails.";
    /// A pinned sentence's text changed.
    SENTENCE_CHANGED = Patch, "Clients and evaluations may match on the exact text.";
}

/// The rule with this ID, for `--allow`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The rule table as Markdown, which `docs/reviewing-contract-changes.md` carries verbatim.
pub fn rules_table() -> String {
    let mut out = String::from("| Rule | Severity | Bump | Why |\n| --- | --- | --- | --- |\n");
    for r in RULES {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            r.id,
            r.severity().as_str(),
            r.bump.as_str(),
            r.why
        );
    }
    out
}

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
/// manifest's order, then pinned sentences.
pub fn diff(old: &Contract, new: &Contract) -> Vec<Change> {
    let mut d = Differ {
        old,
        new,
        out: Vec::new(),
    };
    for t in &old.tools {
        if !new.tools.iter().any(|n| n.name == t.name) {
            d.push(
                &TOOL_NO_DELETE,
                format!("tool `{}` was removed", t.name),
                format!("tools[{}]", t.name),
                Side::Old,
                t.span,
            );
        }
    }
    for t in &new.tools {
        match old.tools.iter().find(|o| o.name == t.name) {
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
    for s in &new.sentences {
        if let Some(o) = old.sentences.iter().find(|o| o.name == s.name)
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

struct Differ<'c> {
    old: &'c Contract,
    new: &'c Contract,
    out: Vec<Change>,
}

impl<'c> Differ<'c> {
    fn push(&mut self, rule: &'static Rule, message: String, path: String, side: Side, span: Span) {
        self.out.push(Change {
            rule,
            message,
            path,
            side,
            span,
        });
    }

    fn tool(&mut self, o: &ToolDef, n: &ToolDef) {
        let path = format!("tools[{}]", n.name);
        let at = n.span;
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
            (_, new_output) => self.push(
                &OUTPUT_SAME_KIND,
                format!(
                    "tool `{}` now returns {}",
                    n.name,
                    match new_output {
                        OutputDef::Text => "text instead of a structured object",
                        OutputDef::Object { .. } => "a structured object instead of text",
                    }
                ),
                format!("{path}.output"),
                Side::New,
                at,
            ),
        }
        let codes = |c: &Contract, t: &ToolDef| -> Vec<String> {
            // Indices come from validation; `get` keeps a hand-built contract from panicking.
            t.errors
                .iter()
                .filter_map(|&i| c.errors.get(i).map(|e| e.code.clone()))
                .collect()
        };
        let (oc, nc) = (codes(self.old, o), codes(self.new, n));
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
        for r in &self.old.resources {
            if !self.new.resources.iter().any(|n| shape(n) == shape(r)) {
                self.push(
                    &RESOURCE_NO_DELETE,
                    format!("resource `{}` at `{}` was removed", r.name, r.uri.text()),
                    format!("resources[{}]", r.name),
                    Side::Old,
                    r.span,
                );
            }
        }
        for r in &self.new.resources {
            if let Some(o) = self.old.resources.iter().find(|o| shape(o) == shape(r)) {
                self.resource(o, r);
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

    /// One resource at the same URI: what a client decodes, then what it shows.
    fn resource(&mut self, o: &ResourceDef, n: &ResourceDef) {
        let uri = n.uri.text();
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
            let produced = artifacts.produces.iter().map(|(k, p, json_array)| {
                let encoded = if *json_array { " as a JSON array" } else { "" };
                format!("produces `{k}` at `{p}`{encoded}")
            });
            let consumed = artifacts.consumes.iter().map(|(k, p, required)| {
                let need = if *required { "requires" } else { "consumes" };
                format!("{need} `{k}` at `{p}`")
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
        // (key, old, new, the value that promises safety)
        let pairs = [
            ("read_only", o.hints.read_only, n.hints.read_only, true),
            (
                "destructive",
                o.hints.destructive,
                n.hints.destructive,
                false,
            ),
            ("idempotent", o.hints.idempotent, n.hints.idempotent, true),
            ("open_world", o.hints.open_world, n.hints.open_world, false),
        ];
        for (key, was, is, safe) in pairs {
            if was == is {
                continue;
            }
            let rule = if is == safe {
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
        for f in old.iter().filter(|f| !new.iter().any(|n| n.name == f.name)) {
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
            let Some(o) = old.iter().find(|o| o.name == n.name) else {
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

    /// Compares the constraint keywords of an input schema.
    fn constraints(&mut self, o: &Schema, n: &Schema, path: &str, name: &str, at: Span) {
        let (oc, nc) = (&o.constraints, &n.constraints);
        let mut found: Vec<(bool, String)> = Vec::new();
        // A lower bound tightens when it appears or grows; an upper one when it appears or shrinks.
        let mut bound = |key: &str, was: Option<f64>, is: Option<f64>, lower: bool| {
            let tighter = match (was, is) {
                (None, None) => return,
                (Some(w), Some(i)) if w == i => return,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(w), Some(i)) => (i > w) == lower,
            };
            let show = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
            found.push((
                tighter,
                format!("`{name}` changed {key} from {} to {}", show(was), show(is)),
            ));
        };
        let count = |v: Option<u64>| v.map(|v| v as f64);
        let number = |v: &Option<serde_json::Number>| v.as_ref().and_then(|n| n.as_f64());
        bound(
            "minLength",
            count(oc.min_length),
            count(nc.min_length),
            true,
        );
        bound(
            "maxLength",
            count(oc.max_length),
            count(nc.max_length),
            false,
        );
        bound("minimum", number(&oc.minimum), number(&nc.minimum), true);
        bound("maximum", number(&oc.maximum), number(&nc.maximum), false);
        bound("minItems", count(oc.min_items), count(nc.min_items), true);
        bound("maxItems", count(oc.max_items), count(nc.max_items), false);
        // Whether one pattern or format accepts more than another is undecidable in general,
        // so any new or changed one counts as tightening; only a removal loosens.
        for (key, was, is) in [
            ("pattern", &oc.pattern, &nc.pattern),
            ("format", &oc.format, &nc.format),
        ] {
            match (was, is) {
                (Some(w), Some(i)) if w != i => found.push((
                    true,
                    format!("`{name}` changed its {key} from `{w}` to `{i}`"),
                )),
                (None, Some(i)) => found.push((true, format!("`{name}` gained the {key} `{i}`"))),
                (Some(w), None) => found.push((false, format!("`{name}` lost the {key} `{w}`"))),
                _ => {}
            }
        }
        for (tighter, message) in found {
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
        Kind::Enum(_) => "enum",
        Kind::Array(_) => "array",
        Kind::Object(_) => "object",
        Kind::Named(_) => "shared type",
    }
}

/// How a finding counts: what every format shows and the summary tallies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Breaking, and fails the run.
    Breaking,
    /// Breaking, but accepted by `--allow`.
    Allowed,
    /// Compatible.
    Compatible,
}

impl Status {
    /// The word every format shows.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Breaking => "breaking",
            Status::Allowed => "allowed",
            Status::Compatible => "compatible",
        }
    }
}

/// A change placed in its manifest, with `--allow` applied.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The change.
    pub change: Change,
    /// The manifest's display name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// Breaking, but named by `--allow`: listed, not counted for the exit code.
    pub allowed: bool,
}

impl Finding {
    /// How it counts.
    pub fn status(&self) -> Status {
        match (self.change.rule.severity(), self.allowed) {
            (Severity::Compatible, _) => Status::Compatible,
            (Severity::Breaking, true) => Status::Allowed,
            (Severity::Breaking, false) => Status::Breaking,
        }
    }

    fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The output formats of `mcp-contract diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `tools.yaml:LINE:COL: RULE_ID message`, then a summary.
    Text,
    /// One JSON object: `changes` and `summary`.
    Json,
    /// GitHub Actions workflow commands, which annotate the pull request.
    Github,
    /// A table for a pull-request comment.
    Markdown,
}

/// Every change between two manifests, placed and ready to render.
#[derive(Debug, Clone)]
pub struct Report {
    /// The findings, in [`diff`]'s order.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Places `changes` in their manifests and marks the breaking ones whose rule is in
    /// `allow` (allowing a compatible rule changes nothing: it never fails a run).
    pub fn new(changes: Vec<Change>, old: &Source, new: &Source, allow: &[&Rule]) -> Report {
        let findings = changes
            .into_iter()
            .map(|change| {
                let source = match change.side {
                    Side::Old => old,
                    Side::New => new,
                };
                let (line, column) = source.line_col(change.span.start);
                Finding {
                    allowed: change.rule.severity() == Severity::Breaking
                        && allow.contains(&change.rule),
                    file: source.name.clone(),
                    line,
                    column,
                    change,
                }
            })
            .collect();
        Report { findings }
    }

    /// Whether any finding is breaking and not allowed.
    pub fn blocks(&self) -> bool {
        self.findings.iter().any(|f| f.status() == Status::Breaking)
    }

    /// The bump the changes call for. An allowed breaking change still calls for a major
    /// bump: `--allow` accepts the break, it does not make callers immune to it.
    pub fn bump(&self) -> Bump {
        self.findings
            .iter()
            .map(|f| f.change.rule.bump)
            .max()
            .unwrap_or(Bump::None)
    }

    fn count(&self, status: Status) -> usize {
        self.findings
            .iter()
            .filter(|f| f.status() == status)
            .count()
    }

    /// `2 breaking, 1 allowed, 3 compatible changes; the contract needs a major version bump`.
    pub fn summary(&self) -> String {
        if self.findings.is_empty() {
            return "no changes; the contract needs no version bump".to_owned();
        }
        let (breaking, allowed, compatible) = (
            self.count(Status::Breaking),
            self.count(Status::Allowed),
            self.count(Status::Compatible),
        );
        let mut parts = vec![format!("{breaking} breaking")];
        if allowed > 0 {
            parts.push(format!("{allowed} allowed"));
        }
        let noun = if self.findings.len() == 1 {
            "change"
        } else {
            "changes"
        };
        parts.push(format!("{compatible} compatible {noun}"));
        format!(
            "{}; the contract needs a {} version bump",
            parts.join(", "),
            self.bump().as_str()
        )
    }

    /// Renders the report in `format`; every format ends with a newline.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => self.json(),
            Format::Github => self.github(),
            Format::Markdown => self.markdown(),
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let allowed = if f.allowed { " (allowed)" } else { "" };
            let _ = writeln!(
                out,
                "{}: {} {}{allowed}",
                f.location(),
                f.change.rule.id,
                f.change.message
            );
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    fn json(&self) -> String {
        let changes: Vec<Value> = self
            .findings
            .iter()
            .map(|f| {
                json!({
                    "rule": f.change.rule.id,
                    "severity": f.change.rule.severity().as_str(),
                    "allowed": f.allowed,
                    "message": f.change.message,
                    "path": f.change.path,
                    "file": f.file,
                    "line": f.line,
                    "column": f.column,
                })
            })
            .collect();
        let report = json!({
            "changes": changes,
            "summary": {
                "breaking": self.count(Status::Breaking),
                "allowed": self.count(Status::Allowed),
                "compatible": self.count(Status::Compatible),
                "bump": self.bump().as_str(),
                "text": self.summary(),
            },
        });
        // Serializing a `Value` built from strings and numbers cannot fail.
        let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
        out.push('\n');
        out
    }

    fn github(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let level = match f.status() {
                Status::Breaking => "error",
                Status::Allowed => "warning",
                Status::Compatible => "notice",
            };
            let _ = writeln!(
                out,
                "::{level} file={},line={},col={},title={}::{}",
                gh_property(&f.file),
                f.line,
                f.column,
                gh_property(f.change.rule.id),
                gh_data(&f.change.message)
            );
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("**Contract changes:** {}\n", self.summary());
        if self.findings.is_empty() {
            return out;
        }
        out.push_str("\n| Severity | Rule | Location | Change |\n| --- | --- | --- | --- |\n");
        for f in &self.findings {
            let _ = writeln!(
                out,
                "| {} | `{}` | `{}` | {} |",
                f.status().as_str(),
                f.change.rule.id,
                f.location(),
                // Names and messages may hold `|` or a newline, which would break the row.
                f.change.message.replace('|', "\\|").replace('\n', " ")
            );
        }
        out
    }
}

/// Escapes a workflow command's message.
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value, which also may not hold `:` or `,`.
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}
