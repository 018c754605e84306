//! A provider that exists only in the library's tests, to show what adding a provider takes
//! and to prove that every driver reaches it through the descriptor: this folder, its
//! [`Target::Fake`](crate::Target) variant (with its entry in `Target::ALL` and its facts
//! in the same file), its arm in [`crate::provider::table`], and its fixture
//! `fixtures/responses/fake/one-call.json`. Nothing else names it.
//!
//! Its shapes are small on purpose: a tool is `{"fake": {"name", "description", "schema"}}`,
//! a call `{"fakeCall": {"id", "name", "args"}}`, a result `{"fakeResult": {"id", "text",
//! "error"}}`, a request `{"tools", "turns"}` and a response `{"calls": [call, …]}`.

pub(crate) mod facts;

use crate::exchange::call::{CallError, ToolCall, arguments_from_value, string_field};
use crate::exchange::request::{Parts, Turn, Unsupported};
use crate::exchange::response::{ReplyReader, ResponseError, StopKind, StopReason, array_at};
use crate::loss::{LossLog, Unrepresentable};
use crate::provider::descriptor::{ItemParts, ModelApi, Provider, Schemas};
use crate::provider::{
    ExportOptions, ImportedTool, ItemError, RenderOptions, Target, drop_unplaced, object,
    optional_string, require_object_root,
};
use crate::result::ToolResult;
use crate::tool::Tool;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// The test provider.
pub(crate) struct Fake;

impl Provider for Fake {
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        _options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable> {
        require_object_root(tool, "Fake", log)?;
        drop_unplaced(tool, "Fake", false, log);
        Ok(Schemas {
            input: Some(Cow::Borrowed(&tool.input_schema)),
            output: None,
            ..Schemas::default()
        })
    }

    fn item(&self, parts: ItemParts<'_>) -> Value {
        json!({ "fake": object([
            ("name", Some(json!(parts.name))),
            ("description", parts.tool.description.clone().map(Value::String)),
            ("schema", parts.input.map(Cow::into_owned)),
        ]) })
    }

    fn import(&self, item: Map<String, Value>) -> ImportedTool {
        let Some(Value::Object(fake)) = item.get("fake") else {
            return Err(ItemError {
                pointer: "/fake".to_owned(),
                message: "a fake tool needs a `fake` object".to_owned(),
            });
        };
        let name = match fake.get("name") {
            Some(Value::String(name)) => name.clone(),
            _ => {
                return Err(ItemError {
                    pointer: "/fake/name".to_owned(),
                    message: "a fake tool needs a name".to_owned(),
                });
            }
        };
        let tool = Tool {
            name,
            title: None,
            description: optional_string(fake, "description")?,
            input_schema: fake.get("schema").cloned().unwrap_or(Value::Null),
            output_schema: None,
            annotations: None,
            icons: None,
            meta: None,
            extra: Map::new(),
        };
        Ok((tool, Vec::new()))
    }

    fn parse_call(&self, call: &Map<String, Value>, pointer: &str) -> Result<ToolCall, CallError> {
        let Some(Value::Object(call)) = call.get("fakeCall") else {
            return Err(CallError::not_a_call(pointer, "a fake call has `fakeCall`"));
        };
        Ok(ToolCall {
            format: Target::Fake,
            id: Some(string_field(call, "id", pointer)?),
            name: string_field(call, "name", pointer)?,
            arguments: arguments_from_value(call.get("args").cloned().unwrap_or(json!({}))),
        })
    }

    fn render_result(
        &self,
        id: Option<&str>,
        _name: &str,
        result: &ToolResult,
        _options: RenderOptions<'_>,
    ) -> Value {
        json!({ "fakeResult": {
            "id": id,
            "text": result.text_content(),
            "error": result.is_error,
        } })
    }

    fn model_api(&self) -> Option<&dyn ModelApi> {
        Some(self)
    }
}

impl ModelApi for Fake {
    fn required_options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    fn build_request(&self, parts: Parts<'_>) -> Result<Value, Unsupported> {
        let turns: Vec<Value> = parts
            .turns
            .into_iter()
            .map(|turn| match turn {
                Turn::User(text) => json!({ "user": text }),
                Turn::Assistant(assistant) => json!({
                    "assistant": assistant.text,
                    "calls": assistant.calls.iter().map(|c| json!({
                        "fakeCall": { "id": c.id, "name": c.name, "args": c.arguments }
                    })).collect::<Vec<_>>(),
                }),
                Turn::Results(results) => json!({ "results": results }),
            })
            .collect();
        Ok(json!({ "tools": parts.tools, "turns": turns }))
    }

    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut ReplyReader<'_>,
    ) -> Result<StopReason, ResponseError> {
        let calls = array_at(body, "calls", "", "a fake response")?;
        for (i, call) in calls.iter().enumerate() {
            let at = format!("/calls/{i}");
            let Some(obj) = call.as_object() else {
                return Err(ResponseError::shape(at, "a call is a JSON object"));
            };
            reader.call(self.parse_call(obj, &at)?, None, None);
        }
        Ok(if reader.has_calls() {
            StopReason::new(StopKind::ToolCalls, "calls")
        } else {
            StopReason::new(StopKind::EndTurn, "done")
        })
    }
}
