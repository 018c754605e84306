//! The bottom layer. Names of higher modules appear here only where they are not code.

/// Not `crate::registry::Registry`: a comment is not a dependency.
pub struct Data;

/* A block comment /* nested */ naming crate::handler::Handler. */
pub const NOTE: &str = "crate::registry::Registry in a string";
pub const RAW: &[u8] = br#"crate::registry::Registry in a "raw" byte string"#;
pub const QUOTE: char = '"';

#[cfg(test)]
mod tests;

#[cfg(test)]
mod inline_tests {
    use crate::registry::Registry;
}
