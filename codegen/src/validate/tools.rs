//! Tools: their names, titles and descriptions, and everything a tool is built from.

use serde_json::Map;

use super::Validator;
use super::documents::Role;
use super::names::{NameTable, Referent, is_tool_name};
use super::schema::{Place, Scope};
use crate::diagnostic::{Diagnostic, codes};
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::Spanned;

/// What a tool draws on from the rest of the manifest.
pub(super) struct Context<'a> {
    pub(super) manifest: &'a Manifest,
    pub(super) effects: &'a std::collections::HashMap<String, Hints>,
    pub(super) omit: &'a [mcp_contract_spec::Hint],
    pub(super) scope: &'a Scope<'a>,
}

impl Validator<'_> {
    /// Builds every tool into `contract`, and gives back the tools' handler methods, which
    /// resources must not repeat.
    pub(super) fn tools(&mut self, cx: &Context<'_>, contract: &mut Contract) -> NameTable {
        let mut names = NameTable::default();
        let mut titles = NameTable::default();
        let mut methods = NameTable::default();
        for tool in &cx.manifest.tools {
            // Names are checked before the tool is built: a tool that repeats a name or a
            // Rust name is skipped whole, so the types nested in it do not report collisions
            // too.
            if let Some(name) = &tool.name
                && !self.tool_name_is_free(name, &mut names, &mut methods)
            {
                continue;
            }
            self.title_is_free(tool, &mut titles);
            if let Some(t) = self.tool(tool, cx, contract) {
                let span = tool.name.as_ref().map_or(tool.span, |n| n.span);
                let arguments = (!t.arguments.is_empty()).then(|| (t.argument_type(), "argument"));
                let content = (!t.content.is_empty()).then(|| (t.content_type(), "content"));
                for (ty, what) in [
                    (t.args_type(), "arguments"),
                    (t.output_type(), "output"),
                    (t.error_type(), "error"),
                ]
                .into_iter()
                .chain(arguments)
                .chain(content)
                {
                    // The three share the tool's PascalCase name: one clash is one fault.
                    if !self.claim_type(ty, span, what) {
                        break;
                    }
                }
                self.headers(&t, &contract.types);
                contract.tools.push(t);
            }
        }
        methods
    }

    /// Claims a tool's name and its handler method; false when either is taken.
    fn tool_name_is_free(
        &mut self,
        name: &Spanned<String>,
        names: &mut NameTable,
        methods: &mut NameTable,
    ) -> bool {
        if let Some(first) = names.get(&name.value) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_TOOL_NAME,
                    format!("the tool name `{}` is used twice", name.value),
                    name.span,
                )
                .label("used again here")
                .related(first, "first used here")
                .help("tool names must be unique within a server; rename one of them"),
            );
            return false;
        }
        let method = ident::snake(&name.value);
        if let Some(first) = methods.get(&method) {
            self.collision(
                format!(
                    "the tool `{}` becomes the Rust method `{method}`, which another tool already has",
                    name.value
                ),
                name.span,
                Some((first, "this tool has the same Rust name")),
                "rename one of the tools so their snake_case forms differ",
            );
            return false;
        }
        let _ = names.claim(&name.value, name.span);
        let _ = methods.claim(method, name.span);
        true
    }

    /// Two tools may not share a title. A missing or empty title is reported on its own; it
    /// duplicates nothing.
    fn title_is_free(&mut self, tool: &raw::Tool, titles: &mut NameTable) {
        let Some(title) = &tool.title else { return };
        let text = title.value.trim();
        if text.is_empty() {
            return;
        }
        if let Err(first) = titles.claim(text, title.span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_TITLE,
                    format!("the title `{text}` is used twice"),
                    title.span,
                )
                .label("used again here")
                .related(first, "first used here"),
            );
        }
    }

    /// One tool, built from what is sound in it; `None` without a name.
    fn tool(&mut self, t: &raw::Tool, cx: &Context<'_>, contract: &Contract) -> Option<ToolDef> {
        let name = t.name.as_ref()?;
        if !is_tool_name(&name.value) {
            self.report(
                &codes::BAD_TOOL_NAME,
                format!("`{}` is not a valid tool name", name.value),
                name.span,
            );
        }
        let title = self.text(
            &t.title,
            "the title is empty",
            "give the tool a short title for people",
        );
        let description = self.description(t, name);
        let why = self.text(
            &t.why,
            "`why` is empty",
            "say why the tool's hints are what they are, or remove `why:`",
        );
        let (sentences, published_description) = self.pinned(&t.sentences, &description, contract);
        let (hints, published_hints) = self.tool_hints(t, name, cx.manifest, cx.effects, cx.omit);
        let type_prefix = ident::type_prefix(&name.value);
        let parameters = self.fields(
            &t.parameters,
            &format!("{type_prefix}Args"),
            Place::Input,
            true,
            cx.scope,
        );
        let input = t.input_schema.as_ref().and_then(|d| {
            if let Some(key) = t.keys.span("parameters") {
                self.error(
                    &codes::JSON_SCHEMA_PLACEMENT,
                    "`parameters:` beside `input_schema:`: the document is the tool's whole input",
                    key,
                    "declare the arguments in one place: the `input_schema:` document, or `parameters:`",
                );
            }
            self.document(d, Role::Input)
        });
        let output = self.output(t, &type_prefix, cx.scope);
        let content = match &t.output {
            Some(raw::Output::Declared { content, .. }) => self.content(content.as_ref()),
            _ => Vec::new(),
        };
        let errors = self.tool_errors(t, contract);
        let arguments = self.arguments(t, &errors, &parameters, cx.manifest);
        let meta = self.tool_meta(t);
        let icons = self.icons(&t.icons);
        let questions = self.questions(&t.asks, cx.scope);
        let task = self.task(t);
        Some(ToolDef {
            name: name.value.clone(),
            title,
            description,
            published_description,
            sentences,
            hints,
            published_hints,
            why: Some(why).filter(|w| !w.is_empty()),
            parameters,
            input,
            output,
            content,
            errors,
            arguments,
            meta,
            artifacts: None,
            encapsulates: Vec::new(),
            groups: Vec::new(),
            method: ident::snake(&name.value),
            constant: ident::shouty(&name.value),
            type_prefix,
            span: name.span,
            icons,
            scopes: Vec::new(),
            questions,
            task,
            lifecycle: Lifecycle::default(),
            app: None,
            keys: t.keys.all(),
        })
    }

    /// The description as written, which tells a model what the tool is for.
    fn description(&mut self, t: &raw::Tool, name: &Spanned<String>) -> String {
        let description = t
            .description
            .as_ref()
            .map(|d| d.value.trim().to_owned())
            .unwrap_or_default();
        if let Some(d) = &t.description
            && description.is_empty()
        {
            self.report(
                &codes::EMPTY_DESCRIPTION,
                format!("the tool `{}` has an empty description", name.value),
                d.span,
            );
        }
        description
    }

    /// The pinned sentences a tool or prompt lists, and its description followed by each it
    /// lacks.
    pub(super) fn pinned(
        &mut self,
        listed: &[Spanned<String>],
        description: &str,
        contract: &Contract,
    ) -> (Vec<usize>, String) {
        let mut sentences = Vec::new();
        let mut published = description.to_owned();
        for s in listed {
            match contract.sentences.iter().position(|d| d.name == s.value) {
                Some(i) => {
                    sentences.push(i);
                    let text = &contract.sentences[i].text;
                    if !published.contains(text.as_str()) {
                        published = format!("{published} {text}").trim().to_owned();
                    }
                }
                None => self.unknown(
                    s,
                    Referent::Sentence,
                    contract.sentences.iter().map(|d| d.name.as_str()),
                ),
            }
        }
        (sentences, published)
    }

    /// Text, or a structured object whose root is an object.
    fn output(&mut self, t: &raw::Tool, type_prefix: &str, scope: &Scope<'_>) -> OutputDef {
        let Some(raw::Output::Declared {
            structure: Some(s), ..
        }) = &t.output
        else {
            return OutputDef::Text;
        };
        if let Some(document) = &s.document {
            let beside = [
                ("properties", s.properties.as_ref().map(|_| s.span)),
                ("description", s.description.as_ref().map(|d| d.span)),
            ];
            for (key, span) in beside {
                if let Some(span) = span {
                    self.error(
                        &codes::JSON_SCHEMA_PLACEMENT,
                        format!("`{key}` beside `json_schema:`: the document is the whole output schema, published as written"),
                        span,
                        format!("move `{key}` into the document"),
                    );
                }
            }
            return match self.document(document, Role::Output) {
                Some(value) => OutputDef::Document(value),
                None => OutputDef::Text,
            };
        }
        if let Some(ty) = &s.ty
            && ty.value != "object"
        {
            self.report(
                &codes::BAD_OUTPUT,
                "a structured output must be an object",
                ty.span,
            );
        }
        let props = s.properties.as_deref().unwrap_or_default();
        OutputDef::Object {
            description: s.description.as_ref().map(|d| d.value.clone()),
            fields: self.fields(
                props,
                &format!("{type_prefix}Output"),
                Place::Output,
                false,
                scope,
            ),
        }
    }

    /// The error codes a tool lists, each declared and listed once.
    fn tool_errors(&mut self, t: &raw::Tool, contract: &Contract) -> Vec<usize> {
        let mut errors: Vec<usize> = Vec::new();
        for code in &t.errors {
            match contract.errors.iter().position(|e| e.code == code.value) {
                Some(i) if errors.contains(&i) => self.report(
                    &codes::DUPLICATE_ERROR_CODE,
                    format!("the error `{}` is listed twice", code.value),
                    code.span,
                ),
                Some(i) => errors.push(i),
                None => self.unknown(
                    code,
                    Referent::ErrorCode,
                    contract.errors.iter().map(|e| e.code.as_str()),
                ),
            }
        }
        errors
    }

    /// The variants of the tool's `{Prefix}Argument`, one per parameter, when an error it
    /// declares names its argument; a tool without parameters has none to name.
    fn arguments(
        &mut self,
        t: &raw::Tool,
        errors: &[usize],
        parameters: &[Field],
        manifest: &Manifest,
    ) -> Vec<(String, String)> {
        let naming: Vec<usize> = errors
            .iter()
            .copied()
            .filter(|&i| {
                manifest.errors[i]
                    .argument
                    .as_ref()
                    .is_some_and(|a| a.value)
            })
            .collect();
        if naming.is_empty() {
            return Vec::new();
        }
        if t.parameters.is_empty() {
            for i in naming {
                let code = &manifest.errors[i].code.value;
                let listed = t.errors.iter().find(|c| &c.value == code);
                let (Some(listed), Some(argument)) = (listed, &manifest.errors[i].argument) else {
                    continue;
                };
                self.diags.push(
                    Diagnostic::new(
                        &codes::ARGUMENT_WITHOUT_PARAMETERS,
                        format!(
                            "`{code}` names the argument it concerns, but `{}` takes no arguments",
                            t.name.as_ref().map_or("the tool", |n| n.value.as_str())
                        ),
                        listed.span,
                    )
                    .related(argument.span, "the error names its argument here"),
                );
            }
            return Vec::new();
        }
        let mut variants = NameTable::default();
        let mut out = Vec::new();
        for p in parameters {
            let variant = ident::pascal(&p.name);
            if let Err(earlier) = variants.claim(&variant, p.span) {
                self.collision(
                    format!(
                        "`{}` becomes the variant `{variant}` of `{}Argument`, which another parameter already has",
                        p.name,
                        ident::type_prefix(t.name.as_ref().map_or("", |n| n.value.as_str()))
                    ),
                    p.span,
                    Some((earlier, "this parameter has the same variant")),
                    "rename one of the parameters so their PascalCase forms differ",
                );
                continue;
            }
            out.push((p.name.clone(), variant));
        }
        out
    }

    /// The static `_meta` entries whose keys are valid.
    fn tool_meta(&mut self, t: &raw::Tool) -> Map<String, serde_json::Value> {
        let mut meta = Map::new();
        for (key, value) in &t.meta {
            if self.meta_key(key) {
                meta.insert(key.value.clone(), value.clone());
            }
        }
        meta
    }
}
