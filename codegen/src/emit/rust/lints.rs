//! The clippy lints a manifest's names and shapes can lead generated code into, and the allow
//! each needs: only on the item the lint would flag, never across the board.

use super::*;

/// The allows an enum needs for its variant names, plus, for an error enum, its variant sizes.
pub(super) fn error_enum(name: &str, defs: &[&ErrorDef]) -> Vec<&'static str> {
    let variants: Vec<&str> = defs.iter().map(|e| e.variant.as_str()).collect();
    let names = variant_names(name, &variants);
    // clippy's large_enum_variant fires when the largest variant is more than 200 bytes larger
    // than the next: nine more `String`s on a 64-bit target. A code with that many placeholders
    // is as large as it is; boxing would only make the enum harder to build and match.
    let mut sizes: Vec<usize> = defs.iter().map(|e| variant_size(e)).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let large = match sizes.as_slice() {
        // A word under the threshold, so that a field's padding never tips it.
        [largest, next, ..] => largest - next > 192,
        _ => false,
    };
    let large = large.then_some("clippy::large_enum_variant");
    names.into_iter().chain(large).collect()
}

/// The bytes of a variant's fields on a 64-bit target, rounded up to a word (Rust orders
/// fields so that only the end is padded).
fn variant_size(e: &ErrorDef) -> usize {
    let bytes: usize = e
        .fields
        .iter()
        .map(|f| match f.ty {
            PlaceholderType::String => 24,
            PlaceholderType::Number => 8,
            PlaceholderType::Boolean => 1,
            PlaceholderType::Integer(ty) => ty.bytes(),
        })
        .sum();
    bytes.div_ceil(8) * 8
}

/// `#[allow(clippy::enum_variant_names)]` where clippy would flag the names: three or more
/// variants that all begin, or all end, with the same word (`FileNotFound`, `DirNotFound`,
/// `UserNotFound`, from codes or values the manifest chose), or a variant that begins or ends
/// with the enum's own name. It is checked wherever the enum is not exported, so a server that
/// includes the contract in a private module meets it. Erring towards the allow costs nothing.
pub(super) fn variant_names(name: &str, variants: &[&str]) -> Option<&'static str> {
    let words: Vec<Vec<&str>> = variants.iter().map(|v| camel_words(v)).collect();
    let firsts: Vec<&str> = words.iter().map(|w| w[0]).collect();
    let lasts: Vec<&str> = words.iter().map(|w| w[w.len() - 1]).collect();
    let alike = |words: &[&str]| words.windows(2).all(|pair| pair[0] == pair[1]);
    let repeated = variants.len() >= 3 && (alike(&firsts) || alike(&lasts));
    let named = variants
        .iter()
        .any(|v| v.starts_with(name) || v.ends_with(name));
    (repeated || named).then_some("clippy::enum_variant_names")
}

/// `#[allow(clippy::wrong_self_convention)]` on the handler trait when a method's name asks
/// for another receiver: handlers take `&self` whatever the tool is called (`into_parts`,
/// `from_url`, `to_text`, or a resource `into`, whose method is `into_resource`).
pub(super) fn self_convention(methods: &[&str]) -> Option<&'static str> {
    methods
        .iter()
        .map(|m| m.trim_start_matches("r#"))
        .any(|m| ["into_", "from_", "to_"].iter().any(|p| m.starts_with(p)))
        .then_some("clippy::wrong_self_convention")
}

/// `#[allow(clippy::type_complexity)]` for a struct with a field of arrays nested four deep
/// (`Option<Vec<Vec<Vec<Vec<i64>>>>>`), which clippy counts as very complex; the manifest's
/// shape is the type's.
pub(super) fn nested_arrays(c: &Contract, fields: &[Field]) -> Option<&'static str> {
    fields
        .iter()
        .any(|f| array_depth(c, &f.schema) >= 4)
        .then_some("clippy::type_complexity")
}

/// How many arrays are nested in a schema's Rust type (`Vec<Vec<f64>>` is 2).
fn array_depth(c: &Contract, schema: &Schema) -> usize {
    match &schema.kind {
        Kind::Array(items) => 1 + array_depth(c, items),
        Kind::Named(i) => array_depth(c, &c.types[*i].schema),
        _ => 0,
    }
}

/// A PascalCase name's words as clippy splits them: `NotFound` is `Not`, `Found`. Never empty.
fn camel_words(name: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = 0;
    for (i, c) in name.char_indices().skip(1) {
        if c.is_uppercase() {
            words.push(&name[start..i]);
            start = i;
        }
    }
    words.push(&name[start..]);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(name: &str, variants: &[&str]) -> bool {
        variant_names(name, variants).is_some()
    }

    #[test]
    fn variants_sharing_a_first_or_last_word_are_allowed_from_three_on() {
        assert!(flagged(
            "E",
            &["FileNotFound", "DirNotFound", "UserNotFound"]
        ));
        assert!(flagged("E", &["NoFile", "NoDir", "NoUser"]));
        assert!(!flagged("E", &["FileNotFound", "DirNotFound"]));
        assert!(!flagged("E", &["FileNotFound", "DirNotFound", "Busy"]));
        assert!(!flagged("E", &["Peek1", "Peek2", "Peek3"]));
    }

    #[test]
    fn a_variant_repeating_the_enum_name_is_allowed() {
        assert!(flagged("Mode", &["ModeFast", "Slow"]));
        assert!(flagged("Mode", &["Fast", "SlowMode"]));
        assert!(!flagged("Mode", &["Fast", "Slow"]));
    }

    /// An error code with `fields` placeholders.
    fn code(variant: &str, fields: usize) -> ErrorDef {
        ErrorDef {
            code: variant.to_lowercase(),
            variant: variant.into(),
            message: Template {
                source: String::new(),
                parts: Vec::new(),
            },
            hint: None,
            fields: (0..fields)
                .map(|i| TemplateField {
                    name: format!("f{i}"),
                    ty: PlaceholderType::String,
                })
                .collect(),
            names_argument: false,
        }
    }

    fn large(fields: &[usize]) -> bool {
        let defs: Vec<ErrorDef> = fields
            .iter()
            .enumerate()
            .map(|(i, &n)| code(&format!("Code{i}"), n))
            .collect();
        let refs: Vec<&ErrorDef> = defs.iter().collect();
        error_enum("E", &refs).contains(&"clippy::large_enum_variant")
    }

    /// clippy's threshold, 200 bytes, is more than eight `String`s (192) and less than nine.
    #[test]
    fn a_variant_nine_strings_larger_than_the_next_is_allowed() {
        assert!(large(&[9, 0]));
        assert!(large(&[0, 12, 2]));
        assert!(!large(&[8, 0]));
        assert!(!large(&[9, 1]));
        assert!(!large(&[20]));
    }

    #[test]
    fn words_split_before_capitals() {
        assert_eq!(camel_words("NotFound"), ["Not", "Found"]);
        assert_eq!(camel_words("V1"), ["V1"]);
        assert_eq!(camel_words("Self_"), ["Self_"]);
    }
}
