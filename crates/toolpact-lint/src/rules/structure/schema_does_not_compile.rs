use crate::context::{Context, ToolView};
use crate::engine::scratch::Scratch;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use std::collections::HashMap;
use toolpact::CompiledSchema;

declare_rule! {
    /// ## What it does
    /// Compiles every input and output schema as the registry does: JSON Schema 2020-12
    /// unless `$schema` names draft 4, 6, 7 or 2019-09; references resolved inside the
    /// document only.
    ///
    /// ## Why is this bad?
    /// A schema that does not compile cannot validate a single call. An unknown dialect must
    /// be refused (MCP 2025-11-25), and a remote `$ref` would have to be fetched at run time —
    /// a network dependency and an attack surface; MCP 2026-07-28 forbids fetching by default.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {"address": {"$ref": "https://example.com/address.json"}}}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {"address": {"$ref": "#/$defs/address"}}, "$defs": {"address": {"type": "object"}}}
    /// ```
    ///
    /// ## References
    /// - MCP 2025-11-25, basic/index "JSON Schema Usage"
    /// - MCP 2026-07-28, `$ref` resolution
    pub struct SchemaDoesNotCompile {
        code: "TP004",
        name: "schema-does-not-compile",
        category: Structure,
        severity: Error,
        options: [],
    }
}

impl Rule for SchemaDoesNotCompile {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

/// What compiling a schema gave: nothing wrong, or the pointer (relative to the schema) and
/// the problem.
type Compiled = Option<(String, String)>;

/// Schemas whose compact JSON is longer than this are compiled each time, not remembered.
const MAX_REMEMBERED_SCHEMA: usize = 16 * 1024;

/// How many bytes of schema text one worker remembers at most.
const MAX_REMEMBERED_BYTES: usize = 32 * 1024 * 1024;

/// The schemas one worker compiled in this check, by their compact JSON: the rule's slot in
/// the worker's scratch.
#[derive(Default)]
struct Remembered {
    bytes: usize,
    compiled: HashMap<String, Compiled, foldhash::fast::RandomState>,
}

/// Compiles `schema`, or recalls what compiling the same JSON gave earlier in this check on
/// this worker: catalogs repeat schemas (generated tools, the same `{id}` argument), and
/// compiling costs far more than writing the schema out. The result depends on the JSON
/// alone.
fn compiled(scratch: &Scratch, schema: &Value) -> Compiled {
    let run = |schema: &Value| {
        CompiledSchema::new(schema)
            .err()
            .map(|(pointer, problem)| (pointer, problem.to_string()))
    };
    let Some(key) = serde_json::to_string(schema)
        .ok()
        .filter(|key| key.len() <= MAX_REMEMBERED_SCHEMA)
    else {
        return run(schema);
    };
    scratch.with(|remembered: &mut Remembered| {
        if remembered.bytes > MAX_REMEMBERED_BYTES {
            *remembered = Remembered::default();
        }
        if let Some(known) = remembered.compiled.get(&key) {
            return known.clone();
        }
        let result = run(schema);
        // The key, the problem and the pointer, and about what the map spends per entry.
        remembered.bytes += key.len() + result.as_ref().map_or(0, |(p, m)| p.len() + m.len()) + 64;
        remembered.compiled.insert(key, result.clone());
        result
    })
}

impl ChecksTools for SchemaDoesNotCompile {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let (i, tool) = (view.index, view.tool);
        let schemas = [
            ("/inputSchema", Some(&tool.input_schema)),
            ("/outputSchema", tool.output_schema.as_ref()),
        ];
        for (base, schema) in schemas {
            let Some(schema) = schema else { continue };
            if let Some((pointer, problem)) = compiled(view.scratch(), schema) {
                out.push(Violation {
                    tool: Some(i),
                    pointer: format!("{base}{pointer}"),
                    message: problem,
                    help: "fix the schema so that it compiles as JSON Schema 2020-12 (or the draft its `$schema` names), with every `$ref` inside the document".to_owned(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::check;
    use crate::settings::Settings;
    use serde_json::json;
    use toolpact::{Catalog, Tool};

    #[test]
    fn a_schema_repeated_across_tools_gets_the_same_finding_each_time() {
        let broken =
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}});
        let fine = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let tool = |i: usize| {
            let schema = if i.is_multiple_of(3) { &broken } else { &fine };
            Tool::new(format!("tool_{i}"), "Does a thing.", schema.clone())
        };
        let mut settings = Settings::default();
        settings.select(vec!["TP004".to_owned()]).unwrap();
        let alone: Catalog = std::iter::once(tool(0)).collect();
        let expected = check(&alone, &settings).findings;
        assert_eq!(expected.len(), 1, "{expected:#?}");
        // Enough tools to be checked on several threads, each seeing the schemas again.
        let catalog: Catalog = (0..600).map(tool).collect();
        for _ in 0..2 {
            let report = check(&catalog, &settings);
            assert_eq!(report.findings.len(), 200);
            for finding in &report.findings {
                assert_eq!(finding.tool_index.map(|i| i % 3), Some(0));
                assert_eq!(
                    (&finding.pointer, &finding.message),
                    (&expected[0].pointer, &expected[0].message)
                );
            }
        }
    }
}
