//! What generated code provides for a server: the trait [`Server`](super::Server) is generic
//! over, implemented by the generated `Dispatcher` of each contract.

use std::collections::HashMap;

use futures::future::BoxFuture;
use rmcp::model::{CallToolResult, JsonObject};

use crate::Context;
use crate::prompt::{Completing, PromptError, PromptMessage};
use crate::published::Published;
use crate::resource::{ResourceBody, ResourceError};
use crate::tasks::TaskSupport;

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
    fn task_support(&self, tool: usize) -> TaskSupport {
        let _ = tool;
        TaskSupport::Forbidden
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
        arguments: HashMap<String, String>,
        cx: Context,
    ) -> BoxFuture<'_, Result<Vec<PromptMessage>, PromptError>> {
        let _ = (prompt, arguments, cx);
        Box::pin(std::future::ready(Err(PromptError::Failed(
            "no such prompt".into(),
        ))))
    }

    /// Asks completion handler number `handler` (see [`CompletionSpec::Handler`](crate::contract::CompletionSpec::Handler)) for the
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
