//! Every rule between manifest values, checked at once.
//!
//! [`validate`] walks the decoded manifest, records a diagnostic for each broken rule and
//! builds the [`Contract`] from whatever is sound, so one build reports every problem.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Diagnostics, codes};
use crate::emit::wire as schema;
use crate::ident;
use crate::manifest::reader::suggest;
use crate::manifest::{self as raw, HINT_KEYS, HintPolicy, Manifest};
use crate::meta_key;
use crate::model::*;
use crate::source::{Span, Spanned};

mod headers;
mod planning;
mod resources;
#[cfg(test)]
mod tests;

/// Codes the runtime itself returns; the vocabulary may not redefine them.
pub(crate) const RESERVED_ERROR_CODES: [&str; 4] = [
    "argument_missing",
    "argument_invalid",
    "argument_unknown",
    "internal_error",
];

/// Types the generated module defines next to the shared types (see `rust::module`); a
/// shared type of the same name would not compile.
const GENERATED_ITEMS: [&str; 11] = [
    "Tools",
    "Dispatcher",
    "ContractError",
    // Prelude names the generated code uses unqualified, to stay short and readable.
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Send",
    "Sync",
    "Default",
];

/// Formats defined by JSON Schema 2020-12.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Checks a decoded manifest and builds the contract from it.
pub(crate) fn validate(
    manifest: &Manifest,
    source_name: &str,
    diags: &mut Diagnostics,
) -> Contract {
    let mut v = Validator {
        diags,
        rust_types: HashMap::new(),
        examples: Vec::new(),
        broken_types: Vec::new(),
    };
    let server = v.server(manifest.server.as_ref());
    let omit = v.policy(manifest.hint_policy.as_ref());
    let effects = v.effects(&manifest.effects);
    let sentences = v.sentences(&manifest.sentences);
    let errors = v.errors(&manifest.errors);
    let types = v.types(&manifest.types);
    let planning = v.planning(manifest);
    let mut contract = Contract {
        source_name: source_name.to_owned(),
        server,
        sentences,
        errors,
        types,
        tools: Vec::new(),
        planning,
        groups: Vec::new(),
        resources: Vec::new(),
    };
    let mut names: HashMap<String, Span> = HashMap::new();
    let mut titles: HashMap<String, Span> = HashMap::new();
    let mut methods: HashMap<String, Span> = HashMap::new();
    for tool in &manifest.tools {
        // Names are checked before the tool is built: a tool that repeats a name or a Rust
        // name is skipped whole, so the types nested in it do not report collisions too.
        if let Some(name) = &tool.name {
            if let Some(&first) = names.get(&name.value) {
                v.diags.push(
                    Diagnostic::new(
                        &codes::DUPLICATE_TOOL_NAME,
                        format!("the tool name `{}` is used twice", name.value),
                        name.span,
                    )
                    .label("used again here")
                    .related(first, "first used here")
                    .help("tool names must be unique within a server; rename one of them"),
                );
                continue;
            }
            let method = ident::snake(&name.value);
            if let Some(&first) = methods.get(&method) {
                v.diags.push(
                    Diagnostic::new(
                        &codes::IDENT_COLLISION,
                        format!("the tool `{}` becomes the Rust method `{method}`, which another tool already has", name.value),
                        name.span,
                    )
                    .related(first, "this tool has the same Rust name")
                    .help("rename one of the tools so their snake_case forms differ"),
                );
                continue;
            }
            names.insert(name.value.clone(), name.span);
            methods.insert(method, name.span);
        }
        // A missing or empty title is reported on its own; it duplicates nothing.
        if let Some(title) = &tool.title {
            let text = title.value.trim();
            if let Some(&first) = titles.get(text) {
                v.diags.push(
                    Diagnostic::new(
                        &codes::DUPLICATE_TITLE,
                        format!("the title `{text}` is used twice"),
                        title.span,
                    )
                    .label("used again here")
                    .related(first, "first used here"),
                );
            } else if !text.is_empty() {
                titles.insert(text.to_owned(), title.span);
            }
        }
        if let Some(t) = v.tool(tool, manifest, &contract, &effects, &omit) {
            let span = tool.name.as_ref().map_or(tool.span, |n| n.span);
            for (ty, what) in [
                (t.args_type(), "arguments"),
                (t.output_type(), "output"),
                (t.error_type(), "error"),
            ] {
                v.claim_type(ty, span, what);
            }
            v.headers(&t, &contract.types);
            contract.tools.push(t);
        }
    }
    v.relations(manifest, &mut contract);
    contract.resources = v.resources(manifest, &methods);
    let used_errors: Vec<usize> = contract
        .tools
        .iter()
        .flat_map(|t| t.errors.iter().copied())
        .collect();
    for (i, e) in manifest.errors.iter().enumerate() {
        if !used_errors.contains(&i) && contract.errors.get(i).is_some() {
            v.diags.push(Diagnostic::new(
                &codes::UNUSED_ERROR,
                format!("no tool lists the error `{}`", e.code.value),
                e.code.span,
            ));
        }
    }
    v.check_examples(&contract);
    contract
}

