//! JSON Schema documents given whole (`json_schema:`, `input_schema:`): published exactly as
//! written, checked as JSON Schema 2020-12 where they are written, and held to their place.

use serde_json::json;

use super::{VALID, loads, refused_at, single, tool_json, with};
use crate::{Source, load};

/// The conformance suite's tool, as the manifest writes it (line 9 is `input_schema:`).
const WHOLE_INPUT: &str = "    input_schema:
      $schema: https://json-schema.org/draft/2020-12/schema
      type: object
      $defs:
        address:
          $anchor: addressDef
          type: object
          properties:
            street: {type: string}
            city: {type: string}
      properties:
        name: {type: string}
        address: {$ref: '#/$defs/address'}
        contactMethod: {type: string, enum: [phone, email]}
        phone: {type: string}
        email: {type: string}
      allOf:
        - anyOf: [{required: [phone]}, {required: [email]}]
      if:
        properties: {contactMethod: {const: phone}}
        required: [contactMethod]
      then: {required: [phone]}
      else: {required: [email]}
      additionalProperties: false
";

#[test]
fn a_whole_input_schema_is_published_exactly_as_written() {
    let c = loads(&with(WHOLE_INPUT));
    let tool = tool_json(&c, &c.tools[0]);
    let expected = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {
            "street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    });
    // Keys in the order written, compared as text.
    assert_eq!(tool["inputSchema"].to_string(), expected.to_string());
    assert!(c.tools[0].parameters.is_empty());
}

#[test]
fn a_document_that_is_not_valid_2020_12_is_refused_where_the_fault_is() {
    let text = with(WHOLE_INPUT).replace("street: {type: string}", "street: {type: strin}");
    let d = single(
        &text,
        "bad-json-schema",
        "`/$defs/address/properties/street/type` \"strin\" is not a JSON type",
        "tools.yaml:17:28",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "the document must be JSON Schema 2020-12 that the run-time checks enforce as published"
        )
    );
    let text = with(WHOLE_INPUT).replace("'#/$defs/address'", "'#/$defs/adress'");
    single(
        &text,
        "bad-json-schema",
        "`/properties/address/$ref` `#/$defs/adress` points at no schema of the document",
        "tools.yaml:21:25",
    );
    let text = with(WHOLE_INPUT).replace("      allOf:", "      prefixItems: [{}]\n      allOf:");
    single(
        &text,
        "bad-json-schema",
        "`/prefixItems` `prefixItems` is not supported",
        "tools.yaml:25:20",
    );
}

#[test]
fn a_whole_input_is_a_closed_object() {
    let text = with(WHOLE_INPUT).replace("      additionalProperties: false\n", "");
    single(
        &text,
        "json-schema-placement",
        "the root of a tool's `inputSchema` must say `additionalProperties: false`",
        "tools.yaml:10:7",
    );
    let text = with(WHOLE_INPUT).replace(
        "      type: object\n      $defs",
        "      type: array\n      $defs",
    );
    single(
        &text,
        "json-schema-placement",
        "the root of a tool's `inputSchema` must say `type: object`",
        "tools.yaml:11:13",
    );
    let text = with(&format!("{WHOLE_INPUT}    parameters: {{}}\n"));
    single(
        &text,
        "json-schema-placement",
        "`parameters:` beside `input_schema:`: the document is the tool's whole input",
        "tools.yaml:33:5",
    );
}

/// A parameter given as a document (line 10 is the parameter's name).
const PARAMETER: &str = "    parameters:
      filter:
        json_schema:
          description: Which records to keep.
          type: object
          properties:
            field: {type: string}
            equals: {}
          required: [field]
          dependentRequired: {equals: [field]}
          examples: [{field: name, equals: Ada}]
        required: false
";

