//! Resources: a fixed URI or a level-1 URI template, each with a typed handler.

use std::collections::HashMap;

use mcp_contract_spec::Format;
use mcp_contract_spec::uri_template::{self, UriTemplate};

use super::Validator;
use super::names::{NameTable, is_tool_name};
use super::schema::Scope;
use crate::diagnostic::{Diagnostic, codes};
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::{Span, Spanned};

/// What resources claim among themselves.
#[derive(Default)]
struct Claims {
    names: NameTable,
    uris: NameTable,
    /// The resources' handler methods, which must differ from each other too.
    methods: NameTable,
}

impl Validator<'_> {
    /// Checks every resource; `methods` holds the tools' handler methods, which a resource's
    /// method must not repeat.
    pub(super) fn resources(
        &mut self,
        manifest: &Manifest,
        methods: &NameTable,
        scope: &Scope<'_>,
    ) -> Vec<ResourceDef> {
        let mut claims = Claims::default();
        manifest
            .resources
            .iter()
            .filter_map(|r| self.resource(r, methods, scope, &mut claims))
            .collect()
    }

    /// One resource. Its name, its address and its text are independent, so each is checked
    /// whatever the others hold; only what derives from a refused one is skipped.
    fn resource(
        &mut self,
        r: &raw::Resource,
        tool_methods: &NameTable,
        scope: &Scope<'_>,
        claims: &mut Claims,
    ) -> Option<ResourceDef> {
        let name = r.name.as_ref()?;
        let questions = self.questions(&r.asks, scope);
        let method = self.resource_method(name, tool_methods, claims);
        let uri = self.resource_uri(r, name, &mut claims.uris);
        let [title, description] =
            [("title", &r.title), ("description", &r.description)].map(|(what, field)| {
                self.text(
                    field,
                    format!("the resource's {what} is empty"),
                    format!("write the {what} a client lists"),
                )
            });
        let mime_type = self.mime_type(r);
        let icons = self.icons(&r.icons);
        let app = self.resource_app(r, uri.as_ref(), &mime_type);
        let (method, uri, app) = (method?, uri?, app.ok()?);
        let params_type = format!("{}Params", ident::type_prefix(&name.value));
        if matches!(uri, ResourceUri::Template { .. }) {
            self.claim_type(params_type.clone(), name.span, "resource parameters");
        }
        Some(ResourceDef {
            name: name.value.clone(),
            uri,
            title,
            description,
            mime_type,
            method,
            params_type,
            subscribe: r.subscribe.as_ref().is_some_and(|s| s.value),
            completions: Vec::new(),
            span: name.span,
            icons,
            scopes: Vec::new(),
            questions,
            lifecycle: Lifecycle::default(),
            app,
            keys: r.keys.all(),
        })
    }

    /// The handler method a resource's name gives, once the name is valid and its own.
    fn resource_method(
        &mut self,
        name: &Spanned<String>,
        tool_methods: &NameTable,
        claims: &mut Claims,
    ) -> Option<String> {
        if !is_tool_name(&name.value) {
            self.report(
                &codes::BAD_RESOURCE_NAME,
                format!("`{}` is not a valid resource name", name.value),
                name.span,
            );
            return None;
        }
        // Every named resource counts, even one refused for its URI.
        if let Err(first) = claims.names.claim(&name.value, name.span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_RESOURCE,
                    format!("the resource name `{}` is used twice", name.value),
                    name.span,
                )
                .related(first, "first used here")
                .help("give each resource a name of its own"),
            );
            return None;
        }
        // Snake-cased whole, so `self_` gives `self_resource`, never a doubled `_`.
        let method = ident::snake(&format!("{}_resource", name.value));
        if let Some(tool) = tool_methods.get(&method) {
            self.collision(
                format!(
                    "the resource `{}` becomes the Rust method `{method}`, which a tool already has",
                    name.value
                ),
                name.span,
                Some((tool, "this tool has the same Rust name")),
                "rename the resource or the tool",
            );
            return None;
        }
        if let Err(first) = claims.methods.claim(&method, name.span) {
            self.collision(
                format!(
                    "the resource `{}` becomes the Rust method `{method}`, which another resource already has",
                    name.value
                ),
                name.span,
                Some((first, "this resource has the same Rust name")),
                "rename one of the resources so their snake_case forms differ",
            );
            return None;
        }
        Some(method)
    }

    /// The resource's fixed URI or template, once it is valid and no other resource's.
    fn resource_uri(
        &mut self,
        r: &raw::Resource,
        name: &Spanned<String>,
        uris: &mut NameTable,
    ) -> Option<ResourceUri> {
        let (uri, span) = self.address(r, name)?;
        if let ResourceUri::Template { variables, .. } = &uri {
            // Each variable becomes a field of the parameters struct.
            let mut fields: HashMap<String, &str> = HashMap::new();
            let clash = variables.iter().find_map(|v| {
                fields
                    .insert(ident::snake(v), v.as_str())
                    .map(|first| (first, v.as_str()))
            });
            if let Some((first, second)) = clash {
                self.collision(
                    format!(
                        "`{{{first}}}` and `{{{second}}}` become the same Rust field `{}`",
                        ident::snake(second)
                    ),
                    span,
                    None,
                    "rename one of the variables so their snake_case forms differ",
                );
                return None;
            }
        }
        if let Err(first) = uris.claim(uri.text(), span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_RESOURCE,
                    format!("`{}` is declared twice", uri.text()),
                    span,
                )
                .related(first, "first declared here")
                .help("each URI or template names one resource"),
            );
            return None;
        }
        Some(uri)
    }

    /// The trimmed MIME type, reported when it is not `type/subtype`.
    fn mime_type(&mut self, r: &raw::Resource) -> String {
        let Some(m) = &r.mime_type else {
            return String::new();
        };
        let mime_type = m.value.trim().to_owned();
        if !is_mime_type(&mime_type) {
            self.report(
                &codes::BAD_MIME_TYPE,
                format!("`{}` is not a MIME type", m.value),
                m.span,
            );
        }
        mime_type
    }

    /// `uri` or `uri_template`, exactly one of them, well formed; with where it is written.
    fn address(
        &mut self,
        r: &raw::Resource,
        name: &Spanned<String>,
    ) -> Option<(ResourceUri, Span)> {
        match (&r.uri, &r.uri_template) {
            (Some(u), None) => match fixed_uri(&u.value) {
                Ok(()) => Some((ResourceUri::Fixed(u.value.clone()), u.span)),
                Err(problem) => {
                    self.report(
                        &codes::BAD_URI,
                        format!("`{}` is not a resource URI: {problem}", u.value),
                        u.span,
                    );
                    None
                }
            },
            (None, Some(t)) => match template(&t.value) {
                Ok(variables) => Some((
                    ResourceUri::Template {
                        template: t.value.clone(),
                        variables,
                    },
                    t.span,
                )),
                Err(problem) => {
                    self.report(
                        &codes::BAD_URI_TEMPLATE,
                        format!("`{}` is not a level-1 URI template: {problem}", t.value),
                        t.span,
                    );
                    None
                }
            },
            (Some(_), Some(t)) => {
                self.error(
                    &codes::RESOURCE_URI,
                    "a resource has `uri` or `uri_template`, not both",
                    t.span,
                    "keep `uri` for one fixed resource, `uri_template` for a family of them",
                );
                None
            }
            (None, None) => {
                self.error(
                    &codes::RESOURCE_URI,
                    format!(
                        "the resource `{}` has no `uri` or `uri_template`",
                        name.value
                    ),
                    r.span,
                    "add `uri:` for one fixed resource, or `uri_template:` for a family of them",
                );
                None
            }
        }
    }
}

