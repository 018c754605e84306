//! TP306: more tools in one request than a configured target accepts.

use super::lowered::{ByTarget, gather_sent_counts, sent_counts};
use crate::analysis::message::thousands;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{Part, ReadsExports, Rule, declare_rule};
use toolpact::Target;

declare_rule! {
    /// ## What it does
    /// Counts the tools each configured target receives and reports a catalog larger than
    /// the target accepts in one request: 128 tools for `openai-chat`, 512 function
    /// declarations for `gemini` and `gemini-json`. Tools an export leaves out (TP301) are
    /// not counted.
    ///
    /// ## Why is this bad?
    /// The provider refuses the whole request, not the extra tools: OpenAI answers `Invalid
    /// 'tools': array too long. Expected an array with maximum length 128`
    /// (`array_above_max_length`), and no tool can be called at all.
    ///
    /// ## Example
    /// An MCP gateway that aggregates twelve servers and sends all of their 150 tools to
    /// `gpt-5` through Chat Completions.
    ///
    /// ## Use instead
    /// Send each request only the tools its task needs: split the catalog by task or by
    /// agent, merge tools that differ only by one argument, or load tools on demand (OpenAI
    /// tool search with `defer_loading`).
    ///
    /// ## References
    /// - `docs/providers.md#openai-tool-count` (OpenAI: 128, documented for Chat until 2025-08 and
    ///   observed after, e.g. zed-industries/zed#42393; no documented cap for Responses)
    /// - `docs/providers.md#gemini-function-declaration-count` (Gemini: at most 512 function
    ///   declarations, python-genai `Tool.function_declarations`; formerly 64, then 128)
    pub struct TooManyToolsForTarget {
        code: "TP306",
        name: "too-many-tools-for-target",
        category: Provider,
        severity: Error,
        options: [],
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Limit {
    OpenAiChat,
    Gemini,
}

impl Rule for TooManyToolsForTarget {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ReadsExports for TooManyToolsForTarget {
    fn gather(&self, _cx: &Context<'_>, block: &Block<'_>) -> Part {
        gather_sent_counts(block)
    }

    fn report(&self, cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>) {
        let mut found = ByTarget::new();
        for (target, strict, count) in sent_counts(cx, parts) {
            if strict {
                continue;
            }
            // The caps are the library's ([`toolpact::Target::limits`]); Gemini counts
            // function declarations, OpenAI Chat Completions tools.
            let Some(max) = target.limits().tools else {
                continue;
            };
            let limit = if target.input_format() == Target::Gemini {
                Limit::Gemini
            } else {
                Limit::OpenAiChat
            };
            if count > max {
                found.add((limit, max, count), target);
            }
        }
        for ((limit, max, count), targets) in found.into_entries() {
            let count = thousands(count);
            let message = match limit {
                Limit::OpenAiChat => format!(
                    "{targets}: the catalog sends {count} tools; OpenAI Chat Completions rejects a request with more than {max} (`array_above_max_length`)"
                ),
                Limit::Gemini => format!(
                    "{targets}: the catalog sends {count} function declarations; Gemini accepts at most {max} in one request"
                ),
            };
            out.push(Violation {
                tool: None,
                pointer: String::new(),
                message,
                help: "send each request only the tools its task needs: split the catalog by task or agent, merge tools that differ by one argument, or load tools on demand".into(),
            });
        }
    }
}
