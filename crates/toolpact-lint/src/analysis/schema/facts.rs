//! What one schema says, read in one pass over its keys, and the questions asked of it:
//! its types, whether it is nullable, whether it is a closed set, how many of its properties
//! are optional.

use super::{properties, required, type_includes};
use serde_json::Value;
use toolpact::schema::resolve_local_ref;

/// How many local `$ref`s in a row [`resolved`] follows, so that a cycle ends.
const MAX_REF_HOPS: usize = 8;

/// What the rules ask of one schema, read in one pass over its keys: the rules ask many
/// questions of every property, and a keyword lookup each would cost more than the rest of
/// the check.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Facts<'v> {
    /// `type`.
    pub types: Option<&'v Value>,
    /// `enum` or `const` is present.
    pub listed: bool,
    /// `enum` lists `null`.
    pub enum_has_null: bool,
    /// `anyOf`.
    pub any_of: &'v [Value],
    /// `oneOf`.
    pub one_of: &'v [Value],
    /// `$ref`.
    pub reference: Option<&'v str>,
    /// `pattern`.
    pub pattern: Option<&'v str>,
    /// `format`.
    pub format: Option<&'v str>,
    /// `description`.
    pub description: Option<&'v str>,
    /// `default` is present.
    pub default: bool,
    /// `nullable: true` (OpenAPI, Gemini).
    pub nullable: bool,
    /// `items`.
    pub items: Option<&'v Value>,
}

impl<'v> Facts<'v> {
    /// Reads the facts of a schema (all empty for `true`, `false` or a non-schema).
    pub(crate) fn of(schema: &'v Value) -> Facts<'v> {
        let mut facts = Facts::default();
        let Some(obj) = schema.as_object() else {
            return facts;
        };
        for (key, value) in obj {
            match key.as_str() {
                "type" => facts.types = Some(value),
                "enum" => {
                    facts.listed = true;
                    facts.enum_has_null = value
                        .as_array()
                        .is_some_and(|values| values.contains(&Value::Null));
                }
                "const" => facts.listed = true,
                "anyOf" => facts.any_of = value.as_array().map_or(&[], Vec::as_slice),
                "oneOf" => facts.one_of = value.as_array().map_or(&[], Vec::as_slice),
                "$ref" => facts.reference = value.as_str(),
                "pattern" => facts.pattern = value.as_str(),
                "format" => facts.format = value.as_str(),
                "description" => facts.description = value.as_str(),
                "default" => facts.default = true,
                "nullable" => facts.nullable = value == &Value::Bool(true),
                "items" => facts.items = Some(value),
                _ => {}
            }
        }
        facts
    }

    /// Whether its own `type` (a string or a list) includes `t`.
    pub(crate) fn declares(&self, t: &str) -> bool {
        type_includes(self.types, t)
    }

    /// Whether its `type` is exactly `t`.
    pub(crate) fn is_only(&self, t: &str) -> bool {
        match self.types {
            Some(Value::String(s)) => s == t,
            Some(Value::Array(ts)) => ts.len() == 1 && ts[0].as_str() == Some(t),
            _ => false,
        }
    }

    /// The `anyOf` and `oneOf` branches.
    pub(crate) fn branches(&self) -> impl Iterator<Item = &'v Value> + use<'v> {
        self.any_of.iter().chain(self.one_of.iter())
    }

    /// Whether it declares type `t`, itself or in an `anyOf`/`oneOf` branch.
    pub(crate) fn has_type(&self, t: &str) -> bool {
        self.declares(t) || self.branches().any(|b| Facts::of(b).declares(t))
    }

    /// Whether `null` is accepted: `type: [T, "null"]`, `nullable: true`, a `null` branch,
    /// or `null` in `enum`.
    pub(crate) fn is_nullable(&self) -> bool {
        self.nullable || self.enum_has_null || self.has_type("null")
    }

    /// Whether only listed values are accepted: `enum`, `const`, or `anyOf`/`oneOf`
    /// branches that are each `const`, `enum` or `null` (the documented-enum pattern).
    pub(crate) fn is_closed_set(&self, root: &'v Value) -> bool {
        if self.listed {
            return true;
        }
        let mut any = false;
        for branch in self.branches() {
            let (_, branch) = resolved(root, branch);
            if !(branch.listed || branch.is_only("null")) {
                return false;
            }
            any = true;
        }
        any
    }
}

/// Follows local `$ref`s (a few hops, so a cycle ends) against `root`, and reads the facts of
/// the schema reached; an unresolvable reference leaves the schema as it is.
pub(crate) fn resolved<'v>(root: &'v Value, schema: &'v Value) -> (&'v Value, Facts<'v>) {
    let mut current = schema;
    let mut facts = Facts::of(current);
    for _ in 0..MAX_REF_HOPS {
        match facts.reference.and_then(|r| resolve_local_ref(root, r)) {
            Some(target) if !std::ptr::eq(target, current) => {
                current = target;
                facts = Facts::of(current);
            }
            _ => break,
        }
    }
    (current, facts)
}

/// How many properties an object schema has, how many of them are optional (not in
/// `required`), and how many more are required but nullable — optional in all but name, as
/// OpenAI strict mode writes optional fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PropertyCounts {
    /// Every property.
    pub total: usize,
    /// Not in `required`.
    pub optional: usize,
    /// In `required`, but accepting `null`.
    pub nullable: usize,
}

/// Counts the properties of an object schema; see [`PropertyCounts`].
pub(crate) fn property_counts(root: &Value, schema: &Value) -> PropertyCounts {
    let Some(props) = properties(schema) else {
        return PropertyCounts::default();
    };
    let required = required(schema);
    let mut counts = PropertyCounts {
        total: props.len(),
        ..PropertyCounts::default()
    };
    for (name, sub) in props {
        if !required.contains(name) {
            counts.optional += 1;
        } else if resolved(root, sub).1.is_nullable() {
            counts.nullable += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_cycles_without_looping() {
        let schema = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}});
        let a = &schema["$defs"]["a"];
        let _ = resolved(&schema, a);
    }

    #[test]
    fn recognizes_nullable_and_closed_sets() {
        let root = json!({"$defs": {"unit": {"enum": ["c", "f"]}}});
        let nullable = |s: Value| Facts::of(&s).is_nullable();
        assert!(nullable(json!({"type": ["string", "null"]})));
        assert!(nullable(
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        ));
        assert!(nullable(json!({"nullable": true})));
        assert!(!nullable(json!({"type": "string"})));
        let closed = |s: Value| resolved(&root, &s).1.is_closed_set(&root);
        assert!(closed(json!({"$ref": "#/$defs/unit"})));
        assert!(closed(json!({"oneOf": [{"const": "a"}, {"const": "b"}]})));
        assert!(!closed(
            json!({"oneOf": [{"const": "a"}, {"type": "string"}]})
        ));
        assert!(!closed(json!({"type": "string"})));
    }

    #[test]
    fn counts_optional_and_nullable_properties() {
        let schema = json!({
            "properties": {"a": {}, "b": {"type": ["string", "null"]}, "c": {"type": "string"}},
            "required": ["b", "c"]
        });
        assert_eq!(
            property_counts(&schema, &schema),
            PropertyCounts {
                total: 3,
                optional: 1,
                nullable: 1
            }
        );
    }
}
