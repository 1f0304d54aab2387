//! Authorization tests.
