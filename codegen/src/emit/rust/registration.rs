//! The handler trait, its dispatch, the published contract and the constructor.

use super::icons::icon_specs;
use super::text::json_text;
use super::*;
use crate::emit::wire::{entry_meta, tool_json};

/// The registration's items, in the module's order, each written on its own (so that each can
/// be written on its own thread): the handler trait, its dispatch, the published contract,
/// the fixtures and the constructor.
pub(super) const REGISTRATION: [fn(&mut Code, &Contract); 5] = [
    handler_trait,
    dispatcher,
    spec,
    super::fixtures::fixtures,
    constructor,
];

/// The handler trait: one method per tool, resource, prompt and completion handler.
fn handler_trait(w: &mut Code, c: &Contract) {
    let source = &c.source_name;
    w.doc(
        0,
        &format!(
            "The tools of `{source}`: one method per tool. A tool added to the manifest is a \
             compile error until it is implemented here."
        ),
    );
    // `on_unimplemented` strings are format strings: braces in the manifest's path are doubled.
    let braced = source.replace('{', "{{").replace('}', "}}");
    let unimplemented = format!("`{{Self}}` does not implement the tools declared in `{braced}`");
    let methods: Vec<&str> = c
        .tools
        .iter()
        .map(|t| t.method.as_str())
        .chain(handled(c).map(|r| r.method.as_str()))
        .chain(c.prompts.iter().map(|p| p.method.as_str()))
        .chain(c.completion_handlers())
        .collect();
    let listed: Vec<String> = methods.iter().map(|m| format!("`{m}`")).collect();
    let note = format!(
        "implement `Tools` for it: one async method for each tool, resource, prompt and completion handler in `{braced}`: {}",
        listed.join(", ")
    );
    w.line(0, &["#[diagnostic::on_unimplemented("]);
    ln!(w, 1, "message = {},", string(&unimplemented));
    w.line(1, &["label = \"not a handler of these tools\","]);
    ln!(w, 1, "note = {}", string(&note));
    w.line(0, &[")]"]);
    w.allows(0, lints::self_convention(&methods));
    if methods.is_empty() {
        w.line(0, &["pub trait Tools: Send + Sync + 'static {}"]);
        return;
    }
    w.line(0, &["pub trait Tools: Send + Sync + 'static {"]);
    for t in &c.tools {
        w.doc(1, &trait_method_doc(c, t));
        let output = format!("Result<{}, {}>", trait_method_output(t), t.error_type());
        handler_signature(w, &t.method, &format!("args: {}", t.args_type()), &output);
    }
    for r in handled(c) {
        resource_method(w, r);
    }
    super::prompts::trait_methods(w, c);
    w.line(0, &["}"]);
}

/// A handler method's signature in the trait: `&self`, its input, the context, and a future of
/// `output`.
pub(super) fn handler_signature(w: &mut Code, method: &str, input: &str, output: &str) {
    ln!(w, 1, "fn {method}(");
    w.line(2, &["&self,"]);
    if !input.is_empty() {
        ln!(w, 2, "{input},");
    }
    w.line(2, &["cx: ::mcp_contract::Context,"]);
    let future = format!(") -> impl ::core::future::Future<Output = {output}> + Send;");
    if Code::fits(1, future.len()) {
        w.line(1, &[&future]);
    } else {
        w.line(1, &[") -> impl ::core::future::Future<"]);
        ln!(w, 2, "Output = {output},");
        w.line(1, &["> + Send;"]);
    }
}

