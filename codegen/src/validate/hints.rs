//! The four hints: the publication policy, the named effects, and each tool's hints resolved
//! from its effect and its own `hints:`.

use std::collections::HashMap;

use super::Validator;
use super::names::Referent;
use crate::diagnostic::codes;
use crate::manifest::{self as raw, HintPolicy, Manifest, cannot_omit};
use crate::model::{Hints, PublishedHints};
use crate::source::{Span, Spanned};
use mcp_contract_spec::Hint;

/// The hints a tool that fails to resolve stands in with: the least safe ones. It is never
/// emitted (the build fails), but it is checked through.
const UNSAFE: Hints = Hints {
    read_only: false,
    destructive: true,
    idempotent: false,
    open_world: true,
};

impl Validator<'_> {
    /// The hints left out on read-only tools.
    pub(super) fn policy(&mut self, policy: Option<&Spanned<HintPolicy>>) -> Vec<Hint> {
        let Some(Spanned {
            value: HintPolicy::OmitOnReadOnly(names),
            ..
        }) = policy
        else {
            return Vec::new();
        };
        let mut omit = Vec::new();
        for name in names {
            if name.value.omissible() {
                omit.push(name.value);
            } else {
                self.diags.push(cannot_omit(name));
            }
        }
        omit
    }

    /// The effects whose hints are complete and consistent, by name.
    pub(super) fn effects(&mut self, effects: &[raw::Effect]) -> HashMap<String, Hints> {
        let mut out = HashMap::new();
        for e in effects {
            let hints = self.complete_hints(
                &e.hints,
                None,
                e.name.span,
                &format!("the effect `{}`", e.name.value),
            );
            match hints {
                Some(h) => {
                    out.insert(e.name.value.clone(), h);
                }
                None => self.refused.refuse(Referent::Effect, &e.name.value),
            }
        }
        out
    }

    /// A tool's four hints (its effect's, under its own), and the hints it publishes.
    pub(super) fn tool_hints(
        &mut self,
        t: &raw::Tool,
        name: &Spanned<String>,
        manifest: &Manifest,
        effects: &HashMap<String, Hints>,
        omit: &[Hint],
    ) -> (Hints, PublishedHints) {
        // A tool whose hints cannot be resolved is still checked through, so one build
        // reports its parameters' problems too; it is never emitted, as the build fails.
        let mut effect_ok = true;
        let base = match &t.effect {
            None => None,
            Some(e) => match effects.get(&e.value) {
                Some(h) => Some(*h),
                None => {
                    self.unknown(
                        e,
                        Referent::Effect,
                        manifest.effects.iter().map(|d| d.name.value.as_str()),
                    );
                    effect_ok = false;
                    None
                }
            },
        };
        let written = t.hints.clone().unwrap_or_default();
        let at = t.hints.as_ref().map_or(name.span, |h| h.span);
        let hints = effect_ok
            .then(|| self.complete_hints(&written, base, at, &format!("the tool `{}`", name.value)))
            .flatten()
            .unwrap_or(UNSAFE);
        (hints, published(hints, omit))
    }

    /// Merges written hints over a base and checks that all four are decided and agree.
    fn complete_hints(
        &mut self,
        written: &raw::Hints,
        base: Option<Hints>,
        span: Span,
        what: &str,
    ) -> Option<Hints> {
        let values = Hint::ALL.map(|h| written.get(h).map(|s| s.value).or(base.map(|b| b.get(h))));
        let missing: Vec<&str> = Hint::ALL
            .iter()
            .zip(values)
            .filter(|(_, v)| v.is_none())
            .map(|(h, _)| h.key())
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.report(
                &codes::UNRESOLVED_HINT,
                format!("{what} leaves {list} undecided"),
                span,
            );
            return None;
        }
        let hints = Hints::from_fn(|h| values[h as usize].unwrap_or_default());
        if hints.read_only && hints.destructive {
            let at = written
                .get(Hint::Destructive)
                .or(written.get(Hint::ReadOnly))
                .map_or(span, |s| s.span);
            self.report(
                &codes::CONTRADICTORY_HINTS,
                format!("{what} is both read-only and destructive"),
                at,
            );
            return None;
        }
        Some(hints)
    }
}

/// The hints as published: on a read-only tool, the policy may leave some out.
fn published(hints: Hints, omit: &[Hint]) -> PublishedHints {
    PublishedHints::from_fn(|h| {
        let omitted = hints.read_only && omit.contains(&h);
        (!omitted).then_some(hints.get(h))
    })
}
