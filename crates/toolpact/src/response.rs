//! Provider responses read back into the neutral conversation: the assistant's text, the tool
//! calls it proposed (with their ids, and the tools' own names), its reasoning items and why it
//! stopped.
//!
//! The calls come out as [`ToolCall`](crate::ToolCall)s, read by the same per-provider code as
//! [`crate::parse_call`], so a Chat `arguments` string that does not parse stays an error the
//! model can read, never `{}`. Gemini may send calls without ids: each gets a deterministic id
//! made from its place in the conversation (`gemini-call-3-0` for the first call of message 3),
//! marked as made up so it is never sent to Gemini.

use crate::conversation::Conversation;
use crate::exchange::response::ReplyReader;
pub use crate::exchange::response::{Reply, ResponseError, Skipped, StopKind, StopReason};
use crate::json::a_type;
use crate::name::NameMap;
use crate::provider::Target;
use crate::provider::table::provider;
use serde_json::{Map, Value};

/// Reads a response body of `target` into a [`Reply`]. `names` is the [`crate::Request`]'s
/// name map (calls come back under the names the provider saw); `message_index` is where the
/// message will sit in the conversation, which made-up call ids are built from.
pub fn read_response(
    target: Target,
    body: &Value,
    names: &NameMap,
    message_index: usize,
) -> Result<Reply, ResponseError> {
    let api = provider(target)
        .model_api()
        .ok_or(ResponseError::NotAModelApi(target))?;
    let Value::Object(body) = body else {
        return Err(ResponseError::shape(
            "",
            format!("a response body is a JSON object, found {}", a_type(body)),
        ));
    };
    provider_error(body)?;
    let mut reader = ReplyReader::new(names, target.input_format(), message_index);
    let stop = api.read_response(body, &mut reader)?;
    Ok(reader.finish(stop))
}

/// The error answers of every provider: OpenAI and Gemini `{"error": {"message", …}}`,
/// Anthropic `{"type": "error", "error": {"type", "message"}}`.
fn provider_error(body: &Map<String, Value>) -> Result<(), ResponseError> {
    let Some(Value::Object(error)) = body.get("error") else {
        return Ok(());
    };
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("(no message)");
    let kind = ["type", "status", "code"]
        .iter()
        .find_map(|k| match error.get(*k) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        });
    Err(ResponseError::Provider {
        message: match kind {
            Some(kind) => format!("{kind}: {message}"),
            None => message.to_owned(),
        },
    })
}

/// Reads a response of `target` (see [`read_response`]) and adds the assistant's message to
/// `conversation`; returns the reply, whose [`Reply::calls`] are to be dispatched and
/// answered with [`Conversation::push_result`]. A reply with nothing to keep (a Gemini
/// malformed call, a refusal with no text) adds no message.
pub fn push_response(
    conversation: &mut Conversation,
    target: Target,
    body: &Value,
    names: &NameMap,
) -> Result<Reply, ResponseError> {
    let reply = read_response(target, body, names, conversation.messages.len())?;
    if !reply.message.is_empty() {
        conversation.push_assistant(reply.message.clone());
    }
    Ok(reply)
}
