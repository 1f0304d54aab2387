//! The four hints: the publication policy, effects, and each tool's hints resolved.
//!
//! Each test starts from a manifest that loads, changes one thing, and pins the rule's code, its
//! exact message, where it points (`tools.yaml:LINE:COL`, counted by hand from the text in the
//! test) and, for most, its help; it also pins the number of diagnostics, so a rule that fires
//! twice, or drags another one along, fails here.

use super::{replace, single, with};

#[test]
fn unknown_hint_policy() {
    let d = single(
        &with("hint_policy: some\n"),
        "unknown-hint-policy",
        "unknown hint policy",
        "tools.yaml:9:14",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("write `all`, `minimal`, or `{omit_on_read_only: [idempotent]}`")
    );
}

#[test]
fn bad_hint_policy() {
    let d = single(
        &with("hint_policy: {omit_on_read_only: [open_world]}\n"),
        "bad-hint-policy",
        "`open_world` cannot be left out on read-only tools",
        "tools.yaml:9:35",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("only `destructive` and `idempotent` have no meaning on a read-only tool")
    );
    // A name that is no hint at all is told the same.
    single(
        &with("hint_policy: {omit_on_read_only: [idempotent, fast]}\n"),
        "bad-hint-policy",
        "`fast` cannot be left out on read-only tools",
        "tools.yaml:9:47",
    );
}

#[test]
fn unresolved_hint() {
    let d = single(
        &replace(", open_world: false}", "}"),
        "unresolved-hint",
        "the tool `ping` leaves `open_world` undecided",
        "tools.yaml:7:12",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "set every hint, either under `hints:` or through an `effect:` from the `effects:` table"
        )
    );
}

#[test]
fn unresolved_hint_on_an_effect() {
    single(
        &with("effects:\n  read: {read_only: true}\n"),
        "unresolved-hint",
        "the effect `read` leaves `destructive`, `idempotent`, `open_world` undecided",
        "tools.yaml:10:3",
    );
}

#[test]
fn contradictory_hints() {
    let d = single(
        &replace("destructive: false", "destructive: true"),
        "contradictory-hints",
        "the tool `ping` is both read-only and destructive",
        "tools.yaml:7:43",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "a read-only tool does not modify anything: set `destructive: false`, or `read_only: false`"
        )
    );
}
