//! The official MCP schemas, and checking any message against the one of its revision.

use super::Revision;

/// The official JSON Schema of `revision`, copied from the MCP specification repository
/// (see `mcp-schema/LICENSE-NOTE.md`).
pub fn official_schema(revision: Revision) -> &'static serde_json::Value {
    static V2025: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../../mcp-schema/2025-11-25/schema.json"))
            .unwrap_or_default()
    });
    static V2026: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../../mcp-schema/2026-07-28/schema.json"))
            .unwrap_or_default()
    });
    match revision {
        Revision::V2025_11_25 => &V2025,
        Revision::V2026_07_28 => &V2026,
    }
}

/// Validates `value` against the definition `definition` (such as `ListToolsResult`) of the
/// official schema of `revision`, formats included; on failure, every violation with its
/// location.
pub fn check_wire(
    revision: Revision,
    definition: &str,
    value: &serde_json::Value,
) -> Result<(), Vec<String>> {
    let official = official_schema(revision);
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": official["$defs"],
        "$ref": format!("#/$defs/{definition}"),
    });
    // Formats too (`uri`, `uri-template`): a client that checks them drops what breaks them.
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|e| vec![e.to_string()])?;
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_official_formats_are_checked() {
        for revision in Revision::ALL {
            let listed = |uri: &str| {
                let mut listed = json!({"resources": [{"name": "notes", "uri": uri}]});
                if revision.has_cache_hints() {
                    listed["resultType"] = json!("complete");
                    listed["ttlMs"] = json!(0);
                    listed["cacheScope"] = json!("private");
                }
                listed
            };
            assert_eq!(
                check_wire(revision, "ListResourcesResult", &listed("x://notes")),
                Ok(())
            );
            let refused = check_wire(revision, "ListResourcesResult", &listed("not a uri"));
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e[0].contains("/resources/0/uri")),
                "{revision:?}: {refused:?}"
            );
        }
    }
}
