//! The manifest's readers: the YAML tree into the types of [`super`], every shape error
//! reported (unknown keys with a suggestion, missing keys, wrong value types).

use super::reader::{Decoder, Fields};
use super::values::{properties, schema, scope_list};
use super::*;
use crate::diagnostic::{Diagnostic, codes};
use crate::source::Spanned;
use crate::yaml::{Node, NodeKind};
use mcp_contract_spec::Hint;

/// Reads a manifest from its YAML tree, reporting every shape error.
pub(crate) fn decode(root: &Node, de: &mut Decoder<'_>) -> Manifest {
    let mut manifest = Manifest::default();
    let Some(mut top) = de.fields(root, "the manifest") else {
        return manifest;
    };
    if let Some(n) = top.require(de, "server") {
        manifest.server = server(n, de);
    }
    if let Some(n) = top.get("hint_policy") {
        manifest.hint_policy = hint_policy(n, de);
    }
    if let Some(n) = top.get("effects") {
        for (name, node) in de.entries(n, "`effects`") {
            if let Some(hints) = hints(node, de, "an effect") {
                manifest.effects.push(Effect { name, hints });
            }
        }
    }
    if let Some(n) = top.get("sentences") {
        for (name, node) in de.entries(n, "`sentences`") {
            if let Some(text) = de.string(node, "a pinned sentence") {
                manifest.sentences.push(Sentence { name, text });
            }
        }
    }
    if let Some(n) = top.get("argument_codes")
        && let Some(mut f) = de.fields(n, "`argument_codes`")
    {
        let mut code = |key: &'static str| {
            f.get(key)
                .and_then(|n| de.string(n, &format!("`argument_codes.{key}`")))
        };
        let codes = ArgumentCodes {
            missing: code("missing"),
            invalid: code("invalid"),
            unknown: code("unknown"),
        };
        f.finish(de);
        manifest.argument_codes = Some(codes);
    }
    if let Some(n) = top.get("errors") {
        for (code, node) in de.entries(n, "`errors`") {
            let Some(mut f) = de.fields(node, "an error") else {
                continue;
            };
            let message = f
                .require(de, "message")
                .and_then(|n| de.string(n, "`message`"));
            let hint = f.get("hint").and_then(|n| de.string(n, "`hint`"));
            let argument = f.get("argument").and_then(|n| de.bool(n, "`argument`"));
            let placeholders = f
                .get("placeholders")
                .map(|n| placeholders(n, de))
                .unwrap_or_default();
            f.finish(de);
            manifest.errors.push(ErrorDef {
                code,
                message,
                hint,
                argument,
                placeholders,
            });
        }
    }
    if let Some(n) = top.get("types") {
        for (name, node) in de.entries(n, "`types`") {
            let Some(mut f) = de.fields(node, "a shared type") else {
                continue;
            };
            let schema = schema(&mut f, de);
            f.finish(de);
            manifest.types.push(TypeDef { name, schema });
        }
    }
    if let Some(n) = top.require(de, "tools") {
        for node in de.seq(n, "`tools`").unwrap_or_default() {
            if let Some(t) = tool(node, de) {
                manifest.tools.push(t);
            }
        }
    }
    manifest.artifacts = top.get("artifacts").and_then(|n| {
        let mut f = de.fields(n, "`artifacts`")?;
        let meta_key = f.get("meta_key").and_then(|n| key_path(n, de));
        let kinds = f
            .get("kinds")
            .map(|n| {
                de.entries(n, "`kinds`")
                    .into_iter()
                    .filter_map(|(k, v)| Some((k, de.string(v, "a kind's description")?)))
                    .collect()
            })
            .unwrap_or_default();
        f.finish(de);
        Some(ArtifactSettings { meta_key, kinds })
    });
    manifest.composition = top.get("composition").and_then(|n| {
        let mut f = de.fields(n, "`composition`")?;
        let meta_key = f.get("meta_key").and_then(|n| key_path(n, de));
        f.finish(de);
        Some(CompositionSettings { meta_key })
    });
    if let Some(n) = top.get("groups") {
        for (name, node) in de.entries(n, "`groups`") {
            let Some(mut f) = de.fields(node, "a group") else {
                continue;
            };
            let description = f
                .require(de, "description")
                .and_then(|n| de.string(n, "`description`"));
            let scopes = f.get("scopes").map(|n| scope_list(n, de));
            f.finish(de);
            manifest.groups.push(Group {
                name,
                description,
                scopes,
            });
        }
    }
    if let Some(n) = top.get("resources") {
        for node in de.seq(n, "`resources`").unwrap_or_default() {
            if let Some(r) = resource(node, de) {
                manifest.resources.push(r);
            }
        }
    }
    if let Some(n) = top.get("prompts") {
        for node in de.seq(n, "`prompts`").unwrap_or_default() {
            if let Some(p) = super::prompt::prompt(node, de) {
                manifest.prompts.push(p);
            }
        }
    }
    if let Some(n) = top.get("auth") {
        manifest.auth = auth(n, de);
    }
    top.finish(de);
    manifest
}

