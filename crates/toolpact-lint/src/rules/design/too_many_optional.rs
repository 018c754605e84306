use crate::analysis::schema::{property_counts, walk};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::{RuleMeta, RuleOption};
use crate::rule::{ChecksTools, Rule, declare_rule};
use toolpact::json::child_pointer;

declare_rule! {
    /// ## What it does
    /// Finds objects in an input schema with more than `max` optional properties (default 8).
    ///
    /// A property counts as optional when it is not in `required`, or when it is required but
    /// accepts `null` — the way OpenAI strict mode writes an optional field.
    ///
    /// ## Why is this bad?
    /// Models tend to fill what is required and skip what is optional, so a long tail of
    /// optional filters is mostly never used — and when it is, the model has to choose among
    /// many fields that all look equally skippable. Each optional field also costs tokens on
    /// every request. Many optional fields often mean a tool that serves several purposes.
    ///
    /// The 24-optional-parameter limit of Anthropic strict mode is a provider rule
    /// (`strict-limits-exceeded`), not this one.
    ///
    /// ## Example
    /// `search_orders` with `query`, `status`, `from`, `to`, `minTotal`, `maxTotal`,
    /// `customerEmail`, `sku`, `country`, `page` and `pageSize`, only `query` required.
    ///
    /// ## Use instead
    /// Keep the filters users actually ask for, and make the ones the tool needs required:
    /// ```json
    /// {"name": "search_orders", "inputSchema": {"type": "object", "properties": {
    ///   "query": {"type": "string"},
    ///   "status": {"type": "string", "enum": ["open", "shipped", "delivered", "cancelled"]},
    ///   "placedAfter": {"type": "string", "format": "date"}
    /// }, "required": ["query"]}}
    /// ```
    /// or split the rarely used filters into a separate, clearly described tool.
    ///
    /// ## References
    /// - Required vs optional is a balance; models often skip optional fields
    /// - Many optional fields are the mark of a tool that does too much (see `god-tool`)
    /// - `docs/providers.md#anthropic-strict-tool-limits` (24 optional parameters in strict
    ///   mode, reported by `strict-limits-exceeded`)
    pub struct TooManyOptional {
        code: "TP204",
        name: "too-many-optional",
        category: Design,
        severity: Info,
        options: [
            RuleOption { name: "max", default: 8, doc: "the most optional or nullable properties an object may have" },
        ],
    }
}

impl Rule for TooManyOptional {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for TooManyOptional {
    fn check_tool(&self, cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let max = cx.option(&Self::META, "max");
        let root = &tool.input_schema;
        walk(root, "/inputSchema", &mut |node| {
            let counts = property_counts(root, node.schema);
            let loose = counts.optional + counts.nullable;
            if loose as u64 <= max {
                return;
            }
            let split = match (counts.optional, counts.nullable) {
                (_, 0) => "optional".to_owned(),
                (0, _) => "required but nullable".to_owned(),
                (o, n) => format!("optional ({o}) or nullable ({n})"),
            };
            let whose = node.object_name();
            out.push(Violation {
                tool: Some(i),
                pointer: child_pointer(node.pointer, "properties"),
                message: format!(
                    "{loose} of the {} properties of {whose} are {split} (more than {max}); models tend to skip optional fields",
                    counts.total
                ),
                help: "require what the tool cannot run without, drop the filters nobody uses, or split the rarely used ones into a separate tool".into(),
            });
        });
    }
}
