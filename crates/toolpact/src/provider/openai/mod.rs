//! OpenAI: Responses API function tools and Chat Completions function tools, with the strict
//! subset of JSON Schema that `strict: true` requires (`docs/providers.md#openai-strict-mode`).

pub(crate) mod facts;

use super::{ExportOptions, drop_unplaced, move_root_keywords, object, require_object_root};
use crate::json::child_pointer;
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::lower::{Keyword, Lowerer, Profile, Refs, is_metadata};
use crate::provider::descriptor::{ItemParts, ModelApi, Provider, Schemas};
use crate::schema::for_each_schema_object;
use crate::tool::Tool;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// The OpenAI Responses API provider.
pub(crate) struct Responses;

/// The OpenAI Chat Completions provider.
pub(crate) struct Chat;

impl Provider for Responses {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        lower_responses(tool, options, log)
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        responses_item(parts)
    }

    fn import(&self, item: Map<String, Value>) -> super::ImportedTool {
        import(
            &item,
            &["type", "name", "description", "parameters", "output_schema"],
        )
    }

    fn parse_call(
        &self,
        call: &Map<String, Value>,
        pointer: &str,
    ) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
        parse_call_responses(call, pointer)
    }

    fn render_result(
        &self,
        id: Option<&str>,
        _name: &str,
        result: &crate::result::ToolResult,
        _options: crate::provider::RenderOptions<'_>,
    ) -> Value {
        render_responses(id.unwrap_or_default(), result)
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(self)
    }
}

impl ModelApi for Responses {
    fn required_options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    fn build_request(
        &self,
        parts: crate::exchange::request::Parts<'_>,
    ) -> Result<Value, crate::exchange::request::Unsupported> {
        request_responses(parts)
    }

    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut crate::exchange::response::ReplyReader<'_>,
    ) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError>
    {
        read_responses(body, reader)
    }
}

impl Provider for Chat {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        lower_chat(tool, options, log)
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        chat_item(parts)
    }

    /// A Chat tool is a Responses tool under `function`.
    fn import(&self, item: Map<String, Value>) -> super::ImportedTool {
        match item.get("function") {
            Some(Value::Object(function)) => {
                let (tool, notes) = import(function, &["name", "description", "parameters"])
                    .map_err(|e| super::ItemError {
                        pointer: format!("/function{}", e.pointer),
                        message: e.message,
                    })?;
                let notes = notes
                    .into_iter()
                    .map(|(p, m)| (format!("/function{p}"), m))
                    .collect();
                Ok((tool, notes))
            }
            _ => Err(super::ItemError {
                pointer: "/function".to_owned(),
                message: "an OpenAI Chat tool needs a `function` object".to_owned(),
            }),
        }
    }

    fn parse_call(
        &self,
        call: &Map<String, Value>,
        pointer: &str,
    ) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
        parse_call_chat(call, pointer)
    }

    fn render_result(
        &self,
        id: Option<&str>,
        _name: &str,
        result: &crate::result::ToolResult,
        _options: crate::provider::RenderOptions<'_>,
    ) -> Value {
        render_chat(id.unwrap_or_default(), result)
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(self)
    }
}

impl ModelApi for Chat {
    fn required_options(&self) -> &'static [(&'static str, &'static str)] {
        &[("model", "Chat Completions requires the model in the body")]
    }

    fn build_request(
        &self,
        parts: crate::exchange::request::Parts<'_>,
    ) -> Result<Value, crate::exchange::request::Unsupported> {
        request_chat(parts)
    }

    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut crate::exchange::response::ReplyReader<'_>,
    ) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError>
    {
        read_chat(body, reader)
    }
}

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
    optional_null_leaves_out: false,
    openapi: false,
    keyword: strict_keyword,
    finish: None,
};

/// The keywords OpenAI refuses at the top level beside `type: "object"`: `schema must have
/// type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level`
/// (`docs/providers.md#every-target`).
/// `allOf` comes last: strict mode leaves it to the lowering.
const REFUSED_AT_ROOT: &[&str] = &["oneOf", "anyOf", "enum", "not", "allOf"];

