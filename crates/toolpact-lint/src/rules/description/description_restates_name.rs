use crate::analysis::quality::restates_name_or_title;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions that say nothing beyond the tool's name and title.
    ///
    /// Once stop words ("the", "a", "for") and empty nouns ("data", "information", "tool")
    /// are removed, every word left is a word of the name, a plural of one, a common synonym
    /// ("Retrieves" for `get`), or "get" itself.
    ///
    /// ## Why is this bad?
    /// The model already reads the name. A description that repeats it spends tokens and tells
    /// the model nothing about what the tool returns, which inputs it expects, or when to pick
    /// it over a neighbour. Saying *when* to call a tool measurably improves tool choice.
    ///
    /// ## Example
    /// ```json
    /// {"name": "get_weather", "description": "Gets the weather", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "get_weather", "description": "Current temperature and conditions for a city. Call this when the user asks what the weather is like now; for the days ahead use get_forecast.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - A description says when to call the tool; one that restates the name says nothing
    /// - Anthropic, "Define tools": <https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>
    pub struct DescriptionRestatesName {
        code: "TP102",
        name: "description-restates-name",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Whether `description` says nothing the words in `known` do not. "Gets" is empty too:
/// `list_orders` described as "Gets the list of orders" says no more than its name.
impl Rule for DescriptionRestatesName {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for DescriptionRestatesName {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(description) = tool.description.as_deref().map(str::trim) else {
            return;
        };
        if restates_name_or_title(tool) {
            out.push(Violation {
                tool: Some(i),
                pointer: "/description".to_owned(),
                message: format!(
                    "the description {description:?} only restates the name {:?}",
                    tool.name
                ),
                help: "say what the tool returns or changes, for which inputs, and when to call it (\"Call this when the user asks …\")".into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::quality::restates;
    use crate::analysis::words::name_stems;

    #[test]
    fn restatements_and_near_misses() {
        let known = name_stems("get_weather");
        assert!(restates("Gets the weather", &known));
        assert!(restates("Retrieves weather data.", &known));
        assert!(!restates("Gets the weather in a city", &known));
        assert!(!restates("", &known));
        assert!(restates("Suggests gifts.", &name_stems("suggest_gifts")));
        assert!(restates(
            "Retrieves the list of orders.",
            &name_stems("list_orders")
        ));
        assert!(!restates(
            "Search for products in the catalog.",
            &name_stems("search_products")
        ));
    }
}
