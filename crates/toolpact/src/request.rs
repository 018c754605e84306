//! Whole requests, per provider: the tools (exactly what [`crate::export()`] writes for the
//! target), the system prompt, the [`Conversation`] so far and a neutral [`ToolChoice`],
//! assembled into the body an OpenAI Responses, OpenAI Chat Completions, Anthropic Messages
//! or Gemini `generateContent` request carries.
//!
//! Switching provider is one argument: the same conversation and the same tools give each
//! provider's body. What a provider cannot carry is reported, never dropped in silence: a
//! setting it cannot express is a [`RequestError::Unsupported`], and history it cannot take
//! as it is (another provider's reasoning items, a call whose arguments were not a JSON
//! object) is listed in [`Request::losses`].

use crate::conversation::{Conversation, Message, ProposedCall};
use crate::dispatch::render;
use crate::exchange::call::ToolCall;
use crate::exchange::request::{AssistantTurn, CallTurn, Choice, Parts, Turn, Unsupported};
use crate::export::{ExportError, ReadBack, export};
use crate::loss::{LossKind, LossReport};
use crate::name::NameMap;
use crate::provider::table::provider;
use crate::provider::{ExportOptions, RenderOptions, Target};
use crate::result::ToolResult;
use crate::tool::Tool;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Which tools the model may or must call, in neutral terms; each provider gets its own
/// spelling, or a [`RequestError::Unsupported`] when it has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ToolChoice {
    /// The model decides whether to call tools (every provider's default).
    #[default]
    Auto,
    /// The model calls no tool.
    None,
    /// The model must call at least one tool (Anthropic `any`, Gemini `ANY`).
    Required,
    /// The model must call this tool (its own name or the name a provider saw).
    Tool(String),
    /// The model may call only these tools (and must call one of them when `required`).
    Allowed {
        /// The tools, by their own names or the names a provider saw.
        tools: Vec<String>,
        /// Whether the model must call one of them, rather than answer in text.
        required: bool,
    },
}

impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolChoice::Auto => f.write_str("auto"),
            ToolChoice::None => f.write_str("none"),
            ToolChoice::Required => f.write_str("required"),
            ToolChoice::Tool(name) => write!(f, "tool:{name}"),
            ToolChoice::Allowed { tools, required } => write!(
                f,
                "{}:{}",
                if *required { "required" } else { "allowed" },
                tools.join(",")
            ),
        }
    }
}

/// A tool choice that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid tool choice {0:?}; expected auto, none, required, tool:NAME, allowed:A,B or required:A,B"
)]
pub struct InvalidToolChoice(pub String);

impl FromStr for ToolChoice {
    type Err = InvalidToolChoice;

    /// `auto`, `none`, `required`, `tool:NAME`, `allowed:A,B` (the model may call only A or
    /// B) or `required:A,B` (the model must call A or B).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidToolChoice(s.to_owned());
        let names = |list: &str| -> Result<Vec<String>, InvalidToolChoice> {
            let names: Vec<String> = list.split(',').map(|n| n.trim().to_owned()).collect();
            if names.iter().any(String::is_empty) {
                Err(invalid())
            } else {
                Ok(names)
            }
        };
        match s.split_once(':') {
            None => match s {
                "auto" => Ok(ToolChoice::Auto),
                "none" => Ok(ToolChoice::None),
                "required" | "any" => Ok(ToolChoice::Required),
                _ => Err(invalid()),
            },
            Some(("tool", name)) if !name.trim().is_empty() => {
                Ok(ToolChoice::Tool(name.trim().to_owned()))
            }
            Some(("allowed", list)) => Ok(ToolChoice::Allowed {
                tools: names(list)?,
                required: false,
            }),
            Some(("required", list)) => Ok(ToolChoice::Allowed {
                tools: names(list)?,
                required: true,
            }),
            Some(_) => Err(invalid()),
        }
    }
}

