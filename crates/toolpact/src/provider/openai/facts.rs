//! OpenAI as data: the names, naming rule and limits of the Responses and Chat Completions
//! targets.

use crate::name;
use crate::provider::facts::{DescriptionCap, Facts, Limits, StrictLimits};

/// The longest description OpenAI Chat Completions has been seen to accept
/// (`string_above_max_length`, `docs/providers.md#openai-description-length`). No rejection on
/// the Responses API has been reported, so Responses has no cap.
const DESCRIPTION: DescriptionCap = DescriptionCap {
    chars: 1024,
    rejects: true,
};

/// The complexity limits of strict mode (`docs/providers.md#openai-strict-mode-limits`).
const STRICT: StrictLimits = StrictLimits {
    properties: Some(5000),
    nesting_levels: Some(10),
    enum_values: Some(1000),
    characters: Some(120_000),
    large_enum: Some((250, 15_000)),
    ..StrictLimits::NONE
};

/// The OpenAI Responses API `tools` array.
pub(crate) const RESPONSES: Facts = Facts {
    name: "openai-responses",
    vendor: "OpenAI",
    name_rule: name::OPENAI,
    input_schema_at: "/parameters",
    limits: Limits {
        description: None,
        tools: None,
        strict: Some(STRICT),
    },
    arguments_as_text: true,
    calls_without_ids: false,
    thought_signatures: false,
};

/// The OpenAI Chat Completions `tools` array.
pub(crate) const CHAT: Facts = Facts {
    name: "openai-chat",
    vendor: "OpenAI",
    name_rule: name::OPENAI,
    input_schema_at: "/function/parameters",
    limits: Limits {
        description: Some(DESCRIPTION),
        // `array_above_max_length` past 128 tools (`docs/providers.md#openai-tool-count`).
        tools: Some(128),
        strict: Some(STRICT),
    },
    arguments_as_text: true,
    calls_without_ids: false,
    thought_signatures: false,
};