/// An example or default waiting to be checked once every shared type is known.
struct PendingExample {
    schema: Schema,
    value: Value,
    span: Span,
    what: &'static str,
}

struct Validator<'d> {
    diags: &'d mut Diagnostics,
    /// Every Rust type name emitted, with where it comes from.
    rust_types: HashMap<String, Span>,
    examples: Vec<PendingExample>,
    /// Shared types that could not be built or that contain themselves, by index.
    broken_types: Vec<usize>,
}

/// Where a schema sits, which decides what it must carry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A tool's parameter or a field nested in one.
    Input,
    /// A field of a tool's output.
    Output,
    /// A shared type, usable on either side.
    Shared,
}

/// What a manifest name can refer to, each with the code reporting a name it does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Referent {
    Sentence,
    Effect,
    ErrorCode,
    Type,
    Group,
    Tool,
    ArtifactKind,
}

impl Referent {
    /// How a message names it: "unknown error code `x`".
    fn noun(self) -> &'static str {
        match self {
            Referent::Sentence => "sentence",
            Referent::Effect => "effect",
            Referent::ErrorCode => "error code",
            Referent::Type => "type",
            Referent::Group => "group",
            Referent::Tool => "tool",
            Referent::ArtifactKind => "artifact kind",
        }
    }

    /// The code reporting a name that refers to nothing.
    fn unknown(self) -> &'static Code {
        match self {
            Referent::Sentence => &codes::UNKNOWN_SENTENCE,
            Referent::Effect => &codes::UNKNOWN_EFFECT,
            Referent::ErrorCode => &codes::UNKNOWN_ERROR_CODE,
            Referent::Type => &codes::UNKNOWN_TYPE,
            Referent::Group => &codes::UNKNOWN_GROUP,
            Referent::Tool => &codes::UNKNOWN_TOOL,
            Referent::ArtifactKind => &codes::UNKNOWN_KIND,
        }
    }
}

