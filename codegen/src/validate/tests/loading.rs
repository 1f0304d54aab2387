//! Loading a manifest as a whole: every fault reported at once in file order; the minimal and
//! the reference manifests load; and what a manifest with every key loads into and publishes.

use mcp_contract_spec::planning::Consumed;
use serde_json::{Value, json};

use super::{
    VALID, loads, produced, produces, refused_at, tool, tool_json, tool_named, tools_list,
};
use crate::model::{ArtifactsDef, Field, Kind, OutputDef, ResourceUri};
use crate::{Revision, Source, load, render_all};

#[test]
fn every_error_is_reported_at_once_in_file_order() {
    // Found in another order: decoding (unknown key, hint policy) before validation
    // (sentences before tools).
    let text = "\
server:
  name: demo
  titel: Demo
tools:
  - name: Ping
    title: Ping
    description: \"\"
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
    errors: [gone]
hint_policy: sometimes
sentences:
  Pinned: Say it.
";
    let diags = refused_at(
        text,
        &[
            ("unknown-key", "tools.yaml:3:3"),
            ("bad-tool-name", "tools.yaml:5:11"),
            ("empty-description", "tools.yaml:7:18"),
            ("unknown-error-code", "tools.yaml:10:14"),
            ("unknown-hint-policy", "tools.yaml:11:14"),
            ("bad-name", "tools.yaml:13:3"),
        ],
    );
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `title`?"));
    let rendered = render_all(&diags, &Source::new("tools.yaml", text));
    assert!(rendered.ends_with("error: could not load `tools.yaml` due to 6 previous errors"));
}

#[test]
fn the_minimal_manifest_loads_without_diagnostics() {
    let loaded = load(&Source::new("tools.yaml", VALID)).expect("VALID loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.contract.tools.len(), 1);
    assert!(matches!(loaded.contract.tools[0].output, OutputDef::Text));
}

#[test]
fn the_reference_manifest_loads_without_diagnostics() {
    let text = include_str!("../../../../tools.yaml");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let loaded = load(&Source::new("tools.yaml", text).with_dir(root)).unwrap_or_else(|d| {
        panic!("{}", render_all(&d, &Source::new("tools.yaml", text)));
    });
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

/// A consumed artifact as the model holds it.
fn consumed(kind: &str, pointer: &str, required: bool) -> Consumed {
    Consumed {
        kind: kind.into(),
        pointer: pointer.into(),
        required,
    }
}

fn field<'f>(fields: &'f [Field], name: &str) -> &'f Field {
    fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field `{name}`"))
}

const EVERYTHING: &str = r#"server:
  name: demo
artifacts:
  meta_key: com.example/artifacts
  kinds:
    demo.item: An item id.
    demo.page: A JSON array of records.
composition:
  meta_key: com.example/composition
groups:
  reads:
    description: Tools that only look.
  admin:
    description: Tools that change things.
resources:
  - name: readme
    uri: demo:///README.md
    title: The readme
    description: The project's readme.
    mime_type: text/markdown
  - name: file
    uri_template: demo:///files/{dir}/{fileName}
    title: A file
    description: One file by directory and name.
    mime_type: text/plain
types:
  Region:
    type: string
    description: A region.
    pattern: "^[a-z]+$"
tools:
  - name: list_items
    title: List items
    description: Lists item ids.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    groups: [reads, admin]
    parameters:
      region:
        type: Region
        description: Where.
        example: eu
        header: Region
      limit:
        type: integer
        description: How many.
        minimum: 1
        maximum: 100
        example: 10
        header: Limit
      loud:
        type: boolean
        description: Whether to shout.
        required: false
        example: true
        header: Loud
      window:
        type: object
        description: A window.
        required: false
        example: {start: 1}
        properties:
          start:
            type: integer
            description: The first.
            minimum: 0
            maximum: 10
            header: Window-Start
    output:
      properties:
        dir:
          type: string
          description: Where they are.
        ids:
          type: array
          description: The ids.
          items: {type: string}
        page:
          type: string
          description: The records, as a JSON array.
    artifacts:
      produces:
        - kind: workspace.directory
          pointer: /dir
        - kind: demo.item
          pointer: /ids/0
        - kind: demo.page
          pointer: /page
          mode: materialize
          encoding: json_array
      consumes:
        - kind: workspace.directory
          pointer: /region
          required: true
        - kind: demo.item
          pointer: /window/start
  - name: reset
    title: Reset
    description: Resets everything.
    hints: {read_only: false, destructive: true, idempotent: true, open_world: false}
    groups: admin
    complete_operation: [list_items, match]
    output: text
  - name: match
    title: Match
    description: Matches.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    groups: [reads]
    output: text
