//! A tool's `task:`: whether its calls may run as tasks.

use super::Validator;
use crate::diagnostic::{codes, suggest};
use crate::manifest as raw;
use crate::model::TaskMode;

impl Validator<'_> {
    /// The tool's task mode; a value that is none is reported (the tool then runs as a
    /// normal call, so later checks still see it).
    pub(super) fn task(&mut self, t: &raw::Tool) -> TaskMode {
        let Some(written) = &t.task else {
            return TaskMode::Forbidden;
        };
        if let Some(mode) = TaskMode::from_written(&written.value) {
            return mode;
        }
        let help = match suggest(&written.value, &TaskMode::WRITTEN) {
            Some(near) => format!("did you mean `{near}`?"),
            None => "write `task: optional` (a task where the client opted in) or \
                     `task: required` (only as a task), or leave it out"
                .to_owned(),
        };
        self.error(
            &codes::BAD_TASK_SUPPORT,
            format!("`{}` is not a task mode", written.value),
            written.span,
            help,
        );
        TaskMode::Forbidden
    }
}
