//! The editor schema of `tools.yaml` (`src/editor_schema`) against the decoder and validator it
//! describes.
//!
//! The schema is a second description of the format, so nothing here trusts it: each test
//! feeds the same manifests to the loader and to the schema and fails where their verdicts
//! differ. The loader is asked only through manifests and its diagnostics, never instrumented,
//! so a key added to `manifest.rs` alone or to `format.rs` alone fails here.
//!
//! Manifests are edited as JSON and loaded as such: JSON is YAML, and every test starts from
//! [`BASE`], which both sides accept.

use std::collections::BTreeSet;
use std::path::Path;

use super::HINT_KEYS;
use crate::diagnostic::Diagnostics;
use crate::editor_schema::{self as format, editor_schema as manifest_schema};
use crate::{Diagnostic, Source, load, write as output, yaml};
use serde_json::{Map, Value, json};

/// A valid manifest holding one of each object the format has, each at a place
/// [`OBJECTS`] names.
const BASE: &str = r#"
server:
  name: demo
  title: Demo
  version: 1.0.0
  instructions: Call ping first.
  cache: {ttl_ms: 1000, scope: public}
  logging: true
  list_changed: true
  shared_types: defs
  profiles: [gemini, strict]
  distribution:
    registry_name: io.github.demo/demo
    description: A demo.
    author: Demo Team
    repository: https://github.com/demo/demo
    package: demo-server
    remote: https://demo.example.com/mcp
  icons:
    - {src: https://demo.example.com/icon.svg, mime_type: image/svg+xml, sizes: [any], theme: light}
hint_policy: {omit_on_read_only: [idempotent]}
argument_codes: {missing: argument_absent, invalid: argument_malformed, unknown: argument_extra}
effects:
  read: {read_only: true, destructive: false, idempotent: true, open_world: false}
sentences:
  no_side_effects: It changes nothing.
errors:
  not_found:
    message: "There is no `{id}`."
    hint: Call ping.
types:
  Point:
    type: object
    description: A point.
    properties:
      x: {type: number, description: Horizontal position.}
tools:
  - name: ping
    title: Ping
    description: Answers pong.
    sentences: [no_side_effects]
    effect: read
    hints: {open_world: false}
    parameters:
      tags:
        type: array
        description: Free-form tags.
        items: {type: string, minLength: 1}
        example: [a]
      window:
        type: object
        description: A range of lines.
        required: false
        properties:
          start: {type: integer, description: First line., minimum: 1}
        example: {start: 1}
      count:
        type: integer
        description: A count.
        default: 3
        example: 7
      when:
        type: string
        format: date
        description: A date.
        required: false
        example: "2026-11-30"
    output:
      description: The reply.
      properties:
        count: {type: integer, description: The count.}
      content:
        - kind: text
        - kind: image
          mime_types: [image/png]
    errors: [not_found]
    _meta:
      com.example/category: testing
    groups: [reads]
    icons: [{src: https://demo.example.com/ping.png, sizes: [48x48]}]
    scopes: [demo:write]
  - name: pong
    title: Pong
    description: Wraps pang.
    effect: read
    parameters:
      dir: {type: string, description: A directory., example: src}
    output:
      properties:
        dir: {type: string, description: The directory.}
    groups: [reads]
    artifacts:
      produces:
        - {kind: demo.item, pointer: /dir, mode: materialize, encoding: json_array}
      consumes:
        - {kind: demo.item, pointer: /dir, required: false}
    complete_operation: [pang]
    asks:
      confirm:
        message: "Use `{dir}`?"
        mode: form
        fields:
          ok: {type: boolean, title: OK, description: Whether to., default: false}
          size: {type: string, enum: [s, m], titles: {s: Small}, required: false}
      sign_in: {message: Sign in., mode: url}
  - name: pang
    title: Pang
    description: Answers.
    effect: read
    output: text
    groups: [reads]
    app: {resource: "ui://demo/board", visibility: [model, app]}
artifacts:
  meta_key: com.example/artifacts
  kinds:
    demo.item: A count.
composition:
  meta_key: com.example/composition
groups:
  reads:
    description: Reads.
    scopes: demo:read
auth:
  resource: https://demo.example.com/mcp
  authorization_servers: [https://auth.example.com]
  scopes:
    demo:read: {description: Read the demo.}
    demo:write: {description: Change the demo.}
resources:
  - name: about
    uri: demo://about
    title: About
    description: What this is.
    mime_type: text/plain
    subscribe: true
    icons: [{src: https://demo.example.com/about.png}]
    scopes: [demo:read]
    asks:
      agree: {message: Show it?, fields: {yes: {type: boolean}}}
  - name: board
    uri: ui://demo/board
    title: Board
    description: The board.
    mime_type: text/html;profile=mcp-app
    app:
      html: "<!DOCTYPE html><title>Board</title>"
      csp:
        connect_domains: [https://api.example.com]
        resource_domains: [https://*.example.com]
        frame_domains: [https://www.example.com]
        base_uri_domains: [https://cdn.example.com]
      permissions: [camera, clipboard_write]
      prefers_border: true
      domain: board.example.com
prompts:
  - name: review
    title: Review
    description: Reviews one item.
    sentences: [no_side_effects]
    icons: [{src: https://demo.example.com/review.png}]
    scopes: [demo:read]
    arguments:
      id: {description: The item., required: true, completion: [a, b]}
    asks:
      depth: {message: "How deep, for `{id}`?", fields: {level: {type: integer}}}
"#;

/// Every object of the format with fixed keys: where [`BASE`] holds one, and what it is.
const OBJECTS: &[(&str, &str)] = &[
    ("", "the manifest"),
    ("/server", "`server`"),
    ("/server/cache", "`cache`"),
    ("/server/distribution", "`distribution`"),
    ("/server/icons/0", "an icon"),
    ("/hint_policy", "`hint_policy`"),
    ("/argument_codes", "`argument_codes`"),
    ("/effects/read", "an effect"),
    ("/errors/not_found", "an error"),
    ("/types/Point", "a shared type"),
    ("/tools/0", "a tool"),
    ("/tools/0/hints", "a tool's `hints`"),
    ("/tools/0/icons/0", "an icon"),
    ("/tools/0/parameters/tags", "a parameter"),
    ("/tools/0/parameters/tags/items", "an array's `items`"),
    (
        "/tools/0/parameters/window/properties/start",
        "a nested property",
    ),
    ("/tools/0/output", "an `output`"),
    ("/tools/0/output/properties/count", "an output field"),
    ("/tools/0/output/content/1", "a content block"),
    ("/tools/1/artifacts", "a tool's `artifacts`"),
    ("/tools/1/asks/confirm", "a question"),
    ("/tools/1/asks/confirm/fields/ok", "a form field"),
    ("/tools/1/artifacts/produces/0", "a produced artifact"),
    ("/tools/1/artifacts/consumes/0", "a consumed artifact"),
    ("/artifacts", "`artifacts`"),
    ("/composition", "`composition`"),
    ("/groups/reads", "a group"),
    ("/auth", "`auth`"),
    ("/auth/scopes/demo:read", "a scope"),
    ("/resources/0", "a resource"),
    ("/resources/0/icons/0", "an icon"),
    ("/resources/0/asks/agree", "a question"),
    ("/resources/0/asks/agree/fields/yes", "a form field"),
    ("/resources/1/app", "a resource's `app`"),
    ("/resources/1/app/csp", "`csp`"),
    ("/tools/2/app", "a tool's `app`"),
    ("/prompts/0", "a prompt"),
    ("/prompts/0/asks/depth", "a question"),
    ("/prompts/0/asks/depth/fields/level", "a form field"),
    ("/prompts/0/icons/0", "an icon"),
    ("/prompts/0/arguments/id", "a prompt argument"),
];

/// A key no real key is close to, so that the decoder's `unknown-key` help lists every key
/// of the mapping instead of suggesting one.
const STRANGER: &str = "qqqqqq";

fn base() -> Value {
    json_of(BASE)
}

/// A YAML manifest as JSON, read with the codegen's own YAML reader.
fn json_of(text: &str) -> Value {
    let source = Source::new("tools.yaml", text);
    let mut diags = Diagnostics::default();
    let root = yaml::parse(&source, &mut diags);
    assert!(!diags.has_errors(), "not YAML: {:?}", diags.into_sorted());
    root.expect("a YAML document").to_json()
}

/// Every diagnostic, errors and warnings, of loading a manifest.
fn diagnostics(manifest: &Value) -> Vec<Diagnostic> {
    match load(&source_of(manifest)) {
        Ok(loaded) => loaded.warnings,
        Err(diagnostics) => diagnostics,
    }
}

fn source_of(manifest: &Value) -> Source {
    Source::new(
        "tools.yaml",
        serde_json::to_string_pretty(manifest).expect("JSON"),
    )
}

fn build_accepts(manifest: &Value) -> bool {
    load(&source_of(manifest)).is_ok()
}

fn listed(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| format!("\n  {}: {}", d.code, d.message))
        .collect()
}

/// The schema as a validator, checking formats too: `pattern` values are `format: regex`.
fn validator() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&manifest_schema())
        .expect("the schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, manifest: &Value) -> String {
    validator
        .iter_errors(manifest)
        .map(|e| format!("\n  at `{}`: {e}", e.instance_path()))
        .collect()
}

/// The mapping at `pointer` in a manifest.
fn object_mut<'m>(manifest: &'m mut Value, pointer: &str) -> &'m mut Map<String, Value> {
    manifest
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no mapping at `{pointer}`"))
}

/// Splits a pointer into its parent's pointer and its last key.
fn parent_and_key(pointer: &str) -> (&str, &str) {
    pointer.rsplit_once('/').expect("a pointer below the root")
}

/// Follows `$ref`s to the schema they name.
fn resolve<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    ref_chain(root, schema)
        .pop()
        .expect("at least the schema itself")
}

/// A schema and each schema its `$ref`s lead to, in order.
fn ref_chain<'s>(root: &'s Value, mut schema: &'s Value) -> Vec<&'s Value> {
    let mut chain = vec![schema];
    while let Some(Value::String(reference)) = schema.get("$ref") {
        let pointer = reference.strip_prefix('#').expect("a local reference");
        schema = root
            .pointer(pointer)
            .unwrap_or_else(|| panic!("`{reference}` resolves"));
        chain.push(schema);
    }
    chain
}

/// The schemas that apply to the mapping at `pointer` in a manifest: the one written for
/// that place, then each its `$ref`s lead to (`Effect` adds `required` beside its reference to
/// `Hints`), ending with the one that lists the mapping's `properties`. Where the value may
/// take several forms (`hint_policy: all`), the form that is a mapping.
fn object_schemas<'s>(root: &'s Value, pointer: &str) -> Vec<&'s Value> {
    let mut chain = mapping_form(root, root);
    for segment in pointer.split('/').skip(1) {
        let schema = chain.last().expect("a schema");
        let next = if segment.parse::<usize>().is_ok() && schema.get("items").is_some() {
            &schema["items"]
        } else {
            schema["properties"]
                .get(segment)
                .unwrap_or(&schema["additionalProperties"])
        };
        chain = mapping_form(root, next);
    }
    chain
}

/// The schema listing the `properties` of the mapping at `pointer`.
fn object_schema<'s>(root: &'s Value, pointer: &str) -> &'s Value {
    object_schemas(root, pointer).pop().expect("a schema")
}

fn mapping_form<'s>(root: &'s Value, schema: &'s Value) -> Vec<&'s Value> {
    let mut chain = ref_chain(root, schema);
    let last = chain.last().expect("a schema");
    if last.get("properties").is_none() && last.get("items").is_none() {
        let branch = last["anyOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|branch| ref_chain(root, branch))
            .find(|branch| branch.last().is_some_and(|b| b.get("properties").is_some()));
        chain.extend(branch.into_iter().flatten());
    }
    chain
}

fn names(values: impl IntoIterator<Item = impl AsRef<str>>) -> BTreeSet<String> {
    values.into_iter().map(|v| v.as_ref().to_owned()).collect()
}

fn property_names(object: &Value) -> BTreeSet<String> {
    names(
        object["properties"]
            .as_object()
            .expect("an object schema")
            .keys(),
    )
}

/// The keys an empty mapping lacks: those `required`, and those a condition requires of it
/// (`then` when its `if` holds for `{}`, `else` when not).
fn required_names(schemas: &[&Value]) -> BTreeSet<String> {
    let conditional = |s: &&Value| -> Option<Value> {
        let holds = jsonschema::is_valid(s.get("if")?, &json!({}));
        s.get(if holds { "then" } else { "else" }).cloned()
    };
    let conditions: Vec<Value> = schemas.iter().filter_map(conditional).collect();
    names(
        schemas
            .iter()
            .copied()
            .chain(&conditions)
            .flat_map(|s| s["required"].as_array().into_iter().flatten())
            .map(|k| k.as_str().expect("a key")),
    )
}

/// The closed list of strings a schema allows, through references and choices.
fn allowed_strings(root: &Value, schema: &Value) -> BTreeSet<String> {
    let schema = resolve(root, schema);
    let mut out = BTreeSet::new();
    if let Some(Value::String(s)) = schema.get("const") {
        out.insert(s.clone());
    }
    for key in ["enum", "anyOf", "oneOf"] {
        for item in schema[key].as_array().into_iter().flatten() {
            match item {
                Value::String(s) => {
                    out.insert(s.clone());
                }
                branch => out.extend(allowed_strings(root, branch)),
            }
        }
    }
    out
}

/// Values of each form a schema allows, one per JSON type it names: only their YAML types
/// matter to the decoder, which is what they test.
fn samples(root: &Value, schema: &Value) -> Vec<Value> {
    let schema = resolve(root, schema);
    if let Some(value) = schema.get("const") {
        return vec![value.clone()];
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values.clone();
    }
    if let Some(Value::Array(branches)) = schema.get("anyOf").or_else(|| schema.get("oneOf")) {
        return branches.iter().flat_map(|b| samples(root, b)).collect();
    }
    let of_type = |t: &Value| match t.as_str() {
        Some("string") => json!("x"),
        Some("integer") => json!(0),
        Some("number") => json!(0.5),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        Some("null") => Value::Null,
        other => panic!("unexpected type {other:?}"),
    };
    match schema.get("type") {
        Some(Value::Array(types)) => types.iter().map(of_type).collect(),
        Some(t) => vec![of_type(t)],
        // Any value at all (`example`, `default`).
        None => vec![json!("x")],
    }
}

/// The keys the decoder reads in the mapping at `pointer`, as its `unknown-key` help lists
/// them when a key it does not know is written there.
fn decoder_keys(base: &Value, pointer: &str, what: &str) -> BTreeSet<String> {
    let mut manifest = base.clone();
    object_mut(&mut manifest, pointer).insert(STRANGER.into(), json!(1));
    let diagnostics = diagnostics(&manifest);
    let unknown = diagnostics
        .iter()
        .find(|d| d.code == "unknown-key" && d.message.contains(STRANGER))
        .unwrap_or_else(|| {
            panic!(
                "the decoder accepts the unknown key `{STRANGER}` in {what}:{}",
                listed(&diagnostics)
            )
        });
    let help = unknown.help.as_deref().unwrap_or_default();
    let (_, list) = help.split_once(" are: ").unwrap_or_else(|| {
        panic!("expected the help of `unknown-key` to list the keys, found: {help}")
    });
    names(list.split(", "))
}

#[test]
fn base_is_valid_for_both() {
    let base = base();
    let diagnostics = diagnostics(&base);
    assert!(diagnostics.is_empty(), "{}", listed(&diagnostics));
    let validator = validator();
    assert!(
        validator.is_valid(&base),
        "{}",
        schema_errors(&validator, &base)
    );
    serde_json::from_value::<format::Manifest>(base).expect("format.rs reads the base manifest");
}

/// For each object, the keys of its schema are the keys the decoder lists when it refuses a
/// key it does not know; and the schema and the types of `format.rs` refuse that key too.
#[test]
fn every_object_has_exactly_the_keys_the_decoder_reads() {
    let (base, schema, validator) = (base(), manifest_schema(), validator());
    for &(pointer, what) in OBJECTS {
        let in_schema = property_names(object_schema(&schema, pointer));
        let in_decoder = decoder_keys(&base, pointer, what);
        assert!(
            in_schema == in_decoder,
            "format.rs and the decoder disagree on the keys of {what} (`{pointer}`)\n  \
             only in format.rs: {:?}\n  only in the decoder: {:?}",
            in_schema.difference(&in_decoder).collect::<Vec<_>>(),
            in_decoder.difference(&in_schema).collect::<Vec<_>>(),
        );

        let mut manifest = base.clone();
        object_mut(&mut manifest, pointer).insert(STRANGER.into(), json!(1));
        assert!(
            !validator.is_valid(&manifest),
            "the schema accepts the unknown key `{STRANGER}` in {what} (`{pointer}`)"
        );
        assert!(
            serde_json::from_value::<format::Manifest>(manifest).is_err(),
            "format.rs's types accept the unknown key `{STRANGER}` in {what} (`{pointer}`)"
        );
    }
}

/// Each key the schema names, written with a value of each type the schema allows for it,
/// draws neither `unknown-key` nor `wrong-type` from the decoder.
#[test]
fn the_decoder_reads_every_key_with_the_value_types_the_schema_gives() {
    let (base, schema) = (base(), manifest_schema());
    for &(pointer, what) in OBJECTS {
        let object = object_schema(&schema, pointer);
        for (key, key_schema) in object["properties"].as_object().expect("an object schema") {
            for sample in samples(&schema, key_schema) {
                let mut manifest = base.clone();
                object_mut(&mut manifest, pointer).insert(key.clone(), sample.clone());
                let complaints: Vec<Diagnostic> = diagnostics(&manifest)
                    .into_iter()
                    .filter(|d| matches!(d.code.as_str(), "unknown-key" | "wrong-type"))
                    .collect();
                assert!(
                    complaints.is_empty(),
                    "the schema allows `{key}: {sample}` in {what} (`{pointer}`), \
                     but the decoder refuses it:{}",
                    listed(&complaints)
                );
            }
        }
    }
}

/// Each object written empty: the keys the loader reports missing are the keys its schema
/// requires.
#[test]
fn every_object_requires_the_keys_the_loader_reports_missing() {
    let (base, schema) = (base(), manifest_schema());
    for &(pointer, what) in OBJECTS {
        let mut manifest = base.clone();
        *manifest.pointer_mut(pointer).expect("the object") = json!({});
        let mut missing = BTreeSet::new();
        for d in diagnostics(&manifest) {
            match d.code.as_str() {
                "missing-field" => {
                    let (_, rest) = d
                        .message
                        .split_once("missing the required key `")
                        .expect("the message names the key");
                    missing.insert(rest.trim_end_matches('`').to_owned());
                }
                "missing-description" => {
                    missing.insert("description".to_owned());
                }
                // An effect must decide all four hints: "… leaves `read_only`, … undecided".
                "unresolved-hint" => {
                    let (_, list) = d.message.split_once(" leaves ").expect("the hints");
                    missing.extend(names(
                        list.split('`')
                            .skip(1)
                            .step_by(2)
                            .filter(|h| HINT_KEYS.contains(h)),
                    ));
                }
                _ => {}
            }
        }
        let required = required_names(&object_schemas(&schema, pointer));
        assert!(
            required == missing,
            "the schema requires {required:?} in {what} (`{pointer}`), \
             but the loader reports {missing:?} missing when it is empty"
        );
    }
}

/// The JSON Schema formats and types that the validator knows, as its help lists them for
/// a value it does not know, are the ones the schema offers.
#[test]
fn closed_lists_are_the_validators() {
    let (base, schema) = (base(), manifest_schema());
    let property = object_schema(&schema, "/tools/0/parameters/when");
    let help_list = |edit: &dyn Fn(&mut Value), code: &str, lead: &str| {
        let mut manifest = base.clone();
        edit(&mut manifest);
        let diagnostics = diagnostics(&manifest);
        let d = diagnostics
            .iter()
            .find(|d| d.code == code)
            .unwrap_or_else(|| panic!("no `{code}`:{}", listed(&diagnostics)));
        let help = d.help.as_deref().unwrap_or_default();
        let list = help
            .strip_prefix(lead)
            .unwrap_or_else(|| panic!("expected the help to list the values, found: {help}"));
        names(list.split(", "))
    };

    let formats = help_list(
        &|m| m["tools"][0]["parameters"]["when"]["format"] = json!(STRANGER),
        "unknown-format",
        "the JSON Schema formats are: ",
    );
    assert_eq!(
        allowed_strings(&schema, &property["properties"]["format"]),
        formats,
        "the formats the editor schema offers (left) are not those the validator knows (right)"
    );

    // Without shared types, the declared type names are the JSON types alone.
    let types = help_list(
        &|m| {
            m.as_object_mut().expect("a mapping").shift_remove("types");
            m["tools"][0]["parameters"]["when"]["type"] = json!(STRANGER);
        },
        "unknown-type",
        "the declared names are: ",
    );
    assert_eq!(
        allowed_strings(&schema, &property["properties"]["type"]),
        types,
        "the JSON types the editor schema offers (left) are not those the validator knows (right)"
    );

    let profiles = help_list(
        &|m| m["server"]["profiles"] = json!(STRANGER),
        "unknown-profile",
        "the profiles are ",
    );
    let server = object_schema(&schema, "/server");
    let offered = &server["properties"]["profiles"];
    let one = (offered["anyOf"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(offered["oneOf"].as_array().into_iter().flatten()))
    .find(|branch| resolve(&schema, branch).get("type") != Some(&json!("array")))
    .expect("a single profile's branch");
    assert_eq!(
        allowed_strings(&schema, one),
        profiles,
        "the profiles the editor schema offers (left) are not those the validator knows (right)"
    );

    let kinds = help_list(
        &|m| m["tools"][0]["output"]["content"][0]["kind"] = json!(STRANGER),
        "unknown-content-kind",
        "a content kind is one of ",
    );
    let block = object_schema(&schema, "/tools/0/output/content/0");
    assert_eq!(
        allowed_strings(&schema, &block["properties"]["kind"]),
        names(kinds.iter().map(|k| k.trim_matches('`'))),
        "the content kinds the editor schema offers (left) are not those the validator knows (right)"
    );
}

/// One change to [`BASE`], and whether the build and the schema must both take the result.
struct Case {
    what: &'static str,
    edits: Vec<Edit>,
    valid: bool,
}

enum Edit {
    Set(&'static str, Value),
    Remove(&'static str),
}

fn case(what: &'static str, edits: Vec<Edit>, valid: bool) -> Case {
    Case { what, edits, valid }
}

fn set(pointer: &'static str, value: Value) -> Edit {
    Edit::Set(pointer, value)
}

fn apply(manifest: &mut Value, edit: &Edit) {
    let (Edit::Set(pointer, _) | Edit::Remove(pointer)) = edit;
    let (parent, key) = parent_and_key(pointer);
    let parent = object_mut(manifest, parent);
    match edit {
        Edit::Set(_, value) => {
            parent.insert(key.to_owned(), value.clone());
        }
        Edit::Remove(_) => {
            parent
                .shift_remove(key)
                .unwrap_or_else(|| panic!("nothing to remove at `{pointer}`"));
        }
    }
}

#[test]
fn the_build_and_the_schema_agree_on_names_values_and_rules() {
    use Edit::Remove;
    let long_name = format!("a{}", "b".repeat(63));
    let too_long_name = format!("a{}", "b".repeat(64));
    let param = json!({"type": "string", "description": "X.", "example": "x"});
    let all_hints =
        json!({"read_only": true, "destructive": false, "idempotent": true, "open_world": false});
    let mut cases = vec![
        case(
            "both planning contracts in one parent object",
            vec![
                set("/artifacts/meta_key", json!(["gnougo", "artifacts"])),
                set("/composition/meta_key", json!(["gnougo", "composition"])),
            ],
            true,
        ),
        case(
            "content alone",
            vec![
                Remove("/tools/0/output/properties"),
                Remove("/tools/0/output/description"),
            ],
            true,
        ),
        case(
            "an empty key path",
            vec![set("/artifacts/meta_key", json!([]))],
            false,
        ),
        case(
            "content with a description but no fields",
            vec![Remove("/tools/0/output/properties")],
            false,
        ),
        case(
            "an unknown content kind",
            vec![set("/tools/0/output/content/0/kind", json!("video"))],
            false,
        ),
        case(
            "a MIME type without a subtype",
            vec![set("/tools/0/output/content/1/mime_types", json!(["png"]))],
            false,
        ),
        case(
            "no content block",
            vec![set("/tools/0/output/content", json!([]))],
            false,
        ),
        case(
            "hint policy `all`",
            vec![set("/hint_policy", json!("all"))],
            true,
        ),
        case(
            "hint policy `minimal`",
            vec![set("/hint_policy", json!("minimal"))],
            true,
        ),
        case(
            "an unknown hint policy",
            vec![set("/hint_policy", json!("some"))],
            false,
        ),
        case(
            "one hint for a list of one",
            vec![set(
                "/hint_policy",
                json!({"omit_on_read_only": "destructive"}),
            )],
            true,
        ),
        case(
            "cache scope `private`",
            vec![set("/server/cache/scope", json!("private"))],
            true,
        ),
        case(
            "an unknown cache scope",
            vec![set("/server/cache/scope", json!("shared"))],
            false,
        ),
        case(
            "an icon size of 16x16",
            vec![set("/server/icons/0/sizes", json!(["16x16", "any"]))],
            true,
        ),
        case(
            "an icon size with a leading zero",
            vec![set("/server/icons/0/sizes", json!(["048x48"]))],
            false,
        ),
        case(
            "an unknown icon theme",
            vec![set("/server/icons/0/theme", json!("night"))],
            false,
        ),
        case(
            "an http icon",
            vec![set(
                "/server/icons/0/src",
                json!("http://demo.example.com/icon.svg"),
            )],
            false,
        ),
        case(
            "a ttl of 0",
            vec![set("/server/cache/ttl_ms", json!(0))],
            true,
        ),
        case(
            "a negative ttl",
            vec![set("/server/cache/ttl_ms", json!(-1))],
            false,
        ),
        case(
            "a version as a number",
            vec![set("/server/version", json!(1.5))],
            true,
        ),
        case(
            "a version as a boolean",
            vec![set("/server/version", json!(true))],
            false,
        ),
        case(
            "a blank server name",
            vec![set("/server/name", json!(" "))],
            false,
        ),
        case(
            "an optional key written as null",
            vec![set("/server/title", Value::Null)],
            false,
        ),
        case(
            "hints written as null",
            vec![set("/tools/0/hints", Value::Null)],
            false,
        ),
        case(
            "parameters written as null",
            vec![set("/tools/0/parameters", Value::Null)],
            true,
        ),
        case(
            "a 64-character tool name",
            vec![set("/tools/0/name", json!(long_name))],
            true,
        ),
        case(
            "a 65-character tool name",
            vec![set("/tools/0/name", json!(too_long_name))],
            false,
        ),
        case(
            "a tool name with a digit",
            vec![set("/tools/0/name", json!("ping2"))],
            true,
        ),
        case(
            "a kebab-case tool name",
            vec![set("/tools/0/name", json!("Read-File"))],
            false,
        ),
        case(
            "a tool name starting with a digit",
            vec![set("/tools/0/name", json!("2ping"))],
            false,
        ),
        case(
            "a blank title",
            vec![set("/tools/0/title", json!(""))],
            false,
        ),
        case(
            "output `text`",
            vec![set("/tools/0/output", json!("text"))],
            true,
        ),
        case(
            "an unknown output",
            vec![set("/tools/0/output", json!("json"))],
            false,
        ),
        case(
            "output type `object`",
            vec![set("/tools/0/output/type", json!("object"))],
            true,
        ),
        case(
            "output type `array`",
            vec![set("/tools/0/output/type", json!("array"))],
            false,
        ),
        case(
            "a snake_case sentence name",
            vec![set("/sentences/also_true", json!("Fine."))],
            true,
        ),
        case(
            "a PascalCase sentence name",
            vec![set("/sentences/AlsoTrue", json!("Fine."))],
            false,
        ),
        case(
            "a blank sentence",
            vec![set("/sentences/also_true", json!(" "))],
            false,
        ),
        case(
            "a PascalCase error code",
            vec![set("/errors/NotFound", json!({"message": "No."}))],
            false,
        ),
        case(
            "a reserved error code",
            vec![set("/errors/internal_error", json!({"message": "No."}))],
            false,
        ),
        case(
            "a reserved error code on a tool",
            vec![set("/tools/0/errors", json!(["internal_error"]))],
            false,
        ),
        case(
            "a blank error message",
            vec![set("/errors/not_found/message", json!(""))],
            false,
        ),
        case(
            "a PascalCase type name",
            vec![set("/types/LineRange", json!({"type": "string"}))],
            true,
        ),
        case(
            "a camelCase type name",
            vec![set("/types/lineRange", json!({"type": "string"}))],
            false,
        ),
        case(
            "an unknown JSON type",
            vec![set("/tools/0/parameters/count/type", json!("int"))],
            false,
        ),
        case(
            "a property name with `_`",
            vec![set("/tools/0/parameters/x_1", param.clone())],
            true,
        ),
        case(
            "a property name starting with a digit",
            vec![set("/tools/0/parameters/1x", param.clone())],
            false,
        ),
        case(
            "a property name with `-`",
            vec![set("/tools/0/parameters/x-1", param.clone())],
            false,
        ),
        case(
            "a blank property description",
            vec![set(
                "/tools/0/output/properties/count/description",
                json!(" "),
            )],
            false,
        ),
        case(
            "a parameter without an example",
            vec![Remove("/tools/0/parameters/count/example")],
            false,
        ),
        case(
            "a parameter with `examples` instead",
            vec![
                Remove("/tools/0/parameters/count/example"),
                set("/tools/0/parameters/count/examples", json!([1, 2])),
            ],
            true,
        ),
        case(
            "both `example` and `examples`",
            vec![set("/tools/0/parameters/count/examples", json!([1]))],
            false,
        ),
        case(
            "a null default",
            vec![set("/tools/0/parameters/count/default", Value::Null)],
            false,
        ),
        case(
            "`required: false` with a default",
            vec![set("/tools/0/parameters/count/required", json!(false))],
            true,
        ),
        case(
            "`required: true` with a default",
            vec![set("/tools/0/parameters/count/required", json!(true))],
            false,
        ),
        case(
            "an empty enum",
            vec![set("/tools/0/parameters/when/enum", json!([]))],
            false,
        ),
        case(
            "a known format",
            vec![
                set("/tools/0/parameters/when/format", json!("date-time")),
                set(
                    "/tools/0/parameters/when/example",
                    json!("2026-11-30T09:00:00Z"),
                ),
            ],
            true,
        ),
        case(
            "an unknown format",
            vec![set("/tools/0/parameters/when/format", json!("datetime"))],
            false,
        ),
        case(
            "a length as a string",
            vec![set("/tools/0/parameters/tags/items/minLength", json!("1"))],
            false,
        ),
        case(
            "a pattern that is no regex",
            vec![set("/tools/0/parameters/tags/items/pattern", json!("("))],
            false,
        ),
        case(
            "an incomplete effect",
            vec![set("/effects/partial", json!({"read_only": true}))],
            false,
        ),
        case(
            "no effect and some hints",
            vec![Remove("/tools/0/effect")],
            false,
        ),
        case(
            "no effect and all four hints",
            vec![Remove("/tools/0/effect"), set("/tools/0/hints", all_hints)],
            true,
        ),
    ];
    // The new names: header tokens, artifact kinds and group names, at and past their edges.
    for (header, valid) in [("X-Dir_1.~", true), ("Dir Path", false), ("", false)] {
        cases.push(case(
            "a parameter's header",
            vec![set("/tools/1/parameters/dir/header", json!(header))],
            valid,
        ));
    }
    for (kind, valid) in [
        ("demo.list-item", true),
        ("demo.list_item2", true),
        ("Demo.item", false),
        ("demo..item", false),
        ("demo.", false),
    ] {
        cases.push(case(
            "an artifact kind",
            vec![set(
                "/artifacts/kinds",
                json!({"demo.item": "A count.", kind: "Another."}),
            )],
            valid,
        ));
    }
    for (group, valid) in [("read-only_2", true), ("Reads", false), ("2reads", false)] {
        cases.push(case(
            "a group name",
            vec![
                set("/groups", json!({group: {"description": "Reads."}})),
                set("/tools/0/groups", json!([group])),
                set("/tools/1/groups", json!([group])),
                set("/tools/2/groups", json!([group])),
            ],
            valid,
        ));
    }
    // Scope tokens and the URLs of `auth:`, at and past their edges.
    for (scope, valid) in [
        ("demo:list", true),
        ("https://demo.example.com/read", true),
        ("a!#[]~", true),
        ("demo read", false),
        ("demo\"read", false),
        ("demo\\read", false),
        ("démo", false),
    ] {
        cases.push(case(
            "a scope name",
            vec![
                set(
                    "/auth/scopes",
                    json!({
                        "demo:read": {"description": "Read."},
                        "demo:write": {"description": "Write."},
                        scope: {"description": "More."},
                    }),
                ),
                set("/tools/0/scopes", json!(["demo:write", scope])),
            ],
            valid,
        ));
    }
    for (url, valid) in [
        ("https://auth.example.com", true),
        ("https://auth.example.com:8443/tenant", true),
        ("http://127.0.0.1:9000", true),
        ("http://localhost/x", true),
        ("http://[::1]:80", true),
        ("http://auth.example.com", false),
        ("auth.example.com", false),
        ("https://auth.example.com/#top", false),
        ("https://user@auth.example.com", false),
        ("https://", false),
    ] {
        cases.push(case(
            "an auth URL",
            vec![
                set("/auth/resource", json!(url)),
                set("/auth/authorization_servers", json!(url)),
            ],
            valid,
        ));
    }
    cases.push(case(
        "no scope declared",
        vec![
            set("/auth/scopes", json!({})),
            Edit::Remove("/tools/0/scopes"),
            Edit::Remove("/groups/reads/scopes"),
            Edit::Remove("/resources/0/scopes"),
            Edit::Remove("/prompts/0/scopes"),
        ],
        false,
    ));
    // The validator alone decides which hints read-only tools may leave out.
    for hint in HINT_KEYS {
        cases.push(case(
            "a hint left out on read-only tools",
            vec![set("/hint_policy", json!({"omit_on_read_only": [hint]}))],
            matches!(hint, "destructive" | "idempotent"),
        ));
    }

    let validator = validator();
    let mut disagreements = Vec::new();
    for Case { what, edits, valid } in &cases {
        let mut manifest = base();
        for edit in edits {
            apply(&mut manifest, edit);
        }
        let edits: Vec<String> = edits
            .iter()
            .map(|e| match e {
                Edit::Set(pointer, value) => format!("`{pointer}` = {value}"),
                Edit::Remove(pointer) => format!("no `{pointer}`"),
            })
            .collect();
        let (build, schema) = (build_accepts(&manifest), validator.is_valid(&manifest));
        if build != *valid {
            disagreements.push(format!(
                "{what} ({}): the build {}{}",
                edits.join(", "),
                if build { "accepts it" } else { "refuses it:" },
                listed(&diagnostics(&manifest)),
            ));
        }
        if schema != *valid {
            disagreements.push(format!(
                "{what} ({}): the schema {}{}",
                edits.join(", "),
                if schema { "accepts it" } else { "refuses it:" },
                schema_errors(&validator, &manifest),
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn the_repositorys_manifests_are_valid_for_the_schema() {
    let validator = validator();
    for path in ["../tools.yaml", "../fixtures/every-feature/tools.yaml"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let text = std::fs::read_to_string(&path).expect("the manifest is readable");
        let manifest = json_of(&text);
        assert!(
            validator.is_valid(&manifest),
            "{} does not match the schema of format.rs:{}",
            path.display(),
            schema_errors(&validator, &manifest)
        );
        if let Err(e) = serde_json::from_value::<format::Manifest>(manifest) {
            panic!("format.rs's types do not read {}: {e}", path.display());
        }
    }
}

#[test]
fn the_schema_is_json_schema_2020_12_with_no_id() {
    let schema = manifest_schema();
    jsonschema::meta::validate(&schema).expect("a valid JSON Schema");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["title"], format::TITLE);
    assert!(schema.get("$id").is_none());
}

/// The decoder reads null as a value of the wrong type everywhere but in a mapping of names,
/// which it reads as empty; schemars makes every `Option` nullable, and `format.rs` takes
/// that back. This walks the whole schema, so a shape the transform misses fails here.
#[test]
fn only_mappings_of_names_may_be_null() {
    fn walk(schema: &Value, at: &str, offenders: &mut Vec<String>) {
        match schema {
            Value::Object(object) => {
                let nullable = match object.get("type") {
                    Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
                    Some(t) => t == "null",
                    None => false,
                };
                let name_map = object
                    .get("additionalProperties")
                    .is_some_and(|a| a != &Value::Bool(false));
                if nullable && !name_map {
                    offenders.push(at.to_owned());
                }
                // What a `not` describes is forbidden (`default` is never null).
                for (key, value) in object.iter().filter(|(key, _)| *key != "not") {
                    walk(value, &format!("{at}/{key}"), offenders);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{at}/{i}"), offenders);
                }
            }
            _ => {}
        }
    }
    let mut offenders = Vec::new();
    walk(&manifest_schema(), "#", &mut offenders);
    assert!(
        offenders.is_empty(),
        "these schemas allow null: {offenders:#?}"
    );
}

#[test]
fn the_checked_in_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/tools.schema.json");
    let wanted = format::editor_schema_text();
    if std::env::var("MCP_CONTRACT_BLESS").is_ok_and(|v| v == "1") {
        output::write_if_changed(&path, &wanted).expect("docs/tools.schema.json is writable");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == wanted,
        "docs/tools.schema.json differs from the schema codegen/src/editor_schema gives. \
         Refresh it with\n\n    \
         MCP_CONTRACT_BLESS=1 cargo test -p mcp-contract-codegen --features editor-schema editor_schema\n\n\
         and commit the result."
    );
}

/// The constraint keywords an editor offers, and the ones it says each JSON type takes, are
/// the table's (`keyword::KEYWORDS`).
#[test]
fn the_constraint_keywords_are_the_tables() {
    use crate::keyword::KEYWORDS;
    let schema = manifest_schema();
    let property = object_schema(&schema, "/tools/0/parameters/when");
    let offered = property_names(property);
    for def in &KEYWORDS {
        assert!(
            offered.contains(def.name),
            "the editor schema offers no `{}`",
            def.name
        );
    }
    let types = schema["$defs"]["JsonType"]["oneOf"]
        .as_array()
        .expect("the JSON types are a choice");
    for branch in types {
        let ty = branch["const"].as_str().expect("a JSON type");
        let description = branch["description"].as_str().unwrap_or_default();
        let said = names(
            description
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|word| KEYWORDS.iter().any(|d| d.name == *word)),
        );
        let applies = names(
            KEYWORDS
                .iter()
                .filter(|d| d.applies_to.contains(&ty))
                .map(|d| d.name),
        );
        assert_eq!(
            said, applies,
            "the editor schema says `{ty}` takes {said:?}, the table {applies:?}"
        );
    }
}
