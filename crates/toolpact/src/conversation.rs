//! The neutral conversation: one history — system prompt, user and assistant messages, the
//! tool calls the model proposed and the results sent back — that every provider's request is
//! built from ([`crate::request`]) and every provider's response is read into
//! ([`crate::response`]).
//!
//! Tool names in the conversation are the tools' own names; each request maps them to the
//! names the provider saw (a [`crate::NameMap`]), and each response maps them back. Call ids
//! are the provider's; Gemini may send none, and then a deterministic id is made up and marked
//! ([`ProposedCall::synthetic_id`]) so that it is never sent to Gemini.
//!
//! The JSON form is documented in `docs/conversation.md`:
//!
//! ```json
//! [
//!   {"role": "user", "content": "Gift ideas for my sister, who hikes? Up to 60 euros."},
//!   {"role": "assistant", "toolCalls": [
//!     {"id": "call_1", "name": "suggest_gifts", "arguments": {"relationship": "sibling", "interests": ["hiking"], "maxBudget": 60}}
//!   ]},
//!   {"role": "tool", "toolCallId": "call_1", "content": "{\"gifts\": []}", "isError": false}
//! ]
//! ```

use crate::exchange::call::{ToolCall, arguments_from_string, arguments_from_value};
use crate::json::{a_type, child_pointer};
use crate::provider::Target;
use crate::result::{Content, ToolResult};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// A whole conversation: the system prompt, which travels apart from the messages, and
/// the messages in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conversation {
    /// General rules for the model, sent as `instructions`, a `system` message, `system` or
    /// `systemInstruction`. `None` or empty sends none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The messages, oldest first.
    #[serde(default)]
    pub messages: Vec<Message>,
}

/// One message of the conversation, tagged by its `role`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Message {
    /// What the user said.
    User(UserMessage),
    /// What the model answered: text, tool calls, or both.
    Assistant(AssistantMessage),
    /// The result of one tool call, answering a call of the assistant message before it.
    Tool(ToolMessage),
}

/// What the user said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserMessage {
    /// The text.
    pub content: String,
}

/// What the model answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssistantMessage {
    /// The text of the answer, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The tool calls the model proposed, in the order it proposed them.
    #[serde(rename = "toolCalls", default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ProposedCall>,
    /// The provider's reasoning items, sent back only to the same provider.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasoning: Vec<Reasoning>,
}

impl AssistantMessage {
    /// Whether the message says nothing: no text, no call, no reasoning.
    pub fn is_empty(&self) -> bool {
        self.content.as_deref().is_none_or(str::is_empty)
            && self.tool_calls.is_empty()
            && self.reasoning.is_empty()
    }
}

/// A tool call as the model proposed it, kept in the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedCall {
    /// The call id; tool messages answer it with `toolCallId`.
    pub id: String,
    /// The tool's own name (not the name a provider saw, when export rewrote it).
    pub name: String,
    /// The JSON object the model sent. When the model sent something that is not a JSON
    /// object (a Chat `arguments` string that does not parse, say), the text exactly as sent,
    /// as a JSON string, so that it goes back to the provider unchanged.
    #[serde(default = "empty_object")]
    pub arguments: Value,
    /// The provider sent no id (Gemini may not), so `id` was made up: it matches results here,
    /// and is never sent to Gemini.
    #[serde(
        rename = "syntheticId",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub synthetic_id: bool,
    /// Gemini's `thoughtSignature` on the part that held the call, sent back with it (Gemini 3
    /// refuses a function call of the current turn without its signature).
    #[serde(
        rename = "thoughtSignature",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub signature: Option<String>,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

impl ProposedCall {
    /// The call in `format`'s shape, ready for [`crate::dispatch()`]. Arguments that
    /// are not a JSON object stay an error the model can read, never `{}`.
    pub fn to_call(&self, format: Target) -> ToolCall {
        ToolCall {
            format,
            id: Some(self.id.clone()),
            name: self.name.clone(),
            arguments: match &self.arguments {
                Value::String(text) => arguments_from_string(text),
                other => arguments_from_value(other.clone()),
            },
        }
    }

    /// The arguments as a JSON object, when they are one (or are the text of one).
    pub fn arguments_object(&self) -> Option<Map<String, Value>> {
        match &self.arguments {
            Value::Object(map) => Some(map.clone()),
            Value::String(text) => match serde_json::from_str(text) {
                Ok(Value::Object(map)) => Some(map),
                _ => None,
            },
            _ => None,
        }
    }

    /// The arguments as the text OpenAI sends: the JSON of the object, or the text as the model
    /// sent it.
    pub fn arguments_text(&self) -> String {
        match &self.arguments {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        }
    }
}

