//! The trait impls of every tool's error enum, written once here rather than in each generated
//! module.

/// Implements what a tool's error enum needs, given its variants and their fields, each of
/// which is a variant of the contract's vocabulary (`ContractError`) with the same fields:
///
/// - [`ToolError`](crate::ToolError) through the vocabulary, which renders every code's
///   message and hint in one place;
/// - `Display` (the message) and `Error`;
/// - `TryFrom<Vocabulary>`, keeping the codes the tool declares and handing back any other, and
///   `From<Tool> for Vocabulary`.
///
/// Rendering converts a clone of the error into the vocabulary: an error is rendered once per
/// failed call, and cloning its few strings costs nothing beside building the envelope.
///
/// ```text
/// ::mcp_contract::codegen::tool_error!(ReadFileError narrows ContractError {
///     NotFound { path },
///     Busy,
/// });
/// ```
///
/// A contract without error codes has no vocabulary to narrow, and its tools' enums have no
/// values: `tool_error!(ReadFileError)` implements only `ToolError`, `Display` and `Error`.
///
/// A tool that declares an error naming its argument (`argument: true` in the manifest) holds
/// it in that variant's extra field, marked `[argument]`, as a value of the tool's argument
/// enum, which has `fn name(self) -> &'static str`. The vocabulary holds no argument, so its
/// codes narrow with the argument they concern, `TryFrom<(Vocabulary, Argument)>` (codes
/// that name none ignore it), and widen without it. Every variant is written with braces,
/// which a unit variant takes too (`Busy {}`):
///
/// ```text
/// ::mcp_contract::codegen::tool_error!(MovePathError narrows ContractError naming MovePathArgument {
///     NotFound { path } [argument],
///     Busy {},
/// });
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __codegen_tool_error {
    ($tool:ident) => {
        impl $crate::ToolError for $tool {
            fn code(&self) -> &'static str {
                match *self {}
            }

            fn message(&self) -> ::std::string::String {
                match *self {}
            }

            fn hint(&self) -> ::core::option::Option<::std::string::String> {
                match *self {}
            }
        }

        $crate::__codegen_tool_error!(@display $tool);
    };
    ($tool:ident narrows $vocabulary:ident {
        $($variant:ident $({ $($field:ident),* })?),* $(,)?
    }) => {
        $crate::__codegen_tool_error!(@rendered $tool by $vocabulary {});

        impl ::core::convert::TryFrom<$vocabulary> for $tool {
            type Error = $vocabulary;

            fn try_from(error: $vocabulary) -> ::core::result::Result<Self, $vocabulary> {
                match error {
                    $($vocabulary::$variant $({ $($field),* })? => {
                        ::core::result::Result::Ok(Self::$variant $({ $($field),* })?)
                    })*
                    // Unreachable when the tool declares every code.
                    #[allow(unreachable_patterns)]
                    other => ::core::result::Result::Err(other),
                }
            }
        }

        $crate::__codegen_tool_error!(@widen $tool into $vocabulary {
            $($variant { $($($field),*)? }),*
        });
    };
    ($tool:ident narrows $vocabulary:ident naming $argument:ident {
        $($variant:ident { $($field:ident),* } $([$named:ident])?),* $(,)?
    }) => {
        $crate::__codegen_tool_error!(@rendered $tool by $vocabulary {
            fn argument(&self) -> ::core::option::Option<&'static str> {
                match self {
                    $(Self::$variant { $($named,)? .. } => {
                        $crate::__codegen_tool_error!(@name $($named)?)
                    })*
                }
            }
        });

        impl ::core::convert::TryFrom<($vocabulary, $argument)> for $tool {
            type Error = $vocabulary;

            fn try_from(
                (error, concerned): ($vocabulary, $argument),
            ) -> ::core::result::Result<Self, $vocabulary> {
                // Unused when no code the tool declares names its argument.
                let _ = concerned;
                match error {
                    $($vocabulary::$variant { $($field),* } => {
                        ::core::result::Result::Ok(Self::$variant { $($named: concerned,)? $($field),* })
                    })*
                    // Unreachable when the tool declares every code.
                    #[allow(unreachable_patterns)]
                    other => ::core::result::Result::Err(other),
                }
            }
        }

        $crate::__codegen_tool_error!(@widen $tool into $vocabulary {
            $($variant { $($field),* }),*
        });
    };
    // `ToolError` rendered by the vocabulary, with any further methods, and `Display`, `Error`.
    (@rendered $tool:ident by $vocabulary:ident { $($more:item)* }) => {
        /// Each code is rendered as the contract's vocabulary renders it.
        impl $crate::ToolError for $tool {
            fn code(&self) -> &'static str {
                $crate::ToolError::code(&<$vocabulary>::from(::core::clone::Clone::clone(self)))
            }

            fn message(&self) -> ::std::string::String {
                $crate::ToolError::message(&<$vocabulary>::from(::core::clone::Clone::clone(self)))
            }

            fn hint(&self) -> ::core::option::Option<::std::string::String> {
                $crate::ToolError::hint(&<$vocabulary>::from(::core::clone::Clone::clone(self)))
            }

            $($more)*
        }

        $crate::__codegen_tool_error!(@display $tool);
    };
    // `From<Tool> for Vocabulary`, each variant braced (a unit variant takes `{}` too), any
    // argument left behind.
    (@widen $tool:ident into $vocabulary:ident { $($variant:ident { $($field:ident),* }),* }) => {
        impl ::core::convert::From<$tool> for $vocabulary {
            fn from(error: $tool) -> Self {
                match error {
                    $($tool::$variant { $($field,)* .. } => Self::$variant { $($field),* },)*
                }
            }
        }
    };
    (@name $named:ident) => {
        ::core::option::Option::Some($named.name())
    };
    (@name) => {
        ::core::option::Option::None
    };
    (@display $tool:ident) => {
        impl ::core::fmt::Display for $tool {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&$crate::ToolError::message(self))
            }
        }

        impl ::std::error::Error for $tool {}
    };
}

