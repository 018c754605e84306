use crate::analysis::words::identifier_words;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds tool names that say nothing about what the tool does.
    ///
    /// They are names made only of generic words (`helper`, `tool`, `util`, `utils`, `misc`, `test`, `stuff`, `data`),
    /// generic verbs (`run`, `execute`, `process`, `handle`, `do`, `call`, `invoke`) and
    /// numbers (`tool1`, `do_it`, `run_2`), and names of one or two characters (`w`, `fx`).
    ///
    /// A generic word next to a specific one is fine: `run_sql_query`, `test_connection` and
    /// `get_info` say what they do.
    ///
    /// ## Why is this bad?
    /// The name is the first thing the model reads when it chooses a tool, and the key it
    /// must reproduce exactly to call it. With `helper` or `tool1` it has to rely on the
    /// description alone, hesitates between tools, and picks wrong; people reading logs and
    /// approving calls cannot tell what `run` is about to do either.
    ///
    /// ## Example
    /// ```json
    /// {"name": "helper", "description": "Helper for weather stuff."}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "get_forecast", "description": "Daily weather forecast for a city, 1 to 7 days ahead. Call this when the user asks about weather to come."}
    /// ```
    /// A verb and an object, in the words the user would use.
    ///
    /// ## References
    /// - Vague names (`helper`, `w`, `tool1`) make the model pick wrong or hesitate
    /// - Anthropic, "Writing effective tools for agents": namespace and name tools by what they do
    pub struct VagueToolName {
        code: "TP207",
        name: "vague-tool-name",
        category: Design,
        severity: Warning,
        options: [],
    }
}

/// Words that say nothing about what a tool does.
const VAGUE_WORDS: &[&str] = &[
    "helper",
    "helpers",
    "help",
    "tool",
    "tools",
    "util",
    "utils",
    "utility",
    "utilities",
    "misc",
    "miscellaneous",
    "test",
    "testing",
    "tmp",
    "temp",
    "foo",
    "bar",
    "baz",
    "qux",
    "dummy",
    "sample",
    "example",
    "my",
    "new",
    "thing",
    "things",
    "stuff",
    "generic",
    "common",
    "default",
    "func",
    "function",
    "fn",
    "method",
    "handler",
    "service",
    "api",
    "main",
    "it",
    "this",
    "do",
    "run",
    "execute",
    "exec",
    "process",
    "handle",
    "call",
    "invoke",
    "perform",
    "go",
    "action",
    "task",
    "data",
    "info",
    "object",
    "item",
    "request",
    "operation",
    "op",
    "v",
];

/// Why the name is vague, if it is.
fn vagueness(name: &str) -> Option<&'static str> {
    let letters = name.chars().filter(|c| c.is_alphanumeric()).count();
    if (1..=2).contains(&letters) {
        return Some("is too short to say what the tool does");
    }
    let words = identifier_words(name);
    if words.is_empty() {
        return None;
    }
    words
        .iter()
        .all(|w| VAGUE_WORDS.contains(&w.as_str()) || w.chars().all(|c| c.is_numeric()))
        .then_some("is made only of generic words")
}

impl Rule for VagueToolName {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for VagueToolName {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(why) = vagueness(&tool.name) else {
            return;
        };
        out.push(Violation {
            tool: Some(i),
            pointer: "/name".to_owned(),
            message: format!(
                "the name {:?} {why}; the model cannot tell from it when to call the tool",
                tool.name
            ),
            help: "name the tool with a verb and an object in the user's words, such as `get_forecast` or `search_products`".into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::vagueness;

    #[test]
    fn vague_and_specific_names() {
        for name in [
            "helper",
            "w",
            "tool1",
            "do_it",
            "run",
            "execute",
            "process",
            "utils",
            "misc",
            "test",
            "handleRequest",
            "tool_2",
        ] {
            assert!(vagueness(name).is_some(), "{name}");
        }
        for name in [
            "get_forecast",
            "run_sql_query",
            "test_connection",
            "get_info",
            "search",
            "2fa_verify",
            "",
            "__",
        ] {
            assert!(vagueness(name).is_none(), "{name}");
        }
    }
}
