//! `header:`, the x-mcp-header of 2026-07-28: where it may stand, its name, and the values it
//! carries.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{loads, related_at, single, structured, tool, with};
use crate::Source;

/// [`VALID`] with one parameter `name` (line 10, column 7) of the given property lines, each
/// written at eight spaces.
fn parameter(name: &str, lines: &str) -> String {
    with(&format!("    parameters:\n      {name}:\n{lines}"))
}

/// `tools.yaml:LINE:COL` of the value of the `n`-th `header:` in `text`, where diagnostics
/// about the header's name and type point.
fn header_at(text: &str, n: usize) -> String {
    at_header(text, n, true)
}

/// `tools.yaml:LINE:COL` of the `n`-th `header:` key in `text`, where diagnostics about where
/// a header may stand point.
fn header_key_at(text: &str, n: usize) -> String {
    at_header(text, n, false)
}

fn at_header(text: &str, n: usize, value: bool) -> String {
    let (offset, key) = text
        .match_indices("header: ")
        .nth(n)
        .expect("the manifest has that many headers");
    let offset = if value { offset + key.len() } else { offset };
    let (line, col) = Source::new("tools.yaml", text).line_col(offset);
    format!("tools.yaml:{line}:{col}")
}

#[test]
fn header_placement() {
    // On an output field: line 26 continues `count`.
    let d = single(
        &structured("          header: Count\n"),
        "header-placement",
        "`count` cannot carry `header`",
        "tools.yaml:26:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "only a tool's parameters are mirrored into HTTP headers, never its output; remove `header:`"
        )
    );
    // On a field of a shared type, even one used as a parameter. Lines 9-13 the parameter,
    // 14 `types:`, 15 `P:`, 16-18, 19 the field.
    let text = with(
        "    parameters:\n      a:\n        type: P\n        description: A.\n        example: {x: a}\n\
         types:\n  P:\n    type: object\n    description: P.\n    properties:\n      x: {type: string, description: X., header: X}\n",
    );
    let d = single(
        &text,
        "header-placement",
        "`x` cannot carry `header`",
        "tools.yaml:19:42",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "only a tool's parameters are mirrored into HTTP headers; move `header:` to the parameter that uses this type, or remove it"
        )
    );
}

#[test]
fn bad_header() {
    for (header, written) in [
        ("Bad Header", "Bad Header"),
        ("", "\"\""),
        ("Région", "Région"),
        ("a:b", "\"a:b\""),
    ] {
        let d = single(
            &parameter(
                "region",
                &format!(
                    "        type: string\n        description: R.\n        example: eu\n        header: {written}\n"
                ),
            ),
            "bad-header",
            &format!("`{header}` is not an HTTP header token"),
            "tools.yaml:14:17",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "use letters, digits and `-` (an RFC 9110 token), such as `Region`; it is sent as `Mcp-Param-{name}`"
            )
        );
    }
    // Every tchar is allowed.
    loads(&parameter(
        "region",
        "        type: string\n        description: R.\n        example: eu\n        header: \"X-Region_1.!#$%&'*+^`|~\"\n",
    ));
}

#[test]
fn header_unreachable() {
    // Lines 10 `list:`, 14 `items:`, 15-16, 17 `x`.
    let d = single(
        &parameter(
            "list",
            "        type: array\n        description: L.\n        example: [{x: a}]\n        items:\n          type: object\n          properties:\n            x: {type: string, description: X., header: X}\n",
        ),
        "header-unreachable",
        "`x` sits inside an array, where a header cannot reach it",
        "tools.yaml:17:48",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("only parameters reached through object properties can be mirrored; remove `header:`")
    );
    // Inside an array of arrays, and inside an object inside the items: lines 14 `items:`,
    // 15 `type: array`, 16 `items:`, 17-18, 19 `o:`, 22 `properties:`, 23 `x`.
    let text = parameter(
        "grid",
        "        type: array\n        description: G.\n        example: [[{o: {x: a}}]]\n        items:\n          type: array\n          items:\n            type: object\n            properties:\n              o:\n                type: object\n                description: O.\n                properties:\n                  x: {type: string, description: X., header: X}\n",
    );
    single(
        &text,
        "header-unreachable",
        "`x` sits inside an array, where a header cannot reach it",
        &header_key_at(&text, 0),
    );
}