/// `auth: {resource, authorization_servers, scopes}`.
fn auth(node: &Node, de: &mut Decoder<'_>) -> Option<Auth> {
    let mut f = de.fields(node, "`auth`")?;
    let resource = f.get("resource").and_then(|n| de.string(n, "`resource`"));
    let authorization_servers = f
        .get("authorization_servers")
        .map(|n| de.strings(n, "an authorization server"))
        .unwrap_or_default();
    let scopes = f.require(de, "scopes").map(|n| {
        let scopes = de
            .entries(n, "`scopes`")
            .into_iter()
            .filter_map(|(name, node)| {
                let mut s = de.fields(node, "a scope")?;
                let description = s
                    .require(de, "description")
                    .and_then(|n| de.string(n, "`description`"));
                s.finish(de);
                Some(Scope { name, description })
            })
            .collect();
        Spanned::new(scopes, n.span)
    });
    f.finish(de);
    Some(Auth {
        span: node.span,
        resource,
        authorization_servers,
        scopes,
    })
}

fn server(node: &Node, de: &mut Decoder<'_>) -> Option<Server> {
    let mut f = de.fields(node, "`server`")?;
    let name = f
        .require(de, "name")
        .and_then(|n| de.string(n, "the server name"));
    let title = f
        .get("title")
        .and_then(|n| de.string(n, "the server title"));
    let version = f
        .get("version")
        .and_then(|n| de.text(n, "the server version"));
    let instructions = f
        .get("instructions")
        .and_then(|n| de.string(n, "`instructions`"));
    let cache = f.get("cache").and_then(|n| {
        let mut c = de.fields(n, "`cache`")?;
        let ttl_ms = c
            .require(de, "ttl_ms")
            .and_then(|n| de.count(n, "`ttl_ms`"));
        let scope = c.require(de, "scope").and_then(|n| de.string(n, "`scope`"));
        c.finish(de);
        Some(Cache { ttl_ms, scope })
    });
    let distribution = f.get("distribution").and_then(|n| distribution(n, de));
    let logging = f.get("logging").and_then(|n| de.bool(n, "`logging`"));
    let list_changed = f
        .get("list_changed")
        .and_then(|n| de.bool(n, "`list_changed`"));
    let icons = f.get("icons").map(|n| icons(n, de)).unwrap_or_default();
    let shared_types = f
        .get("shared_types")
        .and_then(|n| de.string(n, "`shared_types`"));
    let profiles = f
        .get("profiles")
        .map(|n| de.strings(n, "a profile"))
        .unwrap_or_default();
    f.finish(de);
    Some(Server {
        name,
        title,
        version,
        instructions,
        cache,
        distribution,
        logging,
        list_changed,
        icons,
        shared_types,
        profiles,
    })
}

fn distribution(node: &Node, de: &mut Decoder<'_>) -> Option<Distribution> {
    let mut f = de.fields(node, "`distribution`")?;
    let mut text = |f: &mut Fields<'_>, key: &'static str, required: bool| {
        let node = if required {
            f.require(de, key)
        } else {
            f.get(key)
        };
        node.and_then(|n| de.string(n, &format!("`{key}`")))
    };
    let d = Distribution {
        registry_name: text(&mut f, "registry_name", true),
        description: text(&mut f, "description", true),
        author: text(&mut f, "author", true),
        repository: text(&mut f, "repository", false),
        package: text(&mut f, "package", false),
        remote: text(&mut f, "remote", false),
    };
    f.finish(de);
    Some(d)
}

