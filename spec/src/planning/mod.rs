//! The planning metadata: the artifact contract (what a tool produces and
//! consumes) and the composition contract (a complete operation and the tools it wraps),
//! published as versioned `_meta` entries of each tool.
//!
//! A planner uses them to chain tools (one tool materializes a `workspace.directory`,
//! another consumes it) and to prefer a complete operation over the primitives it wraps.
//! They are planning information, never authorization.
//!
//! The generator builds them from the manifest and publishes them with `to_json`; a client
//! reads them back with `from_json`. Both apply the same rules: the [kind
//! grammar](is_kind), [pointers](crate::pointer) that resolve in the tool's own schemas, an
//! encoding that [fits](Encoding::fits) its field, and the composition rules of
//! [`encapsulated`] and [`cycles`]. Each contract sits at a [key path](key_path) in the
//! tool's `_meta`.

mod compose;
mod json;
pub mod key_path;

use std::fmt;

pub use compose::{CompositionProblem, Cycle, cycles, encapsulated};
pub use json::{Malformed, Problem};

use crate::pointer::SchemaNode;

/// The only version of both contracts so far.
pub const VERSION: u64 = 1;

/// The kind every manifest knows: a validated workspace-relative directory, so a path, so a
/// string field.
pub const WORKSPACE_DIRECTORY: &str = "workspace.directory";

/// Whether `kind` is an artifact kind: dot-separated words, each a lowercase letter, then
/// lowercase letters, digits, `_` or `-` (`workspace.directory`, `fixture.item`).
pub fn is_kind(kind: &str) -> bool {
    kind.split('.').all(|word| {
        word.starts_with(|c: char| c.is_ascii_lowercase())
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    })
}

/// How a tool produces an artifact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// The tool creates it (the only mode, and the default).
    #[default]
    Materialize,
}

/// What a produced string field holds, when it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// An exact JSON array, so a planner may concatenate the records of several pages
    /// without changing them.
    JsonArray,
}

macro_rules! named {
    ($ty:ident { $($variant:ident => $name:literal),* $(,)? }) => {
        impl $ty {
            /// Every value, in the order the documentation lists them.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The value as the contract spells it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),*
                }
            }

            /// The value spelled `name`.
            pub fn from_name(name: &str) -> Option<$ty> {
                $ty::ALL.iter().copied().find(|v| v.as_str() == name)
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named!(Mode { Materialize => "materialize" });
named!(Encoding { JsonArray => "json_array" });

impl Encoding {
    /// Whether the encoding can describe `field`: `json_array` describes a string.
    pub fn fits(self, field: &impl SchemaNode) -> bool {
        match self {
            Encoding::JsonArray => field.type_name() == Some("string"),
        }
    }
}

/// What a tool produces and consumes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtifactContract {
    /// Artifacts found in the tool's structured output.
    pub produces: Vec<Produced>,
    /// Artifacts the tool takes in its arguments.
    pub consumes: Vec<Consumed>,
}

/// An artifact a tool materializes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Produced {
    /// The artifact's kind, such as `workspace.directory`.
    pub kind: String,
    /// A JSON pointer into the structured output.
    pub pointer: String,
    /// How the tool produces it.
    pub mode: Mode,
    /// What the string field holds, when the contract says.
    pub encoding: Option<Encoding>,
}

/// An artifact a tool takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consumed {
    /// The artifact's kind.
    pub kind: String,
    /// A JSON pointer into the arguments.
    pub pointer: String,
    /// Whether the tool needs it.
    pub required: bool,
}

/// A complete operation: a high-level tool and the same-server tools it encapsulates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composition {
    /// The names of the encapsulated tools, in order.
    pub encapsulates: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_dot_separated_lowercase_words() {
        for kind in ["workspace.directory", "fixture.list-item", "item", "a1.b_2"] {
            assert!(is_kind(kind), "{kind}");
        }
        for kind in ["", "Work Dir", "workspace.", ".x", "1st", "a..b", "a.B"] {
            assert!(!is_kind(kind), "{kind}");
        }
    }

    #[test]
    fn modes_and_encodings_read_back_from_their_names() {
        for mode in Mode::ALL {
            assert_eq!(Mode::from_name(mode.as_str()), Some(*mode));
        }
        for encoding in Encoding::ALL {
            assert_eq!(Encoding::from_name(encoding.as_str()), Some(*encoding));
        }
        assert_eq!(Mode::from_name("copy"), None);
        assert_eq!(Encoding::from_name("csv"), None);
    }
}
