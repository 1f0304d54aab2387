//! Shared types: their names, their schemas, and the rule that none contains itself.

use super::Validator;
use super::names::{RESERVED_TYPE_NAMES, Referent, is_type_name};
use super::schema::{Place, Scope};
use crate::diagnostic::codes;
use crate::manifest as raw;
use crate::model::{Constraints, Kind, NamedType, Schema};

impl Validator<'_> {
    /// The shared types, in manifest order; one that cannot be built stands in as a string.
    pub(super) fn types(&mut self, scope: &Scope<'_>) -> Vec<NamedType> {
        let types = scope.types;
        let mut out = Vec::new();
        for t in types {
            self.type_name(t);
            let schema = self
                .schema(&t.schema, &t.name.value, Place::Shared, scope)
                .unwrap_or_else(|| {
                    // A stand-in for the rules after this one, which skip it.
                    self.refused.refuse(Referent::Type, &t.name.value);
                    Schema {
                        kind: Kind::String,
                        description: None,
                        examples: Vec::new(),
                        constraints: Constraints::default(),
                    }
                });
            out.push(NamedType {
                name: t.name.value.clone(),
                schema,
            });
        }
        // A type that contains itself would inline forever.
        for (i, t) in types.iter().enumerate() {
            if reaches(&out, &out[i].schema, i, &mut Vec::new()) {
                self.refused.refuse(Referent::Type, &t.name.value);
                self.report(
                    &codes::RECURSIVE_TYPE,
                    format!("the type `{}` contains itself", t.name.value),
                    t.name.span,
                );
            }
        }
        out
    }

    /// A shared type's name is its Rust type's, so it is PascalCase and not one the generated
    /// code keeps.
    fn type_name(&mut self, t: &raw::TypeDef) {
        let name = &t.name;
        if !is_type_name(&name.value) {
            self.error(
                &codes::BAD_NAME,
                format!("the type name `{}` is not PascalCase", name.value),
                name.span,
                "name shared types like Rust types: `LineRange`",
            );
        } else if RESERVED_TYPE_NAMES.contains(&name.value.as_str()) {
            self.collision(
                format!("the type name `{}` is taken by the generated code", name.value),
                name.span,
                None,
                "the generated module defines `Tools`, `Dispatcher` and `ContractError` and uses the prelude's `Option`, `Result`, `String`, `Vec`, `Box`, `Send`, `Sync` and `Default`; rename the shared type",
            );
        }
    }
}

/// Whether `schema` refers to the shared type `target`, directly or through others.
fn reaches(types: &[NamedType], schema: &Schema, target: usize, seen: &mut Vec<usize>) -> bool {
    match &schema.kind {
        Kind::Named(i) if *i == target => true,
        Kind::Named(i) => {
            if seen.contains(i) {
                return false;
            }
            seen.push(*i);
            types
                .get(*i)
                .is_some_and(|t| reaches(types, &t.schema, target, seen))
        }
        Kind::Array(items) => reaches(types, items, target, seen),
        Kind::Object(o) => o
            .fields
            .iter()
            .any(|f| reaches(types, &f.schema, target, seen)),
        Kind::Union(u) => u
            .variants
            .iter()
            .any(|v| reaches(types, &v.schema, target, seen)),
        _ => false,
    }
}