/// The schemas of a function tool with its `parameters`: where each of their parts comes
/// from, and how to read back what the model sends.
fn parameters<'t>(
    tool: &'t Tool,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Schemas<'t>, Unrepresentable> {
    require_object_root(tool, "OpenAI", log)?;
    // In strict mode the lowering merges `allOf` wherever it is, the root included.
    let refused = if options.strict {
        &REFUSED_AT_ROOT[..REFUSED_AT_ROOT.len() - 1]
    } else {
        REFUSED_AT_ROOT
    };
    let schema = move_root_keywords(&tool.input_schema, refused, "OpenAI", log);
    if options.strict {
        let lowered = Lowerer::new(&STRICT, &schema, log).lower("/inputSchema")?;
        return Ok(Schemas {
            input: Some(Cow::Owned(lowered.schema)),
            input_sources: lowered.sources,
            input_inverse: lowered.inverse,
            ..Schemas::default()
        });
    }
    Ok(Schemas {
        input: Some(as_sent(schema, log)),
        ..Schemas::default()
    })
}

/// The input schema as written (once its root keywords are rewritten), with `items` added to
/// the arrays that have none and an empty `properties` at a root without one: it keeps the
/// place of everything written.
fn as_sent<'t>(mut schema: Cow<'t, Value>, log: &mut LossLog<'_>) -> Cow<'t, Value> {
    let mut missing = Vec::new();
    arrays_without_items(&schema, &mut missing);
    for pointer in missing {
        if let Some(Value::Object(array)) = schema.to_mut().pointer_mut(&pointer) {
            array.insert("items".to_owned(), json!({}));
        }
        log.push(
            &format!("/inputSchema{pointer}/items"),
            LossKind::Rewritten,
            "OpenAI rejects an array schema without `items`; `\"items\": {}` (any item) is added",
        );
    }
    // `In context=(), object schema missing properties`: a tool without parameters sends an
    // empty `properties` (`docs/providers.md#openai-input-schemas`).
    if schema.get("properties").is_none()
        && let Value::Object(root) = schema.to_mut()
    {
        root.insert("properties".to_owned(), json!({}));
        log.push(
            "/inputSchema/properties",
            LossKind::Rewritten,
            "OpenAI rejects an object schema without `properties`; an empty one is added",
        );
    }
    schema
}

/// OpenAI rejects an array schema without `items` ("array schema missing items"), also when
/// `array` is one of a type list; an empty `items` keeps the meaning (any item) and is
/// accepted. Collects the pointers (relative to `schema`) of the array schemas that need one,
/// parents first.
fn arrays_without_items(schema: &Value, out: &mut Vec<String>) {
    for_each_schema_object(schema, &mut |map, pointer| {
        // A type list that includes `array` needs `items` as well (`array schema missing
        // items` with `context=(…, 'type', '0')`, docs/providers.md#openai-input-schemas).
        // One scan of the keys rather than hashing two of them to look them up.
        let (mut is_array, mut has_items) = (false, false);
        for (key, value) in map {
            match (key.as_str(), value) {
                ("type", Value::String(t)) => is_array = t == "array",
                ("type", Value::Array(types)) => is_array = types.iter().any(|t| t == "array"),
                ("items", _) => has_items = true,
                _ => {}
            }
        }
        if is_array && !has_items {
            out.push(pointer.to_owned());
        }
    });
}

/// A Responses API function tool's schemas: its parameters, and its output schema as written.
fn lower_responses<'t>(
    tool: &'t Tool,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Schemas<'t>, Unrepresentable> {
    let schemas = parameters(tool, options, log)?;
    drop_unplaced(tool, "the OpenAI Responses API", true, log);
    Ok(Schemas {
        output: tool.output_schema.as_ref().map(Cow::Borrowed),
        ..schemas
    })
}

/// A Responses API function tool: `{"type": "function", "name", "description", "parameters",
/// "strict", "output_schema"}`.
fn responses_item(parts: ItemParts<'_>) -> Value {
    object([
        ("type", Some(json!("function"))),
        ("name", Some(json!(parts.name))),
        (
            "description",
            parts.tool.description.clone().map(Value::String),
        ),
        ("parameters", parts.input.map(Cow::into_owned)),
        ("strict", Some(Value::Bool(parts.strict))),
        ("output_schema", parts.output.map(Cow::into_owned)),
    ])
}

/// A Chat Completions function tool's schemas: its parameters only.
fn lower_chat<'t>(
    tool: &'t Tool,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Schemas<'t>, Unrepresentable> {
    let schemas = parameters(tool, options, log)?;
    drop_unplaced(tool, "OpenAI Chat Completions", false, log);
    Ok(schemas)
}

