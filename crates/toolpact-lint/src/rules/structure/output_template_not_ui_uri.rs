use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;

declare_rule! {
    /// ## What it does
    /// Checks that the tool's UI template is a `ui://` resource URI: the ChatGPT Apps key
    /// `_meta["openai/outputTemplate"]`, and the MCP Apps key `_meta.ui.resourceUri` (and its
    /// early flat spelling `_meta["ui/resourceUri"]`).
    ///
    /// ## Why is this bad?
    /// The template names a resource the server registers separately, under the `ui://`
    /// scheme, which the client reads with `resources/read` and renders in a sandbox. An
    /// `https://` page, a relative path or an empty string is not fetched: the widget does
    /// not render, and nothing says why.
    ///
    /// ## Example
    /// ```json
    /// {"_meta": {"openai/outputTemplate": "https://shop.example.com/widgets/gifts.html"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"_meta": {"openai/outputTemplate": "ui://widget/gift-cards.html"}}
    /// ```
    /// with a resource registered at `ui://widget/gift-cards.html`
    /// (`text/html+skybridge`, or `text/html;profile=mcp-app` for MCP Apps).
    ///
    /// ## References
    /// - OpenAI Apps SDK reference, `openai/outputTemplate`
    ///   (`docs/providers.md#chatgpt-apps-metadata`)
    /// - MCP Apps extension (SEP-1865), `_meta.ui.resourceUri`
    pub struct OutputTemplateNotUiUri {
        code: "TP012",
        name: "output-template-not-ui-uri",
        category: Structure,
        severity: Error,
        options: [],
    }
}

/// What is wrong with a template value, if anything.
fn problem(value: &Value) -> Option<String> {
    let Value::String(uri) = value else {
        return Some(format!("it is {value}, not a string"));
    };
    let Some(rest) = uri.strip_prefix("ui://") else {
        return Some(match uri.split_once("://") {
            Some((scheme, _)) => format!("{uri:?} uses the scheme `{scheme}://`"),
            None if uri.trim().is_empty() => "it is empty".to_owned(),
            None => format!("{uri:?} has no `ui://` scheme"),
        });
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Some(format!("{uri:?} names no resource after `ui://`"));
    }
    if uri.chars().any(char::is_whitespace) {
        return Some(format!("{uri:?} contains whitespace"));
    }
    None
}

/// A `ui://` URI built from the file name the template names, or from the tool's name.
fn suggestion(value: Option<&Value>, tool: &str) -> String {
    let file = value
        .and_then(Value::as_str)
        .and_then(|uri| uri.rsplit('/').next())
        .map(|f| f.split(['?', '#']).next().unwrap_or(f))
        .filter(|f| f.ends_with(".html") && f.len() > ".html".len());
    match file {
        Some(file) => format!("ui://widget/{file}"),
        None => format!("ui://widget/{}.html", tool.replace(['_', '.'], "-")),
    }
}

impl Rule for OutputTemplateNotUiUri {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for OutputTemplateNotUiUri {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(meta) = &tool.meta else { return };
        let templates = [
            (
                "/_meta/openai~1outputTemplate",
                "`openai/outputTemplate`",
                meta.get("openai/outputTemplate"),
            ),
            (
                "/_meta/ui/resourceUri",
                "`ui.resourceUri`",
                meta.get("ui").and_then(|ui| ui.get("resourceUri")),
            ),
            (
                "/_meta/ui~1resourceUri",
                "`ui/resourceUri`",
                meta.get("ui/resourceUri"),
            ),
        ];
        for (pointer, key, value) in templates {
            let Some(why) = value.and_then(problem) else {
                continue;
            };
            out.push(Violation {
                tool: Some(i),
                pointer: pointer.to_owned(),
                message: format!("the UI template {key} must be a `ui://` resource URI, but {why}"),
                help: format!(
                    "register the widget as a resource under `ui://` and point the template at it, such as `{}`",
                    suggestion(value, &tool.name)
                ).into(),
            });
        }
    }
}