/// How to build a request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestOptions {
    /// The model. Required by Chat Completions and Anthropic; optional in a Responses body
    /// (a stored prompt may name it); Gemini takes it in the URL
    /// (`models/{model}:generateContent`), never in the body.
    pub model: Option<String>,
    /// The most tokens the answer may use: Responses `max_output_tokens`, Chat
    /// `max_completion_tokens`, Anthropic `max_tokens` (required there), Gemini
    /// `generationConfig.maxOutputTokens`.
    pub max_tokens: Option<u32>,
    /// Export the tools with [`ExportOptions::strict`] (OpenAI and Anthropic).
    pub strict: bool,
    /// Which tools the model may or must call.
    pub tool_choice: ToolChoice,
    /// Whether the model may call several tools in one turn: OpenAI `parallel_tool_calls`,
    /// Anthropic `disable_parallel_tool_use`. `None` leaves the provider's default (allowed).
    pub parallel_tool_calls: Option<bool>,
}

/// A request body, with what the export and the conversation lost on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The provider format written.
    pub target: Target,
    /// The body to send.
    pub body: Value,
    /// What the target could not express of the tools, and the tools left out.
    pub report: LossReport,
    /// The names the provider sees, mapped to the tools' own names: read the response with it.
    pub names: NameMap,
    /// How to read back the calls the model makes to the tools sent: give it to
    /// [`DispatchOptions::read_back`](crate::DispatchOptions) when the calls are dispatched.
    pub read_back: Arc<ReadBack>,
    /// What of the conversation the target could not take as it is.
    pub losses: Vec<ConversationLoss>,
}

/// Something of the conversation a target could not take as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConversationLoss {
    /// JSON pointer into the messages, such as `/3/toolCalls/0/arguments`.
    pub pointer: String,
    /// What happened.
    pub kind: LossKind,
    /// What the target got instead, and why.
    pub message: String,
}

impl fmt::Display for ConversationLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.pointer, self.kind, self.message)
    }
}

/// Why a request could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The target is not a request format (MCP has no model request).
    #[error(
        "{0} is not a model API; requests are built for openai-responses, openai-chat, anthropic, gemini and gemini-json"
    )]
    NotAModelApi(Target),
    /// The export could not run (`strict` for a target without a strict mode).
    #[error(transparent)]
    Export(#[from] ExportError),
    /// The provider requires an option that was not given.
    #[error("{target} requests need `{option}`: {why}")]
    MissingOption {
        /// The target.
        target: Target,
        /// The option: `model` or `max_tokens`.
        option: &'static str,
        /// Why the provider wants it.
        why: &'static str,
    },
    /// A setting the provider cannot express.
    #[error("{target} cannot express {setting}: {reason}")]
    Unsupported {
        /// The target.
        target: Target,
        /// The setting, as given (`tool choice allowed:a,b`).
        setting: String,
        /// Why not, and what to do instead.
        reason: String,
    },
    /// The tool choice names a tool the request does not carry.
    #[error(
        "the tool choice names {name:?}, which is not among the tools sent to {target}{}",
        if known.is_empty() { " (no tool is sent)".to_owned() } else { format!(" ({})", known.join(", ")) }
    )]
    UnknownTool {
        /// The target.
        target: Target,
        /// The name given.
        name: String,
        /// The tools the request carries, by the names the target sees.
        known: Vec<String>,
    },
    /// The conversation cannot be sent as it is.
    #[error(transparent)]
    Conversation(#[from] ConversationError),
}

