//! The rule table: every kind of change, with its stable ID, what it does to clients and the
//! version bump it asks for.

use std::fmt::Write as _;

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
        $($(#[$doc])* pub(crate) const $name: Rule = Rule {
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
    /// A tool's, prompt's or resource's former name (`aliases:`) is no longer answered,
    /// before its `remove_after`.
    ALIAS_NO_DELETE = Major, "Clients still calling the former name get the unknown-tool, unknown-prompt or resource-not-found error; give the alias a `remove_after` and remove it once that day has passed.";
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
    /// A question's form demands an answer the old one did not: a field newly required, a
    /// field's kind or limits changed, or a form became a URL question or back.
    QUESTION_NARROWED = Major, "A client that answers the form programmatically sends what the old form wanted, and the answer is refused.";
    /// A tool now runs only as a task (`task: required`).
    TASK_REQUIRED = Major, "Clients that did not opt in to tasks are refused the call.";
    /// A tool no longer runs as a task (its `task:` was removed).
    TASK_REMOVED = Major, "2025-11-25 clients that ask for a task are refused (`execution.taskSupport` is `forbidden`), and clients that start it and poll get a result instead of a task.";
    /// A parameter accepts fewer values.
    CONSTRAINT_NO_TIGHTEN = Major, "Values that were accepted (a length, a bound, a pattern or format) are now refused.";
    /// An output field was removed, or may now be absent.
    OUTPUT_FIELD_NO_DELETE = Major, "Clients reading the field from structured content find nothing.";
    /// An output field's type changed.
    OUTPUT_FIELD_SAME_TYPE = Major, "Clients decoding the field with the old type fail.";
    /// A parameter's union (`one_of`) lost a variant.
    UNION_VARIANT_NO_DELETE = Major, "Calls passing the variant's tag are refused.";
    /// An output's union (`one_of`) gained a variant.
    OUTPUT_UNION_VARIANT_NO_ADD = Major, "Clients that decode results by the tags they know (a Rust enum, a `switch`) meet one they cannot read.";
    /// A union's tag property changed.
    UNION_TAG_NO_CHANGE = Major, "Every value carries its tag under the old name: calls are refused, and clients find no tag in results.";
    /// A JSON Schema document given whole (`json_schema:`, `input_schema:`) changed, or a
    /// schema became one or stopped being one.
    JSON_SCHEMA_CHANGED = Major, "A document is compared as written, not keyword by keyword: any change may refuse a call or a result that passed, so it is reviewed as breaking.";
    /// The output switched between text and a structured object.
    OUTPUT_SAME_KIND = Major, "Clients reading structured content (or parsing the text) find something else.";
    /// A tool no longer answers with a kind of content block (a tool without declared content
    /// answers with text).
    CONTENT_KIND_NO_DELETE = Major, "Clients that read blocks of that kind from the result find none.";
    /// A content block kind no longer allows a MIME type.
    CONTENT_MIME_TYPE_NO_DELETE = Major, "Clients that decode blocks of that MIME type find none.";
    /// A tool no longer lists an error code.
    ERROR_CODE_NO_DELETE = Major, "Clients handling the code lose the contract that it may occur; a code that moved to another name is no longer matched.";
    /// An error a tool lists no longer names its argument.
    ERROR_ARGUMENT_NO_DELETE = Major, "Clients that read the error's `argument` to find the one to fix find none.";
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
    /// A prompt was removed (or renamed).
    PROMPT_NO_DELETE = Major, "Requests for the prompt fail with -32602 (unknown prompt).";
    /// A prompt has a new required argument, or an optional one became required.
    PROMPT_ARGUMENT_NEW_REQUIRED = Major, "Existing requests do not pass it and are refused (-32602).";
    /// A prompt argument was removed (or renamed).
    PROMPT_ARGUMENT_NO_DELETE = Major, "Requests that pass it are refused (-32602): a prompt takes no argument it does not declare.";
    /// A produced or consumed artifact, or an encapsulated tool, was removed.
    PLANNING_NO_DELETE = Major, "Planners chaining tools through the artifact, or preferring the complete operation, lose the link.";
    /// The artifact or composition contract moved to another key path.
    PLANNING_KEY_NO_CHANGE = Major, "Planners read the contract where it was published: at its old key path they find nothing, and every tool looks unplanned.";
    /// The contract stopped declaring that its lists change (`server.list_changed`).
    LIST_CHANGED_NO_DELETE = Major, "`listChanged` is no longer advertised and 2026-07-28 `subscriptions/listen` is refused (-32601): clients that listen for list changes fail. (The lists then stop changing, so 2025-11-25 clients, no longer notified, miss nothing.)";
    /// A tool, group, resource or prompt requires a new scope.
    SCOPE_NO_ADD = Major, "Callers whose tokens lack the scope no longer see it listed, and their calls (or, for a group, requests to its route) are refused.";
    /// The resource identifier the manifest fixes was added, removed or changed.
    AUTH_RESOURCE_NO_CHANGE = Major, "Tokens name the resource identifier as their audience: those issued for the old one are refused.";
    /// An authorization server was removed.
    AUTH_SERVER_NO_DELETE = Major, "Tokens it issues are no longer accepted, and clients that discovered it must find another.";
    /// A tool no longer opens its MCP App, or opens another one.
    APP_NO_DELETE = Major, "Hosts that rendered the tool's results in the app show text only, or another app; an app that called the tool from its frame is no longer shown with it.";
    /// A tool's app visibility lost `model` or `app`.
    APP_VISIBILITY_NO_NARROW = Major, "Without `model`, hosts stop listing the tool to the agent and its calls stop; without `app`, hosts refuse the app's calls to it.";
    /// A tool was added.
    TOOL_ADDED = Minor, "New capability; existing calls are unaffected.";
    /// A tool, prompt or resource was renamed and its old name (a resource's old URI) kept
    /// as an alias.
    RENAMED_WITH_ALIAS = Minor, "Clients calling the old name reach the same handler through the alias; the new name is new capability.";
    /// A tool, prompt or resource was deprecated.
    DEPRECATED = Minor, "Nothing fails: its description and `_meta` tell models and clients what to use instead, and until when.";
    /// A deprecated tool, prompt or resource was removed after its `remove_after`.
    REMOVED_AFTER_WINDOW = Minor, "Its deprecation announced the removal and the window has passed; clients that did not move now get the unknown-entry error.";
    /// An alias was removed after its `remove_after`.
    ALIAS_REMOVED_AFTER_WINDOW = Minor, "The alias's window has passed; clients still calling the former name now get the unknown-entry error.";
    /// A tool, prompt or resource answers one more former name.
    ALIAS_ADDED = Minor, "One more name reaches an existing entry; nothing that worked changes.";
    /// A tool now opens an MCP App.
    APP_ADDED = Minor, "Hosts that render apps show its results in the app; every other client gets the same text as before.";
    /// A tool's app visibility gained `model` or `app`.
    APP_VISIBILITY_WIDENED = Minor, "The agent, or the app, may now call it; every call that worked still does.";
    /// An app's HTML changed: a new version, under a new `?v=` URI.
    APP_HTML_CHANGED = Minor, "Hosts read the new URI from the lists and fetch the new HTML instead of a cached copy; a host holding the old URI gets resource-not-found and lists again.";
    /// An app's frame settings changed: CSP origins, permissions, `domain` or `prefers_border`.
    APP_FRAME_CHANGED = Minor, "Hosts build the frame with the new policy; an origin or permission removed while the HTML still uses it fails inside the app (its HTML and settings ship together).";
    /// An optional parameter was added.
    PARAMETER_ADDED = Minor, "Existing calls leave it out and keep working.";
    /// A parameter's union (`one_of`) gained a variant.
    UNION_VARIANT_ADDED = Minor, "Callers may pass the new variant; every call that matched a variant still does.";
    /// An output's union (`one_of`) lost a variant.
    OUTPUT_UNION_VARIANT_REMOVED = Minor, "Clients stop meeting the variant; every result still carries a tag they know.";
    /// An enum value was added.
    ENUM_VALUE_ADDED = Minor, "Callers may pass a new value; clients matching exhaustively on results may meet it.";
    /// An output field was added.
    OUTPUT_FIELD_ADDED = Minor, "Clients ignore fields they do not know.";
    /// A tool answers with a new kind of content block.
    CONTENT_KIND_ADDED = Minor, "Clients skip blocks of a kind they do not read; the blocks they read still come.";
    /// A content block kind allows a new MIME type.
    CONTENT_MIME_TYPE_ADDED = Minor, "Clients meet a new MIME type among blocks of a kind they read, and may skip what they cannot decode.";
    /// A tool lists a new error code.
    ERROR_CODE_ADDED = Minor, "Clients meet a new code; the error envelope's message and hint still explain it.";
    /// An error a tool lists now names its argument.
    ERROR_ARGUMENT_ADDED = Minor, "The error envelope gains `argument`, naming the argument to fix; clients that ignore it are unaffected.";
    /// A parameter accepts more values, or became optional.
    CONSTRAINT_LOOSENED = Minor, "Every value accepted before is still accepted.";
    /// A tool joined a group, or a group was added.
    GROUP_JOINED = Minor, "Clients of the group's route see one more tool.";
    /// A resource or resource template was added.
    RESOURCE_ADDED = Minor, "New capability; existing reads are unaffected.";
    /// A prompt was added.
    PROMPT_ADDED = Minor, "New capability; existing requests are unaffected.";
    /// A prompt has a new optional argument, or a required one became optional.
    PROMPT_ARGUMENT_ADDED = Minor, "Existing requests leave it out and keep working.";
    /// An artifact or an encapsulated tool was declared.
    PLANNING_ADDED = Minor, "Planners learn a new link; nothing that worked stops working.";
    /// A tool, prompt or resource may ask a new question.
    QUESTION_ADDED = Minor, "Clients that can elicit may now be asked while it runs; clients that cannot are never asked, and requests work as before.";
    /// A tool, prompt or resource no longer asks a question.
    QUESTION_REMOVED = Minor, "Users are asked less; no request fails.";
    /// A tool may now run as a task (`task: optional`), or no longer requires it.
    TASK_OPTIONAL = Minor, "Clients that opted in to tasks may get a task instead of a result; every other client calls it as a normal tool.";
    /// The contract now declares that its lists change (`server.list_changed`).
    LIST_CHANGED_ADDED = Minor, "`listChanged` is advertised: clients may listen, and are told of each change; one that does not sees a change within the capped cache hint (5,000 ms). Nothing is switched off until the server does so.";
    /// `server.shared_types` changed how schemas publish the shared types they use (inline,
    /// or under `$defs`).
    SHARED_TYPES_PUBLICATION = Minor, "Each schema that uses a shared object or enum type carries it in place, or once under `$defs` with a `$ref` at each use: every schema accepts the same values, but a client that does not resolve `$ref` reads it otherwise (the `portable-defs` lint says which).";
    /// A tool, group, resource or prompt no longer requires a scope.
    SCOPE_REMOVED = Minor, "Callers with fewer scopes may now list and call it; every caller who could before still can.";
    /// A scope was declared in `auth.scopes`.
    AUTH_SCOPE_ADDED = Minor, "The protected resource metadata advertises one more scope; tokens that worked still do.";
    /// A scope was removed from `auth.scopes` (so nothing requires it any more).
    AUTH_SCOPE_REMOVED = Minor, "It is no longer advertised nor required; tokens that carry it still work.";
    /// An authorization server was added.
    AUTH_SERVER_ADDED = Minor, "Clients may get tokens from one more issuer; tokens from the others still work.";
    /// A question's message, titles, descriptions, defaults or optional fields changed.
    QUESTION_CHANGED = Patch, "People see another form; every answer that fitted still fits.";
    /// A hint now promises more safety.
    HINT_SAFER = Patch, "Clients may ask for approval less often; nothing they did before fails.";
    /// A tool's, resource's or prompt's title changed, a resource's name, or a template's
    /// variable names.
    TITLE_CHANGED = Patch, "Display only; listed because humans see it.";
    /// The icons of the server, a tool or a resource changed: added, removed, or another image.
    ICONS_CHANGED = Patch, "Display only: clients show another image, or none; no call fails.";
    /// A description changed (a parameter's includes its default; a scope's too).
    DESCRIPTION_CHANGED = Patch, "The model reads it and may call differently; no call fails.";
    /// An example changed.
    EXAMPLE_CHANGED = Patch, "Models copy examples; no call fails.";
    /// A prompt argument's or template variable's completion was added, removed or changed.
    COMPLETION_CHANGED = Patch, "Suggestions only: clients may offer other values, and any value can still be sent.";
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
