//! Anthropic Messages API tools, `{"name", "description", "input_schema"}`, and the strict
//! subset that `strict: true` accepts (`docs/providers.md#anthropic-strict-tools`).

pub(crate) mod facts;

use super::{ExportOptions, drop_unplaced, move_root_keywords, object, require_object_root};
use crate::json::child_pointer;
use crate::loss::{LossLog, Unrepresentable};
use crate::lower::{Keyword, Lowerer, Profile, Refs, is_metadata};
use crate::provider::descriptor::{ItemParts, ModelApi, Provider, Schemas};
use crate::tool::Tool;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// The Anthropic Messages API provider.
pub(crate) struct Anthropic;

impl Provider for Anthropic {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        lower(tool, options, log)
    }

    /// `{"name", "description", "input_schema", "strict"}`.
    fn item(&self, parts: ItemParts<'_>) -> Value {
        object([
            ("name", Some(json!(parts.name))),
            (
                "description",
                parts.tool.description.clone().map(Value::String),
            ),
            ("input_schema", parts.input.map(Cow::into_owned)),
            ("strict", parts.strict.then_some(Value::Bool(true))),
        ])
    }

    fn import(&self, item: Map<String, Value>) -> super::ImportedTool {
        import(&item)
    }

    fn parse_call(
        &self,
        call: &Map<String, Value>,
        pointer: &str,
    ) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
        parse_call(call, pointer)
    }

    fn render_result(
        &self,
        id: Option<&str>,
        _name: &str,
        result: &crate::result::ToolResult,
        _options: crate::provider::RenderOptions<'_>,
    ) -> Value {
        render_result(id.unwrap_or_default(), result)
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(self)
    }
}

impl ModelApi for Anthropic {
    fn required_options(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("model", "the Messages API requires the model in the body"),
            (
                "max_tokens",
                "the Messages API requires the most tokens the answer may use",
            ),
        ]
    }

    fn build_request(
        &self,
        parts: crate::exchange::request::Parts<'_>,
    ) -> Result<Value, crate::exchange::request::Unsupported> {
        request(parts)
    }

    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut crate::exchange::response::ReplyReader<'_>,
    ) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError>
    {
        read_response(body, reader)
    }
}

/// String formats strict tool use accepts.
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether a regular expression stays within what strict mode compiles: no backreferences,
/// no lookaround, no word boundaries, no large counted repetition.
fn is_simple_pattern(pattern: &str) -> bool {
    const REJECTED: &[&str] = &["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\B"];
    if REJECTED.iter().any(|r| pattern.contains(r)) {
        return false;
    }
    let bytes = pattern.as_bytes();
    if bytes
        .windows(2)
        .any(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0')
    {
        return false;
    }
    // Counted repetition `{n,m}` with a bound of 1000 or more.
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let inner = &after[..close];
        if inner
            .split(',')
            .any(|n| n.trim().parse::<u64>().is_ok_and(|n| n >= 1000))
        {
            return false;
        }
        rest = &after[close..];
    }
    true
}

fn strict_keyword(key: &str, value: &Value) -> Keyword {
    match key {
        "type" | "description" | "title" | "required" | "enum" | "const" | "default" => {
            Keyword::Keep
        }
        "format" if value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)) => Keyword::Keep,
        "pattern" if value.as_str().is_some_and(is_simple_pattern) => Keyword::Keep,
        "minItems" if value.as_u64().is_some_and(|n| n <= 1) => Keyword::Keep,
        k if is_metadata(k) => Keyword::Drop,
        _ => Keyword::Describe,
    }
}

/// Anthropic strict tool use: objects closed, optional properties allowed, `$ref` kept,
/// `allOf` merged, recursion and numeric or length limits rejected.
pub(crate) const STRICT: Profile = Profile {
    label: "Anthropic strict mode",
    refs: Refs::Keep,
    allow_recursion: false,
    one_of_to_any_of: true,
    // Strict mode accepts `allOf`, but closing every object would make the branches exclude
    // each other's properties: merged, the object stays satisfiable.
    merge_all_of: true,
    close_objects: true,
    require_all: false,
    // Anthropic's strict mode keeps optional properties optional; a null the model sends
    // for one, which the schema as written refuses, is read as the property left out.
    optional_null_leaves_out: true,
    openapi: false,
    keyword: strict_keyword,
    finish: None,
};

/// The input schema of an Anthropic tool: lowered to the strict subset in strict mode, sent
/// as written otherwise.
/// `input_schema does not support oneOf, allOf, or anyOf at the top level`
/// (`docs/providers.md#anthropic-input-schemas`).
/// `allOf` comes last: strict mode leaves it to the lowering.
const REFUSED_AT_ROOT: &[&str] = &["oneOf", "anyOf", "allOf"];