/// A provider's reasoning item (an OpenAI Responses `reasoning` item, an Anthropic `thinking`
/// or `redacted_thinking` block), kept as it came and sent back only to the same provider,
/// which needs it to continue a tool-use turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reasoning {
    /// The provider shape it came in.
    #[serde(deserialize_with = "format_from_str")]
    pub format: Target,
    /// The item, unchanged.
    pub item: Value,
}

/// A target's name, read as the target its input is in (`gemini-json` is `gemini`).
fn format_from_str<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Target, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse::<Target>()
        .map(Target::input_format)
        .map_err(serde::de::Error::custom)
}

/// The result of one tool call, answering the call `tool_call_id`.
///
/// In JSON, the result's fields sit next to `toolCallId`: `content` (a string, or MCP content
/// blocks), `structuredContent`, `isError` and `_meta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ToolMessageJson", into = "ToolMessageJson")]
pub struct ToolMessage {
    /// The id of the call this answers.
    pub tool_call_id: String,
    /// The result.
    pub result: ToolResult,
}

/// The JSON form of [`ToolMessage`]: `content` may be a plain string.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolMessageJson {
    #[serde(rename = "toolCallId")]
    tool_call_id: String,
    #[serde(default)]
    content: ContentJson,
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    structured: Option<Value>,
    #[serde(rename = "isError", default)]
    is_error: bool,
    #[serde(rename = "_meta", default, skip_serializing_if = "Map::is_empty")]
    meta: Map<String, Value>,
}

/// A result's content: one text, or content blocks.
#[derive(Debug, Clone, PartialEq)]
enum ContentJson {
    Text(String),
    Blocks(Vec<Content>),
}

impl Default for ContentJson {
    fn default() -> Self {
        ContentJson::Blocks(Vec::new())
    }
}

impl Serialize for ContentJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentJson::Text(text) => serializer.serialize_str(text),
            ContentJson::Blocks(blocks) => blocks.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ContentJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(text) => Ok(ContentJson::Text(text)),
            Value::Array(blocks) => serde_json::from_value(Value::Array(blocks))
                .map(ContentJson::Blocks)
                .map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(format!(
                "`content` is a string or an array of content blocks, not {}",
                a_type(&other)
            ))),
        }
    }
}

impl From<ToolMessageJson> for ToolMessage {
    fn from(json: ToolMessageJson) -> Self {
        let content = match json.content {
            ContentJson::Text(text) => vec![Content::text(text)],
            ContentJson::Blocks(blocks) => blocks,
        };
        ToolMessage {
            tool_call_id: json.tool_call_id,
            result: ToolResult {
                content,
                structured: json.structured,
                is_error: json.is_error,
                meta: json.meta,
            },
        }
    }
}

impl From<ToolMessage> for ToolMessageJson {
    fn from(message: ToolMessage) -> Self {
        let ToolResult {
            mut content,
            structured,
            is_error,
            meta,
        } = message.result;
        let content = match content.as_slice() {
            [Content::Text { .. }] => match content.pop() {
                Some(Content::Text { text }) => ContentJson::Text(text),
                _ => ContentJson::Blocks(content),
            },
            _ => ContentJson::Blocks(content),
        };
        ToolMessageJson {
            tool_call_id: message.tool_call_id,
            content,
            structured,
            is_error,
            meta,
        }
    }
}

/// Why a list of messages could not be read. Positions are in the text given; the pointer is
/// into the list (`/2/toolCalls/0/id`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MessagesError {
    /// The text is not JSON.
    #[error("{line}:{column}: not valid JSON: {message}")]
    Json {
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// What the parser found.
        message: String,
    },
    /// Valid JSON, but not a list of messages.
    #[error("{}{message}", if pointer.is_empty() { String::new() } else { format!("{pointer}: ") })]
    Shape {
        /// Where, in the list.
        pointer: String,
        /// What is wrong and what to write instead.
        message: String,
    },
}