/// Why a conversation cannot be sent: every provider would refuse it. Pointers are into the
/// messages (`/3`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversationError {
    /// No messages.
    #[error("the conversation has no messages; add the user's first message")]
    Empty,
    /// A message with nothing in it.
    #[error("{pointer}: the {what} is empty; providers refuse empty messages")]
    EmptyMessage {
        /// Where.
        pointer: String,
        /// Which kind of message.
        what: &'static str,
    },
    /// Two calls share an id.
    #[error(
        "{pointer}: the call id {id:?} is already used at {first}; every call needs its own id"
    )]
    DuplicateCallId {
        /// Where the second use is.
        pointer: String,
        /// The id.
        id: String,
        /// Where the first use is.
        first: String,
    },
    /// A call without a result before the conversation goes on (or ends).
    #[error(
        "{pointer}: the call {id:?} ({name}) has no result; add a tool message with \"toolCallId\": {id:?} right after the assistant message (providers refuse a call left unanswered)"
    )]
    UnansweredCall {
        /// Where the call is.
        pointer: String,
        /// Its id.
        id: String,
        /// The tool it calls.
        name: String,
    },
    /// A tool message that answers no call of the assistant message before it.
    #[error("{pointer}: the tool message answers {id:?}, {why}")]
    UnmatchedResult {
        /// Where the tool message is.
        pointer: String,
        /// The id it answers.
        id: String,
        /// Why it does not fit.
        why: String,
    },
}

/// Builds the request body `target` expects from `tools`, the conversation (its system prompt
/// and messages) and `options`.
///
/// The tools are exported with [`crate::export()`], as `toolpact convert` writes them; names in
/// the conversation's calls and in the tool choice are mapped to the names the target sees.
pub fn build_request<'t>(
    tools: impl IntoIterator<Item = &'t Tool>,
    target: Target,
    conversation: &Conversation,
    options: &RequestOptions,
) -> Result<Request, RequestError> {
    let api = provider(target)
        .model_api()
        .ok_or(RequestError::NotAModelApi(target))?;
    let format = target.input_format();
    for &(option, why) in api.required_options() {
        let given = match option {
            "model" => options.model.is_some(),
            "max_tokens" => options.max_tokens.is_some(),
            _ => true,
        };
        if !given {
            return Err(RequestError::MissingOption {
                target,
                option,
                why,
            });
        }
    }
    let tools: Vec<&Tool> = tools.into_iter().collect();
    let export = export(
        tools.iter().copied(),
        target,
        ExportOptions {
            strict: options.strict,
        },
    )?;
    let mut losses = Vec::new();
    let turns = turns(conversation, format, &export.names, &mut losses)?;
    let has_tools = !export.names.is_empty();
    let choice = resolve_choice(&options.tool_choice, target, &export.names, &tools)?;
    let choice = match choice {
        _ if has_tools => Some(choice),
        Choice::Auto | Choice::None => None,
        other => {
            return Err(RequestError::Unsupported {
                target,
                setting: format!("tool choice {other}"),
                reason: "the request carries no tool to call".to_owned(),
            });
        }
    };
    let parts = Parts {
        model: options.model.as_deref(),
        max_tokens: options.max_tokens,
        system: conversation.system.as_deref().filter(|s| !s.is_empty()),
        tools: has_tools.then_some(export.payload),
        choice,
        parallel: options.parallel_tool_calls.filter(|_| has_tools),
        turns,
    };
    let unsupported = |reason: Unsupported| RequestError::Unsupported {
        target,
        setting: reason.setting,
        reason: reason.reason,
    };
    let body = api.build_request(parts).map_err(unsupported)?;
    Ok(Request {
        target,
        body,
        report: export.report,
        names: export.names,
        read_back: export.read_back,
        losses,
    })
}

