//! Rules about what a definition costs in bytes and tokens.

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[];
