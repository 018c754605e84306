//! Tool calls in every provider's shape, read into one neutral [`ToolCall`].
//!
//! A call whose arguments are not a JSON object (a Chat `arguments` string that does not
//! parse, say) is still a call: it keeps its id and name, so the model gets an error result
//! it can act on. Nothing becomes `{}` by accident.

pub use crate::exchange::call::{CallError, ToolCall};
use crate::json::json_type;
use crate::provider::Target;
use crate::provider::table::provider;
use serde_json::{Map, Value};

/// Reads one call, detecting its shape (or using `format` when given). `pointer` names the
/// call's place in a larger document for error messages.
pub fn parse_call(
    value: &Value,
    format: Option<Target>,
    pointer: &str,
) -> Result<ToolCall, CallError> {
    let Some(obj) = value.as_object() else {
        return Err(CallError::not_a_call(
            pointer,
            format!("a tool call is a JSON object, found {}", json_type(value)),
        ));
    };
    let format = match format.or_else(|| detect(obj)) {
        Some(f) => f,
        None => {
            return Err(CallError::not_a_call(
                pointer,
                "not a tool call in any shape toolpact reads: an OpenAI Responses `function_call` item, a Chat `tool_calls` \
                 entry, an Anthropic `tool_use` block, a Gemini `functionCall` part, or MCP `tools/call` params",
            ));
        }
    };
    provider(format.input_format()).parse_call(obj, pointer)
}

fn detect(obj: &Map<String, Value>) -> Option<Target> {
    match obj.get("type").and_then(Value::as_str) {
        Some("function_call") => return Some(Target::OpenAiResponses),
        Some("tool_use") => return Some(Target::Anthropic),
        _ => {}
    }
    if obj.get("function").is_some_and(Value::is_object) {
        Some(Target::OpenAiChat)
    } else if obj.contains_key("functionCall")
        || obj.contains_key("function_call")
        || obj.contains_key("args")
    {
        Some(Target::Gemini)
    } else if obj.get("method").and_then(Value::as_str) == Some("tools/call")
        || (obj.contains_key("name") && !obj.contains_key("type"))
    {
        Some(Target::Mcp)
    } else {
        None
    }
}

/// Reads every call in a document: one call, a JSON array of calls, JSON lines (one call per
/// line), or a message that holds calls (a Chat assistant message with `tool_calls`, an
/// Anthropic message with `tool_use` blocks, a Gemini content with `functionCall` parts, a
/// Responses `output` array).
pub fn parse_calls(text: &str, format: Option<Target>) -> Result<Vec<ToolCall>, CallError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(CallError::not_a_call(
            "",
            "the input is empty; expected a tool call as JSON",
        ));
    }
    let first_error = match serde_json::from_str::<Value>(trimmed) {
        Ok(doc) => return calls_in(&doc, format, ""),
        Err(e) => e,
    };
    // Not one document: JSON lines, if the first line stands on its own; otherwise the
    // document is broken where the parser says.
    let first_line_is_json = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| serde_json::from_str::<Value>(l).is_ok());
    if !first_line_is_json {
        return Err(json_error(&first_error, 0));
    }
    let mut calls = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| json_error(&e, i))?;
        calls.extend(calls_in(&value, format, &format!("line {}", i + 1))?);
    }
    Ok(calls)
}

/// A parse error, with the line counted from `line_offset` (for JSON lines).
fn json_error(e: &serde_json::Error, line_offset: usize) -> CallError {
    let text = e.to_string();
    CallError::Json {
        line: e.line().max(1) + line_offset,
        column: e.column().max(1),
        message: text
            .rsplit_once(" at line ")
            .map_or(text.clone(), |(m, _)| m.to_owned()),
    }
}