fn lower<'t>(
    tool: &'t Tool,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Schemas<'t>, Unrepresentable> {
    require_object_root(tool, "Anthropic", log)?;
    // In strict mode the lowering merges `allOf` wherever it is, the root included.
    let refused = if options.strict {
        &REFUSED_AT_ROOT[..REFUSED_AT_ROOT.len() - 1]
    } else {
        REFUSED_AT_ROOT
    };
    let schema = move_root_keywords(&tool.input_schema, refused, "Anthropic", log);
    let mut schemas = Schemas::default();
    schemas.input = Some(if options.strict {
        let lowered = Lowerer::new(&STRICT, &schema, log).lower("/inputSchema")?;
        schemas.input_sources = lowered.sources;
        schemas.input_inverse = lowered.inverse;
        Cow::Owned(lowered.schema)
    } else {
        schema
    });
    drop_unplaced(tool, "the Anthropic Messages API", false, log);
    Ok(schemas)
}

/// Reads one Anthropic custom tool. Request settings (`cache_control`, `strict`, …) are
/// returned as notes.
fn import(item: &Map<String, Value>) -> super::ImportedTool {
    let mut notes = Vec::new();
    for (key, value) in item {
        match key.as_str() {
            "name" | "description" | "input_schema" => {}
            "type" if value == "custom" => {}
            "strict" if value != &Value::Bool(true) => {}
            _ => notes.push((
                child_pointer("", key),
                format!(
                    "the Anthropic field `{key}` is a request setting, not part of the contract"
                ),
            )),
        }
    }
    let input_schema = item
        .get("input_schema")
        .cloned()
        .ok_or_else(|| super::ItemError {
            pointer: String::new(),
            message: "an Anthropic tool needs `input_schema`".to_owned(),
        })?;
    let tool = Tool {
        name: super::string_field(item, "name")?,
        title: None,
        description: super::optional_string(item, "description")?,
        input_schema,
        output_schema: None,
        annotations: None,
        icons: None,
        meta: None,
        extra: Map::new(),
    };
    Ok((tool, notes))
}

/// Reads a `tool_use` block: `input` is already an object.
fn parse_call(
    block: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
    use crate::exchange::call::{arguments_from_value, string_field};
    Ok(crate::exchange::call::ToolCall {
        format: crate::provider::Target::Anthropic,
        id: Some(string_field(block, "id", pointer)?),
        name: string_field(block, "name", pointer)?,
        arguments: match block.get("input") {
            Some(input) => arguments_from_value(input.clone()),
            None => Ok(json!({})),
        },
    })
}

/// `{"type": "tool_result", "tool_use_id", "content", "is_error"}`, for the next user turn.
fn render_result(tool_use_id: &str, result: &crate::result::ToolResult) -> Value {
    use crate::result::Content;
    let content: Vec<Value> = match (&result.structured, result.is_error) {
        (Some(value), false) => vec![json!({ "type": "text", "text": value.to_string() })],
        _ => result
            .content
            .iter()
            .map(|c| match c {
                Content::Image { data, mime_type } => json!({
                    "type": "image",
                    "source": { "type": "base64", "media_type": mime_type, "data": data }
                }),
                other => json!({ "type": "text", "text": other.as_text() }),
            })
            .collect(),
    };
    let mut out = json!({ "type": "tool_result", "tool_use_id": tool_use_id, "content": content });
    if result.is_error {
        out["is_error"] = Value::Bool(true);
    }
    out
}

/// `tool_choice`: `auto`, `any`, `tool` and `none` (`docs/providers.md#anthropic-requests`). The
/// first three take `disable_parallel_tool_use`; the Messages API has no allowed subset of tools.
fn tool_choice(
    choice: &crate::exchange::request::Choice,
    parallel: Option<bool>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::{Choice, Unsupported};
    let mut value = match choice {
        Choice::Auto => json!({ "type": "auto" }),
        Choice::None => return Ok(json!({ "type": "none" })),
        Choice::Required => json!({ "type": "any" }),
        Choice::Tool(name) => json!({ "type": "tool", "name": name }),
        Choice::Allowed { .. } => {
            return Err(Unsupported::tool_choice(
                choice,
                "the Messages API `tool_choice` is auto, any, tool or none, with no allowed subset; send only those tools, or name one with tool:NAME",
            ));
        }
    };
    if parallel == Some(false) {
        value["disable_parallel_tool_use"] = Value::Bool(true);
    }
    Ok(value)
}

