//! TP308: strict-mode schemas over the complexity limits OpenAI and Anthropic document,
//! counted on the schemas the strict exports send.

use super::lowered::ByTarget;
use crate::analysis::message::{join, thousands};
use crate::analysis::schema::{Flow, field, for_each_child, properties, required, walk_pruned};
use crate::context::Context;
use crate::engine::blocks::Block;
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{Part, ReadsExports, Rule, declare_rule, parts_of};
use serde_json::Value;
use toolpact::schema::{MAX_DEPTH, resolve_local_ref};
use toolpact::{StrictLimits, Target};

/// Anthropic's strict-mode limits, and OpenAI's (the same for both OpenAI targets), as the
/// library's providers declare them ([`Target::limits`]).
const ANTHROPIC: Option<StrictLimits> = Target::Anthropic.limits().strict;
const OPENAI: Option<StrictLimits> = Target::OpenAiChat.limits().strict;

/// Anthropic: tools with `strict: true` in one request.
const ANTHROPIC_TOOLS: usize = match ANTHROPIC {
    Some(StrictLimits { tools: Some(n), .. }) => n,
    _ => usize::MAX,
};
/// Anthropic: optional parameters across all strict schemas of a request.
const ANTHROPIC_OPTIONAL: usize = match ANTHROPIC {
    Some(StrictLimits {
        optional_parameters: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};
/// Anthropic: parameters using `anyOf` or a type array across all strict schemas.
const ANTHROPIC_UNIONS: usize = match ANTHROPIC {
    Some(StrictLimits {
        union_parameters: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};

/// OpenAI: object properties in one schema.
const OPENAI_PROPERTIES: usize = match OPENAI {
    Some(StrictLimits {
        properties: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};
/// OpenAI: levels of nested objects.
const OPENAI_LEVELS: usize = match OPENAI {
    Some(StrictLimits {
        nesting_levels: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};
/// OpenAI: enum values in one schema.
const OPENAI_ENUM_VALUES: usize = match OPENAI {
    Some(StrictLimits {
        enum_values: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};
/// OpenAI: characters of property names, definition names, enum and const values.
const OPENAI_CHARACTERS: usize = match OPENAI {
    Some(StrictLimits {
        characters: Some(n),
        ..
    }) => n,
    _ => usize::MAX,
};
/// OpenAI: a string enum with more values than this …
const OPENAI_LARGE_ENUM: usize = match OPENAI {
    Some(StrictLimits {
        large_enum: Some((n, _)),
        ..
    }) => n,
    _ => usize::MAX,
};
/// … may total at most this many characters.
const OPENAI_LARGE_ENUM_CHARACTERS: usize = match OPENAI {
    Some(StrictLimits {
        large_enum: Some((_, n)),
        ..
    }) => n,
    _ => usize::MAX,
};

/// Schema nodes one walk visits at most. Kept `$ref`s can make a schema exponentially larger
/// than its text (a definition that uses another twice, and so on); past this budget the
/// counts are already far over every limit.
const BUDGET: usize = 200_000;

declare_rule! {
    /// ## What it does
    /// With `strict = true`, counts what the strict exports send (after lowering: optional
    /// properties made nullable for OpenAI, `oneOf` written as `anyOf`, …) against the
    /// limits each provider documents, and reports every limit crossed:
    ///
    /// Anthropic (`anthropic`), across all strict tools of one request:
    /// - more than 20 tools with `strict: true`;
    /// - more than 24 optional parameters (properties not in `required`, at any depth);
    /// - more than 16 parameters using `anyOf` or a type array such as `["string", "null"]`.
    ///
    /// OpenAI (`openai-responses`, `openai-chat`), per tool schema:
    /// - more than 5,000 object properties;
    /// - more than 10 levels of nested objects (the root object is level 1; `$ref`s are
    ///   followed, recursion is not unrolled);
    /// - more than 1,000 enum values (counted after lowering, so with the `null` strict mode
    ///   adds to the enum of each optional parameter);
    /// - more than 120,000 characters of property names, definition names, enum values and
    ///   const values;
    /// - a string enum of more than 250 values totalling more than 15,000 characters.
    ///
    /// ## Why is this bad?
    /// Strict mode compiles the schemas into a grammar before the model runs. Past these
    /// limits the provider answers the request with a 400 (Anthropic: `Schema is too complex
    /// for compilation`), so no tool can be called — not just the large one.
    ///
    /// ## Example
    /// 23 tools exported to Anthropic with `strict = true`; or an OpenAI strict tool whose
    /// `country` parameter enumerates 1,200 city names.
    ///
    /// ## Use instead
    /// Use strict mode for the tools whose arguments must match exactly, and keep their
    /// schemas small: required parameters with one type, short enums (or a lookup tool for
    /// long value lists), shallow objects (ids of nested records rather than the records).
    ///
    /// ## References
    /// - `docs/providers.md#anthropic-strict-tool-limits` (Anthropic strict tool use: 20 strict
    ///   tools, 24 optional parameters, 16 union parameters;
    ///   platform.claude.com/docs/en/build-with-claude/structured-outputs)
    /// - `docs/providers.md#openai-strict-mode-limits` (OpenAI structured outputs: 5,000
    ///   properties, 10 levels, 1,000 enum values, 120,000 characters, 15,000 characters per
    ///   large enum;
    ///   developers.openai.com/api/docs/guides/structured-outputs)
    pub struct StrictLimitsExceeded {
        code: "TP308",
        name: "strict-limits-exceeded",
        category: Provider,
        severity: Error,
        options: [],
    }
}

impl Rule for StrictLimitsExceeded {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn reads_exports(&self) -> Option<&dyn ReadsExports> {
        Some(self)
    }
}

/// What the rule keeps of a block.
struct Gathered {
    /// The OpenAI findings, each about one tool.
    openai: Vec<Violation>,
    /// Each tool the strict Anthropic export sends, with what its schema adds to the
    /// request-wide counts.
    anthropic: Vec<(usize, AnthropicCounts)>,
}

impl ReadsExports for StrictLimitsExceeded {
    fn gather(&self, _cx: &Context<'_>, block: &Block<'_>) -> Part {
        let mut openai = ByTarget::new();
        let mut anthropic = Vec::new();
        for export in block.exports.iter().filter(|e| e.strict) {
            match export.target {
                Target::Anthropic => anthropic.extend(export.sent().map(|tool| {
                    let counts = tool.input_schema().map(anthropic_counts);
                    (tool.index, counts.unwrap_or_default())
                })),
                Target::OpenAiResponses | Target::OpenAiChat => {
                    for tool in export.sent() {
                        let Some(schema) = tool.input_schema() else {
                            continue;
                        };
                        for (pointer, finding) in openai_findings(schema) {
                            let pointer = tool.lowered.input_origin(&pointer);
                            openai.add((tool.index, pointer, finding), export.target);
                        }
                    }
                }
                _ => {}
            }
        }
        let openai = openai
            .into_entries()
            .map(|((index, pointer, finding), targets)| {
                let (message, help) = finding.describe();
                Violation {
                    tool: Some(index),
                    pointer,
                    message: format!("{targets} (strict): {message}"),
                    help: help.into(),
                }
            })
            .collect();
        Box::new(Gathered { openai, anthropic })
    }

    fn report(&self, cx: &Context<'_>, parts: Vec<Part>, out: &mut Vec<Violation>) {
        let mut counts = Vec::new();
        for part in parts_of::<Gathered>(parts) {
            out.extend(part.openai);
            counts.extend(part.anthropic.into_iter().filter_map(|(index, counts)| {
                let tool = &cx.catalog.entries.get(index)?.tool;
                Some((tool.name.as_str(), counts))
            }));
        }
        anthropic(&counts, out);
    }
}

/// Anthropic's limits hold for all strict schemas of one request together, so they are
/// reported once for the catalog, naming the tools that weigh most.
fn anthropic(counts: &[(&str, AnthropicCounts)], out: &mut Vec<Violation>) {
    if counts.len() > ANTHROPIC_TOOLS {
        out.push(Violation {
            tool: None,
            pointer: String::new(),
            message: format!(
                "anthropic (strict): Anthropic strict mode accepts at most {ANTHROPIC_TOOLS} tools with `strict: true` in one request; the strict export marks all {} tools strict",
                thousands(counts.len())
            ),
            help: "use strict mode only for the tools whose arguments must match exactly (at most 20 per request), or split the catalog across requests".into(),
        });
    }
    let optional: usize = counts.iter().map(|(_, c)| c.optional).sum();
    if optional > ANTHROPIC_OPTIONAL {
        out.push(Violation {
            tool: None,
            pointer: String::new(),
            message: format!(
                "anthropic (strict): Anthropic strict mode accepts at most {ANTHROPIC_OPTIONAL} optional parameters across the strict tools of a request; the catalog's strict tools have {}: {}",
                thousands(optional),
                heaviest(counts, |c| c.optional)
            ),
            help: "list in `required` the parameters the model always has a value for, drop rarely used optional ones, or mark fewer tools strict (non-strict tools do not count)".into(),
        });
    }
    let unions: usize = counts.iter().map(|(_, c)| c.unions).sum();
    if unions > ANTHROPIC_UNIONS {
        out.push(Violation {
            tool: None,
            pointer: String::new(),
            message: format!(
                "anthropic (strict): Anthropic strict mode accepts at most {ANTHROPIC_UNIONS} parameters using `anyOf` or a type array (such as [\"string\", \"null\"]) across the strict tools of a request; the catalog's strict tools have {}: {}",
                thousands(unions),
                heaviest(counts, |c| c.unions)
            ),
            help: "give parameters a single type where you can (an optional parameter left out of `required` needs no `null`), or mark fewer tools strict".into(),
        });
    }
}

/// `"search" (12), "create" (9) and 4 more tools`: the tools that count most, heaviest first.
fn heaviest(counts: &[(&str, AnthropicCounts)], by: fn(&AnthropicCounts) -> usize) -> String {
    let mut weighing: Vec<(&str, usize)> = counts
        .iter()
        .map(|(name, c)| (*name, by(c)))
        .filter(|(_, n)| *n > 0)
        .collect();
    // Stable: equal counts keep catalog order.
    weighing.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = weighing
        .iter()
        .take(SHOWN)
        .map(|(name, n)| format!("{name:?} ({n})"))
        .collect();
    if weighing.len() > SHOWN {
        parts.push(format!("{} more tools", weighing.len() - SHOWN));
    }
    join(&parts)
}

/// What one strict Anthropic schema adds to the request-wide counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AnthropicCounts {
    /// Properties not listed in their object's `required`.
    optional: usize,
    /// Schemas with `anyOf` or a `type` array.
    unions: usize,
}

/// Counts the schema as written (each definition once), since strict mode keeps `$ref` and
/// `$defs` for Anthropic.
fn anthropic_counts(schema: &Value) -> AnthropicCounts {
    let mut counts = AnthropicCounts::default();
    let mut budget = BUDGET;
    walk_pruned(schema, "", &mut |node| {
        if !spend(&mut budget) {
            return Flow::Skip;
        }
        let node = node.schema;
        if let Some(props) = properties(node) {
            let required = required(node);
            counts.optional += props.keys().filter(|name| !required.contains(name)).count();
        }
        if field(node, "anyOf").is_some_and(Value::is_array)
            || field(node, "type").is_some_and(Value::is_array)
        {
            counts.unions += 1;
        }
        Flow::Descend
    });
    counts
}

/// Takes one visit from `budget`; `false` once it is spent.
fn spend(budget: &mut usize) -> bool {
    let left = *budget > 0;
    *budget = budget.saturating_sub(1);
    left
}

/// One OpenAI strict limit crossed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum OpenAiFinding {
    Properties(usize),
    Levels(usize),
    EnumValues(usize),
    Characters(usize),
    LargeEnum { values: usize, characters: usize },
}

impl OpenAiFinding {
    fn describe(&self) -> (String, &'static str) {
        const SHORTEN_ENUMS: &str = "replace long enums with a string the server checks (say the expected form in the description) or with a lookup tool that returns the valid values";
        match self {
            OpenAiFinding::Properties(n) => (
                format!(
                    "OpenAI strict mode accepts at most {} object properties in one schema; these parameters declare {}",
                    thousands(OPENAI_PROPERTIES),
                    thousands(*n)
                ),
                "split the tool, or replace families of similar properties with an array of {name, value} objects",
            ),
            OpenAiFinding::Levels(n) => (
                format!(
                    "OpenAI strict mode accepts at most {OPENAI_LEVELS} levels of nested objects; the parameters reach {n} levels here"
                ),
                "flatten the structure: pass ids of nested records rather than the records, or give the deep part a tool of its own",
            ),
            OpenAiFinding::EnumValues(n) => (
                format!(
                    "OpenAI strict mode accepts at most {} enum values in one schema; these parameters have {}",
                    thousands(OPENAI_ENUM_VALUES),
                    thousands(*n)
                ),
                SHORTEN_ENUMS,
            ),
            OpenAiFinding::Characters(n) => (
                format!(
                    "OpenAI strict mode accepts at most {} characters of property names, definition names, enum values and const values in one schema; these parameters have {}",
                    thousands(OPENAI_CHARACTERS),
                    thousands(*n)
                ),
                SHORTEN_ENUMS,
            ),
            OpenAiFinding::LargeEnum { values, characters } => (
                format!(
                    "OpenAI strict mode accepts a string enum of more than {OPENAI_LARGE_ENUM} values only up to {} characters in total; this one has {} values of {} characters",
                    thousands(OPENAI_LARGE_ENUM_CHARACTERS),
                    thousands(*values),
                    thousands(*characters)
                ),
                SHORTEN_ENUMS,
            ),
        }
    }
}

/// Every OpenAI strict limit one lowered schema crosses, each with a pointer into the
/// lowered schema (relative to its root).
fn openai_findings(schema: &Value) -> Vec<(String, OpenAiFinding)> {
    let mut properties = 0;
    let mut enum_values = 0;
    let mut characters = 0;
    let mut large = Vec::new();
    let mut budget = BUDGET;
    walk_pruned(schema, "", &mut |node| {
        if !spend(&mut budget) {
            return Flow::Skip;
        }
        let (node, pointer) = (node.schema, node.pointer);
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            properties += props.len();
            characters += props.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        for key in ["$defs", "definitions"] {
            if let Some(defs) = node.get(key).and_then(Value::as_object) {
                characters += defs.keys().map(|k| k.chars().count()).sum::<usize>();
            }
        }
        if let Some(values) = node.get("enum").and_then(Value::as_array) {
            enum_values += values.len();
            let lengths = values.iter().map(value_chars);
            characters += lengths.sum::<usize>();
            let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            let string_chars = strings.iter().map(|s| s.chars().count()).sum::<usize>();
            if strings.len() > OPENAI_LARGE_ENUM && string_chars > OPENAI_LARGE_ENUM_CHARACTERS {
                large.push((
                    format!("{pointer}/enum"),
                    OpenAiFinding::LargeEnum {
                        values: strings.len(),
                        characters: string_chars,
                    },
                ));
            }
        }
        if let Some(value) = node.get("const") {
            characters += value_chars(value);
        }
        Flow::Descend
    });
    let mut found = Vec::new();
    if properties > OPENAI_PROPERTIES {
        found.push((String::new(), OpenAiFinding::Properties(properties)));
    }
    if let Some((pointer, levels)) = too_deep(schema) {
        found.push((pointer, OpenAiFinding::Levels(levels)));
    }
    if enum_values > OPENAI_ENUM_VALUES {
        found.push((String::new(), OpenAiFinding::EnumValues(enum_values)));
    }
    if characters > OPENAI_CHARACTERS {
        found.push((String::new(), OpenAiFinding::Characters(characters)));
    }
    found.extend(large);
    found
}

/// A string's characters, or the length of any other value written as JSON.
fn value_chars(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
}

/// Whether a schema describes an object, for counting levels.
fn is_object(node: &Value) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => node.get("properties").is_some(),
    }
}

/// The first object nested deeper than OpenAI's limit (its pointer) and the deepest level
/// reached. Definitions are entered through the `$ref`s that use them; a reference to a
/// definition already on the path (recursion, which OpenAI allows) is not followed.
fn too_deep(root: &Value) -> Option<(String, usize)> {
    struct Walk<'v> {
        root: &'v Value,
        refs: Vec<&'v str>,
        budget: usize,
        deepest: usize,
        first: Option<String>,
    }
    impl<'v> Walk<'v> {
        fn node(&mut self, node: &'v Value, pointer: &mut String, level: usize, depth: usize) {
            if depth > MAX_DEPTH || !spend(&mut self.budget) {
                return;
            }
            let level = level + usize::from(is_object(node));
            self.deepest = self.deepest.max(level);
            if level > OPENAI_LEVELS && self.first.is_none() {
                self.first = Some(pointer.clone());
            }
            if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
                let fragment = reference
                    .strip_prefix('#')
                    .filter(|f| f.is_empty() || f.starts_with('/'));
                if let (Some(fragment), false) = (fragment, self.refs.contains(&reference))
                    && let Some(target) = resolve_local_ref(self.root, reference)
                {
                    self.refs.push(reference);
                    self.node(target, &mut fragment.to_owned(), level, depth + 1);
                    self.refs.pop();
                }
            }
            for_each_child(node, pointer, |child, pointer| {
                // Definitions are entered through the `$ref`s that use them.
                if !matches!(child.keyword, "$defs" | "definitions") {
                    self.node(child.schema, pointer, level, depth + 1);
                }
            });
        }
    }
    let mut walk = Walk {
        root,
        refs: Vec::new(),
        budget: BUDGET,
        deepest: 0,
        first: None,
    };
    walk.node(root, &mut String::new(), 0, 0);
    walk.first.map(|pointer| (pointer, walk.deepest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> Value {
        let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
        for _ in 1..levels {
            schema = json!({"type": "object", "properties": {"next": schema}});
        }
        schema
    }

    #[test]
    fn levels_count_objects_from_the_root() {
        assert_eq!(too_deep(&nested(10)), None);
        let (pointer, levels) = too_deep(&nested(11)).unwrap();
        assert_eq!(levels, 11);
        assert_eq!(pointer, "/properties/next".repeat(10));
    }

    #[test]
    fn recursion_is_not_unrolled_but_references_are_followed() {
        let recursive = json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/node"}},
            "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}
        });
        assert_eq!(too_deep(&recursive), None);
        let mut defs = serde_json::Map::new();
        for i in 0..12 {
            defs.insert(
                format!("d{i}"),
                json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
            );
        }
        defs.insert("d12".to_owned(), json!({"type": "string"}));
        let chained = json!({"type": "object", "properties": {"first": {"$ref": "#/$defs/d0"}}, "$defs": defs});
        let (pointer, levels) = too_deep(&chained).unwrap();
        assert_eq!(levels, 13);
        assert_eq!(pointer, "/$defs/d9");
    }

    #[test]
    fn properties_and_characters_are_counted_per_schema() {
        let mut props = serde_json::Map::new();
        for i in 0..5001 {
            props.insert(format!("p{i:05}"), json!({"type": "string"}));
        }
        let wide = json!({"type": "object", "properties": props});
        let found = openai_findings(&wide);
        assert!(found.contains(&(String::new(), OpenAiFinding::Properties(5001))));
        assert!(
            !found
                .iter()
                .any(|(_, f)| matches!(f, OpenAiFinding::Characters(_)))
        );

        let long_values: Vec<String> = (0..900).map(|i| format!("{i:0>140}")).collect();
        let heavy =
            json!({"type": "object", "properties": {"a": {"type": "string", "enum": long_values}}});
        let found = openai_findings(&heavy);
        assert!(found.contains(&(String::new(), OpenAiFinding::Characters(900 * 140 + 1))));
        assert!(found.contains(&(
            "/properties/a/enum".to_owned(),
            OpenAiFinding::LargeEnum {
                values: 900,
                characters: 900 * 140
            }
        )));
        assert!(
            !found
                .iter()
                .any(|(_, f)| matches!(f, OpenAiFinding::EnumValues(_)))
        );
    }

    #[test]
    fn anthropic_counts_optional_and_union_parameters_at_any_depth() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"type": "object", "properties": {"c": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "d": {"type": "string"}}, "required": ["d"]}
            },
            "required": ["a"]
        });
        assert_eq!(
            anthropic_counts(&schema),
            AnthropicCounts {
                optional: 2,
                unions: 2
            }
        );
    }
}
