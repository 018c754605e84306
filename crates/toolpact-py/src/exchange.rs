//! Talking to a model's API: `build_request` turns tools and a conversation into one
//! provider's request body; `read_response` reads a provider's response back.

use crate::errors::{RequestError, ResponseError};
use crate::tools::{parse_target, read_tools};
use crate::value::{serialized, to_json, to_python};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use toolpact::name::NameMap;
use toolpact::{Conversation, ExportOptions, RequestOptions, ToolChoice, parse_messages};

/// Builds the whole request body one provider's API expects (`openai-responses`,
/// `openai-chat`, `anthropic`, `gemini`), as `toolpact request` does, from tools and the
/// conversation so far in the neutral form: a list of `{"role": "user" | "assistant" |
/// "tool", …}` messages, or a dict with `system` and `messages`.
///
/// Returns a dict: `body` (what to send), `losses` and `left_out` (what the tools' export
/// could not express), `conversation_losses` (what the conversation lost on the way) and
/// `names` (exported name → the tool's own name, where the export rewrote it).
#[pyfunction]
#[pyo3(signature = (tools, target, messages, *, system = None, model = None, max_tokens = None, strict = false, tool_choice = "auto", parallel_tool_calls = None))]
#[allow(clippy::too_many_arguments)]
pub fn build_request<'py>(
    py: Python<'py>,
    tools: &Bound<'py, PyAny>,
    target: &str,
    messages: &Bound<'py, PyAny>,
    system: Option<String>,
    model: Option<String>,
    max_tokens: Option<u32>,
    strict: bool,
    tool_choice: &str,
    parallel_tool_calls: Option<bool>,
) -> PyResult<Bound<'py, PyDict>> {
    let target = parse_target(target)?;
    let input = read_tools(tools, None)?;
    let text = serde_json::to_string(&to_json(messages, "the messages")?)
        .map_err(|e| RequestError::new_err(e.to_string()))?;
    let (embedded, list) =
        parse_messages(&text).map_err(|e| RequestError::new_err(format!("messages: {e}")))?;
    let system = match (system, embedded) {
        (Some(_), Some(_)) => {
            return Err(RequestError::new_err(
                "the system prompt is given twice: as `system` and in the messages; keep one",
            ));
        }
        (given, embedded) => given.or(embedded),
    };
    let tool_choice: ToolChoice = tool_choice
        .parse()
        .map_err(|e: toolpact::InvalidToolChoice| RequestError::new_err(e.to_string()))?;
    let options = RequestOptions {
        model,
        max_tokens,
        strict,
        tool_choice,
        parallel_tool_calls,
    };
    let conversation = Conversation {
        system,
        messages: list,
    };
    let request = toolpact::build_request(input.catalog.tools(), target, &conversation, &options)
        .map_err(|e| RequestError::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("body", to_python(py, &request.body)?)?;
    out.set_item("losses", serialized(py, &request.report.losses)?)?;
    out.set_item("left_out", serialized(py, &request.report.left_out)?)?;
    out.set_item("conversation_losses", serialized(py, &request.losses)?)?;
    let names = PyDict::new(py);
    for (exported, original) in request.names.renamed() {
        names.set_item(exported, original)?;
    }
    out.set_item("names", names)?;
    Ok(out)
}

/// Reads one provider response body back. Returns a dict: `message` (the assistant's message
/// in the neutral form), `calls` (each with `format`, `id`, `name`, and `arguments`, or
/// `error` when the arguments are not a JSON object; with the tools' own names when `tools`
/// is given, as the request exported them), `stop` (why the model stopped) and `skipped`
/// (what the response held that the conversation does not keep).
/// A provider's error answer raises `ResponseError` with the provider's message.
#[pyfunction]
#[pyo3(signature = (target, body, *, tools = None, strict = false))]
pub fn read_response<'py>(
    py: Python<'py>,
    target: &str,
    body: &Bound<'py, PyAny>,
    tools: Option<&Bound<'py, PyAny>>,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let target = parse_target(target)?;
    let body = to_json(body, "the response")?;
    let names = match tools {
        Some(tools) => {
            let input = read_tools(tools, None)?;
            toolpact::export(input.catalog.tools(), target, ExportOptions { strict })
                .map_err(|e| ResponseError::new_err(e.to_string()))?
                .names
        }
        None => NameMap::default(),
    };
    let reply = toolpact::read_response(target, &body, &names, 0)
        .map_err(|e| ResponseError::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("message", serialized(py, &reply.message)?)?;
    let calls = PyList::empty(py);
    for call in &reply.calls {
        let item = PyDict::new(py);
        item.set_item("format", call.format.as_str())?;
        item.set_item("id", call.id.as_deref())?;
        item.set_item("name", &call.name)?;
        match &call.arguments {
            Ok(arguments) => {
                item.set_item("arguments", to_python(py, arguments)?)?;
                item.set_item("error", py.None())?;
            }
            Err(why) => {
                item.set_item("arguments", py.None())?;
                item.set_item("error", why)?;
            }
        }
        calls.append(item)?;
    }
    out.set_item("calls", calls)?;
    out.set_item("stop", serialized(py, &reply.stop)?)?;
    out.set_item("skipped", serialized(py, &reply.skipped)?)?;
    Ok(out)
}
