//! The `format`s JSON Schema 2020-12 defines: the closed list a manifest's `format:` takes,
//! which the generator publishes and the runtime checks.

macro_rules! formats {
    ($($variant:ident = $name:literal,)*) => {
        /// A format defined by JSON Schema 2020-12.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Format {
            /// Every format, in the order help text lists them.
            pub const ALL: &[Format] = &[$(Format::$variant),*];

            /// The name written in `format:`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                }
            }

            /// The format named `name`, if JSON Schema defines one.
            pub fn parse(name: &str) -> Option<Format> {
                match name {
                    $($name => Some(Format::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

formats! {
    DateTime = "date-time",
    Date = "date",
    Time = "time",
    Duration = "duration",
    Email = "email",
    IdnEmail = "idn-email",
    Hostname = "hostname",
    IdnHostname = "idn-hostname",
    Ipv4 = "ipv4",
    Ipv6 = "ipv6",
    Uri = "uri",
    UriReference = "uri-reference",
    Iri = "iri",
    IriReference = "iri-reference",
    Uuid = "uuid",
    UriTemplate = "uri-template",
    JsonPointer = "json-pointer",
    RelativeJsonPointer = "relative-json-pointer",
    Regex = "regex",
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn each_format_is_parsed_from_its_own_name() {
        for &f in Format::ALL {
            assert_eq!(Format::parse(f.as_str()), Some(f));
        }
        assert_eq!(Format::parse("datetime"), None);
    }
}
