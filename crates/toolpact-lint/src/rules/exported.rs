//! What an export sent: each tool definition of a target's payload matched to its place in the
//! catalog, for the rules that read exports (provider limits, token costs).
//!
//! The rules never lower anything themselves: they read [`crate::context::Context::exports`],
//! which holds what `toolpact convert` would send, so a finding and the converted payload
//! cannot disagree.

use crate::context::{Context, TargetExport};
use serde_json::Value;
use std::collections::HashSet;
use toolpact::{Target, Tool};

/// One tool as a target received it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sent<'a> {
    /// The tool's position in the catalog.
    pub index: usize,
    /// The tool as written.
    pub tool: &'a Tool,
    /// The name the target saw (rewritten when the target's naming rule required it).
    pub name: &'a str,
    /// The target's payload item for the tool.
    item: &'a Value,
    target: Target,
}

impl<'a> Sent<'a> {
    /// A field of the function definition (`function.<key>` for OpenAI Chat).
    fn field(&self, key: &str) -> Option<&'a Value> {
        field(self.target, self.item, key)
    }

    /// The description the target received.
    pub fn description(&self) -> Option<&'a str> {
        self.field("description").and_then(Value::as_str)
    }

    /// The input schema the target received (`parameters`, `input_schema`, …), as lowered.
    pub fn input_schema(&self) -> Option<&'a Value> {
        self.field(match self.target {
            Target::Mcp => "inputSchema",
            Target::OpenAiResponses | Target::OpenAiChat | Target::Gemini => "parameters",
            Target::Anthropic => "input_schema",
            Target::GeminiJson => "parametersJsonSchema",
        })
    }
}

fn field<'a>(target: Target, item: &'a Value, key: &str) -> Option<&'a Value> {
    match target {
        Target::OpenAiChat => item.get("function")?.get(key),
        _ => item.get(key),
    }
}

/// The tool definitions of a payload, whatever the envelope around them.
fn payload_items(target: Target, payload: &Value) -> &[Value] {
    let list = match target {
        Target::Mcp => payload.get("tools"),
        Target::OpenAiResponses | Target::OpenAiChat | Target::Anthropic => Some(payload),
        Target::Gemini | Target::GeminiJson => payload
            .get(0)
            .and_then(|tool| tool.get("functionDeclarations")),
    };
    list.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Each tool definition of an export's payload with the catalog position of its tool, in
/// catalog order. The export keeps every tool it does not leave out, in order, so the payload
/// lines up with the catalog once the left-out tools are skipped. `tools` is the size of the
/// catalog.
pub(crate) fn items_by_position<'c>(
    export: &TargetExport<'c>,
    tools: usize,
) -> impl Iterator<Item = (usize, &'c Value)> + use<'c> {
    let left_out: HashSet<usize> = export
        .export
        .report
        .left_out
        .iter()
        .map(|u| u.index)
        .collect();
    (0..tools)
        .filter(move |index| !left_out.contains(index))
        .zip(payload_items(export.target, &export.export.payload))
}

/// The tools an export sent, in catalog order (see [`items_by_position`]); the name map
/// confirms each pair, and an item that does not match is skipped rather than reported
/// against the wrong tool.
pub(crate) fn sent<'c>(cx: &'c Context<'_>, export: &TargetExport<'c>) -> Vec<Sent<'c>> {
    items_by_position(export, cx.catalog.len())
        .filter_map(|(index, item)| {
            let tool = &cx.catalog.entries.get(index)?.tool;
            let name = field(export.target, item, "name")?.as_str()?;
            (export.export.names.original(name) == Some(tool.name.as_str())).then_some(Sent {
                index,
                tool,
                name,
                item,
                target: export.target,
            })
        })
        .collect()
}
