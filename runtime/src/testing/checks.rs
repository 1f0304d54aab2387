//! The differential test of the run-time checks: over every schema a contract publishes, its
//! examples and values made from it, the checker that serves calls accepts exactly what the
//! `jsonschema` crate accepts, and names the same places.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::check::Checker;
use crate::contract::ContractSpec;

/// Holds the run-time checks of every input and output schema of `spec` (the generated
/// `SPEC`) to the `jsonschema` crate, formats checked: at every node of each schema, its
/// examples and values made from its keywords (each type, the bounds and one past them, long
/// and non-ASCII strings, nested objects and arrays with missing, wrong and unknown members)
/// are accepted by both or refused by both, at the same places. Panics with every
/// disagreement; returns how many values were compared.
pub fn assert_checks(spec: &ContractSpec) -> usize {
    let (disagreements, compared) = disagreements(spec);
    assert!(
        disagreements.is_empty(),
        "the run-time checks disagree with jsonschema on {} value(s):\n  - {}",
        disagreements.len(),
        disagreements.join("\n  - ")
    );
    compared
}

/// What [`assert_checks`] finds: each disagreement, and how many values were compared.
pub(crate) fn disagreements(spec: &ContractSpec) -> (Vec<String>, usize) {
    let mut disagreements = Vec::new();
    let mut compared = 0;
    for spec in spec.tools {
        let tool: Value = serde_json::from_str(spec.json).expect("a generated tool is JSON");
        let name = tool["name"].as_str().unwrap_or_default().to_owned();
        for key in ["inputSchema", "outputSchema"] {
            if let Some(schema) = tool.get(key) {
                let at = format!("`{name}` {key}");
                compared += differ(schema, &at, &mut disagreements);
            }
        }
    }
    (disagreements, compared)
}

/// Compares the two checkers on `schema` and each of its subschemas that stands alone (one
/// holding a `$ref` points into the whole document); the count compared.
pub(crate) fn differ(schema: &Value, at: &str, out: &mut Vec<String>) -> usize {
    let mut compared = differ_on(schema, values(schema, 2), at, out);
    let alone = |s: &Value| !s.to_string().contains("\"$ref\"");
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties.iter().filter(|(_, s)| alone(s)) {
            compared += differ(property, &format!("{at}/{name}"), out);
        }
    }
    if let Some(items) = schema.get("items").filter(|s| alone(s)) {
        compared += differ(items, &format!("{at}[]"), out);
    }
    compared
}

/// Compares the two checkers on `schema` over `values`: both accept or both refuse, at the
/// same places; the count compared.
pub(crate) fn differ_on(
    schema: &Value,
    values: Vec<Value>,
    at: &str,
    out: &mut Vec<String>,
) -> usize {
    let mut compared = 0;
    let ours = match Checker::compile(schema) {
        Ok(c) => c,
        Err(e) => {
            out.push(format!("{at}: does not compile: {e}"));
            return 0;
        }
    };
    let theirs = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("jsonschema compiles a published schema");
    for value in values {
        compared += 1;
        let expected: BTreeSet<String> = theirs
            .iter_errors(&value)
            .map(|e| e.instance_path().to_string())
            .collect();
        let got: BTreeSet<String> = ours.failures(&value).into_iter().map(|f| f.at).collect();
        let valid = ours.is_valid(&value);
        if valid != expected.is_empty() || got != expected {
            let shown = mcp_contract_spec::check::quoted(value.to_string());
            out.push(format!(
                "{at}: {shown}: jsonschema refuses at {expected:?}, ours at {got:?} (is_valid {valid})"
            ));
        }
    }
    compared
}

