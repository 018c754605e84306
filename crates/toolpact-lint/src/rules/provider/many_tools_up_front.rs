//! TP307: more tools up front than OpenAI advises.

use super::lowered::{ByTarget, gather_sent_counts, sent_counts};
use crate::analysis::message::thousands;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{Part, ReadsExports, Rule, declare_rule};
use toolpact::Target;

declare_rule! {
    /// ## What it does
    /// Counts the tools `openai-responses` and `openai-chat` receive and reports a catalog
    /// of more than `max` (default 20): OpenAI advises keeping fewer than about 20 functions
    /// available at the start of a turn.
    ///
    /// ## Why is this bad?
    /// Every definition is billed as input tokens on every request, and the more tools a
    /// model sees, the more often it picks a wrong one or invents arguments for a near
    /// match. This is advice, not a limit: nothing is rejected.
    ///
    /// ## Example
    /// 34 tools, of which a typical conversation uses five.
    ///
    /// ## Use instead
    /// Offer a core set up front and the rest on demand: tool search with `defer_loading`
    /// (gpt-5.4 and later), `allowed_tools` in `tool_choice` for the turn, or a catalog per
    /// task.
    ///
    /// ## References
    /// - `docs/providers.md#openai-tool-count` (OpenAI function-calling guide: fewer than 20
    ///   functions up front, tool search for more)
    pub struct ManyToolsUpFront {
        code: "TP307",
        name: "many-tools-up-front",
        category: Provider,
        severity: Info,
        options: [RuleOption {
            name: "max",
            default: 20,
            doc: "the most tools an OpenAI request may carry before this rule reports",
        }],
    }
}

impl Rule for ManyToolsUpFront {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ReadsExports for ManyToolsUpFront {
    fn gather(&self, _cx: &Context<'_>, block: &Block<'_>) -> Part {
        gather_sent_counts(block)
    }

    fn report(&self, cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>) {
        let max = usize::try_from(cx.option(&Self::META, "max")).unwrap_or(usize::MAX);
        let mut found = ByTarget::new();
        for (target, strict, count) in sent_counts(cx, parts) {
            if strict || !matches!(target, Target::OpenAiResponses | Target::OpenAiChat) {
                continue;
            }
            if count > max {
                found.add(count, target);
            }
        }
        for (count, targets) in found.into_entries() {
            out.push(Violation {
                tool: None,
                pointer: String::new(),
                message: format!(
                    "{targets}: the catalog sends {} tools up front, more than {max}; OpenAI advises fewer than about 20 at the start of a turn",
                    thousands(count)
                ),
                help: "offer a core set up front and the rest on demand (tool search with `defer_loading`, `allowed_tools` for the turn), or split the catalog by task".into(),
            });
        }
    }
}
