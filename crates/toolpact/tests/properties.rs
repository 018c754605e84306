//! Property tests of argument validation: random tool schemas from a small grammar, instances
//! built to satisfy them, and single mutations whose error must come back with the right kind
//! at the right JSON pointer.
//!
//! The grammar is what tool schemas are made of: objects with required and optional
//! properties of type string, integer, number, boolean, array, enum or nested object, with
//! `minimum`/`maximum`, `minLength`/`maxLength`, `minItems`, `enum` and
//! `additionalProperties: false`. Property names include `/` and `~`, which a JSON pointer
//! must escape (RFC 6901), and strings include non-ASCII characters, which `minLength`
//! counts as one each.

// Tests fail loudly on purpose.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toolpact::CompiledSchema;
use toolpact::{ArgumentErrorKind, ArgumentErrors};

/// A schema in the grammar.
#[derive(Debug, Clone)]
enum Node {
    String {
        min: Option<usize>,
        max: Option<usize>,
    },
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
    /// Bounds and values are multiples of 0.25, so they are exact in binary.
    Number {
        min: Option<f64>,
        max: Option<f64>,
    },
    Boolean,
    Array {
        items: Box<Node>,
        min: Option<usize>,
    },
    Enum(Vec<&'static str>),
    Object(Object),
}

#[derive(Debug, Clone)]
struct Object {
    /// Name → (schema, required).
    properties: BTreeMap<String, (Node, bool)>,
    closed: bool,
}

/// A name no generated property has (generated names have no `_`).
const UNKNOWN: &str = "zz_extra";

const COLOURS: [&str; 4] = ["red", "green", "blue", "light grey"];

impl Node {
    fn schema(&self) -> Value {
        match self {
            Node::String { min, max } => {
                let mut s = json!({"type": "string"});
                if let Some(min) = min {
                    s["minLength"] = json!(min);
                }
                if let Some(max) = max {
                    s["maxLength"] = json!(max);
                }
                s
            }
            Node::Integer { min, max } => {
                bounded("integer", min.map(Value::from), max.map(Value::from))
            }
            Node::Number { min, max } => {
                bounded("number", min.map(Value::from), max.map(Value::from))
            }
            Node::Boolean => json!({"type": "boolean"}),
            Node::Array { items, min } => {
                let mut s = json!({"type": "array", "items": items.schema()});
                if let Some(min) = min {
                    s["minItems"] = json!(min);
                }
                s
            }
            Node::Enum(values) => json!({"type": "string", "enum": values}),
            Node::Object(object) => {
                let properties: Map<String, Value> = object
                    .properties
                    .iter()
                    .map(|(name, (node, _))| (name.clone(), node.schema()))
                    .collect();
                let required: Vec<&String> = object
                    .properties
                    .iter()
                    .filter(|(_, (_, required))| *required)
                    .map(|(name, _)| name)
                    .collect();
                let mut s = json!({"type": "object", "properties": properties});
                if !required.is_empty() {
                    s["required"] = json!(required);
                }
                if object.closed {
                    s["additionalProperties"] = json!(false);
                }
                s
            }
        }
    }
}

fn bounded(kind: &str, min: Option<Value>, max: Option<Value>) -> Value {
    let mut s = json!({"type": kind});
    if let Some(min) = min {
        s["minimum"] = min;
    }
    if let Some(max) = max {
        s["maximum"] = max;
    }
    s
}

fn property_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z]{1,6}",
        1 => Just("a/b".to_owned()),
        1 => Just("t~x".to_owned()),
        1 => Just("0".to_owned()),
    ]
}

/// Optional lower and upper bounds with `lo <= hi`.
fn bounds(lo: i64, hi: i64) -> impl Strategy<Value = (Option<i64>, Option<i64>)> {
    (
        proptest::option::of(lo..=hi),
        proptest::option::of(0..=(hi - lo)),
    )
        .prop_map(move |(min, span)| match (min, span) {
            (Some(min), Some(span)) => (Some(min), Some(min + span)),
            (None, Some(span)) => (None, Some(lo + span)),
            (min, None) => (min, None),
        })
}

