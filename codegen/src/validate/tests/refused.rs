//! Each fault reported once: what one rule refused, the rules after it skip.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{produces, refused_at, related_at, second_tool, single, with};

#[test]
fn an_unknown_type_is_not_also_told_its_keywords_do_not_apply() {
    // `Strng` is no type, so no keyword can be judged against it.
    let text = with(
        "    parameters:
      n:
        type: Strng
        description: N.
        minimum: 1
        maxLength: 3
        example: 1
",
    );
    single(
        &text,
        "unknown-type",
        "unknown type `Strng`",
        "tools.yaml:11:15",
    );
    // A shared type's name is a type: constraints beside it are still refused.
    let text = text.replace("Strng", "Size")
        + "types:\n  Size:\n    type: integer\n    description: A size.\n";
    refused_at(
        &text,
        &[
            ("keyword-type-mismatch", "tools.yaml:13:9"),
            ("keyword-type-mismatch", "tools.yaml:14:9"),
        ],
    );
}

#[test]
fn tools_whose_rust_types_meet_are_one_collision() {
    // `ab1` and `ab_1` are two methods but one PascalCase name, `Ab1`: their arguments, output
    // and error types all meet, and that is one fault.
    let text = second_tool("ab_1", "Pong").replacen("name: ping", "name: ab1", 1);
    let d = single(
        &text,
        "ident-collision",
        "the arguments type `Ab1Args` would be generated twice",
        "tools.yaml:9:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
}

#[test]
fn a_badly_named_sentence_is_not_unknown_where_it_is_used() {
    let text = with("    sentences: [Pinned]\nsentences:\n  Pinned: Say it.\n");
    single(
        &text,
        "bad-name",
        "the sentence name `Pinned` is not snake_case",
        "tools.yaml:11:3",
    );
}

#[test]
fn an_enum_value_whose_variant_collides_is_still_a_value() {
    // The collision is the fault; an example naming the value is not a second one.
    let text = with(
        "    parameters:
      mode:
        type: string
        description: M.
        enum: [a-b, a_b]
        example: a_b
",
    );
    single(
        &text,
        "ident-collision",
        "`a_b` becomes the variant `AB`, which another value already has",
        "tools.yaml:13:21",
    );
}

#[test]
fn an_object_that_lost_a_property_does_not_fail_its_examples() {
    // `1x` is refused, so the object's example holding it is not judged against the rest.
    let text = with(
        "    parameters:
      window:
        type: object
        description: W.
        example: {1x: 1}
        properties:
          1x: {type: integer, description: X.}
",
    );
    single(
        &text,
        "bad-name",
        "`1x` is not a valid property name",
        "tools.yaml:15:11",
    );
}

#[test]
fn a_pointer_to_a_refused_property_is_not_also_unresolved() {
    // `dir` (line 16) has an unknown type, so it is not in the output the pointer resolves in.
    let text = produces("workspace.directory", "/dir", "").replacen(
        "type: string\n          description: The directory.",
        "type: Strng\n          description: The directory.",
        1,
    );
    single(
        &text,
        "unknown-type",
        "unknown type `Strng`",
        "tools.yaml:16:17",
    );
}