impl Validator<'_> {
    /// Reports a finding whose help the registry fixes.
    fn report(&mut self, code: &'static Code, message: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::new(code, message, span));
    }

    /// Reports a finding with the help this case calls for.
    fn error(
        &mut self,
        code: &'static Code,
        message: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::new(code, message, span).help(help));
    }

    /// Records a Rust type name, refusing a second type of the same name.
    fn claim_type(&mut self, name: String, span: Span, what: &str) {
        // A tool or nested type can land on a generated item's name too (a tool `contract`
        // gives `ContractError`), not only a shared type.
        if GENERATED_ITEMS.contains(&name.as_str()) {
            self.error(
                &codes::IDENT_COLLISION,
                format!("the {what} type `{name}` would clash with the generated `{name}`"),
                span,
                "rename the tool or the property this type is named after",
            );
            return;
        }
        if let Some(first) = self.rust_types.get(&name).copied() {
            self.diags.push(
                Diagnostic::new(
                    &codes::IDENT_COLLISION,
                    format!("the {what} type `{name}` would be generated twice"),
                    span,
                )
                .related(first, "the other type of that name comes from here")
                .help("rename the shared type or the tool so the generated Rust names differ"),
            );
        } else {
            self.rust_types.insert(name, span);
        }
    }

    fn server(&mut self, server: Option<&raw::Server>) -> ServerInfo {
        let mut info = ServerInfo {
            name: String::new(),
            title: None,
            version: None,
            instructions: None,
            cache: None,
        };
        let Some(s) = server else { return info };
        if let Some(name) = &s.name {
            if name.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the server name is empty",
                    name.span,
                    "name the server, e.g. `my-server`",
                );
            }
            info.name = name.value.clone();
        }
        info.title = s.title.as_ref().map(|t| t.value.clone());
        info.version = s.version.as_ref().map(|t| t.value.clone());
        info.instructions = s.instructions.as_ref().map(|t| t.value.clone());
        if let Some(cache) = &s.cache
            && let (Some(ttl), Some(scope)) = (&cache.ttl_ms, &cache.scope)
        {
            match scope.value.as_str() {
                "public" | "private" => {
                    info.cache = Some(CacheHint {
                        ttl_ms: ttl.value,
                        public: scope.value == "public",
                    })
                }
                other => self.report(
                    &codes::BAD_CACHE_SCOPE,
                    format!("unknown cache scope `{other}`"),
                    scope.span,
                ),
            }
        }
        info
    }

    /// The hints left out on read-only tools.
    fn policy(&mut self, policy: Option<&Spanned<HintPolicy>>) -> Vec<String> {
        let Some(Spanned {
            value: HintPolicy::OmitOnReadOnly(names),
            ..
        }) = policy
        else {
            return Vec::new();
        };
        let mut omit = Vec::new();
        for name in names {
            if name.value == "destructive" || name.value == "idempotent" {
                omit.push(name.value.clone());
            } else {
                self.report(
                    &codes::BAD_HINT_POLICY,
                    format!("`{}` cannot be left out on read-only tools", name.value),
                    name.span,
                );
            }
        }
        omit
    }

    fn effects(&mut self, effects: &[raw::Effect]) -> HashMap<String, Hints> {
        let mut out = HashMap::new();
        for e in effects {
            let hints = self.complete_hints(
                &e.hints,
                None,
                e.name.span,
                &format!("the effect `{}`", e.name.value),
            );
            if let Some(h) = hints {
                out.insert(e.name.value.clone(), h);
            }
        }
        out
    }

    /// Merges written hints over a base and checks that all four are decided and agree.
    fn complete_hints(
        &mut self,
        written: &raw::Hints,
        base: Option<Hints>,
        span: Span,
        what: &str,
    ) -> Option<Hints> {
        let pick = |h: &Option<Spanned<bool>>, b: Option<bool>| h.as_ref().map(|s| s.value).or(b);
        let values = [
            pick(&written.read_only, base.map(|b| b.read_only)),
            pick(&written.destructive, base.map(|b| b.destructive)),
            pick(&written.idempotent, base.map(|b| b.idempotent)),
            pick(&written.open_world, base.map(|b| b.open_world)),
        ];
        let missing: Vec<&str> = HINT_KEYS
            .iter()
            .zip(values)
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| *k)
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.report(
                &codes::UNRESOLVED_HINT,
                format!("{what} leaves {list} undecided"),
                span,
            );
            return None;
        }
        let [read_only, destructive, idempotent, open_world] =
            values.map(|v| v.unwrap_or_default());
        if read_only && destructive {
            let at = written
                .destructive
                .as_ref()
                .or(written.read_only.as_ref())
                .map_or(span, |s| s.span);
            self.report(
                &codes::CONTRADICTORY_HINTS,
                format!("{what} is both read-only and destructive"),
                at,
            );
            return None;
        }
        Some(Hints {
            read_only,
            destructive,
            idempotent,
            open_world,
        })
    }

    fn sentences(&mut self, sentences: &[raw::Sentence]) -> Vec<SentenceDef> {
        let mut constants: HashMap<String, Span> = HashMap::new();
        let mut out = Vec::new();
        for s in sentences {
            if !is_snake(&s.name.value) {
                self.error(
                    &codes::BAD_NAME,
                    format!("the sentence name `{}` is not snake_case", s.name.value),
                    s.name.span,
                    "use lowercase letters, digits and `_`, starting with a letter",
                );
                continue;
            }
            if s.text.value.trim().is_empty() {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the pinned sentence is empty",
                    s.text.span,
                    "write the sentence",
                );
            }
            let constant = ident::shouty(&s.name.value);
            if let Some(first) = constants.insert(constant.clone(), s.name.span) {
                self.diags.push(
                    Diagnostic::new(
                        &codes::IDENT_COLLISION,
                        format!("the constant `{constant}` would be generated twice"),
                        s.name.span,
                    )
                    .related(first, "this sentence has the same constant")
                    .help("rename one of the sentences"),
                );
            }
            out.push(SentenceDef {
                name: s.name.value.clone(),
                constant,
                text: s.text.value.trim().to_owned(),
                span: s.name.span,
            });
        }
        out
    }

    fn errors(&mut self, errors: &[raw::ErrorDef]) -> Vec<ErrorDef> {
        let mut variants: HashMap<String, Span> = HashMap::new();
        let mut out = Vec::new();
        for e in errors {
            let code = &e.code;
            if !is_snake(&code.value) {
                self.error(
                    &codes::BAD_NAME,
                    format!("the error code `{}` is not snake_case", code.value),
                    code.span,
                    "use lowercase letters, digits and `_`, starting with a letter",
                );
            } else if RESERVED_ERROR_CODES.contains(&code.value.as_str()) {
                self.report(
                    &codes::RESERVED_ERROR_CODE,
                    format!(
                        "the error code `{}` is reserved for the runtime",
                        code.value
                    ),
                    code.span,
                );
            }
            let variant = ident::pascal(&code.value);
            if let Some(first) = variants.insert(variant.clone(), code.span) {
                self.diags.push(
                    Diagnostic::new(
                        &codes::IDENT_COLLISION,
                        format!("the variant `{variant}` would be generated twice"),
                        code.span,
                    )
                    .related(first, "this code has the same variant")
                    .help("rename one of the error codes"),
                );
            }
            let mut fields = Vec::new();
            let message = e
                .message
                .as_ref()
                .and_then(|m| self.template(m, &mut fields));
            let hint = e.hint.as_ref().and_then(|h| self.template(h, &mut fields));
            if let Some(m) = &e.message
                && m.value.trim().is_empty()
            {
                self.error(
                    &codes::EMPTY_TEXT,
                    "the error message is empty",
                    m.span,
                    "say what went wrong",
                );
            }
            out.push(ErrorDef {
                code: code.value.clone(),
                variant,
                message: message.unwrap_or(Template {
                    source: String::new(),
                    parts: Vec::new(),
                }),
                hint,
                fields,
            });
        }
        out
    }

    /// Parses `{field}` placeholders (`{{` and `}}` stand for braces).
    fn template(&mut self, text: &Spanned<String>, fields: &mut Vec<String>) -> Option<Template> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.value.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    literal.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        name.push(c);
                    }
                    // Without its `}` the rest of the text is not a field name, even when it
                    // reads like one (`No {path`).
                    if !closed {
                        self.error(
                            &codes::BAD_TEMPLATE,
                            "an unclosed `{` in a template",
                            text.span,
                            "close the placeholder with `}`, or write `{{` for a brace",
                        );
                        return None;
                    }
                    // The placeholder becomes a field as written, so it must already be in the
                    // form `ident::snake` gives (`a__b` would become `a_b`, and collide).
                    if !is_snake(&name) || !ident::is_snake_form(&name) {
                        self.error(
                            &codes::BAD_TEMPLATE,
                            format!("`{{{name}}}` is not a valid placeholder"),
                            text.span,
                            "placeholders are snake_case field names in braces, like `{path}`; write `{{` for a brace",
                        );
                        return None;
                    }
                    if !literal.is_empty() {
                        parts.push(TemplatePart::Literal(std::mem::take(&mut literal)));
                    }
                    if !fields.contains(&name) {
                        fields.push(name.clone());
                    }
                    parts.push(TemplatePart::Field(name));
                }
                '}' => {
                    self.error(
                        &codes::BAD_TEMPLATE,
                        "a lone `}` in a template",
                        text.span,
                        "write `}}` for a brace",
                    );
                    return None;
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(TemplatePart::Literal(literal));
        }
        Some(Template {
            source: text.value.clone(),
            parts,
        })
    }

    fn types(&mut self, types: &[raw::TypeDef]) -> Vec<NamedType> {
        let index: HashMap<String, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.value.clone(), i))
            .collect();
        let mut out = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let name = &t.name;
            let valid = name
                .value
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase())
                && name.value.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid || ident::pascal(&name.value) != name.value {
                self.error(
                    &codes::BAD_NAME,
                    format!("the type name `{}` is not PascalCase", name.value),
                    name.span,
                    "name shared types like Rust types: `LineRange`",
                );
            } else if GENERATED_ITEMS.contains(&name.value.as_str()) {
                self.error(
                    &codes::IDENT_COLLISION,
                    format!("the type name `{}` is taken by the generated code", name.value),
                    name.span,
                    "the generated module defines `Tools`, `Dispatcher` and `ContractError` and uses the prelude's `Option`, `Result`, `String`, `Vec`, `Box`, `Send`, `Sync` and `Default`; rename the shared type",
                );
            }
            let schema = self
                .schema(&t.schema, &name.value, Place::Shared, &index, types)
                .unwrap_or_else(|| {
                    self.broken_types.push(i);
                    Schema {
                        kind: Kind::String,
                        description: None,
                        examples: Vec::new(),
                        constraints: Constraints::default(),
                    }
                });
            out.push(NamedType {
                name: name.value.clone(),
                schema,
            });
        }
        // A type that contains itself would inline forever.
        for (i, t) in types.iter().enumerate() {
            if reaches(&out, &out[i].schema, i, &mut Vec::new()) {
                self.broken_types.push(i);
                self.report(
                    &codes::RECURSIVE_TYPE,
                    format!("the type `{}` contains itself", t.name.value),
                    t.name.span,
                );
            }
        }
        out
    }

    fn tool(
        &mut self,
        t: &raw::Tool,
        manifest: &Manifest,
        contract: &Contract,
        effects: &HashMap<String, Hints>,
        omit: &[String],
    ) -> Option<ToolDef> {
        let name = t.name.as_ref()?;
        if !is_tool_name(&name.value) {
            self.report(
                &codes::BAD_TOOL_NAME,
                format!("`{}` is not a valid tool name", name.value),
                name.span,
            );
        }
        let title = t
            .title
            .as_ref()
            .map(|t| t.value.trim().to_owned())
            .unwrap_or_default();
        if let Some(tt) = &t.title
            && tt.value.trim().is_empty()
        {
            self.error(
                &codes::EMPTY_TEXT,
                "the title is empty",
                tt.span,
                "give the tool a short title for people",
            );
        }
        let description = t
            .description
            .as_ref()
            .map(|d| d.value.trim().to_owned())
            .unwrap_or_default();
        if let Some(d) = &t.description
            && d.value.trim().is_empty()
        {
            self.report(
                &codes::EMPTY_DESCRIPTION,
                format!("the tool `{}` has an empty description", name.value),
                d.span,
            );
        }

        if let Some(w) = &t.why
            && w.value.trim().is_empty()
        {
            self.error(
                &codes::EMPTY_TEXT,
                "`why` is empty",
                w.span,
                "say why the tool's hints are what they are, or remove `why:`",
            );
        }

        let mut sentences = Vec::new();
        let mut published_description = description.clone();
        for s in &t.sentences {
            match contract.sentences.iter().position(|d| d.name == s.value) {
                Some(i) => {
                    sentences.push(i);
                    let text = &contract.sentences[i].text;
                    if !published_description.contains(text.as_str()) {
                        published_description =
                            format!("{published_description} {text}").trim().to_owned();
                    }
                }
                None => self.unknown(
                    s,
                    Referent::Sentence,
                    contract.sentences.iter().map(|d| d.name.as_str()),
                ),
            }
        }

        // A tool whose hints cannot be resolved is still checked through, so one build
        // reports its parameters' problems too; it is never emitted, as the build fails.
        let mut effect_ok = true;
        let base = match &t.effect {
            None => None,
            Some(e) => match effects.get(&e.value) {
                Some(h) => Some(*h),
                None => {
                    // A declared but broken effect is reported where it is declared.
                    if !manifest.effects.iter().any(|d| d.name.value == e.value) {
                        self.unknown(
                            e,
                            Referent::Effect,
                            manifest.effects.iter().map(|d| d.name.value.as_str()),
                        );
                    }
                    effect_ok = false;
                    None
                }
            },
        };
        let written = t.hints.clone().unwrap_or_default();
        let at = t.hints.as_ref().map_or(name.span, |h| h.span);
        let hints = effect_ok
            .then(|| self.complete_hints(&written, base, at, &format!("the tool `{}`", name.value)))
            .flatten()
            .unwrap_or(Hints {
                read_only: false,
                destructive: true,
                idempotent: false,
                open_world: true,
            });
        let omitted = |h: &str| hints.read_only && omit.iter().any(|o| o == h);
        let published_hints = PublishedHints {
            read_only: Some(hints.read_only),
            destructive: (!omitted("destructive")).then_some(hints.destructive),
            idempotent: (!omitted("idempotent")).then_some(hints.idempotent),
            open_world: Some(hints.open_world),
        };

        let type_prefix = ident::type_prefix(&name.value);
        let index: HashMap<String, usize> = contract
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let parameters = self.fields(
            &t.parameters,
            &format!("{type_prefix}Args"),
            Place::Input,
            true,
            &index,
            &manifest.types,
        );
        let output = match &t.output {
            None | Some(raw::Output::Text) => OutputDef::Text,
            Some(raw::Output::Object(s)) => {
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
                        &index,
                        &manifest.types,
                    ),
                }
            }
        };

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

        let mut meta = Map::new();
        for (key, value) in &t.meta {
            if self.meta_key(key) {
                meta.insert(key.value.clone(), value.clone());
            }
        }

        Some(ToolDef {
            name: name.value.clone(),
            title,
            description,
            published_description,
            sentences,
            hints,
            published_hints,
            why: t
                .why
                .as_ref()
                .map(|w| w.value.trim().to_owned())
                .filter(|w| !w.is_empty()),
            parameters,
            output,
            errors,
            meta,
            artifacts: None,
            encapsulates: Vec::new(),
            groups: Vec::new(),
            method: ident::snake(&name.value),
            constant: ident::shouty(&name.value),
            type_prefix,
            span: name.span,
        })
    }

    /// Checks a `_meta` key's grammar and prefix; false when it is refused.
    fn meta_key(&mut self, key: &Spanned<String>) -> bool {
        let Err(problem) = meta_key::check(&key.value) else {
            return true;
        };
        let code = match problem {
            meta_key::Problem::Reserved => &codes::RESERVED_META_KEY,
            meta_key::Problem::Syntax => &codes::BAD_META_KEY,
        };
        self.report(
            code,
            format!("`{}` is not a valid `_meta` key", key.value),
            key.span,
        );
        false
    }

    fn unknown<'a>(
        &mut self,
        name: &Spanned<String>,
        referent: Referent,
        known: impl Iterator<Item = &'a str>,
    ) {
        let what = referent.noun();
        let known: Vec<&str> = known.collect();
        let help = match suggest(&name.value, &known) {
            Some(s) => format!("did you mean `{s}`?"),
            None if known.is_empty() => format!("no {what} is declared in the manifest"),
            None => format!("the declared names are: {}", known.join(", ")),
        };
        self.diags.push(
            Diagnostic::new(
                referent.unknown(),
                format!("unknown {what} `{}`", name.value),
                name.span,
            )
            .label(format!("no such {what}"))
            .help(help),
        );
    }

    /// Resolves the properties of one object.
    fn fields(
        &mut self,
        props: &[raw::Property],
        owner: &str,
        place: Place,
        top_level: bool,
        index: &HashMap<String, usize>,
        types: &[raw::TypeDef],
    ) -> Vec<Field> {
        let mut idents: HashMap<String, Span> = HashMap::new();
        let mut out = Vec::new();
        for p in props {
            let name = &p.name;
            let valid = name
                .value
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && name
                    .value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                self.error(
                    &codes::BAD_NAME,
                    format!("`{}` is not a valid property name", name.value),
                    name.span,
                    "start with a letter; use letters, digits and `_`",
                );
                continue;
            }
            let field_ident = ident::snake(&name.value);
            if let Some(first) = idents.insert(field_ident.clone(), name.span) {
                self.diags.push(
                    Diagnostic::new(
                        &codes::IDENT_COLLISION,
                        format!("`{}` becomes the Rust field `{field_ident}`, which another property already has", name.value),
                        name.span,
                    )
                    .related(first, "this property has the same Rust name")
                    .help("rename one of the properties so their snake_case forms differ"),
                );
                continue;
            }
            if p.schema
                .description
                .as_ref()
                .is_none_or(|d| d.value.trim().is_empty())
            {
                self.report(
                    &codes::MISSING_DESCRIPTION,
                    format!("the property `{}` has no description", name.value),
                    name.span,
                );
            }
            if place == Place::Input && top_level && p.schema.examples.is_empty() {
                self.report(
                    &codes::MISSING_EXAMPLE,
                    format!("the parameter `{}` has no example", name.value),
                    name.span,
                );
            }
            // One rule everywhere: a property is required unless it says `required: false`
            // or has a default.
            let required = match (&p.required, &p.default) {
                (Some(r), Some(d)) if r.value => {
                    self.report(
                        &codes::REQUIRED_WITH_DEFAULT,
                        format!("`{}` is required and has a default", name.value),
                        d.span,
                    );
                    true
                }
                (Some(r), _) => r.value,
                (None, default) => default.is_none(),
            };
            let default = match &p.default {
                None => None,
                Some(d) if place == Place::Output => {
                    self.report(
                        &codes::DEFAULT_ON_OUTPUT,
                        "an output field cannot have a default",
                        d.span,
                    );
                    None
                }
                Some(d) if d.value.is_null() => {
                    self.report(
                        &codes::NULL_DEFAULT,
                        format!("the default of `{}` is null", name.value),
                        d.span,
                    );
                    None
                }
                Some(d) => Some(d.value.clone()),
            };
            let rust_name = format!("{owner}{}", ident::pascal(&name.value));
            let Some(schema) = self.schema(&p.schema, &rust_name, place, index, types) else {
                continue;
            };
            if let Some(d) = &p.default
                && default.is_some()
            {
                self.examples.push(PendingExample {
                    schema: schema.clone(),
                    value: d.value.clone(),
                    span: d.span,
                    what: "default",
                });
            }
            if let Some(h) = &p.header
                && place != Place::Input
            {
                self.error(
                    &codes::HEADER_PLACEMENT,
                    format!("`{}` cannot carry `header`", name.value),
                    h.span,
                    if place == Place::Output {
                        "only a tool's parameters are mirrored into HTTP headers, never its output; remove `header:`"
                    } else {
                        "only a tool's parameters are mirrored into HTTP headers; move `header:` to the parameter that uses this type, or remove it"
                    },
                );
            }
            out.push(Field {
                name: name.value.clone(),
                ident: field_ident,
                schema,
                required,
                default,
                header: p.header.clone(),
                span: name.span,
            });
        }
        out
    }

    /// Resolves one schema; `rust_name` names the struct or enum it may need.
    fn schema(
        &mut self,
        s: &raw::Schema,
        rust_name: &str,
        place: Place,
        index: &HashMap<String, usize>,
        types: &[raw::TypeDef],
    ) -> Option<Schema> {
        let Some(ty) = &s.ty else {
            self.error(
                &codes::MISSING_FIELD,
                "this schema is missing the required key `type`",
                s.span,
                "add `type:` — string, integer, number, boolean, array, object, or a shared type's name",
            );
            return None;
        };
        let allowed: &[&str] = match ty.value.as_str() {
            "string" => &["minLength", "maxLength", "pattern", "format", "enum"],
            "integer" | "number" => &["minimum", "maximum"],
            "boolean" => &[],
            "array" => &["items", "minItems", "maxItems"],
            "object" => &["properties"],
            _ => &[],
        };
        let written: [(&str, Option<Span>); 10] = [
            ("minLength", s.min_length.as_ref().map(|v| v.span)),
            ("maxLength", s.max_length.as_ref().map(|v| v.span)),
            ("pattern", s.pattern.as_ref().map(|v| v.span)),
            ("format", s.format.as_ref().map(|v| v.span)),
            ("enum", s.enum_values.as_ref().map(|v| v.span)),
            ("minimum", s.minimum.as_ref().map(|v| v.span)),
            ("maximum", s.maximum.as_ref().map(|v| v.span)),
            ("items", s.items.as_ref().map(|v| v.span)),
            ("minItems", s.min_items.as_ref().map(|v| v.span)),
            ("maxItems", s.max_items.as_ref().map(|v| v.span)),
        ];
        for (key, span) in written {
            if let Some(span) = span
                && !allowed.contains(&key)
            {
                self.error(
                    &codes::KEYWORD_TYPE_MISMATCH,
                    format!("`{key}` does not apply to `type: {}`", ty.value),
                    span,
                    format!("remove `{key}`, or change the type it belongs to"),
                );
            }
        }
        if let Some(props) = &s.properties
            && ty.value != "object"
        {
            let span = props.first().map_or(s.span, |p| p.name.span);
            self.error(
                &codes::KEYWORD_TYPE_MISMATCH,
                format!("`properties` does not apply to `type: {}`", ty.value),
                span,
                "use `type: object` for a value with properties",
            );
        }
        let constraints = Constraints {
            min_length: s.min_length.as_ref().map(|v| v.value),
            max_length: s.max_length.as_ref().map(|v| v.value),
            pattern: s.pattern.as_ref().map(|v| v.value.clone()),
            format: s.format.as_ref().map(|v| v.value.clone()),
            minimum: s.minimum.as_ref().map(|v| v.value.clone()),
            maximum: s.maximum.as_ref().map(|v| v.value.clone()),
            min_items: s.min_items.as_ref().map(|v| v.value),
            max_items: s.max_items.as_ref().map(|v| v.value),
        };
        self.ranges(s);
        if let Some(p) = &s.pattern
            && let Err(e) = jsonschema::validator_for(&serde_json::json!({ "pattern": p.value }))
        {
            self.report(
                &codes::BAD_PATTERN,
                format!("the pattern is not a valid regular expression: {e}"),
                p.span,
            );
        }
        if let Some(f) = &s.format
            && !FORMATS.contains(&f.value.as_str())
        {
            let help = match suggest(&f.value, FORMATS) {
                Some(g) => format!("did you mean `{g}`?"),
                None => format!("the JSON Schema formats are: {}", FORMATS.join(", ")),
            };
            self.error(
                &codes::UNKNOWN_FORMAT,
                format!("unknown format `{}`", f.value),
                f.span,
                help,
            );
        }

        let kind = match ty.value.as_str() {
            "string" => match &s.enum_values {
                None => Kind::String,
                Some(values) => {
                    Kind::Enum(self.enumeration(&values.value, rust_name, values.span)?)
                }
            },
            "integer" => Kind::Integer,
            "number" => Kind::Number,
            "boolean" => Kind::Boolean,
            "array" => {
                let Some(items) = &s.items else {
                    self.error(
                        &codes::MISSING_FIELD,
                        "an array is missing the required key `items`",
                        ty.span,
                        "add `items:` with the items' schema, e.g. `items: {type: string}`",
                    );
                    return None;
                };
                Kind::Array(Box::new(
                    self.schema(items, rust_name, place, index, types)?,
                ))
            }
            "object" => {
                let Some(props) = &s.properties else {
                    self.error(
                        &codes::MISSING_FIELD,
                        "an object is missing the required key `properties`",
                        ty.span,
                        "list its fields under `properties:`",
                    );
                    return None;
                };
                self.claim_type(rust_name.to_owned(), ty.span, "nested");
                // A shared type's fields keep `Shared`, so `header:` on one is refused.
                let fields = self.fields(props, rust_name, place, false, index, types);
                Kind::Object(ObjectDef {
                    rust_name: rust_name.to_owned(),
                    fields,
                })
            }
            other => match index.get(other) {
                Some(&i) => Kind::Named(i),
                None => {
                    let mut known: Vec<&str> =
                        vec!["string", "integer", "number", "boolean", "array", "object"];
                    known.extend(types.iter().map(|t| t.name.value.as_str()));
                    self.unknown(ty, Referent::Type, known.into_iter());
                    return None;
                }
            },
        };
        let mut examples: Vec<Value> = Vec::new();
        for e in &s.examples {
            examples.push(e.value.clone());
        }
        let mut schema = Schema {
            kind,
            description: s.description.as_ref().map(|d| d.value.trim().to_owned()),
            examples,
            constraints,
        };
        for e in &s.examples {
            self.examples.push(PendingExample {
                schema: schema.clone(),
                value: e.value.clone(),
                span: e.span,
                what: "example",
            });
        }
        derive_nested_examples(&mut schema);
        Some(schema)
    }

    fn ranges(&mut self, s: &raw::Schema) {
        let pairs = [
            (
                "minLength",
                "maxLength",
                s.min_length.as_ref().map(|v| v.value as f64),
                s.max_length.as_ref().map(|v| (v.value as f64, v.span)),
            ),
            (
                "minItems",
                "maxItems",
                s.min_items.as_ref().map(|v| v.value as f64),
                s.max_items.as_ref().map(|v| (v.value as f64, v.span)),
            ),
            (
                "minimum",
                "maximum",
                s.minimum.as_ref().and_then(|v| v.value.as_f64()),
                s.maximum
                    .as_ref()
                    .and_then(|v| v.value.as_f64().map(|m| (m, v.span))),
            ),
        ];
        for (lo_name, hi_name, lo, hi) in pairs {
            if let (Some(lo), Some((hi, span))) = (lo, hi)
                && lo > hi
            {
                self.error(
                    &codes::EMPTY_RANGE,
                    format!("`{hi_name}` is below `{lo_name}`, so no value is valid"),
                    span,
                    format!("make `{lo_name}` at most `{hi_name}`"),
                );
            }
        }
    }

    fn enumeration(
        &mut self,
        values: &[Spanned<String>],
        rust_name: &str,
        span: Span,
    ) -> Option<EnumDef> {
        if values.is_empty() {
            self.report(&codes::EMPTY_ENUM, "an enum needs at least one value", span);
            return None;
        }
        let mut variants: HashMap<String, Span> = HashMap::new();
        let mut out = Vec::new();
        for (position, v) in values.iter().enumerate() {
            let variant = ident::variant(&v.value, position + 1);
            if let Some(first) = variants.insert(variant.clone(), v.span) {
                self.diags.push(
                    Diagnostic::new(
                        &codes::IDENT_COLLISION,
                        format!(
                            "`{}` becomes the variant `{variant}`, which another value already has",
                            v.value
                        ),
                        v.span,
                    )
                    .related(first, "this value has the same Rust name")
                    .help("enum values must differ after conversion to PascalCase"),
                );
                continue;
            }
            out.push((v.value.clone(), variant));
        }
        self.claim_type(rust_name.to_owned(), span, "enum");
        Some(EnumDef {
            rust_name: rust_name.to_owned(),
            values: out,
        })
    }

    /// Validates every example and default against its own schema, with an independent
    /// JSON Schema validator rather than our own reading of the keywords.
    fn check_examples(&mut self, contract: &Contract) {
        for pending in std::mem::take(&mut self.examples) {
            // A broken type stands in as a plain string and a recursive one would inline
            // forever; both are reported where they are written, so values using them wait.
            if self
                .broken_types
                .iter()
                .any(|&b| reaches(&contract.types, &pending.schema, b, &mut Vec::new()))
            {
                continue;
            }
            let schema = schema::value_schema(contract, &pending.schema);
            let validator = match jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
            {
                Ok(v) => v,
                Err(_) => continue, // a broken pattern is reported where it is written
            };
            let problems: Vec<String> = validator
                .iter_errors(&pending.value)
                .map(|e| {
                    let at = e.instance_path().to_string();
                    if at.is_empty() {
                        e.to_string()
                    } else {
                        format!("at `{at}`: {e}")
                    }
                })
                .collect();
            if !problems.is_empty() {
                self.error(
                    &codes::INVALID_EXAMPLE,
                    format!(
                        "this {} does not match its own schema: {}",
                        pending.what,
                        problems.join("; ")
                    ),
                    pending.span,
                    format!(
                        "change the {} so it satisfies the type and constraints declared beside it",
                        pending.what
                    ),
                );
            } else if pending.what == "default"
                && let Some((at, ty)) = crate::emit::rust::integer_out_of_range(
                    contract,
                    &pending.schema,
                    &pending.value,
                    "",
                )
            {
                let place = if at.is_empty() {
                    String::new()
                } else {
                    format!(" at `{at}`")
                };
                self.error(
                    &codes::DEFAULT_OUT_OF_RANGE,
                    format!("this default holds an integer{place} that the generated `{ty}` cannot"),
                    pending.span,
                    if ty == "u64" {
                        "the handler receives the default as a `u64`: keep it at most 18446744073709551615"
                    } else {
                        "the handler receives the default as an `i64`: keep it from -9223372036854775808 to 9223372036854775807, or add `minimum: 0` for a `u64`"
                    },
                );
            }
        }
    }
}