#[cfg(test)]
mod tests {
    use crate::ToolError;

    /// A vocabulary of three codes, rendered as generated code renders one.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Vocabulary {
        NotFound { path: String },
        Busy,
        Gone,
    }

    impl ToolError for Vocabulary {
        fn code(&self) -> &'static str {
            match self {
                Self::NotFound { .. } => "not_found",
                Self::Busy => "busy",
                Self::Gone => "gone",
            }
        }

        fn message(&self) -> String {
            match self {
                Self::NotFound { path } => format!("Nothing at `{path}`."),
                Self::Busy => "Busy.".into(),
                Self::Gone => "Gone.".into(),
            }
        }

        fn hint(&self) -> Option<String> {
            matches!(self, Self::NotFound { .. }).then(|| "List the parent.".into())
        }
    }

    /// A tool that declares two of them.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Declared {
        NotFound { path: String },
        Busy,
    }

    crate::__codegen_tool_error!(Declared narrows Vocabulary {
        NotFound { path },
        Busy,
    });

    /// A tool's arguments, as generated for one whose errors name them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Argument {
        From,
        To,
    }

    impl Argument {
        fn name(self) -> &'static str {
            match self {
                Self::From => "from",
                Self::To => "to",
            }
        }
    }

    /// A tool whose `not_found` names its argument.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Naming {
        NotFound { argument: Argument, path: String },
        Busy,
    }

    crate::__codegen_tool_error!(Naming narrows Vocabulary naming Argument {
        NotFound { path } [argument],
        Busy {},
    });

    /// A tool of a contract without codes.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Nothing {}

    crate::__codegen_tool_error!(Nothing);

    #[test]
    fn a_tool_error_renders_as_the_vocabulary_does() {
        let error = Declared::NotFound {
            path: "a.txt".into(),
        };
        assert_eq!(error.code(), "not_found");
        assert_eq!(error.message(), "Nothing at `a.txt`.");
        assert_eq!(error.hint().as_deref(), Some("List the parent."));
        assert_eq!(error.to_string(), "Nothing at `a.txt`.");
        assert_eq!(Declared::Busy.hint(), None);
    }

    #[test]
    fn a_tool_error_narrows_the_vocabulary_to_its_codes_and_widens_back() {
        let found = Vocabulary::NotFound { path: "a".into() };
        assert_eq!(
            Declared::try_from(found.clone()),
            Ok(Declared::NotFound { path: "a".into() })
        );
        assert_eq!(Declared::try_from(Vocabulary::Busy), Ok(Declared::Busy));
        assert_eq!(Declared::try_from(Vocabulary::Gone), Err(Vocabulary::Gone));
        assert_eq!(
            Vocabulary::from(Declared::NotFound { path: "a".into() }),
            found
        );
    }

    #[test]
    fn an_error_that_names_its_argument_renders_it_and_narrows_with_it() {
        let found = Vocabulary::NotFound { path: "a".into() };
        let narrowed = Naming::try_from((found.clone(), Argument::To));
        assert_eq!(
            narrowed,
            Ok(Naming::NotFound {
                argument: Argument::To,
                path: "a".into()
            })
        );
        let error = narrowed.expect("narrowed");
        assert_eq!(error.argument(), Some("to"));
        assert_eq!(error.code(), "not_found");
        assert_eq!(error.message(), "Nothing at `a`.");
        assert_eq!(Vocabulary::from(error), found);
        // A code that names no argument ignores it; one the tool does not declare comes back.
        let busy = Naming::try_from((Vocabulary::Busy, Argument::From));
        assert_eq!(busy.as_ref().map(ToolError::argument), Ok(None));
        assert_eq!(
            Naming::try_from((Vocabulary::Gone, Argument::From)),
            Err(Vocabulary::Gone)
        );
        // The envelope carries it as argument errors do.
        let result = crate::call::failure(&Naming::NotFound {
            argument: Argument::From,
            path: "b".into(),
        });
        let envelope = result.structured_content.expect("the envelope");
        assert_eq!(
            envelope["errors"],
            serde_json::json!([{"code": "not_found", "message": "Nothing at `b`.", "argument": "from"}])
        );
    }

    #[test]
    fn a_tool_error_of_a_contract_without_codes_is_still_an_error() {
        fn is_tool_error<E: ToolError + std::error::Error>() {}
        is_tool_error::<Nothing>();
    }
}
