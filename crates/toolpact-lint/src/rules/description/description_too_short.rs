use crate::context::Context;
use crate::rule::{Rule, RuleMeta, RuleOption, Violation, declare_rule};

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
    /// - Requirements R3 and R14: the definition is the prompt; descriptions say when
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

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Violation>) {
        let min = cx.option(&Self::META, "min");
        for (i, tool) in cx.tools() {
            let Some(description) = tool.description.as_deref().map(str::trim) else {
                continue;
            };
            let length = description.chars().count() as u64;
            if length == 0 || length >= min {
                continue;
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
}