fn resolve_choice(
    choice: &ToolChoice,
    target: Target,
    names: &NameMap,
    tools: &[&Tool],
) -> Result<Choice, RequestError> {
    let resolve = |name: &str| -> Result<String, RequestError> {
        if let Some(exported) = names.exported(name) {
            return Ok(exported.to_owned());
        }
        if names.original(name).is_some() {
            return Ok(name.to_owned());
        }
        Err(RequestError::UnknownTool {
            target,
            name: name.to_owned(),
            known: tools
                .iter()
                .filter_map(|t| names.exported(&t.name).map(str::to_owned))
                .collect(),
        })
    };
    Ok(match choice {
        ToolChoice::Auto => Choice::Auto,
        ToolChoice::None => Choice::None,
        ToolChoice::Required => Choice::Required,
        ToolChoice::Tool(name) => Choice::Tool(resolve(name)?),
        ToolChoice::Allowed { tools, .. } if tools.is_empty() => {
            return Err(RequestError::Unsupported {
                target,
                setting: format!("tool choice {choice}"),
                reason: "an allowed set names at least one tool".to_owned(),
            });
        }
        ToolChoice::Allowed { tools, required } => Choice::Allowed {
            tools: tools.iter().map(|n| resolve(n)).collect::<Result<_, _>>()?,
            required: *required,
        },
    })
}

/// The calls of the last assistant message, at `at`, with the results found so far.
struct Open<'a> {
    at: usize,
    calls: &'a [ProposedCall],
    results: Vec<Option<&'a ToolResult>>,
}

/// Checks the conversation and turns it into turns for `format`: calls answered exactly once
/// and right after their assistant message, ids unique, names mapped.
fn turns<'a>(
    conversation: &'a Conversation,
    format: Target,
    names: &NameMap,
    losses: &mut Vec<ConversationLoss>,
) -> Result<Vec<Turn<'a>>, ConversationError> {
    if conversation.messages.is_empty() {
        return Err(ConversationError::Empty);
    }
    // Names export did not rewrite are sent as they are; one map of the rewritten ones spares
    // a scan of every name per call.
    let renamed: HashMap<&str, &str> = names.renamed().map(|(e, o)| (o, e)).collect();
    let exported = |name: &str| renamed.get(name).copied().unwrap_or(name).to_owned();
    let mut turns = Vec::new();
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut open: Option<Open<'a>> = None;
    let close =
        |open: &mut Option<Open<'a>>, turns: &mut Vec<Turn<'a>>| -> Result<(), ConversationError> {
            let Some(Open { at, calls, results }) = open.take() else {
                return Ok(());
            };
            let mut rendered = Vec::with_capacity(calls.len());
            for (i, (call, result)) in calls.iter().zip(results).enumerate() {
                let Some(result) = result else {
                    return Err(ConversationError::UnansweredCall {
                        pointer: format!("/{at}/toolCalls/{i}"),
                        id: call.id.clone(),
                        name: call.name.clone(),
                    });
                };
                let id = (!(call.synthetic_id && format.facts().calls_without_ids))
                    .then(|| call.id.clone());
                let call = ToolCall {
                    format,
                    id,
                    name: exported(&call.name),
                    arguments: Ok(Value::Null),
                };
                rendered.push(render(&call, result, RenderOptions::default()));
            }
            if !rendered.is_empty() {
                turns.push(Turn::Results(rendered));
            }
            Ok(())
        };
    for (index, message) in conversation.messages.iter().enumerate() {
        let pointer = format!("/{index}");
        if let Message::Tool(tool) = message {
            let id = tool.tool_call_id.as_str();
            let Some(Open { at, calls, results }) = open.as_mut() else {
                return Err(ConversationError::UnmatchedResult {
                    pointer,
                    id: id.to_owned(),
                    why: "but no assistant message with calls comes right before it".to_owned(),
                });
            };
            let Some(i) = calls.iter().position(|c| c.id == id) else {
                let list = calls
                    .iter()
                    .map(|c| format!("{:?}", c.id))
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(ConversationError::UnmatchedResult {
                    pointer,
                    id: id.to_owned(),
                    why: format!(
                        "which is not a call of the assistant message /{at} (its calls: {list})"
                    ),
                });
            };
            if results[i].is_some() {
                return Err(ConversationError::UnmatchedResult {
                    pointer,
                    id: id.to_owned(),
                    why: "which an earlier tool message already answers".to_owned(),
                });
            }
            results[i] = Some(&tool.result);
            continue;
        }
        close(&mut open, &mut turns)?;
        match message {
            Message::User(user) => {
                if user.content.is_empty() {
                    return Err(ConversationError::EmptyMessage {
                        pointer,
                        what: "user message",
                    });
                }
                turns.push(Turn::User(&user.content));
            }
            Message::Assistant(assistant) => {
                if assistant.is_empty() {
                    return Err(ConversationError::EmptyMessage {
                        pointer,
                        what: "assistant message",
                    });
                }
                let mut reasoning = Vec::new();
                for (i, item) in assistant.reasoning.iter().enumerate() {
                    if item.format == format {
                        reasoning.push(&item.item);
                    } else {
                        losses.push(ConversationLoss {
                            pointer: format!("{pointer}/reasoning/{i}"),
                            kind: LossKind::Dropped,
                            message: format!(
                                "a reasoning item from {} means nothing to {format}; it is not sent",
                                item.format
                            ),
                        });
                    }
                }
                let mut calls = Vec::with_capacity(assistant.tool_calls.len());
                for (i, call) in assistant.tool_calls.iter().enumerate() {
                    let at = format!("{pointer}/toolCalls/{i}");
                    if let Some(first) = ids.insert(call.id.as_str(), at.clone()) {
                        return Err(ConversationError::DuplicateCallId {
                            pointer: at,
                            id: call.id.clone(),
                            first,
                        });
                    }
                    calls.push(call_turn(call, format, &at, exported(&call.name), losses));
                }
                turns.push(Turn::Assistant(AssistantTurn {
                    text: assistant.content.as_deref().filter(|t| !t.is_empty()),
                    reasoning,
                    calls,
                }));
                if !assistant.tool_calls.is_empty() {
                    open = Some(Open {
                        at: index,
                        calls: &assistant.tool_calls,
                        results: vec![None; assistant.tool_calls.len()],
                    });
                }
            }
            Message::Tool(_) => {}
        }
    }
    close(&mut open, &mut turns)?;
    Ok(turns)
}

