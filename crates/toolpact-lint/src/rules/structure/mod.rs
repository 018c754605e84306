//! Rules about the MCP specification and JSON Schema.

pub mod duplicate_name;
pub mod input_not_object;
pub mod invalid_name;
pub mod schema_does_not_compile;
