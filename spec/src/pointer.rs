//! JSON pointers (RFC 6901) into the instances a schema describes: where a planning contract
//! finds an artifact in a tool's arguments or structured result.
//!
//! A pointer names a place in an *instance*; resolving it in the instance's schema gives the
//! schema of the value found there. The rules:
//!
//! - **The empty pointer is refused.** RFC 6901 reads `""` as the whole document, and the
//!   documents here are a tool's arguments and its structured result, whose schemas MCP
//!   requires to be objects (`type: "object"` on `inputSchema` and `outputSchema`). An
//!   artifact is a value inside one of them, such as a path, never the whole call or result.
//! - Otherwise a pointer starts with `/`, and each token, `~1` read as `/` and `~0` as `~`,
//!   steps into the current schema by its `type`:
//!   - `object`: the token names a property, followed through `properties`;
//!   - `array`: the token is an index (`0`, or digits without a leading zero) and every index
//!     names the same `items`; any other token (`x`, `-`, `01`) is refused;
//!   - **no `type`: followed like an object.** `properties` applies to every object instance
//!     whatever `type` says, and MCP requires `type` only at the root, so a schema of another
//!     server may describe nested objects by `properties` alone;
//!   - any other type has no fields to step into.

use std::fmt;

use serde_json::Value;

/// A schema as pointer resolution reads it. Implemented for the JSON of a published schema
/// (`&serde_json::Value`) and by the generator for its model of one.
pub trait SchemaNode: Sized {
    /// The `type` keyword when it names one type; `None` when the schema leaves it open.
    fn type_name(&self) -> Option<&str>;
    /// The schema of property `name`, through `properties`.
    fn property(&self, name: &str) -> Option<Self>;
    /// The schema of every item, through `items`.
    fn items(&self) -> Option<Self>;
}

impl SchemaNode for &Value {
    fn type_name(&self) -> Option<&str> {
        self.get("type").and_then(Value::as_str)
    }

    fn property(&self, name: &str) -> Option<Self> {
        self.get("properties")?.get(name)
    }

    fn items(&self) -> Option<Self> {
        self.get("items")
    }
}

/// A node of a published schema with the document it stands in, so that a `$ref` within the
/// document (`#/$defs/Name`, or any `#/…` pointer) is followed: a pointer resolves the same
/// whether a type is written in place or referred to.
#[derive(Debug, Clone, Copy)]
pub struct InDocument<'a> {
    root: &'a Value,
    node: &'a Value,
}

impl<'a> InDocument<'a> {
    /// The root of `document`.
    pub fn new(document: &'a Value) -> Self {
        InDocument {
            root: document,
            node: document,
        }
    }

    /// The schema this node stands for, its `$ref`s followed.
    pub fn schema(self) -> &'a Value {
        self.target().node
    }

    /// The node its `$ref` points at, followed again while it is one (at most a document's
    /// depth of hops, so a loop ends); itself when it has none.
    fn target(self) -> Self {
        let mut at = self;
        for _ in 0..32 {
            let Some(next) = (at.node.get("$ref").and_then(Value::as_str))
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|p| self.root.pointer(p))
            else {
                break;
            };
            at.node = next;
        }
        at
    }

    fn at(self, node: &'a Value) -> Self {
        InDocument {
            root: self.root,
            node,
        }
    }
}

impl SchemaNode for InDocument<'_> {
    fn type_name(&self) -> Option<&str> {
        self.schema().get("type").and_then(Value::as_str)
    }

    fn property(&self, name: &str) -> Option<Self> {
        let node = self.schema().get("properties")?.get(name)?;
        Some(self.at(node))
    }

    fn items(&self) -> Option<Self> {
        Some(self.at(self.schema().get("items")?))
    }
}

/// Why a pointer does not resolve; the text says where it stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerProblem {
    /// `""`, which names the whole document.
    Empty,
    /// A pointer that does not start with `/`.
    NoLeadingSlash,
    /// An object without the property the token names.
    NoProperty(String),
    /// A token into an array that is not an index.
    NotAnIndex(String),
    /// An array schema without `items`.
    NoItems,
    /// A token into a schema whose type has no fields (`string`, say).
    NoFields {
        /// The token.
        token: String,
        /// The schema's type.
        type_name: String,
    },
}

impl fmt::Display for PointerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerProblem::Empty => {
                f.write_str("the empty pointer names the whole document, not a field")
            }
            PointerProblem::NoLeadingSlash => f.write_str("a JSON pointer starts with `/`"),
            PointerProblem::NoProperty(token) => write!(f, "there is no property `{token}`"),
            PointerProblem::NotAnIndex(token) => write!(f, "`{token}` is not an array index"),
            PointerProblem::NoItems => f.write_str("the array has no items"),
            PointerProblem::NoFields { token, type_name } => {
                write!(f, "`{token}` goes into a {type_name}, which has no fields")
            }
        }
    }
}