/// An absolute URI, as the official schemas' `format: uri` (RFC 3986) takes it: a scheme,
/// then ASCII characters a URI may hold, `%` only as an escape, and no template braces.
pub(super) fn fixed_uri(uri: &str) -> Result<(), String> {
    scheme_and_characters(uri)?;
    if !Format::Uri.accepts(uri) {
        return Err("it is not an RFC 3986 URI".into());
    }
    Ok(())
}

/// The checks that name the problem: the scheme, then each character.
fn scheme_and_characters(uri: &str) -> Result<(), String> {
    uri_template::scheme(uri).map_err(|p| p.to_string())?;
    match uri
        .chars()
        .find(|c| not_in_uri(*c) || matches!(c, '{' | '}'))
    {
        Some(c) => Err(format!("{c:?} cannot appear in a URI")),
        None => ascii_and_escapes(uri),
    }
}

/// RFC 3986 holds ASCII only (a client would escape anything else, and the URI it reads
/// would no longer be the one declared), and `%` starts a two-hex-digit escape.
fn ascii_and_escapes(text: &str) -> Result<(), String> {
    if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
        let mut utf8 = [0; 4];
        let escaped: String = c
            .encode_utf8(&mut utf8)
            .bytes()
            .map(|b| format!("%{b:02X}"))
            .collect();
        return Err(format!(
            "{c:?} cannot appear in a URI; percent-encode it as `{escaped}`"
        ));
    }
    for (i, _) in text.match_indices('%') {
        let digits = text.as_bytes().get(i + 1..i + 3);
        if !digits.is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit)) {
            let written = &text[i..text.len().min(i + 3)];
            return Err(format!(
                "`{written}` is not a percent-escape; write `%25` for a `%` itself"
            ));
        }
    }
    Ok(())
}

fn not_in_uri(c: char) -> bool {
    c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '|')
}

/// The variables of a level-1 template (RFC 6570 simple expansion), each matching one path
/// segment: the grammar of [`UriTemplate`], which the runtime matches reads with, and URI
/// characters only, since a client reads what the template expands to as a resource URI.
pub(crate) fn template(template: &str) -> Result<Vec<String>, String> {
    if let Some(c) = template.chars().find(|c| not_in_uri(*c)) {
        return Err(format!("{c:?} cannot appear in a URI"));
    }
    ascii_and_escapes(template)?;
    let parsed = UriTemplate::parse(template).map_err(|p| p.to_string())?;
    let variables: Vec<String> = parsed.variables().map(str::to_owned).collect();
    // The official schemas' `format: uri-template` (RFC 6570) follows: its literals admit
    // every URI character, and the variables above are a narrower grammar than its own.
    let mut expanded = template.to_owned();
    for v in &variables {
        expanded = expanded.replace(&format!("{{{v}}}"), "x");
    }
    if !Format::Uri.accepts(&expanded) {
        return Err("it does not expand to an RFC 3986 URI".into());
    }
    Ok(variables)
}

pub(super) fn is_mime_type(s: &str) -> bool {
    let token = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
    };
    let essence = s.split(';').next().unwrap_or_default().trim();
    essence
        .split_once('/')
        .is_some_and(|(t, sub)| token(t) && token(sub))
}
