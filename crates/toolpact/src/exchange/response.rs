//! One provider response in neutral form: the [`Reply`], why the model stopped, what was not
//! kept, and the [`ReplyReader`] every provider's response reader fills.

use crate::conversation::{AssistantMessage, ProposedCall, Reasoning};
use crate::exchange::call::{CallError, ToolCall};
use crate::json::a_type;
use crate::name::NameMap;
use crate::provider::Target;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// Whether `id` is one this module made up for a Gemini call that came without one
/// (`gemini-call-3-0`): such an id is never sent to Gemini.
pub(crate) fn is_made_up_gemini_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("gemini-call-") else {
        return false;
    };
    let mut parts = rest.split('-');
    let numeric = |part: Option<&str>| {
        part.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    numeric(parts.next()) && numeric(parts.next()) && parts.next().is_none()
}

/// What one provider response says: the assistant's message, its calls ready for dispatch, why
/// it stopped, and what was not kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reply {
    /// The assistant's message, as it goes into the conversation.
    pub message: AssistantMessage,
    /// The calls, in the provider's shape with the tools' own names, ready for
    /// [`crate::dispatch()`]; their ids are the ids in [`Reply::message`]. A Gemini
    /// call that came without an id carries its made-up id here, so that its result can be
    /// matched with [`crate::Conversation::push_result`]; neither the conversation nor
    /// [`crate::Dispatched::render`] ever sends a made-up id to Gemini.
    pub calls: Vec<ToolCall>,
    /// Why the model stopped.
    pub stop: StopReason,
    /// What the response held that the conversation does not keep.
    pub skipped: Vec<Skipped>,
}

/// Why the model stopped, in neutral terms, with the provider's own word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StopReason {
    /// What it means.
    pub kind: StopKind,
    /// The provider's value (`tool_use`, `STOP`, `incomplete: max_output_tokens`), when it
    /// sent one.
    pub raw: Option<String>,
}

impl StopReason {
    pub(crate) fn new(kind: StopKind, raw: impl Into<String>) -> Self {
        StopReason {
            kind,
            raw: Some(raw.into()),
        }
    }
}

/// What a stop means for the harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum StopKind {
    /// The model finished its answer.
    EndTurn,
    /// The model wants tool results: dispatch the calls and send the results.
    ToolCalls,
    /// The answer hit the token limit and is cut short.
    MaxTokens,
    /// A stop sequence ended the answer.
    StopSequence,
    /// The model refused, or a safety filter stopped the answer.
    Refusal,
    /// The model tried to call a tool but wrote a call that cannot be parsed (Gemini
    /// `MALFORMED_FUNCTION_CALL`); no call comes with it.
    MalformedToolCall,
    /// Anything else (`pause_turn`, an unfinished background response): see the raw value.
    Other,
}

impl fmt::Display for StopKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopKind::EndTurn => "end-turn",
            StopKind::ToolCalls => "tool-calls",
            StopKind::MaxTokens => "max-tokens",
            StopKind::StopSequence => "stop-sequence",
            StopKind::Refusal => "refusal",
            StopKind::MalformedToolCall => "malformed-tool-call",
            StopKind::Other => "other",
        })
    }
}

/// Something in a response the conversation does not keep (a built-in tool's output item, a
/// thought summary), and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// JSON pointer into the response body.
    pub pointer: String,
    /// What it is, and why it is not kept.
    pub message: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// Why a response could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResponseError {
    /// The target is not a model API (MCP).
    #[error(
        "{0} is not a model API; responses are read for openai-responses, openai-chat, anthropic, gemini and gemini-json"
    )]
    NotAModelApi(Target),
    /// The body is the provider's error answer.
    #[error("the provider answered with an error: {message}")]
    Provider {
        /// The provider's message, with its type or code when it gave one.
        message: String,
    },
    /// The body is not a response of the target's shape.
    #[error("{}{message}", if pointer.is_empty() { String::new() } else { format!("{pointer}: ") })]
    Shape {
        /// Where, in the body.
        pointer: String,
        /// What was expected.
        message: String,
    },
    /// A tool call in it is not a call.
    #[error(transparent)]
    Call(#[from] CallError),
}

