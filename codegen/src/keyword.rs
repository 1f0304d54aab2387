//! The constraint keywords of the schema vocabulary, in one table: what each is called, what
//! it is written as, which types it applies to and which way it tightens. The decoder reads
//! them, the validator judges them, the wire schema publishes them, the docs list them and
//! the diff classifies their changes, all from [`KEYWORDS`]; the editor schema is held to it
//! by a test. (The closed list of `format`s is the spec crate's [`Format`].)

pub(crate) use mcp_contract_spec::Format;
use serde_json::{Number, Value};

/// A constraint keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Keyword {
    MinLength,
    MaxLength,
    Pattern,
    Format,
    Minimum,
    Maximum,
    MinItems,
    MaxItems,
}

/// What a keyword's value is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operand {
    /// A whole number of 0 or more.
    Count,
    /// Any number, kept as JSON so integers stay integers on the wire.
    Number,
    /// Text.
    Text,
}

/// Which way a keyword tightens what a schema accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// A lower bound: it tightens as it grows, and may not exceed its upper bound.
    Lower(Keyword),
    /// An upper bound: it tightens as it shrinks.
    Upper,
    /// Neither: whether one value accepts more than another is undecidable in general, so
    /// any new or changed value tightens and only a removal loosens.
    Other,
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct Def {
    /// The keyword.
    pub keyword: Keyword,
    /// Its name in the manifest and in JSON Schema.
    pub name: &'static str,
    /// What it is written as.
    pub operand: Operand,
    /// The `type:`s it applies to.
    pub applies_to: &'static [&'static str],
    /// Which way it tightens.
    pub bound: Bound,
}

/// Every constraint keyword, in the order schemas publish them.
pub(crate) const KEYWORDS: [Def; 8] = [
    Def {
        keyword: Keyword::MinLength,
        name: "minLength",
        operand: Operand::Count,
        applies_to: &["string"],
        bound: Bound::Lower(Keyword::MaxLength),
    },
    Def {
        keyword: Keyword::MaxLength,
        name: "maxLength",
        operand: Operand::Count,
        applies_to: &["string"],
        bound: Bound::Upper,
    },
    Def {
        keyword: Keyword::Pattern,
        name: "pattern",
        operand: Operand::Text,
        applies_to: &["string"],
        bound: Bound::Other,
    },
    Def {
        keyword: Keyword::Format,
        name: "format",
        operand: Operand::Text,
        applies_to: &["string"],
        bound: Bound::Other,
    },
    Def {
        keyword: Keyword::Minimum,
        name: "minimum",
        operand: Operand::Number,
        applies_to: &["integer", "number"],
        bound: Bound::Lower(Keyword::Maximum),
    },
    Def {
        keyword: Keyword::Maximum,
        name: "maximum",
        operand: Operand::Number,
        applies_to: &["integer", "number"],
        bound: Bound::Upper,
    },
    Def {
        keyword: Keyword::MinItems,
        name: "minItems",
        operand: Operand::Count,
        applies_to: &["array"],
        bound: Bound::Lower(Keyword::MaxItems),
    },
    Def {
        keyword: Keyword::MaxItems,
        name: "maxItems",
        operand: Operand::Count,
        applies_to: &["array"],
        bound: Bound::Upper,
    },
];

impl Keyword {
    /// Its row of [`KEYWORDS`].
    pub(crate) fn def(self) -> &'static Def {
        // The table is in declaration order, which a test holds.
        &KEYWORDS[self as usize]
    }

    /// Its name in the manifest and in JSON Schema.
    pub(crate) fn name(self) -> &'static str {
        self.def().name
    }
}

/// A keyword's value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Limit {
    /// A whole number of 0 or more.
    Count(u64),
    /// Any number.
    Number(Number),
    /// Text as written: a `pattern`, or a `format` before it is known to be one.
    Text(String),
    /// A `format` from the closed list.
    Format(Format),
}

impl Limit {
    /// The value as a number, for bounds.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Limit::Count(n) => Some(*n as f64),
            Limit::Number(n) => n.as_f64(),
            Limit::Text(_) | Limit::Format(_) => None,
        }
    }

    /// The value as JSON Schema publishes it.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Limit::Count(n) => (*n).into(),
            Limit::Number(n) => Value::Number(n.clone()),
            Limit::Text(t) => t.clone().into(),
            Limit::Format(f) => f.as_str().into(),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Count(n) => write!(f, "{n}"),
            Limit::Number(n) => write!(f, "{n}"),
            Limit::Text(t) => f.write_str(t),
            Limit::Format(format) => f.write_str(format.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_keyword_is_its_own_row_and_each_lower_bound_pairs_an_upper_one() {
        for (i, def) in KEYWORDS.iter().enumerate() {
            assert_eq!(def.keyword as usize, i, "`{}` is out of place", def.name);
            if let Bound::Lower(upper) = def.bound {
                assert_eq!(upper.def().bound, Bound::Upper, "`{}`", def.name);
                assert_eq!(upper.def().applies_to, def.applies_to, "`{}`", def.name);
            }
        }
    }
}
