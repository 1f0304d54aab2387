//! The four hints of a tool: for each, the key the manifest writes, the name the wire
//! publishes, and which value promises safety, in one place.

use crate::model::{Hints, PublishedHints};

/// One of the four hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    ReadOnly,
    Destructive,
    Idempotent,
    OpenWorld,
}

/// The manifest keys of the hints, in [`Hint::ALL`] order, as the editor schema requires them.
#[cfg(feature = "editor-schema")]
pub(crate) const HINT_KEYS: [&str; 4] = [
    Hint::ReadOnly.key(),
    Hint::Destructive.key(),
    Hint::Idempotent.key(),
    Hint::OpenWorld.key(),
];

impl Hint {
    /// Every hint, in the order they are written and published.
    pub(crate) const ALL: [Hint; 4] = [
        Hint::ReadOnly,
        Hint::Destructive,
        Hint::Idempotent,
        Hint::OpenWorld,
    ];

    /// The key the manifest writes it under (and the runtime's field).
    pub(crate) const fn key(self) -> &'static str {
        match self {
            Hint::ReadOnly => "read_only",
            Hint::Destructive => "destructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "open_world",
        }
    }

    /// The hint written as `key`, if there is one.
    pub(crate) fn from_key(key: &str) -> Option<Hint> {
        Hint::ALL.into_iter().find(|h| h.key() == key)
    }

    /// Its name in a tool's `annotations`.
    pub(crate) fn wire_name(self) -> &'static str {
        match self {
            Hint::ReadOnly => "readOnlyHint",
            Hint::Destructive => "destructiveHint",
            Hint::Idempotent => "idempotentHint",
            Hint::OpenWorld => "openWorldHint",
        }
    }

    /// The value that promises a client safety: a change towards it never breaks one.
    pub(crate) fn safe(self) -> bool {
        match self {
            Hint::ReadOnly | Hint::Idempotent => true,
            Hint::Destructive | Hint::OpenWorld => false,
        }
    }

    /// Whether a hint policy may leave it out on a read-only tool, where the specification
    /// gives it no meaning.
    pub(crate) fn omissible(self) -> bool {
        matches!(self, Hint::Destructive | Hint::Idempotent)
    }
}

impl std::fmt::Display for Hint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
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

impl PublishedHints {
    /// The hints as published, from what each publishes.
    pub(crate) fn from_fn(value: impl Fn(Hint) -> Option<bool>) -> PublishedHints {
        PublishedHints {
            read_only: value(Hint::ReadOnly),
            destructive: value(Hint::Destructive),
            idempotent: value(Hint::Idempotent),
            open_world: value(Hint::OpenWorld),
        }
    }

    /// One hint as published; `None` is left off the wire.
    pub(crate) fn get(&self, hint: Hint) -> Option<bool> {
        match hint {
            Hint::ReadOnly => self.read_only,
            Hint::Destructive => self.destructive,
            Hint::Idempotent => self.idempotent,
            Hint::OpenWorld => self.open_world,
        }
    }
}
