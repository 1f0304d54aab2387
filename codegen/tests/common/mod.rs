//! What tests of this crate and of the CLI share.

pub mod diff_base;
