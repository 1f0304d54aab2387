//! `x-mcp-header` (2026-07-28, SEP-2243): the rules an HTTP client applies before it keeps a
//! tool. A client drops a tool that breaks any of them, so the build refuses it instead.

use std::collections::HashMap;

use super::Validator;
use crate::diagnostic::{Diagnostic, codes};
use crate::keyword::Keyword;
use crate::model::*;
use crate::source::{Keyed, Span};

/// The largest integer a header may carry: JSON numbers are exact up to here.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl Validator<'_> {
    /// Checks every header of a tool's parameters.
    pub(super) fn headers(&mut self, tool: &ToolDef, types: &[NamedType]) {
        let mut seen: HashMap<String, Span> = HashMap::new();
        self.header_fields(tool, types, &tool.parameters, true, &mut seen);
    }

    fn header_fields(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        fields: &[Field],
        reachable: bool,
        seen: &mut HashMap<String, Span>,
    ) {
        for f in fields {
            if let Some(h) = &f.header {
                self.header(tool, types, f, h, reachable, seen);
            }
            self.header_schema(tool, types, &f.schema, reachable, seen);
        }
    }

    /// The headers below one schema. Only `properties` keep a header statically reachable;
    /// array items never do, however deep the array. A shared type's fields carry no header
    /// (`header-placement`), so references are not followed.
    fn header_schema(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        schema: &Schema,
        reachable: bool,
        seen: &mut HashMap<String, Span>,
    ) {
        match &schema.kind {
            Kind::Object(o) => self.header_fields(tool, types, &o.fields, reachable, seen),
            Kind::Array(items) => self.header_schema(tool, types, items, false, seen),
            _ => {}
        }
    }

    fn header(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        field: &Field,
        header: &Keyed<String>,
        reachable: bool,
        seen: &mut HashMap<String, Span>,
    ) {
        let (name, span) = (header.value.as_str(), header.span);
        if name.is_empty() || !name.bytes().all(is_tchar) {
            self.report(
                &codes::BAD_HEADER,
                format!("`{name}` is not an HTTP header token"),
                span,
            );
        }
        if !reachable {
            self.report(
                &codes::HEADER_UNREACHABLE,
                format!(
                    "`{}` sits inside an array, where a header cannot reach it",
                    field.name
                ),
                header.key,
            );
        }
        if let Some(first) = seen.insert(name.to_ascii_lowercase(), span) {
            self.diags.push(
                Diagnostic::new(
                    &codes::DUPLICATE_HEADER,
                    format!("the header `{name}` is used twice in `{}`", tool.name),
                    span,
                )
                .related(first, "first used here (header names ignore case)"),
            );
        }
        let mut schema = &field.schema;
        // A shared type is inlined in the published schema, so its kind is what counts.
        while let Kind::Named(i) = schema.kind {
            match types.get(i) {
                Some(t) => schema = &t.schema,
                None => return,
            }
        }
        match &schema.kind {
            Kind::String | Kind::Boolean | Kind::Enum(_) => {}
            Kind::Integer => {
                let within = |bound| {
                    schema
                        .constraints
                        .number(bound)
                        .is_some_and(|v| v.abs() <= SAFE_INTEGER)
                };
                if !within(Keyword::Minimum) || !within(Keyword::Maximum) {
                    self.report(
                        &codes::HEADER_INTEGER_RANGE,
                        format!("the header `{name}` carries an integer without bounds inside ±(2^53−1)"),
                        span,
                    );
                }
            }
            Kind::Number => self.error(
                &codes::HEADER_TYPE,
                format!("the header `{name}` is on a `number`"),
                span,
                "headers carry strings, integers and booleans only; use `type: integer` or drop `header:`",
            ),
            Kind::Json | Kind::Document(_) => self.error(
                &codes::HEADER_TYPE,
                format!("the header `{name}` is on a `json` value, whose type is not fixed"),
                span,
                "headers carry strings, integers and booleans only",
            ),
            Kind::Array(_) | Kind::Object(_) | Kind::Named(_) | Kind::Union(_) => self.error(
                &codes::HEADER_TYPE,
                format!("the header `{name}` is on a value with structure"),
                span,
                "headers carry strings, integers and booleans only",
            ),
        }
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
