//! Anthropic Messages API tools, `{"name", "description", "input_schema"}`, and the strict
//! subset that `strict: true` accepts (provider-rules §3).

use super::{ExportOptions, drop_unplaced, object, require_object_root};
use crate::loss::{LossLog, Unrepresentable};
use crate::lower::{Keyword, Lowerer, Profile, Refs, is_metadata};
use crate::schema::child_pointer;
use crate::tool::Tool;
use serde_json::{Map, Value, json};

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
    openapi: false,
    keyword: strict_keyword,
};

/// `{"name", "description", "input_schema", "strict"}`.
pub(crate) fn lower(
    tool: &Tool,
    name: &str,
    options: ExportOptions,
    log: &mut LossLog<'_>,
) -> Result<Value, Unrepresentable> {
    require_object_root(tool, "Anthropic", log)?;
    let input_schema = if options.strict {
        Lowerer::new(&STRICT, &tool.input_schema, log).lower("/inputSchema")?
    } else {
        tool.input_schema.clone()
    };
    drop_unplaced(tool, "the Anthropic Messages API", false, log);
    Ok(object([
        ("name", Some(json!(name))),
        ("description", tool.description.clone().map(Value::String)),
        ("input_schema", Some(input_schema)),
        ("strict", options.strict.then_some(Value::Bool(true))),
    ]))
}

/// Reads one Anthropic custom tool. Request settings (`cache_control`, `strict`, …) are
/// returned as notes.
pub(crate) fn import(item: &Map<String, Value>) -> super::ImportedTool {
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
pub(crate) fn parse_call(
    block: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::call::ToolCall, crate::call::CallError> {
    use crate::call::{arguments_from_value, string_field};
    Ok(crate::call::ToolCall {
        format: crate::catalog::Format::Anthropic,
        id: Some(string_field(block, "id", pointer)?),
        name: string_field(block, "name", pointer)?,
        arguments: match block.get("input") {
            Some(input) => arguments_from_value(input.clone()),
            None => Ok(json!({})),
        },
    })
}

/// `{"type": "tool_result", "tool_use_id", "content", "is_error"}`, for the next user turn.
pub(crate) fn render_result(tool_use_id: &str, result: &crate::result::ToolResult) -> Value {
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
