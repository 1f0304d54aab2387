//! What generated code calls. Not for hand-written code: these items follow the generator of
//! the same version, not semver, and their shapes change with it.

pub use futures::future::BoxFuture;
pub use mcp_contract_spec::error_codes::ArgumentCodes;
pub use mcp_contract_spec::{CacheHint, PublishedHints, generated_file};
pub use rmcp::model::{CallToolResult, IconTheme, JsonObject};

pub use crate::__codegen_tool_error as tool_error;
pub use crate::fixture::ToolFixture;
pub use crate::icon::{IconSpec, icons};
pub use crate::published::{ContractSpec, GroupSpec, Published};
pub use crate::resource::ResourceSpec;
use crate::{ResourceBody, ResourceError};

mod tool_error;

/// The result shapes of a call, from a handler's return value.
pub mod call {
    pub use crate::call::{arguments, structured, text, unknown_tool};
    pub use crate::envelope::Envelope;
}

/// What generated code provides for a server: the published contract and the calls into the
/// user's handlers.
pub trait Dispatch: Send + Sync + 'static {
    /// The contract, built once per process.
    fn published(&self) -> &'static Published;

    /// Calls tool number `tool` (its index in the manifest) with arguments that have already
    /// passed the tool's input schema.
    fn call(&self, tool: usize, arguments: JsonObject) -> BoxFuture<'_, CallToolResult>;

    /// Reads resource number `resource` (its index in the manifest) with its template's
    /// values, unescaped, in template order. A contract without resources never calls it.
    fn read_resource(
        &self,
        resource: usize,
        values: Vec<String>,
    ) -> BoxFuture<'_, Result<ResourceBody, ResourceError>> {
        let _ = (resource, values);
        Box::pin(std::future::ready(Err(ResourceError::NotFound)))
    }
}
