//! What a model sends for a lowered schema, read back into the schema as written: the
//! [`Inverse`] the lowering walker records wherever it changed the shape of the values a
//! model sends, and the [`ReadBackStep`]s that reading a call through it makes.
//!
//! Two rewrites change values: strict mode makes an optional property required and
//! nullable (the model sends `null` to leave it out), and Gemini writes integer, number
//! and boolean enum values as strings (the model sends `"2"` for `2`). Every other rewrite
//! keeps the values the model sends valid for the schema as written, or is enforced when
//! the call is validated (`oneOf` written as `anyOf`, constraints moved into the
//! description).

use crate::json::{child_pointer, escape_token, json_type};
use crate::lower::sources::{SourceMap, forget_under, move_under};
use crate::schema::{MAX_DEPTH, resolve_local_ref};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Why a model sends `null` for an optional property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Null {
    /// Lowering made the property required and nullable: null is how the model leaves it out.
    Required,
    /// The property stays optional, but the mode leads models to send null for it.
    Optional,
}

/// What lowering changed at one place of the lowered schema, in the values the model sends.
#[derive(Debug, Clone, Default, PartialEq)]
struct Mark {
    /// The property here is optional as written, and a null the model sends for it leaves
    /// it out: why the model sends one.
    null: Option<Null>,
    /// Enum values written as strings: each string with the value it stands for.
    strings: Vec<(String, Value)>,
}

/// How to read the values a model sends for a lowered schema back into the schema as
/// written, recorded by the lowering that wrote it. Empty when lowering kept every value's
/// shape.
///
/// The marks are kept by pointer into the lowered schema, and move with what they mark
/// while the walker lowers. Calls are read back against the schema as written: the first
/// call read back places the marks there, through the source map of the lowering, so an
/// export whose calls never need it does not pay for it.
#[derive(Debug, Clone, Default)]
pub struct Inverse {
    /// Who lowered, for the reasons given: "OpenAI strict mode".
    label: &'static str,
    /// By pointer into the lowered schema.
    marks: BTreeMap<String, Mark>,
    /// Where the parts of the lowered schema come from, when that is not where they are.
    sources: Option<SourceMap>,
    /// The marks by pointer into the schema as written, once placed.
    placed: OnceLock<BTreeMap<String, Mark>>,
}

impl PartialEq for Inverse {
    fn eq(&self, other: &Self) -> bool {
        self.label == other.label && self.marks == other.marks && self.sources == other.sources
    }
}

/// One change reading a call back made to its arguments: what the model sent, what the
/// schema as written receives instead, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadBackStep {
    /// JSON pointer to the argument, in the arguments the model sent.
    pub pointer: String,
    /// What the model sent.
    pub from: Value,
    /// What the schema as written receives; `None` when the argument is left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Value>,
    /// Why: which rewrite of the export the model's value answers.
    pub why: String,
}

impl Inverse {
    pub(crate) fn new(label: &'static str) -> Self {
        Inverse {
            label,
            ..Inverse::default()
        }
    }

    /// Whether the lowering changed no value's shape: calls need no reading back.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// Records that the property at `place` (a pointer into the lowered schema) is
    /// optional as written: a null the model sends for it leaves it out.
    pub(crate) fn null_leaves_out(&mut self, place: String) {
        self.marks.entry(place).or_default().null = Some(Null::Required);
    }

    /// Records that the property at `place` (a pointer into the lowered schema) stays
    /// optional, and that a null the model sends for it, where the schema as written
    /// refuses one, leaves it out.
    pub(crate) fn null_of_optional(&mut self, place: String) {
        self.marks
            .entry(place)
            .or_default()
            .null
            .get_or_insert(Null::Optional);
    }

    /// Records that the enum at `place` holds `values` written as strings.
    pub(crate) fn strings(&mut self, place: String, values: &[&Value]) {
        self.marks.entry(place).or_default().strings = values
            .iter()
            .map(|v| (v.to_string(), (*v).clone()))
            .collect();
    }

    /// The marks at `from` and below move to `to`.
    pub(crate) fn moved(&mut self, from: &str, to: &str) {
        move_under(&mut self.marks, from, to);
    }

    /// The marks at `place` and below are no longer in the lowered schema.
    pub(crate) fn forget(&mut self, place: &str) {
        forget_under(&mut self.marks, place);
    }

    /// The inverse of a finished lowering, whose parts come from the schema as written as
    /// `sources` says.
    pub(crate) fn finished(mut self, sources: &SourceMap) -> Inverse {
        if !self.marks.is_empty() && !sources.is_identity() {
            self.sources = Some(sources.clone());
        }
        self
    }

    /// The marks by their place in `schema`, the schema as written.
    fn marks_in(&self, schema: &Value) -> &BTreeMap<String, Mark> {
        let Some(sources) = &self.sources else {
            return &self.marks;
        };
        self.placed.get_or_init(|| {
            let mut marks: BTreeMap<String, Mark> = BTreeMap::new();
            for (place, mark) in &self.marks {
                let entry = marks.entry(sources.original(place, schema)).or_default();
                entry.null = entry.null.or(mark.null);
                if entry.strings.is_empty() {
                    entry.strings = mark.strings.clone();
                }
            }
            marks
        })
    }

