//! The handler trait, its dispatch, the published contract and the constructor.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::icons::icon_specs;
use super::*;
use crate::emit::wire::tool_json;

/// An item of the registration: its text, with each tool's part written as text into the
/// rest printed from tokens (`None` when a part does not fit), and its tokens.
pub(super) struct Part {
    pub text: fn(&Contract) -> Option<String>,
    pub tokens: fn(&Contract) -> TokenStream,
}

/// The registration's items, in the module's order, each built on its own (so that each can
/// be printed on its own thread): the handler trait, its dispatch, the published contract,
/// the fixtures and the constructor.
pub(super) fn registration_items() -> [Part; 5] {
    [
        Part {
            text: handler_trait_text,
            tokens: |c| handler_trait_tokens(c, true),
        },
        Part {
            text: dispatcher_text,
            tokens: |c| dispatcher_tokens(c, true),
        },
        Part {
            text: spec_text,
            tokens: |c| spec_tokens(c, true),
        },
        Part {
            text: crate::emit::fixtures::fixtures_text,
            tokens: crate::emit::fixtures::fixtures,
        },
        Part {
            text: |_| None,
            tokens: constructor,
        },
    ]
}

/// The handler trait, its tools' methods written as text at the top of its body (an empty
/// body when it has nothing else).
fn handler_trait_text(c: &Contract) -> Option<String> {
    let methods: String = (c.tools.iter())
        .map(|t| trait_method_text(c, t))
        .collect::<Option<_>>()?;
    let printed = format_items(handler_trait_tokens(c, false));
    let open = "pub trait Tools: Send + Sync + 'static {";
    text::insert_after(&printed, open, &methods)
        .or_else(|| text::fill_empty(&printed, open, &methods))
}

/// The dispatcher, its tools' arms written as text before the `match`'s last arm.
fn dispatcher_text(c: &Contract) -> Option<String> {
    let arms: String = (c.tools.iter().enumerate())
        .map(|(i, t)| dispatch_arm_text(i, t))
        .collect::<Option<_>>()?;
    let printed = format_items(dispatcher_tokens(c, false));
    text::insert_before(
        &printed,
        "                _ => call::unknown_tool(tool),",
        &arms,
    )
}

/// `SPEC`, its tools' wire JSON written as text in place of the empty list.
fn spec_text(c: &Contract) -> Option<String> {
    let tools: String = (c.tools.iter())
        .map(|t| spec_tool_text(c, t))
        .collect::<Option<_>>()?;
    let printed = format_items(spec_tokens(c, false));
    if tools.is_empty() {
        return Some(printed);
    }
    text::replace_line(
        &printed,
        "    tools: &[],",
        &format!("    tools: &[\n{tools}    ],"),
    )
}

/// The handler trait: one method per tool, resource, prompt and completion handler; with
/// `tools` false, none for the tools (their text goes in after).
fn handler_trait_tokens(c: &Contract, tools: bool) -> TokenStream {
    let source = &c.source_name;
    let trait_items = c.tools.iter().filter(|_| tools).map(|t| trait_method(c, t));
    let resource_methods = c.resources.iter().map(resource_method);
    let prompt_methods = super::prompts::trait_methods(c);
    let trait_doc = format!(
        "The tools of `{source}`: one method per tool. A tool added to the manifest is a \
         compile error until it is implemented here."
    );
    let trait_doc_attrs = doc(&trait_doc);
    // `on_unimplemented` strings are format strings: braces in the manifest's path are doubled.
    let braced = source.replace('{', "{{").replace('}', "}}");
    let unimplemented = format!("`{{Self}}` does not implement the tools declared in `{braced}`");
    let methods: Vec<&str> = c
        .tools
        .iter()
        .map(|t| t.method.as_str())
        .chain(c.resources.iter().map(|r| r.method.as_str()))
        .chain(c.prompts.iter().map(|p| p.method.as_str()))
        .chain(c.completion_handlers())
        .collect();
    let self_convention = lints::allow(lints::self_convention(&methods));
    let listed: Vec<String> = methods.iter().map(|m| format!("`{m}`")).collect();
    let note = format!(
        "implement `Tools` for it: one async method for each tool, resource, prompt and completion handler in `{braced}`: {}",
        listed.join(", ")
    );
    quote! {
        #trait_doc_attrs
        #[diagnostic::on_unimplemented(message = #unimplemented, label = "not a handler of these tools", note = #note)]
        #self_convention
        pub trait Tools: Send + Sync + 'static {
            #(#trait_items)*
            #(#resource_methods)*
            #(#prompt_methods)*
        }
    }
}

