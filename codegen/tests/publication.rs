//! How schemas publish shared types (`server.shared_types`), and the build with portability
//! profiles set: what is published under each setting, that the run-time checks accept and
//! refuse the same calls under both, and that a profile's lints warn without failing the build.

use mcp_contract_codegen::{Builder, Contract, Revision, Source, load, render_all};
use mcp_contract_spec::check::Checker;
use serde_json::{Value, json};

/// A tool taking an object type (holding an enum type and a scalar type), a list of it and the
/// scalar; its output holds the object type too. `{shared}` is the `shared_types` line.
const MANIFEST: &str = "\
server:
  name: demo
  {shared}
types:
  Kind:
    type: string
    description: What an entry is.
    enum: [file, directory]
  Slug:
    type: string
    description: A lowercase name.
    pattern: '^[a-z]+$'
  Entry:
    type: object
    description: One entry.
    properties:
      name: {type: Slug, description: Its name.}
      kind: {type: Kind, description: What it is.}
      size: {type: integer, minimum: 0, maximum: 1000, description: Its size., required: false}
tools:
  - name: put
    title: Put entries
    description: Stores entries.
    hints: {read_only: false, destructive: false, idempotent: true, open_world: false}
    parameters:
      main:
        type: Entry
        description: The main entry.
        example: {name: a, kind: file}
      more:
        type: array
        description: More entries.
        items: {type: Entry}
        required: false
        example: [{name: b, kind: directory}]
      owner: {type: Slug, description: Who owns them., example: me}
      mode:
        type: Kind
        description: The kind to store.
        header: Mode
        example: file
    output:
      properties:
        stored: {type: Entry, description: What was stored.}
";

fn contract(shared: &str) -> Contract {
    let text = MANIFEST.replace("{shared}", shared);
    let source = Source::new("tools.yaml", text);
    match load(&source) {
        Ok(loaded) => {
            assert!(
                loaded.warnings.is_empty(),
                "{}",
                render_all(&loaded.warnings, &source)
            );
            loaded.contract
        }
        Err(d) => panic!("{}", render_all(&d, &source)),
    }
}

fn tool(contract: &Contract) -> Value {
    contract.tools_list(Revision::LATEST)["tools"][0].clone()
}

#[test]
fn shared_types_are_inlined_by_default_and_when_asked() {
    let default = tool(&contract(""));
    assert_eq!(default, tool(&contract("shared_types: inline")));
    let text = default.to_string();
    assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
    assert_eq!(
        default["inputSchema"]["properties"]["main"]["properties"]["kind"]["enum"],
        json!(["file", "directory"])
    );
}

#[test]
fn with_defs_each_object_and_enum_type_is_published_once_per_schema() {
    let published = tool(&contract("shared_types: defs"));
    let input = &published["inputSchema"];
    let entry = json!({
        "type": "object",
        "description": "One entry.",
        "properties": {
            "name": {"type": "string", "description": "Its name.", "pattern": "^[a-z]+$"},
            "kind": {"$ref": "#/$defs/Kind", "description": "What it is."},
            "size": {"type": "integer", "description": "Its size.", "minimum": 0, "maximum": 1000}
        },
        "required": ["name", "kind"],
        "additionalProperties": false
    });
    assert_eq!(
        input["$defs"],
        json!({
            "Kind": {"type": "string", "description": "What an entry is.", "enum": ["file", "directory"]},
            "Entry": entry
        }),
        "in the order of `types:`"
    );
    assert_eq!(
        input["properties"]["main"],
        json!({"$ref": "#/$defs/Entry", "description": "The main entry.", "examples": [{"name": "a", "kind": "file"}]})
    );
    assert_eq!(
        input["properties"]["more"]["items"],
        json!({"$ref": "#/$defs/Entry"})
    );
    // A scalar type is as short as its reference: inlined.
    assert_eq!(input["properties"]["owner"]["pattern"], "^[a-z]+$");
    // A header's type is read where the header is declared: inlined.
    assert_eq!(
        input["properties"]["mode"]["enum"],
        json!(["file", "directory"])
    );
    assert_eq!(input["properties"]["mode"]["x-mcp-header"], "Mode");
    let keys: Vec<&String> = input.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "type",
            "properties",
            "required",
            "additionalProperties",
            "$defs"
        ]
    );
    // The output's own `$defs`: open objects, as outputs are.
    let output = &published["outputSchema"];
    assert_eq!(output["properties"]["stored"]["$ref"], "#/$defs/Entry");
    assert!(
        output["$defs"]["Entry"]
            .get("additionalProperties")
            .is_none(),
        "{output}"
    );
}

