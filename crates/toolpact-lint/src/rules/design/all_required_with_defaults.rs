use crate::analysis::message::join;
use crate::analysis::schema::{properties, required, resolved, walk};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Finds objects whose every property is required, although some declare a `default`.
    ///
    /// A `default` is a value the tool could use when the argument is missing; requiring the
    /// argument anyway throws it away.
    ///
    /// A required property that accepts `null` is left alone: that is how OpenAI strict mode
    /// writes an optional field, and the handler applies the default when it receives `null`.
    ///
    /// ## Why is this bad?
    /// `required` tells the model it must supply a value. Forced to fill `limit` or `units`
    /// when the user said nothing about them, the model invents one — and the invented value
    /// replaces the sensible default the schema itself declares. Everything required is often
    /// the work of a converter that marks every field required without making optional ones
    /// nullable.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {
    ///   "city": {"type": "string"},
    ///   "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3}
    /// }, "required": ["city", "days"]}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "city": {"type": "string"},
    ///   "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3, "description": "Days ahead (1-7). Defaults to 3."}
    /// }, "required": ["city"]}
    /// ```
    /// For OpenAI strict mode, keep `days` required but make it nullable
    /// (`"type": ["integer", "null"]`) and apply the default when it is `null`.
    ///
    /// ## References
    /// - Only what the tool cannot run without is required; forcing the rest makes the model
    ///   invent values
    /// - openai/openai-agents-python#3733: all-required schemas lead models to misuse tools
    pub struct AllRequiredWithDefaults {
        code: "TP205",
        name: "all-required-with-defaults",
        category: Design,
        severity: Warning,
        options: [],
    }
}

impl Rule for AllRequiredWithDefaults {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for AllRequiredWithDefaults {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let root = &tool.input_schema;
        walk(root, "/inputSchema", &mut |node| {
            let Some(props) = properties(node.schema) else {
                return;
            };
            let required = required(node.schema);
            if props.is_empty() || !props.keys().all(|k| required.contains(k)) {
                return;
            }
            let defaulted: Vec<String> = props
                .iter()
                .filter(|(_, sub)| {
                    let (_, facts) = resolved(root, sub);
                    facts.default && !facts.is_nullable()
                })
                .map(|(name, _)| format!("`{name}`"))
                .collect();
            if defaulted.is_empty() {
                return;
            }
            let (them, declare) = if defaulted.len() == 1 {
                ("it", "declares a default")
            } else {
                ("them", "declare defaults")
            };
            out.push(Violation {
                tool: Some(i),
                pointer: child_pointer(node.pointer, "required"),
                message: format!(
                    "every property of {} is required, yet {} {declare}; the model must invent a value instead of leaving {them} out",
                    node.object_name(),
                    join(&defaulted)
                ),
                help: format!(
                    "remove {} from `required` so that the default applies (for OpenAI strict mode, make {them} nullable and apply the default on `null`)",
                    join(&defaulted)
                ).into(),
            });
        });
    }
}
