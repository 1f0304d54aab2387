//! `mcp-contract verify`: a running server, in any language, against its manifest, on each
//! protocol revision it speaks. Three kinds of check:
//!
//! - **the publication**: what the lists of tools, resources, templates and prompts carry
//!   equals what the manifest publishes, as the diff engine judges it
//!   ([`compare`](crate::compare)), plus what it cannot see (an input schema open to unknown
//!   arguments, a keyword a manifest forbids, `_meta`), and what `initialize` says (the
//!   server's name, title, version and instructions, the capabilities the manifest implies)
//!   with, on 2026-07-28, the lists' cache hint;
//! - **calls from the manifest**: each tool called with its examples, each answer held to the
//!   output schema or to the error vocabulary; each fixed resource read, and each prompt got
//!   with arguments the manifest says are valid, each answer held to its shape;
//! - **calls that must be refused**: an unknown argument, each required one missing, a wrong
//!   type, each a tool error naming the argument with the manifest's argument code.
//!
//! Tools that may write are called only with `--allow-writes`.

mod report;
mod rules;

use mcp_contract_codegen::probe::{ArgumentCodes, Probes, PromptProbe, ResourceProbe, ToolProbe};
use mcp_contract_codegen::{Contract, Date, Revision, Source, Span};
use mcp_contract_spec::check::Checker;
use rmcp::model::{CallToolResult, ResourceContents};
use serde_json::{Map, Value, json};

use crate::compare::{self, DescriptionPolicy};
use crate::live::{CallError, Headers, Live, Published, Target};
pub(crate) use report::Format;
use report::Report;
use rules::VerifyRule;

/// The argument no manifest declares, sent to see it refused.
const UNKNOWN_ARGUMENT: &str = "mcp_contract_unknown";

/// How `verify` runs.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// The server.
    pub(crate) target: Target,
    /// Headers for HTTP.
    pub(crate) headers: Headers,
    /// The revisions to speak; the revisions a server does not speak are skipped, unless
    /// named here explicitly.
    pub(crate) revisions: Vec<Revision>,
    /// Whether the revisions were named by the user (then each must be spoken).
    pub(crate) revisions_named: bool,
    /// The group whose route to check.
    pub(crate) group: Option<String>,
    /// Call tools that may write.
    pub(crate) allow_writes: bool,
    /// How a description-only change counts.
    pub(crate) descriptions: DescriptionPolicy,
    /// The report's form.
    pub(crate) format: Format,
}

/// The outcome: the report's text, and whether it could be checked at all.
pub(crate) struct Outcome {
    /// The rendered report.
    pub(crate) text: String,
    /// True when at least one finding fails the run.
    pub(crate) failed: bool,
}

/// Checks the server against `contract`, read from `source`. `Err` when it could not be
/// checked: the manifest names no such group, or the server spoke no revision.
pub(crate) async fn run(
    source: &Source,
    contract: &Contract,
    options: &Options,
) -> Result<Outcome, String> {
    let probes = contract.probes();
    let group_tools = (options.group.as_deref())
        .map(|g| crate::manifest::group_tools(contract, g))
        .transpose()?;
    let target = options.target.clone().with_group(options.group.as_deref());
    let mut report = Report::new(source, target.describe(), options.allow_writes);
    for &revision in &options.revisions {
        let live = match Live::connect(&target, revision, &options.headers).await {
            Ok(live) => live,
            Err(e) if options.revisions_named || e.refused || e.silent => {
                return Err(format!("error: {e}"));
            }
            Err(e) => {
                report.skipped(revision, e.message);
                continue;
            }
        };
        let result = Run {
            revision,
            contract,
            probes: &probes,
            group: group_tools.as_deref(),
            live: &live,
            report: &mut report,
            options,
            lost: false,
        }
        .checks()
        .await;
        live.close().await;
        result?;
    }
    if report.revisions.is_empty() {
        return Err(format!(
            "error: {} spoke none of the revisions {}: {}",
            target.describe(),
            (options.revisions.iter())
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            report.skips.join("; ")
        ));
    }
    Ok(Outcome {
        failed: report.fails(),
        text: report.render(options.format),
    })
}

/// One revision's checks.
struct Run<'a> {
    revision: Revision,
    contract: &'a Contract,
    probes: &'a Probes,
    group: Option<&'a [String]>,
    live: &'a Live,
    report: &'a mut Report,
    options: &'a Options,
    /// The server stopped answering (a timeout, a closed connection): no further call is made.
    lost: bool,
}

