//! OpenAI: Responses API function tools and Chat Completions function tools, with the strict
//! subset of JSON Schema that `strict: true` requires (provider-rules §2).

use super::{ExportOptions, drop_unplaced, object, require_object_root};
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::lower::{Keyword, Lowerer, Profile, Refs, is_metadata};
use crate::schema::{MAX_DEPTH, child_pointer};
use crate::tool::Tool;
use serde_json::{Map, Value, json};

/// String formats OpenAI structured outputs accept (`uri` is not among them).
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

fn strict_keyword(key: &str, value: &Value) -> Keyword {
    match key {
        "type" | "description" | "title" | "required" | "enum" | "const" | "pattern"
        | "multipleOf" | "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum"
        | "minItems" | "maxItems" => Keyword::Keep,
        "format" if value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)) => Keyword::Keep,
        k if is_metadata(k) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

/// OpenAI structured outputs: every object closed, every property required (optional ones
/// nullable), `anyOf` not `oneOf`, no `allOf`, `$ref` only without siblings, recursion allowed.
pub(crate) const STRICT: Profile = Profile {
    label: "OpenAI strict mode",
    refs: Refs::InlineWithSiblings,
    allow_recursion: true,
    one_of_to_any_of: true,
    merge_all_of: true,
    close_objects: true,
    require_all: true,
    openapi: false,
    keyword: strict_keyword,
};

