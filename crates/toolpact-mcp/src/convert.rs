//! Conversions between toolpact's types and rmcp's wire model. rmcp types are built here and
//! nowhere else, always through their serde form, so the JSON on the wire is the JSON toolpact
//! would write.

use rmcp::model::{CallToolResult, Tool as RmcpTool};
use serde_json::{Map, Value};
use toolpact::{RenderOptions, Tool, ToolCall, ToolResult};

/// A tool in rmcp's model, with a note for every part of the declaration the model has no
/// place for (rmcp's `Tool` has no catch-all map, so unknown fields cannot be sent).
pub(crate) fn tool_to_rmcp(tool: &Tool) -> Result<(RmcpTool, Vec<String>), String> {
    let mut value =
        serde_json::to_value(tool).map_err(|e| format!("cannot serialize the tool: {e}"))?;
    let mut dropped = Vec::new();
    // rmcp reads `theme` as an enum of "light" and "dark"; anything else would make the whole
    // tool unreadable, so that one field goes and the rest of the tool is served.
    if let Some(Value::Array(icons)) = value.get_mut("icons") {
        for (i, icon) in icons.iter_mut().enumerate() {
            if let Some(icon) = icon.as_object_mut() {
                let theme_ok = match icon.get("theme") {
                    None => true,
                    Some(theme) => theme == "light" || theme == "dark",
                };
                if !theme_ok {
                    icon.remove("theme");
                    dropped.push(format!("/icons/{i}/theme"));
                }
            }
        }
    }
    let converted: RmcpTool = serde_json::from_value(value.clone())
        .map_err(|e| format!("rmcp cannot represent the tool: {e}"))?;
    let back = serde_json::to_value(&converted)
        .map_err(|e| format!("cannot serialize the tool in rmcp's model: {e}"))?;
    missing_pointers(&value, &back, String::new(), &mut dropped);
    Ok((converted, dropped))
}

/// JSON pointers of what `original` has and `kept` lacks (or holds differently).
fn missing_pointers(original: &Value, kept: &Value, pointer: String, out: &mut Vec<String>) {
    match (original, kept) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let at = toolpact::json::child_pointer(&pointer, key);
                match b.get(key) {
                    Some(other) => missing_pointers(value, other, at, out),
                    None => out.push(at),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                missing_pointers(x, y, format!("{pointer}/{i}"), out);
            }
        }
        (a, b) if a == b => {}
        _ => out.push(if pointer.is_empty() {
            "/".to_owned()
        } else {
            pointer
        }),
    }
}

/// A toolpact result answering `call` as an rmcp `CallToolResult`, rendered for the negotiated
/// protocol version exactly as [`toolpact::render`] renders it.
pub(crate) fn result_to_rmcp(
    call: &ToolCall,
    result: &ToolResult,
    protocol_version: &str,
) -> CallToolResult {
    let options = RenderOptions {
        mcp_version: protocol_version,
    };
    let rendered = toolpact::render(call, result, options);
    match serde_json::from_value::<CallToolResult>(rendered) {
        Ok(converted) => converted,
        Err(e) => {
            // Every content block toolpact makes is one MCP defines; this is a bug, not input.
            tracing::error!(error = %e, "a tool result does not fit rmcp's CallToolResult");
            CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                "The tool's result could not be encoded. Try again later.",
            )])
        }
    }
}

/// An rmcp `CallToolResult` read as a toolpact result.
pub(crate) fn result_from_rmcp(result: &CallToolResult) -> Result<ToolResult, String> {
    let value =
        serde_json::to_value(result).map_err(|e| format!("cannot serialize the result: {e}"))?;
    serde_json::from_value(value).map_err(|e| format!("the result is not a CallToolResult: {e}"))
}

/// An rmcp tool as plain JSON, as the server sent it (as far as rmcp's model keeps it).
pub(crate) fn tool_to_json(tool: &RmcpTool) -> Value {
    serde_json::to_value(tool).unwrap_or_else(|_| Value::Object(Map::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PROTOCOL_VERSIONS;
    use serde_json::json;
    use toolpact::{LATEST_MCP_VERSION, Target};

    #[test]
    fn every_declared_field_survives_and_unknown_ones_are_named() {
        let tool: Tool = serde_json::from_value(json!({
            "name": "suggest_gifts",
            "title": "Suggest gifts",
            "description": "Suggest gifts.",
            "inputSchema": {"type": "object", "properties": {"budget": {"type": "integer", "minimum": 1}}},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "futureHint": 3},
            "icons": [{"src": "https://example.com/a.png", "theme": "sepia", "sizes": ["48x48"]}],
            "_meta": {"openai/outputTemplate": "ui://widget/gifts.html"},
            "execution": {"taskSupport": "optional"}
        }))
        .unwrap();
        let (converted, dropped) = tool_to_rmcp(&tool).unwrap();
        assert_eq!(
            dropped,
            ["/icons/0/theme", "/annotations/futureHint", "/execution"]
        );
        let back = tool_to_json(&converted);
        assert_eq!(back["inputSchema"], tool.input_schema);
        assert_eq!(
            back["_meta"]["openai/outputTemplate"],
            "ui://widget/gifts.html"
        );
        assert_eq!(back["annotations"], json!({"readOnlyHint": true}));
        assert_eq!(back["title"], "Suggest gifts");
    }

    #[test]
    fn results_render_per_protocol_version() {
        let call = ToolCall {
            format: Target::Mcp,
            id: Some("1".to_owned()),
            name: "count".to_owned(),
            arguments: Ok(json!({})),
        };
        let result = ToolResult::structured(json!({"n": 1}));
        let oldest = PROTOCOL_VERSIONS[0];
        let old = serde_json::to_value(result_to_rmcp(&call, &result, oldest)).unwrap();
        assert_eq!(old["structuredContent"], json!({"n": 1}));
        let latest = result_to_rmcp(&call, &result, LATEST_MCP_VERSION);
        assert_eq!(result_from_rmcp(&latest).unwrap(), result);
    }
}
