//! The diagnostic registry: every code the loader can report, with what it means, an example
//! fix, and the help it gives when that help never varies, in the order of the manifest
//! reference's table (`docs/manifest.md`, § Diagnostics), which [`table`] renders.
//!
//! Codes are user-facing identifiers (people search for them, CI logs quote them), so each is
//! written once, here; call sites name the constant.

use std::fmt;

use super::Severity;

/// A diagnostic's code: a stable identifier such as `unknown-key`, its severity and its entry
/// in the manifest reference.
#[derive(PartialEq, Eq)]
pub struct Code {
    id: &'static str,
    severity: Severity,
    summary: &'static str,
    fix: &'static str,
    help: Option<&'static str>,
}

impl Code {
    /// The identifier, as `error[CODE]` prints it.
    pub fn as_str(&self) -> &'static str {
        self.id
    }

    /// Whether the manifest is refused or only warned about.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// What the code means, as the manifest reference says it.
    pub fn summary(&self) -> &'static str {
        self.summary
    }

    /// An example fix, as the manifest reference gives it.
    pub fn example_fix(&self) -> &'static str {
        self.fix
    }

    /// The `help:` line every diagnostic of this code gives, when it never varies.
    pub(crate) fn fixed_help(&self) -> Option<&'static str> {
        self.help
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

// A code prints as its identifier, so a failing `assert_eq!(d.code, "…")` reads like the output.
impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.id)
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.id == other
    }
}

macro_rules! codes {
    ($($name:ident = $id:literal, $severity:ident, $summary:literal, $fix:literal $(, help $help:literal)?;)*) => {
        $(#[doc = $summary] pub(crate) const $name: Code = Code {
            id: $id,
            severity: Severity::$severity,
            summary: $summary,
            fix: $fix,
            help: codes!(@help $($help)?),
        };)*
        /// Every code, in the order of the manifest reference's table.
        #[cfg(test)]
        pub(crate) const CODES: &[Code] = &[$($name),*];
    };
    (@help $help:literal) => { Some($help) };
    (@help) => { None };
}

/// The manifest reference's table of codes, as `docs/manifest.md` carries it.
#[cfg(test)]
pub(crate) fn table() -> String {
    use std::fmt::Write as _;
    let mut out = String::from("| code | what it means | example fix |\n| --- | --- | --- |\n");
    for c in CODES {
        let warning = match c.severity {
            Severity::Error => "",
            Severity::Warning => " (warning)",
        };
        let _ = writeln!(out, "| `{}`{warning} | {} | {} |", c.id, c.summary, c.fix);
    }
    out
}

