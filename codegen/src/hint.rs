//! The four hints of a tool. What each one is (its manifest key, wire name, safe value) is
//! `mcp_contract_spec::Hint`, shared with the runtime; here the model's decided [`Hints`]
//! are read and built by hint.

pub(crate) use mcp_contract_spec::Hint;

use crate::model::Hints;

/// The manifest keys of the hints, in [`Hint::ALL`] order, as the editor schema requires them.
#[cfg(feature = "editor-schema")]
pub(crate) const HINT_KEYS: [&str; 4] = [
    Hint::ReadOnly.key(),
    Hint::Destructive.key(),
    Hint::Idempotent.key(),
    Hint::OpenWorld.key(),
];

impl Hints {
    /// Four decided hints, from each one's value.
    pub(crate) fn from_fn(value: impl Fn(Hint) -> bool) -> Hints {
        Hints {
            read_only: value(Hint::ReadOnly),
            destructive: value(Hint::Destructive),
            idempotent: value(Hint::Idempotent),
            open_world: value(Hint::OpenWorld),
        }
    }

    /// One hint's value.
    pub(crate) fn get(&self, hint: Hint) -> bool {
        match hint {
            Hint::ReadOnly => self.read_only,
            Hint::Destructive => self.destructive,
            Hint::Idempotent => self.idempotent,
            Hint::OpenWorld => self.open_world,
        }
    }
}
