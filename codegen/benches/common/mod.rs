//! What the benchmarks share: manifests of any size.

use std::fmt::Write as _;

/// A manifest of `tools` tools, each with the mix of parameters a real server has.
pub fn manifest(tools: usize) -> String {
    let mut m = String::from(
        "server: {name: bench}\neffects:\n  read: {read_only: true, destructive: false, idempotent: true, open_world: false}\n\
         errors:\n  not_found: {message: \"No `{path}`.\", hint: \"Call list_{path}.\"}\n\
         types:\n  Range:\n    type: object\n    description: Lines.\n    properties:\n\
         \x20     start: {type: integer, minimum: 1, description: First.}\n\
         \x20     end: {type: integer, minimum: 1, description: Last.}\ntools:\n",
    );
    for i in 0..tools {
        let _ = write!(
            m,
            "  - name: tool_{i}\n    title: Tool number {i}\n    description: Does thing {i} to a file.\n    effect: read\n\
             \x20   parameters:\n\
             \x20     path: {{type: string, description: A path., example: src/main.rs, minLength: 1}}\n\
             \x20     limit: {{type: integer, description: At most., example: 5, minimum: 1, maximum: 100, default: 10}}\n\
             \x20     mode: {{type: string, enum: [fast, slow], description: How., example: fast, default: fast}}\n\
             \x20     tags: {{type: array, items: {{type: string}}, description: Tags., example: [a], required: false}}\n\
             \x20     range: {{type: Range, description: Which lines., example: {{start: 1, end: 2}}, required: false}}\n\
             \x20   output:\n      properties:\n        content: {{type: string, description: The text.}}\n\
             \x20   errors: [not_found]\n"
        );
    }
    m
}
