//! `output.content`: each rule of the declared content blocks, with its code, message and
//! place; and what a sound declaration becomes in the contract.

use super::*;
use crate::model::{ContentKind, OutputDef};

/// [`VALID`] with its `output: text` replaced by `output:` and these lines (line 9 on).
fn output(lines: &str) -> String {
    VALID.replace("    output: text\n", &format!("    output:\n{lines}"))
}

#[test]
fn declared_content_becomes_the_tools_blocks_with_or_without_structure() {
    let c = loads(&output(
        "      content:
        - kind: text
        - kind: image
          mime_types: [image/png, image/jpeg]
        - kind: resource_link
",
    ));
    let t = &c.tools[0];
    assert!(matches!(t.output, OutputDef::Text), "no structured output");
    let kinds: Vec<(ContentKind, Vec<&str>)> = t
        .content
        .iter()
        .map(|b| (b.kind, b.mime_types.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        kinds,
        [
            (ContentKind::Text, vec![]),
            (ContentKind::Image, vec!["image/png", "image/jpeg"]),
            (ContentKind::ResourceLink, vec![]),
        ]
    );
    let c = loads(&output(
        "      properties:
        n: {type: integer, description: A number.}
      content:
        - kind: audio
          mime_types: [audio/wav]
",
    ));
    assert!(matches!(c.tools[0].output, OutputDef::Object { .. }));
    assert_eq!(c.tools[0].content[0].fixed_mime_type(), Some("audio/wav"));
}

#[test]
fn an_unknown_kind_is_named_with_the_closest() {
    let d = single(
        &output("      content:\n        - kind: imag\n"),
        "unknown-content-kind",
        "unknown content kind `imag`",
        "tools.yaml:10:17",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `image`?"));
    let d = single(
        &output("      content:\n        - kind: video\n"),
        "unknown-content-kind",
        "unknown content kind `video`",
        "tools.yaml:10:17",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("a content kind is one of `text`, `image`, `audio`, `resource`, `resource_link`")
    );
}

#[test]
fn a_kind_listed_twice_points_at_both() {
    let text = output(
        "      content:
        - kind: image
          mime_types: [image/png]
        - kind: image
          mime_types: [image/gif]
",
    );
    let d = single(
        &text,
        "duplicate-content-kind",
        "the content kind `image` is listed twice",
        "tools.yaml:12:17",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:10:17");
}

#[test]
fn mime_types_are_required_where_blocks_carry_one_and_refused_elsewhere() {
    let d = single(
        &output("      content:\n        - kind: image\n"),
        "content-mime-types",
        "`image` content needs `mime_types`",
        "tools.yaml:10:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("list the MIME types its blocks may have, such as `mime_types: [image/png]`")
    );
    single(
        &output("      content:\n        - kind: resource\n          mime_types: []\n"),
        "content-mime-types",
        "`resource` content lists no MIME type",
        "tools.yaml:11:23",
    );
    single(
        &output("      content:\n        - kind: text\n          mime_types: [text/plain]\n"),
        "content-mime-types",
        "`text` content has no MIME type to declare",
        "tools.yaml:11:23",
    );
    single(
        &output(
            "      content:\n        - kind: resource_link\n          mime_types: [text/plain]\n",
        ),
        "content-mime-types",
        "`resource_link` content has no MIME type to declare",
        "tools.yaml:11:23",
    );
}

#[test]
fn each_mime_type_is_type_slash_subtype_of_its_kind() {
    single(
        &output("      content:\n        - kind: resource\n          mime_types: [plain]\n"),
        "bad-mime-type",
        "`plain` is not a MIME type",
        "tools.yaml:11:24",
    );
    let d = single(
        &output("      content:\n        - kind: image\n          mime_types: [audio/wav]\n"),
        "mime-type-mismatch",
        "`image` content cannot be `audio/wav`",
        "tools.yaml:11:24",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("an `image` block's MIME type is `image/…`, such as `image/png`")
    );
    single(
        &output("      content:\n        - kind: audio\n          mime_types: [image/png]\n"),
        "mime-type-mismatch",
        "`audio` content cannot be `image/png`",
        "tools.yaml:11:24",
    );
    // Any top-level type fits an embedded resource.
    loads(&output(
        "      content:\n        - kind: resource\n          mime_types: [image/png, text/plain]\n",
    ));
}

#[test]
fn every_fault_of_a_declaration_is_reported_at_once() {
    refused_at(
        &output(
            "      content:
        - kind: picture
        - kind: audio
          mime_types: [audio/wav, wav, image/png]
        - text
",
        ),
        &[
            ("unknown-content-kind", "tools.yaml:10:17"),
            ("bad-mime-type", "tools.yaml:12:35"),
            ("mime-type-mismatch", "tools.yaml:12:40"),
            ("wrong-type", "tools.yaml:13:11"),
        ],
    );
}

#[test]
fn an_empty_list_or_a_description_without_fields_is_refused() {
    single(
        &output("      content: []\n"),
        "empty-content",
        "`content` lists no block",
        "tools.yaml:9:16",
    );
    single(
        &output("      description: The answer.\n      content:\n        - kind: text\n"),
        "missing-field",
        "`output` is missing the required key `properties`",
        "tools.yaml:9:7",
    );
}

#[test]
fn the_content_enum_claims_its_name() {
    let text = format!(
        "{}types:
  AContentContent:
    type: object
    description: A clash.
    properties:
      x: {{type: integer, description: X.}}
",
        VALID.replace("name: ping", "name: a_content").replace(
            "    output: text\n",
            "    output:\n      content:\n        - kind: text\n"
        )
    );
    single(
        &text,
        "ident-collision",
        "the content type `AContentContent` would be generated twice",
        "tools.yaml:4:11",
    );
}
