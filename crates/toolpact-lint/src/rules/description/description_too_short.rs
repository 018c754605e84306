use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions shorter than `min` characters (40 unless configured).
    ///
    /// Surrounding white space does not count. Empty descriptions are left to
    /// `missing-description`.
    ///
    /// ## Why is this bad?
    /// A few words cannot say what the tool does, what it returns, and when to call it rather
    /// than another tool. The model fills the gap with guesses from the name, and tools with
    /// short, similar descriptions ("Search for products.", "Find products.") get confused.
    ///
    /// ## Example
    /// ```json
    /// {"name": "read_measurement", "description": "Reads measurements.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "read_measurement", "description": "Reads the user's body measurements (weight, waist, body fat) recorded on one day. Use this tool when the user asks about their measurements on a specific date.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - The definition is the prompt: the description is what the model reads, and it says when
    ///   to call the tool
    pub struct DescriptionTooShort {
        code: "TP103",
        name: "description-too-short",
        category: Description,
        severity: Warning,
        options: [RuleOption {
            name: "min",
            default: 40,
            doc: "the shortest acceptable tool description, in characters",
        }],
    }
}

impl Rule for DescriptionTooShort {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for DescriptionTooShort {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let min = cx.option(&Self::META, "min");
        let Some(description) = tool.description.as_deref().map(str::trim) else {
            return;
        };
        let length = description.chars().count() as u64;
        if length == 0 || length >= min {
            return;
        }
        out.push(Violation {
            tool: Some(i),
            pointer: "/description".to_owned(),
            message: format!(
                "the description {description:?} is {length} character{} long, too short to say what the tool does and when to call it (minimum {min})",
                if length == 1 { "" } else { "s" }
            ),
            help: "say what the tool does, what it returns, and when to call it (\"Call this when …\"), in one or two sentences".to_owned(),
        });
    }
}