"#;

/// Every `x-mcp-header` in a JSON value, as (JSON pointer of the annotated schema, name).
fn headers_in(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "x-mcp-header" {
                    out.push((at.to_owned(), v.as_str().unwrap_or_default().to_owned()));
                } else {
                    headers_in(v, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                headers_in(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// `value` without any `x-mcp-header` key.
fn without_headers(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "x-mcp-header")
                .map(|(k, v)| (k.clone(), without_headers(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_headers).collect()),
        other => other.clone(),
    }
}

#[test]
fn a_manifest_with_every_new_key_loads_into_the_contract() {
    let c = loads(EVERYTHING);

    assert_eq!(c.planning.artifacts_key.keys, ["com.example/artifacts"]);
    assert_eq!(c.planning.composition_key.keys, ["com.example/composition"]);
    assert_eq!(
        c.planning.kinds,
        [
            (
                "workspace.directory".to_owned(),
                "A validated workspace-relative directory.".to_owned()
            ),
            ("demo.item".to_owned(), "An item id.".to_owned()),
            (
                "demo.page".to_owned(),
                "A JSON array of records.".to_owned()
            ),
        ]
    );

    let groups: Vec<(&str, &str, &str, Vec<&str>)> = c
        .groups
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.description.as_str(),
                g.constant.as_str(),
                g.tools.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            (
                "reads",
                "Tools that only look.",
                "READS",
                vec!["list_items", "match"]
            ),
            (
                "admin",
                "Tools that change things.",
                "ADMIN",
                vec!["list_items", "reset"]
            ),
        ]
    );
    let memberships: Vec<(&str, &[String])> = c
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.groups.as_slice()))
        .collect();
    assert_eq!(
        memberships,
        [
            ("list_items", &["reads".to_owned(), "admin".to_owned()][..]),
            ("reset", &["admin".to_owned()][..]),
            ("match", &["reads".to_owned()][..]),
        ]
    );

    assert_eq!(c.resources.len(), 2);
    let readme = &c.resources[0];
    assert_eq!(readme.name, "readme");
    assert_eq!(readme.uri, ResourceUri::Fixed("demo:///README.md".into()));
    assert_eq!(readme.title, "The readme");
    assert_eq!(readme.description, "The project's readme.");
    assert_eq!(readme.mime_type, "text/markdown");
    assert_eq!(readme.method, "readme_resource");
    let file = &c.resources[1];
    assert_eq!(
        file.uri,
        ResourceUri::Template {
            template: "demo:///files/{dir}/{fileName}".into(),
            variables: vec!["dir".into(), "fileName".into()],
        }
    );
    assert_eq!(file.method, "file_resource");
    assert_eq!(file.params_type, "FileParams");

    let list = tool_named(&c, "list_items");
    assert_eq!(
        list.artifacts,
        Some(ArtifactsDef {
            produces: vec![
                produced("workspace.directory", "/dir", false),
                produced("demo.item", "/ids/0", false),
                produced("demo.page", "/page", true),
            ],
            consumes: vec![
                consumed("workspace.directory", "/region", true),
                consumed("demo.item", "/window/start", false),
            ],
        })
    );
    assert!(list.encapsulates.is_empty());
    assert_eq!(
        tool_named(&c, "reset").encapsulates,
        ["list_items", "match"]
    );
    assert_eq!(tool_named(&c, "reset").artifacts, None);
    assert!(tool_named(&c, "match").encapsulates.is_empty());

    let headers: Vec<(&str, Option<&str>)> = list
        .parameters
        .iter()
        .map(|f| (f.name.as_str(), f.header.as_ref().map(|h| h.value.as_str())))
        .collect();
    assert_eq!(
        headers,
        [
            ("region", Some("Region")),
            ("limit", Some("Limit")),
            ("loud", Some("Loud")),
            ("window", None),
        ]
    );
    // The header on a shared type's use keeps the reference.
    assert!(matches!(
        field(&list.parameters, "region").schema.kind,
        Kind::Named(_)
    ));
    let Kind::Object(window) = &field(&list.parameters, "window").schema.kind else {
        panic!("`window` is an object");
    };
    assert_eq!(
        field(&window.fields, "start")
            .header
            .as_ref()
            .map(|h| h.value.as_str()),
        Some("Window-Start")
    );
    let OutputDef::Object { fields, .. } = &list.output else {
        panic!("`list_items` has a structured output");
    };
    assert!(fields.iter().all(|f| f.header.is_none()));
}