#[test]
fn a_header_in_a_union_variant_is_unreachable() {
    let text = parameter(
        "edit",
        "        description: E.\n        example: {op: put, x: a}\n        one_of:\n          tag: op\n          variants:\n            put:\n              type: object\n              properties:\n                x: {type: string, description: X., header: X}\n",
    );
    single(
        &text,
        "header-unreachable",
        "`x` sits in a variant of a union, where a header cannot reach it",
        &header_key_at(&text, 0),
    );
}

#[test]
fn duplicate_header() {
    let text = with(
        "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n\
         \x20     b:\n        type: string\n        description: B.\n        example: x\n        header: region\n",
    );
    let d = single(
        &text,
        "duplicate-header",
        "the header `region` is used twice in `ping`",
        "tools.yaml:19:17",
    );
    assert_eq!(related_at(&d, &text, 0), header_at(&text, 0));
    assert_eq!(d.related[0].1, "first used here (header names ignore case)");
    assert_eq!(
        d.help.as_deref(),
        Some("give each mirrored parameter a header of its own")
    );
    // Nested properties share the tool's header names: lines 16 `w:`, 21 `properties:`, 22 `c`.
    let text = with(
        "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n\
         \x20     w:\n        type: object\n        description: W.\n        example: {c: x}\n        properties:\n          c: {type: string, description: C., header: REGION}\n",
    );
    single(
        &text,
        "duplicate-header",
        "the header `REGION` is used twice in `ping`",
        &header_at(&text, 1),
    );
    // Two tools may use the same header.
    loads(&format!(
        "{}{}",
        parameter(
            "a",
            "        type: string\n        description: A.\n        example: x\n        header: Region\n"
        ),
        tool(
            "pong",
            "    parameters:\n      a:\n        type: string\n        description: A.\n        example: x\n        header: Region\n"
        )
    ));
}

#[test]
fn header_integer_range() {
    for bounds in [
        "",
        "        minimum: 0\n",
        "        maximum: 10\n",
        "        minimum: 0\n        maximum: 9007199254740992\n",
        "        minimum: -9007199254740992\n        maximum: 0\n",
    ] {
        let text = parameter(
            "n",
            &format!(
                "        type: integer\n        description: N.\n        example: 0\n{bounds}        header: N\n"
            ),
        );
        let d = single(
            &text,
            "header-integer-range",
            "the header `N` carries an integer without bounds inside ±(2^53−1)",
            &header_at(&text, 0),
        );
        assert_eq!(
            d.help.as_deref(),
            Some("give the parameter `minimum:` and `maximum:` within ±9007199254740991")
        );
    }
    loads(&parameter(
        "n",
        "        type: integer\n        description: N.\n        example: 0\n        minimum: -9007199254740991\n        maximum: 9007199254740991\n        header: N\n",
    ));
}

#[test]
fn header_type() {
    let d = single(
        &parameter(
            "r",
            "        type: number\n        description: R.\n        example: 0.5\n        minimum: 0\n        maximum: 1\n        header: R\n",
        ),
        "header-type",
        "the header `R` is on a `number`",
        "tools.yaml:16:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "headers carry strings, integers and booleans only; use `type: integer` or drop `header:`"
        )
    );
    for (ty, example) in [
        ("array\n        items: {type: string}", "[a]"),
        (
            "object\n        properties:\n          x: {type: string, description: X.}",
            "{x: a}",
        ),
    ] {
        let text = parameter(
            "r",
            &format!(
                "        type: {ty}\n        description: R.\n        example: {example}\n        header: R\n"
            ),
        );
        let d = single(
            &text,
            "header-type",
            "the header `R` is on a value with structure",
            &header_at(&text, 0),
        );
        assert_eq!(
            d.help.as_deref(),
            Some("headers carry strings, integers and booleans only")
        );
    }
    // A shared type counts by its own kind: a shared number is refused too. Lines 9-14 the
    // parameter, 15 `types:`.
    let text = with(
        "    parameters:\n      r:\n        type: Ratio\n        description: R.\n        example: 0.5\n        header: R\n\
         types:\n  Ratio:\n    type: number\n    description: A ratio.\n",
    );
    single(
        &text,
        "header-type",
        "the header `R` is on a `number`",
        &header_at(&text, 0),
    );
}
