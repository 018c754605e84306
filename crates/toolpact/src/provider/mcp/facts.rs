//! MCP as data: its names, naming rule and limits.

use crate::name;
use crate::provider::facts::{DescriptionCap, Facts, Limits};

/// The MCP `tools/list` result.
pub(crate) const FACTS: Facts = Facts {
    name: "mcp",
    vendor: "MCP",
    name_rule: name::MCP,
    input_schema_at: "/inputSchema",
    limits: Limits {
        // Where Claude Code cuts an MCP tool's description (`docs/providers.md#claude-code`).
        description: Some(DescriptionCap {
            chars: 2048,
            rejects: false,
        }),
        tools: None,
        strict: None,
    },
    arguments_as_text: false,
    calls_without_ids: false,
    thought_signatures: false,
};
