use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;

declare_rule! {
    /// ## What it does
    /// Checks that the input schema's root is `{"type": "object"}`.
    ///
    /// ## Why is this bad?
    /// Tool arguments are always a JSON object. MCP requires an object root, and OpenAI,
    /// Anthropic and Gemini reject anything else ("schema must be a JSON Schema of
    /// 'type: \"object\"'"). A root `$ref` or `anyOf`, as some generators emit, is rejected too.
    ///
    /// ## Example
    /// ```json
    /// {"inputSchema": {"type": "string"}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, schema.ts `Tool.inputSchema`
    /// - OpenAI function calling: "schema must be a JSON Schema of 'type: \"object\"'"
    ///   (`docs/providers.md#every-target`)
    pub struct InputNotObject {
        code: "TP003",
        name: "input-not-object",
        category: Structure,
        severity: Error,
        options: [],
    }
}

impl Rule for InputNotObject {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for InputNotObject {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let found = match tool.input_schema.get("type") {
            Some(Value::String(t)) if t == "object" => return,
            Some(other) => format!("its type is {other}"),
            None if tool.input_schema.get("$ref").is_some() => "it is a `$ref`".to_owned(),
            None => "it has no `type`".to_owned(),
        };
        out.push(Violation {
            tool: Some(i),
            pointer: "/inputSchema".to_owned(),
            message: format!("the input schema's root must be `\"type\": \"object\"`, but {found}"),
            help: "wrap the arguments in an object with one property per argument; inline a root `$ref`".into(),
        });
    }
}
