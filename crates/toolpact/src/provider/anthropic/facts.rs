//! Anthropic as data: its names, naming rule and limits.

use crate::name;
use crate::provider::facts::{DescriptionCap, Facts, Limits, StrictLimits};

/// The Anthropic Messages API `tools` array.
pub(crate) const FACTS: Facts = Facts {
    name: "anthropic",
    vendor: "Anthropic",
    name_rule: name::ANTHROPIC,
    input_schema_at: "/input_schema",
    limits: Limits {
        // Where Claude Code cuts an MCP tool's description (`docs/providers.md#claude-code`).
        description: Some(DescriptionCap {
            chars: 2048,
            rejects: false,
        }),
        tools: None,
        // Strict tools per request, and optional and union parameters across the strict
        // schemas of a request (`docs/providers.md#anthropic-strict-tool-limits`).
        strict: Some(StrictLimits {
            tools: Some(20),
            optional_parameters: Some(24),
            union_parameters: Some(16),
            ..StrictLimits::NONE
        }),
    },
    arguments_as_text: false,
    calls_without_ids: false,
    thought_signatures: false,
};
