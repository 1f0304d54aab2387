//! What generated code calls. Not for hand-written code: these items follow the generator of
//! the same version, not semver, and their shapes change with it.

pub use futures::future::BoxFuture;
pub use mcp_contract_spec::error_codes::ArgumentCodes;
pub use mcp_contract_spec::{CacheHint, PublishedHints, generated_file};
pub use rmcp::model::{CallToolResult, IconTheme, JsonObject};

pub use serde_json::Value;

pub use self::read::{Object, Read, Reading, Unread, unknown_variant, variant};
pub use crate::__codegen_tool_error as tool_error;
pub use crate::access::{AccessSpec, ScopeSpec};
pub use crate::content::{Block, Declared};
pub use crate::fixture::ToolFixture;
pub use crate::icon::{IconSpec, icons};
pub use crate::prompt::{CompletionSpec, PromptArgumentSpec, PromptSpec};
pub use crate::published::{ContractSpec, GroupSpec, Published};
pub use crate::resource::ResourceSpec;
pub use crate::tasks::TaskSupport;
use crate::{Completing, Context, PromptError, PromptMessage, ResourceBody, ResourceError};

mod read;
mod tool_error;

/// The URI a resource template names with `values`, in template order, each
/// percent-encoded; the generated `{Name}Params::uri` calls it.
pub fn expand_uri(template: &str, values: &[&str]) -> String {
    match mcp_contract_spec::uri_template::UriTemplate::parse(template) {
        Ok(parsed) => parsed.expand(values),
        // The generator checked the template; nothing else reaches here.
        Err(_) => template.to_owned(),
    }
}

/// The result shapes of a call, from a handler's return value.
pub mod call {
    pub use crate::call::{arguments, content, structured, structured_content, text, unknown_tool};
    pub use crate::envelope::Envelope;
}

/// What generated code provides for a server: the published contract and the calls into the
/// user's handlers.
pub trait Dispatch: Send + Sync + 'static {
    /// The contract, built once per process.
    fn published(&self) -> &'static Published;

    /// Calls tool number `tool` (its index in the manifest) with arguments that have already
    /// passed the tool's input schema, in the request's context.
    fn call(
        &self,
        tool: usize,
        arguments: JsonObject,
        cx: Context,
    ) -> BoxFuture<'_, CallToolResult>;

    /// Whether tool number `tool` may run as a task (its manifest `task:`).
    fn task_support(&self, tool: usize) -> crate::tasks::TaskSupport {
        let _ = tool;
        crate::tasks::TaskSupport::Forbidden
    }

    /// Whether any tool may run as a task: the server then advertises the tasks extension.
    fn has_tasks(&self) -> bool {
        false
    }

    /// Reads resource number `resource` (its index in the manifest) with its template's
    /// values, unescaped, in template order. A contract without resources never calls it.
    fn read_resource(
        &self,
        resource: usize,
        values: Vec<String>,
        cx: Context,
    ) -> BoxFuture<'_, Result<ResourceBody, ResourceError>> {
        let _ = (resource, values, cx);
        Box::pin(std::future::ready(Err(ResourceError::NotFound)))
    }

    /// Gives prompt number `prompt` (its index in the manifest) with arguments that have
    /// already been checked: each a string, every required one present, none unknown. A
    /// contract without prompts never calls it.
    fn get_prompt(
        &self,
        prompt: usize,
        arguments: std::collections::HashMap<String, String>,
        cx: Context,
    ) -> BoxFuture<'_, Result<Vec<PromptMessage>, PromptError>> {
        let _ = (prompt, arguments, cx);
        Box::pin(std::future::ready(Err(PromptError::Failed(
            "no such prompt".into(),
        ))))
    }

    /// Asks completion handler number `handler` (see [`CompletionSpec::Handler`]) for the
    /// values that complete `request`. A contract without completion handlers never calls it.
    fn complete(
        &self,
        handler: usize,
        request: Completing,
        cx: Context,
    ) -> BoxFuture<'_, Vec<String>> {
        let _ = (handler, request, cx);
        Box::pin(std::future::ready(Vec::new()))
    }
}
