//! The schema walk: two versions of a schema compared keyword by keyword, down through
//! `properties`, `items`, `prefixItems`, `$defs`, `anyOf`/`oneOf`/`allOf` and the other
//! subschema keywords, at most [`MAX_DEPTH`] levels deep.

use super::change::{ChangeClass, ChangeKind, Direction, Side, class_of};
use super::constraint::{LOWER_BOUNDS, UPPER_BOUNDS};
use super::differ::{Differ, EMPTY, as_objects, changed_entries};
use super::display::{from_to, show, subject};
use crate::canonical::to_canonical_string;
use crate::json::child_pointer;
use crate::schema::MAX_DEPTH;
use serde_json::{Map, Value};

/// Keywords holding one subschema that constrains in the same direction as its parent; an
/// absent one is the schema `true`.
const SAME_DIRECTION_SUBSCHEMAS: &[&str] = &[
    "items",
    "additionalItems",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];

/// Keywords whose change toolpact cannot judge the direction of.
const OPAQUE_KEYWORDS: &[&str] = &[
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "not",
    "if",
    "contains",
    "dependentRequired",
    "dependencies",
    "contentMediaType",
    "contentEncoding",
];

impl Differ<'_> {
    /// Records every change between two versions of the schema at `pointer`, `depth` levels
    /// below the tool's input or output schema.
    pub(super) fn schema(
        &mut self,
        side: Side,
        pointer: &str,
        old: &Value,
        new: &Value,
        depth: usize,
    ) {
        if old == new {
            return;
        }
        if depth > MAX_DEPTH {
            self.push(
                pointer,
                class_of(side, Direction::Changed),
                ChangeKind::SchemaChanged,
                format!(
                    "the schema changed more than {MAX_DEPTH} levels deep, where toolpact stops comparing"
                ),
            );
            return;
        }
        // `true` and `{}` both accept everything: compare `true` as `{}`, keyword by keyword.
        if let (Some(o), Some(n)) = (as_schema_object(old), as_schema_object(new)) {
            if o == n {
                self.rewritten(pointer, "the schema");
            } else {
                self.schema_object(side, pointer, o, n, depth);
            }
            return;
        }
        let direction = match (old, new) {
            (_, Value::Bool(false)) => Direction::Narrower,
            (Value::Bool(false), _) => Direction::Wider,
            _ => Direction::Changed,
        };
        let kind = match direction {
            Direction::Narrower => ChangeKind::ConstraintNarrowed,
            Direction::Wider => ChangeKind::ConstraintWidened,
            _ => ChangeKind::SchemaChanged,
        };
        self.push(
            pointer,
            class_of(side, direction),
            kind,
            format!("schema changed from {} to {}", show(old), show(new)),
        );
    }

    /// Two schemas that are objects (or `true`), keyword by keyword.
    fn schema_object(
        &mut self,
        side: Side,
        pointer: &str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        depth: usize,
    ) {
        let mut object_keywords_done = false;
        for (key, a, b) in changed_entries(o, n) {
            let at = child_pointer(pointer, key);
            let before = self.out.len();
            match key {
                "properties" | "required" | "additionalProperties" => {
                    if !object_keywords_done {
                        object_keywords_done = true;
                        self.object_keywords(side, pointer, o, n, depth);
                    }
                    continue;
                }
                "type" => self.type_keyword(side, &at, a, b),
                "enum" => self.enum_keyword(side, &at, a, b),
                "const" => {
                    let direction = match (a, b) {
                        (None, Some(_)) => Direction::Narrower,
                        (Some(_), None) => Direction::Wider,
                        _ => Direction::Changed,
                    };
                    self.constraint(side, &at, direction, format!("const {}", from_to(a, b)));
                }
                k if LOWER_BOUNDS.contains(&k) => self.bound(side, &at, k, a, b, true),
                k if UPPER_BOUNDS.contains(&k) => self.bound(side, &at, k, a, b, false),
                "multipleOf" => self.multiple_of(side, &at, a, b),
                "pattern" | "format" => {
                    let direction = match (a, b) {
                        (None, Some(_)) => Direction::Narrower,
                        (Some(_), None) => Direction::Wider,
                        _ => Direction::Changed,
                    };
                    self.constraint(side, &at, direction, format!("{key} {}", from_to(a, b)));
                }
                "uniqueItems" => {
                    let (x, y) = (a == Some(&Value::Bool(true)), b == Some(&Value::Bool(true)));
                    if x != y {
                        let (direction, message) = if y {
                            (Direction::Narrower, "items must now be unique")
                        } else {
                            (Direction::Wider, "items no longer need to be unique")
                        };
                        self.constraint(side, &at, direction, message.to_owned());
                    }
                }
                "description" | "title" => {
                    let what = format!("{key} of {}", subject(pointer));
                    self.text(&at, &what, a, b, ChangeClass::Description);
                }
                "examples" | "$comment" => {
                    self.push(
                        &at,
                        ChangeClass::Description,
                        ChangeKind::TextChanged,
                        format!("{key} of {} {}", subject(pointer), from_to(a, b)),
                    );
                }
                "default" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::DefaultChanged,
                        format!(
                            "default of {} {}: the value used when the argument is left out",
                            subject(pointer),
                            from_to(a, b)
                        ),
                    );
                }
                "deprecated" | "readOnly" | "writeOnly" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::AnnotationChanged,
                        format!("{key} of {} {}", subject(pointer), from_to(a, b)),
                    );
                }
                k if SAME_DIRECTION_SUBSCHEMAS.contains(&k) => match (a, b) {
                    (Some(Value::Array(x)), Some(Value::Array(y))) => {
                        self.positional(side, &at, x, y, depth);
                    }
                    _ => self.schema(
                        side,
                        &at,
                        a.unwrap_or(&Value::Bool(true)),
                        b.unwrap_or(&Value::Bool(true)),
                        depth + 1,
                    ),
                },
                "prefixItems" => match (a, b) {
                    (Some(Value::Array(x)), Some(Value::Array(y))) => {
                        self.positional(side, &at, x, y, depth);
                    }
                    (None, Some(_)) => {
                        self.constraint(side, &at, Direction::Narrower, "prefixItems added".into())
                    }
                    (Some(_), None) => {
                        self.constraint(side, &at, Direction::Wider, "prefixItems removed".into())
                    }
                    _ => self.opaque(side, &at, key, a, b),
                },
                "$defs" | "definitions" | "patternProperties" | "dependentSchemas" => {
                    self.schema_entries(side, &at, key, a, b, depth)
                }
                "anyOf" | "oneOf" | "allOf" => self.branches(side, &at, key, a, b, depth),
                k if OPAQUE_KEYWORDS.contains(&k) => self.opaque(side, &at, key, a, b),
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::SchemaChanged,
                        format!(
                            "keyword `{key}` {}; toolpact does not know what it does",
                            from_to(a, b)
                        ),
                    );
                }
            }
            if self.out.len() == before {
                self.rewritten(&at, &format!("`{key}`"));
            }
        }
    }

    /// `prefixItems`, or `items` as an array (drafts before 2020-12): one schema per position.
    fn positional(&mut self, side: Side, pointer: &str, x: &[Value], y: &[Value], depth: usize) {
        for i in 0..x.len().max(y.len()) {
            let at = child_pointer(pointer, &i.to_string());
            match (x.get(i), y.get(i)) {
                (Some(a), Some(b)) => self.schema(side, &at, a, b, depth + 1),
                (Some(_), None) => self.constraint(
                    side,
                    &at,
                    Direction::Wider,
                    format!("the schema for position {i} removed"),
                ),
                (None, Some(_)) => self.constraint(
                    side,
                    &at,
                    Direction::Narrower,
                    format!("a schema for position {i} added"),
                ),
                (None, None) => {}
            }
        }
    }

    /// A keyword that maps names to schemas: `$defs` and `definitions` (schemas others refer
    /// to), `patternProperties` and `dependentSchemas` (each entry adds a constraint). The
    /// schemas of a name on both sides are compared; a name on one side only is recorded.
    fn schema_entries(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        depth: usize,
    ) {
        let definitions = matches!(key, "$defs" | "definitions");
        let Some((x, y)) = as_objects(a, b) else {
            let key = if definitions { "$defs" } else { key };
            return self.opaque(side, pointer, key, a, b);
        };
        for (name, p, q) in changed_entries(x, y) {
            let at = child_pointer(pointer, name);
            match (p, q) {
                (Some(p), Some(q)) => self.schema(side, &at, p, q, depth + 1),
                (Some(_), None) if definitions => {
                    self.push(
                        &at,
                        class_of(side, Direction::Changed),
                        ChangeKind::SchemaChanged,
                        format!("definition {name:?} removed"),
                    );
                }
                (None, Some(_)) if definitions => {
                    self.push(
                        &at,
                        ChangeClass::Compatible,
                        ChangeKind::SchemaChanged,
                        format!("definition {name:?} added"),
                    );
                }
                (Some(_), None) => self.constraint(
                    side,
                    &at,
                    Direction::Wider,
                    format!("{key} entry {name:?} removed"),
                ),
                (None, Some(_)) => self.constraint(
                    side,
                    &at,
                    Direction::Narrower,
                    format!("{key} entry {name:?} added"),
                ),
                (None, None) => {}
            }
        }
    }

    /// `anyOf`, `oneOf` and `allOf`. Lists of the same length are compared branch by branch;
    /// otherwise the branches only one side has are listed.
    fn branches(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        depth: usize,
    ) {
        // One more alternative accepts more; one more `allOf` part accepts fewer.
        let (on_add, on_remove) = if key == "allOf" {
            (Direction::Narrower, Direction::Wider)
        } else {
            (Direction::Wider, Direction::Narrower)
        };
        match (a, b) {
            (None, Some(_)) => {
                self.constraint(side, pointer, Direction::Narrower, format!("{key} added"))
            }
            (Some(_), None) => {
                self.constraint(side, pointer, Direction::Wider, format!("{key} removed"))
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    self.schema(
                        side,
                        &child_pointer(pointer, &i.to_string()),
                        p,
                        q,
                        depth + 1,
                    );
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                let xs: Vec<String> = x.iter().map(to_canonical_string).collect();
                let ys: Vec<String> = y.iter().map(to_canonical_string).collect();
                for (i, s) in xs.iter().enumerate() {
                    if !ys.contains(s) {
                        self.constraint(
                            side,
                            &child_pointer(pointer, &i.to_string()),
                            on_remove,
                            format!("{key} branch {i} removed"),
                        );
                    }
                }
                for (j, s) in ys.iter().enumerate() {
                    if !xs.contains(s) {
                        self.constraint(
                            side,
                            &child_pointer(pointer, &j.to_string()),
                            on_add,
                            format!("{key} branch {j} added"),
                        );
                    }
                }
            }
            _ => self.opaque(side, pointer, key, a, b),
        }
    }
}

/// A schema as an object, `true` as the empty object that means the same.
fn as_schema_object(schema: &Value) -> Option<&Map<String, Value>> {
    match schema {
        Value::Object(m) => Some(m),
        Value::Bool(true) => Some(&EMPTY),
        _ => None,
    }
}