fn call_turn<'a>(
    call: &'a ProposedCall,
    format: Target,
    pointer: &str,
    name: String,
    losses: &mut Vec<ConversationLoss>,
) -> CallTurn<'a> {
    let facts = format.facts();
    if call.signature.is_some() && !facts.thought_signatures {
        losses.push(ConversationLoss {
            pointer: format!("{pointer}/thoughtSignature"),
            kind: LossKind::Dropped,
            message: format!("only Gemini reads thought signatures; {format} does not get it"),
        });
    }
    let arguments = if facts.arguments_as_text {
        Value::String(call.arguments_text())
    } else {
        match call.arguments_object() {
            Some(object) => Value::Object(object),
            None => {
                losses.push(ConversationLoss {
                    pointer: format!("{pointer}/arguments"),
                    kind: LossKind::Rewritten,
                    message: format!(
                        "the model's arguments were not a JSON object and {format} takes only an object; `{{}}` is sent, and the call's result says what was wrong"
                    ),
                });
                Value::Object(Map::new())
            }
        }
    };
    CallTurn {
        id: (!(call.synthetic_id && facts.calls_without_ids)).then_some(call.id.as_str()),
        name,
        arguments,
        signature: call
            .signature
            .as_deref()
            .filter(|_| facts.thought_signatures),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_choices_read_and_print_back() {
        for text in [
            "auto",
            "none",
            "required",
            "tool:get_forecast",
            "allowed:a,b",
            "required:a",
        ] {
            let choice: ToolChoice = text.parse().unwrap();
            assert_eq!(choice.to_string(), text);
        }
        assert_eq!("any".parse::<ToolChoice>(), Ok(ToolChoice::Required));
        for bad in ["", "tool:", "allowed:a,,b", "pick:a", "Auto"] {
            assert!(bad.parse::<ToolChoice>().is_err(), "{bad}");
        }
    }
}