fn hint_policy(node: &Node, de: &mut Decoder<'_>) -> Option<Spanned<HintPolicy>> {
    match &node.kind {
        NodeKind::Str(s) if s == "all" => Some(Spanned::new(HintPolicy::All, node.span)),
        NodeKind::Str(s) if s == "minimal" => Some(Spanned::new(
            HintPolicy::OmitOnReadOnly(
                Hint::ALL
                    .into_iter()
                    .filter(|h| h.omissible())
                    .map(|h| Spanned::new(h, node.span))
                    .collect(),
            ),
            node.span,
        )),
        NodeKind::Map(_) => {
            let mut f = de.fields(node, "`hint_policy`")?;
            let omit = f
                .require(de, "omit_on_read_only")
                .map(|n| de.strings(n, "a hint name"));
            f.finish(de);
            let omit = omit?
                .into_iter()
                .filter_map(|name| match Hint::from_key(&name.value) {
                    Some(hint) => Some(Spanned::new(hint, name.span)),
                    None => {
                        de.diags.push(cannot_omit(&name));
                        None
                    }
                })
                .collect();
            Some(Spanned::new(HintPolicy::OmitOnReadOnly(omit), node.span))
        }
        _ => {
            de.diags.push(
                Diagnostic::new(
                    &codes::UNKNOWN_HINT_POLICY,
                    "unknown hint policy",
                    node.span,
                )
                .label("not a hint policy"),
            );
            None
        }
    }
}

/// `bad-hint-policy`: a name in `omit_on_read_only` that no policy may leave out, whether it
/// is no hint at all (reported here) or one with meaning on a read-only tool (reported by
/// the validator).
pub(crate) fn cannot_omit<T: std::fmt::Display>(name: &Spanned<T>) -> Diagnostic {
    Diagnostic::new(
        &codes::BAD_HINT_POLICY,
        format!("`{}` cannot be left out on read-only tools", name.value),
        name.span,
    )
}

fn hints(node: &Node, de: &mut Decoder<'_>, what: &'static str) -> Option<Hints> {
    let mut f = de.fields(node, what)?;
    let values = Hint::ALL.map(|h| f.get(h.key()).and_then(|n| de.bool(n, "a hint")));
    f.finish(de);
    Some(Hints {
        span: node.span,
        values,
    })
}

fn tool(node: &Node, de: &mut Decoder<'_>) -> Option<Tool> {
    let mut f = de.fields(node, "a tool")?;
    let name = f
        .require(de, "name")
        .and_then(|n| de.string(n, "the tool name"));
    let title = f
        .require(de, "title")
        .and_then(|n| de.string(n, "the tool title"));
    let description = f
        .require(de, "description")
        .and_then(|n| de.string(n, "the description"));
    let sentences = f
        .get("sentences")
        .map(|n| de.strings(n, "a sentence name"))
        .unwrap_or_default();
    let effect = f.get("effect").and_then(|n| de.string(n, "the effect"));
    let hints = f.get("hints").and_then(|n| hints(n, de, "`hints`"));
    let why = f.get("why").and_then(|n| de.string(n, "`why`"));
    let parameters = f
        .get("parameters")
        .map(|n| properties(n, de, "`parameters`"))
        .unwrap_or_default();
    let input_schema = f.get("input_schema").and_then(|n| {
        let key = f.keys().span("input_schema").unwrap_or(n.span);
        super::values::document(n, key, de)
    });
    let output = f.require(de, "output").and_then(|n| output(n, de));
    let errors = f
        .get("errors")
        .map(|n| de.strings(n, "an error code"))
        .unwrap_or_default();
    let groups = f
        .get("groups")
        .map(|n| de.strings(n, "a group name"))
        .unwrap_or_default();
    let artifacts = f.get("artifacts").and_then(|n| tool_artifacts(n, de));
    let complete_operation = f
        .get("complete_operation")
        .map(|n| Spanned::new(de.strings(n, "a tool name"), n.span));
    let meta = f
        .get("_meta")
        .map(|n| {
            de.entries(n, "`_meta`")
                .into_iter()
                .map(|(k, v)| (k, v.to_json()))
                .collect()
        })
        .unwrap_or_default();
    let icons = f.get("icons").map(|n| icons(n, de)).unwrap_or_default();
    let scopes = f.get("scopes").map(|n| scope_list(n, de));
    let asks = f
        .get("asks")
        .map(|n| super::asks::asks(n, de))
        .unwrap_or_default();
    let task = f.get("task").and_then(|n| de.string(n, "`task`"));
    let app = f.get("app").and_then(|n| super::apps::tool_app(n, de));
    let lifecycle = lifecycle(&mut f, de);
    let keys = f.keys();
    f.finish(de);
    Some(Tool {
        keys,
        span: node.span,
        name,
        title,
        description,
        sentences,
        effect,
        hints,
        why,
        parameters,
        input_schema,
        output,
        errors,
        meta,
        groups,
        artifacts,
        complete_operation,
        icons,
        scopes,
        asks,
        task,
        lifecycle,
        app,
    })
}

