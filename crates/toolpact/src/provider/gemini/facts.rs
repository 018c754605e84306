//! Gemini as data: the names, naming rule and limits of its two targets, which read and
//! write the same declarations and differ only in how the schema is sent.

use crate::name;
use crate::provider::facts::{Facts, Limits};

/// Function declarations in one request (`Tool.function_declarations`,
/// `docs/providers.md#gemini-function-declaration-count`).
const LIMITS: Limits = Limits {
    description: None,
    tools: Some(512),
    strict: None,
};

/// Gemini declarations with an OpenAPI-subset `parameters`.
pub(crate) const PARAMETERS: Facts = Facts {
    name: "gemini",
    vendor: "Gemini",
    name_rule: name::GEMINI,
    input_schema_at: "/parameters",
    limits: LIMITS,
    arguments_as_text: false,
    calls_without_ids: true,
    thought_signatures: true,
};

/// Gemini declarations with a JSON Schema `parametersJsonSchema`.
pub(crate) const JSON: Facts = Facts {
    name: "gemini-json",
    vendor: "Gemini",
    name_rule: name::GEMINI,
    input_schema_at: "/parametersJsonSchema",
    limits: LIMITS,
    arguments_as_text: false,
    calls_without_ids: true,
    thought_signatures: true,
};
