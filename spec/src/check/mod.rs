//! Checking JSON values against the JSON Schema (2020-12) subset that contracts publish and
//! forms ask with, without a general schema engine: a small tree of rules compiled once from
//! the schema, walked without allocating while a value passes, and naming every problem (with
//! its place and the validator-style sentence users read) when it does not.
//!
//! The subset: `type` (one or several), `enum`, `const`, string lengths, `pattern`
//! ([`regex_lite`]; the generator refuses a pattern it cannot compile), `format`
//! ([`format`]), `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
//! `items`, `minItems`, `maxItems`, `uniqueItems`, `properties`, `required`,
//! `additionalProperties`, `minProperties`, `maxProperties`, `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `$ref` within the document
//! (a JSON pointer or an `$anchor`, with `$defs`) and boolean schemas. Other keywords are
//! annotations, as JSON Schema reads unknown ones, except the applicators this subset leaves
//! out (`prefixItems`, `patternProperties`, `$dynamicRef`, …): a schema using one does not
//! compile, rather than be checked loosely. Compiling checks each keyword's value as the
//! 2020-12 metaschema does, so the generator uses it to check the JSON Schema documents a
//! manifest publishes as written. The contract test holds this checker to the `jsonschema`
//! crate over every published schema (`testing::assert_checks`).

mod compile;
mod document;
mod format;
mod number;

pub use compile::{DIALECT, schema_objects};
pub use document::InDocument;

use std::fmt::Write as _;

use crate::pointer;
use serde_json::{Map, Number, Value};

use crate::Format;

/// How much of a rejected value's JSON a message quotes back; the rest is cut, so a call
/// that sent megabytes does not get them back (twice: as text and as structured content).
pub const QUOTED_CHARS: usize = 60;

/// Keywords that apply subschemas or assert in ways this checker does not implement.
const UNSUPPORTED: &[&str] = &[
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// A compiled schema.
#[derive(Debug)]
pub struct Checker {
    root: Node,
    /// The nodes `$ref`s point at, by slot.
    targets: Box<[Node]>,
}

/// Why a schema does not compile: where in it, and what is wrong there.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError {
    /// A JSON pointer into the schema; empty for its root.
    pub at: String,
    /// What is wrong, without the place.
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.at, self.message)
    }
}

impl std::error::Error for SchemaError {}

/// One problem: where it lies (a JSON pointer into the value), what it is, and the sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// A JSON pointer to the value concerned; empty for the whole value.
    pub at: String,
    /// What kind of problem.
    pub kind: Kind,
    /// The problem in words, the value quoted (cut to [`QUOTED_CHARS`]).
    pub message: String,
}

/// What kind of problem a [`Failure`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A required property is missing (its name).
    Required(String),
    /// Properties the object may not have (their names, in the value's order).
    Unexpected(Vec<String>),
    /// Anything else.
    Invalid,
}

impl Checker {
    /// Compiles `schema`.
    ///
    /// # Errors
    ///
    /// A schema outside the subset, or malformed (a keyword of the wrong type, a pattern that
    /// does not compile): the reason, with the place in the schema.
    pub fn compile(schema: &Value) -> Result<Checker, SchemaError> {
        let mut compiler = compile::Compiler::new(schema)?;
        let root = compiler.node(schema, "")?;
        compiler.refuse_loops()?;
        let targets = compiler
            .targets
            .into_iter()
            .map(|t| t.expect("every slot is compiled before compiling ends"))
            .collect();
        Ok(Checker { root, targets })
    }

    /// Whether `value` passes, stopping at the first problem, without allocating.
    pub fn is_valid(&self, value: &Value) -> bool {
        self.root.visit(
            Instance::Value(value),
            &Path::ROOT,
            &mut None,
            &self.targets,
        )
    }

