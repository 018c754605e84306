use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tools without a description, or with an empty one.
    ///
    /// ## Why is this bad?
    /// The model sees only the name, the description and the schema, never the handler. With
    /// no description it guesses from the name when to call the tool and what it does — and
    /// guesses wrong, or picks a neighbour.
    ///
    /// ## Example
    /// ```json
    /// {"name": "get_forecast", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "get_forecast", "description": "Daily forecast for a city, 1 to 7 days ahead. Call this when the user asks about weather to come.", "inputSchema": {"type": "object"}}
    /// ```
    ///
    /// ## References
    /// - The definition is the prompt: the description is what the model reads, and it says when
    ///   to call the tool
    pub struct MissingDescription {
        code: "TP101",
        name: "missing-description",
        category: Description,
        severity: Error,
        options: [],
    }
}

impl Rule for MissingDescription {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for MissingDescription {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        if tool
            .description
            .as_deref()
            .is_none_or(|d| d.trim().is_empty())
        {
            out.push(Violation {
                tool: Some(i),
                pointer: "/description".to_owned(),
                message: format!("the tool {:?} has no description", tool.name),
                help: "say what the tool does, when to call it (\"Call this when …\") and what effects it has".into(),
            });
        }
    }
}
