//! Rules about what a definition costs in bytes and tokens.

pub mod catalog_tokens;
pub mod tool_too_large;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &tool_too_large::ToolTooLarge,
    &catalog_tokens::CatalogTokens,
];