/// `meta_key:` one `_meta` key, or a list of keys naming nested objects; `None` (reported)
/// when it is neither or holds a non-string, so validation does not judge a path cut short.
fn key_path(node: &Node, de: &mut Decoder<'_>) -> Option<Spanned<Vec<Spanned<String>>>> {
    let keys = de.strings(node, "`meta_key`");
    let whole = match &node.kind {
        NodeKind::Str(_) => true,
        NodeKind::Seq(items) => items.len() == keys.len(),
        _ => false,
    };
    whole.then(|| Spanned::new(keys, node.span))
}

fn tool_artifacts(node: &Node, de: &mut Decoder<'_>) -> Option<ToolArtifacts> {
    let mut f = de.fields(node, "`artifacts`")?;
    let mut artifacts = ToolArtifacts {
        span: node.span,
        ..ToolArtifacts::default()
    };
    if let Some(n) = f.get("produces") {
        for item in de.seq(n, "`produces`").unwrap_or_default() {
            let Some(mut p) = de.fields(item, "a produced artifact") else {
                continue;
            };
            let kind = p.require(de, "kind").and_then(|n| de.string(n, "`kind`"));
            let pointer = p
                .require(de, "pointer")
                .and_then(|n| de.string(n, "`pointer`"));
            let mode = p.get("mode").and_then(|n| de.string(n, "`mode`"));
            let encoding = p.get("encoding").and_then(|n| de.string(n, "`encoding`"));
            p.finish(de);
            artifacts.produces.push(Produced {
                kind,
                pointer,
                mode,
                encoding,
            });
        }
    }
    if let Some(n) = f.get("consumes") {
        for item in de.seq(n, "`consumes`").unwrap_or_default() {
            let Some(mut c) = de.fields(item, "a consumed artifact") else {
                continue;
            };
            let kind = c.require(de, "kind").and_then(|n| de.string(n, "`kind`"));
            let pointer = c
                .require(de, "pointer")
                .and_then(|n| de.string(n, "`pointer`"));
            let required = c.get("required").and_then(|n| de.bool(n, "`required`"));
            c.finish(de);
            artifacts.consumes.push(Consumed {
                kind,
                pointer,
                required,
            });
        }
    }
    f.finish(de);
    Some(artifacts)
}

fn resource(node: &Node, de: &mut Decoder<'_>) -> Option<Resource> {
    let mut f = de.fields(node, "a resource")?;
    let name = f
        .require(de, "name")
        .and_then(|n| de.string(n, "the resource name"));
    let uri = f.get("uri").and_then(|n| de.string(n, "`uri`"));
    let uri_template = f
        .get("uri_template")
        .and_then(|n| de.string(n, "`uri_template`"));
    let title = f
        .require(de, "title")
        .and_then(|n| de.string(n, "the resource title"));
    let description = f
        .require(de, "description")
        .and_then(|n| de.string(n, "the description"));
    let mime_type = f
        .require(de, "mime_type")
        .and_then(|n| de.string(n, "`mime_type`"));
    let subscribe = f.get("subscribe").and_then(|n| de.bool(n, "`subscribe`"));
    let completion = f
        .get("completion")
        .map(|n| super::prompt::variable_completions(n, de))
        .unwrap_or_default();
    let icons = f.get("icons").map(|n| icons(n, de)).unwrap_or_default();
    let scopes = f.get("scopes").map(|n| scope_list(n, de));
    let asks = f
        .get("asks")
        .map(|n| super::asks::asks(n, de))
        .unwrap_or_default();
    let app = f.get("app").and_then(|n| super::apps::resource_app(n, de));
    let lifecycle = lifecycle(&mut f, de);
    let keys = f.keys();
    f.finish(de);
    Some(Resource {
        keys,
        lifecycle,
        app,
        asks,
        completion,
        span: node.span,
        name,
        uri,
        uri_template,
        title,
        description,
        mime_type,
        subscribe,
        icons,
        scopes,
    })
}