/// Values to try against `schema`: its examples, then values made from its keywords, nested
/// to `depth`.
pub(crate) fn values(schema: &Value, depth: usize) -> Vec<Value> {
    let mut out = vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!([]),
        json!({}),
    ];
    if let Some(examples) = schema.get("examples").and_then(Value::as_array) {
        out.extend(examples.iter().cloned());
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        for option in options {
            out.push(option.clone());
            if let Some(s) = option.as_str() {
                out.push(json!(format!("{s}x")));
                out.push(json!(s.to_uppercase()));
            }
        }
    }
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => {
            let mut lengths = vec![0, 1, 2, 10, 300];
            for key in ["minLength", "maxLength"] {
                if let Some(n) = count(key) {
                    lengths.extend([n.saturating_sub(1), n, n + 1]);
                }
            }
            for n in lengths {
                let n = usize::try_from(n.min(5_000)).unwrap_or(0);
                out.push(json!("a".repeat(n)));
                out.push(json!("é".repeat(n)));
                out.push(json!("😀".repeat(n)));
            }
            let seeds: Vec<String> = schema
                .get("examples")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|e| e.as_str().map(str::to_owned))
                .collect();
            for seed in &seeds {
                out.extend(mutations(seed).into_iter().map(Value::from));
            }
            if schema.get("format").is_some() {
                out.extend(FORMAT_CORPUS.iter().map(|s| json!(s)));
            }
        }
        Some("integer" | "number") => {
            out.extend([
                json!(1),
                json!(1.0),
                json!(-0.0),
                json!(0.5),
                json!(1e3),
                json!(i64::MIN),
                json!(i64::MAX),
                json!(u64::MAX),
                json!(-9.3e18),
                json!(1.9e19),
                json!(1e300),
                json!(-1e300),
            ]);
            for key in ["minimum", "maximum"] {
                if let Some(n) = schema.get(key).and_then(Value::as_number) {
                    out.push(Value::Number(n.clone()));
                    if let Some(i) = n.as_i64() {
                        out.extend([json!(i.saturating_sub(1)), json!(i.saturating_add(1))]);
                        out.push(json!(i as f64 + 0.5));
                    } else if let Some(u) = n.as_u64() {
                        out.extend([json!(u.saturating_sub(1)), json!(u.saturating_add(1))]);
                    } else if let Some(f) = n.as_f64() {
                        out.extend([json!(f - 0.25), json!(f + 0.25), json!(f - 1.0)]);
                    }
                }
            }
        }
        Some("array") if depth > 0 => {
            let items = schema
                .get("items")
                .map(|s| values(s, depth - 1))
                .unwrap_or_default();
            let mut sizes = vec![0, 1, 3];
            for key in ["minItems", "maxItems"] {
                if let Some(n) = count(key) {
                    sizes.extend([n.saturating_sub(1), n, n + 1]);
                }
            }
            for size in sizes {
                let size = usize::try_from(size.min(50)).unwrap_or(0);
                for start in [0, 7, 13] {
                    let made: Vec<Value> = (0..size)
                        .map(|i| items.get((start + i * 11) % items.len().max(1)).cloned())
                        .map(Option::unwrap_or_default)
                        .collect();
                    out.push(Value::Array(made));
                }
            }
            // The same value twice.
            if let Some(first) = schema.get("examples").and_then(|e| e.get(0)) {
                out.push(json!([first.clone(), first.clone()]));
            }
        }
        Some("object") if depth > 0 => {
            let properties = schema
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let candidates: Vec<(String, Vec<Value>)> = properties
                .iter()
                .map(|(name, s)| (name.clone(), values(s, depth - 1)))
                .collect();
            // A whole object: each property's example when it has one, else its first candidate.
            let whole = |pick: &dyn Fn(usize, &[Value]) -> Value| -> Map<String, Value> {
                candidates
                    .iter()
                    .enumerate()
                    .map(|(i, (name, c))| (name.clone(), pick(i, c)))
                    .collect()
            };
            let example = |name: &str, c: &[Value]| {
                properties[name]
                    .get("examples")
                    .and_then(|e| e.get(0))
                    .cloned()
                    .unwrap_or_else(|| c.first().cloned().unwrap_or_default())
            };
            let base = whole(&|i, c| example(&candidates[i].0, c));
            out.push(Value::Object(base.clone()));
            // Each candidate of each property in an otherwise exemplary object.
            for (name, c) in &candidates {
                for value in c {
                    let mut o = base.clone();
                    o.insert(name.clone(), value.clone());
                    out.push(Value::Object(o));
                }
                let mut without = base.clone();
                without.remove(name);
                out.push(Value::Object(without));
            }
            // Everything at once: several wrong, an unknown key, several missing.
            for seed in 1..4 {
                let mut o = whole(&|i, c| c[(i * 7 + seed * 5) % c.len()].clone());
                o.insert(format!("unknown{seed}"), json!(seed));
                out.push(Value::Object(o.clone()));
                let names: Vec<String> = o.keys().cloned().collect();
                for name in names.iter().step_by(2) {
                    o.remove(name);
                }
                out.push(Value::Object(o));
            }
        }
        _ => {}
    }
    out
}