#[test]
fn a_parameter_document_is_published_as_written_and_received_as_json() {
    let c = loads(&with(PARAMETER));
    let tool = tool_json(&c, &c.tools[0]);
    assert_eq!(
        tool["inputSchema"]["properties"]["filter"].to_string(),
        json!({
            "description": "Which records to keep.",
            "type": "object",
            "properties": {"field": {"type": "string"}, "equals": {}},
            "required": ["field"],
            "dependentRequired": {"equals": ["field"]},
            "examples": [{"field": "name", "equals": "Ada"}],
        })
        .to_string()
    );
    assert_eq!(tool["inputSchema"].get("required"), None);
    let module = c.rust_module();
    assert!(
        module.contains("pub filter: Option<::mcp_contract::serde_json::Value>,"),
        "{module}"
    );
}

#[test]
fn a_parameter_document_carries_its_description_and_example_itself() {
    let text = with(PARAMETER)
        .replace("          description: Which records to keep.\n", "")
        .replace("          examples: [{field: name, equals: Ada}]\n", "");
    refused_at(
        &text,
        &[
            ("missing-description", "tools.yaml:10:7"),
            ("missing-example", "tools.yaml:10:7"),
        ],
    );
    let text = with(PARAMETER).replace("[{field: name, equals: Ada}]", "[{}]");
    single(
        &text,
        "invalid-example",
        "this example does not match its own schema: \"field\" is a required property",
        "tools.yaml:19:22",
    );
}

#[test]
fn a_parameter_document_stands_alone() {
    let text = with(PARAMETER).replace(
        "        required: false\n",
        "        default: {field: id}\n",
    );
    single(
        &text,
        "json-schema-placement",
        "`default` beside `json_schema:`: the document is the whole schema, published as written",
        "tools.yaml:20:9",
    );
    let text = with(PARAMETER).replace("equals: {}", "equals: {$ref: '#/$defs/x'}");
    single(
        &text,
        "json-schema-placement",
        "`$ref` in the document of one parameter or field would resolve against the tool's whole schema",
        "tools.yaml:16:28",
    );
}

#[test]
fn a_document_file_beside_the_manifest_is_read_and_its_faults_named() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(
        dir.path().join("contact.json"),
        r#"{"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false}"#,
    )
    .expect("written");
    std::fs::write(
        dir.path().join("broken.json"),
        r#"{"type": "object", "minProperties": -1, "additionalProperties": false}"#,
    )
    .expect("written");
    let text = with("    input_schema: contact.json\n");
    let source = Source::new("tools.yaml", text.as_str()).with_dir(dir.path());
    let c = load(&source).expect("loads").contract;
    let tool = tool_json(&c, &c.tools[0]);
    assert_eq!(
        tool["inputSchema"].to_string(),
        r#"{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}"#
    );
    assert_eq!(c.document_files, [dir.path().join("contact.json")]);
    for (file, message) in [
        (
            "broken.json",
            "`broken.json`: `/minProperties` is not a whole number of 0 or more",
        ),
        (
            "../contact.json",
            "`../contact.json` is not a path inside the manifest's folder",
        ),
    ] {
        let text = with(&format!("    input_schema: {file}\n"));
        let source = Source::new("tools.yaml", text.as_str()).with_dir(dir.path());
        let Err(diags) = load(&source) else {
            panic!("{file} loaded")
        };
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, "bad-json-schema");
        assert_eq!(diags[0].message, message);
        assert_eq!(diags[0].location(&source), "tools.yaml:9:19");
    }
}

#[test]
fn a_whole_output_schema_is_published_as_written_and_returned_as_json() {
    let text = VALID.replace(
        "    output: text\n",
        "    output:
      json_schema:
        type: object
        properties:
          total: {type: integer}
        oneOf: [{required: [total]}, {required: [error]}]
",
    );
    let c = loads(&text);
    let tool = tool_json(&c, &c.tools[0]);
    assert_eq!(
        tool["outputSchema"].to_string(),
        r#"{"type":"object","properties":{"total":{"type":"integer"}},"oneOf":[{"required":["total"]},{"required":["error"]}]}"#
    );
    let module = c.rust_module();
    assert!(
        module.contains("pub type PingOutput = ::mcp_contract::serde_json::Value;"),
        "{module}"
    );
}