/// `Dispatcher`, which connects a `Tools` implementation to the published contract; with
/// `tools` false, without the tools' arms.
fn dispatcher_tokens(c: &Contract, tools: bool) -> TokenStream {
    let prompt_dispatch = super::prompts::dispatch(c);
    let arms = (c.tools.iter().enumerate())
        .filter(|_| tools)
        .map(|(i, t)| dispatch_arm(i, t));
    let resource_arms = c
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| resource_arm(i, r));
    // Only templates have values; without one, naming them would leave unused bindings.
    let take = if c
        .resources
        .iter()
        .any(|r| matches!(r.uri, ResourceUri::Template { .. }))
    {
        quote!(let mut values = values.into_iter();)
    } else {
        quote!(let _ = values;)
    };
    let read_resource = (!c.resources.is_empty()).then(|| {
        quote! {
            fn read_resource(
                &self,
                resource: usize,
                values: Vec<String>,
                cx: ::mcp_contract::Context,
            ) -> ::mcp_contract::codegen::BoxFuture<'_, Result<::mcp_contract::ResourceBody, ::mcp_contract::ResourceError>> {
                Box::pin(async move {
                    #take
                    match resource {
                        #(#resource_arms)*
                        _ => Err(::mcp_contract::ResourceError::NotFound),
                    }
                })
            }
        }
    });
    let tasks = tasks(c);
    quote! {
        /// Connects a [`Tools`] implementation to the published contract.
        pub struct Dispatcher<H>(H);

        impl<H: Tools> ::mcp_contract::codegen::Dispatch for Dispatcher<H> {
            fn published(&self) -> &'static ::mcp_contract::codegen::Published {
                use ::mcp_contract::codegen::Published;
                use ::std::sync::LazyLock;
                /// The contract as published, built once per process.
                static PUBLISHED: LazyLock<Published> = LazyLock::new(|| Published::new(&SPEC));
                &PUBLISHED
            }
            fn call(
                &self,
                tool: usize,
                arguments: ::mcp_contract::codegen::JsonObject,
                cx: ::mcp_contract::Context,
            ) -> ::mcp_contract::codegen::BoxFuture<'_, ::mcp_contract::codegen::CallToolResult> {
                use ::mcp_contract::codegen::call;
                Box::pin(async move {
                    match tool {
                        #(#arms)*
                        _ => call::unknown_tool(tool),
                    }
                })
            }
            #read_resource
            #prompt_dispatch
            #tasks
        }
    }
}