fn leaf() -> impl Strategy<Value = Node> {
    prop_oneof![
        (bounds(0, 6)).prop_map(|(min, max)| Node::String {
            min: min.map(|n| n as usize),
            max: max.map(|n| n as usize),
        }),
        bounds(-20, 20).prop_map(|(min, max)| Node::Integer { min, max }),
        bounds(-40, 40).prop_map(|(min, max)| Node::Number {
            min: min.map(|n| n as f64 / 4.0),
            max: max.map(|n| n as f64 / 4.0),
        }),
        Just(Node::Boolean),
        proptest::sample::subsequence(COLOURS.to_vec(), 1..=3).prop_map(Node::Enum),
    ]
}

fn object(inner: impl Strategy<Value = Node>) -> impl Strategy<Value = Object> {
    (
        proptest::collection::btree_map(property_name(), (inner, any::<bool>()), 0..5),
        any::<bool>(),
    )
        .prop_map(|(properties, closed)| Object { properties, closed })
}

fn node() -> impl Strategy<Value = Node> {
    leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            (inner.clone(), proptest::option::of(0usize..3)).prop_map(|(items, min)| {
                Node::Array {
                    items: Box::new(items),
                    min,
                }
            }),
            object(inner).prop_map(Node::Object),
        ]
    })
}

/// A tool's input schema: always an object at the root.
fn root() -> impl Strategy<Value = Object> {
    object(node())
}