/// Gives nested properties that have no examples the values their parent's examples hold.
fn derive_nested_examples(schema: &mut Schema) {
    let Kind::Object(obj) = &mut schema.kind else {
        return;
    };
    for field in &mut obj.fields {
        if field.schema.examples.is_empty() {
            field.schema.examples = schema
                .examples
                .iter()
                .filter_map(|e| e.get(&field.name).cloned())
                .collect();
        }
    }
}

/// Whether `schema` refers to the shared type `target`, directly or through others.
fn reaches(types: &[NamedType], schema: &Schema, target: usize, seen: &mut Vec<usize>) -> bool {
    match &schema.kind {
        Kind::Named(i) if *i == target => true,
        Kind::Named(i) => {
            if seen.contains(i) {
                return false;
            }
            seen.push(*i);
            types
                .get(*i)
                .is_some_and(|t| reaches(types, &t.schema, target, seen))
        }
        Kind::Array(items) => reaches(types, items, target, seen),
        Kind::Object(o) => o
            .fields
            .iter()
            .any(|f| reaches(types, &f.schema, target, seen)),
        _ => false,
    }
}

fn is_snake(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `^[a-z][a-z0-9_]{0,63}$`: inside the spec's name grammar and the conformance suite's 64 chars.
pub(crate) fn is_tool_name(s: &str) -> bool {
    is_snake(s) && s.len() <= 64
}
