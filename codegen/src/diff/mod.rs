//! Comparing two contracts: what changed for the clients of a server, and whether it breaks them.
//!
//! [`diff`] is pure: it walks two validated [`Contract`](crate::Contract)s and returns one [`Change`] per
//! difference a caller could notice, each classified by a [`Rule`] of [`RULES`]. [`Report`]
//! places the changes in their manifests (`tools.yaml:LINE:COL`), applies `--allow`, and renders
//! them as text, JSON, GitHub annotations or Markdown.
//!
//! Identity is by name: a renamed tool or parameter is a removal plus an addition, which is
//! what a client sees on the wire, unless the new entry keeps the old name as an alias.

mod access;
mod apps;
mod compare;
mod lifecycle;
mod questions;
mod report;
mod rules;
mod tasks;

pub use compare::{Change, Side, diff, diff_as_of};
pub use report::{Finding, Format, Report, Status};
pub use rules::{Bump, RULES, Rule, Severity, rule, rules_table};