impl std::error::Error for PointerProblem {}

/// The schema of the value `pointer` names in instances of `schema`, by the rules of the
/// [module documentation](self).
pub fn resolve<N: SchemaNode>(schema: N, pointer: &str) -> Result<N, PointerProblem> {
    let rest = match pointer.strip_prefix('/') {
        Some(rest) => rest,
        None if pointer.is_empty() => return Err(PointerProblem::Empty),
        None => return Err(PointerProblem::NoLeadingSlash),
    };
    rest.split('/').map(unescape).try_fold(schema, |at, token| {
        let next = match at.type_name() {
            None | Some("object") => at.property(&token),
            Some("array") if is_index(&token) => Some(at.items().ok_or(PointerProblem::NoItems)?),
            Some("array") => return Err(PointerProblem::NotAnIndex(token)),
            Some(other) => {
                return Err(PointerProblem::NoFields {
                    type_name: other.to_owned(),
                    token,
                });
            }
        };
        next.ok_or(PointerProblem::NoProperty(token))
    })
}

/// One reference token as written in a pointer, unescaped: `~1` is `/` and `~0` is `~`, in
/// that order, so `~01` is `~1`.
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// One reference token as a pointer writes it, escaped: `~` as `~0`, then `/` as `~1`.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Whether `token` is an array index: `0`, or digits without a leading zero.
pub fn is_index(token: &str) -> bool {
    token == "0"
        || (!token.is_empty()
            && !token.starts_with('0')
            && token.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "dir": {"type": "string"},
                "ids": {"type": "array", "items": {"type": "string"}},
                "bare": {"type": "array"},
                "a/b": {"type": "integer"},
                "m~n": {"type": "boolean"},
                "untyped": {"properties": {"inner": {"type": "string"}}}
            }
        })
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

    #[test]
    fn pointers_follow_properties_and_items() {
        let schema = schema();
        for (pointer, found) in [
            ("/dir", json!({"type": "string"})),
            (
                "/ids",
                json!({"type": "array", "items": {"type": "string"}}),
            ),
            ("/ids/0", json!({"type": "string"})),
            ("/ids/17", json!({"type": "string"})),
            ("/a~1b", json!({"type": "integer"})),
            ("/m~0n", json!({"type": "boolean"})),
        ] {
            assert_eq!(resolve(&schema, pointer), Ok(&found), "{pointer}");
        }
    }

    #[test]
    fn where_a_pointer_stops_is_named() {
        let schema = schema();
        for (pointer, problem) in [
            ("dir", PointerProblem::NoLeadingSlash),
            ("/nope", PointerProblem::NoProperty("nope".into())),
            (
                "/dir/x",
                PointerProblem::NoFields {
                    token: "x".into(),
                    type_name: "string".into(),
                },
            ),
            ("/ids/x", PointerProblem::NotAnIndex("x".into())),
            ("/ids/-", PointerProblem::NotAnIndex("-".into())),
            ("/ids/01", PointerProblem::NotAnIndex("01".into())),
            ("/ids/+0", PointerProblem::NotAnIndex("+0".into())),
            ("/bare/0", PointerProblem::NoItems),
        ] {
            assert_eq!(resolve(&schema, pointer), Err(problem), "{pointer}");
        }
    }

    /// RFC 6901's `""` is the whole document: the arguments or the result object, which an
    /// artifact never is.
    #[test]
    fn the_empty_pointer_is_refused() {
        let schema = schema();
        assert_eq!(resolve(&schema, ""), Err(PointerProblem::Empty));
        assert_eq!(
            PointerProblem::Empty.to_string(),
            "the empty pointer names the whole document, not a field"
        );
    }

    /// `properties` describes any object instance, whatever `type` says; only a `type` that
    /// rules objects out stops a pointer.
    #[test]
    fn a_schema_without_type_is_followed_through_its_properties() {
        let schema = schema();
        assert_eq!(
            resolve(&schema, "/untyped/inner"),
            Ok(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve(&schema, "/untyped/other"),
            Err(PointerProblem::NoProperty("other".into()))
        );
        let typed_otherwise =
            json!({"type": "string", "properties": {"inner": {"type": "string"}}});
        assert!(resolve(&typed_otherwise, "/inner").is_err());
    }

    #[test]
    fn tokens_unescape_in_order() {
        assert_eq!(unescape("~01"), "~1");
        assert_eq!(unescape("~10"), "/0");
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(unescape(&escape("~1/")), "~1/");
    }
}