#[test]
fn the_planning_metadata_is_published_under_the_configured_keys_with_version_1() {
    let c = loads(EVERYTHING);
    let meta = |name: &str| tool_json(&c, tool_named(&c, name)).get("_meta").cloned();
    assert_eq!(
        meta("list_items"),
        Some(json!({
            "com.example/artifacts": {
                "version": 1,
                "produces": [
                    {"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"},
                    {"kind": "demo.item", "pointer": "/ids/0", "mode": "materialize"},
                    {"kind": "demo.page", "pointer": "/page", "mode": "materialize", "encoding": "json_array"},
                ],
                "consumes": [
                    {"kind": "workspace.directory", "pointer": "/region", "required": true},
                    {"kind": "demo.item", "pointer": "/window/start", "required": false},
                ],
            }
        }))
    );
    assert_eq!(
        meta("reset"),
        Some(json!({
            "com.example/composition": {
                "version": 1,
                "kind": "complete_operation",
                "encapsulates": [
                    {"kind": "tool", "method": "list_items"},
                    {"kind": "tool", "method": "match"},
                ],
            }
        }))
    );
    // Groups and resources publish nothing on a tool.
    assert_eq!(meta("match"), None);
}

#[test]
fn the_planning_metadata_has_default_keys_and_joins_the_static_meta() {
    let text = format!(
        "{}{}",
        produces(
            "workspace.directory",
            "/dir",
            "    _meta:\n      com.example/category: search\n    complete_operation: [pong]\n"
        ),
        tool("pong", "")
    );
    let c = loads(&text);
    let published = tool_json(&c, tool_named(&c, "find"));
    assert_eq!(
        published["_meta"],
        json!({
            "com.example/category": "search",
            "io.github.mcp-contract/artifacts": {
                "version": 1,
                "produces": [{"kind": "workspace.directory", "pointer": "/dir", "mode": "materialize"}],
                "consumes": [],
            },
            "io.github.mcp-contract/composition": {
                "version": 1,
                "kind": "complete_operation",
                "encapsulates": [{"kind": "tool", "method": "pong"}],
            },
        })
    );
}

#[test]
fn x_mcp_header_is_published_on_2026_07_28_only() {
    let c = loads(EVERYTHING);
    let modern = tools_list(&c, Revision::V2026_07_28);
    let mut found = Vec::new();
    headers_in(&modern, "", &mut found);
    let found: Vec<(&str, &str)> = found
        .iter()
        .map(|(at, name)| (at.as_str(), name.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/tools/0/inputSchema/properties/region", "Region"),
            ("/tools/0/inputSchema/properties/limit", "Limit"),
            ("/tools/0/inputSchema/properties/loud", "Loud"),
            (
                "/tools/0/inputSchema/properties/window/properties/start",
                "Window-Start"
            ),
        ]
    );
    // The shared type is inlined beside its header.
    assert_eq!(
        modern["tools"][0]["inputSchema"]["properties"]["region"],
        json!({
            "type": "string",
            "description": "Where.",
            "pattern": "^[a-z]+$",
            "examples": ["eu"],
            "x-mcp-header": "Region",
        })
    );
    assert_eq!(
        tool_json(&c, tool_named(&c, "list_items")),
        modern["tools"][0]
    );

    // 2025-11-25 does not define the annotation: the same tools without it, `_meta` kept.
    let legacy = tools_list(&c, Revision::V2025_11_25);
    let mut found = Vec::new();
    headers_in(&legacy, "", &mut found);
    assert_eq!(found, []);
    assert_eq!(legacy["tools"], without_headers(&modern["tools"]));
    assert!(legacy["tools"][0]["_meta"]["com.example/artifacts"].is_object());
}
