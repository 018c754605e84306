use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions that never say when to call the tool.
    ///
    /// It scores what the description says about calling the tool as the rubric does (0
    /// nothing, 1 a hint of the situation, 2 a general "Use this to …", "Usage: …" or "This
    /// tool helps …", 3 a condition or an order such as "Call this when the user asks …",
    /// "Call search_foods first" or "Use `get_zone` to find the zone id", 4 when
    /// not to call it or what to call instead, 5 all of these) and reports a score below
    /// `min-score` (2). Empty descriptions are left to `missing-description`.
    ///
    /// Most published tools say nothing of the kind, so the rule is off by default: the
    /// quality score's usage component counts it on every check, and `--select
    /// no-usage-guidance` (or `select = ["TP104"]`) reports each tool.
    ///
    /// ## Why is this bad?
    /// The model picks a tool by matching the conversation against descriptions. A sentence
    /// that names the situation ("when the user asks about weather to come") measurably
    /// improves that choice, and a sentence that names the wrong situation ("not for general
    /// product questions") keeps the model from calling the tool at all when it should not.
    ///
    /// ## Example
    /// ```json
    /// {"name": "get_forecast", "description": "Returns the daily weather forecast for a city for the next 1 to 7 days.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "get_forecast", "description": "Returns the daily weather forecast for a city for the next 1 to 7 days. Call this when the user asks about weather to come; for current conditions use get_weather.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - A description says when to call the tool ("Call this when …")
    /// - Anthropic, "Writing effective tools for agents": <https://www.anthropic.com/engineering/writing-tools-for-agents>
    pub struct NoUsageGuidance {
        code: "TP104",
        name: "no-usage-guidance",
        category: Description,
        severity: Info,
        enabled_by_default: false,
        options: [RuleOption {
            name: "min-score",
            default: 2,
            doc: "the least usage-guidelines score (0–5) that is enough",
        }],
    }
}

impl Rule for NoUsageGuidance {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for NoUsageGuidance {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let facts = view.quality();
        let min = cx.option(&Self::META, "min-score");
        if facts.empty || u64::from(facts.usage) >= min {
            return;
        }
        out.push(Violation {
            tool: Some(view.index),
            pointer: "/description".to_owned(),
            message: format!(
                "the description of {:?} never says when to call the tool",
                view.tool.name
            ),
            help: "add a sentence such as \"Call this when the user asks …\", and name the neighbour to use instead when it does not fit".into(),
        });
    }
}
