//! Resources: names, URIs and URI templates, MIME types, and the Rust names they claim; every
//! problem of a resource is reported, each once.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{VALID, loads, refused, refused_at, related_at, single, with};

/// A resource, five lines long: the name, then `address` (a `uri:` or `uri_template:`, on
/// the second line), title, description and MIME type.
fn resource(name: &str, address: &str) -> String {
    format!(
        "  - name: {name}\n    {address}\n    title: Resource {name}\n    description: Holds {name}.\n    mime_type: text/plain\n"
    )
}

#[test]
fn bad_resource_name() {
    let d = single(
        &with(&format!(
            "resources:\n{}",
            resource("Read-Me", "uri: x://a")
        )),
        "bad-resource-name",
        "`Read-Me` is not a valid resource name",
        "tools.yaml:10:11",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "resource names are snake_case: a lowercase letter, then lowercase letters, digits or `_`"
        )
    );
}

#[test]
fn duplicate_resource_name() {
    // The first `r` (10-14) is refused for its URI; its name still counts.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("r", "uri: /no-scheme"),
        resource("r", "uri: x://b")
    ));
    let (source, diags) = refused(&text);
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["bad-uri", "duplicate-resource"]);
    let d = &diags[1];
    assert_eq!(d.message, "the resource name `r` is used twice");
    assert_eq!(d.location(&source), "tools.yaml:15:11");
    assert_eq!(related_at(d, &text, 0), "tools.yaml:10:11");
    assert_eq!(
        d.help.as_deref(),
        Some("give each resource a name of its own")
    );
}

#[test]
fn duplicate_resource_uri() {
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a", "uri: x://same"),
        resource("b", "uri: x://same")
    ));
    let d = single(
        &text,
        "duplicate-resource",
        "`x://same` is declared twice",
        "tools.yaml:16:10",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:10");
    assert_eq!(d.related[0].1, "first declared here");
    assert_eq!(
        d.help.as_deref(),
        Some("each URI or template names one resource")
    );
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a", "uri_template: x:///{id}"),
        resource("b", "uri_template: x:///{id}")
    ));
    single(
        &text,
        "duplicate-resource",
        "`x:///{id}` is declared twice",
        "tools.yaml:16:19",
    );
}

#[test]
fn resource_uri() {
    // Line 10 the name, 11 `uri:`, 12 `uri_template:`.
    let d = single(
        &with(
            "resources:\n  - name: r\n    uri: x://a\n    uri_template: x://a/{b}\n    title: R\n    description: D.\n    mime_type: text/plain\n",
        ),
        "resource-uri",
        "a resource has `uri` or `uri_template`, not both",
        "tools.yaml:12:19",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("keep `uri` for one fixed resource, `uri_template` for a family of them")
    );
    let d = single(
        &with(
            "resources:\n  - name: r\n    title: R\n    description: D.\n    mime_type: text/plain\n",
        ),
        "resource-uri",
        "the resource `r` has no `uri` or `uri_template`",
        "tools.yaml:10:5",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("add `uri:` for one fixed resource, or `uri_template:` for a family of them")
    );
}

#[test]
fn bad_uri() {
    for (uri, problem) in [
        ("x://a b", "' ' cannot appear in a URI"),
        ("/a/b", "it has no scheme"),
        ("x://{a}", "'{' cannot appear in a URI"),
        ("1x://a", "`1x` is not a URI scheme"),
        ("x://a|b", "'|' cannot appear in a URI"),
        // `format: uri` in the official schemas is RFC 3986: ASCII only, `%` starts an escape.
        (
            "x://caf\u{e9}",
            "'\u{e9}' cannot appear in a URI; percent-encode it as `%C3%A9`",
        ),
        (
            "x://a%zz",
            "`%zz` is not a percent-escape; write `%25` for a `%` itself",
        ),
        (
            "x://a%2",
            "`%2` is not a percent-escape; write `%25` for a `%` itself",
        ),
        ("x://a#b#c", "it is not an RFC 3986 URI"),
        ("x://[a/b", "it is not an RFC 3986 URI"),
    ] {
        let d = single(
            &with(&format!(
                "resources:\n{}",
                resource("r", &format!("uri: \"{uri}\""))
            )),
            "bad-uri",
            &format!("`{uri}` is not a resource URI: {problem}"),
            "tools.yaml:11:10",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write an absolute URI with a scheme, such as `workspace:///README.md`; use `uri_template:` for one with `{variables}`"
            )
        );
    }
    for uri in [
        "workspace:///README.md",
        "x:a",
        "https://example.com/a?b=c#d",
        "x://caf%C3%A9/a%20b",
        "urn:isbn:0451450523",
    ] {
        loads(&with(&format!(
            "resources:\n{}",
            resource("r", &format!("uri: \"{uri}\""))
        )));
    }
}

