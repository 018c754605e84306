//! What a provider does, behind one interface the drivers ask: lower a tool and wrap the
//! payload (export), read its tools (catalog), read its calls (call), render a result in its
//! shape (dispatch), and, for a model API, build a request and read a response.
//!
//! What a provider is, as data (names, naming rule, limits), is its
//! [`Facts`](crate::provider::facts::Facts); [`crate::provider::table`] chooses both for a
//! target.

use crate::exchange::call::{CallError, ToolCall};
use crate::exchange::request::{Parts, Unsupported};
use crate::exchange::response::{ReplyReader, ResponseError, StopReason};
use crate::loss::{LossLog, Unrepresentable};
use crate::lower::{Inverse, SourceMap};
use crate::provider::{ExportOptions, ImportedTool, RenderOptions};
use crate::result::ToolResult;
use crate::tool::Tool;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The schemas a provider's lowering produces for one tool: borrowed where the target sends
/// them as written, owned where it rewrote them.
#[derive(Debug, Default)]
pub(crate) struct Schemas<'t> {
    /// The input schema the target receives, if it sends one.
    pub input: Option<Cow<'t, Value>>,
    /// The output schema the target receives, if it has a place for one.
    pub output: Option<Cow<'t, Value>>,
    /// Where each part of the input schema comes from (empty when sent as written).
    pub input_sources: SourceMap,
    /// Where each part of the output schema comes from (empty when sent as written).
    pub output_sources: SourceMap,
    /// How to read back what a model sends for the input schema (empty when lowering kept
    /// the shape of every value).
    pub input_inverse: Inverse,
}

/// What a provider writes one tool's payload item from.
#[derive(Debug)]
pub(crate) struct ItemParts<'a> {
    /// The tool as written.
    pub tool: &'a Tool,
    /// The name the target sees.
    pub name: &'a str,
    /// Whether the tool is lowered to the target's strict subset.
    pub strict: bool,
    /// The input schema to write, if the target sends one: borrowed where it is sent as
    /// written, so that a provider that writes its item some other way copies nothing.
    pub input: Option<Cow<'a, Value>>,
    /// The output schema to write, if the target has a place for one.
    pub output: Option<Cow<'a, Value>>,
}

/// One target's provider: everything a driver asks of it.
pub(crate) trait Provider: Sync {
    /// Lowers the schemas of `tool` for the target, logging what it cannot express.
    fn lower<'t>(
        &self,
        tool: &'t Tool,
        options: ExportOptions,
        log: &mut LossLog<'_>,
    ) -> Result<Schemas<'t>, Unrepresentable>;

    /// The tool's definition in the target's payload.
    fn item(&self, parts: ItemParts<'_>) -> Value;

    /// Wraps the lowered items in the target's envelope: a bare array unless the target
    /// has an envelope of its own.
    fn wrap(&self, items: Vec<Value>) -> Value {
        Value::Array(items)
    }

    /// Reads one tool of the target's input format.
    fn import(&self, item: Map<String, Value>) -> ImportedTool;

    /// Reads one call in the target's shape; `pointer` names its place for errors.
    fn parse_call(&self, call: &Map<String, Value>, pointer: &str) -> Result<ToolCall, CallError>;

    /// A result in the target's shape, answering the call `id` to the tool `name`.
    fn render_result(
        &self,
        id: Option<&str>,
        name: &str,
        result: &ToolResult,
        options: RenderOptions<'_>,
    ) -> Value;

    /// The target as a model API, or `None` (MCP) when requests are not built for it.
    fn model_api(&self) -> Option<&dyn ModelApi>;
}

/// A provider that models are called through: requests are built for it and its responses
/// read.
pub(crate) trait ModelApi: Sync {
    /// The request options the provider requires, each with why, in the order they are
    /// checked (`model`, `max_tokens`).
    fn required_options(&self) -> &'static [(&'static str, &'static str)];

    /// The request body from its parts, or the setting the provider cannot express.
    fn build_request(&self, parts: Parts<'_>) -> Result<Value, Unsupported>;

    /// Reads a response body (already checked to be an object that is not an error) into
    /// `reader`, and says why the model stopped.
    fn read_response(
        &self,
        body: &Map<String, Value>,
        reader: &mut ReplyReader<'_>,
    ) -> Result<StopReason, ResponseError>;
}
