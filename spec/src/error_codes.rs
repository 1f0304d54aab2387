//! The error codes the runtime itself puts in an error envelope. A manifest's vocabulary may
//! not declare them, so a client reading a code knows who reported it.

/// A required argument was not given.
pub const ARGUMENT_MISSING: &str = "argument_missing";
/// An argument has the wrong type or breaks a constraint.
pub const ARGUMENT_INVALID: &str = "argument_invalid";
/// An argument the tool does not take.
pub const ARGUMENT_UNKNOWN: &str = "argument_unknown";
/// The server failed, not the call: a handler panicked, or its result could not be sent.
pub const INTERNAL_ERROR: &str = "internal_error";

/// The codes of the argument envelope: the runtime's by default, a manifest's own when it
/// names them (`argument_codes:`), so a server can keep the vocabulary its clients know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgumentCodes {
    /// A required argument was not given.
    pub missing: &'static str,
    /// An argument has the wrong type or breaks a constraint.
    pub invalid: &'static str,
    /// An argument the tool does not take.
    pub unknown: &'static str,
}

impl ArgumentCodes {
    /// The runtime's own codes.
    pub const DEFAULT: ArgumentCodes = ArgumentCodes {
        missing: ARGUMENT_MISSING,
        invalid: ARGUMENT_INVALID,
        unknown: ARGUMENT_UNKNOWN,
    };
}

impl Default for ArgumentCodes {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Every code above: the ones a manifest may not declare unless it renames the argument
/// codes, when it may not declare the names it gives them instead.
pub const RESERVED: [&str; 4] = [
    ARGUMENT_MISSING,
    ARGUMENT_INVALID,
    ARGUMENT_UNKNOWN,
    INTERNAL_ERROR,
];
