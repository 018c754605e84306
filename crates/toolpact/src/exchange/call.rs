//! One tool call in neutral form, as every provider's call reader makes it, and why a value
//! is not a call.

use crate::json::json_type;
use crate::provider::Target;
use serde::Serialize;
use serde_json::{Map, Value};

/// One tool call, as the model proposed it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The shape it arrived in; results go back in the same provider's shape.
    pub format: Target,
    /// The provider's call id (`call_…`, `toolu_…`, Gemini's optional id), echoed in the result.
    pub id: Option<String>,
    /// The tool name as the model sent it (possibly a name rewritten at export).
    pub name: String,
    /// The arguments, or why they are not a JSON object.
    pub arguments: Result<Value, String>,
}

/// Why a value is not a tool call at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The text is not JSON.
    #[error("{line}:{column}: not valid JSON: {message}")]
    Json {
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// What the parser found.
        message: String,
    },
    /// Valid JSON, but not a call in any shape toolpact reads.
    #[error("{pointer}: {message}")]
    NotACall {
        /// Where, in the document.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

impl CallError {
    pub(crate) fn not_a_call(pointer: &str, message: impl Into<String>) -> Self {
        CallError::NotACall {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

/// Reads arguments sent as a JSON string (OpenAI): malformed JSON or a non-object is an
/// error the model can read, never an empty object.
pub(crate) fn arguments_from_string(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => arguments_from_value(value),
        Err(e) => Err(format!(
            "the arguments are not valid JSON ({e}); send the arguments as one JSON object"
        )),
    }
}

/// Arguments must be a JSON object.
pub(crate) fn arguments_from_value(value: Value) -> Result<Value, String> {
    if value.is_object() {
        Ok(value)
    } else {
        Err(format!(
            "the arguments must be a JSON object with one key per parameter, not {} {}",
            if json_type(&value) == "array" || json_type(&value) == "integer" {
                "an"
            } else {
                "a"
            },
            json_type(&value)
        ))
    }
}

pub(crate) fn string_field(
    obj: &Map<String, Value>,
    key: &str,
    pointer: &str,
) -> Result<String, CallError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(CallError::not_a_call(
            pointer,
            format!("`{key}` must be a string, found {}", json_type(other)),
        )),
        None => Err(CallError::not_a_call(
            pointer,
            format!("the call has no `{key}`"),
        )),
    }
}
