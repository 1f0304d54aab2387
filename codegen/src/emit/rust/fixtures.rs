//! Contract fixtures: each tool's declared contract as literal data in the generated module,
//! taken from the model rather than from the emitted schemas, so a contract test comparing
//! the two catches an emitter that drifts.

use mcp_contract_spec::Hint;
use serde_json::{Map, Value};

use super::text::json_text;
use super::*;

/// `pub static FIXTURES: &[ToolFixture]`, one per tool in manifest order.
pub(super) fn fixtures(w: &mut Code, c: &Contract) {
    w.doc(
        0,
        "Each tool's contract as `tools.yaml` declares it, for contract tests\n(`mcp_contract::testing::assert_contract`).",
    );
    w.line(0, &["#[allow(dead_code)]"]);
    let head = "pub static FIXTURES: &[::mcp_contract::codegen::ToolFixture] = &[";
    if c.tools.is_empty() {
        w.line(0, &[head, "];"]);
        return;
    }
    w.line(0, &[head]);
    for t in &c.tools {
        w.line(1, &["::mcp_contract::codegen::ToolFixture {"]);
        ln!(w, 2, "name: {},", string(&t.name));
        ln!(w, 2, "title: {},", string(&t.title));
        w.line(2, &["hints: ::mcp_contract::codegen::PublishedHints {"]);
        for h in Hint::ALL {
            let value = match t.published_hints.get(h) {
                Some(true) => "Some(true)",
                Some(false) => "Some(false)",
                None => "None",
            };
            ln!(w, 3, "{}: {value},", h.key());
        }
        w.line(2, &["},"]);
        let literals = |values: Vec<&String>| -> Vec<String> {
            values.into_iter().map(|v| string(v)).collect()
        };
        let properties = literals(t.parameters.iter().map(|f| &f.name).collect());
        w.list(2, "properties: &[", &properties, "],");
        let required = t.parameters.iter().filter(|f| f.required).map(|f| &f.name);
        w.list(2, "required: &[", &literals(required.collect()), "],");
        let sentences = t.sentences.iter().map(|&i| &c.sentences[i].text);
        w.list(2, "sentences: &[", &literals(sentences.collect()), "],");
        let defaults: Vec<String> = t
            .parameters
            .iter()
            .filter_map(|f| {
                let json = json_text(&f.default.as_ref()?.to_string());
                Some(format!("({}, {json})", string(&f.name)))
            })
            .collect();
        w.list(2, "defaults: &[", &defaults, "],");
        ln!(
            w,
            2,
            "example_call: {},",
            json_text(&example_call(t).to_string())
        );
        ln!(
            w,
            2,
            "structured_output: {},",
            matches!(t.output, OutputDef::Object { .. } | OutputDef::Document(_))
        );
        w.line(1, &["},"]);
    }
    w.line(0, &["];"]);
}

/// A call that passes the input schema: every parameter with its first example.
pub(crate) fn example_call(t: &ToolDef) -> Value {
    let args: Map<String, Value> = t
        .parameters
        .iter()
        .filter_map(|f| {
            f.schema
                .examples
                .first()
                .map(|e| (f.name.clone(), e.clone()))
        })
        .collect();
    Value::Object(args)
}