    /// Whether the object `fields` passes: [`Checker::is_valid`] of arguments, uncopied.
    pub fn is_valid_object(&self, fields: &Map<String, Value>) -> bool {
        self.root.visit(
            Instance::Object(fields),
            &Path::ROOT,
            &mut None,
            &self.targets,
        )
    }

    /// Every problem of `value`, in the order the schema states its keywords.
    pub fn failures(&self, value: &Value) -> Vec<Failure> {
        let mut out = Some(Vec::new());
        self.root
            .visit(Instance::Value(value), &Path::ROOT, &mut out, &self.targets);
        out.unwrap_or_default()
    }

    /// [`Checker::failures`] of the object `fields`.
    pub fn object_failures(&self, fields: &Map<String, Value>) -> Vec<Failure> {
        let mut out = Some(Vec::new());
        self.root.visit(
            Instance::Object(fields),
            &Path::ROOT,
            &mut out,
            &self.targets,
        );
        out.unwrap_or_default()
    }

    /// The root's `properties`, for walks that follow the schema's shape.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The schema of property `name` of `node`'s objects, found in `node` or in what applies
    /// to the value itself (its `allOf` branches and `$ref`s): a walk that follows a value's
    /// shape reads the same schema whether a type is written in place or referred to.
    pub fn property<'c>(&'c self, node: &'c Node, name: &str) -> Option<&'c Node> {
        self.in_place(node).find_map(|n| n.property(name))
    }

    /// The schema of `node`'s array items, in it or in what applies to the value itself, as
    /// [`property`](Self::property) finds one.
    pub fn items<'c>(&'c self, node: &'c Node) -> Option<&'c Node> {
        self.in_place(node).find_map(Node::items)
    }

    /// [`Node::integer_bounds`] of `node` or of what applies to the value itself, as
    /// [`property`](Self::property) reads it.
    pub fn integer_bounds<'c>(
        &'c self,
        node: &'c Node,
    ) -> Option<(Option<&'c Number>, Option<&'c Number>)> {
        self.in_place(node).find_map(Node::integer_bounds)
    }

    /// The variant `value`'s tag names, when `node` (or what applies to the value itself) is
    /// a tagged union: the schema of the value's fields.
    pub fn variant<'c>(&'c self, node: &'c Node, value: &Value) -> Option<&'c Node> {
        let tag_of = |tagged: &Tagged| value.get(&tagged.tag)?.as_str();
        self.in_place(node).find_map(|n| {
            n.rules.iter().find_map(|rule| match rule {
                Rule::OneOf(nodes, Variants::Tagged(tagged)) => {
                    let tag = tag_of(tagged)?;
                    nodes.get(tagged.values.iter().position(|v| v == tag)?)
                }
                _ => None,
            })
        })
    }

    /// `node`, then each schema that applies to the same value as surely as it does: the
    /// branches of its `allOf` and the targets of its `$ref`s, written in place or referred to
    /// alike, each target once (a loop of references ends). Never `not`, `anyOf`, `oneOf` or
    /// `if`: they do not say what the value is.
    fn in_place<'c>(&'c self, node: &'c Node) -> impl Iterator<Item = &'c Node> {
        let mut found = vec![node];
        let mut slots = Vec::new();
        let mut next = 0;
        while let Some(at) = found.get(next) {
            let mut reached = Vec::new();
            for rule in &at.rules {
                match rule {
                    Rule::Ref(slot) if !slots.contains(slot) => {
                        slots.push(*slot);
                        reached.push(&self.targets[*slot]);
                    }
                    Rule::AllOf(nodes) => reached.extend(nodes.iter()),
                    _ => {}
                }
            }
            found.extend(reached);
            next += 1;
        }
        found.into_iter()
    }
}

/// A schema node: its rules, in the order the schema writes them.
#[derive(Debug)]
pub struct Node {
    rules: Box<[Rule]>,
}

