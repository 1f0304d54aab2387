//! A tool's `task:`.

use super::{loads, single, with};
use crate::model::TaskMode;

#[test]
fn each_task_mode_loads_and_none_is_forbidden() {
    assert_eq!(loads(&with("")).tools[0].task, TaskMode::Forbidden);
    assert_eq!(
        loads(&with("    task: optional\n")).tools[0].task,
        TaskMode::Optional
    );
    assert_eq!(
        loads(&with("    task: required\n")).tools[0].task,
        TaskMode::Required
    );
}

#[test]
fn another_task_mode_is_located_with_the_nearest_one() {
    let d = single(
        &with("    task: optionl\n"),
        "bad-task-support",
        "`optionl` is not a task mode",
        "tools.yaml:9:11",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `optional`?"));
    let d = single(
        &with("    task: yes\n"),
        "bad-task-support",
        "`yes` is not a task mode",
        "tools.yaml:9:11",
    );
    assert!(d.help.unwrap().contains("`task: optional`"));
}

#[test]
fn a_task_that_is_no_string_is_a_type_mismatch() {
    single(
        &with("    task: {mode: optional}\n"),
        "wrong-type",
        "`task` must be a string, found a mapping",
        "tools.yaml:9:11",
    );
}
