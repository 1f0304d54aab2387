//! Lifecycles: each tool's, prompt's and resource's `since:`, `deprecated:` and `aliases:`,
//! checked once every entry of the three kinds is built, since a replacement or an alias
//! may name any of them. The deprecation sentence is appended to the published description
//! here, last, so the description ends with it.

use super::Validator;
use super::names::{NameTable, is_tool_name};
use super::resources::fixed_uri;
use crate::diagnostic::{Diagnostic, codes, suggest};
use crate::ident;
use crate::manifest::{self as raw, Manifest};
use crate::model::*;
use crate::source::{Span, Spanned};
use mcp_contract_spec::LIFECYCLE_META_KEY;

/// The three kinds of entry a lifecycle belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tool,
    Prompt,
    Resource,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
        }
    }
}

/// One built entry: its name and its lifecycle as written.
struct Entry<'m> {
    name: String,
    /// What its aliases may not be: its name, or a resource's URI.
    address: String,
    written: &'m raw::Lifecycle,
    /// A fixed resource (aliases are former URIs, so a template has none).
    fixed: bool,
}

impl Validator<'_> {
    /// Checks the lifecycle of every entry the contract holds, sets it, and ends each
    /// deprecated entry's published description with the deprecation sentence.
    pub(super) fn lifecycles(&mut self, manifest: &Manifest, contract: &mut Contract) {
        // Each built entry came from the first manifest entry of its name (a repeated name is
        // refused before it is built).
        fn first<'m, T>(
            all: &'m [T],
            name: &str,
            of: impl Fn(&T) -> Option<&Spanned<String>>,
        ) -> Option<&'m T> {
            all.iter().find(|m| of(m).is_some_and(|n| n.value == name))
        }
        let written: Vec<&raw::Tool> = (contract.tools.iter())
            .filter_map(|t| first(&manifest.tools, &t.name, |m| m.name.as_ref()))
            .collect();
        let entries: Vec<Entry<'_>> = (contract.tools.iter().zip(&written))
            .map(|(t, w)| Entry {
                name: t.name.clone(),
                address: t.name.clone(),
                written: &w.lifecycle,
                fixed: true,
            })
            .collect();
        let constants: Vec<(String, Span)> = contract
            .tools
            .iter()
            .map(|t| (t.constant.clone(), t.span))
            .collect();
        let lifecycles = self.lifecycles_of(Kind::Tool, &entries, &constants);
        for (w, l) in written.iter().zip(&lifecycles) {
            self.meta_is_free(w, l);
        }
        for (t, l) in contract.tools.iter_mut().zip(lifecycles) {
            t.published_description =
                l.describe(std::mem::take(&mut t.published_description), "tool");
            t.lifecycle = l;
        }
        let entries: Vec<Entry<'_>> = (contract.prompts.iter())
            .filter_map(|p| {
                let w = first(&manifest.prompts, &p.name, |m| m.name.as_ref())?;
                Some(Entry {
                    name: p.name.clone(),
                    address: p.name.clone(),
                    written: &w.lifecycle,
                    fixed: true,
                })
            })
            .collect();
        let lifecycles = self.lifecycles_of(Kind::Prompt, &entries, &[]);
        for (p, l) in contract.prompts.iter_mut().zip(lifecycles) {
            p.description = l.describe(std::mem::take(&mut p.description), "prompt");
            p.lifecycle = l;
        }
        let entries: Vec<Entry<'_>> = (contract.resources.iter())
            .filter_map(|r| {
                let w = first(&manifest.resources, &r.name, |m| m.name.as_ref())?;
                Some(Entry {
                    name: r.name.clone(),
                    address: r.uri.text().to_owned(),
                    written: &w.lifecycle,
                    fixed: matches!(r.uri, ResourceUri::Fixed(_)),
                })
            })
            .collect();
        let lifecycles = self.lifecycles_of(Kind::Resource, &entries, &[]);
        for (r, l) in contract.resources.iter_mut().zip(lifecycles) {
            r.description = l.describe(std::mem::take(&mut r.description), "resource");
            r.lifecycle = l;
        }
    }

    /// The lifecycles of one kind's entries, in their order. `constants` are the generated
    /// constants an alias's may not repeat (the tools' in `names::`).
    fn lifecycles_of(
        &mut self,
        kind: Kind,
        entries: &[Entry<'_>],
        constants: &[(String, Span)],
    ) -> Vec<Lifecycle> {
        let mut addresses = NameTable::default();
        for e in entries {
            let _ = addresses.claim(&e.address, Default::default());
        }
        let mut constant_table = NameTable::default();
        for (c, span) in constants {
            let _ = constant_table.claim(c, *span);
        }
        let deprecated: Vec<&str> = entries
            .iter()
            .filter(|e| e.written.deprecated.is_some())
            .map(|e| e.name.as_str())
            .collect();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        let mut aliases = NameTable::default();
        entries
            .iter()
            .map(|e| {
                let since = self.version(&e.written.since);
                let deprecated = e.written.deprecated.as_ref().map(|d| {
                    let replaced_by = d.replaced_by.as_ref().and_then(|by| {
                        self.replacement(kind, &e.name, by, &names, &deprecated)
                            .then(|| by.value.clone())
                    });
                    self.deprecation(d, replaced_by)
                });
                let aliases = (e.written.aliases.iter())
                    .filter_map(|a| {
                        self.alias(kind, e, a, &addresses, &mut aliases, &mut constant_table)
                    })
                    .collect();
                Lifecycle {
                    since,
                    deprecated,
                    aliases,
                }
            })
            .collect()
    }

    /// A tool whose lifecycle is published may not write its key in its own `_meta`.
    fn meta_is_free(&mut self, t: &raw::Tool, l: &Lifecycle) {
        if l.meta().is_none() {
            return;
        }
        for (key, _) in t.meta.iter().filter(|(k, _)| k.value == LIFECYCLE_META_KEY) {
            self.error(
                &codes::DUPLICATE_META_KEY,
                format!(
                    "`{}` is where this tool's lifecycle is published",
                    key.value
                ),
                key.span,
                "remove this `_meta` entry; `since:` and `deprecated:` publish it",
            );
        }
    }

    /// A version as written (`since:`), trimmed; blank, it is reported.
    fn version(&mut self, field: &Option<Spanned<String>>) -> Option<String> {
        let text = self.text(
            field,
            "`since` is empty",
            "write the version the entry appeared in, such as `since: 1.2.0`, or remove the key",
        );
        if text.is_empty() {
            return None;
        }
        // Compared with the crate's version by people and by `diff --check-version`, so it is
        // written the way `Cargo.toml` writes one.
        if semver::Version::parse(&text).is_err() {
            let span = field.as_ref().map_or_else(Span::default, |f| f.span);
            let help = match text.split('.').count() {
                1 | 2 if text.split('.').all(|n| n.parse::<u64>().is_ok()) => {
                    let mut parts: Vec<&str> = text.split('.').collect();
                    parts.resize(3, "0");
                    format!("write all three numbers: `{}`", parts.join("."))
                }
                _ => "write the version as `MAJOR.MINOR.PATCH`, such as `1.2.0`".to_owned(),
            };
            self.error(
                &codes::BAD_VERSION,
                format!("`{text}` is not a semantic version"),
                span,
                help,
            );
            return None;
        }
        Some(text)
    }

    fn deprecation(&mut self, d: &raw::Deprecation, replaced_by: Option<String>) -> DeprecationDef {
        let since = self.version(&d.since);
        let reason = self.text(
            &d.reason,
            "the deprecation's `reason` is empty",
            "say why it is deprecated, for the people and models that read the description",
        );
        let remove_after = d.remove_after.as_ref().and_then(|date| self.date(date));
        DeprecationDef {
            since,
            reason,
            replaced_by,
            remove_after,
            span: d.span,
            remove_after_span: d.remove_after.as_ref().map_or(d.span, |r| r.span),
        }
    }

    /// The day written, `YYYY-MM-DD`; anything else is reported.
    fn date(&mut self, date: &Spanned<String>) -> Option<Date> {
        let parsed = Date::parse(&date.value);
        if parsed.is_none() {
            self.report(
                &codes::BAD_DATE,
                format!("`{}` is not a date", date.value),
                date.span,
            );
        }
        parsed
    }

    /// Whether `by` names an active entry of the same kind other than `name`; reported when
    /// it does not.
    fn replacement(
        &mut self,
        kind: Kind,
        name: &str,
        by: &Spanned<String>,
        names: &[&str],
        deprecated: &[&str],
    ) -> bool {
        let what = kind.noun();
        let problem = if by.value == name {
            Some((
                format!("the {what} `{name}` names itself as its replacement"),
                format!("name the {what} that replaces it, or remove `replaced_by:`"),
            ))
        } else if !names.contains(&by.value.as_str()) {
            let help = match suggest(&by.value, names) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("`replaced_by` names a {what} of this manifest"),
            };
            Some((format!("no {what} is called `{}`", by.value), help))
        } else if deprecated.contains(&by.value.as_str()) {
            Some((
                format!("the replacement `{}` is deprecated too", by.value),
                format!("name the active {what} that replaces both, so clients move once"),
            ))
        } else {
            None
        };
        let Some((message, help)) = problem else {
            return true;
        };
        self.diags.push(
            Diagnostic::new(&codes::BAD_REPLACEMENT, message, by.span)
                .label(format!("not an active {what}"))
                .help(help),
        );
        false
    }

    /// One alias, checked against the names, the other aliases and the generated constants.
    fn alias(
        &mut self,
        kind: Kind,
        e: &Entry<'_>,
        written: &raw::AliasWritten,
        addresses: &NameTable,
        aliases: &mut NameTable,
        constants: &mut NameTable,
    ) -> Option<Alias> {
        let what = kind.noun();
        let a = &written.name;
        let grammar = match kind {
            Kind::Tool | Kind::Prompt => is_tool_name(&a.value).then_some(()).ok_or_else(|| {
                format!("a {what} alias is a former {what} name: a lowercase letter, then lowercase letters, digits or `_`")
            }),
            Kind::Resource if !e.fixed => Err(
                "a resource alias is a former URI, so only a resource with a fixed `uri` has aliases".to_owned(),
            ),
            Kind::Resource => fixed_uri(&a.value).map_err(|why| {
                format!("a resource alias is a former URI, and this one is not: {why}")
            }),
        };
        if let Err(help) = grammar {
            self.error(
                &codes::BAD_ALIAS,
                format!(
                    "`{}` cannot be an alias of the {what} `{}`",
                    a.value, e.name
                ),
                a.span,
                help,
            );
            return None;
        }
        if addresses.get(&a.value).is_some() {
            self.error(
                &codes::ALIAS_COLLISION,
                format!("the alias `{}` is the name of a {what}", a.value),
                a.span,
                format!("a client calling `{}` must reach one {what}: drop the alias or rename the {what}", a.value),
            );
            return None;
        }
        if let Err(first) = aliases.claim(&a.value, a.span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::ALIAS_COLLISION,
                    format!("the alias `{}` is listed twice", a.value),
                    a.span,
                )
                .related(first, "first listed here")
                .help("list each former name once, on the entry it now leads to"),
            );
            return None;
        }
        let constant = ident::shouty(&a.value);
        if kind == Kind::Tool
            && let Err(first) = constants.claim(&constant, a.span)
        {
            self.collision(
                format!(
                    "the alias `{}` becomes the constant `names::{constant}`, which is taken",
                    a.value
                ),
                a.span,
                Some((first, "this name has the same constant")),
                "rename the alias or the other name so their SHOUTY_CASE forms differ",
            );
            return None;
        }
        let remove_after = written.remove_after.as_ref().and_then(|d| self.date(d));
        Some(Alias {
            name: a.value.clone(),
            constant,
            remove_after,
            span: a.span,
            remove_after_span: written.remove_after.as_ref().map_or(a.span, |d| d.span),
        })
    }
}

