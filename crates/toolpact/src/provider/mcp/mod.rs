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
    let tool = match take_tool(obj) {
        Ok(tool) => tool,
        Err(obj) => deserialize_tool(obj)?,
    };
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

/// The tool serde reads from `obj` when each of its fields has the type the contract gives it,
/// built by moving the fields out of the item; otherwise the item, untouched, for
/// [`deserialize_tool`] to say where and what does not fit.
///
/// serde reads a struct with a flattened field (`extra`) by first copying the whole item into
/// a buffer of its own, schemas included, and building every object again from it: on a large
/// catalog that was most of the time and memory of reading the tools. Moving gives the same
/// tool (a unit test holds the two to that).
fn take_tool(obj: Map<String, Value>) -> Result<Tool, Map<String, Value>> {
    use serde::Deserialize;
    // The small fields with a structure of their own are read first, from references, so that
    // one that does not fit leaves the item whole.
    let annotations = match obj.get("annotations") {
        None | Some(Value::Null) => None,
        Some(value) => match crate::tool::Annotations::deserialize(value) {
            Ok(annotations) => Some(annotations),
            Err(_) => return Err(obj),
        },
    };
    let icons = match obj.get("icons") {
        None | Some(Value::Null) => None,
        Some(value) => match Vec::<crate::tool::Icon>::deserialize(value) {
            Ok(icons) => Some(icons),
            Err(_) => return Err(obj),
        },
    };
    let text_or_null =
        |key: &str| matches!(obj.get(key), None | Some(Value::Null | Value::String(_)));
    let fits = matches!(obj.get("name"), Some(Value::String(_)))
        && obj.contains_key("inputSchema")
        && text_or_null("title")
        && text_or_null("description")
        && matches!(
            obj.get("_meta"),
            None | Some(Value::Null | Value::Object(_))
        );
    if !fits {
        return Err(obj);
    }
    let mut tool = Tool {
        name: String::new(),
        title: None,
        description: None,
        input_schema: Value::Null,
        output_schema: None,
        annotations,
        icons,
        meta: None,
        extra: Map::new(),
    };
    for (key, value) in obj {
        match (key.as_str(), value) {
            ("name", Value::String(name)) => tool.name = name,
            ("title", Value::String(title)) => tool.title = Some(title),
            ("description", Value::String(text)) => tool.description = Some(text),
            ("inputSchema", schema) => tool.input_schema = schema,
            // `null` is no output schema, as for every optional field.
            ("outputSchema", Value::Null) => {}
            ("outputSchema", schema) => tool.output_schema = Some(schema),
            ("_meta", Value::Object(meta)) => tool.meta = Some(meta),
            // Read above, or `null`.
            ("name" | "title" | "description" | "_meta" | "annotations" | "icons", _) => {}
            (_, value) => {
                tool.extra.insert(key, value);
            }
        }
    }
    Ok(tool)
}

/// Reads a tool with serde, whose error says which field does not fit.
fn deserialize_tool(obj: Map<String, Value>) -> Result<Tool, ItemError> {
    serde_path_to_error::deserialize(Value::Object(obj)).map_err(|e| {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Moving the fields out of an item gives the tool serde reads from it, field for field
    /// and in the same order, on every tool of the captured real servers and on items that
    /// use each field's edge cases; an item whose fields do not fit is left to serde whole.
    #[test]
    fn moving_the_fields_reads_the_tool_serde_reads() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/servers");
        let mut items: Vec<Value> = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            let doc: Value = serde_json::from_str(&text).unwrap();
            items.extend(doc["tools"].as_array().unwrap().iter().cloned());
        }
        assert!(items.len() > 1000, "{} tools", items.len());
        items.extend([
            json!({"inputSchema": {"type": "object"}, "name": "n", "title": null,
                   "description": null, "outputSchema": null, "annotations": null,
                   "icons": null, "_meta": null}),
            json!({"zeta": 1, "name": "n", "alpha": null, "inputSchema": {"type": "object"},
                   "annotations": {"readOnlyHint": false, "x-extra": [1]},
                   "icons": [{"src": "a.png", "theme": "dark", "x": 2}],
                   "_meta": {"k": {"v": 1.5}}, "execution": {"taskSupport": "optional"},
                   "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}),
            json!({"name": "n", "inputSchema": {"type": "object", "properties": {"big": {"maximum": 18446744073709551615u64, "minimum": -1.25e300}}}}),
        ]);
        for item in items {
            let Value::Object(obj) = item else { panic!() };
            let moved = take_tool(obj.clone()).unwrap_or_else(|_| panic!("{obj:?}"));
            let read = deserialize_tool(obj).unwrap();
            assert_eq!(moved, read);
            assert_eq!(
                serde_json::to_string(&moved).unwrap(),
                serde_json::to_string(&read).unwrap()
            );
        }
        for misfit in [
            json!({"inputSchema": {}}),
            json!({"name": 1, "inputSchema": {}}),
            json!({"name": "n"}),
            json!({"name": "n", "inputSchema": {}, "title": 2}),
            json!({"name": "n", "inputSchema": {}, "description": ["a"]}),
            json!({"name": "n", "inputSchema": {}, "_meta": "m"}),
            json!({"name": "n", "inputSchema": {}, "annotations": {"readOnlyHint": "yes"}}),
            json!({"name": "n", "inputSchema": {}, "icons": [{"sizes": ["1x1"]}]}),
        ] {
            let Value::Object(obj) = misfit else { panic!() };
            assert_eq!(take_tool(obj.clone()).unwrap_err(), obj);
            assert!(deserialize_tool(obj).is_err());
        }
    }

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