fn calls_in(
    doc: &Value,
    format: Option<Target>,
    pointer: &str,
) -> Result<Vec<ToolCall>, CallError> {
    let at = |key: &str, i: usize| format!("{pointer}/{key}/{i}");
    match doc {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| parse_call(item, format, &format!("{pointer}/{i}")))
            .collect(),
        Value::Object(obj) => {
            if let Some(Value::Array(calls)) = obj.get("tool_calls") {
                return calls
                    .iter()
                    .enumerate()
                    .map(|(i, c)| parse_call(c, Some(Target::OpenAiChat), &at("tool_calls", i)))
                    .collect();
            }
            if let Some(Value::Array(blocks)) =
                obj.get("content").filter(|_| obj.contains_key("role"))
            {
                return blocks
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                    .map(|(i, b)| parse_call(b, Some(Target::Anthropic), &at("content", i)))
                    .collect();
            }
            if let Some(Value::Array(parts)) = obj.get("parts") {
                return parts
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        p.get("functionCall").is_some() || p.get("function_call").is_some()
                    })
                    .map(|(i, p)| parse_call(p, Some(Target::Gemini), &at("parts", i)))
                    .collect();
            }
            if let Some(Value::Array(items)) = obj.get("output") {
                return items
                    .iter()
                    .enumerate()
                    .filter(|(_, item)| {
                        item.get("type").and_then(Value::as_str) == Some("function_call")
                    })
                    .map(|(i, item)| {
                        parse_call(item, Some(Target::OpenAiResponses), &at("output", i))
                    })
                    .collect();
            }
            parse_call(doc, format, pointer).map(|c| vec![c])
        }
        other => Err(CallError::not_a_call(
            pointer,
            format!("a tool call is a JSON object, found {}", json_type(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_shape_reads_into_one_call() {
        let shapes = [
            (
                json!({"type": "function_call", "call_id": "call_1", "name": "get_forecast", "arguments": "{\"city\":\"Lisbon\"}"}),
                Target::OpenAiResponses,
            ),
            (
                json!({"id": "call_1", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\":\"Lisbon\"}"}}),
                Target::OpenAiChat,
            ),
            (
                json!({"type": "tool_use", "id": "call_1", "name": "get_forecast", "input": {"city": "Lisbon"}}),
                Target::Anthropic,
            ),
            (
                json!({"functionCall": {"id": "call_1", "name": "get_forecast", "args": {"city": "Lisbon"}}}),
                Target::Gemini,
            ),
            (
                json!({"name": "get_forecast", "arguments": {"city": "Lisbon"}}),
                Target::Mcp,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_forecast", "arguments": {"city": "Lisbon"}}}),
                Target::Mcp,
            ),
        ];
        for (value, format) in shapes {
            let call = parse_call(&value, None, "").unwrap();
            assert_eq!(call.format, format, "{value}");
            assert_eq!(call.name, "get_forecast");
            assert_eq!(call.arguments, Ok(json!({"city": "Lisbon"})));
            if format != Target::Mcp {
                assert_eq!(call.id.as_deref(), Some("call_1"));
            }
        }
    }

    #[test]
    fn malformed_argument_strings_are_errors_never_empty_objects() {
        let value = json!({"id": "call_9", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\": \"Lisbon\""}});
        let call = parse_call(&value, None, "").unwrap();
        assert_eq!(call.id.as_deref(), Some("call_9"));
        let err = call.arguments.unwrap_err();
        assert!(
            err.starts_with("the arguments are not valid JSON (EOF while parsing an object"),
            "{err}"
        );
        let call = parse_call(
            &json!({"type": "function_call", "call_id": "c", "name": "x", "arguments": "[1]"}),
            None,
            "",
        )
        .unwrap();
        assert!(call.arguments.unwrap_err().contains("not an array"));
        let call = parse_call(
            &json!({"type": "function_call", "call_id": "c", "name": "x", "arguments": ""}),
            None,
            "",
        )
        .unwrap();
        assert!(call.arguments.is_err());
    }

    #[test]
    fn messages_and_json_lines_hold_several_calls() {
        let chat = json!({"role": "assistant", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "x", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "y", "arguments": "{}"}}
        ]});
        assert_eq!(parse_calls(&chat.to_string(), None).unwrap().len(), 2);
        let lines = "{\"name\": \"x\", \"arguments\": {}}\n\n{\"name\": \"y\"}\n";
        let calls = parse_calls(lines, None).unwrap();
        assert_eq!(
            calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["x", "y"]
        );
        assert_eq!(calls[1].arguments, Ok(json!({})));
        assert!(matches!(
            parse_calls("{\"name\": ", None),
            Err(CallError::Json { .. })
        ));
        assert!(matches!(
            parse_calls("[1]", None),
            Err(CallError::NotACall { .. })
        ));
    }
}