impl Run<'_> {
    async fn checks(mut self) -> Result<(), String> {
        self.report.revision(self.revision);
        let published = match self.live.published().await {
            Ok(published) => published,
            // The session opened: the server is there, and does not serve what it advertises.
            Err(e) => {
                let check = self.report.check("list".to_owned());
                let at = self.probes.server.span("name");
                self.report.finding(check, &rules::LIST_FAILED, at, e);
                return Ok(());
            }
        };
        self.publication(&published)?;
        self.initialize(&published);
        let ours = compare::published_by(self.contract, self.revision, self.group);
        let tools: Vec<&ToolProbe> = (self.probes.tools.iter())
            .filter(|t| self.group.is_none_or(|g| g.contains(&t.name)))
            .collect();
        for tool in tools {
            if self.lost {
                // The server stopped answering: every later call would fail the same way.
                self.report
                    .not_called(&tool.name, "the server had stopped answering");
                continue;
            }
            let served = published.tools_list["tools"]
                .as_array()
                .is_some_and(|ts| ts.iter().any(|t| t["name"] == tool.name.as_str()));
            // A tool the server does not list is already a finding; calling it adds nothing.
            if !served || !(tool.read_only || self.options.allow_writes) {
                continue;
            }
            if tool.task_required {
                self.report.not_called(&tool.name, "it runs only as a task");
                continue;
            }
            let schema = ours["tools"]
                .as_array()
                .and_then(|ts| ts.iter().find(|t| t["name"] == tool.name.as_str()))
                .and_then(|t| t.get("outputSchema"))
                .cloned();
            if self.examples(tool, schema.as_ref()).await {
                self.refusals(tool).await;
            }
        }
        for resource in &self.probes.resources {
            let listed = published.entries["resources"]
                .as_array()
                .is_some_and(|rs| rs.iter().any(|r| r["uri"] == resource.uri.as_str()));
            // A template is read only with values a client chooses; an unlisted resource is
            // already a finding.
            if resource.template || !listed || self.lost {
                continue;
            }
            if resource.asks {
                self.report
                    .not_requested("resource", &resource.uri, "it asks the user first");
                continue;
            }
            self.read(resource).await;
        }
        for prompt in &self.probes.prompts {
            let listed = published.entries["prompts"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["name"] == prompt.name.as_str()));
            if !listed || self.lost {
                continue;
            }
            if prompt.asks {
                self.report
                    .not_requested("prompt", &prompt.name, "it asks the user first");
                continue;
            }
            match prompt.example_arguments() {
                Some(arguments) => self.get(prompt, arguments).await,
                None => self.report.not_requested(
                    "prompt",
                    &prompt.name,
                    "a required argument has no fixed `completion:` values to take one from",
                ),
            }
        }
        Ok(())
    }

    /// What `initialize` says against what the manifest states and implies, and on a revision
    /// with cache hints, the tools list's.
    fn initialize(&mut self, published: &Published) {
        let server = &self.probes.server;
        let check = self.report.check("initialize".into());
        let info = &published.initialize["serverInfo"];
        let stated = [
            ("name", Some(server.name.as_str())),
            ("title", server.title.as_deref()),
            ("version", server.version.as_deref()),
        ];
        for (key, ours) in stated {
            let Some(ours) = ours else { continue };
            if info[key].as_str() != Some(ours) {
                self.report.finding(
                    check,
                    &rules::SERVER_INFO_CHANGED,
                    server.span(key),
                    format!(
                        "the server introduces itself with the {key} {}, not \"{ours}\"",
                        shown(&info[key])
                    ),
                );
            }
        }
        // Blank instructions are none, as the importer reads them.
        let instructions =
            (published.initialize["instructions"].as_str()).filter(|text| !text.trim().is_empty());
        if self.options.descriptions != DescriptionPolicy::Ignore
            && instructions != server.instructions.as_deref()
        {
            let what = match (instructions, &server.instructions) {
                (None, _) => "sends no instructions, though the manifest has some",
                (_, None) => "sends instructions, though the manifest has none",
                _ => "sends other instructions than the manifest's",
            };
            // Where the manifest has none, at the server's name.
            let written = server.keys.iter().any(|(key, _)| *key == "instructions");
            let span = server.span(if written { "instructions" } else { "name" });
            let rule = match self.options.descriptions {
                DescriptionPolicy::Breaking => &rules::INSTRUCTIONS_BREAKING,
                _ => &rules::INSTRUCTIONS_CHANGED,
            };
            self.report
                .finding(check, rule, span, format!("the server {what}"));
        }
        let advertised = &published.initialize["capabilities"];
        let spoken =
            (server.capabilities.iter()).filter(|c| c.only_on.is_none_or(|r| r == self.revision));
        for capability in spoken {
            let value = (capability.path.iter()).fold(advertised, |v, key| &v[*key]);
            if value.is_null() || *value == false {
                self.report.finding(
                    check,
                    &rules::CAPABILITY_MISSING,
                    capability.span,
                    format!(
                        "the server does not advertise `{}`, though {}",
                        capability.path.join("."),
                        capability.because
                    ),
                );
            }
        }
        if let (Some((ttl, scope)), true) = (server.cache, self.revision.has_cache_hints()) {
            let theirs = published.cache.as_ref();
            if !cache_honoured((ttl, scope), theirs) {
                let sent = theirs.map_or("none".to_owned(), |(t, s)| {
                    format!("`ttlMs` {t} and `cacheScope` {s}")
                });
                self.report.finding(
                    check,
                    &rules::CACHE_HINT_CHANGED,
                    server.span("cache"),
                    format!(
                        "the tools list carries the cache hint {sent}, not `ttlMs` {ttl} and `cacheScope` {scope}"
                    ),
                );
            }
        }
    }

    /// Reads a fixed resource: it must answer contents of its MIME type.
    async fn read(&mut self, resource: &ResourceProbe) {
        let uri = &resource.uri;
        let check = self.report.check(format!("read {uri}"));
        let problem = match self.live.read(uri).await {
            Err(e) => Some(self.failure(e)),
            // One that asks is not read (above): this one asks undeclared.
            Ok(None) => {
                Some("asked the user first, though the manifest declares no `asks:`".into())
            }
            Ok(Some(result)) if result.contents.is_empty() => {
                Some("answered no contents".to_owned())
            }
            Ok(Some(result)) => {
                let ours = resource.mime_type.as_str();
                let other = (result.contents.iter())
                    .map(|c| match c {
                        ResourceContents::TextResourceContents { mime_type, .. }
                        | ResourceContents::BlobResourceContents { mime_type, .. } => {
                            mime_type.as_deref()
                        }
                        // A kind of contents a later revision adds, whose type is not read.
                        _ => None,
                    })
                    .find(|theirs| *theirs != Some(ours));
                match other {
                    None => None,
                    Some(None) => Some(format!(
                        "answered contents without a MIME type, not `{ours}`"
                    )),
                    Some(Some(theirs)) => Some(format!(
                        "answered contents of MIME type `{theirs}`, not `{ours}`"
                    )),
                }
            }
        };
        if let Some(problem) = problem {
            self.report.finding(
                check,
                &rules::RESOURCE_READ_INVALID,
                resource.span,
                format!("reading `{uri}` {problem}"),
            );
        }
    }

    /// Gets a prompt with `arguments`: it must answer messages.
    async fn get(&mut self, prompt: &PromptProbe, arguments: Map<String, Value>) {
        let shown = Value::Object(arguments.clone());
        let check = self.report.check(format!("get {} {shown}", prompt.name));
        let problem = match self.live.prompt(&prompt.name, arguments).await {
            Err(e) => Some(self.failure(e)),
            // One that asks is not got (above): this one asks undeclared.
            Ok(None) => {
                Some("asked the user first, though the manifest declares no `asks:`".into())
            }
            Ok(Some(result)) if result.messages.is_empty() => {
                Some("answered no messages".to_owned())
            }
            Ok(Some(_)) => None,
        };
        if let Some(problem) = problem {
            self.report.finding(
                check,
                &rules::PROMPT_GET_INVALID,
                prompt.span,
                format!(
                    "getting the prompt `{}` with {shown} {problem}",
                    prompt.name
                ),
            );
        }
    }

    /// What a request answered with no result did, for a finding; a server that gave no
    /// answer at all is not asked again.
    fn failure(&mut self, e: CallError) -> String {
        if e.code.is_some() {
            format!("answered a protocol error: {e}")
        } else {
            self.lost = true;
            format!("got no answer: {e}")
        }
    }

    /// The publication, through the diff engine and the checks it cannot make.
    fn publication(&mut self, published: &Published) -> Result<(), String> {
        let today = Date::today();
        let compared = compare::compare(
            self.contract,
            self.revision,
            self.group,
            published,
            self.options.descriptions,
            today,
        )
        .map_err(|e| format!("error: {e}"))?;
        let check = self.report.check(format!("lists: {}", compared.covered));
        for change in compared.changes {
            self.report.diff_finding(check, change);
        }
        for (note, span) in compared.notes {
            let rule = if note.at == "inputSchema" {
                &rules::SCHEMA_OPEN
            } else {
                &rules::KEYWORD_FORBIDDEN
            };
            self.report.finding(
                check,
                rule,
                span,
                format!(
                    "tool `{}` publishes {} (at `{}`)",
                    note.tool, note.what, note.at
                ),
            );
        }
        let ours = compare::published_by(self.contract, self.revision, self.group);
        for difference in compare::meta_differences(&ours, &published.publication()) {
            self.report.finding(
                check,
                &rules::META_CHANGED,
                self.contract.locate(&difference.path),
                format!(
                    "{} publishes a `_meta` other than the manifest's",
                    difference.entry
                ),
            );
        }
        Ok(())
    }

    /// Each example call must be answered: with output the schema accepts, or an error the
    /// tool declares.
    /// `false` when the tool cannot be called by this client at all.
    async fn examples(&mut self, tool: &ToolProbe, output_schema: Option<&Value>) -> bool {
        let Some(calls) = tool.example_calls() else {
            if tool.input_examples.is_some() {
                self.report
                    .not_called(&tool.name, "its input document gives no `examples`");
            }
            return true;
        };
        let checker = output_schema.and_then(|s| Checker::compile(s).ok());
        for args in calls {
            let check = self
                .report
                .check(format!("{} {}", tool.name, Value::Object(args.clone())));
            let answer = self.live.call(&tool.name, args.clone()).await;
            let result = match answer {
                Ok(result) => result,
                Err(e) if e.needs_capability() => {
                    self.report.uncheckable(check);
                    self.report.not_called(
                        &tool.name,
                        "it needs a client capability (sampling, elicitation) verify does not offer",
                    );
                    return false;
                }
                Err(e) => {
                    let what = if e.code.is_some() {
                        "answered a protocol error"
                    } else {
                        self.lost = true;
                        "got no answer"
                    };
                    self.report.finding(
                        check,
                        &rules::EXAMPLE_REFUSED,
                        tool.span,
                        format!(
                            "`{}` called with its example {} {what}: {e}",
                            tool.name,
                            Value::Object(args)
                        ),
                    );
                    if self.lost {
                        return false;
                    }
                    continue;
                }
            };
            if result.is_error == Some(true) {
                self.error_answer(check, tool, &args, &result);
                continue;
            }
            if let Some(checker) = &checker {
                match &result.structured_content {
                    None => self.report.finding(
                        check,
                        &rules::OUTPUT_INVALID,
                        tool.span,
                        format!(
                            "`{}` answered its example {} without structured content, though it publishes an output schema",
                            tool.name,
                            Value::Object(args)
                        ),
                    ),
                    Some(content) => {
                        let failures = checker.failures(content);
                        if let Some(first) = failures.first() {
                            self.report.finding(
                                check,
                                &rules::OUTPUT_INVALID,
                                tool.span,
                                format!(
                                    "`{}` answered its example {} with structured content its output schema refuses: {}",
                                    tool.name,
                                    Value::Object(args),
                                    first.message
                                ),
                            );
                        }
                    }
                }
            }
        }
        true
    }

    /// An example answered with an error: it must be one the tool declares, in the envelope.
    fn error_answer(
        &mut self,
        check: usize,
        tool: &ToolProbe,
        args: &Map<String, Value>,
        result: &CallToolResult,
    ) {
        let args = Value::Object(args.clone());
        let Some(errors) = envelope(result) else {
            self.report.finding(
                check,
                &rules::ERROR_WITHOUT_CODE,
                tool.span,
                format!(
                    "`{}` answered its example {args} with an error that carries no code: {}",
                    tool.name,
                    quoted_text(result)
                ),
            );
            return;
        };
        let codes = &self.probes.argument_codes;
        for (code, argument, message) in errors {
            if code == mcp_contract_spec::error_codes::INTERNAL_ERROR {
                self.report.finding(
                    check,
                    &rules::EXAMPLE_REFUSED,
                    tool.span,
                    format!(
                        "`{}` failed on its example {args}: `{code}`: {message}",
                        tool.name
                    ),
                );
            } else if [&codes.missing, &codes.invalid, &codes.unknown].contains(&&code) {
                self.report.finding(
                    check,
                    &rules::EXAMPLE_REFUSED,
                    tool.span,
                    format!(
                        "`{}` refused its own example {args}: `{code}` on `{argument}`: {message}",
                        tool.name
                    ),
                );
            } else if let Some(declared) = tool.errors.iter().find(|e| e.code == code) {
                if declared.has_hint && !has_hint(result) {
                    self.report.finding(
                        check,
                        &rules::ERROR_MESSAGE,
                        tool.span,
                        format!(
                            "`{}` answered `{code}` without the hint the vocabulary gives it",
                            tool.name
                        ),
                    );
                }
                if declared.names_argument && argument.is_empty() {
                    self.report.finding(
                        check,
                        &rules::ERROR_MESSAGE,
                        tool.span,
                        format!(
                            "`{}` answered `{code}` without naming the argument it concerns",
                            tool.name
                        ),
                    );
                }
                if let Some(lost) = (declared.message_literals.iter())
                    .find(|literal| !message.contains(literal.trim()))
                {
                    self.report.finding(
                        check,
                        &rules::ERROR_MESSAGE,
                        tool.span,
                        format!(
                            "`{}` answered `{code}` with the message \"{message}\", which lacks its template's text \"{}\"",
                            tool.name,
                            lost.trim()
                        ),
                    );
                }
            } else {
                self.report.finding(
                    check,
                    &rules::ERROR_UNDECLARED,
                    tool.span,
                    format!(
                        "`{}` answered its example {args} with the error `{code}`, which it does not declare",
                        tool.name
                    ),
                );
            }
        }
    }

    /// The calls a server honouring the manifest refuses, each with the argument's code.
    async fn refusals(&mut self, tool: &ToolProbe) {
        let base = (tool.example_calls().and_then(|c| c.into_iter().next())).unwrap_or_default();
        let codes: &ArgumentCodes = &self.probes.argument_codes;
        let mut unknown = base.clone();
        unknown.insert(UNKNOWN_ARGUMENT.into(), json!(true));
        let mut cases = vec![Refusal {
            rule: &rules::UNKNOWN_ARGUMENT_SERVED,
            code: codes.unknown.clone(),
            args: unknown,
            argument: UNKNOWN_ARGUMENT.into(),
            span: tool.span,
            what: format!("the unknown argument `{UNKNOWN_ARGUMENT}`"),
        }];
        for p in tool.parameters.iter().filter(|p| p.required) {
            let mut missing = base.clone();
            missing.remove(&p.name);
            cases.push(Refusal {
                rule: &rules::MISSING_ARGUMENT_SERVED,
                code: codes.missing.clone(),
                args: missing,
                argument: p.name.clone(),
                span: p.span,
                what: format!("the required argument `{}` left out", p.name),
            });
        }
        if let Some((p, ty)) = (tool.parameters.iter()).find_map(|p| Some((p, p.json_type?))) {
            let wrong = if ty == "string" {
                json!(12345)
            } else {
                json!(format!("not a {ty}"))
            };
            let mut call = base.clone();
            call.insert(p.name.clone(), wrong.clone());
            cases.push(Refusal {
                rule: &rules::WRONG_TYPE_SERVED,
                code: codes.invalid.clone(),
                args: call,
                argument: p.name.clone(),
                span: p.span,
                what: format!("`{}` of the wrong type ({wrong} for a {ty})", p.name),
            });
        }
        for Refusal {
            rule,
            code,
            args,
            argument,
            span,
            what,
        } in cases
        {
            let shown = Value::Object(args.clone());
            let check = self.report.check(format!("{} refuses {what}", tool.name));
            let problem = match self.live.call(&tool.name, args).await {
                Err(e) if e.code.is_none() => {
                    self.lost = true;
                    Some(format!("got no answer: {e}"))
                }
                Err(e) => Some(format!("answered a protocol error, not a tool error: {e}")),
                Ok(r) if r.is_error != Some(true) => {
                    Some("served it instead of refusing it".to_owned())
                }
                Ok(r) => match envelope(&r) {
                    None => Some(format!(
                        "refused it without an error code: {}",
                        quoted_text(&r)
                    )),
                    Some(errors) if errors.iter().any(|(c, a, _)| *c == code && *a == argument) => {
                        None
                    }
                    Some(errors) => Some(format!(
                        "refused it, but not with `{code}` naming `{argument}`: {}",
                        (errors.iter())
                            .map(|(c, a, _)| format!("`{c}` on `{a}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                },
            };
            if let Some(problem) = problem {
                self.report.finding(
                    check,
                    rule,
                    span,
                    format!("`{}` called with {what} {shown} {problem}", tool.name),
                );
            }
            if self.lost {
                return;
            }
        }
    }
}

/// A call that must be refused, and how.
struct Refusal {
    /// What it is when it is not.
    rule: &'static VerifyRule,
    /// The argument code it must be refused with.
    code: String,
    /// The arguments sent.
    args: Map<String, Value>,
    /// The argument the refusal must name.
    argument: String,
    /// Where the argument (or the tool) is written.
    span: Span,
    /// What the call does wrong, for a report.
    what: String,
}

/// The `(code, argument, message)` of each problem of an error envelope (the JSON of the
/// result's text block); `None` when the result carries none.
fn envelope(result: &CallToolResult) -> Option<Vec<(String, String, String)>> {
    let text = result.content.iter().find_map(|c| c.as_text())?;
    let value: Value = serde_json::from_str(&text.text).ok()?;
    let errors = value["errors"].as_array()?;
    let problems: Vec<_> = (errors.iter())
        .filter_map(|e| {
            Some((
                e["code"].as_str()?.to_owned(),
                e["argument"].as_str().unwrap_or_default().to_owned(),
                e["message"].as_str().unwrap_or_default().to_owned(),
            ))
        })
        .collect();
    (!problems.is_empty()).then_some(problems)
}

/// Whether a result's error envelope carries a hint.
fn has_hint(result: &CallToolResult) -> bool {
    (result.content.iter().find_map(|c| c.as_text()))
        .and_then(|t| serde_json::from_str::<Value>(&t.text).ok())
        .is_some_and(|v| v["hint"].as_str().is_some_and(|h| !h.trim().is_empty()))
}

/// The first text of a result, quoted and cut to one line for a report.
fn quoted_text(result: &CallToolResult) -> String {
    let text = (result.content.iter())
        .find_map(|c| c.as_text().map(|t| t.text.clone()))
        .unwrap_or_default();
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = line.chars().take(120).collect();
    if cut.len() < line.len() {
        format!("\"{cut}…\"")
    } else {
        format!("\"{cut}\"")
    }
}

/// A published value for a report: a string quoted, anything else as JSON ("none" when
/// absent).
fn shown(value: &Value) -> String {
    match value {
        Value::Null => "none".to_owned(),
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// Whether the cache hint a server sent honours the manifest's `(ttlMs, cacheScope)`. A list
/// filtered by the caller's scopes is private whatever the manifest allows (the runtime
/// narrows it so): narrower is honoured, wider is not.
fn cache_honoured((ttl, scope): (u64, &str), sent: Option<&(u64, String)>) -> bool {
    sent.is_some_and(|(t, s)| *t == ttl && (s == scope || (scope == "public" && s == "private")))
}

#[cfg(test)]
mod tests {
    use super::cache_honoured;

    #[test]
    fn a_cache_hint_may_narrow_its_scope_but_not_widen_it_or_change_its_ttl() {
        let sent = |ttl: u64, scope: &str| Some((ttl, scope.to_owned()));
        assert!(cache_honoured((5, "public"), sent(5, "public").as_ref()));
        assert!(cache_honoured((5, "public"), sent(5, "private").as_ref()));
        assert!(cache_honoured((5, "private"), sent(5, "private").as_ref()));
        assert!(!cache_honoured((5, "private"), sent(5, "public").as_ref()));
        assert!(!cache_honoured((5, "public"), sent(6, "public").as_ref()));
        assert!(!cache_honoured((5, "public"), None));
    }
}
