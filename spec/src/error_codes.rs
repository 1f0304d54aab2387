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

/// Every code above: the ones a manifest may not declare.
pub const RESERVED: [&str; 4] = [
    ARGUMENT_MISSING,
    ARGUMENT_INVALID,
    ARGUMENT_UNKNOWN,
    INTERNAL_ERROR,
];
