//! The emitters: each turns the validated [`Contract`](crate::model::Contract) into one thing a
//! server ships. They read only the model, never the manifest, and nothing in a contract can
//! fail to emit.
//!
//! - [`wire`]: the JSON clients see (each tool's object, `tools/list`, `_meta`).
//! - [`rust`]: the Rust module the server includes (types, the handler trait, registration,
//!   and the contract test's literal expectations, taken from the model).
//! - [`docs`]: the README table and the tool reference, written as text.
//! - [`distribution`]: the registry, bundle and client files that publish a server.

pub(crate) mod distribution;
pub(crate) mod docs;
pub(crate) mod rust;
pub(crate) mod wire;
