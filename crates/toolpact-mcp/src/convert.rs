//! Conversions between toolpact's types and rmcp's wire model. rmcp types are built here and
//! nowhere else, so that the JSON on the wire is the JSON toolpact would write: through their
//! serde form, except a call's result, which is built field by field on every call and tested
//! against its serde form.

use rmcp::model::{
    CallToolResult, ContentBlock, MetaObject, Resource as RmcpResource, ResourceContents,
    ResultType, Tool as RmcpTool,
};
use serde_json::{Map, Value};
use toolpact::{Content, Tool, ToolResult};

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

/// A toolpact result as an rmcp `CallToolResult` for the negotiated protocol version, with the
/// same JSON on the wire as [`toolpact::render`] writes for it.
///
/// Built field by field rather than through the rendered JSON: reading a rendered result back
/// into rmcp's model copied every string twice and cost a call as much as the tool itself.
/// Only an embedded resource goes through JSON, since rmcp reads it as one of two shapes (text
/// or blob) that toolpact leaves open.
pub(crate) fn result_to_rmcp(result: ToolResult, protocol_version: &str) -> CallToolResult {
    let ToolResult {
        content,
        structured,
        is_error,
        meta,
    } = result;
    let blocks: Result<Vec<ContentBlock>, serde_json::Error> =
        content.into_iter().map(content_to_rmcp).collect();
    let blocks = match blocks {
        Ok(blocks) => blocks,
        Err(e) => {
            // Every content block toolpact makes is one MCP defines; this is a bug, not input.
            tracing::error!(error = %e, "a tool result does not fit rmcp's CallToolResult");
            return CallToolResult::error(vec![ContentBlock::text(
                "The tool's result could not be encoded. Try again later.",
            )]);
        }
    };
    let mut converted = CallToolResult::success(blocks);
    // `resultType` from 2026-07-28 on, as toolpact renders it (rmcp also strips it for a peer
    // of an older version); `isError` and `_meta` only when they say something.
    converted.result_type = (protocol_version >= RESULT_TYPE_SINCE).then_some(ResultType::COMPLETE);
    converted.structured_content = structured;
    converted.is_error = is_error.then_some(true);
    converted.meta = (!meta.is_empty()).then_some(MetaObject(meta));
    converted
}

/// The first protocol version whose results carry `resultType`.
const RESULT_TYPE_SINCE: &str = "2026-07-28";

/// One content block in rmcp's model.
fn content_to_rmcp(content: Content) -> Result<ContentBlock, serde_json::Error> {
    Ok(match content {
        Content::Text { text } => ContentBlock::text(text),
        Content::Image { data, mime_type } => ContentBlock::image(data, mime_type),
        Content::Audio { data, mime_type } => ContentBlock::audio(data, mime_type),
        Content::ResourceLink {
            uri,
            name,
            title,
            description,
            mime_type,
        } => {
            let mut link = RmcpResource::new(uri, name);
            link.title = title;
            link.description = description;
            link.mime_type = mime_type;
            ContentBlock::resource_link(link)
        }
        Content::Resource { resource } => {
            ContentBlock::resource(serde_json::from_value::<ResourceContents>(resource)?)
        }
        // A kind of block added to toolpact later: through its JSON, as every block once went.
        other => serde_json::from_value(serde_json::to_value(other)?)?,
    })
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
    use toolpact::{LATEST_MCP_VERSION, RenderOptions, Target, ToolCall};

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
        let result = ToolResult::structured(json!({"n": 1}));
        let oldest = PROTOCOL_VERSIONS[0];
        let old = serde_json::to_value(result_to_rmcp(result.clone(), oldest)).unwrap();
        assert_eq!(old["structuredContent"], json!({"n": 1}));
        assert_eq!(old.get("resultType"), None);
        let latest = result_to_rmcp(result.clone(), LATEST_MCP_VERSION);
        assert_eq!(result_from_rmcp(&latest).unwrap(), result);
        assert_eq!(
            serde_json::to_value(&latest).unwrap()["resultType"],
            "complete"
        );
    }

    /// The result as it was converted before it was built directly: rendered to JSON by
    /// toolpact, read back into rmcp's model.
    fn through_json(result: &ToolResult, version: &str) -> CallToolResult {
        let call = ToolCall {
            format: Target::Mcp,
            id: Some("1".to_owned()),
            name: "tool".to_owned(),
            arguments: Ok(json!({})),
        };
        let rendered = toolpact::render(
            &call,
            result,
            RenderOptions {
                mcp_version: version,
            },
        );
        serde_json::from_value(rendered).unwrap_or_else(|_| {
            CallToolResult::error(vec![ContentBlock::text(
                "The tool's result could not be encoded. Try again later.",
            )])
        })
    }

    #[test]
    fn results_built_directly_write_the_json_they_wrote_through_json() {
        let content: Vec<Content> = serde_json::from_value(json!([
            {"type": "text", "text": "plain ünïcode \"quoted\"\n"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a.txt", "name": "a"},
            {"type": "resource_link", "uri": "file:///b.txt", "name": "b", "title": "B",
             "description": "The b file.", "mimeType": "text/plain"},
            {"type": "resource", "resource": {"uri": "file:///c.txt", "text": "c"}},
            {"type": "resource", "resource": {"uri": "file:///d.txt", "mimeType": "text/plain",
             "text": "d", "_meta": {"k": 1}, "unknown": true}},
            {"type": "resource", "resource": {"uri": "file:///e.bin", "blob": "AAEC",
             "mimeType": "application/octet-stream"}}
        ]))
        .unwrap();
        let mut results = vec![
            ToolResult::default(),
            ToolResult::text("3"),
            ToolResult::error("Something failed."),
            ToolResult::structured(json!({"n": 1, "items": [1, 2]})),
            ToolResult {
                structured: Some(Value::Null),
                ..ToolResult::text("null")
            },
            ToolResult {
                content: content.clone(),
                ..ToolResult::default()
            },
        ];
        for block in &content {
            results.push(ToolResult {
                content: vec![block.clone()],
                ..ToolResult::default()
            });
        }
        let mut everything = ToolResult::structured(json!({"a": [true, null, 1.5]}));
        everything.content.extend(content);
        everything.is_error = true;
        everything
            .meta
            .insert("toolpact/repairs".to_owned(), json!([{"pointer": "/a"}]));
        everything.meta.insert("z".to_owned(), json!("last"));
        results.push(everything);
        // An embedded resource rmcp cannot read (neither text nor blob): the whole result is
        // replaced by the same error either way.
        results.push(ToolResult {
            content: vec![
                serde_json::from_value(json!({"type": "resource", "resource": {"uri": "x"}}))
                    .unwrap(),
            ],
            ..ToolResult::default()
        });
        for version in PROTOCOL_VERSIONS.iter().copied().chain(["2025-03-26"]) {
            for result in &results {
                let direct =
                    serde_json::to_string(&result_to_rmcp(result.clone(), version)).unwrap();
                let before = serde_json::to_string(&through_json(result, version)).unwrap();
                assert_eq!(direct, before, "{version}: {result:?}");
            }
        }
    }
}