#[derive(Debug)]
enum Rule {
    False,
    Type(Types),
    Enum(Vec<Value>),
    Const(Value),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<regex_lite::Regex>),
    Format(Format),
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(Number),
    ExclusiveMaximum(Number),
    MultipleOf(Number),
    Items(Box<Node>),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    Properties(Vec<(String, Node)>),
    Required(Vec<String>),
    /// `additionalProperties`: the properties it leaves alone, and `None` for `false`.
    Additional(Vec<String>, Option<Box<Node>>),
    MinProperties(u64),
    MaxProperties(u64),
    AllOf(Vec<Node>),
    AnyOf(Vec<Node>),
    /// `oneOf`, and how a refusal names its branches.
    OneOf(Vec<Node>, Variants),
    Not(Box<Node>, Value),
    /// `if`, with `then` and `else` when written.
    If(Box<Node>, Option<Box<Node>>, Option<Box<Node>>),
    /// `dependentRequired`: when the property is present, the names that must be too.
    DependentRequired(Vec<(String, Vec<String>)>),
    /// `dependentSchemas`: when the property is present, the schema the object must pass.
    DependentSchemas(Vec<(String, Node)>),
    /// `$ref`: the slot of the node it points at.
    Ref(usize),
}

/// The JSON types, as bits, and the `type` keyword's names in its order.
#[derive(Debug)]
struct Types {
    mask: u8,
    names: Vec<&'static str>,
}

const NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

impl Types {
    fn admits(&self, value: Instance<'_>) -> bool {
        let bit = match value {
            Instance::Object(_) | Instance::Value(Value::Object(_)) => 2,
            Instance::Value(Value::Null) => 0,
            Instance::Value(Value::Bool(_)) => 1,
            Instance::Value(Value::Array(_)) => 3,
            Instance::Value(Value::String(_)) => 5,
            Instance::Value(Value::Number(n)) => {
                if self.mask & (1 << 4) != 0 {
                    return true;
                }
                if number::is_integer(n) { 6 } else { 4 }
            }
        };
        self.mask & (1 << bit) != 0
    }

    fn message(&self, value: &str) -> String {
        match self.names.as_slice() {
            [one] => format!("{value} is not of type \"{one}\""),
            many => {
                let names: Vec<String> = many.iter().map(|n| format!("\"{n}\"")).collect();
                format!("{value} is not of types {}", names.join(", "))
            }
        }
    }
}

/// The value a node looks at: arguments are checked as the map they arrive in.
#[derive(Clone, Copy)]
enum Instance<'v> {
    Value(&'v Value),
    Object(&'v Map<String, Value>),
}

impl<'v> Instance<'v> {
    fn object(self) -> Option<&'v Map<String, Value>> {
        match self {
            Instance::Object(o) | Instance::Value(Value::Object(o)) => Some(o),
            Instance::Value(_) => None,
        }
    }

    fn value(self) -> Option<&'v Value> {
        match self {
            Instance::Value(v) => Some(v),
            Instance::Object(_) => None,
        }
    }

    /// The value's JSON, cut to [`QUOTED_CHARS`] characters.
    fn quoted(self) -> String {
        let json = match self {
            Instance::Value(v) => v.to_string(),
            Instance::Object(o) => serde_json::to_string(o).unwrap_or_default(),
        };
        quoted(json)
    }
}

/// `json` whole when short, else its head and its length.
pub fn quoted(json: String) -> String {
    match json.char_indices().nth(QUOTED_CHARS) {
        None => json,
        Some((cut, _)) => format!("{}… ({} bytes of JSON)", &json[..cut], json.len()),
    }
}

/// Where a value lies, built only when a problem is named.
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    const ROOT: Path<'static> = Path {
        parent: None,
        segment: Segment::Root,
    };

    fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Index(i),
        }
    }

    fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write(out);
        }
        match self.segment {
            Segment::Root => {}
            Segment::Key(k) => {
                out.push('/');
                out.push_str(&pointer::escape(k));
            }
            Segment::Index(i) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
}