impl MessagesError {
    fn shape(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        MessagesError::Shape {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// Reads a JSON array of messages (the form `docs/conversation.md` describes), or an object
/// `{"system": "…", "messages": [...]}` whose system prompt is then returned too.
pub fn parse_messages(text: &str) -> Result<(Option<String>, Vec<Message>), MessagesError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(MessagesError::shape(
            "",
            "the input is empty; expected a JSON array of messages",
        ));
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        MessagesError::Json {
            line: e.line().max(1),
            column: e.column().max(1),
            message: full
                .rsplit_once(" at line ")
                .map_or(full.clone(), |(m, _)| m.to_owned()),
        }
    })?;
    let (system, items, base) = match doc {
        Value::Array(items) => (None, items, String::new()),
        Value::Object(mut obj) => {
            if let Some(key) = obj.keys().find(|k| *k != "system" && *k != "messages") {
                return Err(MessagesError::shape(
                    child_pointer("", key),
                    format!(
                        "unknown field `{key}`; a conversation object has only `system` and `messages`"
                    ),
                ));
            }
            let system = match obj.remove("system") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s),
                Some(other) => {
                    return Err(MessagesError::shape(
                        "/system",
                        format!("the system prompt is a string, not {}", a_type(&other)),
                    ));
                }
            };
            match obj.remove("messages") {
                Some(Value::Array(items)) => (system, items, "/messages".to_owned()),
                Some(other) => {
                    return Err(MessagesError::shape(
                        "/messages",
                        format!("`messages` is an array, not {}", a_type(&other)),
                    ));
                }
                None => (system, Vec::new(), "/messages".to_owned()),
            }
        }
        other => {
            return Err(MessagesError::shape(
                "",
                format!(
                    "expected a JSON array of messages, found {}",
                    a_type(&other)
                ),
            ));
        }
    };
    let messages = items
        .into_iter()
        .enumerate()
        .map(|(i, item)| message_from_value(item, &format!("{base}/{i}")))
        .collect::<Result<_, _>>()?;
    Ok((system, messages))
}

/// One message, with errors that say which field is wrong.
fn message_from_value(value: Value, pointer: &str) -> Result<Message, MessagesError> {
    let Value::Object(mut obj) = value else {
        return Err(MessagesError::shape(
            pointer,
            format!(
                "a message is a JSON object with a `role`, found {}",
                a_type(&value)
            ),
        ));
    };
    let role = match obj.remove("role") {
        Some(Value::String(role)) => role,
        Some(other) => {
            return Err(MessagesError::shape(
                format!("{pointer}/role"),
                format!(
                    "`role` is \"user\", \"assistant\" or \"tool\", not {}",
                    a_type(&other)
                ),
            ));
        }
        None => {
            return Err(MessagesError::shape(
                pointer,
                "the message has no `role`; it is \"user\", \"assistant\" or \"tool\"",
            ));
        }
    };
    let body = Value::Object(obj);
    let at = |path: &serde_path_to_error::Path| {
        let mut out = pointer.to_owned();
        for segment in path {
            match segment {
                serde_path_to_error::Segment::Seq { index } => {
                    out = child_pointer(&out, &index.to_string());
                }
                serde_path_to_error::Segment::Map { key } => out = child_pointer(&out, key),
                serde_path_to_error::Segment::Enum { .. }
                | serde_path_to_error::Segment::Unknown => {}
            }
        }
        out
    };
    macro_rules! read {
        ($variant:ident) => {
            serde_path_to_error::deserialize(&body)
                .map(Message::$variant)
                .map_err(|e| MessagesError::shape(at(e.path()), e.inner().to_string()))
        };
    }
    match role.as_str() {
        "user" => read!(User),
        "assistant" => read!(Assistant),
        "tool" => read!(Tool),
        "system" | "developer" => Err(MessagesError::shape(
            format!("{pointer}/role"),
            format!(
                "the system prompt travels apart from the messages: give it as the conversation's `system`, not as a \"{role}\" message"
            ),
        )),
        other => Err(MessagesError::shape(
            format!("{pointer}/role"),
            format!("unknown role \"{other}\"; expected \"user\", \"assistant\" or \"tool\""),
        )),
    }
}

impl Conversation {
    /// An empty conversation.
    pub fn new() -> Self {
        Conversation::default()
    }

    /// A conversation with a system prompt.
    pub fn with_system(system: impl Into<String>) -> Self {
        Conversation {
            system: Some(system.into()),
            messages: Vec::new(),
        }
    }

    /// Adds what the user said.
    pub fn push_user(&mut self, text: impl Into<String>) {
        self.messages.push(Message::User(UserMessage {
            content: text.into(),
        }));
    }

    /// Adds what the model answered.
    pub fn push_assistant(&mut self, message: AssistantMessage) {
        self.messages.push(Message::Assistant(message));
    }

    /// Adds the result of the call `call_id` (a [`crate::ToolCall`]'s id, as
    /// [`crate::response::Reply::calls`] gives it).
    pub fn push_result(&mut self, call_id: impl Into<String>, result: ToolResult) {
        self.messages.push(Message::Tool(ToolMessage {
            tool_call_id: call_id.into(),
            result,
        }));
    }

