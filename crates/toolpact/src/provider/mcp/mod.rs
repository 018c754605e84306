//! MCP: the `tools/list` result, `{"tools": [...]}`, which carries every field of the contract.

pub(crate) mod facts;

use crate::exchange::call::{CallError, ToolCall};
use crate::json::{child_pointer, json_type};
use crate::loss::{LossLog, Unrepresentable};
use crate::provider::descriptor::{ItemParts, ModelApi, Provider, Schemas};
use crate::provider::{ExportOptions, ImportedTool, ItemError, RenderOptions, require_object_root};
use crate::result::ToolResult;
use crate::tool::Tool;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The latest MCP protocol version toolpact renders for.
pub const LATEST_MCP_VERSION: &str = "2026-07-28";

/// The MCP provider.
pub(crate) struct Mcp;

impl Provider for Mcp {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        _options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        require_object_root(tool, "MCP", log)?;
        Ok(Schemas {
            input: Some(Cow::Borrowed(&tool.input_schema)),
            output: tool.output_schema.as_ref().map(Cow::Borrowed),
            ..Schemas::default()
        })
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        item(parts.tool, parts.name)
    }

    fn wrap(&self, items: Vec<Value>) -> Value {
        wrap(items)
    }

    fn import(&self, item: Map<String, Value>) -> ImportedTool {
        import(item)
    }

    fn parse_call(&self, call: &Map<String, Value>, pointer: &str) -> Result<ToolCall, CallError> {
        parse_call(call, pointer)
    }

    fn render_result(
        &self,
        _id: Option<&str>,
        _name: &str,
        result: &ToolResult,
        options: RenderOptions<'_>,
    ) -> Value {
        render_result(result, options.mcp_version)
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        None
    }
}

/// An MCP tool is the contract itself; only the name may change (when it breaks SEP-986).
///
/// Written field by field in the order the tool serializes in, the schemas cloned (a clone
/// copies a map's index as it is, where serializing into a value hashes every key again).
fn item(tool: &Tool, name: &str) -> Value {
    let mut map = Map::with_capacity(4 + tool.extra.len());
    map.insert("name".to_owned(), Value::String(name.to_owned()));
    if let Some(title) = &tool.title {
        map.insert("title".to_owned(), Value::String(title.clone()));
    }
    if let Some(description) = &tool.description {
        map.insert("description".to_owned(), Value::String(description.clone()));
    }
    map.insert("inputSchema".to_owned(), tool.input_schema.clone());
    if let Some(output) = &tool.output_schema {
        map.insert("outputSchema".to_owned(), output.clone());
    }
    // Annotations and icons are strings, booleans and JSON values, all of which serialize:
    // the fallback is never taken.
    if let Some(annotations) = &tool.annotations {
        map.insert(
            "annotations".to_owned(),
            serde_json::to_value(annotations).unwrap_or(Value::Null),
        );
    }
    if let Some(icons) = &tool.icons {
        map.insert(
            "icons".to_owned(),
            serde_json::to_value(icons).unwrap_or(Value::Null),
        );
    }
    if let Some(meta) = &tool.meta {
        map.insert("_meta".to_owned(), Value::Object(meta.clone()));
    }
    for (key, value) in &tool.extra {
        map.insert(key.clone(), value.clone());
    }
    Value::Object(map)
}

fn wrap(tools: Vec<Value>) -> Value {
    let mut map = Map::new();
    map.insert("tools".to_owned(), Value::Array(tools));
    Value::Object(map)
}

/// Reads `tools/call` params `{name, arguments?}`, or a whole JSON-RPC request holding them.
fn parse_call(
    obj: &Map<String, Value>,
    pointer: &str,
) -> Result<crate::exchange::call::ToolCall, crate::exchange::call::CallError> {
    use crate::exchange::call::{CallError, arguments_from_value, string_field};
    let (params, at) = if obj.get("method").and_then(Value::as_str) == Some("tools/call") {
        match obj.get("params") {
            Some(Value::Object(p)) => (p, format!("{pointer}/params")),
            _ => {
                return Err(CallError::not_a_call(
                    pointer,
                    "a tools/call request needs `params`",
                ));
            }
        }
    } else {
        (obj, pointer.to_owned())
    };
    let id = obj
        .get("id")
        .filter(|_| obj.contains_key("jsonrpc"))
        .map(|id| match id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    Ok(crate::exchange::call::ToolCall {
        format: crate::provider::Target::Mcp,
        id,
        name: string_field(params, "name", &at)?,
        arguments: match params.get("arguments") {
            Some(Value::Null) | None => Ok(Value::Object(Map::new())),
            Some(args) => arguments_from_value(args.clone()),
        },
    })
}

/// A `CallToolResult`. From protocol version 2026-07-28 on, results carry `resultType`.
fn render_result(result: &crate::result::ToolResult, protocol_version: &str) -> Value {
    let mut value = serde_json::to_value(result).unwrap_or_else(|_| Value::Object(Map::new()));
    if let Value::Object(map) = &mut value {
        // `content` is required even when empty.
        map.entry("content")
            .or_insert_with(|| Value::Array(Vec::new()));
        if protocol_version >= "2026-07-28" {
            map.insert(
                "resultType".to_owned(),
                Value::String("complete".to_owned()),
            );
        }
    }
    value
}

/// Reads an MCP tool: the contract itself, with a pointer to the field that does not fit.
fn import(obj: Map<String, Value>) -> ImportedTool {
    let tool: Tool = serde_path_to_error::deserialize(Value::Object(obj)).map_err(|e| {
        let path = e.path().to_string();
        let pointer = if path == "." {
            String::new()
        } else {
            path.split('.')
                .fold(String::new(), |acc, seg| child_pointer(&acc, seg))
        };
        ItemError {
            pointer,
            message: e.into_inner().to_string(),
        }
    })?;
    for (key, schema) in [
        ("inputSchema", Some(&tool.input_schema)),
        ("outputSchema", tool.output_schema.as_ref()),
    ] {
        if let Some(schema) = schema
            && !schema.is_object()
        {
            return Err(ItemError {
                pointer: format!("/{key}"),
                message: format!(
                    "`{key}` must be a JSON Schema object, found a JSON {}",
                    json_type(schema)
                ),
            });
        }
    }
    Ok((tool, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The item written field by field is the tool as it serializes, with the name the
    /// target sees: every field, in order, and the fields toolpact does not know.
    #[test]
    fn the_item_is_the_tool_as_it_serializes() {
        let full: Tool = serde_json::from_value(json!({
            "name": "a.b",
            "title": "A",
            "description": "Does a.",
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "x-extra": 1},
            "icons": [{"src": "data:image/png;base64,AA==", "sizes": ["48x48"]}],
            "_meta": {"k": "v"},
            "execution": {"taskSupport": "optional"},
            "zeta": [1, 2]
        }))
        .unwrap();
        let bare: Tool = serde_json::from_value(json!({
            "name": "b",
            "inputSchema": {"type": "object"}
        }))
        .unwrap();
        for tool in [full, bare] {
            let mut expected = serde_json::to_value(&tool).unwrap();
            expected["name"] = json!("renamed");
            let written = item(&tool, "renamed");
            assert_eq!(written, expected);
            assert_eq!(
                serde_json::to_string(&written).unwrap(),
                serde_json::to_string(&expected).unwrap(),
                "key order"
            );
        }
    }
}