type Sink = Option<Vec<Failure>>;

fn fail(out: &mut Sink, at: &Path<'_>, kind: Kind, message: impl FnOnce() -> String) {
    if let Some(out) = out {
        out.push(Failure {
            at: at.pointer(),
            kind,
            message: message(),
        });
    }
}

impl Node {
    /// The slots of the `$ref`s this node applies to the value itself (not to a member).
    fn refs_in_place(&self, out: &mut Vec<usize>) {
        for rule in &self.rules {
            match rule {
                Rule::Ref(slot) => out.push(*slot),
                Rule::AllOf(nodes) | Rule::AnyOf(nodes) | Rule::OneOf(nodes, _) => {
                    nodes.iter().for_each(|n| n.refs_in_place(out));
                }
                Rule::Not(node, _) => node.refs_in_place(out),
                Rule::If(test, then, otherwise) => {
                    test.refs_in_place(out);
                    for branch in [then, otherwise].into_iter().flatten() {
                        branch.refs_in_place(out);
                    }
                }
                Rule::DependentSchemas(named) => {
                    named.iter().for_each(|(_, n)| n.refs_in_place(out))
                }
                _ => {}
            }
        }
    }

    /// The schema of property `name` of this node's objects, when it names one.
    pub fn property(&self, name: &str) -> Option<&Node> {
        self.rules.iter().find_map(|r| match r {
            Rule::Properties(p) => p.iter().find(|(n, _)| n == name).map(|(_, s)| s),
            _ => None,
        })
    }

    /// The schema of this node's array items.
    pub fn items(&self) -> Option<&Node> {
        self.rules.iter().find_map(|r| match r {
            Rule::Items(s) => Some(&**s),
            _ => None,
        })
    }

    /// Whether this node's type is `integer`, and its bounds.
    pub fn integer_bounds(&self) -> Option<(Option<&Number>, Option<&Number>)> {
        let integer = self.rules.iter().any(|r| match r {
            Rule::Type(t) => t.names == ["integer"],
            _ => false,
        });
        integer.then(|| {
            let find = |min: bool| {
                self.rules.iter().find_map(|r| match (r, min) {
                    (Rule::Minimum(n), true) | (Rule::Maximum(n), false) => Some(n),
                    _ => None,
                })
            };
            (find(true), find(false))
        })
    }

    /// The names of this node's properties, in schema order.
    pub fn property_names(&self) -> impl Iterator<Item = &str> {
        self.rules
            .iter()
            .filter_map(|r| match r {
                Rule::Properties(p) => Some(p.iter().map(|(n, _)| n.as_str())),
                _ => None,
            })
            .flatten()
    }

    /// Whether `value` passes; with a sink, every problem is pushed to it and the walk goes
    /// on, without one it stops at the first.
    fn visit(&self, value: Instance<'_>, at: &Path<'_>, out: &mut Sink, targets: &[Node]) -> bool {
        let mut valid = true;
        for rule in &self.rules {
            if !rule.visit(value, at, out, targets) {
                valid = false;
                if out.is_none() {
                    return false;
                }
            }
        }
        valid
    }
}