impl ResponseError {
    pub(crate) fn shape(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ResponseError::Shape {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// Collects one response's text, calls, reasoning items and skipped parts, for the provider
/// readers in `provider/`.
pub(crate) struct ReplyReader<'n> {
    names: &'n NameMap,
    format: Target,
    message_index: usize,
    text: Vec<String>,
    calls: Vec<ProposedCall>,
    tool_calls: Vec<ToolCall>,
    reasoning: Vec<Reasoning>,
    skipped: Vec<Skipped>,
}

impl<'n> ReplyReader<'n> {
    /// A reader of one response, whose calls come back under the names in `names`, in
    /// `format`, for the message at `message_index` of the conversation.
    pub(crate) fn new(names: &'n NameMap, format: Target, message_index: usize) -> Self {
        ReplyReader {
            names,
            format,
            message_index,
            text: Vec::new(),
            calls: Vec::new(),
            tool_calls: Vec::new(),
            reasoning: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// Adds a piece of the answer's text.
    pub(crate) fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.text.push(text.to_owned());
        }
    }

    /// Adds a call read by the provider's `parse_call`; `sent` is its arguments as they came
    /// (kept when they are not a JSON object), `signature` Gemini's thought signature.
    pub(crate) fn call(&mut self, call: ToolCall, sent: Option<&Value>, signature: Option<&str>) {
        let name = self
            .names
            .original(&call.name)
            .unwrap_or(&call.name)
            .to_owned();
        let (id, synthetic_id) = match call.id {
            Some(id) => (id, false),
            None => (
                format!(
                    "{}-call-{}-{}",
                    self.format,
                    self.message_index,
                    self.calls.len()
                ),
                true,
            ),
        };
        let arguments = match &call.arguments {
            Ok(value) => value.clone(),
            Err(_) => sent.cloned().unwrap_or(Value::Null),
        };
        self.calls.push(ProposedCall {
            id: id.clone(),
            name: name.clone(),
            arguments,
            synthetic_id,
            signature: signature.map(str::to_owned),
        });
        self.tool_calls.push(ToolCall {
            format: self.format,
            id: Some(id),
            name,
            arguments: call.arguments,
        });
    }

    /// Whether any call was read.
    pub(crate) fn has_calls(&self) -> bool {
        !self.calls.is_empty()
    }

    /// Keeps a reasoning item, to send back to the same provider.
    pub(crate) fn reasoning(&mut self, item: &Value) {
        self.reasoning.push(Reasoning {
            format: self.format,
            item: item.clone(),
        });
    }

    /// Notes something not kept.
    pub(crate) fn skip(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.skipped.push(Skipped {
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    /// The reply read, which stopped for `stop`.
    pub(crate) fn finish(self, stop: StopReason) -> Reply {
        let text = self.text.join("\n\n");
        Reply {
            message: AssistantMessage {
                content: (!text.is_empty()).then_some(text),
                tool_calls: self.calls,
                reasoning: self.reasoning,
            },
            calls: self.tool_calls,
            stop,
            skipped: self.skipped,
        }
    }
}

/// The array at `key` of a response object, or a shape error naming it.
pub(crate) fn array_at<'v>(
    obj: &'v Map<String, Value>,
    key: &str,
    pointer: &str,
    what: &str,
) -> Result<&'v Vec<Value>, ResponseError> {
    match obj.get(key) {
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(ResponseError::shape(
            format!("{pointer}/{key}"),
            format!("`{key}` must be an array, found {}", a_type(other)),
        )),
        None => Err(ResponseError::shape(
            pointer,
            format!("no `{key}`: this is not {what}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::is_made_up_gemini_id;

    #[test]
    fn only_ids_of_the_made_up_shape_count_as_made_up() {
        assert!(is_made_up_gemini_id("gemini-call-3-0"));
        assert!(is_made_up_gemini_id("gemini-call-12-10"));
        for real in [
            "7ngq2f9c",
            "gemini-call-3",
            "gemini-call-3-0-1",
            "gemini-call-a-0",
            "gemini-call--0",
            "call_gemini-call-3-0",
        ] {
            assert!(!is_made_up_gemini_id(real), "{real}");
        }
    }
}