/// `Dispatcher`, which connects a `Tools` implementation to the published contract.
fn dispatcher(w: &mut Code, c: &Contract) {
    w.doc(
        0,
        "Connects a [`Tools`] implementation to the published contract.",
    );
    w.line(0, &["pub struct Dispatcher<H>(H);"]);
    w.line(
        0,
        &["impl<H: Tools> ::mcp_contract::codegen::Dispatch for Dispatcher<H> {"],
    );
    w.line(
        1,
        &["fn published(&self) -> &'static ::mcp_contract::codegen::Published {"],
    );
    w.line(2, &["use ::mcp_contract::codegen::Published;"]);
    w.line(2, &["use ::std::sync::LazyLock;"]);
    w.doc(2, "The contract as published, built once per process.");
    let aliased = [
        c.tools.iter().map(|t| &t.lifecycle).collect::<Vec<_>>(),
        c.prompts.iter().map(|p| &p.lifecycle).collect(),
        c.resources.iter().map(|r| &r.lifecycle).collect(),
    ];
    if aliased.iter().flatten().all(|l| l.aliases.is_empty()) {
        w.line(
            2,
            &["static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));"],
        );
    } else {
        w.doc(
            2,
            "The former names still answered, each with its entry's index.",
        );
        w.line(
            2,
            &["static ALIASES: ::mcp_contract::codegen::AliasesSpec = ::mcp_contract::codegen::AliasesSpec {"],
        );
        for (kind, lifecycles) in ["tools", "prompts", "resources"].iter().zip(&aliased) {
            let pairs: Vec<String> = (lifecycles.iter().enumerate())
                .flat_map(|(i, l)| {
                    l.aliases
                        .iter()
                        .map(move |a| format!("({}, {i})", string(&a.name)))
                })
                .collect();
            ln!(w, 3, "{kind}: &[{}],", pairs.join(", "));
        }
        w.line(2, &["};"]);
        w.line(2, &["static PUBLISHED: LazyLock<Published> ="]);
        w.line(
            3,
            &["LazyLock::new(|| Published::new(&SPEC).with_aliases(&ALIASES));"],
        );
    }
    w.line(2, &["&PUBLISHED"]);
    w.line(1, &["}"]);
    w.line(1, &["fn call("]);
    w.line(2, &["&self,"]);
    w.line(2, &["tool: usize,"]);
    w.line(2, &["arguments: ::mcp_contract::codegen::JsonObject,"]);
    w.line(2, &["cx: ::mcp_contract::Context,"]);
    box_future(w, "::mcp_contract::codegen::CallToolResult");
    w.line(2, &["use ::mcp_contract::codegen::call;"]);
    w.line(2, &["Box::pin(async move {"]);
    w.line(3, &["match tool {"]);
    for (i, t) in c.tools.iter().enumerate() {
        dispatch_arm(w, i, t);
    }
    w.line(4, &["_ => call::unknown_tool(tool),"]);
    w.line(3, &["}"]);
    w.line(2, &["})"]);
    w.line(1, &["}"]);
    if handled(c).next().is_some() {
        read_resource(w, c);
    }
    super::prompts::dispatch(w, c);
    tasks(w, c);
    w.line(0, &["}"]);
}

/// The dispatcher's `read_resource`.
fn read_resource(w: &mut Code, c: &Contract) {
    w.line(1, &["fn read_resource("]);
    w.line(2, &["&self,"]);
    w.line(2, &["resource: usize,"]);
    w.line(2, &["values: Vec<String>,"]);
    w.line(2, &["cx: ::mcp_contract::Context,"]);
    box_future(
        w,
        "Result<::mcp_contract::ResourceBody, ::mcp_contract::ResourceError>",
    );
    w.line(2, &["Box::pin(async move {"]);
    // Only templates have values; without one, naming them would leave unused bindings.
    if handled(c).any(|r| matches!(r.uri, ResourceUri::Template { .. })) {
        w.line(3, &["let mut values = values.into_iter();"]);
    } else {
        w.line(3, &["let _ = values;"]);
    }
    w.line(3, &["match resource {"]);
    for (i, r) in c.resources.iter().enumerate().filter(|(_, r)| r.handled()) {
        resource_arm(w, i, r);
    }
    w.line(4, &["_ => Err(::mcp_contract::ResourceError::NotFound),"]);
    w.line(3, &["}"]);
    w.line(2, &["})"]);
    w.line(1, &["}"]);
}

/// `task_support` and `has_tasks`, when a tool may run as a task (the defaults say none may).
fn tasks(w: &mut Code, c: &Contract) {
    let tasks: Vec<(usize, &ToolDef)> = (c.tools.iter().enumerate())
        .filter(|(_, t)| t.task != TaskMode::Forbidden)
        .collect();
    if tasks.is_empty() {
        return;
    }
    w.line(
        1,
        &["fn task_support(&self, tool: usize) -> ::mcp_contract::codegen::TaskSupport {"],
    );
    w.line(2, &["match tool {"]);
    for (i, t) in tasks {
        ln!(
            w,
            3,
            "{i} => ::mcp_contract::codegen::TaskSupport::{},",
            t.task.variant()
        );
    }
    w.line(
        3,
        &["_ => ::mcp_contract::codegen::TaskSupport::Forbidden,"],
    );
    w.line(2, &["}"]);
    w.line(1, &["}"]);
    w.line(1, &["fn has_tasks(&self) -> bool {"]);
    w.line(2, &["true"]);
    w.line(1, &["}"]);
}

