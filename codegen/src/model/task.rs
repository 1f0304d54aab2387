//! Whether a tool runs long: its `task:` (the 2025-11-25 spec's `execution.taskSupport`, the
//! 2026-07-28 tasks extension's task-capable tools).

/// Whether a tool's calls may run as tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum TaskMode {
    /// Never (no `task:`).
    #[default]
    Forbidden,
    /// A task where the client opted in, a normal call elsewhere (`task: optional`).
    Optional,
    /// Only as a task (`task: required`).
    Required,
}

impl TaskMode {
    /// The values `task:` takes, as written.
    pub(crate) const WRITTEN: [&'static str; 2] = ["optional", "required"];

    /// The mode `task: written` declares.
    pub(crate) fn from_written(written: &str) -> Option<TaskMode> {
        match written {
            "optional" => Some(TaskMode::Optional),
            "required" => Some(TaskMode::Required),
            _ => None,
        }
    }

    /// Its name: the manifest's word and `execution.taskSupport`'s.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TaskMode::Forbidden => "forbidden",
            TaskMode::Optional => "optional",
            TaskMode::Required => "required",
        }
    }

    /// The runtime's `TaskSupport` variant it becomes.
    pub(crate) fn variant(self) -> &'static str {
        match self {
            TaskMode::Forbidden => "Forbidden",
            TaskMode::Optional => "Optional",
            TaskMode::Required => "Required",
        }
    }
}