#[test]
fn bad_uri_template() {
    for (template, problem) in [
        ("x://a/{+path}", "`{+…}` is a level-2 or level-3 operator"),
        ("x://a{/path}", "`{/…}` is a level-2 or level-3 operator"),
        ("x://a/{?q}", "`{?…}` is a level-2 or level-3 operator"),
        (
            "x://{a}{b}",
            "two variables touch; separate them with literal text such as `/`",
        ),
        (
            "x://a/{a:3}",
            "`{a:3}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/{a*}",
            "`{a*}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/{a,b}",
            "`{a,b}` uses a modifier or a list, beyond level 1",
        ),
        (
            "x://a/b",
            "it has no variable; use `uri:` for a fixed resource",
        ),
        ("x://a/{id", "a `{` is never closed"),
        ("x://a/}", "a `}` closes no variable"),
        ("/files/{id}", "before the first variable, it has no scheme"),
        ("{s}://a", "before the first variable, it has no scheme"),
        ("x://a b/{id}", "' ' cannot appear in a URI"),
        ("x://a/{id}/{id}", "`id` appears twice"),
        (
            "x://a/{}",
            "`{}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{1}",
            "`{1}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{_}",
            "`{_}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        (
            "x://a/{a-b}",
            "`{a-b}` is not a variable name (a letter, then letters, digits or `_`)",
        ),
        // `format: uri-template` (RFC 6570), and what it expands to is a URI (RFC 3986).
        (
            "x://caf\u{e9}/{id}",
            "'\u{e9}' cannot appear in a URI; percent-encode it as `%C3%A9`",
        ),
        (
            "x://a/%zz/{id}",
            "`%zz` is not a percent-escape; write `%25` for a `%` itself",
        ),
        ("x://a/{id}#b#c", "it does not expand to an RFC 3986 URI"),
    ] {
        let d = single(
            &with(&format!(
                "resources:\n{}",
                resource("r", &format!("uri_template: \"{template}\""))
            )),
            "bad-uri-template",
            &format!("`{template}` is not a level-1 URI template: {problem}"),
            "tools.yaml:11:19",
        );
        assert_eq!(
            d.help.as_deref(),
            Some(
                "write a URI with a scheme and `{name}` variables, each one path segment, such as `workspace:///files/{path}`"
            )
        );
    }
    for template in [
        "x://caf%C3%A9/{id}",
        "x://a/{id}?q=1#top",
        "urn:item:{id}",
        "x://a/it's/{id}",
    ] {
        loads(&with(&format!(
            "resources:\n{}",
            resource("r", &format!("uri_template: \"{template}\""))
        )));
    }
}

#[test]
fn bad_mime_type() {
    for mime in ["text", "text/", "/plain", "text/plain/x", "text plain"] {
        let text = with(&format!("resources:\n{}", resource("r", "uri: x://a")))
            .replace("mime_type: text/plain", &format!("mime_type: \"{mime}\""));
        let d = single(
            &text,
            "bad-mime-type",
            &format!("`{mime}` is not a MIME type"),
            "tools.yaml:14:16",
        );
        assert_eq!(
            d.help.as_deref(),
            Some("write `type/subtype`, such as `text/plain` or `application/json`")
        );
    }
    let text = with(&format!("resources:\n{}", resource("r", "uri: x://a"))).replace(
        "mime_type: text/plain",
        "mime_type: text/plain; charset=utf-8",
    );
    loads(&text);
}

