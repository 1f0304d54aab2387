//! What the rules refused, kept per entity in the spirit of dropshot's error store: a rule
//! that refuses a declaration marks it here, and the rules after it skip what they would
//! otherwise report again, so one fault gives one diagnostic.

use std::collections::HashSet;

use super::names::Referent;
use crate::model::{Field, Kind, NamedType, Schema};

/// Declarations refused where they are written.
#[derive(Debug, Default)]
pub(super) struct Refused {
    /// By what they are and their name.
    names: HashSet<(Referent, String)>,
    /// Objects that lost a property to a rule, by their Rust struct's name: what a value of
    /// one holds, or where a pointer into one leads, cannot be judged until it is fixed.
    objects: HashSet<String>,
}

impl Refused {
    /// Marks the declaration of `name` refused; it has been reported.
    pub(super) fn refuse(&mut self, referent: Referent, name: &str) {
        self.names.insert((referent, name.to_owned()));
    }

    /// Whether the declaration of `name` was refused, so a use of it says nothing more.
    pub(super) fn contains(&self, referent: Referent, name: &str) -> bool {
        self.names.contains(&(referent, name.to_owned()))
    }

    /// Marks the object whose struct is `rust_name` as missing a refused property.
    pub(super) fn refuse_object(&mut self, rust_name: &str) {
        self.objects.insert(rust_name.to_owned());
    }

    /// Whether `schema` holds anything refused: a shared type that could not be built or
    /// contains itself, or an object missing a property.
    pub(super) fn within(&self, types: &[NamedType], schema: &Schema) -> bool {
        self.schema_within(types, schema, &mut Vec::new())
    }

    /// Whether the object whose struct is `rust_name`, of `fields`, holds anything refused.
    pub(super) fn within_object(
        &self,
        types: &[NamedType],
        rust_name: &str,
        fields: &[Field],
    ) -> bool {
        self.objects.contains(rust_name) || fields.iter().any(|f| self.within(types, &f.schema))
    }

    fn schema_within(&self, types: &[NamedType], schema: &Schema, seen: &mut Vec<usize>) -> bool {
        match &schema.kind {
            Kind::Named(i) => {
                let Some(t) = types.get(*i) else { return false };
                if self.contains(Referent::Type, &t.name) {
                    return true;
                }
                // A type met twice was judged the first time.
                if seen.contains(i) {
                    return false;
                }
                seen.push(*i);
                self.schema_within(types, &t.schema, seen)
            }
            Kind::Array(items) => self.schema_within(types, items, seen),
            Kind::Object(o) => {
                self.objects.contains(&o.rust_name)
                    || o.fields
                        .iter()
                        .any(|f| self.schema_within(types, &f.schema, seen))
            }
            Kind::Union(u) => {
                self.objects.contains(&u.rust_name)
                    || u.variants
                        .iter()
                        .any(|v| self.schema_within(types, &v.schema, seen))
            }
            Kind::String
            | Kind::Integer
            | Kind::Number
            | Kind::Boolean
            | Kind::Json
            | Kind::Document(_)
            | Kind::Enum(_) => false,
        }
    }
}
