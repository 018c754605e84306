use crate::analysis::schema::push_token;
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds parameters whose value follows a format or has a shape that nothing shows: no
    /// example, no precisely named format, no enum or pattern.
    ///
    /// A parameter takes a format when its name says it holds a filter, an expression, a
    /// selector, a pattern, a date or time, a range or a duration (a name that ends in
    /// `name`, `title`, `label`, `id` or `description` names a thing: `time_interval_name`
    /// holds no time), or, without a
    /// description, a type, mode, style, unit, path, file name or SHA that its schema does not
    /// list (a minor format: in a tool that shows an example of another input, introduced by
    /// "e.g.", "for example", "such as" or "Examples:", the main formats are shown and it is
    /// not reported); when its description only hints at "a format" ("The date format"); or when it is
    /// an object, or a list of objects, whose properties are not all described, some of
    /// which take a format (or none are declared, unless it is optional and undescribed: it
    /// asks for no shape), and whose description names none of its
    /// keys ("Validation options" names none; "can include
    /// query, size, from, sort", "as key-value pairs", "with longitude and latitude
    /// properties" and "Starting coordinate" do). An example in
    /// the property's description, or in the tool's description next to the property's
    /// name, is enough ("e.g. `status:open`", `{"type": "group"}`), and for an optional
    /// object any example in the tool's description; so is a precise name ("ISO 8601",
    /// "RFC 3339", a template such as `<language>-<country>`, "YYYY-MM-DD", "cron", "JSON",
    /// "Markdown", a query language: "PromQL", "KQL", "SQL", "JQL", a format named by a
    /// proper name: "in Yahoo Finance format") or a JSON
    /// Schema `format`, `enum`, `pattern` or `examples`.
    ///
    /// ## Why is this bad?
    /// The type says "string"; the server wants `2024-05-01`, `status:open label:bug` or
    /// `{"fields": …}`. Without an example the model writes something plausible that the
    /// server rejects, or, worse, reads differently.
    ///
    /// ## Example
    /// ```json
    /// {"name": "search_logs", "description": "Searches the logs.", "inputSchema": {"type": "object", "properties": {"filter": {"type": "string", "description": "Filter expression"}}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"name": "search_logs", "description": "Searches the logs.", "inputSchema": {"type": "object", "properties": {"filter": {"type": "string", "description": "Filter expression, e.g. service:web AND status:error"}}}}
    /// ```
    ///
    /// ## References
    /// - `docs/quality-rubric.md`, Examples; `docs/quality.md`
    /// - JSON Schema, `examples`: <https://json-schema.org/draft/2020-12/json-schema-validation#name-examples>
    pub struct MissingExample {
        code: "TP115",
        name: "missing-example",
        category: Description,
        severity: Info,
        options: [],
    }
}

impl Rule for MissingExample {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for MissingExample {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        for name in &view.quality().missing_examples {
            let mut pointer = "/inputSchema/properties".to_owned();
            push_token(&mut pointer, name);
            out.push(Violation {
                tool: Some(view.index),
                pointer,
                message: format!(
                    "the parameter `{name}` of {:?} takes a format or shape that no example shows",
                    view.tool.name
                ),
                help: "add an example to its description (\"e.g. …\"), name the format precisely (\"ISO 8601 date\"), or list its values with `enum`".into(),
            });
        }
    }
}
