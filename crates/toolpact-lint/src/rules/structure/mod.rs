//! Rules about the MCP specification and JSON Schema.

pub mod duplicate_name;
pub mod input_not_object;
pub mod invalid_name;
pub mod schema_does_not_compile;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &invalid_name::InvalidName,
    &duplicate_name::DuplicateName,
    &input_not_object::InputNotObject,
    &schema_does_not_compile::SchemaDoesNotCompile,
];
