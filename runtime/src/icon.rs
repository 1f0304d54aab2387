//! Icons as generated ([`IconSpec`](crate::contract::IconSpec)) as the wire carries them, for
//! the server, resources, prompts and anything else that carries `icons`.

use rmcp::model::Icon;

use crate::contract::IconSpec;

/// The `icons` of an entity: `None` when the manifest gives it none, so nothing is sent.
pub fn icons(specs: &[IconSpec]) -> Option<Vec<Icon>> {
    (!specs.is_empty()).then(|| specs.iter().map(IconSpec::icon).collect())
}
