//! The regular expressions of `pattern`: the generator refuses one this engine cannot
//! compile, so the runtime, which checks arguments with it, never meets one.

/// `pattern` compiled as the runtime matches it: unanchored, [`regex_lite`]'s syntax.
///
/// # Errors
///
/// The engine's reason when `pattern` does not compile.
pub fn compile(pattern: &str) -> Result<regex_lite::Regex, regex_lite::Error> {
    regex_lite::Regex::new(pattern)
}
