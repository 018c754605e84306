use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use toolpact::name::MCP;

declare_rule! {
    /// ## What it does
    /// Checks that each tool name is 1 to 128 characters of ASCII letters, digits, `_`, `-`
    /// and `.`, as the MCP specification asks (SEP-986).
    ///
    /// ## Why is this bad?
    /// Clients and providers validate names: a space, a slash or a non-ASCII letter gets the
    /// tool rejected or silently dropped, and aggregating clients build longer names from it.
    ///
    /// ## Example
    /// ```json
    /// {"name": "get weather/today"}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "get_weather_today"}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, server/tools, "Tool names" (SEP-986;
    ///   `docs/providers.md#mcp-tool-names`)
    pub struct InvalidName {
        code: "TP001",
        name: "invalid-name",
        category: Structure,
        severity: Error,
        options: [],
    }
}

impl Rule for InvalidName {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for InvalidName {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        if let Err(problem) = MCP.check(&tool.name) {
            let suggestion = MCP.rewrite(&tool.name).map_or_else(
                || "give the tool a name".to_owned(),
                |n| format!("rename it, for example to `{n}`"),
            );
            out.push(Violation {
                tool: Some(i),
                pointer: "/name".to_owned(),
                message: format!(
                    "the tool name {:?} breaks the MCP naming rule: {problem}",
                    tool.name
                ),
                help: format!("use 1 to 128 characters of A-Z a-z 0-9 _ - .; {suggestion}").into(),
            });
        }
    }
}
