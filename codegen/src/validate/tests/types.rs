//! Shared types: the rule that none contains itself, and how a shared type is used.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{single, tool_json, with};
use crate::{Source, load};

#[test]
fn recursive_type() {
    let text = with(
        "types:
  Tree:
    type: object
    description: A tree.
    properties:
      children:
        type: array
        description: The subtrees.
        items:
          type: Tree
",
    );
    let d = single(
        &text,
        "recursive-type",
        "the type `Tree` contains itself",
        "tools.yaml:10:3",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("schemas are published inline, so a type cannot refer back to itself")
    );
}

#[test]
fn recursive_type_is_reported_once_where_it_is_used() {
    // Checking the example against the type would inline it forever.
    let text = with(
        "    parameters:
      tree:
        type: Tree
        description: A tree.
        example: {children: []}
types:
  Tree:
    type: object
    description: A tree.
    example: {children: []}
    properties:
      children:
        type: array
        description: The subtrees.
        items: {type: Tree}
",
    );
    single(
        &text,
        "recursive-type",
        "the type `Tree` contains itself",
        "tools.yaml:15:3",
    );
}

#[test]
fn a_broken_shared_type_does_not_fail_the_examples_that_use_it() {
    // The type is missing `type`; its parameter's example is not checked against a stand-in.
    let text = with(
        "    parameters:
      size:
        type: Size
        description: A size.
        example: {width: 1}
types:
  Size:
    description: A size.
",
    );
    single(
        &text,
        "missing-field",
        "this schema is missing the required key `type`",
        "tools.yaml:16:5",
    );
}

#[test]
fn a_defaulted_field_of_a_shared_type_is_required_and_unstated_in_an_output() {
    let text = with(
        "types:\n  Page:\n    type: object\n    description: A page.\n    properties:\n      size: {type: integer, description: Items per page., default: 20}\n",
    )
    .replace(
        "    output: text\n",
        "    parameters:\n      page: {type: Page, description: Which page., example: {size: 5}}\n    output:\n      properties:\n        page: {type: Page, description: The page used.}\n",
    );
    let loaded = load(&Source::new("tools.yaml", text)).expect("valid");
    let c = &loaded.contract;
    let tool = tool_json(c, &c.tools[0]);
    let input = &tool["inputSchema"]["properties"]["page"];
    assert_eq!(
        input["properties"]["size"]["description"],
        "Items per page. Default: 20."
    );
    assert!(
        input.get("required").is_none(),
        "optional for a caller: {input}"
    );
    let output = &tool["outputSchema"]["properties"]["page"];
    assert_eq!(
        output["properties"]["size"]["description"],
        "Items per page."
    );
    assert_eq!(
        output["required"],
        serde_json::json!(["size"]),
        "always returned: {output}"
    );
}