/// Calls at every shape the schema has: valid ones, and each way one can be refused.
fn calls() -> Vec<Value> {
    let big = serde_json::from_str::<Value>("18446744073709551616").unwrap();
    vec![
        json!({"main": {"name": "a", "kind": "file"}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file", "size": 3}, "more": [{"name": "b", "kind": "directory"}], "owner": "me", "mode": "directory"}),
        json!({"main": {"name": "A", "kind": "file"}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "link"}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a"}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file", "extra": 1}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file", "size": 1001}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file", "size": 2.5}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file", "size": big}, "owner": "me", "mode": "file"}),
        json!({"main": {"name": "a", "kind": "file"}, "more": [{"name": "b"}, 7], "owner": "me", "mode": "file"}),
        json!({"main": "a", "owner": "me", "mode": "file"}),
        json!({"owner": "me"}),
        json!({"main": {"name": "a", "kind": "file"}, "owner": "me", "mode": "file", "other": true}),
    ]
}

#[test]
fn the_checks_accept_and_refuse_the_same_calls_under_both_settings() {
    let checker = |shared: &str| {
        let schema = tool(&contract(shared))["inputSchema"].clone();
        Checker::compile(&schema).expect("the published schema compiles")
    };
    let (inline, defs) = (
        checker("shared_types: inline"),
        checker("shared_types: defs"),
    );
    let mut refused = 0;
    for call in calls() {
        let (a, b) = (inline.failures(&call), defs.failures(&call));
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{call}");
        refused += usize::from(!a.is_empty());
    }
    assert_eq!(
        refused, 11,
        "the corpus refuses all but the two valid calls"
    );
}

#[test]
fn a_build_with_profiles_warns_and_succeeds_and_strict_fails_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let manifest = dir.path().join("tools.yaml");
    let build = |profiles: &str| {
        let text = MANIFEST.replace(
            "{shared}",
            &format!("shared_types: defs\n  profiles: {profiles}"),
        );
        std::fs::write(&manifest, text).expect("written");
        Builder::new()
            .manifest(&manifest)
            .out_dir(dir.path())
            .check(false)
            .generate()
    };
    let generated = build("[gemini]").expect("warnings do not fail the build");
    assert!(
        generated.warnings.starts_with(
            "warning[portable-defs]: the schemas of 1 tool (`put`) refer to shared types with `$ref` into `$defs`\n --> "
        ),
        "{}",
        generated.warnings
    );
    assert!(
        dir.path()
            .join(mcp_contract_codegen::GENERATED_FILE)
            .exists()
    );
    // A profile whose client this contract does not hurt says nothing.
    assert_eq!(build("[copilot]").expect("builds").warnings, "");
    let failed = build("[gemini, strict]").expect_err("strict fails the build");
    let text = failed.to_string();
    assert!(text.starts_with("error[portable-defs]: "), "{text}");
    assert!(text.ends_with("due to 1 previous error"), "{text}");
}

/// A union variant that names a shared object type is written out in place under `defs` (its
/// tag goes among its properties), while the type's own fields still refer to `$defs`.
#[test]
fn a_union_variant_of_a_shared_type_is_written_out_with_its_tag_under_defs() {
    let manifest = MANIFEST.replace(
        "    output:\n",
        "      change:
        description: One change.
        example: {op: put, name: c, kind: file}
        required: false
        one_of:
          tag: op
          variants:
            put: {type: Entry, description: Puts an entry.}
            drop:
              type: object
              properties:
                name: {type: Slug, description: The entry dropped.}
    output:\n",
    );
    let checks = |shared: &str| {
        let text = manifest.replace("{shared}", shared);
        let source = Source::new("tools.yaml", text);
        let contract = load(&source)
            .unwrap_or_else(|d| panic!("{}", render_all(&d, &source)))
            .contract;
        let published = tool(&contract);
        let checker = Checker::compile(&published["inputSchema"]).expect("a valid schema");
        (published, checker)
    };
    let (published, defs) = checks("shared_types: defs");
    let put = &published["inputSchema"]["properties"]["change"]["oneOf"][0];
    assert_eq!(put["description"], "Puts an entry.", "{put}");
    assert_eq!(
        put["properties"]["op"],
        json!({"type": "string", "const": "put"})
    );
    assert_eq!(put["properties"]["kind"]["$ref"], "#/$defs/Kind", "{put}");
    assert_eq!(put["required"], json!(["op", "name", "kind"]));
    let (_, inline) = checks("shared_types: inline");
    let base = json!({"main": {"name": "a", "kind": "file"}, "owner": "me", "mode": "file"});
    for (change, valid) in [
        (json!({"op": "put", "name": "c", "kind": "file"}), true),
        (json!({"op": "put", "name": "c", "kind": "link"}), false),
        (json!({"op": "put", "name": "c"}), false),
        (json!({"op": "drop", "name": "c"}), true),
        (json!({"op": "move", "name": "c"}), false),
    ] {
        let mut call = base.clone();
        call["change"] = change.clone();
        assert_eq!(defs.is_valid(&call), valid, "{change}");
        assert_eq!(inline.is_valid(&call), valid, "{change}");
    }
}
