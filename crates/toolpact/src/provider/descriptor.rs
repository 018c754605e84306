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
use crate::provider::{ExportOptions, ImportedTool, Share};
use crate::result::ToolResult;
use crate::tool::Tool;
use serde_json::{Map, Value};

/// One target's provider: everything a driver asks of it.
pub(crate) trait Provider: Sync {
    /// Lowers `tool`, under the name the target sees, into the target's payload item.
    fn lower(
        &self,
        tool: &Tool,
        name: &str,
        options: ExportOptions,
        share: &mut Share,
        log: &mut LossLog<'_>,
    ) -> Result<Value, Unrepresentable>;

    /// Wraps the lowered items in the target's envelope.
    fn wrap(&self, items: Vec<Value>) -> Value;

    /// Reads one tool of the target's input format.
    fn import(&self, item: Map<String, Value>) -> ImportedTool;

    /// Reads one call in the target's shape; `pointer` names its place for errors.
    fn parse_call(&self, call: &Map<String, Value>, pointer: &str) -> Result<ToolCall, CallError>;

    /// A result in the target's shape, answering the call `id` to the tool `name`.
    fn render_result(&self, id: Option<&str>, name: &str, result: &ToolResult) -> Value;

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
