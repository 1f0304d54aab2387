//! The contract test's prompts: listed as declared, in the official shapes, and a missing
//! required argument refused before any handler runs.

use rmcp::model::{GetPromptRequestParams, ListPromptsResult};

use super::{Revision, check_wire, connect};
use crate::server::{Dispatch, Server};

/// `prompts/list` gives the declared prompts, in order, with their titles, descriptions and
/// arguments, valid against the official schema; a server without prompts does not answer it.
pub(super) async fn listed<D: Dispatch>(
    server: &Server<D>,
    revision: Revision,
    fail: &mut impl FnMut(String),
) {
    let declared = server.published().spec.prompts;
    let client = match connect(server.clone(), revision).await {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot connect: {e}")),
    };
    let result = client.list_prompts(None).await;
    let _ = client.cancel().await;
    let listed: ListPromptsResult = match (result, declared.is_empty()) {
        (Ok(listed), false) => listed,
        (Err(e), false) => return fail(format!("prompts/list failed: {e}")),
        (Ok(_), true) => {
            return fail("prompts/list answers, but the manifest has no prompts".into());
        }
        (Err(_), true) => return,
    };
    let wire = serde_json::to_value(&listed).unwrap_or_default();
    if let Err(errors) = check_wire(revision, "ListPromptsResult", &wire) {
        fail(format!(
            "prompts/list breaks the official schema: {}",
            errors.join("; ")
        ));
    }
    let names: Vec<&str> = listed.prompts.iter().map(|p| p.name.as_str()).collect();
    let expected: Vec<&str> = declared.iter().map(|p| p.name).collect();
    if names != expected {
        return fail(format!(
            "the prompts are {names:?}, the manifest declares {expected:?}"
        ));
    }
    for (spec, prompt) in declared.iter().zip(&listed.prompts) {
        if prompt.title.as_deref() != Some(spec.title)
            || prompt.description.as_deref() != Some(spec.description)
        {
            fail(format!(
                "`{}`: the title or description is not the manifest's",
                spec.name
            ));
        }
        let arguments: Vec<(&str, bool)> = prompt
            .arguments
            .iter()
            .flatten()
            .map(|a| (a.name.as_str(), a.required == Some(true)))
            .collect();
        let expected: Vec<(&str, bool)> = spec
            .arguments
            .iter()
            .map(|a| (a.name, a.required))
            .collect();
        if arguments != expected {
            fail(format!(
                "`{}`: the arguments (name, required) are {arguments:?}, the manifest declares {expected:?}",
                spec.name
            ));
        }
    }
}

/// A `prompts/get` without its required arguments is `-32602` from `tripwire`, a server whose
/// handlers report when they run (`called`).
pub(super) async fn required_first<D: Dispatch>(
    tripwire: Server<D>,
    called: &std::sync::atomic::AtomicBool,
    revision: Revision,
    fail: &mut impl FnMut(String),
) {
    let needing = tripwire
        .published()
        .spec
        .prompts
        .iter()
        .filter(|p| p.arguments.iter().any(|a| a.required));
    let client = match connect(tripwire.clone(), revision).await {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot connect the tripwire server: {e}")),
    };
    for prompt in needing {
        let result = client
            .get_prompt(GetPromptRequestParams::new(prompt.name))
            .await;
        let refused = matches!(
            &result,
            Err(rmcp::ServiceError::McpError(e)) if e.code == rmcp::model::ErrorCode::INVALID_PARAMS
        );
        if !refused {
            fail(format!(
                "`{}`: prompts/get without its required arguments was not -32602: {result:?}",
                prompt.name
            ));
        }
        if called.swap(false, std::sync::atomic::Ordering::SeqCst) {
            fail(format!(
                "`{}`: the prompt handler ran before its arguments were checked",
                prompt.name
            ));
        }
    }
    let _ = client.cancel().await;
}
