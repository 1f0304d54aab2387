//! A tool's four hints, every one decided. What each hint is (its manifest key, wire name,
//! safe value) is `mcp_contract_spec::Hint`, shared with the runtime.

use mcp_contract_spec::Hint;

/// The four hints, every one decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hints {
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint`.
    pub destructive: bool,
    /// `idempotentHint`.
    pub idempotent: bool,
    /// `openWorldHint`.
    pub open_world: bool,
}

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
