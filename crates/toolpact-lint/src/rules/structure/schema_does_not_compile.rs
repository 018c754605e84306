use crate::context::{Context, ToolView};
use crate::engine::scratch::Scratch;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use toolpact::CompiledSchema;
use toolpact::schema::{ARRAY_KEYWORDS, MAP_KEYWORDS, MAX_DEPTH, SINGLE_KEYWORDS};

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

/// The schemas one worker compiled in this check: the rule's slot in the worker's scratch.
#[derive(Default)]
struct Remembered {
    bytes: usize,
    /// The pointer and problem of each schema that failed, by its compact JSON.
    failed: HashMap<String, (String, String), foldhash::fast::RandomState>,
    /// The shapes (see [`shape`]) of schemas that compiled.
    shapes: HashSet<Vec<u8>, foldhash::fast::RandomState>,
}

/// Compiles `schema`, or recalls what compiling it gave earlier in this check on this
/// worker: catalogs repeat schemas (generated tools, the same `{id}` argument, one server's
/// schemas in several versions whose texts differ), and compiling costs far more than
/// writing the schema out.
///
/// Two memories, both exact. A schema whose shape (its JSON with the texts of its
/// annotations left out) is that of a schema that compiled, compiles too: an annotation's
/// text is never what makes a schema fail. A schema that failed is remembered by its whole
/// JSON only, since the message may quote any of it.
fn compiled(scratch: &Scratch, schema: &Value) -> Compiled {
    let run = |schema: &Value| {
        CompiledSchema::new(schema)
            .err()
            .map(|(pointer, problem)| (pointer, problem.to_string()))
    };
    let mut key = Vec::new();
    if !shape(schema, 0, &mut key) {
        return run(schema);
    }
    scratch.with(|remembered: &mut Remembered| {
        if remembered.bytes > MAX_REMEMBERED_BYTES {
            *remembered = Remembered::default();
        }
        if remembered.shapes.contains(&key) {
            return None;
        }
        let whole = serde_json::to_string(schema)
            .ok()
            .filter(|whole| whole.len() <= MAX_REMEMBERED_SCHEMA);
        if let Some(known) = whole.as_ref().and_then(|w| remembered.failed.get(w)) {
            return Some(known.clone());
        }
        let result = run(schema);
        // The key, the problem and the pointer, and about what a set or map spends per entry.
        match (&result, whole) {
            (None, _) => {
                remembered.bytes += key.len() + 48;
                remembered.shapes.insert(key);
            }
            (Some((pointer, message)), Some(whole)) => {
                remembered.bytes += whole.len() + pointer.len() + message.len() + 64;
                remembered
                    .failed
                    .insert(whole, (pointer.clone(), message.clone()));
            }
            (Some(_), None) => {}
        }
        result
    })
}

/// Annotation keywords whose text no validator reads: a string there never makes a schema
/// fail to compile, whatever it says (the meta-schema only asks that it be a string).
const ANNOTATIONS: &[&str] = &["description", "title", "$comment"];

