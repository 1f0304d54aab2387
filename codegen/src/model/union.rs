//! Tagged unions (`one_of`): objects told apart by the string a tag property holds, published
//! as `oneOf` with the tag a `const` in each variant, and generated as a Rust enum with data.

use super::Schema;
use crate::source::Span;

/// A tagged union and its Rust enum.
#[derive(Debug, Clone)]
pub(crate) struct UnionDef {
    /// The Rust enum's name.
    pub rust_name: String,
    /// The property whose value names the variant.
    pub tag: String,
    /// The variants, in manifest order, never none.
    pub variants: Vec<VariantDef>,
}

/// One variant of a [`UnionDef`].
#[derive(Debug, Clone)]
pub(crate) struct VariantDef {
    /// The tag's value, published as its `const`.
    pub value: String,
    /// The Rust variant's name.
    pub ident: String,
    /// Its object: [`Kind::Object`](super::Kind::Object), whose struct the variant holds, or
    /// [`Kind::Named`](super::Kind::Named) for a shared object type. Its fields never include
    /// the tag.
    pub schema: Schema,
    /// Where its tag value is written, for `diff`.
    #[cfg_attr(not(feature = "diff"), allow(dead_code))] // read by `diff` only
    pub span: Span,
}

impl UnionDef {
    /// The variant whose tag value `value` holds, when one does.
    pub(crate) fn variant(&self, value: &serde_json::Value) -> Option<&VariantDef> {
        let tag = value.get(&self.tag)?.as_str()?;
        self.variants.iter().find(|v| v.value == tag)
    }
}