codes! {
    NOT_UTF_8 = "not-utf-8", Error,
        "The file is not UTF-8 text; the first byte that is not is shown, and no other check runs.",
        "Save the manifest as UTF-8.",
        help "save the manifest as UTF-8";
    YAML_SYNTAX = "yaml-syntax", Error,
        "The file is not valid YAML, or nests collections more than 128 deep. Only the first syntax error is reported, where its cause is (an unclosed `[`, a key line without `:`), and no other check runs.",
        "Fix the indentation or quoting at the position shown.";
    DUPLICATE_KEY = "duplicate-key", Error,
        "A key is written twice in one mapping; both places are shown.",
        "Delete one of the two entries.",
        help "keep one of the two entries";
    WRONG_TYPE = "wrong-type", Error,
        r#"A value has the wrong YAML type: a string where a mapping is expected, `ttl_ms: -1`, `read_only: "yes"`."#,
        "`hints: {read_only: true}`, `ttl_ms: 0`.";
    MISSING_FIELD = "missing-field", Error,
        "A required key is absent: `server`, `tools`, `server.name`, `cache.ttl_ms`/`scope`, a tool's `name`/`title`/`description`/`output`, an error's `message`, `omit_on_read_only`, a schema's `type`, an array's `items`, an object's `properties`, an output's `properties`, a group's `description`, `auth.scopes`, a scope's `description`, a resource's `name`/`title`/`description`/`mime_type`, an artifact's `kind`/`pointer`, `distribution`'s `registry_name`/`description`/`author`.",
        "Add the key, e.g. `items: {type: string}`.";
    UNKNOWN_KEY = "unknown-key", Error,
        "A key the mapping does not take; the closest known key is suggested, or the known keys are listed.",
        "`descripton` → `description`.";
    UNKNOWN_HINT_POLICY = "unknown-hint-policy", Error,
        "`hint_policy` is not `all`, `minimal` or a mapping.",
        "`hint_policy: minimal`.",
        help "write `all`, `minimal`, or `{omit_on_read_only: [idempotent]}`";
    BAD_HINT_POLICY = "bad-hint-policy", Error,
        "`omit_on_read_only` names a hint other than `destructive` or `idempotent`.",
        "`omit_on_read_only: [idempotent]`.",
        help "only `destructive` and `idempotent` have no meaning on a read-only tool";
    BAD_CACHE_SCOPE = "bad-cache-scope", Error,
        "`cache.scope` is not `public` or `private`.",
        "`scope: private`.",
        help "write `public` (the list is the same for every caller) or `private`";
    BAD_REGISTRY_NAME = "bad-registry-name", Error,
        "`distribution.registry_name` is not the MCP registry's `namespace/name` form (letters, digits, `.` and `-`, a `/`, then letters, digits, `.`, `_` and `-`; 3 to 200 characters).",
        "`registry_name: io.github.you/notes`.",
        help "write `namespace/name`: `io.github.YOUR-ACCOUNT/NAME` for a GitHub namespace, or `com.example/NAME` for a domain you own";
    REGISTRY_DESCRIPTION_LENGTH = "registry-description-length", Error,
        "`distribution.description` is longer than the 100 characters the MCP registry accepts.",
        "One short line.",
        help "shorten it to one line of at most 100 characters; the longer story belongs in `instructions` or the README";
    BAD_DISTRIBUTION_URL = "bad-distribution-url", Error,
        "`distribution.repository` or `distribution.remote` is not an absolute `https://` URL.",
        "`repository: https://github.com/you/notes`.",
        help "write an absolute `https://` URL";
    BAD_PACKAGE_NAME = "bad-package-name", Error,
        "`distribution.package` is not a crate name (a letter, then letters, digits, `-` and `_`; at most 64).",
        "`package: notes-server`.",
        help "name the crate clients install with `cargo install`, which is also its binary's name";
    UNRESOLVED_HINT = "unresolved-hint", Error,
        "An effect, or a tool after merging its effect and `hints:`, leaves a hint undecided.",
        "Add the missing hint, or an `effect:`.",
        help "set every hint, either under `hints:` or through an `effect:` from the `effects:` table";
    CONTRADICTORY_HINTS = "contradictory-hints", Error,
        "An effect or tool is both `read_only: true` and `destructive: true`.",
        "`destructive: false`, or `read_only: false`.",
        help "a read-only tool does not modify anything: set `destructive: false`, or `read_only: false`";
    EMPTY_TEXT = "empty-text", Error,
        "The server name, a pinned sentence, an error message, a tool title, a group's, a scope's or an artifact kind's description, a resource's or a prompt's title or description, a prompt argument's description, or the distribution's description or author is blank.",
        "Write the text.";
    EMPTY_DESCRIPTION = "empty-description", Error,
        "A tool's description is blank.",
        "Describe what the tool does and when to use it.",
        help "describe for a model what the tool does and when to use it";
    BAD_NAME = "bad-name", Error,
        "A sentence name or error code is not snake_case, a shared type name is not PascalCase, or a property name is not a letter followed by letters, digits and `_`.",
        "`NotFound` → `not_found`; `lineRange` → `LineRange`; `1x` → `x1`.";
    BAD_TOOL_NAME = "bad-tool-name", Error,
        "A tool name does not match `^[a-z][a-z0-9_]{0,63}$`.",
        "`Read-File` → `read_file`.",
        help "tool names are snake_case: a lowercase letter, then up to 63 lowercase letters, digits or `_`";
    DUPLICATE_TOOL_NAME = "duplicate-tool-name", Error,
        "Two tools have the same name, or `complete_operation` lists a tool twice.",
        "Rename one; list each tool once.";
    DUPLICATE_TITLE = "duplicate-title", Error,
        "Two tools have the same title.",
        "Give each its own title.",
        help "give each tool a title of its own, so people can tell them apart";
    IDENT_COLLISION = "ident-collision", Error,
        "Two manifest names give the same Rust name: tool methods, generated types, struct fields (`maxDepth` and `max_depth`), enum variants (`a-b` and `a_b`), error variants or sentence constants, an error's `{argument}` placeholder and the field `argument: true` adds, or two parameters' variants of the tool's `{Prefix}Argument` (`a_1` and `a1`); resource methods (`a__b` and `a_b`, or a resource `x` and a tool `x_resource`), resource parameters types, prompt methods, prompt argument types and fields, completion methods (`complete_a_b_c` from a prompt `a_b` or `a`), a template's variables (`{fooBar}` and `{foo_bar}`), group constants (`read-only` and `read_only`) or scope constants (`files:read` and `files.read`); a question's type and another generated type (`ping_args` on `ping`), or a question's placeholder and an argument its `ask` already has (`{context}`, or `{url}` in a URL question); or a shared type is named `Tools` or `Dispatcher`, which the generated code uses.",
        "Rename one so the Rust forms differ.";
    RESERVED_ERROR_CODE = "reserved-error-code", Error,
        "An error code is one of `argument_missing`, `argument_invalid`, `argument_unknown`, `internal_error`.",
        "Choose another code.",
        help "argument errors and internal errors are reported by the runtime; choose another code";
    BAD_TEMPLATE = "bad-template", Error,
        "A message or hint template has an unclosed `{`, a lone `}`, or a placeholder that is not snake_case.",
        "`{Path}` → `{path}`; write `{{` for a brace.";
    UNKNOWN_PLACEHOLDER = "unknown-placeholder", Error,
        "An error's `placeholders:` names a field that neither its message nor its hint has.",
        "Write `{size}` in the message, or remove `size` from `placeholders:`.";
    PLACEHOLDER_TYPE = "placeholder-type", Warning,
        "A placeholder has the name of a parameter of a tool that lists the error, but holds another type (a `string`, the default, for an `integer` parameter), so the handler would convert the argument.",
        "`placeholders: {count: integer}`, or rename the placeholder.";
    UNUSED_ERROR = "unused-error", Warning,
        "No tool lists this error code.",
        "List it under a tool's `errors:`, or remove it.",
        help "list it under a tool's `errors:`, or remove it";
    UNKNOWN_SENTENCE = "unknown-sentence", Error,
        "A tool lists a sentence that is not declared.",
        "Declare it under `sentences:`, or fix the name.";
    UNKNOWN_EFFECT = "unknown-effect", Error,
        "A tool names an effect that is not declared.",
        "`raed` → `read`.";
    UNKNOWN_ERROR_CODE = "unknown-error-code", Error,
        "A tool lists an error code that is not declared.",
        "Declare it under `errors:`, or fix the name.";
    DUPLICATE_ERROR_CODE = "duplicate-error-code", Error,
        "A tool lists the same error code twice, or `argument_codes` gives two kinds of argument error the same code.",
        "List it once.",
        help "list each code once";
    ARGUMENT_WITHOUT_PARAMETERS = "argument-without-parameters", Error,
        "A tool without parameters lists an error that names its argument (`argument: true`).",
        "Drop the code from the tool's `errors:`, or use one that names no argument.",
        help "an error with `argument: true` names one of the tool's arguments, and this tool takes none; list a code without `argument: true`";
    UNKNOWN_TYPE = "unknown-type", Error,
        "`type:` is neither a built-in type nor a shared type, or a placeholder's type is not `string`, `integer`, `number` or `boolean`.",
        "`Strng` → `string`.";
    RECURSIVE_TYPE = "recursive-type", Error,
        "A shared type contains itself.",
        "Break the cycle.",
        help "schemas are published inline, so a type cannot refer back to itself";
    UNKNOWN_OUTPUT = "unknown-output", Error,
        "`output:` is a string other than `text`.",
        "`output: text`, or `output: {properties: …}`.",
        help "write `output: text`, or a mapping with `properties:`";
    BAD_OUTPUT = "bad-output", Error,
        "A structured output has a `type` other than `object`.",
        "Remove `type:`, or write `type: object`.",
        help "remove `type:` or write `type: object`; both MCP revisions accept an object root";
    UNKNOWN_CONTENT_KIND = "unknown-content-kind", Error,
        "A content block's `kind` is not `text`, `image`, `audio`, `resource` or `resource_link`.",
        "`kind: picture` → `kind: image`.";
    DUPLICATE_CONTENT_KIND = "duplicate-content-kind", Error,
        "`output.content` lists a kind twice.",
        "List its MIME types in one entry.",
        help "list each kind once, with all its MIME types under one `mime_types:`";
    EMPTY_CONTENT = "empty-content", Error,
        "`output.content` lists no block.",
        "List the kinds the tool answers with, or remove `content:`.",
        help "list the kinds of content the tool answers with, or remove `content:`";
    CONTENT_MIME_TYPES = "content-mime-types", Error,
        "An `image`, `audio` or `resource` block without `mime_types`, or with none listed; or `mime_types` on `text` or `resource_link`.",
        "`kind: image` → `kind: image`, `mime_types: [image/png]`.";
    MIME_TYPE_MISMATCH = "mime-type-mismatch", Error,
        "An `image` block's MIME type is not `image/…`, or an `audio` block's not `audio/…`.",
        "`kind: image`, `mime_types: [audio/wav]` → `kind: audio`.";
    MISSING_DESCRIPTION = "missing-description", Error,
        "A property has no description, or a blank one.",
        "Add `description:`.",
        help "add `description:` saying what the value means, for the model that fills it in";
    MISSING_EXAMPLE = "missing-example", Error,
        "A top-level parameter has no example.",
        "Add `example:` with a realistic value.",
        help "add `example:` with a realistic value; models copy examples";
    EXAMPLE_AND_EXAMPLES = "example-and-examples", Error,
        "A schema has both `example` and `examples`.",
        "Keep `examples: [a, b]`.",
        help "move the single example into the `examples` list";
    INVALID_EXAMPLE = "invalid-example", Error,
        "An example or default does not match its own schema, or an example holds an integer its generated Rust type cannot (a default that does is `default-out-of-range`).",
        "`default: 0` under `minimum: 1` → `default: 1`.";
    REQUIRED_WITH_DEFAULT = "required-with-default", Error,
        "A property has `required: true` and a default.",
        "Drop one of the two.",
        help "a default applies only when the argument is left out: drop `required: true` or the default";
    NULL_DEFAULT = "null-default", Error,
        "A default is `null`.",
        "Remove `default:`; the argument arrives as `None`.",
        help "remove `default: null`; an optional parameter without a default is simply left out";
    DEFAULT_OUT_OF_RANGE = "default-out-of-range", Error,
        "A default holds an integer its generated Rust type cannot: beyond `i64`, or beyond `u64` under `minimum: 0`.",
        "`default: 10000000000000000000` → add `minimum: 0`, or a smaller default.";
    DEFAULT_ON_OUTPUT = "default-on-output", Error,
        "An output field has a default.",
        "Remove `default:`.",
        help "remove `default:`; the handler sets every output value";
    KEYWORD_TYPE_MISMATCH = "keyword-type-mismatch", Error,
        "A constraint or `properties` is written on a type it does not apply to, or on a shared type's name; or `minimum`/`maximum` on a placeholder that is not an `integer`.",
        "`minimum` on a string → `minLength`.";
    BAD_JSON_SCHEMA = "bad-json-schema", Error,
        "A `json_schema:` or `input_schema:` document is not a JSON Schema 2020-12 schema the run-time checks enforce: a keyword's value of the wrong shape, a `$schema` other than 2020-12's, a `$ref` that does not resolve within the document or loops, a keyword outside the checked subset (`prefixItems`, `patternProperties`, `$dynamicRef`, …), or its file cannot be read as JSON.",
        "`minLength: -1` → `minLength: 0`; `$ref: other.json` → `$ref: '#/$defs/other'` with the schema under `$defs`.";
    JSON_SCHEMA_PLACEMENT = "json-schema-placement", Error,
        "A JSON Schema document breaks what its place needs: `json_schema:` beside other schema keys or a `default`, `input_schema:` beside `parameters:`, a tool's whole input or output whose root is not `type: object` (an input's without `additionalProperties: false`), or `$ref`, `$defs`, `$anchor`, `$schema` or `$id` in the document of one parameter or field, where they would resolve against the tool's whole schema.",
        "Move `description:` into the document; give a document that refers to its `$defs` as the tool's whole `input_schema:`.";
    UNTAGGED_UNION = "untagged-union", Error,
        "A `one_of` without a `tag:`, or written as a list of schemas: clients and models cannot tell untagged shapes apart, and Rust cannot read them unambiguously.",
        "`one_of: {tag: kind, variants: {replace: {type: object, properties: {…}}, insert: {type: InsertLines}}}`.",
        help "name the property that tells the variants apart and key each variant by its value: `one_of: {tag: kind, variants: {replace: {type: object, description: …, properties: {…}}, insert: {type: InsertLines}}}`";
    BAD_UNION_TAG = "bad-union-tag", Error,
        "A union's tag is not a property name (`tag: {const: x}`, `tag: 1`), a variant's tag value is not a string (`1:`, `true:`), or a variant has a property named as the tag, whose value the variant's key already gives.",
        "`tag: kind`, `variants: {\"1\": {…}}`, and no `kind` among a variant's properties.";
    UNION_VARIANT_TYPE = "union-variant-type", Error,
        "A variant of a `one_of` is not an object: each is `type: object` with `properties`, or a shared object type, so its tag can stand beside its fields.",
        "`path: {type: object, properties: {path: {type: string, …}}}` in place of `path: {type: string}`.";
    EMPTY_UNION = "empty-union", Error,
        "`one_of` with no variants.",
        "List at least one variant under `variants:`.",
        help "key each variant by its tag value under `variants:`";
    EMPTY_RANGE = "empty-range", Error,
        "`minLength` > `maxLength`, `minItems` > `maxItems` or `minimum` > `maximum` (of a schema or a placeholder).",
        "Swap or fix the bounds.";
    BOUND_OUT_OF_RANGE = "bound-out-of-range", Error,
        "An integer's `minimum` or `maximum` lies beyond its generated Rust type, so the published schema would admit values the handler cannot receive: beyond `u64` under `minimum: 0`, beyond `i64` otherwise; the same for an `integer` placeholder's bounds.",
        "`maximum: 100000000000000000000` → `maximum: 18446744073709551615`, or no `maximum` (the type's own is published).";
    BAD_PATTERN = "bad-pattern", Error,
        "A `pattern` does not compile as a regular expression.",
        r#"`pattern: "("` → `pattern: "\\("`."#,
        help "write an ECMA-262 regular expression";
    UNKNOWN_FORMAT = "unknown-format", Error,
        "A `format` is not a JSON Schema 2020-12 format.",
        "`datetime` → `date-time`.";
    EMPTY_ENUM = "empty-enum", Error,
        "`enum: []`.",
        "List at least one value.",
        help "list the allowed values under `enum:`";
    RESERVED_META_KEY = "reserved-meta-key", Error,
        "A `_meta` key, or a key of `artifacts.meta_key` or `composition.meta_key`, uses a prefix reserved for the specification.",
        "`io.modelcontextprotocol/x` → `com.example/x`.",
        help "prefixes whose second label is `modelcontextprotocol` or `mcp` belong to the spec; use your own reverse-DNS prefix such as `com.example/`";
    BAD_META_KEY = "bad-meta-key", Error,
        "A `_meta` key, or a key of `artifacts.meta_key` or `composition.meta_key`, breaks the key grammar, or a `meta_key` is an empty list.",
        "`-name` → `name`.",
        help "write an optional reverse-DNS prefix ending in `/` (`com.example/`), then a name that starts and ends with a letter or digit";
    DUPLICATE_META_KEY = "duplicate-meta-key", Error,
        "The artifact and composition contracts would share a key path (both written alike, or one written as the other's default), or a tool's own `_meta` writes the key its planning metadata is published under.",
        "`composition: {meta_key: com.example/composition}`.";
    NESTED_META_KEY = "nested-meta-key", Error,
        "One planning contract's key path lies inside the other's, so one object would hold both.",
        "`[com.example]` and `[com.example, composition]` → `[com.example, artifacts]` and `[com.example, composition]`.";
    BAD_KIND = "bad-kind", Error,
        "An artifact kind is not dot-separated lowercase words.",
        "`Fixture.Item` → `fixture.item`.",
        help "write dot-separated lowercase words, such as `workspace.file`";
    DUPLICATE_KIND = "duplicate-kind", Error,
        "`artifacts.kinds` declares the standard kind `workspace.directory`.",
        "Remove it; it is always known.",
        help "remove it; standard kinds are always known";
    UNKNOWN_KIND = "unknown-kind", Error,
        "An artifact names a kind that is neither standard nor declared.",
        "`workspace.directry` → `workspace.directory`.";
    UNKNOWN_MODE = "unknown-mode", Error,
        "A produced artifact's `mode` is not `materialize`.",
        "Remove `mode:`.",
        help "the only mode is `materialize` (the default)";
    UNKNOWN_ENCODING = "unknown-encoding", Error,
        "A produced artifact's `encoding` is not `json_array`.",
        "Remove `encoding:`.",
        help "the only encoding is `json_array`, for a string field holding an exact JSON array";
    ARTIFACT_WITHOUT_OUTPUT = "artifact-without-output", Error,
        "A tool with `output: text` produces an artifact.",
        "Declare a structured output, or drop `produces`.",
        help "an artifact is found in the structured output: declare `output:` with `properties:`";
    BAD_POINTER = "bad-pointer", Error,
        "An artifact's pointer does not resolve in the tool's output schema (`produces`) or input schema (`consumes`).",
        "`/ids/x` → `/ids/0`; `dir` → `/dir`.";
    BAD_ENCODING = "bad-encoding", Error,
        "`encoding: json_array` on a field that is not a string.",
        "Point at the string field, or drop the encoding.",
        help "`json_array` describes a string holding an exact JSON array; remove the encoding or point at a string";
    BAD_ARTIFACT_FIELD = "bad-artifact-field", Error,
        "A `workspace.directory` points at a field that is not a string.",
        "Point at the path's string field.",
        help "a `workspace.directory` is a workspace-relative path: point at a string";
    EMPTY_ARTIFACTS = "empty-artifacts", Error,
        "`artifacts: {}`, or both lists empty.",
        "List what the tool produces or consumes, or remove the key.",
        help "list what the tool `produces:` or `consumes:`, or remove `artifacts:`";
    EMPTY_COMPOSITION = "empty-composition", Error,
        "`complete_operation: []`.",
        "List the tools it wraps, or remove the key.",
        help "list the tools it wraps, or remove `complete_operation:`";
    SELF_COMPOSITION = "self-composition", Error,
        "A tool lists itself under `complete_operation`.",
        "Remove it from the list.",
        help "list the other tools it wraps";
    UNKNOWN_TOOL = "unknown-tool", Error,
        "`complete_operation` names a tool the manifest does not declare.",
        "`lst_items` → `list_items`.";
    COMPOSITION_CYCLE = "composition-cycle", Error,
        "A tool encapsulates itself through others; each tool on the cycle is reported once.",
        "Remove one link of the cycle.",
        help "a complete operation wraps lower-level tools; break the cycle";
    BAD_GROUP_NAME = "bad-group-name", Error,
        "A group name is not a lowercase letter, then up to 63 lowercase letters, digits, `_` or `-`.",
        "`Reads` → `reads`.",
        help "a group's name is its HTTP route: a lowercase letter, then up to 63 lowercase letters, digits, `_` or `-`";
    UNKNOWN_GROUP = "unknown-group", Error,
        "A tool lists a group that is not declared.",
        "`raeds` → `reads`.";
    DUPLICATE_GROUP = "duplicate-group", Error,
        "A tool lists the same group twice.",
        "List it once.",
        help "list each group once";
    MISSING_GROUP = "missing-group", Error,
        "Groups are declared, but a tool lists none.",
        "`groups: [reads]`.",
        help "add `groups: [...]`; over HTTP each group is served at its own route, and a tool in none would be unreachable";
    EMPTY_GROUP = "empty-group", Error,
        "No tool lists a declared group (reported once every tool's `groups:` is otherwise right).",
        "List it on a tool, or remove it.",
        help "list the group under a tool's `groups:`, or remove it";
    BAD_AUTH_URL = "bad-auth-url", Error,
        "`auth.resource` or an entry of `auth.authorization_servers` is not an absolute `https://` URL (`http://` only on a loopback host: `localhost`, `127.0.0.1`, `[::1]`), or has a fragment.",
        "`resource: mcp.example.com` → `resource: https://mcp.example.com/mcp`.";
    EMPTY_SCOPES = "empty-scopes", Error,
        "`auth.scopes` declares no scope.",
        "Declare the scopes the entries require, or remove `auth:`.",
        help "declare each scope under `auth.scopes:` with what it grants, such as `files:read: {description: Read the files.}`";
    BAD_SCOPE_NAME = "bad-scope-name", Error,
        "A scope name is not an RFC 6749 scope token: one or more printable ASCII characters other than space, `\"` and `\\`.",
        "`files read` → `files:read`.",
        help "a scope is one or more printable ASCII characters other than space, `\"` and `\\`, such as `files:read`";
    SCOPES_WITHOUT_AUTH = "scopes-without-auth", Error,
        "A group, tool, resource or prompt lists `scopes:`, but no `auth:` block declares scopes.",
        "Declare them under `auth: {scopes: …}`, or remove the list.",
        help "declare the scopes under a top-level `auth:` block (`auth: {scopes: {NAME: {description: …}}}`), or remove `scopes:`";
    UNKNOWN_SCOPE = "unknown-scope", Error,
        "An entry lists a scope that `auth.scopes` does not declare.",
        "`files:raed` → `files:read`.";
    DUPLICATE_SCOPE = "duplicate-scope", Error,
        "An entry lists the same scope twice.",
        "List it once.",
        help "list each scope once";
    UNUSED_SCOPE = "unused-scope", Warning,
        "No group, tool, resource or prompt lists this declared scope.",
        "List it under an entry's `scopes:`, or remove it.",
        help "list it under a group's, tool's, resource's or prompt's `scopes:`, or remove it";
    BAD_RESOURCE_NAME = "bad-resource-name", Error,
        "A resource name does not match `^[a-z][a-z0-9_]{0,63}$`.",
        "`Read-Me` → `read_me`.",
        help "resource names are snake_case: a lowercase letter, then lowercase letters, digits or `_`";
    DUPLICATE_RESOURCE = "duplicate-resource", Error,
        "Two resources have the same name, or the same URI or template.",
        "Rename one, or merge them.";
    RESOURCE_URI = "resource-uri", Error,
        "A resource has both `uri` and `uri_template`, or neither.",
        "Keep the one it needs.";
    BAD_URI = "bad-uri", Error,
        "A fixed URI has no scheme, holds whitespace, a brace, a non-ASCII character or another character a URI cannot hold, has a `%` that starts no escape, or is otherwise not an RFC 3986 URI.",
        "`/README.md` → `workspace:///README.md`; `café` → `caf%C3%A9`.",
        help "write an absolute URI with a scheme, such as `workspace:///README.md`; use `uri_template:` for one with `{variables}`";
    BAD_URI_TEMPLATE = "bad-uri-template", Error,
        "A template is not level 1 with one path segment per variable: an operator, a modifier or a list, touching variables, no variable, a bad variable name, an unclosed brace, no scheme; or its literal text is not URI text, or it does not expand to an RFC 3986 URI.",
        "`x:///{+path}` → `x:///{path}`.",
        help "write a URI with a scheme and `{name}` variables, each one path segment, such as `workspace:///files/{path}`";
    BAD_MIME_TYPE = "bad-mime-type", Error,
        "A resource's or content block's MIME type is not `type/subtype`.",
        "`text` → `text/plain`.",
        help "write `type/subtype`, such as `text/plain` or `application/json`";
    BAD_APP_RESOURCE = "bad-app-resource", Error,
        "A resource with `app:` is not one fixed `ui://` URI without a query or fragment, or it has `asks:` or `subscribe: true`; or a `ui://` resource has no `app:`.",
        "`uri: https://example.com/ui` → `uri: ui://weather/dashboard`; remove `subscribe:`.";
    APP_MIME_TYPE = "app-mime-type", Error,
        "An app's resource has a MIME type other than exactly `text/html;profile=mcp-app`; a host routes a resource into its app bridge by it, and a plain `text/html` one hangs some hosts.",
        "`mime_type: text/html` → `mime_type: text/html;profile=mcp-app`.";
    APP_HTML = "app-html", Error,
        "An app has both `file` and `html`, or neither; its file is outside the manifest's folder, missing or not UTF-8; or its HTML does not begin with `<!DOCTYPE html>` (after comments and whitespace), as an HTML5 document does.",
        "`html: <div>…</div>` → `file: apps/dashboard.html`, a document that starts with `<!DOCTYPE html>`.";
    BAD_CSP_ORIGIN = "bad-csp-origin", Error,
        "An entry of an app's `csp:` is not an origin: a scheme (`https`, `http`, `wss`, `ws`), `://`, a host whose first label may be `*`, an optional port, and nothing after.",
        "`api.example.com/v1` → `https://api.example.com`.";
    BAD_APP_PERMISSION = "bad-app-permission", Error,
        "An app asks for a permission the extension does not define (`camera`, `microphone`, `geolocation`, `clipboard_write`).",
        "`clipboard` → `clipboard_write`.";
    UNKNOWN_APP = "unknown-app", Error,
        "A tool's `app.resource` is not the `uri` of a resource with `app:`; a host would show nothing.",
        "`resource: ui://weather/dashbord` → `resource: ui://weather/dashboard`.";
    APP_SETTINGS_ON_TOOL = "app-settings-on-tool", Error,
        "A tool's `app:` has `csp`, `permissions`, `domain`, `prefers_border` or `file`, which belong to the app's resource (hosts read them there only); or a tool with `app:` also writes `_meta.ui` or `_meta[\"ui/resourceUri\"]`, or any tool writes `_meta.ui.csp` or `_meta.ui.permissions`.",
        "Move `csp:` to the `app:` of the `ui://` resource; replace `_meta: {ui: …}` with `app: {resource: ui://…}`.";
    BAD_APP_VISIBILITY = "bad-app-visibility", Error,
        "A tool's `app.visibility` holds something other than `model` and `app`, or is empty.",
        "`visibility: [user]` → `visibility: [model, app]`.";
    ICON_SOURCE = "icon-source", Error,
        "An icon has both `src` and `file`, or neither.",
        "Keep `src: https://…` for a hosted image, or `file: icons/tool.png` for one in the crate.",
        help "write `src:` with an `https:` URL, or `file:` with an image file relative to the manifest";
    BAD_ICON_URL = "bad-icon-url", Error,
        "An icon's `src` is not an `https:` URL: another scheme (`http:`, `data:`, `javascript:`, `file:`), no scheme, or not an RFC 3986 URI. Clients must reject every scheme but `https:` and `data:`, and the build writes the `data:` URIs itself.",
        "`http://example.com/a.png` → `https://example.com/a.png`; an image in the crate → `file: icons/a.png`.";
    BAD_ICON_FILE = "bad-icon-file", Error,
        "An icon's `file` is absolute, leaves the manifest's folder (`..`), or names nothing that can be read as a file.",
        "`file: /home/me/icon.png` → `file: icons/icon.png`, with the image in the crate.";
    ICON_TOO_LARGE = "icon-too-large", Error,
        "An icon file is over 32 KiB (32,768 bytes). It is sent base64-encoded in every result that lists it (`tools/list`, `initialize`, `server/discover`), once per entity that uses it.",
        "Shrink or simplify the image, or host it and write `src: https://…`.";
    UNSUPPORTED_ICON_TYPE = "unsupported-icon-type", Error,
        "An icon's type is not one the spec asks clients to render (`image/png`, `image/jpeg`, `image/svg+xml`, `image/webp`): a `mime_type` outside them, or a file whose bytes are another format (GIF, ICO) or no image the build knows.",
        "Convert `icon.gif` to PNG; `mime_type: image/bmp` → an image in one of the four types.";
    ACTIVE_SVG_ICON = "active-svg-icon", Error,
        "An SVG icon file holds what could run when it is drawn: a `<script>`, a `javascript:` link, a `<foreignObject>` or an event handler attribute (`onload=`). The spec warns clients that SVG icons may carry code.",
        "Delete the `<script>` element or the `onload` attribute; an icon is a picture.";
    ICON_TYPE_MISMATCH = "icon-type-mismatch", Error,
        "An icon's `mime_type` names one type and its file's bytes are another; the type is read from the bytes (their magic number), never from the name.",
        "On an SVG file, `mime_type: image/png` → `mime_type: image/svg+xml`, or leave it out.";
    BAD_ICON_SIZE = "bad-icon-size", Error,
        "An entry of an icon's `sizes` is neither `WxH` (whole numbers from 1, without leading zeros, a lowercase `x`) nor `any`.",
        "`48` → `48x48`; `48X48` → `48x48`.",
        help "write each size as `WxH`, such as `48x48`, or `any` for a scalable image";
    BAD_ICON_THEME = "bad-icon-theme", Error,
        "An icon's `theme` is neither `light` nor `dark`.",
        "`theme: night` → `theme: dark`.",
        help "write `theme: light` for an icon drawn for a light background, `theme: dark` for a dark one, or leave it out";
    RECORD_PLACEMENT = "record-placement", Error,
        "`record:` on an output field, a nested field or a field of a shared type.",
        "Move it to the tool's parameter, or remove it.";
    HEADER_PLACEMENT = "header-placement", Error,
        "`header:` on an output field or on a field of a shared type.",
        "Move it to the tool's parameter.";
    BAD_HEADER = "bad-header", Error,
        "A header name is not an RFC 9110 token.",
        "`Bad Header` → `Bad-Header`.",
        help "use letters, digits and `-` (an RFC 9110 token), such as `Region`; it is sent as `Mcp-Param-{name}`";
    HEADER_UNREACHABLE = "header-unreachable", Error,
        "`header:` on a field inside array items, at any depth, or in a variant of a union (`one_of`).",
        "Remove it, or make the value a parameter of its own.",
        help "only parameters reached through object properties can be mirrored; remove `header:`";
    DUPLICATE_HEADER = "duplicate-header", Error,
        "Two headers of one tool are equal, ignoring case.",
        "`Region` and `region`: rename one.",
        help "give each mirrored parameter a header of its own";
    HEADER_INTEGER_RANGE = "header-integer-range", Error,
        "An integer with a header lacks `minimum` or `maximum`, or one lies beyond ±9007199254740991.",
        "`minimum: 0`, `maximum: 1000`.",
        help "give the parameter `minimum:` and `maximum:` within ±9007199254740991";
    HEADER_TYPE = "header-type", Error,
        "A header on a `number`, an array or an object.",
        "`type: integer`, or drop `header:`.";
    BAD_PROMPT_NAME = "bad-prompt-name", Error,
        "A prompt name does not match `^[a-z][a-z0-9_]{0,63}$`, or a prompt argument's name is not a letter followed by letters, digits or `_`.",
        "`Review-File` → `review_file`; `file-path` → `filePath`.",
        help "prompt names are snake_case like tool names; argument names are a letter, then letters, digits or `_`";
    DUPLICATE_PROMPT = "duplicate-prompt", Error,
        "Two prompts have the same name.",
        "Rename one, or merge them.",
        help "give each prompt a name of its own";
    BAD_COMPLETION = "bad-completion", Error,
        "A `completion:` is neither a list of values nor `handler`, lists no value or one value twice, or names a variable its resource's template does not have (or the resource is not a template).",
        "`completion: [draft, final]` or `completion: handler`.",
        help "write `completion: [value, …]` for a fixed list, or `completion: handler` for a generated method";
    BAD_QUESTION_ID = "bad-question-id", Error,
        "A question id under the `asks:` of a tool, prompt or resource does not match `^[a-z][a-z0-9_]{0,63}$`.",
        "`Confirm-Delete` → `confirm_delete`.",
        help "question ids are snake_case like tool names: a lowercase letter, then lowercase letters, digits or `_`";
    DUPLICATE_QUESTION = "duplicate-question", Error,
        "Two tools, prompts or resources declare a question with the same id; each id names one generated type.",
        "Rename one, such as `confirm_delete` and `confirm_move`.",
        help "give each question an id of its own across the manifest";
    BAD_QUESTION_MODE = "bad-question-mode", Error,
        "A question's `mode` is neither `form` nor `url`, or a `mode: url` question lists `fields` (the user answers on the page, not in a form).",
        "`mode: url` without `fields:`.",
        help "write `mode: form` (the default) with `fields:`, or `mode: url` without them";
    BAD_FORM_FIELD = "bad-form-field", Error,
        "A form field is not what elicitation allows: a flat primitive (`string`, `number`, `integer`, `boolean`), a string `enum`, or an `array` of a string `enum` (multi-select); no objects, `json`, shared types or other arrays, no `pattern` or `examples`, a `format` other than `email`, `uri`, `date`, `date-time`, or `titles` on a field without an enum or naming a value it does not have.",
        "`type: object` → two fields; `format: ipv4` → a `string` field.";
    SECRET_FORM_FIELD = "secret-form-field", Warning,
        "A form field's name looks like a secret (`password`, `token`, `secret`, `api_key`, `private_key`, `card_number`, `cvv`, …): the spec forbids asking for sensitive data in a form, whose answer passes through the client.",
        "Ask it with a `mode: url` question, whose page collects it.",
        help "sensitive data goes by URL: declare a `mode: url` question and collect it on your own page";
    BAD_TASK_SUPPORT = "bad-task-support", Error,
        "A tool's `task` is neither `optional` (a task where the client opted in to tasks, a normal call elsewhere) nor `required` (only as a task).",
        "`task: true` → `task: optional`; `task: always` → `task: required`.";
    BAD_DATE = "bad-date", Error,
        "A `deprecated.remove_after` is not a calendar day written `YYYY-MM-DD`.",
        "`remove_after: 30/06/2027` → `remove_after: 2027-06-30`.",
        help "write the day as `YYYY-MM-DD`, such as `2027-06-30`";
    BAD_VERSION = "bad-version", Error,
        "A `since:` (an entry's, or its deprecation's) is not a semantic version: three numbers, then an optional pre-release, as `Cargo.toml` states versions.",
        "`since: 1.2` → `since: 1.2.0`; `since: next` → the version that will ship it.";
    BAD_REPLACEMENT = "bad-replacement", Error,
        "A `deprecated.replaced_by` names no entry of the same kind (a tool's names a tool, a prompt's a prompt, a resource's a resource), names the entry itself, or names one that is deprecated too.",
        "`replaced_by: find_file` → `replaced_by: find_files`; point at the entry that replaces both.";
    ALIAS_COLLISION = "alias-collision", Error,
        "An alias is the name of an entry of the same kind, another alias, or (a tool's) becomes the same constant in `names::` as another name; a resource's alias is a URI another resource answers.",
        "Drop the alias, or rename one of the two.";
    BAD_ALIAS = "bad-alias", Error,
        "An alias breaks the grammar of the entry's names (a tool's, a prompt's), or a resource's alias is not an absolute URI or belongs to a template.",
        "`aliases: [Read File]` → `aliases: [read_file]`.";
    PAST_REMOVAL = "past-removal", Warning,
        "Today is after a deprecated entry's `remove_after`: it may be removed now. An error when the build checks (`CI`, `MCP_CONTRACT_CHECK=1`, `Builder::deny_past_removal`).",
        "Remove the entry (`mcp-contract diff` reports it as compatible), or move `remove_after` later.",
        help "its removal window is over: remove it, or move `remove_after` later if clients still need it";
    BAD_SHARED_TYPES = "bad-shared-types", Error,
        "`server.shared_types` is neither `inline` (each shared type copied where it is used, the default) nor `defs` (object and enum types published once under `$defs`, referred to with `$ref`).",
        "`shared_types: refs` → `shared_types: defs`.",
        help "write `shared_types: inline` (the default) or `shared_types: defs`";
    UNKNOWN_PROFILE = "unknown-profile", Error,
        "A name under `server.profiles` is not a portability profile: `claude`, `copilot`, `gemini`, `openai`, `portable` or `strict`.",
        "`profiles: [vscode]` → `profiles: [copilot]`.";
    PORTABLE_DEFS = "portable-defs", Warning,
        "A published schema refers to `$defs` with `$ref`: `shared_types: defs`, or a whole `input_schema:` or output document that does. A portability lint (profiles `gemini`, `portable`); an error under `strict`.",
        "`shared_types: inline`, or the referenced schemas written in place.";
    PORTABLE_UNION_IN_ITEMS = "portable-union-in-items", Warning,
        "An `anyOf` or `oneOf` stands inside an array's items. A portability lint (profiles `gemini`, `portable`); an error under `strict`.",
        "Give the items one object shape, or move the choice out of the array.";
    PORTABLE_ROOT_COMPOSITION = "portable-root-composition", Warning,
        "A tool's `inputSchema` has `oneOf`, `allOf` or `anyOf` at its root (an `input_schema:` document). A portability lint (profiles `claude`, `portable`); an error under `strict`.",
        "State the alternatives on properties, or with `if`/`then`/`else` at the root.";
    PORTABLE_TOOL_COUNT = "portable-tool-count", Warning,
        "The server publishes more than 128 tools. A portability lint (profiles `copilot`, `portable`); an error under `strict`.",
        "Tool `groups:` of at most 128 tools, each served at its own route.";
    PORTABLE_NAME_LENGTH = "portable-name-length", Warning,
        "A tool name is longer than 63 characters. A portability lint (profiles `gemini`, `portable`); an error under `strict`.",
        "A name of at most 63 characters.";
    PORTABLE_PREFIXED_NAME = "portable-prefixed-name", Warning,
        "`mcp__SERVER__TOOL`, of the server's name and a tool's, is longer than 64 characters. A portability lint (profiles `claude`, `portable`); an error under `strict`.",
        "A shorter server name or tool name.";
    PORTABLE_DESCRIPTION_LENGTH = "portable-description-length", Warning,
        "A tool's published description (pinned sentences and deprecation included) is longer than 2,048 characters. A portability lint (profiles `claude`, `portable`); an error under `strict`.",
        "Move details into the parameters' descriptions.";
    PORTABLE_ENUM_SIZE = "portable-enum-size", Warning,
        "One of a tool's schemas has more than 500 enum values in all. A portability lint (profiles `openai`, `portable`); an error under `strict`.",
        "A `string` parameter the handler checks in place of the longest list.";
    PORTABLE_OMITTED_HINT = "portable-omitted-hint", Warning,
        "A tool publishes no `destructiveHint`: `hint_policy` leaves it out of read-only tools. A portability lint (profiles `openai`, `portable`); an error under `strict`.",
        "`hint_policy: all` (the default), or `{omit_on_read_only: [idempotent]}`.";
}