impl Rule {
    fn visit(&self, value: Instance<'_>, at: &Path<'_>, out: &mut Sink, targets: &[Node]) -> bool {
        let invalid = |out: &mut Sink, message: &dyn Fn(&str) -> String| {
            fail(out, at, Kind::Invalid, || message(&value.quoted()));
            false
        };
        let v = value.value();
        let string = v.and_then(Value::as_str);
        let array = v.and_then(Value::as_array);
        let num = match v {
            Some(Value::Number(n)) => Some(n),
            _ => None,
        };
        match self {
            Rule::False => invalid(out, &|v| format!("False schema does not allow {v}")),
            Rule::Type(t) => t.admits(value) || invalid(out, &|v| t.message(v)),
            Rule::Enum(options) => {
                let found = match value {
                    Instance::Value(v) => options.iter().any(|o| number::equal(o, v)),
                    Instance::Object(o) => options
                        .iter()
                        .any(|e| e.as_object().is_some_and(|e| number::equal_maps(e, o))),
                };
                found || invalid(out, &|v| enum_message(v, options))
            }
            Rule::Const(expected) => {
                let same = match value {
                    Instance::Value(v) => number::equal(expected, v),
                    Instance::Object(o) => expected
                        .as_object()
                        .is_some_and(|e| number::equal_maps(e, o)),
                };
                same || invalid(out, &|_| format!("{expected} was expected"))
            }
            Rule::MinLength(limit) => match string {
                Some(s) if (s.chars().count() as u64) < *limit => invalid(out, &|v| {
                    format!("{v} is shorter than {limit} character{}", plural(*limit))
                }),
                _ => true,
            },
            Rule::MaxLength(limit) => match string {
                // More bytes than the limit is the cheap test that some strings pass.
                Some(s) if s.len() as u64 > *limit && s.chars().count() as u64 > *limit => {
                    invalid(out, &|v| {
                        format!("{v} is longer than {limit} character{}", plural(*limit))
                    })
                }
                _ => true,
            },
            Rule::Pattern(regex) => match string {
                Some(s) if !regex.is_match(s) => invalid(out, &|v| {
                    format!("{v} does not match \"{}\"", regex.as_str())
                }),
                _ => true,
            },
            Rule::Format(f) => match string {
                Some(s) if !f.accepts(s) => {
                    invalid(out, &|v| format!("{v} is not a \"{}\"", f.as_str()))
                }
                _ => true,
            },
            Rule::Minimum(limit) => match num {
                Some(n) if number::less(n, limit) => {
                    invalid(out, &|v| format!("{v} is less than the minimum of {limit}"))
                }
                _ => true,
            },
            Rule::Maximum(limit) => match num {
                Some(n) if number::less(limit, n) => invalid(out, &|v| {
                    format!("{v} is greater than the maximum of {limit}")
                }),
                _ => true,
            },
            Rule::ExclusiveMinimum(limit) => match num {
                Some(n) if !number::less(limit, n) => invalid(out, &|v| {
                    format!("{v} is less than or equal to the minimum of {limit}")
                }),
                _ => true,
            },
            Rule::ExclusiveMaximum(limit) => match num {
                Some(n) if !number::less(n, limit) => invalid(out, &|v| {
                    format!("{v} is greater than or equal to the maximum of {limit}")
                }),
                _ => true,
            },
            Rule::MultipleOf(of) => match num {
                Some(n) if !number::is_multiple(n, of) => {
                    invalid(out, &|v| format!("{v} is not a multiple of {of}"))
                }
                _ => true,
            },
            Rule::Items(node) => match array {
                Some(items) => {
                    let mut valid = true;
                    for (i, item) in items.iter().enumerate() {
                        if !node.visit(Instance::Value(item), &at.index(i), out, targets) {
                            valid = false;
                            if out.is_none() {
                                return false;
                            }
                        }
                    }
                    valid
                }
                None => true,
            },
            Rule::MinItems(limit) => match array {
                Some(a) if (a.len() as u64) < *limit => invalid(out, &|v| {
                    format!("{v} has less than {limit} item{}", plural(*limit))
                }),
                _ => true,
            },
            Rule::MaxItems(limit) => match array {
                Some(a) if a.len() as u64 > *limit => invalid(out, &|v| {
                    format!("{v} has more than {limit} item{}", plural(*limit))
                }),
                _ => true,
            },
            Rule::UniqueItems => match array {
                Some(a) if !unique(a) => invalid(out, &|v| format!("{v} has non-unique elements")),
                _ => true,
            },
            Rule::Properties(properties) => {
                let Some(fields) = value.object() else {
                    return true;
                };
                let mut valid = true;
                // In the value's order, as the caller wrote it.
                for (name, field) in fields {
                    if let Some((_, node)) = properties.iter().find(|(n, _)| n == name)
                        && !node.visit(Instance::Value(field), &at.key(name), out, targets)
                    {
                        valid = false;
                        if out.is_none() {
                            return false;
                        }
                    }
                }
                valid
            }
            Rule::Required(names) => {
                let Some(fields) = value.object() else {
                    return true;
                };
                let mut valid = true;
                for name in names {
                    if !fields.contains_key(name) {
                        valid = false;
                        if out.is_none() {
                            return false;
                        }
                        fail(out, at, Kind::Required(name.clone()), || {
                            let quoted = serde_json::to_string(name).unwrap_or_default();
                            format!("{quoted} is a required property")
                        });
                    }
                }
                valid
            }
            Rule::Additional(known, node) => {
                let Some(fields) = value.object() else {
                    return true;
                };
                let extra = fields
                    .iter()
                    .filter(|(name, _)| !known.iter().any(|k| k == *name));
                match node {
                    None => {
                        let mut extra = extra.peekable();
                        if extra.peek().is_none() {
                            return true;
                        }
                        let Some(out) = out else {
                            return false;
                        };
                        let names: Vec<String> = extra.map(|(n, _)| n.clone()).collect();
                        let mut message = String::from("Additional properties are not allowed (");
                        for (i, n) in names.iter().enumerate() {
                            let _ = write!(message, "{}'{n}'", if i == 0 { "" } else { ", " });
                        }
                        message.push_str(if names.len() == 1 {
                            " was unexpected)"
                        } else {
                            " were unexpected)"
                        });
                        out.push(Failure {
                            at: at.pointer(),
                            kind: Kind::Unexpected(names),
                            message,
                        });
                        false
                    }
                    Some(node) => {
                        let mut valid = true;
                        for (name, field) in extra {
                            if !node.visit(Instance::Value(field), &at.key(name), out, targets) {
                                valid = false;
                                if out.is_none() {
                                    return false;
                                }
                            }
                        }
                        valid
                    }
                }
            }
            Rule::MinProperties(limit) => match value.object() {
                Some(o) if (o.len() as u64) < *limit => invalid(out, &|v| {
                    format!("{v} has less than {limit} propert{}", plural_y(*limit))
                }),
                _ => true,
            },
            Rule::MaxProperties(limit) => match value.object() {
                Some(o) if o.len() as u64 > *limit => invalid(out, &|v| {
                    format!("{v} has more than {limit} propert{}", plural_y(*limit))
                }),
                _ => true,
            },
            Rule::AllOf(nodes) => {
                let mut valid = true;
                for node in nodes {
                    if !node.visit(value, at, out, targets) {
                        valid = false;
                        if out.is_none() {
                            return false;
                        }
                    }
                }
                valid
            }
            Rule::AnyOf(nodes) => {
                nodes.iter().any(|n| n.visit(value, at, &mut None, targets))
                    || invalid(out, &|v| {
                        format!(
                            "{v} is not valid under any of the schemas listed in the 'anyOf' keyword"
                        )
                    })
            }
            Rule::OneOf(nodes, Variants::Tagged(tagged)) => {
                let named = value
                    .object()
                    .and_then(|o| o.get(&tagged.tag))
                    .and_then(Value::as_str)
                    .and_then(|tag| tagged.values.iter().position(|v| v == tag));
                let Some(branch) = named else {
                    return invalid(out, &|v| tagged.unnamed(v));
                };
                // The tag names the one branch the value can match: its problems are the
                // value's, told at the union's place (where `oneOf` fails) with their own.
                if out.is_none() {
                    return nodes[branch].visit(value, at, out, targets);
                }
                let mut inner = Some(Vec::new());
                if nodes[branch].visit(value, at, &mut inner, targets) {
                    return true;
                }
                let here = at.pointer();
                let problems: Vec<String> = inner
                    .unwrap_or_default()
                    .into_iter()
                    .map(|f| match f.at.strip_prefix(&here) {
                        Some("") | None => f.message,
                        Some(below) => format!("at `{below}`: {}", f.message),
                    })
                    .collect();
                invalid(out, &|v| {
                    format!(
                        "{v} is not a valid {} (its {}): {}",
                        json_string(&tagged.values[branch]),
                        json_string(&tagged.tag),
                        problems.join("; ")
                    )
                })
            }
            Rule::OneOf(nodes, Variants::Untagged(labels)) => {
                let Some(out) = out else {
                    let mut passing = nodes
                        .iter()
                        .filter(|n| n.visit(value, at, &mut None, targets));
                    return passing.next().is_some() && passing.next().is_none();
                };
                let passing: Vec<&str> = nodes
                    .iter()
                    .zip(labels)
                    .filter(|(n, _)| n.visit(value, at, &mut None, targets))
                    .map(|(_, label)| label.as_str())
                    .collect();
                let message = match passing.as_slice() {
                    [_] => return true,
                    [] => {
                        let all: Vec<&str> = labels.iter().map(String::as_str).collect();
                        format!(
                            "{} is not valid under any of the schemas listed in the 'oneOf' keyword ({})",
                            value.quoted(),
                            listed(&all, "or")
                        )
                    }
                    several => format!(
                        "{} is valid under more than one of the schemas listed in the 'oneOf' keyword ({})",
                        value.quoted(),
                        listed(several, "and")
                    ),
                };
                out.push(Failure {
                    at: at.pointer(),
                    kind: Kind::Invalid,
                    message,
                });
                false
            }
            Rule::Not(node, schema) => {
                !node.visit(value, at, &mut None, targets)
                    || invalid(out, &|v| format!("{schema} is not allowed for {v}"))
            }
            Rule::If(test, then, otherwise) => {
                let branch = if test.visit(value, at, &mut None, targets) {
                    then
                } else {
                    otherwise
                };
                branch
                    .as_ref()
                    .is_none_or(|node| node.visit(value, at, out, targets))
            }
            Rule::DependentRequired(dependents) => {
                let Some(fields) = value.object() else {
                    return true;
                };
                let mut valid = true;
                for (present, names) in dependents {
                    if !fields.contains_key(present) {
                        continue;
                    }
                    for name in names.iter().filter(|n| !fields.contains_key(*n)) {
                        valid = false;
                        if out.is_none() {
                            return false;
                        }
                        fail(out, at, Kind::Required(name.clone()), || {
                            let quoted = serde_json::to_string(name).unwrap_or_default();
                            format!("{quoted} is a required property")
                        });
                    }
                }
                valid
            }
            Rule::DependentSchemas(dependents) => {
                let Some(fields) = value.object() else {
                    return true;
                };
                let mut valid = true;
                for (present, node) in dependents {
                    if fields.contains_key(present) && !node.visit(value, at, out, targets) {
                        valid = false;
                        if out.is_none() {
                            return false;
                        }
                    }
                }
                valid
            }
            Rule::Ref(slot) => targets[*slot].visit(value, at, out, targets),
        }
    }
}

