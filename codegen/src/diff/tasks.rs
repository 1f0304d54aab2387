//! A tool's `task:`: whether its calls may run as tasks. Allowing a task is minor (a client
//! that did not opt in calls as before); requiring one, or no longer allowing it, breaks
//! the clients that called it the other way.

use super::compare::{Differ, Side};
use super::rules::*;
use crate::model::{TaskMode, ToolDef};

impl Differ<'_> {
    /// The tool's task mode, when it changed.
    pub(super) fn task(&mut self, o: &ToolDef, n: &ToolDef, path: &str) {
        let rule = match (o.task, n.task) {
            (old, new) if old == new => return,
            (_, TaskMode::Required) => &TASK_REQUIRED,
            (_, TaskMode::Forbidden) => &TASK_REMOVED,
            (_, TaskMode::Optional) => &TASK_OPTIONAL,
        };
        let (side, span) = if n.task == TaskMode::Forbidden {
            (Side::Old, o.span)
        } else {
            (Side::New, n.span)
        };
        self.push(
            rule,
            format!(
                "tool `{}` runs as a task: `{}` → `{}`",
                n.name,
                o.task.as_str(),
                n.task.as_str()
            ),
            format!("{path}.task"),
            side,
            span,
        );
    }
}
