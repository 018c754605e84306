use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool descriptions that never say when to call the tool.
    ///
    /// It looks for "Use this when …", "Call this tool to …", "when the user asks …", "Call
    /// search_foods first", "Use only after …", "Do not use for …" and phrases like them.
    /// Empty descriptions are left to `missing-description`.
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
        options: [],
    }
}

/// Word sequences that, anywhere in a description, say when (or when not) to call a tool.
const PHRASES: &[&[&str]] = &[
    &["when", "the", "user"],
    &["when", "a", "user"],
    &["when", "users"],
    &["when", "you"],
    &["when", "asked"],
    &["when", "to", "use"],
    &["when", "to", "call"],
    &["if", "the", "user"],
    &["if", "a", "user"],
    &["if", "you", "need"],
    &["if", "you", "want"],
    &["whenever"],
    &["user", "asks"],
    &["user", "wants"],
    &["user", "requests"],
    &["user", "says"],
    &["user", "mentions"],
    &["in", "response", "to"],
    &["only", "when"],
    &["only", "after"],
    &["only", "if"],
    &["before", "calling"],
    &["after", "calling"],
    &["before", "using"],
    &["after", "using"],
    &["do", "not", "use"],
    &["do", "not", "call"],
    &["don", "t", "use"],
    &["don", "t", "call"],
    &["never", "use"],
    &["never", "call"],
    &["useful", "for"],
    &["useful", "when"],
    &["ideal", "for"],
    &["intended", "for"],
];

/// Verbs that start an instruction about calling: "Use …", "Call …", "Prefer …".
const VERBS: &[&str] = &["use", "call", "invoke", "choose", "prefer"];

/// Words that may stand between such a verb and what it is about: "use this tool when".
const BETWEEN: &[&str] = &[
    "this", "it", "the", "tool", "function", "me", "one", "just", "that", "these", "them",
];

/// Words that, after such a verb, make it an instruction: "use when", "call first".
const TRIGGERS: &[&str] = &[
    "when", "whenever", "if", "after", "before", "only", "first", "instead", "for", "to", "unless",
    "once",
];

/// Whether the description says when (or when not) to call the tool.
fn has_guidance(description: &str, is_tool: &dyn Fn(&str) -> bool) -> bool {
    let lower = description.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect();
    (0..tokens.len()).any(|i| {
        let rest = &tokens[i..];
        PHRASES.iter().any(|p| rest.starts_with(p))
            || (VERBS.contains(&tokens[i]) && instructs(&rest[1..], is_tool))
    })
}

/// Whether the words after "use"/"call" make it an instruction: up to three words from
/// [`BETWEEN`] or tool names ("Call search_foods first"), then a trigger.
fn instructs(rest: &[&str], is_tool: &dyn Fn(&str) -> bool) -> bool {
    for (skipped, word) in rest.iter().enumerate() {
        if TRIGGERS.contains(word) {
            return true;
        }
        if skipped >= 3 {
            return false;
        }
        let is_tool_name = word.contains('_') || is_tool(word);
        if !(BETWEEN.contains(word) || is_tool_name) {
            return false;
        }
    }
    false
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
        let (i, tool) = (view.index, view.tool);
        let names = cx.lowercase_names();
        let Some(description) = tool.description.as_deref() else {
            return;
        };
        if description.trim().is_empty() || has_guidance(description, &|w| names.contains_key(w)) {
            return;
        }
        out.push(Violation {
            tool: Some(i),
            pointer: "/description".to_owned(),
            message: format!(
                "the description of {:?} never says when to call the tool",
                tool.name
            ),
            help: "add a sentence such as \"Call this when the user asks …\", and name the neighbour to use instead when it does not fit".to_owned(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_guidance() {
        let names = |w: &str| ["search_foods", "lookup"].contains(&w);
        for text in [
            "Use this when you need gift ideas.",
            "Call this tool to create a ticket.",
            "Use only after the user confirmed.",
            "Call search_foods first and pass its foodId.",
            "Call lookup first.",
            "Search products. Do not call it for general questions.",
            "Don't use this for refunds.",
            "Creates a reminder when the user asks to be reminded.",
            "Use it whenever a date is mentioned.",
        ] {
            assert!(has_guidance(text, &names), "{text}");
        }
        for text in [
            "Returns the daily weather forecast for a city for the next 1 to 7 days.",
            "Gets the call log of the phone.",
            "Searches the food database and returns foods with their calories.",
            "Uses the default account.",
        ] {
            assert!(!has_guidance(text, &names), "{text}");
        }
    }
}
