//! Contract fixtures: what the manifest says each tool publishes, as literal data generated
//! beside the code, for contract tests to hold the live `tools/list` against.

/// One tool's published contract, as the manifest declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolFixture {
    /// The tool's name.
    pub name: &'static str,
    /// Its title, published on `title` and `annotations.title`.
    pub title: &'static str,
    /// The four hints as published; `None` where the hint policy leaves one off the wire.
    pub hints: mcp_contract_spec::PublishedHints,
    /// The input properties, in order.
    pub properties: &'static [&'static str],
    /// The required input properties, in order.
    pub required: &'static [&'static str],
    /// The pinned sentences the description must carry verbatim.
    pub sentences: &'static [&'static str],
    /// Each defaulted property with its default as JSON, to be stated in its description.
    pub defaults: &'static [(&'static str, &'static str)],
    /// A valid call built from the parameters' first examples, as a JSON object.
    pub example_call: &'static str,
    /// Whether the tool declares a structured output.
    pub structured_output: bool,
}
