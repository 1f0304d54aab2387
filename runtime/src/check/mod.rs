//! The run-time checks of arguments, outputs and answers: the spec crate's checker, which the
//! generator also checks examples and defaults with (one checker, one reading of the schema).

pub(crate) use mcp_contract_spec::check::{Checker, Kind, Node};

#[cfg(all(test, feature = "testing"))]
mod tests;
