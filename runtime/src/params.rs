//! The params of each request the server answers, checked by shape. rmcp 3.11 reads a
//! request of a known method whose params do not fit that method's type as a request of an
//! unknown method (`ClientRequest` is an untagged enum ending in `CustomRequest`), which its
//! default handler answers `-32601 Method not found`; the server answers it from here with
//! `-32602` naming the member that is wrong.

use mcp_contract_spec::Revision;
use rmcp::model::{
    CallToolRequestParams, CompleteRequestParams, GetPromptRequestParams, InitializeRequestParams,
    PaginatedRequestParams, ReadResourceRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The JSON type a member must have.
#[derive(Clone, Copy)]
enum Kind {
    String,
    Object,
}

/// A member of a method's params.
struct Member {
    name: &'static str,
    kind: Kind,
    /// Whether it must be present; an optional member may also be `null`.
    required: bool,
}

const fn required(name: &'static str, kind: Kind) -> Member {
    Member {
        name,
        kind,
        required: true,
    }
}

const fn optional(name: &'static str, kind: Kind) -> Member {
    Member {
        name,
        kind,
        required: false,
    }
}

/// Methods the server answers that take the same params: their members, then their rmcp
/// params type, whose error says what the members leave unsaid.
struct Method {
    names: &'static [&'static str],
    /// Whether a client of a revision may call them at all; where it may not, they are
    /// unknown methods (`-32601`), however their params look.
    answered: fn(Revision) -> bool,
    members: &'static [Member],
    typed: fn(Value) -> Result<(), serde_json::Error>,
}

fn always(_: Revision) -> bool {
    true
}

fn typed<T: DeserializeOwned>(params: Value) -> Result<(), serde_json::Error> {
    serde_json::from_value::<T>(params).map(drop)
}

const METHODS: &[Method] = &[
    Method {
        names: &["tools/call"],
        answered: always,
        members: &[
            required("name", Kind::String),
            optional("arguments", Kind::Object),
        ],
        typed: typed::<CallToolRequestParams>,
    },
    Method {
        names: &["resources/read"],
        answered: always,
        members: &[required("uri", Kind::String)],
        typed: typed::<ReadResourceRequestParams>,
    },
    Method {
        names: &["prompts/get"],
        answered: always,
        members: &[
            required("name", Kind::String),
            optional("arguments", Kind::Object),
        ],
        typed: typed::<GetPromptRequestParams>,
    },
    Method {
        names: &["completion/complete"],
        answered: always,
        members: &[
            required("ref", Kind::Object),
            required("argument", Kind::Object),
            optional("context", Kind::Object),
        ],
        typed: typed::<CompleteRequestParams>,
    },
    Method {
        names: &[
            "tools/list",
            "resources/list",
            "resources/templates/list",
            "prompts/list",
        ],
        answered: always,
        members: &[optional("cursor", Kind::String)],
        typed: typed::<PaginatedRequestParams>,
    },
    Method {
        names: &["initialize"],
        answered: Revision::has_initialize,
        members: &[
            required("protocolVersion", Kind::String),
            required("capabilities", Kind::Object),
            required("clientInfo", Kind::Object),
        ],
        typed: typed::<InitializeRequestParams>,
    },
];

/// What is wrong with the params of any request of `method`, as JSON-RPC and MCP shape
/// every one: params, or their `_meta`, that are not objects. `None` when they are.
pub(crate) fn shape_problem(method: &str, params: Option<&Value>) -> Option<String> {
    let (kind, what) = match params {
        Some(Value::Object(object)) => (object.get("_meta")?, "`_meta`"),
        Some(Value::Null) | None => return None,
        Some(other) => (other, "`params`"),
    };
    (!kind.is_object()).then(|| {
        format!(
            "Invalid params for {method}: {what} must be an object, not {}",
            kind_of(kind)
        )
    })
}

