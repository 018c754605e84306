//! The one table from a target to its provider's behaviour, for the drivers.

use crate::provider::descriptor::Provider;
use crate::provider::{Target, anthropic, gemini, mcp, openai};

/// The provider that writes and reads `target`.
pub(crate) fn provider(target: Target) -> &'static dyn Provider {
    match target {
        Target::Mcp => &mcp::Mcp,
        Target::OpenAiResponses => &openai::Responses,
        Target::OpenAiChat => &openai::Chat,
        Target::Anthropic => &anthropic::Anthropic,
        Target::Gemini => &gemini::Parameters,
        Target::GeminiJson => &gemini::JsonSchema,
    }
}
