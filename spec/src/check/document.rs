//! A whole JSON Schema document as pointer resolution reads it: the document a manifest
//! publishes as written (`input_schema:`, `output: {json_schema}`, a parameter's
//! `json_schema:`), where an artifact pointer may lead through `$ref`s and `allOf`.

use serde_json::Value;

use super::compile::referenced;
use crate::pointer::SchemaNode;

/// How many `$ref`s in a row [`InDocument::schema`] follows. A document whose references loop
/// is refused where it is checked; this bound only keeps reading one that never was from
/// running forever.
#[cfg(test)]
const REFS_IN_A_ROW: usize = 64;

/// How many schemas a search for a keyword reads at most, for the same reason.
const SCHEMAS_READ: usize = 1024;

/// One schema of a document, with the document its `$ref`s resolve in.
#[derive(Debug, Clone, Copy)]
pub struct InDocument<'v> {
    document: &'v Value,
    node: &'v Value,
}

impl<'v> InDocument<'v> {
    /// The document's root schema.
    pub fn new(document: &'v Value) -> InDocument<'v> {
        InDocument {
            document,
            node: document,
        }
    }

    /// The schema this node stands for: its `$ref`s followed to the last.
    #[cfg(test)]
    fn schema(self) -> &'v Value {
        self.chain().last().unwrap_or(self.node)
    }

    /// The `type` keyword when it names one type, for as long as the document lives.
    pub fn json_type(&self) -> Option<&'v str> {
        self.find(|node| node.get("type"))?.as_str()
    }

    fn at(self, node: &'v Value) -> InDocument<'v> {
        InDocument { node, ..self }
    }

    /// This schema, then each schema its `$ref` reaches in turn: in 2020-12 a `$ref` applies
    /// beside its siblings, so a keyword may stand on any of them.
    #[cfg(test)]
    fn chain(self) -> impl Iterator<Item = &'v Value> {
        std::iter::successors(Some(self.node), move |node| {
            referenced(self.document, node.get("$ref")?.as_str()?)
        })
        .take(REFS_IN_A_ROW)
    }

    /// The first schema applying to this value where `keyword` stands: this one, then, breadth
    /// first, what its `$ref` reaches and its `allOf` branches, at any depth. Each schema is
    /// read once, and at most [`SCHEMAS_READ`] in all, so a document whose references loop or
    /// fan out ends.
    fn find(self, keyword: impl Fn(&'v Value) -> Option<&'v Value>) -> Option<&'v Value> {
        let mut queue = vec![self.node];
        let mut next = 0;
        while let Some(&node) = queue.get(next).filter(|_| next < SCHEMAS_READ) {
            next += 1;
            if queue[..next - 1]
                .iter()
                .any(|seen| std::ptr::eq(*seen, node))
            {
                continue;
            }
            if let Some(found) = keyword(node) {
                return Some(found);
            }
            let reference = node.get("$ref").and_then(Value::as_str);
            queue.extend(reference.and_then(|r| referenced(self.document, r)));
            queue.extend(
                node.get("allOf")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            );
        }
        None
    }
}

impl SchemaNode for InDocument<'_> {
    fn type_name(&self) -> Option<&str> {
        self.json_type()
    }

    fn property(&self, name: &str) -> Option<Self> {
        self.find(|node| node.get("properties")?.get(name))
            .map(|node| self.at(node))
    }

    fn items(&self) -> Option<Self> {
        self.find(|node| node.get("items"))
            .map(|node| self.at(node))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::pointer::{PointerProblem, resolve};

    #[test]
    fn a_reference_that_loops_is_read_as_an_open_schema_and_ends() {
        let document = json!({"$ref": "#", "properties": {"a": {"$ref": "#/properties/a"}}});
        let at = resolve(InDocument::new(&document), "/a").unwrap();
        assert_eq!(at.json_type(), None);
        assert_eq!(at.property("b").map(|b| b.schema()), None);
    }

    #[test]
    fn all_of_is_followed_at_any_depth_and_through_references() {
        let document = json!({
            "allOf": [{"allOf": [{"$ref": "#/$defs/a"}]}],
            "$defs": {"a": {"allOf": [{"properties": {"a": {"type": "string"}}}]}},
        });
        let root = InDocument::new(&document);
        assert_eq!(resolve(root, "/a").unwrap().json_type(), Some("string"));
        // Branches that refer to one another end.
        let looped = json!({"allOf": [{"$ref": "#"}, {"$ref": "#/allOf/0"}]});
        assert_eq!(
            resolve(InDocument::new(&looped), "/a").map(|_| ()),
            Err(PointerProblem::NoProperty("a".into()))
        );
    }

    #[test]
    fn a_reference_is_percent_decoded_and_an_anchor_found_anywhere() {
        let document = json!({
            "properties": {"a b": {"$ref": "#/$defs/a%20b"}, "c": {"$ref": "#deep"}},
            "$defs": {"a b": {"type": "string"}, "x": {"items": {"$anchor": "deep", "type": "integer"}}},
        });
        let root = InDocument::new(&document);
        assert_eq!(resolve(root, "/a b").unwrap().json_type(), Some("string"));
        assert_eq!(resolve(root, "/c").unwrap().json_type(), Some("integer"));
    }

    /// Pointers resolve through `$ref`s into the document's `$defs` as through the same
    /// schemas written in place, and fail the same where they fail.
    #[test]
    fn pointers_follow_refs_as_the_schemas_written_in_place() {
        let entry = json!({"type": "object", "properties": {"path": {"type": "string"}}});
        let inline = json!({"type": "object", "properties": {
            "main": entry,
            "all": {"type": "array", "items": entry}
        }});
        let defs = json!({"type": "object", "properties": {
            "main": {"$ref": "#/$defs/Entry", "description": "The main one."},
            "all": {"type": "array", "items": {"$ref": "#/$defs/Entry"}}
        }, "$defs": {"Entry": entry}});
        for pointer in [
            "/main/path",
            "/all/3/path",
            "/main",
            "/main/size",
            "/all/x",
            "/main/path/0",
        ] {
            let a = resolve(InDocument::new(&inline), pointer).map(InDocument::schema);
            let b = resolve(InDocument::new(&defs), pointer).map(InDocument::schema);
            assert_eq!(a, b, "{pointer}");
            assert_eq!(a, resolve(&inline, pointer), "{pointer}");
        }
        // A loop of references ends.
        let looped = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}});
        assert_eq!(
            resolve(InDocument::new(&looped), "/x/y").map(|_| ()),
            Err(PointerProblem::NoProperty("y".into()))
        );
    }
}