/// A Chat Completions function tool: `{"type": "function", "function": {...}}`.
fn chat_item(parts: ItemParts<'_>) -> Value {
    let function = object([
        ("name", Some(json!(parts.name))),
        (
            "description",
            parts.tool.description.clone().map(Value::String),
        ),
        ("parameters", parts.input.map(Cow::into_owned)),
        ("strict", parts.strict.then_some(Value::Bool(true))),
    ]);
    object([
        ("type", Some(json!("function"))),
        ("function", Some(function)),
    ])
}

/// Reads a Responses function tool or a Chat function tool (the `function` object is
/// unwrapped by the caller). Provider-only fields are returned as notes.
fn import(item: &Map<String, Value>, fields: &[&str]) -> super::ImportedTool {
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
fn parse_call_responses(
    item: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
    use crate::exchange::call::{arguments_from_string, arguments_from_value, string_field};
    let name = string_field(item, "name", pointer)?;
    let id = string_field(item, "call_id", pointer)?;
    let arguments = match item.get("arguments") {
        Some(Value::String(text)) => arguments_from_string(text),
        Some(other) => arguments_from_value(other.clone()),
        None => Err("the call has no `arguments`".to_owned()),
    };
    Ok(crate::exchange::call::ToolCall {
        format: crate::provider::Target::OpenAiResponses,
        id: Some(id),
        name,
        arguments,
    })
}

/// Reads a Chat Completions `tool_calls` entry: `function.arguments` is a JSON string.
fn parse_call_chat(
    item: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
    use crate::exchange::call::{
        CallError, arguments_from_string, arguments_from_value, string_field,
    };
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
    Ok(crate::exchange::call::ToolCall {
        format: crate::provider::Target::OpenAiChat,
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
fn output_text(result: &crate::result::ToolResult) -> String {
    match (&result.structured, result.is_error) {
        (Some(value), false) => value.to_string(),
        _ => result.text_content(),
    }
}

/// `{"type": "function_call_output", "call_id", "output"}`.
fn render_responses(call_id: &str, result: &crate::result::ToolResult) -> Value {
    json!({ "type": "function_call_output", "call_id": call_id, "output": responses_output(result) })
}

/// `{"role": "tool", "tool_call_id", "content"}`.
fn render_chat(call_id: &str, result: &crate::result::ToolResult) -> Value {
    json!({ "role": "tool", "tool_call_id": call_id, "content": output_text(result) })
}

/// `tool_choice` of a Responses request: `"auto"`, `"none"`, `"required"`, a function, or an
/// `allowed_tools` set (openai-python `ToolChoiceAllowedParam`, `mode` `auto` or `required`).
fn tool_choice_responses(choice: &crate::exchange::request::Choice) -> Value {
    use crate::exchange::request::Choice;
    match choice {
        Choice::Auto => json!("auto"),
        Choice::None => json!("none"),
        Choice::Required => json!("required"),
        Choice::Tool(name) => json!({ "type": "function", "name": name }),
        Choice::Allowed { tools, required } => json!({
            "type": "allowed_tools",
            "mode": if *required { "required" } else { "auto" },
            "tools": tools.iter().map(|name| json!({ "type": "function", "name": name })).collect::<Vec<_>>(),
        }),
    }
}

/// `tool_choice` of a Chat Completions request. The `allowed_tools` form is in the API since
/// 2025-08 (openai-python `ChatCompletionAllowedToolChoiceParam`, in
/// `ChatCompletionToolChoiceOptionParam` of openai 3.57.0).
fn tool_choice_chat(choice: &crate::exchange::request::Choice) -> Value {
    use crate::exchange::request::Choice;
    match choice {
        Choice::Auto => json!("auto"),
        Choice::None => json!("none"),
        Choice::Required => json!("required"),
        Choice::Tool(name) => json!({ "type": "function", "function": { "name": name } }),
        Choice::Allowed { tools, required } => json!({
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": if *required { "required" } else { "auto" },
                "tools": tools
                    .iter()
                    .map(|name| json!({ "type": "function", "function": { "name": name } }))
                    .collect::<Vec<_>>(),
            },
        }),
    }
}

/// A Responses API request body: `instructions` apart from the `input` items; the
/// model's calls go back as `function_call` items before their `function_call_output` items,
/// with the model's own `reasoning` items first (`docs/providers.md#openai-requests`).
fn request_responses(
    parts: crate::exchange::request::Parts<'_>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::Turn;
    let mut input = Vec::new();
    for turn in parts.turns {
        match turn {
            Turn::User(text) => input.push(json!({ "role": "user", "content": text })),
            Turn::Assistant(assistant) => {
                input.extend(assistant.reasoning.into_iter().cloned());
                if let Some(text) = assistant.text {
                    input.push(json!({ "role": "assistant", "content": text }));
                }
                for call in assistant.calls {
                    input.push(json!({
                        "type": "function_call",
                        "call_id": call.id.unwrap_or_default(),
                        "name": call.name,
                        "arguments": call.arguments,
                    }));
                }
            }
            Turn::Results(results) => input.extend(results),
        }
    }
    Ok(object([
        ("model", parts.model.map(|m| json!(m))),
        ("max_output_tokens", parts.max_tokens.map(|n| json!(n))),
        ("instructions", parts.system.map(|s| json!(s))),
        ("tools", parts.tools),
        (
            "tool_choice",
            parts.choice.as_ref().map(tool_choice_responses),
        ),
        ("parallel_tool_calls", parts.parallel.map(Value::Bool)),
        ("input", Some(Value::Array(input))),
    ]))
}

/// A Chat Completions request body: the system prompt as the first message, the model's calls
/// in an assistant message's `tool_calls`, one `role: "tool"` message per result.
fn request_chat(
    parts: crate::exchange::request::Parts<'_>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::Turn;
    let mut messages = Vec::new();
    if let Some(system) = parts.system {
        messages.push(json!({ "role": "system", "content": system }));
    }
    for turn in parts.turns {
        match turn {
            Turn::User(text) => messages.push(json!({ "role": "user", "content": text })),
            Turn::Assistant(assistant) => {
                let calls: Vec<Value> = assistant
                    .calls
                    .into_iter()
                    .map(|call| {
                        json!({
                            "id": call.id.unwrap_or_default(),
                            "type": "function",
                            "function": { "name": call.name, "arguments": call.arguments },
                        })
                    })
                    .collect();
                messages.push(object([
                    ("role", Some(json!("assistant"))),
                    (
                        "content",
                        Some(assistant.text.map_or(Value::Null, |t| json!(t))),
                    ),
                    (
                        "tool_calls",
                        (!calls.is_empty()).then_some(Value::Array(calls)),
                    ),
                ]));
            }
            Turn::Results(results) => messages.extend(results),
        }
    }
    Ok(object([
        ("model", parts.model.map(|m| json!(m))),
        ("max_completion_tokens", parts.max_tokens.map(|n| json!(n))),
        ("tools", parts.tools),
        ("tool_choice", parts.choice.as_ref().map(tool_choice_chat)),
        ("parallel_tool_calls", parts.parallel.map(Value::Bool)),
        ("messages", Some(Value::Array(messages))),
    ]))
}

/// Reads a Responses API response: `output` items (`message` text, `function_call`,
/// `reasoning`), and `status` with `incomplete_details`.
fn read_responses(
    body: &Map<String, Value>,
    reader: &mut crate::exchange::response::ReplyReader<'_>,
) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError> {
    use crate::exchange::response::{ResponseError, StopKind, StopReason, array_at};
    let output = array_at(body, "output", "", "an OpenAI Responses response")?;
    let mut refused = false;
    for (i, item) in output.iter().enumerate() {
        let at = format!("/output/{i}");
        let Some(obj) = item.as_object() else {
            return Err(ResponseError::shape(at, "an output item is a JSON object"));
        };
        match obj.get("type").and_then(Value::as_str) {
            Some("message") => {
                let content = array_at(obj, "content", &at, "an output message")?;
                for (j, part) in content.iter().enumerate() {
                    let text = |key: &str| part.get(key).and_then(Value::as_str).unwrap_or("");
                    match part.get("type").and_then(Value::as_str) {
                        Some("output_text") => reader.text(text("text")),
                        Some("refusal") => {
                            refused = true;
                            reader.text(text("refusal"));
                        }
                        other => reader.skip(
                            format!("{at}/content/{j}"),
                            format!(
                                "message content of type {} is not kept",
                                other.unwrap_or("(none)")
                            ),
                        ),
                    }
                }
            }
            Some("function_call") => {
                let call = parse_call_responses(obj, &at)?;
                reader.call(call, obj.get("arguments"), None);
            }
            Some("reasoning") => reader.reasoning(item),
            Some(other) => reader.skip(
                at,
                format!(
                    "a `{other}` output item (a built-in tool's) is not part of the conversation; it is not sent back"
                ),
            ),
            None => {
                return Err(ResponseError::shape(
                    at,
                    "an output item needs a `type`",
                ));
            }
        }
    }
    let status = body.get("status").and_then(Value::as_str);
    Ok(match status {
        Some("incomplete") => {
            let reason = body
                .get("incomplete_details")
                .and_then(|d| d.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            let kind = match reason {
                "max_output_tokens" => StopKind::MaxTokens,
                "content_filter" => StopKind::Refusal,
                _ => StopKind::Other,
            };
            StopReason::new(kind, format!("incomplete: {reason}"))
        }
        Some("completed") | None => StopReason {
            kind: if refused {
                StopKind::Refusal
            } else if reader.has_calls() {
                StopKind::ToolCalls
            } else {
                StopKind::EndTurn
            },
            raw: status.map(str::to_owned),
        },
        Some(other) => StopReason::new(StopKind::Other, other),
    })
}

/// Reads a Chat Completions response: `choices[0].message` (`content`, `refusal`,
/// `tool_calls`) and its `finish_reason`. A forced tool choice ends with `stop`, not
/// `tool_calls`, so the calls decide.
fn read_chat(
    body: &Map<String, Value>,
    reader: &mut crate::exchange::response::ReplyReader<'_>,
) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError> {
    use crate::exchange::response::{ResponseError, StopKind, StopReason, array_at};
    let choices = array_at(body, "choices", "", "a Chat Completions response")?;
    let Some(choice) = choices.first() else {
        return Err(ResponseError::shape(
            "/choices",
            "the response has no choice",
        ));
    };
    for i in 1..choices.len() {
        reader.skip(
            format!("/choices/{i}"),
            "only the first choice is read (the request asked for several, `n` > 1)",
        );
    }
    let Some(Value::Object(message)) = choice.get("message") else {
        return Err(ResponseError::shape(
            "/choices/0",
            "the choice has no `message` object",
        ));
    };
    let at = "/choices/0/message";
    match message.get("content") {
        Some(Value::String(text)) => reader.text(text),
        None | Some(Value::Null) => {}
        Some(_) => reader.skip(
            format!("{at}/content"),
            "content that is not a string is not kept (Chat Completions answers with text)",
        ),
    }
    let refused = match message.get("refusal") {
        Some(Value::String(text)) => {
            reader.text(text);
            true
        }
        _ => false,
    };
    match message.get("tool_calls") {
        None | Some(Value::Null) => {}
        Some(Value::Array(calls)) => {
            for (j, call) in calls.iter().enumerate() {
                let pointer = format!("{at}/tool_calls/{j}");
                let Some(obj) = call.as_object() else {
                    return Err(ResponseError::shape(
                        pointer,
                        "a tool call is a JSON object",
                    ));
                };
                let sent = obj.get("function").and_then(|f| f.get("arguments"));
                reader.call(parse_call_chat(obj, &pointer)?, sent, None);
            }
        }
        Some(_) => {
            return Err(ResponseError::shape(
                format!("{at}/tool_calls"),
                "`tool_calls` must be an array",
            ));
        }
    }
    for key in ["function_call", "audio"] {
        if message.get(key).is_some_and(|v| !v.is_null()) {
            reader.skip(
                format!("{at}/{key}"),
                format!("`{key}` is not part of the conversation; it is not sent back"),
            );
        }
    }
    let finish = choice.get("finish_reason").and_then(Value::as_str);
    let kind = match finish {
        _ if refused => StopKind::Refusal,
        Some("length") => StopKind::MaxTokens,
        Some("content_filter") => StopKind::Refusal,
        _ if reader.has_calls() => StopKind::ToolCalls,
        Some("stop") | None => StopKind::EndTurn,
        Some(_) => StopKind::Other,
    };
    Ok(StopReason {
        kind,
        raw: finish.map(str::to_owned),
    })
}
