//! Lifecycles: how an entry leaves without breaking its callers. A rename that keeps the old
//! name as an alias, a deprecation, an alias added, and a removal once the entry's (or the
//! alias's) `remove_after` has passed are compatible; removing an entry or an alias before
//! its window stays breaking. The day compared with is the differ's `today`, so a test or a
//! CI run can fix it.

use super::compare::{Differ, Gone, Side};
use super::rules::*;
use crate::model::Lifecycle;
use crate::source::Span;

impl Differ<'_> {
    /// An entry absent from the new contract. `renamed` is the new entry that keeps its
    /// address as an alias, with where that alias is written, when one does.
    pub(super) fn gone(&mut self, g: Gone<'_>, renamed: Option<(&str, Span)>) {
        let (what, name) = (g.what, g.name);
        if let Some((to, at)) = renamed {
            self.push(
                &RENAMED_WITH_ALIAS,
                format!(
                    "{what} `{name}` was renamed `{to}`; `{}` is kept as its alias",
                    g.address
                ),
                g.path,
                Side::New,
                at,
            );
            return;
        }
        let today = self.today;
        let deprecated = g.lifecycle.deprecated.as_ref();
        match deprecated.and_then(|d| d.remove_after) {
            Some(date) if date < today => self.push(
                &REMOVED_AFTER_WINDOW,
                format!("{what} `{name}` was removed; it was deprecated, and its `remove_after` ({date}) has passed"),
                g.path,
                Side::Old,
                g.span,
            ),
            window => {
                let why = match window {
                    Some(date) => format!(" before its `remove_after` ({date})"),
                    None if deprecated.is_some() => " while deprecated without a `remove_after`".into(),
                    None => String::new(),
                };
                let rule = match what {
                    "tool" => &TOOL_NO_DELETE,
                    "prompt" => &PROMPT_NO_DELETE,
                    _ => &RESOURCE_NO_DELETE,
                };
                let at = if what == "resource" {
                    format!(" at `{}`", g.address)
                } else {
                    String::new()
                };
                self.push(
                    rule,
                    format!("{what} `{name}`{at} was removed{why}"),
                    g.path,
                    Side::Old,
                    g.span,
                );
            }
        }
    }

    /// One entry's lifecycle from `o` to `n`: a new deprecation, aliases added and removed.
    /// `renamed_from` is the entry's old address when it was renamed (its alias then is the
    /// rename, reported by [`Differ::gone`]); `taken` says whether an address is an entry of
    /// the kind in the new contract, which answers it still.
    pub(super) fn lifecycle(
        &mut self,
        what: &'static str,
        name: &str,
        path: &str,
        (o, n): (&Lifecycle, &Lifecycle),
        renamed_from: Option<&str>,
        taken: &dyn Fn(&str) -> bool,
    ) {
        if let (None, Some(d)) = (&o.deprecated, &n.deprecated) {
            let mut message = format!("{what} `{name}` was deprecated");
            if let Some(by) = &d.replaced_by {
                message.push_str(&format!(", replaced by `{by}`"));
            }
            if let Some(date) = d.remove_after {
                message.push_str(&format!(", and may be removed after {date}"));
            }
            self.push(
                &DEPRECATED,
                message,
                format!("{path}.deprecated"),
                Side::New,
                d.span,
            );
        }
        for a in &o.aliases {
            if n.aliases.iter().any(|b| b.name == a.name) || taken(&a.name) {
                continue;
            }
            let alias_path = format!("{path}.aliases[{}]", a.name);
            match a.remove_after {
                Some(date) if date < self.today => self.push(
                    &ALIAS_REMOVED_AFTER_WINDOW,
                    format!("{what} `{name}` no longer answers its former name `{}`, whose `remove_after` ({date}) has passed", a.name),
                    alias_path,
                    Side::Old,
                    a.span,
                ),
                window => self.push(
                    &ALIAS_NO_DELETE,
                    format!(
                        "{what} `{name}` no longer answers its former name `{}`{}",
                        a.name,
                        window.map_or(String::new(), |d| format!(" before its `remove_after` ({d})"))
                    ),
                    alias_path,
                    Side::Old,
                    a.span,
                ),
            }
        }
        for a in &n.aliases {
            if o.aliases.iter().any(|b| b.name == a.name) || renamed_from == Some(a.name.as_str()) {
                continue;
            }
            self.push(
                &ALIAS_ADDED,
                format!("{what} `{name}` also answers `{}`", a.name),
                format!("{path}.aliases[{}]", a.name),
                Side::New,
                a.span,
            );
        }
    }
}