/// `server`, the constructor.
fn constructor(w: &mut Code, _: &Contract) {
    w.doc(
        0,
        "An MCP server that publishes this contract and calls `handler` for each tool.",
    );
    w.line(
        0,
        &["pub fn server<H: Tools>(handler: H) -> ::mcp_contract::Server<Dispatcher<H>> {"],
    );
    w.line(1, &["::mcp_contract::Server::new(Dispatcher(handler))"]);
    w.line(0, &["}"]);
}

/// `SPEC`: the server identity and every tool's wire JSON.
fn spec(w: &mut Code, c: &Contract) {
    let s = &c.server;
    w.doc(
        0,
        "The server identity and every tool's wire JSON, as generated from the manifest.",
    );
    w.line(
        0,
        &["pub static SPEC: ::mcp_contract::codegen::ContractSpec = ::mcp_contract::codegen::ContractSpec {"],
    );
    ln!(w, 1, "name: {},", string(&s.name));
    ln!(w, 1, "title: {},", option(s.title.as_deref()));
    icon_specs(w, 1, &s.icons);
    match &s.version {
        Some(v) => ln!(w, 1, "version: {},", string(v)),
        None => w.line(1, &["version: env!(\"CARGO_PKG_VERSION\"),"]),
    }
    ln!(w, 1, "instructions: {},", option(s.instructions.as_deref()));
    match s.cache {
        Some(h) => {
            w.line(1, &["cache: Some(::mcp_contract::codegen::CacheHint {"]);
            ln!(w, 2, "ttl_ms: {},", h.ttl_ms);
            ln!(w, 2, "public: {},", h.public);
            w.line(1, &["}),"]);
        }
        None => w.line(1, &["cache: None,"]),
    }
    if c.tools.is_empty() {
        w.line(1, &["tools: &[],"]);
    } else {
        w.line(1, &["tools: &["]);
        for t in &c.tools {
            let json = serde_json::to_string(&tool_json(c, t)).unwrap_or_default();
            w.line(2, &["::mcp_contract::codegen::ToolSpec {"]);
            let errors: Vec<String> = t.errors.iter().map(|&e| c.errors[e].code.clone()).collect();
            ln!(w, 3, "errors: &[{}],", strings(&errors));
            let recorded: Vec<String> = (t.parameters.iter())
                .filter(|p| p.record)
                .map(|p| p.name.clone())
                .collect();
            ln!(w, 3, "recorded: &[{}],", strings(&recorded));
            ln!(w, 3, "json: {},", text::json_text(&json));
            ln!(w, 3, "scopes: &[{}],", strings(&t.scopes));
            w.line(2, &["},"]);
        }
        w.line(1, &["],"]);
    }
    let mut prompts = Code::new();
    let completions = super::prompts::specs(&mut prompts, c, 1);
    if c.resources.is_empty() {
        w.line(1, &["resources: &[],"]);
    } else {
        w.line(1, &["resources: &["]);
        for (r, completions) in c.resources.iter().zip(completions) {
            w.line(2, &["::mcp_contract::codegen::ResourceSpec {"]);
            ln!(w, 3, "name: {},", string(&r.name));
            ln!(w, 3, "title: {},", string(&r.title));
            ln!(w, 3, "description: {},", string(&r.description));
            ln!(w, 3, "mime_type: {},", string(&r.mime_type));
            ln!(w, 3, "uri: {},", string(&r.published_uri()));
            ln!(
                w,
                3,
                "template: {},",
                matches!(r.uri, ResourceUri::Template { .. })
            );
            ln!(w, 3, "subscribe: {},", r.subscribe);
            ln!(w, 3, "completions: {completions},");
            app_spec(w, r);
            icon_specs(w, 3, &r.icons);
            ln!(w, 3, "scopes: &[{}],", strings(&r.scopes));
            ln!(w, 3, "meta: {},", meta_field(entry_meta(&r.lifecycle)));
            w.line(2, &["},"]);
        }
        w.line(1, &["],"]);
    }
    ln!(
        w,
        1,
        "artifacts_key: &[{}],",
        strings(&c.planning.artifacts_key.keys)
    );
    ln!(
        w,
        1,
        "composition_key: &[{}],",
        strings(&c.planning.composition_key.keys)
    );
    if c.groups.is_empty() {
        w.line(1, &["groups: &[],"]);
    } else {
        w.line(1, &["groups: &["]);
        for g in &c.groups {
            w.line(2, &["::mcp_contract::codegen::GroupSpec {"]);
            ln!(w, 3, "name: {},", string(&g.name));
            ln!(w, 3, "description: {},", string(&g.description));
            let tools: Vec<String> = g.tools.iter().map(|t| string(t)).collect();
            w.list(3, "tools: &[", &tools, "],");
            ln!(w, 3, "scopes: &[{}],", strings(&g.scopes));
            w.line(2, &["},"]);
        }
        w.line(1, &["],"]);
    }
    let codes = &c.argument_codes;
    w.line(
        1,
        &["argument_codes: ::mcp_contract::codegen::ArgumentCodes {"],
    );
    ln!(w, 2, "missing: {},", string(&codes.missing));
    ln!(w, 2, "invalid: {},", string(&codes.invalid));
    ln!(w, 2, "unknown: {},", string(&codes.unknown));
    w.line(1, &["},"]);
    ln!(w, 1, "logging: {},", s.logging);
    ln!(w, 1, "list_changed: {},", s.list_changed);
    w.push(&prompts.finish());
    access(w, c);
    w.line(0, &["};"]);
}

