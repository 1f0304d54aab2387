//! `_meta` keys: the key grammar and the reserved prefixes, on a tool's keys and on the keys the
//! planning contracts are published under.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{single, with};

#[test]
fn reserved_meta_key() {
    let d = single(
        &with("    _meta:\n      io.modelcontextprotocol/tier: 1\n"),
        "reserved-meta-key",
        "`io.modelcontextprotocol/tier` is not a valid `_meta` key",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "prefixes whose second label is `modelcontextprotocol` or `mcp` belong to the spec; \
             use your own reverse-DNS prefix such as `com.example/`"
        )
    );
}

#[test]
fn bad_meta_key() {
    let d = single(
        &with("    _meta:\n      bad key: 1\n"),
        "bad-meta-key",
        "`bad key` is not a valid `_meta` key",
        "tools.yaml:10:7",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "write an optional reverse-DNS prefix ending in `/` (`com.example/`), then a name \
             that starts and ends with a letter or digit"
        )
    );
}

#[test]
fn bad_meta_key_and_reserved_meta_key_of_the_contracts() {
    single(
        &with("artifacts:\n  meta_key: io.modelcontextprotocol/artifacts\n"),
        "reserved-meta-key",
        "`io.modelcontextprotocol/artifacts` is not a valid `_meta` key",
        "tools.yaml:10:13",
    );
    single(
        &with("composition:\n  meta_key: com..example/composition\n"),
        "bad-meta-key",
        "`com..example/composition` is not a valid `_meta` key",
        "tools.yaml:10:13",
    );
}
