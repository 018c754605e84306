//! TP309: objects that reach Gemini `parameters` with no properties (free-form maps).

use super::lowered::ByTarget;
use crate::analysis::schema::walk;
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksBlocks, ReadsExports, Rule, declare_rule};
use serde_json::Value;
use toolpact::Target;

declare_rule! {
    /// ## What it does
    /// Looks through the `parameters` the `gemini` target sends for a nested object schema
    /// with no properties: a free-form map (`additionalProperties: {"type": "string"}`, which
    /// Gemini `parameters` cannot carry and toolpact drops), or a bare `{"type": "object"}`.
    ///
    /// ## Why is this bad?
    /// Gemini's OpenAPI-style `Schema` has no way to say "any keys": what is left is an
    /// OBJECT with no properties, which the API has answered with `400 INVALID_ARGUMENT …
    /// properties[labels].properties: should be non-empty for OBJECT type` — failing every
    /// tool of the request. Where it is accepted, the model sees an object it cannot fill
    /// and usually sends `{}`.
    ///
    /// ## Example
    /// ```json
    /// {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"labels": {"type": "array", "items": {"type": "object",
    ///   "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
    ///   "required": ["key", "value"]}}}
    /// ```
    /// or declare the keys you expect, or send the tool with the `gemini-json` target
    /// (`parametersJsonSchema` keeps `additionalProperties`).
    ///
    /// ## References
    /// - `docs/providers.md#gemini-parameters` (Gemini `parameters`: no
    ///   `additionalProperties` on the Developer API; what the Vercel AI SDK writes for an
    ///   empty nested object)
    /// - `docs/providers.md#gemini-parametersjsonschema` (`parametersJsonSchema` keeps it)
    /// - [observed] `should be non-empty for OBJECT type`, e.g. agno-agi/agno#2112 (at the
    ///   root of `parameters`, which toolpact already leaves out)
    pub struct FreeFormObjectForGemini {
        code: "TP309",
        name: "free-form-object-for-gemini",
        category: Provider,
        severity: Info,
        options: [],
    }
}

impl Rule for FreeFormObjectForGemini {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

impl ChecksBlocks for FreeFormObjectForGemini {
    fn check_block(&self, _cx: &Context<'_>, block: &Block<'_>, out: &mut Vec<Violation>) {
        let mut found = ByTarget::new();
        for export in block.exports.iter().filter(|e| e.target == Target::Gemini) {
            for tool in export.sent() {
                let Some(parameters) = tool.input_schema() else {
                    continue;
                };
                for pointer in empty_objects(parameters) {
                    found.add(
                        (tool.index, tool.lowered.input_origin(&pointer)),
                        export.target,
                    );
                }
            }
        }
        for ((index, pointer), targets) in found.into_entries() {
            out.push(Violation {
                tool: Some(index),
                pointer,
                message: format!(
                    "{targets}: Gemini may reject this object: it reaches `parameters` with no properties (Gemini `parameters` cannot express a free-form map), and the API has answered such objects with `should be non-empty for OBJECT type`"
                ),
                help: "declare the keys the model may send, or use an array of {key, value} objects; the `gemini-json` target keeps `additionalProperties`".into(),
            });
        }
    }
}

/// The pointers of nested object schemas without properties. The root is skipped: a tool
/// without parameters is sent with no `parameters` at all.
fn empty_objects(parameters: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(parameters, "", &mut |node| {
        // Gemini's `Schema` writes its types in capitals (`OBJECT`).
        let is_object = node
            .schema
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("object"));
        let has_properties = node
            .schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        if node.depth > 0 && is_object && !has_properties {
            out.push(node.pointer.to_owned());
        }
    });
    out
}