/// `SPEC.access`: the `auth:` block, or `OPEN`.
fn access(w: &mut Code, c: &Contract) {
    let Some(a) = &c.access else {
        w.line(1, &["access: ::mcp_contract::codegen::AccessSpec::OPEN,"]);
        return;
    };
    w.line(1, &["access: ::mcp_contract::codegen::AccessSpec {"]);
    ln!(
        w,
        2,
        "resource: {},",
        option(a.resource.as_ref().map(|(r, _)| r.as_str()))
    );
    let servers: Vec<String> = a
        .authorization_servers
        .iter()
        .map(|(s, _)| string(s))
        .collect();
    ln!(w, 2, "authorization_servers: &[{}],", servers.join(", "));
    if a.scopes.is_empty() {
        w.line(2, &["scopes: &[],"]);
    } else {
        w.line(2, &["scopes: &["]);
        for s in &a.scopes {
            w.line(3, &["::mcp_contract::codegen::ScopeSpec {"]);
            ln!(w, 4, "name: {},", string(&s.name));
            ln!(w, 4, "description: {},", string(&s.description));
            w.line(3, &["},"]);
        }
        w.line(2, &["],"]);
    }
    w.line(1, &["},"]);
}

/// The resources whose reads the server's code answers: all but apps.
fn handled(c: &Contract) -> impl Iterator<Item = &ResourceDef> {
    c.resources.iter().filter(|r| r.handled())
}

/// A resource's `app:` field: its HTML and `_meta.ui`, embedded.
fn app_spec(w: &mut Code, r: &ResourceDef) {
    let Some(app) = &r.app else {
        w.line(3, &["app: None,"]);
        return;
    };
    w.line(3, &["app: Some(&::mcp_contract::codegen::AppSpec {"]);
    ln!(w, 4, "html: {},", string(&app.html));
    ln!(w, 4, "meta: {},", json_text(&app.meta().to_string()));
    w.line(3, &["}),"]);
}

/// A resource's handler method: no arguments for a fixed URI, the template's values otherwise.
fn resource_method(w: &mut Code, r: &ResourceDef) {
    w.doc(
        1,
        &format!(
            "{}\n\n{}\n\nServed at `{}` as `{}`.",
            r.title,
            r.description,
            r.uri.text(),
            r.mime_type
        ),
    );
    let params = match &r.uri {
        ResourceUri::Fixed(_) => String::new(),
        ResourceUri::Template { .. } => format!("params: {}", r.params_type),
    };
    handler_signature(
        w,
        &r.method,
        &params,
        "Result<::mcp_contract::ResourceBody, ::mcp_contract::ResourceError>",
    );
}

