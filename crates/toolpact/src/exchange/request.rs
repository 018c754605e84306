//! One request in neutral form, as every provider's request builder takes it: the turns of
//! the conversation with names already mapped, the tool choice, and what a provider cannot
//! express.

use serde_json::Value;
use std::fmt;

/// A setting a provider cannot express, from a provider's request builder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsupported {
    pub setting: String,
    pub reason: String,
}

impl Unsupported {
    pub(crate) fn tool_choice(choice: &Choice, reason: impl Into<String>) -> Self {
        Unsupported {
            setting: format!("tool choice {choice}"),
            reason: reason.into(),
        }
    }
}

/// The tool choice with names as the target sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Choice {
    Auto,
    None,
    Required,
    Tool(String),
    Allowed { tools: Vec<String>, required: bool },
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Auto => f.write_str("auto"),
            Choice::None => f.write_str("none"),
            Choice::Required => f.write_str("required"),
            Choice::Tool(name) => write!(f, "tool:{name}"),
            Choice::Allowed { tools, required } => write!(
                f,
                "{}:{}",
                if *required { "required" } else { "allowed" },
                tools.join(",")
            ),
        }
    }
}

/// Everything a provider's request builder needs, with names already mapped and the
/// conversation checked.
pub(crate) struct Parts<'a> {
    pub model: Option<&'a str>,
    pub max_tokens: Option<u32>,
    pub system: Option<&'a str>,
    /// The exported tools; `None` when no tool is sent.
    pub tools: Option<Value>,
    /// `None` when no tool is sent.
    pub choice: Option<Choice>,
    /// `None` leaves the provider's default.
    pub parallel: Option<bool>,
    pub turns: Vec<Turn<'a>>,
}

/// One turn of the conversation, ready for a provider.
pub(crate) enum Turn<'a> {
    User(&'a str),
    Assistant(AssistantTurn<'a>),
    /// The results of one assistant turn's calls, in the order of the calls, already in the
    /// provider's shape (rendered by [`crate::render`]).
    Results(Vec<Value>),
}

pub(crate) struct AssistantTurn<'a> {
    /// The text, when not empty.
    pub text: Option<&'a str>,
    /// The provider's own reasoning items, in order.
    pub reasoning: Vec<&'a Value>,
    pub calls: Vec<CallTurn<'a>>,
}

pub(crate) struct CallTurn<'a> {
    /// `None` for a made-up id on its way to Gemini.
    pub id: Option<&'a str>,
    /// The name the target sees.
    pub name: String,
    /// A JSON string for OpenAI, an object for Anthropic and Gemini.
    pub arguments: Value,
    /// Gemini's thought signature, only on the way to Gemini.
    pub signature: Option<&'a str>,
}
