//! Per-path locks, so that a write's version check and its rename happen as one step with
//! respect to every other write made through the same [`Workspace`].
//!
//! Without them, two edits that both read version `v1` could both pass the check and the
//! second rename would silently discard the first edit. With them, the second edit checks only
//! after the first has renamed, sees `v2`, and is refused as stale.
//!
//! A lock covers a path and everything beneath it: deleting or moving `src` waits for an edit
//! of `src/main.rs` to finish, and the other way round. Paths are locked by what they name,
//! not by how they are spelt: [`Workspace::lock`] resolves links inside the root first, so an
//! edit of `alias/f` (with `alias -> src`) waits for an edit of `src/f`. The locks only order the writes of this
//! server; another process writing the same files is not held back by them (see the notes in
//! `docs/write-tools.md`).
//!
//! [`Workspace`]: crate::workspace::Workspace
//! [`Workspace::lock`]: crate::workspace::Workspace::lock

use std::collections::HashSet;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The set of paths currently being written, and a signal for when one is released.
///
/// A set with a condition variable rather than a map of mutexes: a writer takes all its paths
/// at once (a move takes two), so no two writers can each hold one path and wait for the
/// other's, and a released path leaves no entry behind.
#[derive(Debug, Default)]
pub(crate) struct PathLocks {
    held: Mutex<HashSet<String>>,
    released: Condvar,
}

/// Holds its paths until dropped.
#[must_use = "the paths are released as soon as the guard is dropped"]
pub(crate) struct PathGuard<'a> {
    locks: &'a PathLocks,
    keys: Vec<String>,
}

impl PathLocks {
    /// Blocks until none of `keys` overlaps a path another writer holds, then holds them.
    /// Keys are workspace paths with `/` between components and `.` for the root.
    ///
    /// Runs on the blocking pool, like every workspace operation, so waiting here never stalls
    /// the async runtime.
    pub(crate) fn lock(&self, keys: Vec<String>) -> PathGuard<'_> {
        let mut held = self.held();
        while keys
            .iter()
            .any(|key| held.iter().any(|other| overlaps(key, other)))
        {
            // A writer that panicked left a consistent set behind (its guard's drop still ran),
            // so a poisoned lock is safe to keep using.
            held = self
                .released
                .wait(held)
                .unwrap_or_else(PoisonError::into_inner);
        }
        held.extend(keys.iter().cloned());
        PathGuard { locks: self, keys }
    }

    fn held(&self) -> MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for PathGuard<'_> {
    fn drop(&mut self) {
        let mut held = self.locks.held();
        for key in &self.keys {
            held.remove(key);
        }
        drop(held);
        self.locks.released.notify_all();
    }
}

/// Whether two workspace paths (as [`WorkspacePath::as_str`] spells them) are the same or one
/// lies beneath the other.
fn overlaps(a: &str, b: &str) -> bool {
    let beneath = |inner: &str, outer: &str| {
        outer == "."
            || inner
                .strip_prefix(outer)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    a == b || beneath(a, b) || beneath(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn paths_overlap_when_equal_or_nested() {
        assert!(overlaps("a", "a"));
        assert!(overlaps("a/b", "a"));
        assert!(overlaps("a", "a/b/c"));
        assert!(overlaps(".", "x"));
        assert!(!overlaps("a", "ab"));
        assert!(!overlaps("a/b", "a/c"));
    }

    #[test]
    fn a_second_writer_waits_for_the_first() {
        let locks = Arc::new(PathLocks::default());
        let entered = Arc::new(AtomicBool::new(false));
        let guard = locks.lock(vec!["src/main.rs".into()]);
        let waiter = {
            let (locks, entered) = (Arc::clone(&locks), Arc::clone(&entered));
            std::thread::spawn(move || {
                let _guard = locks.lock(vec!["src".into()]);
                entered.store(true, Ordering::SeqCst);
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!entered.load(Ordering::SeqCst), "the parent is held");
        drop(guard);
        waiter.join().expect("the waiter finished");
        assert!(entered.load(Ordering::SeqCst));
        assert!(locks.held().is_empty(), "nothing is left behind");
    }
}
