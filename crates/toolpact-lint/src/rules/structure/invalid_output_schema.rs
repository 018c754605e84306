use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::{Map, Value};

declare_rule! {
    /// ## What it does
    /// Checks that an output schema's root is `"type": "object"`, as MCP clients up to
    /// protocol version 2025-11-25 require: not an array, not a root `$ref` or `anyOf`, not a
    /// missing `type`, not `["object", "null"]`.
    ///
    /// An output schema that is not a JSON object at all (a string, a list, `true`) is
    /// refused when the catalog is read, with its position; for catalogs built in code this
    /// rule reports it too.
    ///
    /// ## Why is this bad?
    /// MCP 2026-07-28 allows any output schema and any `structuredContent`, but clients on
    /// 2025-06-18 and 2025-11-25 expect an object root ("currently restricted to type:
    /// object at the root level") and a JSON object as `structuredContent`. A client that
    /// validates `tools/list` against its schema — the TypeScript SDK does — rejects the
    /// list, and every tool of the server disappears; one that does not will fail to
    /// validate the results. Those clients read the literal `type`, so a root `$ref` to an
    /// object is not enough. The rule is a warning because 2026-07-28 clients accept it.
    ///
    /// ## Example
    /// ```json
    /// {"outputSchema": {"type": "array", "items": {"type": "number"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"outputSchema": {"type": "object", "properties": {"highs": {"type": "array", "items": {"type": "number"}}}, "required": ["highs"]}}
    /// ```
    /// and return `{"highs": [21, 23]}` as `structuredContent`.
    ///
    /// ## References
    /// - MCP 2025-11-25, schema.ts `Tool.outputSchema` ("restricted to type: object")
    /// - MCP 2026-07-28 changelog: any output schema, any `structuredContent` (SEP-2106)
    pub struct InvalidOutputSchema {
        code: "TP007",
        name: "invalid-output-schema",
        category: Structure,
        severity: Warning,
        options: [],
    }
}

/// What to wrap a non-object result in, for the help text.
const WRAP: &str = "wrap the result in an object, such as `{\"type\": \"object\", \"properties\": {\"items\": <this schema>}, \"required\": [\"items\"]}`, and return `{\"items\": …}` as structuredContent";

/// The pointer, the problem and the remedy for an object output schema, if its root is
/// not `"type": "object"`.
fn root_problem(schema: &Map<String, Value>) -> Option<(&'static str, String, String)> {
    match schema.get("type") {
        Some(Value::String(t)) if t == "object" => None,
        Some(types @ Value::Array(list)) if list.iter().any(|t| t.as_str() == Some("object")) => {
            Some((
                "/outputSchema/type",
                format!("its type is {types}"),
                "write `\"type\": \"object\"` and return an object in every case, an empty one rather than null".to_owned(),
            ))
        }
        Some(other) => Some((
            "/outputSchema/type",
            format!("its type is {other}"),
            WRAP.to_owned(),
        )),
        None if schema.contains_key("$ref") => Some((
            "/outputSchema",
            "its root is a `$ref`".to_owned(),
            "add `\"type\": \"object\"` beside the `$ref`, or inline the referenced object at the root".to_owned(),
        )),
        None => match ["anyOf", "oneOf", "allOf"]
            .into_iter()
            .find(|k| schema.contains_key(*k))
        {
            Some(keyword) => Some((
                "/outputSchema",
                format!("its root is an `{keyword}` without a type"),
                WRAP.to_owned(),
            )),
            None if schema.contains_key("properties") => Some((
                "/outputSchema",
                "it has no `type`".to_owned(),
                "add `\"type\": \"object\"` at the root".to_owned(),
            )),
            None => Some(("/outputSchema", "it has no `type`".to_owned(), WRAP.to_owned())),
        },
    }
}

impl Rule for InvalidOutputSchema {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for InvalidOutputSchema {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let Some(schema) = &tool.output_schema else {
            return;
        };
        let (pointer, found, help) = match schema {
            Value::Object(map) => match root_problem(map) {
                Some(problem) => problem,
                None => return,
            },
            other => (
                "/outputSchema",
                format!("it is not a JSON object but {}", json_kind(other)),
                "write the output schema as a JSON object, such as `{\"type\": \"object\", \"properties\": {…}}`, or leave it out".to_owned(),
            ),
        };
        out.push(Violation {
            tool: Some(i),
            pointer: pointer.to_owned(),
            message: format!(
                "clients on MCP 2025-11-25 and earlier need `\"type\": \"object\"` at the output schema's root, but {found}"
            ),
            help: help.into(),
        });
    }
}

/// "a string", "a list", … for a JSON value.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