/// Instances that satisfy `node`.
fn valid(node: &Node) -> BoxedStrategy<Value> {
    match node {
        Node::String { min, max } => {
            let (min, max) = (min.unwrap_or(0), max.unwrap_or(min.unwrap_or(0) + 5));
            proptest::string::string_regex(&format!("[a-zé✓ ]{{{min},{max}}}"))
                .unwrap()
                .prop_map(Value::from)
                .boxed()
        }
        Node::Integer { min, max } => {
            let lo = min.unwrap_or(-100);
            let hi = max.unwrap_or(lo.max(0) + 100);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        Node::Number { min, max } => {
            let lo = (min.unwrap_or(-25.0) * 4.0) as i64;
            let hi = max.map_or(lo.max(0) + 100, |m| (m * 4.0) as i64);
            (lo..=hi).prop_map(|q| Value::from(q as f64 / 4.0)).boxed()
        }
        Node::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        Node::Array { items, min } => {
            let min = min.unwrap_or(0);
            proptest::collection::vec(valid(items), min..=min + 3)
                .prop_map(Value::from)
                .boxed()
        }
        Node::Enum(values) => proptest::sample::select(values.clone())
            .prop_map(Value::from)
            .boxed(),
        Node::Object(object) => valid_object(object),
    }
}

fn valid_object(object: &Object) -> BoxedStrategy<Value> {
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = object
        .properties
        .iter()
        .map(|(name, (node, required))| {
            let name = name.clone();
            let value = valid(node);
            if *required {
                value.prop_map(move |v| Some((name.clone(), v))).boxed()
            } else {
                proptest::option::of(value)
                    .prop_map(move |v| v.map(|v| (name.clone(), v)))
                    .boxed()
            }
        })
        .collect();
    members
        .prop_map(|members| Value::Object(members.into_iter().flatten().collect()))
        .boxed()
}

/// A schema, as JSON, with an instance that satisfies it.
fn schema_and_instance() -> impl Strategy<Value = (Object, Value, Value)> {
    root().prop_flat_map(|object| {
        let schema = Node::Object(object.clone()).schema();
        (Just(object.clone()), Just(schema), valid_object(&object))
    })
}

/// One change that makes a valid instance invalid in exactly one place.
#[derive(Debug, Clone)]
struct Mutation {
    /// Where the value changes (for a property removed or added, the property itself).
    pointer: String,
    /// The error it must cause.
    kind: ArgumentErrorKind,
    change: Change,
}

#[derive(Debug, Clone)]
enum Change {
    /// Put this value at the pointer.
    Replace(Value),
    /// Remove the property at the pointer.
    Remove,
}

/// `base` followed by one more reference token, escaped as RFC 6901 says.
fn child(base: &str, token: &str) -> String {
    format!("{base}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// Every mutation the grammar allows on `value` (which satisfies `node`).
fn mutations(node: &Node, value: &Value, pointer: &str, out: &mut Vec<Mutation>) {
    use ArgumentErrorKind as K;
    let mut add = |kind, change| {
        out.push(Mutation {
            pointer: pointer.to_owned(),
            kind,
            change,
        })
    };
    let wrong_type = match node {
        Node::String { .. } | Node::Enum(_) => json!(12),
        Node::Integer { .. } => json!(1.5),
        Node::Number { .. } => json!("1.5"),
        Node::Boolean => json!("true"),
        Node::Array { .. } => json!({"0": 1}),
        Node::Object(_) => json!(["not", "an", "object"]),
    };
    add(K::WrongType, Change::Replace(wrong_type));
    match node {
        Node::String { min, max } => {
            if let Some(min) = min.filter(|&m| m > 0) {
                add(K::Length, Change::Replace(json!("é".repeat(min - 1))));
            }
            if let Some(max) = max {
                add(K::Length, Change::Replace(json!("é".repeat(max + 1))));
            }
        }
        Node::Integer { min, max } => {
            if let Some(min) = min {
                add(K::OutOfRange, Change::Replace(json!(min - 1)));
            }
            if let Some(max) = max {
                add(K::OutOfRange, Change::Replace(json!(max + 1)));
            }
        }
        Node::Number { min, max } => {
            if let Some(min) = min {
                add(K::OutOfRange, Change::Replace(json!(min - 0.5)));
            }
            if let Some(max) = max {
                add(K::OutOfRange, Change::Replace(json!(max + 0.5)));
            }
        }
        Node::Boolean => {}
        Node::Enum(_) => add(K::NotAllowed, Change::Replace(json!("purple"))),
        Node::Array { items, min } => {
            if let Some(min) = min.filter(|&m| m > 0) {
                let mut shorter = value.as_array().unwrap().clone();
                shorter.truncate(min - 1);
                add(K::Length, Change::Replace(Value::Array(shorter)));
            }
            for (i, item) in value.as_array().unwrap().iter().enumerate() {
                mutations(items, item, &child(pointer, &i.to_string()), out);
            }
        }
        Node::Object(object) => {
            let members = value.as_object().unwrap();
            if object.closed {
                out.push(Mutation {
                    pointer: child(pointer, UNKNOWN),
                    kind: K::Unknown,
                    change: Change::Replace(json!("surprise")),
                });
            }
            for (name, (node, required)) in &object.properties {
                let Some(member) = members.get(name) else {
                    continue;
                };
                let at = child(pointer, name);
                if *required {
                    out.push(Mutation {
                        pointer: at.clone(),
                        kind: K::Missing,
                        change: Change::Remove,
                    });
                }
                mutations(node, member, &at, out);
            }
        }
    }
}

fn apply(instance: &Value, mutation: &Mutation) -> Value {
    let mut out = instance.clone();
    let (parent, token) = mutation.pointer.rsplit_once('/').unwrap_or(("", ""));
    let token = token.replace("~1", "/").replace("~0", "~");
    match &mutation.change {
        Change::Replace(value) if mutation.pointer.is_empty() => out = value.clone(),
        Change::Replace(value) => match out.pointer_mut(parent).unwrap() {
            Value::Object(map) => {
                map.insert(token, value.clone());
            }
            Value::Array(items) => items[token.parse::<usize>().unwrap()] = value.clone(),
            other => panic!("cannot replace inside {other}"),
        },
        Change::Remove => {
            out.pointer_mut(parent)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(&token);
        }
    }
    out
}

/// Whether two mutations touch the same value or one holds the other.
fn overlap(a: &str, b: &str) -> bool {
    a == b || a.starts_with(&format!("{b}/")) || b.starts_with(&format!("{a}/"))
}

fn validate(schema: &Value, instance: &Value) -> Result<(), ArgumentErrors> {
    let validator = CompiledSchema::new(schema)
        .unwrap_or_else(|(p, e)| panic!("the schema does not compile at {p:?}: {e}\n{schema}"));
    validator.check(schema, instance)
}

fn rank(kind: ArgumentErrorKind) -> u8 {
    match kind {
        ArgumentErrorKind::Missing => 0,
        ArgumentErrorKind::WrongType => 1,
        ArgumentErrorKind::Unknown => 3,
        _ => 2,
    }
}

proptest! {
    #[test]
    fn generated_instances_are_valid((_, schema, instance) in schema_and_instance()) {
        let result = validate(&schema, &instance);
        prop_assert!(result.is_ok(), "schema {schema}\ninstance {instance}\n{result:?}");
    }

    #[test]
    fn one_mutation_is_reported_with_its_kind_at_its_pointer(
        (object, schema, instance) in schema_and_instance(),
        pick in any::<Index>(),
    ) {
        let mut sites = Vec::new();
        mutations(&Node::Object(object), &instance, "", &mut sites);
        let mutation = pick.get(&sites);
        let broken = apply(&instance, mutation);
        let errors = validate(&schema, &broken).err().map(|e| e.errors).unwrap_or_default();
        let context = format!(
            "schema {schema}\nvalid {instance}\nmutation {mutation:?}\nbroken {broken}\nerrors {errors:#?}"
        );
        prop_assert!(!errors.is_empty(), "the broken instance passed\n{context}");
        let first = errors.iter().find(|e| e.kind == mutation.kind);
        prop_assert!(first.is_some(), "no {:?} error\n{context}", mutation.kind);
        let first = first.unwrap();
        prop_assert_eq!(&first.pointer, &mutation.pointer, "{}", context);
        let expected_got = match &mutation.change {
            Change::Replace(value) => Some(value),
            Change::Remove => None,
        };
        prop_assert_eq!(first.got.as_ref(), expected_got, "{}", context);
        prop_assert!(!first.message.is_empty(), "{}", context);
        // Only the mutated value is wrong, so every error is about it.
        for e in &errors {
            prop_assert_eq!(&e.pointer, &mutation.pointer, "{}", context);
        }
    }

    #[test]
    fn several_mutations_come_back_missing_then_wrong_type_then_constraints_then_unknown(
        (object, schema, instance) in schema_and_instance(),
        picks in proptest::collection::vec(any::<Index>(), 1..6),
    ) {
        let mut sites = Vec::new();
        mutations(&Node::Object(object), &instance, "", &mut sites);
        let mut chosen: Vec<&Mutation> = Vec::new();
        for pick in &picks {
            let candidate = pick.get(&sites);
            if chosen.iter().all(|m| !overlap(&m.pointer, &candidate.pointer)) {
                chosen.push(candidate);
            }
        }
        let broken = chosen.iter().fold(instance.clone(), |value, m| apply(&value, m));
        let errors = validate(&schema, &broken).err().map(|e| e.errors).unwrap_or_default();
        let context = format!(
            "schema {schema}\nvalid {instance}\nmutations {chosen:#?}\nbroken {broken}\nerrors {errors:#?}"
        );
        for m in &chosen {
            prop_assert!(
                errors.iter().any(|e| e.kind == m.kind && e.pointer == m.pointer),
                "no {:?} error at {:?}\n{}", m.kind, m.pointer, context
            );
        }
        let ranks: Vec<u8> = errors.iter().map(|e| rank(e.kind)).collect();
        prop_assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "out of order\n{context}");
    }
}
