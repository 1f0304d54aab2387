//! An entity's icons as the runtime's `IconSpec` statics.

use super::text::{Code, ln, option, string, strings};
use crate::model::{IconDef, IconTheme};

/// `icons: &[IconSpec { … }, …],`, the `icons` field of the runtime's specs, at `depth`.
pub(super) fn icon_specs(w: &mut Code, depth: usize, icons: &[IconDef]) {
    if icons.is_empty() {
        w.line(depth, &["icons: &[],"]);
        return;
    }
    w.line(depth, &["icons: &["]);
    for i in icons {
        let theme = match i.theme {
            Some(IconTheme::Light) => "Some(::mcp_contract::codegen::IconTheme::Light)",
            Some(IconTheme::Dark) => "Some(::mcp_contract::codegen::IconTheme::Dark)",
            None => "None",
        };
        let d = depth + 2;
        w.line(depth + 1, &["::mcp_contract::codegen::IconSpec {"]);
        ln!(w, d, "src: {},", string(&i.src));
        ln!(w, d, "mime_type: {},", option(i.mime_type.as_deref()));
        ln!(w, d, "sizes: &[{}],", strings(&i.sizes));
        ln!(w, d, "theme: {theme},");
        w.line(depth + 1, &["},"]);
    }
    w.line(depth, &["],"]);
}