/// Writes the shape of `schema` into `out`: its compact JSON, except that the string value
/// of an annotation keyword (of [`ANNOTATIONS`]) of a schema is written as `#`, which no JSON
/// text has outside a string, so that a shape is never that of a schema with a value of
/// another type there. Subschemas are the values of the keywords that hold subschemas;
/// everything else is written as it is. Returns `false`, leaving `out` unusable, when the
/// schema nests deeper than [`toolpact::schema::MAX_DEPTH`] or its shape is longer than
/// [`MAX_REMEMBERED_SCHEMA`]: such a schema is compiled each time.
fn shape(schema: &Value, depth: usize, out: &mut Vec<u8>) -> bool {
    if depth > MAX_DEPTH || out.len() > MAX_REMEMBERED_SCHEMA {
        return false;
    }
    let Value::Object(members) = schema else {
        return serde_json::to_writer(&mut *out, schema).is_ok();
    };
    out.push(b'{');
    for (n, (keyword, value)) in members.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        if serde_json::to_writer(&mut *out, keyword).is_err() {
            return false;
        }
        out.push(b':');
        let keyword = keyword.as_str();
        let written = match value {
            Value::String(_) if ANNOTATIONS.contains(&keyword) => {
                out.push(b'#');
                true
            }
            Value::Object(map) if MAP_KEYWORDS.contains(&keyword) => {
                out.push(b'{');
                for (m, (name, sub)) in map.iter().enumerate() {
                    if m > 0 {
                        out.push(b',');
                    }
                    if serde_json::to_writer(&mut *out, name).is_err() {
                        return false;
                    }
                    out.push(b':');
                    if !shape(sub, depth + 1, out) {
                        return false;
                    }
                }
                out.push(b'}');
                true
            }
            Value::Array(subs)
                if ARRAY_KEYWORDS.contains(&keyword) || SINGLE_KEYWORDS.contains(&keyword) =>
            {
                out.push(b'[');
                for (m, sub) in subs.iter().enumerate() {
                    if m > 0 {
                        out.push(b',');
                    }
                    if !shape(sub, depth + 1, out) {
                        return false;
                    }
                }
                out.push(b']');
                true
            }
            Value::Object(_) if SINGLE_KEYWORDS.contains(&keyword) => shape(value, depth + 1, out),
            _ => serde_json::to_writer(&mut *out, value).is_ok(),
        };
        if !written {
            return false;
        }
    }
    out.push(b'}');
    out.len() <= MAX_REMEMBERED_SCHEMA
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
                    help: "fix the schema so that it compiles as JSON Schema 2020-12 (or the draft its `$schema` names), with every `$ref` inside the document".into(),
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

    /// Each schema's findings, checked after schemas of the same shape, are those it gets
    /// alone: the texts of annotations are shared, nothing else is.
    #[test]
    fn schemas_that_differ_only_in_annotation_texts_share_what_compiling_gave() {
        let schemas = [
            json!({"type": "object", "description": "First.", "properties": {"a": {"type": "string", "description": "One."}}}),
            json!({"type": "object", "description": "Second.", "properties": {"a": {"type": "string", "description": "Two.", "title": "A", "$comment": "c"}}}),
            json!({"type": "object", "description": 5, "properties": {"a": {"type": "string"}}}),
            json!({"type": "object", "description": "Third.", "properties": {"a": {"type": "string", "description": ["One."]}}}),
            json!({"type": "object", "properties": {"description": {"type": "string"}}}),
            json!({"type": "object", "properties": {"description": {"type": "strin"}}}),
            json!({"type": "object", "properties": {"description": {"type": "string", "description": "Fine."}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "(", "description": "One."}}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "(", "description": "Two."}}}),
            json!({"type": "object", "items": [{"type": "string", "description": "x"}]}),
            json!({"type": "object", "items": [{"type": 7, "description": "x"}]}),
        ];
        let mut settings = Settings::default();
        settings.select(vec!["TP004".to_owned()]).unwrap();
        let tool = |i: usize, schema: &serde_json::Value| {
            Tool::new(format!("tool_{i}"), "Does a thing.", schema.clone())
        };
        let alone: Vec<Vec<(String, String)>> = schemas
            .iter()
            .map(|schema| {
                let catalog: Catalog = std::iter::once(tool(0, schema)).collect();
                check(&catalog, &settings)
                    .findings
                    .into_iter()
                    .map(|f| (f.pointer, f.message))
                    .collect()
            })
            .collect();
        assert!(alone[0].is_empty() && alone[1].is_empty() && alone[4].is_empty());
        for failing in [2, 3, 5, 7, 8, 10] {
            assert_eq!(alone[failing].len(), 1, "{failing}: {:?}", alone[failing]);
        }
        let together: Catalog = schemas
            .iter()
            .enumerate()
            .map(|(i, s)| tool(i, s))
            .collect();
        let report = check(&together, &settings);
        for (i, expected) in alone.iter().enumerate() {
            let got: Vec<(String, String)> = report
                .findings
                .iter()
                .filter(|f| f.tool_index == Some(i))
                .map(|f| (f.pointer.clone(), f.message.clone()))
                .collect();
            assert_eq!(&got, expected, "schema {i}");
        }
    }

    #[test]
    fn a_shape_leaves_out_only_the_texts_of_annotations() {
        let shape = |schema: serde_json::Value| {
            let mut out = Vec::new();
            assert!(super::shape(&schema, 0, &mut out));
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            shape(
                json!({"description": "A", "properties": {"description": {"type": "string", "title": "T"}}})
            ),
            r#"{"description":#,"properties":{"description":{"type":"string","title":#}}}"#
        );
        assert_ne!(
            shape(json!({"description": "A"})),
            shape(json!({"description": 5}))
        );
        assert_ne!(
            shape(json!({"enum": [{"description": "A"}]})),
            shape(json!({"enum": [{"description": "B"}]}))
        );
        let mut deep = json!({"type": "string"});
        for _ in 0..200 {
            deep = json!({"items": deep});
        }
        assert!(!super::shape(&deep, 0, &mut Vec::new()));
    }
}