    /// The calls of the last assistant message that no tool message answers yet, as
    /// [`ToolCall`]s in `format`'s shape, ready for [`crate::dispatch()`].
    pub fn pending_calls(&self, format: Target) -> Vec<ToolCall> {
        let Some(last) = self
            .messages
            .iter()
            .rposition(|m| matches!(m, Message::Assistant(_)))
        else {
            return Vec::new();
        };
        let Message::Assistant(assistant) = &self.messages[last] else {
            return Vec::new();
        };
        let answered: Vec<&str> = self.messages[last + 1..]
            .iter()
            .filter_map(|m| match m {
                Message::Tool(t) => Some(t.tool_call_id.as_str()),
                _ => None,
            })
            .collect();
        assistant
            .tool_calls
            .iter()
            .filter(|c| !answered.contains(&c.id.as_str()))
            .map(|c| c.to_call(format))
            .collect()
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::User(_) => f.write_str("user message"),
            Message::Assistant(_) => f.write_str("assistant message"),
            Message::Tool(t) => write!(f, "tool message for {:?}", t.tool_call_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_json_form_reads_and_writes_back_the_same() {
        let text = json!([
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Looking.", "toolCalls": [
                {"id": "c1", "name": "suggest_gifts", "arguments": {"maxBudget": 50}},
                {"id": "gemini-1-1", "name": "x", "arguments": "{\"a\": ", "syntheticId": true, "thoughtSignature": "sig"}
            ], "reasoning": [{"format": "anthropic", "item": {"type": "thinking", "thinking": "…", "signature": "s"}}]},
            {"role": "tool", "toolCallId": "c1", "content": "done", "isError": false},
            {"role": "tool", "toolCallId": "gemini-1-1", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "isError": true}
        ]);
        let (system, messages) = parse_messages(&text.to_string()).unwrap();
        assert_eq!(system, None);
        assert_eq!(messages.len(), 4);
        let Message::Assistant(a) = &messages[1] else {
            panic!("{:?}", messages[1])
        };
        assert!(a.tool_calls[1].synthetic_id);
        assert_eq!(a.tool_calls[1].arguments_object(), None);
        assert_eq!(a.tool_calls[1].arguments_text(), "{\"a\": ");
        assert!(
            a.tool_calls[1]
                .to_call(Target::Anthropic)
                .arguments
                .is_err()
        );
        assert_eq!(serde_json::to_value(&messages).unwrap(), text);
        // Serde alone reads the same (for messages embedded in other documents).
        let direct: Vec<Message> = serde_json::from_value(text).unwrap();
        assert_eq!(direct, messages);
        let conversation: Conversation =
            serde_json::from_value(json!({"system": "Be brief.", "messages": direct})).unwrap();
        assert_eq!(conversation.messages, messages);
    }

    #[test]
    fn errors_say_where_and_what() {
        let err = |text: &str| parse_messages(text).unwrap_err().to_string();
        assert_eq!(err("[{\"role\": \"user\"}]"), "/0: missing field `content`");
        assert_eq!(
            err("[{\"role\": \"assistant\", \"toolCalls\": [{\"id\": \"a\"}]}]"),
            "/0/toolCalls/0: missing field `name`"
        );
        assert!(
            err("[{\"role\": \"system\", \"content\": \"x\"}]")
                .starts_with("/0/role: the system prompt travels apart")
        );
        assert!(
            err("[{\"role\": \"user\", \"content\": \"x\", \"name\": 1}]")
                .contains("unknown field `name`")
        );
        assert_eq!(
            err("[\n{\"role\": "),
            "2:9: not valid JSON: EOF while parsing a value"
        );
        assert!(err("{\"messages\": [], \"tools\": []}").starts_with("/tools: unknown field"));
        assert_eq!(
            err("[{\"role\": \"tool\", \"toolCallId\": \"a\", \"content\": 3}]"),
            "/0/content: `content` is a string or an array of content blocks, not an integer"
        );
    }

    #[test]
    fn an_object_carries_the_system_prompt() {
        let (system, messages) = parse_messages(
            r#"{"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}"#,
        )
        .unwrap();
        assert_eq!(system.as_deref(), Some("Be brief."));
        assert_eq!(messages.len(), 1);
    }

    #[test]
    fn pending_calls_are_the_unanswered_ones() {
        let mut conversation = Conversation::new();
        conversation.push_user("Hi");
        conversation.push_assistant(AssistantMessage {
            content: None,
            tool_calls: vec![
                ProposedCall {
                    id: "a".into(),
                    name: "x".into(),
                    arguments: json!({}),
                    synthetic_id: false,
                    signature: None,
                },
                ProposedCall {
                    id: "b".into(),
                    name: "y".into(),
                    arguments: json!("{oops"),
                    synthetic_id: false,
                    signature: None,
                },
            ],
            reasoning: Vec::new(),
        });
        conversation.push_result("a", ToolResult::text("ok"));
        let pending = conversation.pending_calls(Target::OpenAiChat);
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].id.as_deref(), Some("b"));
        assert!(pending[0].arguments.is_err());
    }
}
