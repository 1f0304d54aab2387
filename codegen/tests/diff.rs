//! The diff engine: one manifest pair per rule, and every output format. The CLI's exit codes
//! and `--against` are tested with the CLI (`cli/tests/diff.rs`).

use common::diff_base::{BASE, PONG, edit};
use mcp_contract_codegen::diff::{self, Format, RULES, Report};
use mcp_contract_codegen::{Contract, Date, Source, load, render_all};

mod common;

/// The every-feature fixture's folder, which its icon files are relative to.
const FIXTURE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/every-feature");

#[track_caller]
fn contract(text: &str) -> (Source, Contract) {
    let source = Source::new("tools.yaml", text).with_dir(FIXTURE_DIR);
    match load(&source) {
        Ok(loaded) => (source, loaded.contract),
        Err(d) => panic!("{}", render_all(&d, &source)),
    }
}

/// The rule with this ID.
#[track_caller]
fn rule(id: &str) -> &'static diff::Rule {
    diff::rule(id).unwrap_or_else(|| panic!("no rule {id}"))
}

/// The day the cases judge removal windows on, so that they do not age.
fn today() -> Date {
    Date::parse("2027-01-01").expect("a day")
}

fn report(old: &str, new: &str, allow: &[&'static diff::Rule]) -> Report {
    let (old_source, old) = contract(old);
    let (new_source, new) = contract(new);
    Report::new(
        diff::diff_as_of(&old, &new, today()),
        &old_source,
        &new_source,
        allow,
    )
}

/// Every change as `RULE_ID tools.yaml:LINE:COL`.
fn found(old: &str, new: &str) -> Vec<String> {
    report(old, new, &[])
        .findings
        .iter()
        .map(|f| format!("{} {}:{}:{}", f.change.rule.id, f.file, f.line, f.column))
        .collect()
}

const FORCE: &str = "      force:
        type: boolean
        description: Read even if locked.
        example: true
    output:
";

/// `tags` in [`BASE`], typed.
const TAGS: &str = "        type: array
        description: Labels to match.
        required: false
        example: [a]
        items:
          type: string
          pattern: \"^[a-z]+$\"
";

/// `tags` as a JSON Schema document of at most `max` items.
fn tags_document(max: u32) -> String {
    format!(
        "        required: false
        json_schema: {{description: Labels to match., type: array, examples: [[a]], maxItems: {max}}}
"
    )
}

/// `not_found` in [`BASE`], and naming its argument.
const NOT_FOUND: &str = "    message: \"There is no file `{path}`.\"\n";
const NAMING_NOT_FOUND: &str = "    message: \"There is no file `{path}`.\"\n    argument: true\n";

/// One case per rule: (old, new, every change expected).
fn cases() -> Vec<(&'static str, String, String, Vec<&'static str>)> {
    let b = || BASE.to_owned();
    // `ping` asks `sure`, whose id is at 63:7, with one field line.
    let asking = |field: &str| {
        edit(
            "    output: text\n",
            &format!(
                "    output: text\n    asks:\n      sure:\n        message: Sure?\n        fields:\n          {field}\n"
            ),
        )
    };
    // `ping` with `task: {mode}`; its name is at 57:11.
    let tasking = |mode: &str| {
        edit(
            "    output: text\n",
            &format!("    output: text\n    task: {mode}\n"),
        )
    };
    // `list_changed` on line 3, its value at column 17.
    let changing = |value: &str| {
        edit(
            "  name: demo\n",
            &format!("  name: demo\n  list_changed: {value}\n"),
        )
    };
    // `read_file`'s `mode` of the shared enum type `Mode`; `shared_types` on line 3, its
    // value at column 17, when written.
    let typed = |shared: &str| {
        edit("tools:\n", "types:\n  Mode:\n    type: string\n    description: A reading mode.\n    enum: [text, bytes]\ntools:\n")
            .replacen("        type: string\n        description: How to read it.\n        enum: [text, bytes]\n", "        type: Mode\n        description: How to read it.\n", 1)
            .replacen("  name: demo\n", &format!("  name: demo\n{shared}"), 1)
    };
    let ping_at = BASE.find("  - name: ping").expect("ping is in BASE");
    // `ping` deprecated in favour of `read_file`; `deprecated:`'s mapping at 62:17.
    let deprecating = |until: &str| {
        edit(
            "    output: text\n",
            &format!(
                "    output: text\n    deprecated: {{reason: Read a file., replaced_by: read_file, remove_after: {until}}}\n"
            ),
        )
    };
    // `ping` with `aliases: [{alias}]`, the list at 62:14.
    let aliasing = |alias: &str| {
        edit(
            "    output: text\n",
            &format!("    output: text\n    aliases: [{alias}]\n"),
        )
    };
    let ping_content = |blocks: &str| {
        edit(
            "    output: text\n",
            &format!("    output:\n      content:\n{blocks}"),
        )
    };
    let text_and_images = |types: &str| {
        ping_content(&format!(
            "        - kind: text\n        - kind: image\n          mime_types: [{types}]\n"
        ))
    };
    // `ping` opening the app `board` (`app:` at 68:5) when `tool_app` is not empty, and the
    // app, from line 69, with `html` after its doctype and `frame` settings.
    let apped = |tool_app: &str, html: &str, frame: &str| {
        let tool = match tool_app {
            "" => String::new(),
            app => format!("    app: {app}\n"),
        };
        format!(
            "{}resources:\n  - name: board\n    uri: ui://demo/board\n    title: Board\n    \
             description: The board.\n    mime_type: text/html;profile=mcp-app\n    app:\n      \
             html: \"<!DOCTYPE html>{html}\"\n{frame}",
            edit("    output: text\n", &format!("    output: text\n{tool}"))
        )
    };
    let board = "{resource: ui://demo/board}";
    let app_only = "{resource: ui://demo/board, visibility: [app]}";
    vec![
        ("APP_ADDED", apped("", "", ""), apped(board, "", ""), vec!["APP_ADDED tools.yaml:62:5"]),
        ("APP_NO_DELETE", apped(board, "", ""), apped("", "", ""), vec!["APP_NO_DELETE tools.yaml:62:5"]),
        (
            "APP_NO_DELETE with its resource",
            apped(board, "", ""),
            b(),
            vec!["APP_NO_DELETE tools.yaml:62:5", "RESOURCE_NO_DELETE tools.yaml:64:11"],
        ),
        (
            "APP_VISIBILITY_NO_NARROW",
            apped(board, "", ""),
            apped(app_only, "", ""),
            vec!["APP_VISIBILITY_NO_NARROW tools.yaml:62:5"],
        ),
        (
            "APP_VISIBILITY_WIDENED",
            apped(app_only, "", ""),
            apped(board, "", ""),
            vec!["APP_VISIBILITY_WIDENED tools.yaml:62:5"],
        ),
        (
            "APP_HTML_CHANGED",
            apped(board, "<p>a", ""),
            apped(board, "<p>b", ""),
            vec!["APP_HTML_CHANGED tools.yaml:69:5"],
        ),
        (
            "APP_FRAME_CHANGED",
            apped(board, "", ""),
            apped(board, "", "      csp: {connect_domains: [https://api.example.com]}\n"),
            vec!["APP_FRAME_CHANGED tools.yaml:69:5"],
        ),
        (
            "CONTENT_KIND_ADDED",
            b(),
            text_and_images("image/png"),
            vec!["CONTENT_KIND_ADDED tools.yaml:64:17"],
        ),
        (
            "CONTENT_KIND_NO_DELETE",
            b(),
            ping_content("        - kind: image\n          mime_types: [image/png]\n"),
            vec!["CONTENT_KIND_NO_DELETE tools.yaml:61:5", "CONTENT_KIND_ADDED tools.yaml:63:17"],
        ),
        (
            "CONTENT_MIME_TYPE_NO_DELETE and _ADDED",
            text_and_images("image/png, image/jpeg"),
            text_and_images("image/PNG, image/gif"),
            vec![
                "CONTENT_MIME_TYPE_NO_DELETE tools.yaml:64:17",
                "CONTENT_MIME_TYPE_ADDED tools.yaml:64:17",
            ],
        ),
        ("TOOL_NO_DELETE", b(), BASE[..ping_at].to_owned(), vec!["TOOL_NO_DELETE tools.yaml:57:11"]),
        ("TOOL_ADDED", b(), format!("{BASE}{PONG}"), vec!["TOOL_ADDED tools.yaml:62:11"]),
        (
            "a renamed tool",
            b(),
            edit("name: ping", "name: pong"),
            vec!["TOOL_NO_DELETE tools.yaml:57:11", "TOOL_ADDED tools.yaml:57:11"],
        ),
        (
            "RENAMED_WITH_ALIAS",
            b(),
            edit("name: ping", "name: pong\n    aliases: [ping]"),
            vec!["RENAMED_WITH_ALIAS tools.yaml:58:15"],
        ),
        (
            "RENAMED_WITH_ALIAS, the tool compared with its old self",
            b(),
            edit("name: ping\n    title: Ping", "name: pong\n    aliases: [ping]\n    title: Pong"),
            vec!["RENAMED_WITH_ALIAS tools.yaml:58:15", "TITLE_CHANGED tools.yaml:59:5"],
        ),
        ("DEPRECATED", b(), deprecating("2027-06-30"), vec!["DEPRECATED tools.yaml:62:17"]),
        (
            "REMOVED_AFTER_WINDOW",
            deprecating("2026-12-31"),
            BASE[..ping_at].to_owned(),
            vec!["REMOVED_AFTER_WINDOW tools.yaml:57:11"],
        ),
        (
            "a tool removed before its window",
            deprecating("2027-01-01"),
            BASE[..ping_at].to_owned(),
            vec!["TOOL_NO_DELETE tools.yaml:57:11"],
        ),
        ("ALIAS_NO_DELETE", aliasing("pingg"), b(), vec!["ALIAS_NO_DELETE tools.yaml:62:15"]),
        (
            "ALIAS_NO_DELETE before the alias's window",
            aliasing("{name: pingg, remove_after: 2027-01-01}"),
            b(),
            vec!["ALIAS_NO_DELETE tools.yaml:62:22"],
        ),
        (
            "ALIAS_REMOVED_AFTER_WINDOW",
            aliasing("{name: pingg, remove_after: 2026-12-31}"),
            b(),
            vec!["ALIAS_REMOVED_AFTER_WINDOW tools.yaml:62:22"],
        ),
        ("ALIAS_ADDED", b(), aliasing("pingg"), vec!["ALIAS_ADDED tools.yaml:62:15"]),
        (
            "PARAMETER_NO_DELETE",
            b(),
            edit("      tags:\n        type: array\n        description: Labels to match.\n        required: false\n        example: [a]\n        items:\n          type: string\n          pattern: \"^[a-z]+$\"\n", ""),
            vec!["PARAMETER_NO_DELETE tools.yaml:40:7"],
        ),
        (
            "PARAMETER_NEW_REQUIRED",
            b(),
            edit("    output:\n      properties:", &format!("{FORCE}      properties:")),
            vec!["PARAMETER_NEW_REQUIRED tools.yaml:48:7"],
        ),
        (
            "PARAMETER_ADDED",
            b(),
            edit(
                "    output:\n      properties:",
                &format!("{}      properties:", FORCE.replace("example: true", "example: true\n        required: false")),
            ),
            vec!["PARAMETER_ADDED tools.yaml:48:7"],
        ),
        (
            "PARAMETER_SAME_REQUIRED",
            b(),
            edit("        required: false\n        example: {lines: 10}", "        example: {lines: 10}"),
            vec!["PARAMETER_SAME_REQUIRED tools.yaml:29:7"],
        ),
        (
            "PARAMETER_SAME_TYPE in a nested object",
            b(),
            edit("            type: integer", "            type: number"),
            vec!["PARAMETER_SAME_TYPE tools.yaml:35:11"],
        ),
        ("ENUM_VALUE_NO_DELETE", b(), edit("[text, bytes]", "[text]"), vec!["ENUM_VALUE_NO_DELETE tools.yaml:23:7"]),
        ("ENUM_VALUE_ADDED", b(), edit("[text, bytes]", "[text, bytes, lines]"), vec!["ENUM_VALUE_ADDED tools.yaml:23:7"]),
        ("CONSTRAINT_NO_TIGHTEN minLength", b(), edit("minLength: 1", "minLength: 2"), vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:20:20"]),
        ("CONSTRAINT_NO_TIGHTEN maximum, nested", b(), edit("maximum: 1000", "maximum: 500"), vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:39:22"]),
        (
            // The published maximum is the Rust type's: dropping `minimum: 1` for `-1` makes
            // the `u64` an `i64`, whose maximum is half as large.
            "CONSTRAINT_NO_TIGHTEN the maximum a Rust type implies",
            edit("            maximum: 1000\n", ""),
            edit("            minimum: 1\n            maximum: 1000\n", "            minimum: -1\n"),
            vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:35:11", "CONSTRAINT_LOOSENED tools.yaml:38:22"],
        ),
        ("CONSTRAINT_NO_TIGHTEN pattern, in items", b(), edit("^[a-z]+$", "^[a-z0-9]{1,8}$"), vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:47:20"]),
        ("CONSTRAINT_NO_TIGHTEN new format", b(), edit("        maxLength: 100\n", "        maxLength: 100\n        format: uri-reference\n"), vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:22:17"]),
        ("CONSTRAINT_LOOSENED maxLength", b(), edit("maxLength: 100", "maxLength: 200"), vec!["CONSTRAINT_LOOSENED tools.yaml:21:20"]),
        ("CONSTRAINT_LOOSENED lost pattern", b(), edit("\n          pattern: \"^[a-z]+$\"", ""), vec!["CONSTRAINT_LOOSENED tools.yaml:40:7"]),
        (
            "CONSTRAINT_LOOSENED now optional",
            b(),
            edit("        maxLength: 100\n", "        maxLength: 100\n        required: false\n"),
            vec!["CONSTRAINT_LOOSENED tools.yaml:17:7"],
        ),
        (
            "OUTPUT_FIELD_NO_DELETE",
            b(),
            edit("        size:\n          type: integer\n          description: Its size in bytes.\n", ""),
            vec!["OUTPUT_FIELD_NO_DELETE tools.yaml:53:9"],
        ),
        (
            "OUTPUT_FIELD_NO_DELETE now optional",
            b(),
            edit("          description: Its size in bytes.\n", "          description: Its size in bytes.\n          required: false\n"),
            vec!["OUTPUT_FIELD_NO_DELETE tools.yaml:53:9"],
        ),
        (
            "OUTPUT_FIELD_ADDED",
            b(),
            edit("    errors: [not_found, too_big]", "        lines:\n          type: integer\n          description: Its line count.\n    errors: [not_found, too_big]"),
            vec!["OUTPUT_FIELD_ADDED tools.yaml:56:9"],
        ),
        ("OUTPUT_FIELD_SAME_TYPE", b(), edit("type: integer\n          description: Its size", "type: string\n          description: Its size"), vec!["OUTPUT_FIELD_SAME_TYPE tools.yaml:53:9"]),
        (
            "JSON_SCHEMA_CHANGED",
            edit(TAGS, &tags_document(3)),
            edit(TAGS, &tags_document(2)),
            vec!["JSON_SCHEMA_CHANGED tools.yaml:40:7"],
        ),
        (
            "OUTPUT_SAME_KIND",
            b(),
            edit("    output: text\n", "    output:\n      properties:\n        reply:\n          type: string\n          description: The reply.\n"),
            vec!["OUTPUT_SAME_KIND tools.yaml:61:5"],
        ),
        ("ERROR_CODE_NO_DELETE", b(), edit("[not_found, too_big]", "[not_found]"), vec!["ERROR_CODE_NO_DELETE tools.yaml:56:5"]),
        ("ERROR_CODE_ADDED", edit("[not_found, too_big]", "[not_found]"), b(), vec!["ERROR_CODE_ADDED tools.yaml:56:5"]),
        ("ERROR_ARGUMENT_ADDED", b(), edit(NOT_FOUND, NAMING_NOT_FOUND), vec!["ERROR_ARGUMENT_ADDED tools.yaml:57:5"]),
        ("ERROR_ARGUMENT_NO_DELETE", edit(NOT_FOUND, NAMING_NOT_FOUND), b(), vec!["ERROR_ARGUMENT_NO_DELETE tools.yaml:56:5"]),
        (
            "HINT_NO_LESS_SAFE",
            b(),
            edit("    output: text\n", "    output: text\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: true}\n")
                .replacen("    description: Answers pong.\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n", "    description: Answers pong.\n", 1),
            vec!["HINT_NO_LESS_SAFE tools.yaml:61:5"],
        ),
        (
            "HINT_SAFER",
            edit("    output: text\n", "    output: text\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: true}\n")
                .replacen("    description: Answers pong.\n    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}\n", "    description: Answers pong.\n", 1),
            b(),
            vec!["HINT_SAFER tools.yaml:60:5"],
        ),
        ("TITLE_CHANGED", b(), edit("title: Ping", "title: Ping the server"), vec!["TITLE_CHANGED tools.yaml:58:5"]),
        (
            "ICONS_CHANGED",
            b(),
            edit("    output: text\n", "    output: text\n    icons: [{src: \"https://example.com/ping.png\"}]\n")
                .replacen("  name: demo\n", "  name: demo\n  icons: [{file: icons/echo.png}]\n", 1),
            vec!["ICONS_CHANGED tools.yaml:1:1", "ICONS_CHANGED tools.yaml:63:5"],
        ),
        ("DESCRIPTION_CHANGED tool", b(), edit("Answers pong.", "Answers with pong."), vec!["DESCRIPTION_CHANGED tools.yaml:59:5"]),
        ("DESCRIPTION_CHANGED by a default", b(), edit("default: text", "default: bytes"), vec!["DESCRIPTION_CHANGED tools.yaml:23:7"]),
        ("EXAMPLE_CHANGED", b(), edit("example: notes.txt", "example: todo.txt"), vec!["EXAMPLE_CHANGED tools.yaml:17:7"]),
        ("SENTENCE_CHANGED", b(), edit("careful: It changes nothing.", "careful: It never changes anything."), vec!["SENTENCE_CHANGED tools.yaml:4:3"]),
        (
            "an inline enum moved to an equal shared type",
            b(),
            edit("tools:\n", "types:\n  Mode:\n    type: string\n    description: A reading mode.\n    enum: [text, bytes]\ntools:\n")
                .replacen("        type: string\n        description: How to read it.\n        enum: [text, bytes]\n", "        type: Mode\n        description: How to read it.\n", 1),
            vec![],
        ),
        (
            "a value removed from a shared type",
            edit("tools:\n", "types:\n  Mode:\n    type: string\n    description: A reading mode.\n    enum: [text, bytes]\ntools:\n")
                .replacen("        type: string\n        description: How to read it.\n        enum: [text, bytes]\n", "        type: Mode\n        description: How to read it.\n", 1),
            edit("tools:\n", "types:\n  Mode:\n    type: string\n    description: A reading mode.\n    enum: [text, bytes]\ntools:\n")
                .replacen("        type: string\n        description: How to read it.\n        enum: [text, bytes]\n", "        type: Mode\n        description: How to read it.\n", 1)
                .replacen("enum: [text, bytes]", "enum: [text]", 1),
            vec!["ENUM_VALUE_NO_DELETE tools.yaml:28:7"],
        ),
        ("LIST_CHANGED_ADDED", b(), changing("true"), vec!["LIST_CHANGED_ADDED tools.yaml:3:17"]),
        ("LIST_CHANGED_ADDED from false", changing("false"), changing("true"), vec!["LIST_CHANGED_ADDED tools.yaml:3:17"]),
        ("LIST_CHANGED_NO_DELETE", changing("true"), b(), vec!["LIST_CHANGED_NO_DELETE tools.yaml:3:17"]),
        ("LIST_CHANGED_NO_DELETE to false", changing("true"), changing("false"), vec!["LIST_CHANGED_NO_DELETE tools.yaml:3:17"]),
        ("list_changed: false is the default", b(), changing("false"), vec![]),
        ("SHARED_TYPES_PUBLICATION", typed(""), typed("  shared_types: defs\n"), vec!["SHARED_TYPES_PUBLICATION tools.yaml:3:17"]),
        ("SHARED_TYPES_PUBLICATION back to inline", typed("  shared_types: defs\n"), typed(""), vec!["SHARED_TYPES_PUBLICATION tools.yaml:3:17"]),
        ("shared_types: inline is the default", typed(""), typed("  shared_types: inline\n"), vec![]),
        ("shared_types with no shared type to refer to", b(), edit("  name: demo\n", "  name: demo\n  shared_types: defs\n"), vec![]),
        ("QUESTION_ADDED", b(), asking("ok: {type: boolean}"), vec!["QUESTION_ADDED tools.yaml:63:7"]),
        ("QUESTION_REMOVED", asking("ok: {type: boolean}"), b(), vec!["QUESTION_REMOVED tools.yaml:63:7"]),
        ("TASK_OPTIONAL", b(), tasking("optional"), vec!["TASK_OPTIONAL tools.yaml:62:5"]),
        ("TASK_OPTIONAL: no longer required", tasking("required"), tasking("optional"), vec!["TASK_OPTIONAL tools.yaml:62:5"]),
        ("TASK_REQUIRED", tasking("optional"), tasking("required"), vec!["TASK_REQUIRED tools.yaml:62:5"]),
        ("TASK_REMOVED", tasking("optional"), b(), vec!["TASK_REMOVED tools.yaml:62:5"]),
        (
            "QUESTION_CHANGED: a title, a new optional field",
            asking("ok: {type: boolean}"),
            asking("ok: {type: boolean, title: OK}\n          why: {type: string, required: false}"),
            vec!["QUESTION_CHANGED tools.yaml:63:7"],
        ),
        (
            "QUESTION_NARROWED: a new required field",
            asking("ok: {type: boolean}"),
            asking("ok: {type: boolean}\n          why: {type: string}"),
            vec!["QUESTION_NARROWED tools.yaml:63:7"],
        ),
        (
            "QUESTION_NARROWED: a tighter limit",
            asking("n: {type: integer, maximum: 9}"),
            asking("n: {type: integer, maximum: 5}"),
            vec!["QUESTION_NARROWED tools.yaml:63:7"],
        ),
        // A prompt's and a resource's questions, under the same rules: `sure` at 72:7 on
        // `review`, at 69:7 on `about`.
        (
            "QUESTION_ADDED on a prompt",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{REVIEW}    asks:\n      sure: {{message: Sure?}}\n"),
            vec!["QUESTION_ADDED tools.yaml:72:7"],
        ),
        (
            "QUESTION_NARROWED on a resource",
            format!("{BASE}{ABOUT}    asks:\n      sure: {{message: Sure?, fields: {{ok: {{type: boolean}}}}}}\n"),
            format!("{BASE}{ABOUT}    asks:\n      sure: {{message: Sure?, fields: {{ok: {{type: boolean}}, why: {{type: string}}}}}}\n"),
            vec!["QUESTION_NARROWED tools.yaml:69:7"],
        ),
        (
            "QUESTION_REMOVED on a resource",
            format!("{BASE}{ABOUT}    asks:\n      sure: {{message: Sure?}}\n"),
            format!("{BASE}{ABOUT}"),
            vec!["QUESTION_REMOVED tools.yaml:69:7"],
        ),
        ("GROUP_JOINED", grouped("[a]"), grouped("[a, b]"), vec!["GROUP_JOINED tools.yaml:63:5"]),
        ("GROUP_NO_LEAVE", grouped("[a, b]"), grouped("[a]"), vec!["GROUP_NO_LEAVE tools.yaml:63:5"]),
        ("RESOURCE_ADDED", b(), format!("{BASE}{ABOUT}"), vec!["RESOURCE_ADDED tools.yaml:63:11"]),
        (
            "SCOPE_NO_ADD and SCOPE_REMOVED on a tool",
            scoped("    output: text\n    scopes: [a]\n", ""),
            scoped("    output: text\n    scopes: [b]\n", ""),
            vec!["SCOPE_NO_ADD tools.yaml:62:5", "SCOPE_REMOVED tools.yaml:62:5"],
        ),
        (
            "SCOPE_NO_ADD on a group",
            grouped("[a]") + AUTH,
            grouped("[a]").replacen("    description: A.\n", "    description: A.\n    scopes: a\n", 1) + AUTH,
            vec!["SCOPE_NO_ADD tools.yaml:65:3"],
        ),
        (
            "SCOPE_NO_ADD on a resource and SCOPE_REMOVED on a prompt",
            format!("{BASE}{ABOUT}{REVIEW}    scopes: b\n{AUTH}"),
            format!("{BASE}{ABOUT}    scopes: [a, b]\n{REVIEW}{AUTH}"),
            vec!["SCOPE_NO_ADD tools.yaml:68:5", "SCOPE_NO_ADD tools.yaml:68:5", "SCOPE_REMOVED tools.yaml:70:11"],
        ),
        (
            "AUTH_SCOPE_ADDED, AUTH_SCOPE_REMOVED and a scope's description",
            format!("{BASE}auth:\n  scopes:\n    a: {{description: A.}}\n    b: {{description: B.}}\n"),
            format!("{BASE}auth:\n  scopes:\n    a: {{description: Aye.}}\n    c: {{description: C.}}\n"),
            vec![
                "DESCRIPTION_CHANGED tools.yaml:64:5",
                "AUTH_SCOPE_ADDED tools.yaml:65:5",
                "AUTH_SCOPE_REMOVED tools.yaml:65:5",
            ],
        ),
        (
            "AUTH_RESOURCE_NO_CHANGE",
            format!("{BASE}{AUTH}  resource: https://a.example.com/mcp\n"),
            format!("{BASE}{AUTH}  resource: https://b.example.com/mcp\n"),
            vec!["AUTH_RESOURCE_NO_CHANGE tools.yaml:66:13"],
        ),
        (
            "AUTH_RESOURCE_NO_CHANGE when the manifest no longer fixes it",
            format!("{BASE}{AUTH}  resource: https://a.example.com/mcp\n"),
            format!("{BASE}{AUTH}"),
            vec!["AUTH_RESOURCE_NO_CHANGE tools.yaml:66:13"],
        ),
        (
            "AUTH_SERVER_NO_DELETE and AUTH_SERVER_ADDED",
            format!("{BASE}{AUTH}  authorization_servers: [https://a.example.com, https://b.example.com]\n"),
            format!("{BASE}{AUTH}  authorization_servers: https://c.example.com\n"),
            vec![
                "AUTH_SERVER_NO_DELETE tools.yaml:66:27",
                "AUTH_SERVER_NO_DELETE tools.yaml:66:50",
                "AUTH_SERVER_ADDED tools.yaml:66:26",
            ],
        ),
        ("PROMPT_ADDED", b(), format!("{BASE}{REVIEW}"), vec!["PROMPT_ADDED tools.yaml:63:11"]),
        ("PROMPT_NO_DELETE", format!("{BASE}{REVIEW}"), b(), vec!["PROMPT_NO_DELETE tools.yaml:63:11"]),
        (
            "PROMPT_ARGUMENT_NEW_REQUIRED",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{REVIEW}{}", "      focus:\n        description: What to look at.\n        required: true\n"),
            vec!["PROMPT_ARGUMENT_NEW_REQUIRED tools.yaml:66:5"],
        ),
        (
            "PROMPT_ARGUMENT_ADDED",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{REVIEW}{}", "      focus:\n        description: What to look at.\n"),
            vec!["PROMPT_ARGUMENT_ADDED tools.yaml:66:5"],
        ),
        (
            "a prompt argument that became optional",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{}", REVIEW.replace("        required: true\n", "")),
            vec!["PROMPT_ARGUMENT_ADDED tools.yaml:66:5"],
        ),
        (
            "PROMPT_ARGUMENT_NO_DELETE",
            format!("{BASE}{REVIEW}{}", "      focus:\n        description: What to look at.\n"),
            format!("{BASE}{REVIEW}"),
            vec!["PROMPT_ARGUMENT_NO_DELETE tools.yaml:66:5"],
        ),
        (
            "COMPLETION_CHANGED",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{}", REVIEW.replace("[a, b]", "handler")),
            vec!["COMPLETION_CHANGED tools.yaml:66:5"],
        ),
        (
            "COMPLETION_CHANGED of a template variable",
            format!("{BASE}{}", ABOUT.replace("uri: x://about", "uri_template: x://about/{page}")),
            format!("{BASE}{}completion:\n      page: [intro]\n", ABOUT.replace("uri: x://about", "uri_template: x://about/{page}").replace("mime_type: text/plain\n", "mime_type: text/plain\n    ")),
            vec!["COMPLETION_CHANGED tools.yaml:63:11"],
        ),
        (
            "a prompt's title and description",
            format!("{BASE}{REVIEW}"),
            format!("{BASE}{}", REVIEW.replace("title: Review", "title: Review a file").replace("Reviews a file.", "Reviews one file.")),
            vec!["TITLE_CHANGED tools.yaml:64:5", "DESCRIPTION_CHANGED tools.yaml:65:5"],
        ),
        ("RESOURCE_NO_DELETE", format!("{BASE}{ABOUT}"), b(), vec!["RESOURCE_NO_DELETE tools.yaml:63:11"]),
        (
            "a moved resource",
            format!("{BASE}{ABOUT}"),
            format!("{BASE}{}", ABOUT.replace("x://about", "x://about/v2")),
            vec!["RESOURCE_NO_DELETE tools.yaml:63:11", "RESOURCE_ADDED tools.yaml:63:11"],
        ),
        (
            "RESOURCE_SAME_MIME_TYPE",
            format!("{BASE}{ABOUT}"),
            format!("{BASE}{}", ABOUT.replace("text/plain", "text/markdown")),
            vec!["RESOURCE_SAME_MIME_TYPE tools.yaml:67:5"],
        ),
        (
            "a resource's title and description",
            format!("{BASE}{ABOUT}"),
            format!("{BASE}{}", ABOUT.replace("title: About", "title: About us").replace("What this is.", "Who we are.")),
            vec!["TITLE_CHANGED tools.yaml:65:5", "DESCRIPTION_CHANGED tools.yaml:66:5"],
        ),
        (
            "a template's variable renamed",
            format!("{BASE}{}", ABOUT.replace("uri: x://about", "uri_template: x://about/{page}")),
            format!("{BASE}{}", ABOUT.replace("uri: x://about", "uri_template: x://about/{section}")),
            vec!["TITLE_CHANGED tools.yaml:64:5"],
        ),
        (
            "a template that answers other URIs",
            format!("{BASE}{}", ABOUT.replace("uri: x://about", "uri_template: x://about/{page}")),
            format!("{BASE}{}", ABOUT.replace("uri: x://about", "uri_template: x://about/{page}.md")),
            vec!["RESOURCE_NO_DELETE tools.yaml:63:11", "RESOURCE_ADDED tools.yaml:63:11"],
        ),
        (
            "a renamed resource at the same URI",
            format!("{BASE}{ABOUT}"),
            format!("{BASE}{}", ABOUT.replace("name: about", "name: colophon")),
            vec!["TITLE_CHANGED tools.yaml:63:5"],
        ),
        ("HEADER_NO_CHANGE added", b(), edit("example: notes.txt\n", "example: notes.txt\n        header: Path\n"), vec!["HEADER_NO_CHANGE tools.yaml:17:7"]),
        (
            "HEADER_NO_CHANGE removed",
            edit("example: notes.txt\n", "example: notes.txt\n        header: Path\n"),
            b(),
            vec!["HEADER_NO_CHANGE tools.yaml:17:7"],
        ),
        (
            "ROUTES_NO_CHANGE",
            b(),
            grouped("[a]"),
            vec!["ROUTES_NO_CHANGE tools.yaml:65:3", "GROUP_JOINED tools.yaml:57:5", "GROUP_JOINED tools.yaml:57:5", "GROUP_JOINED tools.yaml:63:5"],
        ),
        (
            "HEADER_NO_CHANGE",
            edit("example: notes.txt\n", "example: notes.txt\n        header: Path\n"),
            edit("example: notes.txt\n", "example: notes.txt\n        header: File\n"),
            vec!["HEADER_NO_CHANGE tools.yaml:17:7"],
        ),
        ("PLANNING_ADDED", b(), edit("    output: text\n", COMPLETE), vec!["PLANNING_ADDED tools.yaml:57:11"]),
        ("PLANNING_NO_DELETE", edit("    output: text\n", COMPLETE), b(), vec!["PLANNING_NO_DELETE tools.yaml:57:11"]),
        (
            "PLANNING_KEY_NO_CHANGE",
            composed("[demo, composition]"),
            composed("[demo, planning]"),
            vec!["PLANNING_KEY_NO_CHANGE tools.yaml:64:13"],
        ),
        (
            "a planning contract moved back to its default key",
            composed("[demo, composition]"),
            edit("    output: text\n", COMPLETE),
            vec!["PLANNING_KEY_NO_CHANGE tools.yaml:64:13"],
        ),
        (
            "a key path no tool publishes under",
            format!("{BASE}composition:\n  meta_key: [demo, composition]\n"),
            format!("{BASE}composition:\n  meta_key: [demo, planning]\n"),
            vec![],
        ),
        (
            "a parameter's union gains a variant",
            unioned(UNION_A, "op", REPLACED),
            unioned(UNION_AB, "op", REPLACED),
            vec!["UNION_VARIANT_ADDED tools.yaml:69:13"],
        ),
        (
            "a parameter's union loses a variant",
            unioned(UNION_AB, "op", REPLACED),
            unioned(UNION_A, "op", REPLACED),
            vec!["UNION_VARIANT_NO_DELETE tools.yaml:62:7"],
        ),
        (
            "an output's union gains a variant",
            unioned(UNION_A, "op", REPLACED),
            unioned(UNION_A, "op", &format!("{REPLACED}{INSERTED}")),
            vec!["OUTPUT_UNION_VARIANT_NO_ADD tools.yaml:77:15"],
        ),
        (
            "an output's union loses a variant",
            unioned(UNION_A, "op", &format!("{REPLACED}{INSERTED}")),
            unioned(UNION_A, "op", REPLACED),
            vec!["OUTPUT_UNION_VARIANT_REMOVED tools.yaml:71:9"],
        ),
        (
            "a union's tag changes",
            unioned(UNION_A, "op", REPLACED),
            unioned(UNION_A, "did", REPLACED),
            vec!["UNION_TAG_NO_CHANGE tools.yaml:71:9"],
        ),
        (
            "a variant's field is judged as an object's",
            unioned(UNION_A, "op", REPLACED),
            unioned(
                &UNION_A.replace("description: X.}", "description: X., maximum: 5}"),
                "op",
                REPLACED,
            ),
            vec!["CONSTRAINT_NO_TIGHTEN tools.yaml:68:89"],
        ),
        ("no change", b(), b(), vec![]),
    ]
}

/// A union parameter's variants: `a` alone, on line 68.
const UNION_A: &str =
    "            a: {type: object, properties: {x: {type: integer, description: X.}}}\n";
/// `a`, then `b` on line 69.
const UNION_AB: &str =
    "            a: {type: object, properties: {x: {type: integer, description: X.}}}
            b: {type: object, properties: {y: {type: string, description: Y.}}}
";
/// An output union's variant, one line.
const REPLACED: &str =
    "              replaced: {type: object, properties: {n: {type: integer, description: N.}}}\n";
/// Another.
const INSERTED: &str =
    "              inserted: {type: object, properties: {at: {type: integer, description: At.}}}\n";

/// [`BASE`] with `ping` taking the union `edit` (named on line 62, tag `kind`) of
/// `variants` and answering with the union `change` (named on line 71 after one variant, tag `tag`) of
/// `output`.
fn unioned(variants: &str, tag: &str, output: &str) -> String {
    edit(
        "    output: text\n",
        &format!(
            "    parameters:
      edit:
        description: The edit.
        example: {{kind: a, x: 1}}
        one_of:
          tag: kind
          variants:
{variants}    output:
      properties:
        change:
          description: The change.
          one_of:
            tag: {tag}
            variants:
{output}"
        ),
    )
}

/// [`BASE`] with `ping` as a complete operation, its contract published at `path`, written on
/// line 64.
fn composed(path: &str) -> String {
    format!(
        "{}composition:\n  meta_key: {path}\n",
        edit("    output: text\n", COMPLETE)
    )
}

/// A resource appended to [`BASE`]: its name is on line 63.
const ABOUT: &str = "resources:
  - name: about
    uri: x://about
    title: About
    description: What this is.
    mime_type: text/plain
";

/// A prompt with one required argument completed from a list; `- name:` on line 63.
const REVIEW: &str = "prompts:
  - name: review
    title: Review
    description: Reviews a file.
    arguments:
      path:
        description: The file.
        required: true
        completion: [a, b]
";

/// An `auth:` block declaring the scopes `a` (line 64 after [`BASE`]) and `b` (line 65).
const AUTH: &str = "auth:\n  scopes:\n    a: {description: A.}\n    b: {description: B.}\n";

/// [`BASE`] with `from` edited to `to`, followed by `extra` and [`AUTH`].
fn scoped(to: &str, extra: &str) -> String {
    format!("{}{extra}{AUTH}", edit("    output: text\n", to))
}

/// `ping` as a complete operation wrapping `read_file`.
const COMPLETE: &str = "    output: text\n    complete_operation: [read_file]\n";

/// [`BASE`] with groups `a` and `b`, `read_file` in both and `ping` in `ping_groups`; `ping` is
/// named on line 58.
fn grouped(ping_groups: &str) -> String {
    let text = edit(
        "    output: text\n",
        &format!("    output: text\n    groups: {ping_groups}\n"),
    )
    .replacen(
        "    errors: [not_found, too_big]\n",
        "    errors: [not_found, too_big]\n    groups: [a, b]\n",
        1,
    );
    format!("{text}groups:\n  a:\n    description: A.\n  b:\n    description: B.\n")
}

#[test]
fn each_rule_fires_alone_where_expected() {
    let mut failures = Vec::new();
    for (name, old, new, expected) in cases() {
        let got = found(&old, &new);
        if got != expected {
            failures.push(format!("{name}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_manifest_using_every_feature_has_no_change_against_itself() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/every-feature/tools.yaml"
    ))
    .expect("the fixture exists");
    assert_eq!(found(&text, &text), Vec::<String>::new());
}

#[test]
fn every_rule_has_a_case() {
    let cases = cases();
    for rule in RULES {
        assert!(
            cases
                .iter()
                .any(|(_, _, _, e)| e.iter().any(|c| c.split(' ').next() == Some(rule.id))),
            "no case for {}",
            rule.id
        );
    }
}

/// A pair with several changes of both kinds, for the format snapshots.
fn several() -> (String, String) {
    let ping_at = BASE.find("  - name: ping").expect("ping is in BASE");
    let new = BASE[..ping_at]
        .replacen("maxLength: 100", "maxLength: 50", 1)
        .replacen("[text, bytes]", "[text, bytes, lines]", 1)
        .replacen("title: Read a file", "title: Read a text file", 1)
        + PONG;
    (BASE.to_owned(), new)
}

#[test]
fn a_bound_a_rust_type_implies_is_shown_exactly() {
    let old = edit("            maximum: 1000\n", "");
    let new = edit(
        "            minimum: 1\n            maximum: 1000\n",
        "            minimum: -1\n",
    );
    let (_, old) = contract(&old);
    let (_, new) = contract(&new);
    let messages: Vec<String> = diff::diff(&old, &new)
        .into_iter()
        .map(|c| c.message)
        .collect();
    assert_eq!(
        messages,
        [
            "tool `read_file`: `lines` changed minimum from 1 to -1",
            "tool `read_file`: `lines` changed maximum from 18446744073709551615 to 9223372036854775807",
        ]
    );
}

#[test]
fn formats() {
    let (old, new) = several();
    // Allowing a compatible rule is a no-op; allowing a breaking one marks its findings.
    let report = report(&old, &new, &[rule("TITLE_CHANGED"), rule("TOOL_NO_DELETE")]);
    insta::assert_snapshot!("text", report.render(Format::Text));
    insta::assert_snapshot!("json", report.render(Format::Json));
    insta::assert_snapshot!("github", report.render(Format::Github));
    insta::assert_snapshot!("markdown", report.render(Format::Markdown));
}

#[test]
fn the_documented_rule_table_is_the_code_s() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/reviewing-contract-changes.md"
    ))
    .expect("the review guide exists");
    assert!(
        doc.contains(&diff::rules_table()),
        "docs/reviewing-contract-changes.md must carry this table verbatim:\n{}",
        diff::rules_table()
    );
}
