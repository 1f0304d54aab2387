//! What generated code calls. Not for hand-written code: these items follow the generator of
//! the same version, not semver, and their shapes change with it.
//!
//! Only re-exports: each item lives in the module of its concept, and nothing inside the
//! runtime imports through here.

pub use futures::future::BoxFuture;
pub use mcp_contract_spec::error_codes::ArgumentCodes;
pub use mcp_contract_spec::{CacheHint, PublishedHints, generated_file};
pub use rmcp::model::{CallToolResult, IconTheme, JsonObject};
pub use serde_json::Value;

pub use crate::__codegen_tool_error as tool_error;
pub use crate::call::read::{
    Object, Read, Reading, Unread, deserialize, tag, unknown_variant, variant,
};
pub use crate::content::{Block, Declared};
pub use crate::contract::{
    AccessSpec, AliasesSpec, AppSpec, CompletionSpec, ContractSpec, GroupSpec, IconSpec,
    PromptArgumentSpec, PromptSpec, ResourceSpec, ScopeSpec, ToolSpec,
};
pub use crate::fixture::ToolFixture;
pub use crate::icon::icons;
pub use crate::published::Published;
pub use crate::resource::expand_uri;
pub use crate::server::Dispatch;
pub use crate::tasks::TaskSupport;

/// The result shapes of a call, from a handler's return value.
pub mod call {
    pub use crate::call::{arguments, content, structured, structured_content, text, unknown_tool};
    pub use crate::envelope::Envelope;
}