/// `task_support` and `has_tasks`, when a tool may run as a task (the defaults say none may).
fn tasks(c: &Contract) -> Option<TokenStream> {
    let arms: Vec<TokenStream> = (c.tools.iter().enumerate())
        .filter(|(_, t)| t.task != TaskMode::Forbidden)
        .map(|(i, t)| {
            let (i, variant) = (Literal::usize_unsuffixed(i), ident(t.task.variant()));
            quote!(#i => ::mcp_contract::codegen::TaskSupport::#variant,)
        })
        .collect();
    (!arms.is_empty()).then(|| {
        quote! {
            fn task_support(&self, tool: usize) -> ::mcp_contract::codegen::TaskSupport {
                match tool {
                    #(#arms)*
                    _ => ::mcp_contract::codegen::TaskSupport::Forbidden,
                }
            }
            fn has_tasks(&self) -> bool {
                true
            }
        }
    })
}

/// `server`, the constructor.
fn constructor(_: &Contract) -> TokenStream {
    quote! {
        /// An MCP server that publishes this contract and calls `handler` for each tool.
        pub fn server<H: Tools>(handler: H) -> ::mcp_contract::Server<Dispatcher<H>> {
            ::mcp_contract::Server::new(Dispatcher(handler))
        }
    }
}

pub(super) fn constants(c: &Contract, value: impl Fn(&ToolDef) -> &String) -> Vec<TokenStream> {
    c.tools
        .iter()
        .map(|t| {
            let name = ident(&t.constant);
            let v = value(t);
            let d = doc(&format!("`{}`: {}", t.name, t.title));
            quote! { #d pub const #name: &str = #v; }
        })
        .collect()
}

/// `SPEC`; with `tools` false, with an empty list of tools.
fn spec_tokens(c: &Contract, tools: bool) -> TokenStream {
    let s = &c.server;
    let name = &s.name;
    let opt = |o: &Option<String>| match o {
        Some(v) => quote!(Some(#v)),
        None => quote!(None),
    };
    let title = opt(&s.title);
    let instructions = opt(&s.instructions);
    let version = match &s.version {
        Some(v) => quote!(#v),
        None => quote!(env!("CARGO_PKG_VERSION")),
    };
    let cache = match s.cache {
        Some(h) => {
            let ttl = h.ttl_ms;
            let public = h.public;
            quote!(Some(::mcp_contract::codegen::CacheHint { ttl_ms: #ttl, public: #public }))
        }
        None => quote!(None),
    };
    let tools = c
        .tools
        .iter()
        .filter(|_| tools)
        .map(|t| json_literal(&serde_json::to_string(&tool_json(c, t)).unwrap_or_default()));
    let group_specs = c.groups.iter().map(|g| {
        let (name, description, tools) = (&g.name, &g.description, &g.tools);
        quote! {
            ::mcp_contract::codegen::GroupSpec {
                name: #name,
                description: #description,
                tools: &[#(#tools),*],
            }
        }
    });
    let (artifacts_key, composition_key) = (
        &c.planning.artifacts_key.keys,
        &c.planning.composition_key.keys,
    );
    let (prompts, completions) = super::prompts::specs(c);
    let resources = c.resources.iter().zip(completions).map(|(r, completions)| {
        let (name, title, description, mime) = (&r.name, &r.title, &r.description, &r.mime_type);
        let uri = r.uri.text();
        let template = matches!(r.uri, ResourceUri::Template { .. });
        let subscribe = r.subscribe;
        let icons = icon_specs(&r.icons);
        quote! {
            ::mcp_contract::codegen::ResourceSpec {
                name: #name,
                title: #title,
                description: #description,
                mime_type: #mime,
                uri: #uri,
                template: #template,
                subscribe: #subscribe,
                completions: #completions,
                icons: #icons,
            }
        }
    });
    let icons = icon_specs(&s.icons);
    let codes = &c.argument_codes;
    let (missing, invalid, unknown) = (&codes.missing, &codes.invalid, &codes.unknown);
    let logging = s.logging;
    let list_changed = s.list_changed;
    let access = access(c);
    quote! {
        /// The server identity and every tool's wire JSON, as generated from the manifest.
        pub static SPEC: ::mcp_contract::codegen::ContractSpec = ::mcp_contract::codegen::ContractSpec {
            name: #name,
            title: #title,
            icons: #icons,
            version: #version,
            instructions: #instructions,
            cache: #cache,
            tools: &[#(#tools),*],
            resources: &[#(#resources),*],
            artifacts_key: &[#(#artifacts_key),*],
            composition_key: &[#(#composition_key),*],
            groups: &[#(#group_specs),*],
            argument_codes: ::mcp_contract::codegen::ArgumentCodes {
                missing: #missing,
                invalid: #invalid,
                unknown: #unknown,
            },
            logging: #logging,
            list_changed: #list_changed,
            prompts: #prompts,
            access: #access,
        };
    }
}

/// `SPEC.access`: the `auth:` block and each entry's scopes by manifest index, or `OPEN`.
fn access(c: &Contract) -> TokenStream {
    let Some(a) = &c.access else {
        return quote!(::mcp_contract::codegen::AccessSpec::OPEN);
    };
    let resource = match &a.resource {
        Some((r, _)) => quote!(Some(#r)),
        None => quote!(None),
    };
    let servers = a.authorization_servers.iter().map(|(s, _)| s);
    let scopes = a.scopes.iter().map(|s| {
        let (name, description) = (&s.name, &s.description);
        quote!(::mcp_contract::codegen::ScopeSpec { name: #name, description: #description })
    });
    // One list per entry, or none at all when no entry of the kind requires a scope.
    let lists = |lists: Vec<&Vec<String>>| {
        if lists.iter().all(|l| l.is_empty()) {
            return quote!(&[]);
        }
        let each = lists.iter().map(|l| quote!(&[#(#l),*]));
        quote!(&[#(#each),*])
    };
    let tools = lists(c.tools.iter().map(|t| &t.scopes).collect());
    let groups = lists(c.groups.iter().map(|g| &g.scopes).collect());
    let resources = lists(c.resources.iter().map(|r| &r.scopes).collect());
    let prompts = lists(c.prompts.iter().map(|p| &p.scopes).collect());
    quote! {
        ::mcp_contract::codegen::AccessSpec {
            resource: #resource,
            authorization_servers: &[#(#servers),*],
            scopes: &[#(#scopes),*],
            tools: #tools,
            groups: #groups,
            resources: #resources,
            prompts: #prompts,
        }
    }
}

/// A resource's handler method: no arguments for a fixed URI, the template's values otherwise.
pub(super) fn resource_method(r: &ResourceDef) -> TokenStream {
    let method = ident(&r.method);
    let docs = doc(&format!(
        "{}\n\n{}\n\nServed at `{}` as `{}`.",
        r.title,
        r.description,
        r.uri.text(),
        r.mime_type
    ));
    let params = match &r.uri {
        ResourceUri::Fixed(_) => quote!(),
        ResourceUri::Template { .. } => {
            let p = ident(&r.params_type);
            quote!(params: #p,)
        }
    };
    quote! {
        #docs
        fn #method(
            &self,
            #params
            cx: ::mcp_contract::Context,
        ) -> impl ::core::future::Future<Output = Result<::mcp_contract::ResourceBody, ::mcp_contract::ResourceError>> + Send;
    }
}

/// A template's values, one field per variable.
pub(super) fn resource_params(r: &ResourceDef) -> TokenStream {
    let ResourceUri::Template {
        template,
        variables,
    } = &r.uri
    else {
        return quote!();
    };
    let name = ident(&r.params_type);
    let docs = doc(&format!("The values of `{template}`, unescaped."));
    let fields = variables.iter().map(|v| {
        let f = ident(&crate::ident::snake(v));
        let d = doc(&format!("`{{{v}}}`: one path segment, percent-decoded."));
        quote!(#d pub #f: String,)
    });
    let values = variables.iter().map(|v| {
        let f = ident(&crate::ident::snake(v));
        quote!(&self.#f)
    });
    let uri_docs = doc(&format!(
        "The URI these values name: `{template}` with each value percent-encoded, as a \
         client reads it and as `resource_updated` takes it."
    ));
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #name { #(#fields)* }

        impl #name {
            #uri_docs
            pub fn uri(&self) -> String {
                ::mcp_contract::codegen::expand_uri(#template, &[#(#values),*])
            }
        }
    }
}

pub(super) fn resource_arm(index: usize, r: &ResourceDef) -> TokenStream {
    let index = Literal::usize_unsuffixed(index);
    let method = ident(&r.method);
    match &r.uri {
        ResourceUri::Fixed(_) => quote!(#index => Tools::#method(&self.0, cx).await,),
        ResourceUri::Template { variables, .. } => {
            let p = ident(&r.params_type);
            let fields = variables.iter().map(|v| {
                let f = ident(&crate::ident::snake(v));
                quote!(#f: values.next().unwrap_or_default(),)
            });
            quote!(#index => Tools::#method(&self.0, #p { #(#fields)* }, cx).await,)
        }
    }
}

pub(super) fn dispatch_arm(index: usize, t: &ToolDef) -> TokenStream {
    let index = Literal::usize_unsuffixed(index);
    let method = ident(&t.method);
    let args = ident(&t.args_type());
    let declared = super::content::declared(t);
    let handled = quote!(Tools::#method(&self.0, args, cx).await);
    let finish = match (&t.output, t.content.is_empty()) {
        (OutputDef::Text, true) => quote!(call::text(#handled)),
        (OutputDef::Object { .. }, true) => quote!(call::structured(#handled)),
        (OutputDef::Text, false) => quote!(call::content(#declared, #handled)),
        (OutputDef::Object { .. }, false) => {
            quote!(call::structured_content(#declared, #handled))
        }
    };
    quote! {
        #index => match call::arguments::<#args>(&SPEC.argument_codes, arguments) {
            // A path call: as a method call, a prelude trait method of the same name taking
            // `self` by value (a tool named `into` or `try_into`) would be picked instead.
            Ok(args) => #finish,
            Err(refused) => refused.into_result(),
        },
    }
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

pub(super) fn trait_method(c: &Contract, t: &ToolDef) -> TokenStream {
    let method = ident(&t.method);
    let args = ident(&t.args_type());
    let error = ident(&t.error_type());
    let structure = ident(&t.output_type());
    let content = ident(&t.content_type());
    let output = match (&t.output, t.content.is_empty()) {
        (OutputDef::Text, true) => quote!(String),
        (OutputDef::Object { .. }, true) => quote!(#structure),
        (OutputDef::Text, false) => quote!(Vec<#content>),
        (OutputDef::Object { .. }, false) => quote!((#structure, Vec<#content>)),
    };
    let docs = doc(&trait_method_doc(c, t));
    quote! {
        #docs
        fn #method(
            &self,
            args: #args,
            cx: ::mcp_contract::Context,
        ) -> impl ::core::future::Future<Output = Result<#output, #error>> + Send;
    }
}

/// [`spec`]'s entry for a tool: its wire JSON, on a line of its own.
fn spec_tool_text(c: &Contract, t: &ToolDef) -> Option<String> {
    let json = serde_json::to_string(&tool_json(c, t)).unwrap_or_default();
    let mut w = Code::new();
    w.constant(2, &[&json_text(&json), ","]);
    w.finish()
}

/// [`trait_method`] as text: the parameters one a line, as the signature never fits on one,
/// and the future's output on the last line or, when it does not fit there, on its own.
fn trait_method_text(c: &Contract, t: &ToolDef) -> Option<String> {
    let mut w = Code::new();
    w.doc(1, &trait_method_doc(c, t));
    w.line(1, &["fn ", id(&t.method), "("]);
    w.line(2, &["&self,"]);
    w.line(2, &["args: ", id(&t.args_type()), ","]);
    w.line(2, &["cx: ::mcp_contract::Context,"]);
    let output = format!(
        "Result<{}, {}>",
        trait_method_output(t),
        id(&t.error_type())
    );
    let future = "impl ::core::future::Future<";
    let last = format!(") -> {future}Output = {output}> + Send;");
    if text::fits(1, &last) {
        w.line(1, &[&last]);
    } else {
        w.line(1, &[") -> ", future]);
        w.line(2, &["Output = ", &output, ","]);
        w.line(1, &["> + Send;"]);
    }
    w.finish()
}

/// What a tool's handler returns on success, as Rust text.
fn trait_method_output(t: &ToolDef) -> String {
    let (structure, content) = (t.output_type(), t.content_type());
    let (structure, content) = (id(&structure), id(&content));
    match (&t.output, t.content.is_empty()) {
        (OutputDef::Text, true) => "String".into(),
        (OutputDef::Object { .. }, true) => structure.into(),
        (OutputDef::Text, false) => format!("Vec<{content}>"),
        (OutputDef::Object { .. }, false) => format!("({structure}, Vec<{content}>)"),
    }
}

/// [`dispatch_arm`] as text, for a tool without declared content (whose check breaks over
/// lines): the arguments' type and the handler's call on their lines, or broken as
/// prettyplease breaks them when they do not fit.
fn dispatch_arm_text(index: usize, t: &ToolDef) -> Option<String> {
    if !t.content.is_empty() {
        return None;
    }
    let finish = match t.output {
        OutputDef::Text => "text",
        OutputDef::Object { .. } => "structured",
    };
    let call = format!(
        "call::{finish}(Tools::{}(&self.0, args, cx).await)",
        id(&t.method)
    );
    let mut w = Code::new();
    w.line(4, &[&index.to_string(), " => {"]);
    // prettyplease breaks a long turbofish before the type: `call::arguments::<\n Args,\n >(…)`.
    let args = id(&t.args_type()).to_owned();
    let matched = format!("match call::arguments::<{args}>(&SPEC.argument_codes, arguments) {{");
    if text::fits(5, &matched) {
        w.line(5, &[&matched]);
    } else {
        w.line(5, &["match call::arguments::<"]);
        w.line(6, &[&args, ","]);
        w.line(5, &[">(&SPEC.argument_codes, arguments) {"]);
    }
    // The arm's closing comma is not counted: prettyplease breaks the arm, not the comma.
    let ok = format!("Ok(args) => {call}");
    if text::fits(6, &ok) {
        w.whole_line(6, &[&ok, ","]);
    } else {
        w.line(6, &["Ok(args) => {"]);
        w.line(7, &[&call]);
        w.line(6, &["}"]);
    }
    w.line(6, &["Err(refused) => refused.into_result(),"]);
    w.line(5, &["}"]);
    w.line(4, &["}"]);
    w.finish()
}