/// What is wrong with `params` for a request of `method` from a client of `revision`: its
/// [`shape_problem`], then, for a method the server answers on that revision, a member
/// missing or of the wrong type, else whatever keeps rmcp from reading them. `None` when
/// nothing is known to be wrong.
pub(crate) fn problem(method: &str, params: Option<&Value>, revision: Revision) -> Option<String> {
    if let Some(problem) = shape_problem(method, params) {
        return Some(problem);
    }
    let object = params.and_then(Value::as_object);
    let wrong = |why: String| Some(format!("Invalid params for {method}: {why}"));
    let served = METHODS
        .iter()
        .find(|m| m.names.contains(&method) && (m.answered)(revision))?;
    for member in served.members {
        let (kind, a_kind) = match member.kind {
            Kind::String => (Value::is_string as fn(&Value) -> bool, "a string"),
            Kind::Object => (Value::is_object as fn(&Value) -> bool, "an object"),
        };
        match object.and_then(|o| o.get(member.name)) {
            None if member.required => {
                return wrong(format!("`{}` is missing; it is {a_kind}", member.name));
            }
            Some(Value::Null) if !member.required => {}
            Some(value) if !kind(value) => {
                return wrong(format!(
                    "`{}` must be {a_kind}, not {}",
                    member.name,
                    kind_of(value)
                ));
            }
            _ => {}
        }
    }
    let params = object.map_or(Value::Object(Default::default()), |o| {
        Value::Object(o.clone())
    });
    (served.typed)(params)
        .err()
        .and_then(|e| wrong(e.to_string()))
}

/// The JSON type of `value`, with its article.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_wrong_member_is_named() {
        for (method, params, expected) in [
            (
                "tools/call",
                json!({"name": "x", "arguments": [1, 2]}),
                "Invalid params for tools/call: `arguments` must be an object, not an array",
            ),
            (
                "tools/call",
                json!({"arguments": {}}),
                "Invalid params for tools/call: `name` is missing; it is a string",
            ),
            (
                "tools/call",
                json!({"name": true}),
                "Invalid params for tools/call: `name` must be a string, not a boolean",
            ),
            (
                "resources/read",
                json!(["x"]),
                "Invalid params for resources/read: `params` must be an object, not an array",
            ),
            (
                "prompts/get",
                json!({"name": 5}),
                "Invalid params for prompts/get: `name` must be a string, not a number",
            ),
            (
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "p"}}),
                "Invalid params for completion/complete: `argument` is missing; it is an object",
            ),
            (
                "anything/else",
                json!({"_meta": 1}),
                "Invalid params for anything/else: `_meta` must be an object, not a number",
            ),
        ] {
            assert_eq!(
                problem(method, Some(&params), Revision::LATEST).as_deref(),
                Some(expected),
                "{method} {params}"
            );
        }
        assert!(
            problem("tools/call", None, Revision::LATEST)
                .is_some_and(|p| p.contains("`name` is missing")),
            "no params at all"
        );
    }

    #[test]
    fn params_that_fit_have_no_problem() {
        for (method, params) in [
            ("tools/call", json!({"name": "x", "arguments": null})),
            ("tools/call", json!({"name": "x", "arguments": {"a": 1}})),
            ("resources/read", json!({"uri": "x://y"})),
            ("tools/list", json!({"cursor": null})),
            ("prompts/get", json!({"name": "p", "arguments": {"a": "b"}})),
            (
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}),
            ),
        ] {
            assert_eq!(
                problem(method, Some(&params), Revision::LATEST),
                None,
                "{method} {params}"
            );
        }
    }

    #[test]
    fn a_method_a_revision_lacks_has_no_params_to_check() {
        let bare = json!({"_meta": {}});
        assert!(problem("initialize", Some(&bare), Revision::V2025_11_25).is_some());
        assert_eq!(
            problem("initialize", Some(&bare), Revision::V2026_07_28),
            None
        );
    }

    #[test]
    fn what_the_members_leave_unsaid_is_the_typed_error() {
        let problem = problem(
            "tools/call",
            Some(&json!({"name": "x", "requestState": 5})),
            Revision::LATEST,
        );
        assert!(
            problem
                .as_deref()
                .is_some_and(|p| p.starts_with("Invalid params for tools/call: ")),
            "{problem:?}"
        );
    }
}
