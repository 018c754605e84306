//! TP305: tool descriptions longer than a configured target takes or shows.

use super::lowered::ByTarget;
use crate::analysis::message::thousands;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Reports a tool description longer than a configured target takes or shows in full,
    /// counted in characters of the description the target receives:
    /// - over 1024 for `openai-chat`: OpenAI Chat Completions has rejected longer
    ///   descriptions (no such rejection has been reported on the Responses API, so
    ///   `openai-responses` is not checked);
    /// - over 2048 for `anthropic` and `mcp`: Claude Code cuts MCP tool descriptions there.
    ///
    /// ## Why is this bad?
    /// OpenAI answers the whole request with `Invalid 'tools[N].function.description': string
    /// too long. Expected a string with maximum length 1024`, so no tool works. Claude Code
    /// keeps the first 2048 characters, adds `… [truncated]` and says nothing: whatever the
    /// description says after that — often the constraints and the "do not call this when" —
    /// the model never reads.
    ///
    /// ## Example
    /// A 3,000-character description that lists every field of the result and ends with
    /// "Never call this for refunds."
    ///
    /// ## Use instead
    /// Put what the model needs to choose and call the tool first, within 1024 characters;
    /// move reference material (field lists, long examples) into the output schema, a
    /// resource, or the tool's result.
    ///
    /// ## References
    /// - `docs/providers.md#openai-description-length` (OpenAI description length, observed:
    ///   getsentry/sentry-mcp#106, OpenHands#4838,
    ///   `fixtures/rejections/openai/description-too-long.json`)
    /// - `docs/providers.md#claude-code` (Claude Code truncates at 2 KB:
    ///   code.claude.com/docs/en/mcp, anthropics/claude-code#41593 and #87650)
    pub struct DescriptionOverProviderCap {
        code: "TP305",
        name: "description-over-provider-cap",
        category: Provider,
        severity: Warning,
        options: [],
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Cap {
    OpenAi,
    ClaudeCode,
}

impl Rule for DescriptionOverProviderCap {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for DescriptionOverProviderCap {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        let mut found = ByTarget::new();
        for export in &block.exports {
            // The caps are the library's ([`toolpact::Target::limits`]): OpenAI rejects a
            // longer description, Claude Code cuts it.
            let Some(limit) = export.target.limits().description else {
                continue;
            };
            let max = limit.chars;
            let cap = if limit.rejects {
                Cap::OpenAi
            } else {
                Cap::ClaudeCode
            };
            for tool in export.sent() {
                let len = tool.description().map_or(0, |d| d.chars().count());
                if len > max {
                    found.add((tool.index, cap, max, len), export.target);
                }
            }
        }
        for ((index, cap, max, len), targets) in found.into_entries() {
            let len = thousands(len);
            let (message, help) = match cap {
                Cap::OpenAi => (
                    format!(
                        "{targets}: the description has {len} characters; OpenAI Chat Completions rejects tool descriptions over {max}, failing the whole request"
                    ),
                    format!(
                        "keep the description within {max} characters: what the tool does, when to call it and when not to, first; move field lists and long examples into the output schema, a resource or the result"
                    ),
                ),
                Cap::ClaudeCode => (
                    format!(
                        "{targets}: the description has {len} characters; Claude Code cuts MCP tool descriptions at {max}, and the model never reads the rest"
                    ),
                    format!(
                        "keep the description within {max} characters, with what the model needs to choose and call the tool first; move reference material into a resource or the result"
                    ),
                ),
            };
            out.push(Violation {
                tool: Some(index),
                pointer: "/description".to_owned(),
                message,
                help: help.into(),
            });
        }
    }
}
