//! The rules of what `verify` finds beyond the diff engine's: how a live server strays from
//! its manifest where two manifests cannot differ (its calls, and what it publishes that no
//! manifest can). Each has a stable ID, like the diff engine's rules.

/// A kind of finding of `verify`.
#[derive(Debug)]
pub(crate) struct VerifyRule {
    /// The stable ID.
    pub(crate) id: &'static str,
    /// Whether a caller written against the manifest can fail because of it.
    pub(crate) breaking: bool,
    /// Why it matters, for the documentation.
    pub(crate) why: &'static str,
}

macro_rules! rules {
    ($($name:ident = $breaking:literal, $why:expr;)*) => {
        $(pub(crate) static $name: VerifyRule = VerifyRule {
            id: stringify!($name),
            breaking: $breaking,
            why: $why,
        };)*
        /// Every rule, in the documentation's order.
        #[cfg(test)]
        pub(crate) static RULES: &[&VerifyRule] = &[$(&$name),*];
    };
}

/// Why [`INSTRUCTIONS_CHANGED`] matters, under either policy.
const INSTRUCTIONS_WHY: &str = "The instructions sent at `initialize` differ from the manifest's: the model reads another text than the reviewed one (`--descriptions` counts them as it counts descriptions: `breaking` marks them breaking, `ignore` leaves them out).";

/// [`INSTRUCTIONS_CHANGED`] under `--descriptions breaking`: the instructions are the
/// server's own description.
pub(crate) static INSTRUCTIONS_BREAKING: VerifyRule = VerifyRule {
    id: "INSTRUCTIONS_CHANGED",
    breaking: true,
    why: INSTRUCTIONS_WHY,
};

rules! {
    SCHEMA_OPEN = true, "The input schema does not refuse unknown properties (`additionalProperties: false`): a client's misspelt argument may be ignored, and the call answered as if it had not been passed.";
    KEYWORD_FORBIDDEN = false, "The server publishes a keyword a manifest forbids (a `default` keyword, `$ref`, a union): clients read it differently, and the import cannot carry it.";
    META_CHANGED = true, "A tool's, resource's, template's or prompt's `_meta` (a tool's own entries and planning contracts, any entry's lifecycle) differs from the manifest's: planners and clients read them where they were published.";
    LIST_FAILED = true, "A list the server advertises (tools, resources, templates or prompts) answered an error, or nothing: clients see none of what it lists, and nothing more of that revision can be compared.";
    SERVER_INFO_CHANGED = false, "The server names itself, its title or its version otherwise than the manifest states: people and registries see another server than the reviewed one, and a stale deployment shows here first.";
    INSTRUCTIONS_CHANGED = false, INSTRUCTIONS_WHY;
    CAPABILITY_MISSING = true, "The server does not advertise a capability the manifest implies (resources, their subscriptions, prompts, completions, logging, `listChanged`, the apps or tasks extension): clients that read the capabilities never use what the contract offers.";
    CACHE_HINT_CHANGED = false, "On 2026-07-28 the tools list carries another cache hint (`ttlMs`, `cacheScope`) than the manifest's (`private` where it allows `public` is honoured, as a list filtered by the caller's scopes must be): clients keep the list for longer or shorter, or share it where they should not.";
    RESOURCE_READ_INVALID = true, "Reading a resource the manifest lists failed, answered no contents, or answered contents without the manifest's MIME type: clients decoding it by that type misread it or get nothing.";
    PROMPT_GET_INVALID = true, "Getting a prompt with arguments the manifest says are valid failed or answered no messages: clients using the prompt as published get nothing.";
    EXAMPLE_REFUSED = true, "A call with the manifest's own example was refused or failed: callers doing what the contract shows fail.";
    OUTPUT_INVALID = true, "A result's structured content is missing or does not match the published output schema: clients that check it refuse the result.";
    ERROR_WITHOUT_CODE = true, "An error carries no envelope with a code: clients cannot tell which error it is or which argument to fix.";
    ERROR_UNDECLARED = true, "An error code the tool does not declare: clients handling the declared vocabulary miss it.";
    ERROR_MESSAGE = false, "An error's message does not follow its declared template, or it lacks its declared hint or argument: the model reads another text than the reviewed one.";
    UNKNOWN_ARGUMENT_SERVED = true, "A call with an argument the tool does not take was not refused with the unknown-argument code naming it: a misspelt argument is silently ignored and the answer is confidently wrong.";
    MISSING_ARGUMENT_SERVED = true, "A call without a required argument was not refused with the missing-argument code naming it.";
    WRONG_TYPE_SERVED = true, "A call with an argument of the wrong type was not refused with the invalid-argument code naming it.";
}

#[cfg(test)]
mod tests {
    use super::RULES;

    /// docs/other-languages.md carries the rule table word for word.
    #[test]
    fn the_docs_carry_every_rule() {
        let docs = include_str!("../../../docs/other-languages.md");
        for rule in RULES {
            let row = format!(
                "| `{}` | {} | {} |",
                rule.id,
                if rule.breaking {
                    "breaking"
                } else {
                    "compatible"
                },
                rule.why
            );
            assert!(
                docs.contains(&row),
                "docs/other-languages.md lacks the row\n{row}"
            );
        }
    }
}