fn output(node: &Node, de: &mut Decoder<'_>) -> Option<Output> {
    if let NodeKind::Str(s) = &node.kind {
        if s == "text" {
            return Some(Output::Text);
        }
        de.diags.push(Diagnostic::new(
            &codes::UNKNOWN_OUTPUT,
            format!("unknown output `{s}`"),
            node.span,
        ));
        return None;
    }
    let mut f = de.fields(node, "`output`")?;
    // The root of an output is always an object and validation reads only these three keys;
    // any other schema key (`example`, `minLength`, …) would be dropped without a word, so it
    // is left unread and reported as unknown.
    let mut s = Schema {
        span: f.span,
        ty: f.get("type").and_then(|n| de.string(n, "`type`")),
        description: f
            .get("description")
            .and_then(|n| de.string(n, "`description`")),
        properties: f
            .get("properties")
            .map(|n| properties(n, de, "`properties`")),
        ..Schema::default()
    };
    s.document = f.get("json_schema").and_then(|n| {
        let key = f.keys().span("json_schema").unwrap_or(n.span);
        super::values::document(n, key, de)
    });
    let content = f.get("content").map(|n| content(n, de));
    f.finish(de);
    // Without `content`, the fields are the output; with it, a `type` or `description` still
    // describes a structured output, so it needs its fields too.
    if s.properties.is_none()
        && s.document.is_none()
        && (content.is_none() || s.ty.is_some() || s.description.is_some())
    {
        de.diags.push(
            Diagnostic::new(
                &codes::MISSING_FIELD,
                "`output` is missing the required key `properties`",
                node.span,
            )
            .help("list the output's fields under `properties:`, or write `output: text`"),
        );
    }
    let structure =
        (s.properties.is_some() || s.document.is_some() || content.is_none()).then(|| {
            if s.ty.is_none() {
                s.ty = Some(Spanned::new("object".into(), node.span));
            }
            Box::new(s)
        });
    Some(Output::Declared { structure, content })
}

/// `output.content`: the content blocks, each a mapping with `kind` and perhaps `mime_types`.
fn content(node: &Node, de: &mut Decoder<'_>) -> Spanned<Vec<ContentBlock>> {
    let blocks = de
        .seq(node, "`content`")
        .unwrap_or_default()
        .iter()
        .filter_map(|n| {
            let mut f = de.fields(n, "a content block")?;
            let kind = f
                .require(de, "kind")
                .and_then(|k| de.string(k, "the content kind"));
            let mime_types = f
                .get("mime_types")
                .map(|m| Spanned::new(de.strings(m, "a MIME type"), m.span));
            f.finish(de);
            Some(ContentBlock {
                span: n.span,
                kind,
                mime_types,
            })
        })
        .collect();
    Spanned::new(blocks, node.span)
}

/// An error's `placeholders:`: each a type's name, or a mapping of `type` and the bounds.
fn placeholders(node: &Node, de: &mut Decoder<'_>) -> Vec<Placeholder> {
    let mut out = Vec::new();
    for (name, node) in de.entries(node, "`placeholders`") {
        let placeholder = match &node.kind {
            NodeKind::Str(_) => Placeholder {
                name,
                ty: de.string(node, "a placeholder's type"),
                minimum: None,
                maximum: None,
            },
            _ => {
                let Some(mut f) = de.fields(node, "a placeholder") else {
                    continue;
                };
                let ty = f.require(de, "type").and_then(|n| de.string(n, "`type`"));
                let minimum = f.get("minimum").and_then(|n| de.number(n, "`minimum`"));
                let maximum = f.get("maximum").and_then(|n| de.number(n, "`maximum`"));
                f.finish(de);
                Placeholder {
                    name,
                    ty,
                    minimum,
                    maximum,
                }
            }
        };
        out.push(placeholder);
    }
    out
}
