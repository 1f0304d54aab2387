//! Recognising failures in untyped results.
//!
//! A tool whose output is untyped JSON — a proxied tool, say — may report a failure inside a
//! successful result. [`normalize`] marks such a result `isError: true` when, and only when,
//! its payload is a clear failure envelope; plain text is never judged, since prose that
//! mentions an error is not one.

use rmcp::model::CallToolResult;
use serde_json::Value;

/// Marks `result` as a tool error when its payload is a clear failure envelope; returns
/// whether it did. A result already marked as an error is left alone.
pub fn normalize(result: &mut CallToolResult) -> bool {
    if result.is_error == Some(true) {
        return false;
    }
    let failed = match &result.structured_content {
        Some(value) => is_failure(value),
        // Without structured content, only a text block that is a whole JSON object counts.
        None => result
            .content
            .first()
            .and_then(|c| c.as_text())
            .and_then(|t| serde_json::from_str::<Value>(&t.text).ok())
            .is_some_and(|v| is_failure(&v)),
    };
    if failed {
        result.is_error = Some(true);
    }
    failed
}

/// Whether `value` is a clear failure envelope: `success: false`, `ok: false`,
/// `status: "error"`, a non-empty `error_code` or `error_message`, a compact
/// `{code, message}` error object (alone, or under `error`), or a non-empty `errors` list of
/// them, each of which may also name its `argument` (mcp-contract's own envelope).
pub fn is_failure(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    let flag_false = |key: &str| map.get(key) == Some(&Value::Bool(false));
    let status_error = map
        .get("status")
        .and_then(Value::as_str)
        .is_some_and(|s| s.eq_ignore_ascii_case("error"));
    // `error_code: 0` (or `"0"`) is how many APIs say "no error".
    let present = |key: &str| map.get(key).is_some_and(is_error_code);
    flag_false("success")
        || flag_false("ok")
        || status_error
        || present("error_code")
        || map
            .get("error_message")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
        || is_compact_error(value, &[])
        || map.get("error").is_some_and(|e| is_compact_error(e, &[]))
        // A list of problems, as mcp-contract's own envelope is, may name each one's argument.
        || map.get("errors").and_then(Value::as_array).is_some_and(|errors| {
            !errors.is_empty() && errors.iter().all(|e| is_compact_error(e, &["argument"]))
        })
}

/// A code that signals a failure: not empty, and not one of the codes APIs use for success
/// (`0`, `200`–`299`, `ok`, `success`).
fn is_error_code(code: &Value) -> bool {
    let success = |n: f64| n == 0.0 || (200.0..300.0).contains(&n);
    match code {
        Value::Number(n) => n.as_f64().is_some_and(|n| !success(n)),
        Value::String(s) => {
            let s = s.trim();
            !s.is_empty()
                && !["ok", "success", "succeeded"]
                    .iter()
                    .any(|w| s.eq_ignore_ascii_case(w))
                && s.parse::<f64>().map_or(true, |n| !success(n))
        }
        _ => false,
    }
}

/// `{code, message}` with nothing else but optional `details`, `data` or one of `also`: a
/// non-empty string message and a string or numeric code.
fn is_compact_error(value: &Value, also: &[&str]) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    let code = map.get("code").is_some_and(is_error_code);
    let message = map
        .get("message")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty());
    let only_envelope_keys = map.keys().all(|k| {
        matches!(k.as_str(), "code" | "message" | "details" | "data") || also.contains(&k.as_str())
    });
    code && message && only_envelope_keys
}

#[cfg(test)]
mod tests {
    use rmcp::model::ContentBlock;
    use serde_json::json;

    use super::*;

    #[test]
    fn every_failure_envelope_is_recognised() {
        let failures = [
            json!({"success": false}),
            json!({"success": false, "data": null, "reason": "quota"}),
            json!({"ok": false, "error": "not allowed"}),
            json!({"status": "error", "detail": "boom"}),
            json!({"status": "ERROR"}),
            json!({"error_code": "E42"}),
            json!({"error_code": 42}),
            json!({"error_message": "disk full"}),
            json!({"code": "not_found", "message": "No such item."}),
            json!({"code": 404, "message": "Not found", "details": {"id": 3}}),
            json!({"error": {"code": "timeout", "message": "Upstream timed out."}}),
            json!({"errors": [{"code": "not_found", "message": "No such item."}], "hint": "List them first."}),
            json!({"code": -32000, "message": "Server error"}),
        ];
        for value in failures {
            assert!(is_failure(&value), "should be a failure: {value}");
        }
    }

    /// The runtime's own envelope names the argument of an argument error; a result that
    /// lost its `isError` on the way (through a proxy, say) is still recognised.
    #[test]
    fn the_runtime_s_own_argument_envelope_is_a_failure() {
        let envelope = crate::envelope::Envelope {
            errors: vec![crate::envelope::Problem {
                code: mcp_contract_spec::error_codes::ARGUMENT_MISSING.into(),
                message: "`path` is required but was not given.".into(),
                argument: Some("path".into()),
            }],
            hint: Some("Fix the arguments named above and call `read` again.".into()),
        };
        let value = serde_json::to_value(&envelope).expect("an envelope is JSON");
        assert!(is_failure(&value), "should be a failure: {value}");
        let mut proxied = CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
        assert!(normalize(&mut proxied));
    }

    #[test]
    fn near_misses_are_not_failures() {
        let successes = [
            json!({"success": true}),
            json!({"success": "false"}),
            json!({"ok": 0}),
            json!({"ok": true, "items": []}),
            json!({"status": "ok"}),
            json!({"status": "errored-then-recovered"}),
            json!({"error_code": null}),
            json!({"error_code": 0}),
            json!({"error_code": "0"}),
            json!({"code": 0, "message": "success", "data": {"id": 1}}),
            json!({"code": 200, "message": "OK"}),
            json!({"code": "OK", "message": "Done."}),
            json!({"errors": []}),
            json!({"errors": [{"field": "name"}]}),
            json!({"error_code": ""}),
            json!({"error_message": "  "}),
            json!({"code": 200}),
            json!({"message": "Saved."}),
            json!({"code": "A1", "message": "Item", "items": [1, 2]}),
            json!({"code": "A1", "message": ""}),
            json!({"error": "a field named error holding text"}),
            json!({"error": {"message": "no code"}}),
            json!([{"success": false}]),
            json!("error"),
            json!(null),
        ];
        for value in successes {
            assert!(!is_failure(&value), "should not be a failure: {value}");
        }
    }

    #[test]
    fn structured_content_and_json_text_are_judged_but_plain_text_never() {
        let mut structured = CallToolResult::structured(json!({"ok": false}));
        assert!(normalize(&mut structured));
        assert_eq!(structured.is_error, Some(true));

        let mut json_text =
            CallToolResult::success(vec![ContentBlock::text(r#"{"status":"error"}"#)]);
        assert!(normalize(&mut json_text));
        assert_eq!(json_text.is_error, Some(true));

        let mut prose =
            CallToolResult::success(vec![ContentBlock::text("error: the build failed")]);
        assert!(!normalize(&mut prose));
        assert_eq!(prose.is_error, Some(false));

        let mut fine = CallToolResult::structured(json!({"ok": true}));
        assert!(!normalize(&mut fine));
        assert_eq!(fine.is_error, Some(false));

        let mut already = CallToolResult::structured_error(json!({"ok": false}));
        assert!(!normalize(&mut already), "an existing error is left alone");
        assert_eq!(already.is_error, Some(true));
    }
}