/// A Messages API request body: `system` apart; each assistant turn's `thinking` blocks
/// first, then its text and `tool_use` blocks; all the results of a turn's calls as
/// `tool_result` blocks of one user turn, before any text the user adds
/// (`docs/providers.md#anthropic-requests`).
fn request(
    parts: crate::exchange::request::Parts<'_>,
) -> Result<Value, crate::exchange::request::Unsupported> {
    use crate::exchange::request::Turn;
    let tool_choice = parts
        .choice
        .as_ref()
        .map(|c| tool_choice(c, parts.parallel))
        .transpose()?;
    let mut turns: Vec<(&str, Vec<Value>)> = Vec::new();
    let mut push = |role: &'static str, blocks: Vec<Value>| match turns.last_mut() {
        Some((last, content)) if *last == role => content.extend(blocks),
        _ => turns.push((role, blocks)),
    };
    for turn in parts.turns {
        match turn {
            Turn::User(text) => push("user", vec![json!({ "type": "text", "text": text })]),
            Turn::Assistant(assistant) => {
                let mut blocks: Vec<Value> = assistant.reasoning.into_iter().cloned().collect();
                if let Some(text) = assistant.text {
                    blocks.push(json!({ "type": "text", "text": text }));
                }
                for call in assistant.calls {
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": call.id.unwrap_or_default(),
                        "name": call.name,
                        "input": call.arguments,
                    }));
                }
                push("assistant", blocks);
            }
            Turn::Results(results) => push("user", results),
        }
    }
    let messages: Vec<Value> = turns
        .into_iter()
        .map(|(role, mut blocks)| {
            // A lone text block is the plain string form.
            let content = match blocks.as_mut_slice() {
                [block] if block.get("type").and_then(Value::as_str) == Some("text") => {
                    block["text"].take()
                }
                _ => Value::Array(blocks),
            };
            json!({ "role": role, "content": content })
        })
        .collect();
    Ok(object([
        ("model", parts.model.map(|m| json!(m))),
        ("max_tokens", parts.max_tokens.map(|n| json!(n))),
        ("system", parts.system.map(|s| json!(s))),
        ("tools", parts.tools),
        ("tool_choice", tool_choice),
        ("messages", Some(Value::Array(messages))),
    ]))
}

/// Reads a Messages API response: `content` blocks (`text`, `tool_use`, `thinking`,
/// `redacted_thinking`) and `stop_reason`.
fn read_response(
    body: &Map<String, Value>,
    reader: &mut crate::exchange::response::ReplyReader<'_>,
) -> Result<crate::exchange::response::StopReason, crate::exchange::response::ResponseError> {
    use crate::exchange::response::{ResponseError, StopKind, StopReason, array_at};
    let content = array_at(body, "content", "", "an Anthropic Messages response")?;
    for (i, block) in content.iter().enumerate() {
        let at = format!("/content/{i}");
        let Some(obj) = block.as_object() else {
            return Err(ResponseError::shape(at, "a content block is a JSON object"));
        };
        match obj.get("type").and_then(Value::as_str) {
            Some("text") => {
                reader.text(obj.get("text").and_then(Value::as_str).unwrap_or(""));
                if obj
                    .get("citations")
                    .and_then(Value::as_array)
                    .is_some_and(|c| !c.is_empty())
                {
                    reader.skip(
                        format!("{at}/citations"),
                        "citations are not kept; the text is",
                    );
                }
            }
            Some("tool_use") => reader.call(parse_call(obj, &at)?, obj.get("input"), None),
            // Extended thinking with tool use: the blocks must go back, unchanged, with the
            // turn they belong to.
            Some("thinking" | "redacted_thinking") => reader.reasoning(block),
            Some(other) => reader.skip(
                at,
                format!(
                    "a `{other}` block (a server tool's) is not part of the conversation; it is not sent back"
                ),
            ),
            None => {
                return Err(ResponseError::shape(at, "a content block needs a `type`"));
            }
        }
    }
    let stop = body.get("stop_reason").and_then(Value::as_str);
    let kind = match stop {
        Some("end_turn") => StopKind::EndTurn,
        Some("tool_use") => StopKind::ToolCalls,
        Some("max_tokens" | "model_context_window_exceeded") => StopKind::MaxTokens,
        Some("stop_sequence") => StopKind::StopSequence,
        Some("refusal") => StopKind::Refusal,
        None if reader.has_calls() => StopKind::ToolCalls,
        None => StopKind::EndTurn,
        Some(_) => StopKind::Other,
    };
    Ok(StopReason {
        kind,
        raw: stop.map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::is_simple_pattern;

    #[test]
    fn patterns() {
        assert!(is_simple_pattern("^[A-Z]{2}-\\d{4}$"));
        assert!(!is_simple_pattern("^(?!admin).*$"));
        assert!(!is_simple_pattern("(a)\\1"));
        assert!(!is_simple_pattern("\\bword\\b"));
        assert!(!is_simple_pattern("^a{1,5000}$"));
    }
}