/// Strings near `seed`: cut, grown, changed at each end, with non-ASCII and control
/// characters.
fn mutations(seed: &str) -> Vec<String> {
    let chars: Vec<char> = seed.chars().collect();
    let mut out = vec![
        format!("{seed}x"),
        format!("x{seed}"),
        format!("{seed}\n"),
        format!("{seed}\r"),
        format!("{seed}é"),
        format!(" {seed}"),
        seed.to_uppercase(),
        seed.to_lowercase(),
        seed.repeat(2),
    ];
    if !chars.is_empty() {
        out.push(chars[1..].iter().collect());
        out.push(chars[..chars.len() - 1].iter().collect());
        let mut changed = chars.clone();
        changed[chars.len() / 2] = 'Z';
        out.push(changed.into_iter().collect());
        let mut unicode = chars.clone();
        unicode[0] = 'ß';
        out.push(unicode.into_iter().collect());
    }
    out
}

/// Strings at the edges of the formats, right and wrong.
pub(crate) const FORMAT_CORPUS: &[&str] = &[
    "",
    " ",
    "a",
    "0",
    "00",
    "01",
    "12",
    "0#",
    "0/a",
    "1/a~0b",
    "1/a~2",
    "/a/b~1c",
    "/",
    "//",
    "a/b",
    "~",
    "/~",
    "2024-02-29",
    "2023-02-29",
    "2000-02-29",
    "1900-02-29",
    "2024-13-01",
    "2024-04-31",
    "2024-4-01",
    "2024-01-01x",
    "２０２４-01-01",
    "2024-01-01T12:00:00Z",
    "2024-01-01t12:00:00z",
    "2024-01-01T12:00:00.123+01:00",
    "2024-01-01T12:00:00.+01:00",
    "2024-01-01T12:00:00",
    "2024-01-01 12:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T23:59:60Z",
    "2024-01-01T22:59:60Z",
    "2024-01-01T23:59:60-00:00",
    "2024-01-01T15:59:60-08:00",
    "2024-01-01T15:59:60+08:00",
    "2024-01-01T12:00:00+24:00",
    "2024-01-01T12:00:00+01:60",
    "2024-01-01T12:00:00+0100",
    "12:00:00Z",
    "12:00:00.5Z",
    "12:00:00",
    "12:00Z",
    "23:59:60Z",
    "00:29:60+00:30",
    "P1D",
    "P1W",
    "P1W1D",
    "P1Y1D",
    "P1Y1M1D",
    "PT1H",
    "PT1H1S",
    "PT1H1M1S",
    "PT",
    "P",
    "P1DT",
    "P1M1Y",
    "PT1S1M",
    "P1.5D",
    "P1DT1H",
    "P1WT1H",
    "pt1h",
    "user@example.com",
    "user.name+tag@sub.example.co",
    "\"quoted local\"@example.com",
    "\"\"@example.com",
    "user@[127.0.0.1]",
    "user@[IPv6:::1]",
    "user@[ipv6:::1]",
    "user@[300.0.0.1]",
    "user@-example.com",
    "user@example..com",
    "user@localhost",
    "@example.com",
    "user@",
    "us er@example.com",
    "josé@example.com",
    "user@exämple.com",
    "a@b.co",
    "example.com",
    "sub.example.com",
    "a-b.example",
    "-ab.example",
    "ab-.example",
    "ab--cd.example",
    "xn--nxasmq6b.example",
    "example.com.",
    "exa_mple.com",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
    "127.0.0.1",
    "255.255.255.255",
    "256.0.0.1",
    "1.2.3",
    "01.2.3.4",
    "::1",
    "::",
    "2001:db8::ff00:42:8329",
    "2001:db8::1::1",
    "::ffff:192.0.2.1",
    "fe80::1%eth0",
    "12345::",
    "http://example.com",
    "http://example.com/path?q=1#frag",
    "https://user@host:8080/a%20b",
    "https://host/a b",
    "https://host/%zz",
    "mailto:someone@example.com",
    "urn:isbn:0451450523",
    "//example.com/path",
    "relative/path",
    "?query",
    "#fragment",
    "http://exämple.com/ü",
    "http://[::1]/",
    "http://[::1/",
    "1http://x",
    "http://example.com/{id}",
    "/users/{id}{?page,size}",
    "{+path}/here",
    "{var:3}",
    "{var:0}",
    "{var:10000}",
    "{list*}",
    "{a.b}",
    "{a..b}",
    "{a.}",
    "{}",
    "{id",
    "id}",
    "{%41}",
    "{%4}",
    "100%",
    "a%20b",
    "{ id}",
    "00000000-0000-4000-8000-000000000000",
    "A987FBC9-4BED-3078-CF07-9141BA07C9F3",
    "a987fbc9-4bed-3078-cf07-9141ba07c9f",
    "a987fbc94bed3078cf079141ba07c9f3",
    "g987fbc9-4bed-3078-cf07-9141ba07c9f3",
    "^[a-z]+$",
    "(unclosed",
    "[a-",
    "a{2,1}",
    "\\d+",
    "*a",
];