/// How a refusal of `oneOf` names its branches: by the tag's values, when they are a tagged
/// union; else by their `title`s, or their JSON (cut to [`QUOTED_CHARS`]).
#[derive(Debug)]
pub(crate) enum Variants {
    Tagged(Tagged),
    Untagged(Vec<String>),
}

impl Variants {
    /// The names of `branches` (`oneOf`'s value).
    pub(crate) fn of(branches: &Value) -> Variants {
        if let Some(tagged) = Tagged::of(branches) {
            return Variants::Tagged(tagged);
        }
        let labels = branches.as_array().into_iter().flatten().map(|branch| {
            match branch.get("title").and_then(Value::as_str) {
                Some(title) => json_string(title),
                None => quoted(branch.to_string()),
            }
        });
        Variants::Untagged(labels.collect())
    }
}

/// `a`, `a and b`, `a, b and c`, with `and` or `or`.
fn listed(names: &[&str], and: &str) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {and} {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The tag of a `oneOf` whose branches are a tagged union: each an object schema that
/// requires the same property and holds it to a string `const` of its own. A value's tag then
/// names the only branch it can match, so a refusal can say what is wrong within that one, or
/// which tags there are.
#[derive(Debug)]
pub(crate) struct Tagged {
    tag: String,
    /// Each branch's tag value, in order.
    values: Vec<String>,
}

impl Tagged {
    /// The tag of `branches` (`oneOf`'s value), when they are a tagged union: each branch an
    /// object (`required` and `properties` say nothing of other values, which may match a
    /// branch without a type) requiring the tag, with its own `const`.
    pub(crate) fn of(branches: &Value) -> Option<Tagged> {
        let branches = branches.as_array()?;
        let first = branches.first()?;
        let required = first.get("required")?.as_array()?;
        let tag_value = |branch: &Value, tag: &str| -> Option<String> {
            if branch.get("type")? != "object" {
                return None;
            }
            let listed = branch
                .get("required")?
                .as_array()?
                .iter()
                .any(|r| r.as_str() == Some(tag));
            let value = branch.get("properties")?.get(tag)?.get("const")?.as_str()?;
            listed.then(|| value.to_owned())
        };
        required.iter().filter_map(Value::as_str).find_map(|tag| {
            let values: Vec<String> = branches
                .iter()
                .map(|b| tag_value(b, tag))
                .collect::<Option<_>>()?;
            let distinct = values
                .iter()
                .enumerate()
                .all(|(i, v)| !values[..i].contains(v));
            distinct.then(|| Tagged {
                tag: tag.to_owned(),
                values,
            })
        })
    }

    /// The sentence for a value whose tag names no branch.
    fn unnamed(&self, value: &str) -> String {
        let values: Vec<String> = self.values.iter().map(|v| json_string(v)).collect();
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let list = listed(&values, "or");
        format!(
            "{value} is none of the variants: its {} must be {list}",
            json_string(&self.tag)
        )
    }
}

/// `text` as a JSON string, as the messages quote names.
fn json_string(text: &str) -> String {
    Value::from(text).to_string()
}

fn types(value: &Value) -> Result<Types, String> {
    let names: Vec<&Value> = match value {
        Value::Array(names) => names.iter().collect(),
        one => vec![one],
    };
    if names.is_empty() {
        return Err("is an empty list of types".into());
    }
    let mut types = Types {
        mask: 0,
        names: Vec::new(),
    };
    for name in names {
        let found = NAMES
            .iter()
            .position(|n| Some(*n) == name.as_str())
            .ok_or_else(|| format!("{name} is not a JSON type"))?;
        if types.mask & (1 << found) != 0 {
            return Err(format!("names {name} twice"));
        }
        types.mask |= 1 << found;
        types.names.push(NAMES[found]);
    }
    Ok(types)
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plural_y(n: u64) -> &'static str {
    if n == 1 { "y" } else { "ies" }
}

/// The sentence for a value not in `options`: up to three named, or two and a count.
fn enum_message(value: &str, options: &[Value]) -> String {
    let shown: Vec<String> = options.iter().map(Value::to_string).collect();
    let list = match shown.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        all if all.len() <= 3 => {
            let (last, rest) = all.split_last().expect("two or more");
            format!("{} or {last}", rest.join(", "))
        }
        all => format!(
            "{} or {} other candidates",
            all[..2].join(", "),
            all.len() - 2
        ),
    };
    format!("{value} is not one of {list}")
}

/// Whether no two items are equal (numbers by value).
fn unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[i + 1..].iter().all(|b| !number::equal(a, b)))
}

#[cfg(test)]
mod tests;