#[test]
fn empty_text_of_a_resource() {
    let text = with(&format!("resources:\n{}", resource("r", "uri: x://a")));
    let d = single(
        &text.replace("title: Resource r", "title: \" \""),
        "empty-text",
        "the resource's title is empty",
        "tools.yaml:12:12",
    );
    assert_eq!(d.help.as_deref(), Some("write the title a client lists"));
    single(
        &text.replace("description: Holds r.", "description: \"\""),
        "empty-text",
        "the resource's description is empty",
        "tools.yaml:13:18",
    );
}

#[test]
fn ident_collision_of_a_resource_method() {
    // With a tool's method.
    let text = format!(
        "{}resources:\n{}",
        VALID.replace("name: ping", "name: ping_resource"),
        resource("ping", "uri: x://a")
    );
    let d = single(
        &text,
        "ident-collision",
        "the resource `ping` becomes the Rust method `ping_resource`, which a tool already has",
        "tools.yaml:10:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:4:11");
    assert_eq!(d.help.as_deref(), Some("rename the resource or the tool"));
    // With another resource's: `a__b` and `a_b` are both `a_b_resource`.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("a__b", "uri: x://1"),
        resource("a_b", "uri: x://2")
    ));
    let d = single(
        &text,
        "ident-collision",
        "the resource `a_b` becomes the Rust method `a_b_resource`, which another resource already has",
        "tools.yaml:15:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:10:11");
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the resources so their snake_case forms differ")
    );
}

#[test]
fn ident_collision_of_template_variables() {
    let d = single(
        &with(&format!(
            "resources:\n{}",
            resource("r", "uri_template: x:///{fooBar}/{foo_bar}")
        )),
        "ident-collision",
        "`{fooBar}` and `{foo_bar}` become the same Rust field `foo_bar`",
        "tools.yaml:11:19",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("rename one of the variables so their snake_case forms differ")
    );
}

#[test]
fn ident_collision_of_a_resource_parameters_type() {
    // Lines 9-14 the shared type, 15 `resources:`, 16 the resource's name.
    let text = with(&format!(
        "types:\n  FileParams:\n    type: object\n    description: P.\n    properties:\n      x: {{type: string, description: X.}}\nresources:\n{}",
        resource("file", "uri_template: x:///{p}")
    ));
    let d = single(
        &text,
        "ident-collision",
        "the resource parameters type `FileParams` would be generated twice",
        "tools.yaml:16:11",
    );
    assert_eq!(related_at(&d, &text, 0), "tools.yaml:11:11");
    // A fixed resource has no parameters type.
    loads(&text.replace("uri_template: x:///{p}", "uri: x:///p"));
}

#[test]
fn a_bad_uri_hides_no_other_problem_of_its_resource() {
    let text = with(&format!("resources:\n{}", resource("r", "uri: /no-scheme")))
        .replace("title: Resource r", "title: \" \"")
        .replace("mime_type: text/plain", "mime_type: text");
    refused_at(
        &text,
        &[
            ("bad-uri", "tools.yaml:11:10"),
            ("empty-text", "tools.yaml:12:12"),
            ("bad-mime-type", "tools.yaml:14:16"),
        ],
    );
}

#[test]
fn a_duplicate_resource_name_hides_no_other_problem() {
    // The second `r` repeats the name (line 15) and has a bad template (line 16); its method,
    // the first's, is not reported as a second collision.
    let text = with(&format!(
        "resources:\n{}{}",
        resource("r", "uri: x://a"),
        resource("r", "uri_template: x:///{+path}")
    ));
    refused_at(
        &text,
        &[
            ("duplicate-resource", "tools.yaml:15:11"),
            ("bad-uri-template", "tools.yaml:16:19"),
        ],
    );
}
