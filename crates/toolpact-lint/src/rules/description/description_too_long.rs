use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions longer than `max` characters (2000 unless configured).
    ///
    /// ## Why is this bad?
    /// A description is read on every request, by every model, whether the tool is used or
    /// not. Past a couple of thousand characters it usually means the tool does too much (an
    /// `action` field that switches between unrelated jobs), or that rules which span tools
    /// were copied into it instead of the system prompt. Clients also cut long text: Claude
    /// Code truncates MCP tool descriptions at 2048 characters, silently, and OpenAI Chat
    /// Completions has been observed to reject descriptions over 1024 characters. Those
    /// client and provider limits are checked by the provider rules; this rule keeps the
    /// generic budget.
    ///
    /// ## Example
    /// A `do_everything` tool whose 2,600-character description explains eight actions, their
    /// arguments, payment rules and wishlist limits.
    ///
    /// ## Use instead
    /// Focused tools, each with a short description of its own, and the shared rules in the
    /// system prompt:
    /// ```json
    /// {"name": "search_gifts", "description": "Searches the gift catalog by text, budget and interests. Call this when the user wants gift ideas; to order, pass the chosen gift's id to create_order.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - A description stays within 1000–2000 characters; a longer one usually means a tool that
    ///   does too much (see `god-tool`)
    /// - Claude Code, MCP: <https://code.claude.com/docs/en/mcp>
    pub struct DescriptionTooLong {
        code: "TP105",
        name: "description-too-long",
        category: Description,
        severity: Warning,
        options: [RuleOption {
            name: "max",
            default: 2000,
            doc: "the longest acceptable tool description, in characters",
        }],
    }
}

impl Rule for DescriptionTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for DescriptionTooLong {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let max = cx.option(&Self::META, "max");
        let Some(description) = tool.description.as_deref() else {
            return;
        };
        let length = description.chars().count() as u64;
        if length <= max {
            return;
        }
        out.push(Violation {
            tool: Some(i),
            pointer: "/description".to_owned(),
            message: format!(
                "the description of {:?} is {length} characters long, more than {max}",
                tool.name
            ),
            help: "keep what the tool does and when to call it; move rules that span tools to the system prompt, and split a tool that does several jobs into focused tools".into(),
        });
    }
}