fn parameters(
    tool: &Tool,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Value, Unrepresentable> {
    require_object_root(tool, "OpenAI", log)?;
    if options.strict {
        return Lowerer::new(&STRICT, &tool.input_schema, log).lower("/inputSchema");
    }
    let mut schema = tool.input_schema.clone();
    add_missing_items(&mut schema, "/inputSchema", log, 0);
    Ok(schema)
}

/// OpenAI rejects an array schema without `items` ("array schema missing items"); an empty
/// `items` keeps the meaning (any item) and is accepted.
fn add_missing_items(schema: &mut Value, ptr: &str, log: &mut LossLog<'_>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(map) = schema else { return };
    if map.get("type").and_then(Value::as_str) == Some("array") && !map.contains_key("items") {
        map.insert("items".to_owned(), json!({}));
        log.push(
            &child_pointer(ptr, "items"),
            LossKind::Rewritten,
            "OpenAI rejects an array schema without `items`; `\"items\": {}` (any item) is added",
        );
    }
    for (key, value) in map.iter_mut() {
        let kp = child_pointer(ptr, key);
        match key.as_str() {
            k if crate::schema::MAP_KEYWORDS.contains(&k) => {
                if let Value::Object(children) = value {
                    for (name, child) in children.iter_mut() {
                        add_missing_items(child, &child_pointer(&kp, name), log, depth + 1);
                    }
                }
            }
            k if crate::schema::ARRAY_KEYWORDS.contains(&k)
                || (k == "items" && value.is_array()) =>
            {
                if let Value::Array(children) = value {
                    for (i, child) in children.iter_mut().enumerate() {
                        add_missing_items(
                            child,
                            &child_pointer(&kp, &i.to_string()),
                            log,
                            depth + 1,
                        );
                    }
                }
            }
            k if crate::schema::SINGLE_KEYWORDS.contains(&k) => {
                add_missing_items(value, &kp, log, depth + 1);
            }
            _ => {}
        }
    }
}

/// A Responses API function tool: `{"type": "function", "name", "description", "parameters",
/// "strict", "output_schema"}`.
pub(crate) fn lower_responses(
    tool: &Tool,
    name: &str,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Value, Unrepresentable> {
    let parameters = parameters(tool, options, log)?;
    drop_unplaced(tool, "the OpenAI Responses API", true, log);
    Ok(object([
        ("type", Some(json!("function"))),
        ("name", Some(json!(name))),
        ("description", tool.description.clone().map(Value::String)),
        ("parameters", Some(parameters)),
        ("strict", Some(Value::Bool(options.strict))),
        ("output_schema", tool.output_schema.clone()),
    ]))
}

/// A Chat Completions function tool: `{"type": "function", "function": {...}}`.
pub(crate) fn lower_chat(
    tool: &Tool,
    name: &str,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Value, Unrepresentable> {
    let parameters = parameters(tool, options, log)?;
    drop_unplaced(tool, "OpenAI Chat Completions", false, log);
    let function = object([
        ("name", Some(json!(name))),
        ("description", tool.description.clone().map(Value::String)),
        ("parameters", Some(parameters)),
        ("strict", options.strict.then_some(Value::Bool(true))),
    ]);
    Ok(object([
        ("type", Some(json!("function"))),
        ("function", Some(function)),
    ]))
}

/// Reads a Responses function tool or a Chat function tool (the `function` object is
/// unwrapped by the caller). Provider-only fields are returned as notes.
pub(crate) fn import(item: &Map<String, Value>, fields: &[&str]) -> super::ImportedTool {
    let mut notes = Vec::new();
    for (key, value) in item {
        if fields.contains(&key.as_str()) {
            continue;
        }
        if key == "strict" {
            if value == &Value::Bool(true) {
                notes.push((
                    "/strict".to_owned(),
                    "`strict: true` is a request setting, not part of the contract; export with --strict to keep it".to_owned(),
                ));
            }
            continue;
        }
        notes.push((
            child_pointer("", key),
            format!("the OpenAI field `{key}` has no place in the contract"),
        ));
    }
    let tool = Tool {
        name: super::string_field(item, "name")?,
        title: None,
        description: super::optional_string(item, "description")?,
        input_schema: match item.get("parameters") {
            None | Some(Value::Null) => json!({ "type": "object" }),
            Some(schema) => schema.clone(),
        },
        output_schema: item.get("output_schema").filter(|v| !v.is_null()).cloned(),
        annotations: None,
        icons: None,
        meta: None,
        extra: Map::new(),
    };
    Ok((tool, notes))
}

/// Reads a Responses `function_call` output item: `arguments` is a JSON string.
pub(crate) fn parse_call_responses(
    item: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::call::ToolCall, crate::call::CallError> {
    use crate::call::{arguments_from_string, arguments_from_value, string_field};
    let name = string_field(item, "name", pointer)?;
    let id = string_field(item, "call_id", pointer)?;
    let arguments = match item.get("arguments") {
        Some(Value::String(text)) => arguments_from_string(text),
        Some(other) => arguments_from_value(other.clone()),
        None => Err("the call has no `arguments`".to_owned()),
    };
    Ok(crate::call::ToolCall {
        format: crate::catalog::Format::OpenAiResponses,
        id: Some(id),
        name,
        arguments,
    })
}

/// Reads a Chat Completions `tool_calls` entry: `function.arguments` is a JSON string.
pub(crate) fn parse_call_chat(
    item: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::call::ToolCall, crate::call::CallError> {
    use crate::call::{CallError, arguments_from_string, arguments_from_value, string_field};
    let Some(Value::Object(function)) = item.get("function") else {
        return Err(CallError::not_a_call(
            pointer,
            "a Chat tool call needs a `function` object",
        ));
    };
    let name = string_field(function, "name", &format!("{pointer}/function"))?;
    let id = string_field(item, "id", pointer)?;
    let arguments = match function.get("arguments") {
        Some(Value::String(text)) => arguments_from_string(text),
        Some(other) => arguments_from_value(other.clone()),
        None => Err("the call has no `arguments`".to_owned()),
    };
    Ok(crate::call::ToolCall {
        format: crate::catalog::Format::OpenAiChat,
        id: Some(id),
        name,
        arguments,
    })
}

/// The output of a Responses function call: a string when the result is text only,
/// otherwise input parts. The API has no error flag: the text says it.
fn responses_output(result: &crate::result::ToolResult) -> Value {
    use crate::result::Content;
    if result
        .content
        .iter()
        .all(|c| !matches!(c, Content::Image { .. }))
    {
        return Value::String(output_text(result));
    }
    let parts = result
        .content
        .iter()
        .map(|c| match c {
            Content::Image { data, mime_type } => {
                json!({ "type": "input_image", "image_url": format!("data:{mime_type};base64,{data}") })
            }
            other => json!({ "type": "input_text", "text": other.as_text() }),
        })
        .collect();
    Value::Array(parts)
}

/// The text a model reads: structured content as JSON when present, else the text blocks.
pub(crate) fn output_text(result: &crate::result::ToolResult) -> String {
    match (&result.structured, result.is_error) {
        (Some(value), false) => value.to_string(),
        _ => result.text_content(),
    }
}

/// `{"type": "function_call_output", "call_id", "output"}`.
pub(crate) fn render_responses(call_id: &str, result: &crate::result::ToolResult) -> Value {
    json!({ "type": "function_call_output", "call_id": call_id, "output": responses_output(result) })
}

/// `{"role": "tool", "tool_call_id", "content"}`.
pub(crate) fn render_chat(call_id: &str, result: &crate::result::ToolResult) -> Value {
    json!({ "role": "tool", "tool_call_id": call_id, "content": output_text(result) })
}