/// A template's values, one field per variable.
pub(super) fn resource_params(w: &mut Code, r: &ResourceDef) {
    let ResourceUri::Template {
        template,
        variables,
    } = &r.uri
    else {
        return;
    };
    let name = &r.params_type;
    w.doc(0, &format!("The values of `{template}`, unescaped."));
    w.line(0, &["#[derive(Debug, Clone, PartialEq, Eq)]"]);
    ln!(w, 0, "pub struct {name} {{");
    for v in variables {
        w.doc(1, &format!("`{{{v}}}`: one path segment, percent-decoded."));
        ln!(w, 1, "pub {}: String,", crate::ident::snake(v));
    }
    w.line(0, &["}"]);
    ln!(w, 0, "impl {name} {{");
    w.doc(
        1,
        &format!(
            "The URI these values name: `{template}` with each value percent-encoded, as a \
             client reads it and as `resource_updated` takes it."
        ),
    );
    w.line(1, &["pub fn uri(&self) -> String {"]);
    let values: Vec<String> = variables
        .iter()
        .map(|v| format!("&self.{}", crate::ident::snake(v)))
        .collect();
    ln!(
        w,
        2,
        "::mcp_contract::codegen::expand_uri({}, &[{}])",
        string(template),
        values.join(", ")
    );
    w.line(1, &["}"]);
    w.line(0, &["}"]);
}

fn resource_arm(w: &mut Code, index: usize, r: &ResourceDef) {
    let method = &r.method;
    match &r.uri {
        ResourceUri::Fixed(_) => ln!(w, 4, "{index} => Tools::{method}(&self.0, cx).await,"),
        ResourceUri::Template { variables, .. } => {
            ln!(w, 4, "{index} => {{");
            ln!(w, 5, "let params = {} {{", r.params_type);
            for v in variables {
                ln!(
                    w,
                    6,
                    "{}: values.next().unwrap_or_default(),",
                    crate::ident::snake(v)
                );
            }
            w.line(5, &["};"]);
            ln!(w, 5, "Tools::{method}(&self.0, params, cx).await");
            w.line(4, &["}"]);
        }
    }
}

/// A tool's arm of the dispatch: its arguments read (their type is the handler's parameter),
/// the handler called, and its result checked as the tool's output.
fn dispatch_arm(w: &mut Code, index: usize, t: &ToolDef) {
    // A path call: as a method call, a prelude trait method of the same name taking `self` by
    // value (a tool named `into` or `try_into`) would be picked instead.
    let handled = format!("Tools::{}(&self.0, args, cx).await", t.method);
    ln!(
        w,
        4,
        "{index} => match call::arguments(&SPEC.argument_codes, arguments) {{"
    );
    match (&t.output, t.content.is_empty()) {
        (OutputDef::Text, true) => ln!(w, 5, "Ok(args) => call::text({handled}),"),
        (OutputDef::Object { .. } | OutputDef::Document(_), true) => {
            ln!(w, 5, "Ok(args) => call::structured({handled}),")
        }
        (output, false) => {
            let check = match output {
                OutputDef::Text => "content",
                OutputDef::Object { .. } | OutputDef::Document(_) => "structured_content",
            };
            ln!(w, 5, "Ok(args) => call::{check}(");
            ln!(w, 6, "&{}::DECLARED,", t.content_type());
            ln!(w, 6, "{handled},");
            w.line(5, &["),"]);
        }
    }
    w.line(5, &["Err(refused) => refused.into_result(),"]);
    w.line(4, &["},"]);
}

/// A tool's method doc: its title, description and the errors it may return.
fn trait_method_doc(c: &Contract, t: &ToolDef) -> String {
    let mut text = format!("{}\n\n{}", t.title, t.published_description);
    if !t.errors.is_empty() {
        text.push_str("\n\n# Errors\n");
        for &i in &t.errors {
            let e = &c.errors[i];
            let names = if e.names_argument {
                format!(" (names its argument, a `{}`)", t.argument_type())
            } else {
                String::new()
            };
            text.push_str(&format!("\n- `{}`{names}: {}", e.code, e.message.source));
        }
    }
    text
}

/// What a tool's handler returns on success, as Rust text.
fn trait_method_output(t: &ToolDef) -> String {
    let (structure, content) = (t.output_type(), t.content_type());
    match (&t.output, t.content.is_empty()) {
        (OutputDef::Text, true) => "String".into(),
        (OutputDef::Object { .. } | OutputDef::Document(_), true) => structure,
        (OutputDef::Text, false) => format!("Vec<{content}>"),
        (OutputDef::Object { .. } | OutputDef::Document(_), false) => {
            format!("({structure}, Vec<{content}>)")
        }
    }
}
