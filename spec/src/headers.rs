//! `x-mcp-header`: the input-schema annotation of 2026-07-28 (SEP-2243) that asks clients to
//! mirror an argument into an `Mcp-Param-*` HTTP header, and the view of a tool for the
//! revisions that do not define it.

use serde_json::{Map, Value};

/// The annotation's keyword, on a property of an input schema.
pub const MCP_HEADER: &str = "x-mcp-header";

/// Removes every `x-mcp-header` from `input_schema`, as a tool is published to a revision
/// without [`has_mcp_headers`](crate::Revision::has_mcp_headers). Generated schemas put the
/// annotation only on properties reached through `properties`, so only those are searched.
pub fn strip_mcp_headers(input_schema: &mut Map<String, Value>) {
    if let Some(Value::Object(properties)) = input_schema.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                property.remove(MCP_HEADER);
                strip_mcp_headers(property);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn headers_go_from_every_property_and_nothing_else_does() {
        let Value::Object(mut schema) = json!({
            "type": "object",
            "x-mcp-header": "Kept",
            "properties": {
                "id": {"type": "string", "x-mcp-header": "Id"},
                "filter": {"type": "object", "properties": {"tag": {"type": "string", "x-mcp-header": "Tag"}}},
                "x-mcp-header": {"type": "string", "description": "A property of that name."}
            }
        }) else {
            unreachable!()
        };
        strip_mcp_headers(&mut schema);
        assert_eq!(
            Value::Object(schema),
            json!({
                "type": "object",
                "x-mcp-header": "Kept",
                "properties": {
                    "id": {"type": "string"},
                    "filter": {"type": "object", "properties": {"tag": {"type": "string"}}},
                    "x-mcp-header": {"type": "string", "description": "A property of that name."}
                }
            })
        );
    }
}