/// `past-removal`: each deprecated entry whose `remove_after` is before `today`, a warning,
/// or an error when `deny`. Kept out of [`super::validate`] so that loading a manifest does
/// not depend on the day it is loaded.
pub(crate) fn past_removal(contract: &Contract, today: Date, deny: bool) -> Vec<Diagnostic> {
    let tools = (contract.tools.iter()).map(|t| ("tool", &t.name, &t.lifecycle));
    let prompts = (contract.prompts.iter()).map(|p| ("prompt", &p.name, &p.lifecycle));
    let resources = (contract.resources.iter()).map(|r| ("resource", &r.name, &r.lifecycle));
    tools
        .chain(prompts)
        .chain(resources)
        .flat_map(|(what, name, l)| {
            let entry = (l.deprecated.as_ref()).and_then(|d| {
                Some((
                    format!("the {what} `{name}`"),
                    d.remove_after?,
                    d.remove_after_span,
                ))
            });
            let aliases = l.aliases.iter().filter_map(move |a| {
                let who = format!("the alias `{}` of the {what} `{name}`", a.name);
                Some((who, a.remove_after?, a.remove_after_span))
            });
            entry.into_iter().chain(aliases)
        })
        .filter(|(_, date, _)| *date < today)
        .map(|(who, date, span)| {
            let mut diagnostic = Diagnostic::new(
                &codes::PAST_REMOVAL,
                format!("{who} may be removed: its `remove_after` ({date}) has passed"),
                span,
            )
            .label(format!("today is {today}"));
            if deny {
                diagnostic.severity = crate::diagnostic::Severity::Error;
            }
            diagnostic
        })
        .collect()
}