    /// Reads `arguments`, sent by a model for the lowered schema, back into `schema`, the
    /// schema as written that this inverse was recorded for, where `wrong` says a value is
    /// wrong: only the arguments at or below one of the JSON pointers `wrong` names are
    /// changed, so a value the schema as written accepts (a null it allows, a string enum
    /// value) stays as the model sent it. Returns each change made.
    pub fn read_back(
        &self,
        schema: &Value,
        arguments: &mut Value,
        wrong: &[&str],
    ) -> Vec<ReadBackStep> {
        if self.marks.is_empty() {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut walk = Walk {
            label: self.label,
            marks: self.marks_in(schema),
            root: schema,
            found: &mut found,
        };
        walk.node(arguments, schema, "", &mut String::new(), 0);
        let wrong_here = |pointer: &str| {
            wrong.iter().any(|w| {
                pointer.starts_with(w)
                    && (pointer.len() == w.len() || pointer.as_bytes()[w.len()] == b'/')
            })
        };
        let mut steps = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for (pointer, to, why) in found {
            if !wrong_here(&pointer) || seen.contains(&pointer) {
                continue;
            }
            seen.push(pointer.clone());
            let Some(from) = arguments.pointer(&pointer).cloned() else {
                continue;
            };
            match &to {
                Some(value) => {
                    if let Some(slot) = arguments.pointer_mut(&pointer) {
                        *slot = value.clone();
                    }
                }
                None => {
                    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", &pointer));
                    let key = crate::json::unescape_token(key);
                    if let Some(Value::Object(map)) = arguments.pointer_mut(parent) {
                        map.shift_remove(key.as_ref());
                    }
                }
            }
            steps.push(ReadBackStep {
                pointer,
                from,
                to,
                why,
            });
        }
        steps
    }
}

/// One walk of a call's arguments beside the schema as written, collecting what would be
/// read back: each argument's pointer, its value for the schema as written (`None`: left out),
/// and why.
struct Walk<'a, 'f> {
    label: &'static str,
    marks: &'a BTreeMap<String, Mark>,
    root: &'a Value,
    found: &'f mut Vec<(String, Option<Value>, String)>,
}

impl Walk<'_, '_> {
    fn node(&mut self, value: &Value, schema: &Value, place: &str, at: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Value::Object(schema_map) = schema else {
            return;
        };
        if let (Value::String(text), Some(mark)) = (value, self.marks.get(place))
            && let Some((_, original)) = mark.strings.iter().find(|(s, _)| s == text)
        {
            self.found.push((
                at.clone(),
                Some(original.clone()),
                format!(
                    "{} writes enum values as strings; {value} stands for the {} {original}",
                    self.label,
                    json_type(original)
                ),
            ));
        }
        if let Some(reference) = schema_map.get("$ref").and_then(Value::as_str)
            && let Some(target) = resolve_local_ref(self.root, reference)
        {
            let fragment = reference.strip_prefix('#').unwrap_or_default();
            self.node(value, target, fragment, at, depth + 1);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = schema_map.get(key) {
                let here = child_pointer(place, key);
                for (i, branch) in branches.iter().enumerate() {
                    self.node(
                        value,
                        branch,
                        &child_pointer(&here, &i.to_string()),
                        at,
                        depth + 1,
                    );
                }
            }
        }
        match value {
            Value::Object(arguments) => {
                let Some(Value::Object(properties)) = schema_map.get("properties") else {
                    return;
                };
                let properties_place = child_pointer(place, "properties");
                for (name, argument) in arguments {
                    let Some(property) = properties.get(name) else {
                        continue;
                    };
                    let property_place = child_pointer(&properties_place, name);
                    let len = at.len();
                    at.push('/');
                    at.push_str(&escape_token(name));
                    let null = self.marks.get(&property_place).and_then(|m| m.null);
                    if let (Value::Null, Some(null)) = (argument, null) {
                        self.found.push((
                            at.clone(),
                            None,
                            match null {
                                Null::Required => format!(
                                    "{} makes every property required; null is how the model leaves out the optional {name:?}",
                                    self.label
                                ),
                                Null::Optional => format!(
                                    "{} keeps {name:?} optional, and a null sent for it stands for leaving it out",
                                    self.label
                                ),
                            },
                        ));
                    } else {
                        self.node(argument, property, &property_place, at, depth + 1);
                    }
                    at.truncate(len);
                }
            }
            Value::Array(items) => {
                let items_schema = schema_map.get("items");
                let prefix = schema_map.get("prefixItems").and_then(Value::as_array);
                for (i, item) in items.iter().enumerate() {
                    let (schema, place) = match prefix.and_then(|p| p.get(i)) {
                        Some(s) => (
                            s,
                            child_pointer(&child_pointer(place, "prefixItems"), &i.to_string()),
                        ),
                        None => match items_schema {
                            Some(s) => (s, child_pointer(place, "items")),
                            None => continue,
                        },
                    };
                    let len = at.len();
                    at.push('/');
                    at.push_str(&i.to_string());
                    self.node(item, schema, &place, at, depth + 1);
                    at.truncate(len);
                }
            }
            _ => {}
        }
    }
}
