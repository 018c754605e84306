//! The one table from a target to its provider's behaviour, for the drivers.

use crate::provider::descriptor::Provider;
use crate::provider::{Target, anthropic, gemini, mcp, openai};

/// The provider that writes and reads `target`.
pub(crate) fn provider(target: Target) -> &'static dyn Provider {
    match target {
        Target::Mcp => &mcp::Mcp,
        Target::OpenAiResponses => &openai::Responses,
        Target::OpenAiChat => &openai::Chat,
        Target::Anthropic => &anthropic::Anthropic,
        Target::Gemini => &gemini::Parameters,
        Target::GeminiJson => &gemini::JsonSchema,
        #[cfg(test)]
        Target::Fake => &crate::provider::fake::Fake,
    }
}

/// Every driver reaches every provider: a target a driver does not cover fails here, the
/// test provider (`provider/fake/`) included.
#[cfg(test)]
mod tests {
    use crate::{
        Catalog, Conversation, ExportOptions, RenderOptions, RequestOptions, Target, ToolResult,
        build_request, export, parse_call, push_response, render,
    };
    use serde_json::{Value, json};
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn gift_shop() -> Catalog {
        let path = "examples/catalogs/gift-shop.json";
        let bytes = std::fs::read(root().join(path)).unwrap();
        Catalog::from_slice(&bytes, path, None).unwrap()
    }

    #[test]
    fn export_then_import_reads_every_tool_back() {
        let catalog = gift_shop();
        let originals: Vec<&str> = catalog.tools().map(|t| t.name.as_str()).collect();
        for target in Target::ALL {
            let export = export(catalog.tools(), target, ExportOptions::default()).unwrap();
            assert!(export.report.left_out.is_empty(), "{target}");
            let text = serde_json::to_string(&export.payload).unwrap();
            let back = Catalog::from_str_named(&text, "export", Some(target)).unwrap();
            let names: Vec<&str> = back
                .tools()
                .map(|t| export.names.original(&t.name).unwrap())
                .collect();
            assert_eq!(names, originals, "{target}");
            for (entry, tool) in back.entries.iter().zip(catalog.tools()) {
                assert_eq!(entry.format, target.input_format(), "{target}");
                assert_eq!(entry.tool.description, tool.description, "{target}");
            }
        }
    }

    #[test]
    fn a_response_gives_calls_whose_results_go_into_the_next_request() {
        let catalog = gift_shop();
        for target in Target::ALL {
            if !target.is_model_api() {
                // No model answers through MCP: a `tools/call` is read and answered in its
                // shape.
                let call = parse_call(&json!({"name": "t", "arguments": {}}), Some(target), "");
                let call = call.unwrap();
                assert_eq!(call.format, target, "{target}");
                let result = ToolResult::text("the result of the call");
                let latest = render(&call, &result, RenderOptions::default());
                assert!(latest["content"].is_array(), "{target}");
                assert_eq!(latest["resultType"], "complete", "{target}");
                // The shape of the protocol version a server negotiated.
                let older = RenderOptions {
                    mcp_version: "2025-06-18",
                };
                assert_eq!(render(&call, &result, older).get("resultType"), None);
                continue;
            }
            let export = export(catalog.tools(), target, ExportOptions::default()).unwrap();
            let path = root()
                .join("fixtures/responses")
                .join(target.input_format().as_str())
                .join("one-call.json");
            let body: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let mut conversation = Conversation::new();
            conversation.push_user("Ideas for a friend who hikes?");
            let reply = push_response(&mut conversation, target, &body, &export.names).unwrap();
            assert!(!reply.calls.is_empty(), "{target}");
            for call in &reply.calls {
                assert_eq!(call.format, target.input_format(), "{target}");
                assert!(
                    render(
                        call,
                        &ToolResult::text("the result of the call"),
                        RenderOptions::default()
                    )
                    .is_object(),
                    "{target}"
                );
                conversation.push_result(
                    call.id.clone().unwrap(),
                    ToolResult::text("the result of the call"),
                );
            }
            let options = RequestOptions {
                model: Some("model".to_owned()),
                max_tokens: Some(100),
                ..RequestOptions::default()
            };
            let request = build_request(catalog.tools(), target, &conversation, &options).unwrap();
            let body = serde_json::to_string(&request.body).unwrap();
            assert!(
                body.contains("the result of the call"),
                "{target}: the result is not in {body}"
            );
        }
    }
}
