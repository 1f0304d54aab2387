//! `x-mcp-header` (2026-07-28, SEP-2243): the rules an HTTP client applies before it keeps a
//! tool. A client drops a tool that breaks any of them, so the build refuses it instead.

use std::collections::HashMap;

use super::Validator;
use crate::diagnostic::{Diagnostic, codes};
use crate::keyword::Keyword;
use crate::model::*;
use crate::source::{Keyed, Span};

/// Where a header stands that no client can mirror (`inside an array`), or `None` where it
/// is reached through object properties alone.
type Unreachable = Option<&'static str>;

/// The largest integer a header may carry: JSON numbers are exact up to here.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl Validator<'_> {
    /// Checks every header of a tool's parameters.
    pub(super) fn headers(&mut self, tool: &ToolDef, types: &[NamedType]) {
        let mut seen: HashMap<String, Span> = HashMap::new();
        self.header_fields(tool, types, &tool.parameters, None, &mut seen);
    }

    fn header_fields(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        fields: &[Field],
        unreachable: Unreachable,
        seen: &mut HashMap<String, Span>,
    ) {
        for f in fields {
            if let Some(h) = &f.header {
                self.header(tool, types, f, h, unreachable, seen);
            }
            self.header_schema(tool, types, &f.schema, unreachable, seen);
        }
    }

    /// The headers below one schema. Only `properties` keep a header statically reachable;
    /// array items never do, however deep the array, nor a union's variants (which one a call
    /// holds is known only from its value). A shared type's fields carry no header
    /// (`header-placement`), so references are not followed.
    fn header_schema(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        schema: &Schema,
        unreachable: Unreachable,
        seen: &mut HashMap<String, Span>,
    ) {
        match &schema.kind {
            Kind::Object(o) => self.header_fields(tool, types, &o.fields, unreachable, seen),
            Kind::Array(items) => {
                let inside = unreachable.or(Some("inside an array"));
                self.header_schema(tool, types, items, inside, seen);
            }
            Kind::Union(u) => {
                let inside = unreachable.or(Some("in a variant of a union"));
                for variant in &u.variants {
                    self.header_schema(tool, types, &variant.schema, inside, seen);
                }
            }
            _ => {}
        }
    }

    fn header(
        &mut self,
        tool: &ToolDef,
        types: &[NamedType],
        field: &Field,
        header: &Keyed<String>,
        unreachable: Unreachable,
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
        if let Some(place) = unreachable {
            self.report(
                &codes::HEADER_UNREACHABLE,
                format!(
                    "`{}` sits {place}, where a header cannot reach it",
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
