//! The keywords that constrain values, and which way each moved: `type`, `enum`, the
//! bounds (ranges, lengths, item and property counts) and `multipleOf`.

use super::change::{ChangeClass, ChangeKind, Direction, Side, class_of};
use super::differ::Differ;
use super::display::{from_to, number, show, show_list};
use crate::canonical::to_canonical_string;
use serde_json::Value;

/// Keywords that set a lower bound: raising one accepts fewer values.
pub(super) const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];

/// Keywords that set an upper bound: lowering one accepts fewer values.
pub(super) const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

impl Differ<'_> {
    /// Records a change to `type`: narrowed, widened or changed.
    pub(super) fn type_keyword(
        &mut self,
        side: Side,
        pointer: &str,
        a: Option<&Value>,
        b: Option<&Value>,
    ) {
        let (Some(x), Some(y)) = (types(a), types(b)) else {
            return self.opaque(side, pointer, "type", a, b);
        };
        let (narrower, wider) = (y.within(&x), x.within(&y));
        let (direction, kind, verb) = match (narrower, wider) {
            (true, true) => (
                Direction::Same,
                ChangeKind::Rewritten,
                "written differently",
            ),
            (true, false) => (Direction::Narrower, ChangeKind::TypeNarrowed, "narrowed"),
            (false, true) => (Direction::Wider, ChangeKind::TypeWidened, "widened"),
            (false, false) => (Direction::Changed, ChangeKind::TypeChanged, "changed"),
        };
        let show_types = |v: Option<&Value>| v.map_or_else(|| "any".to_owned(), show);
        self.push(
            pointer,
            class_of(side, direction),
            kind,
            format!("type {verb} from {} to {}", show_types(a), show_types(b)),
        );
    }

    /// Records a change to `enum`: each value removed or added, or only their order.
    pub(super) fn enum_keyword(
        &mut self,
        side: Side,
        pointer: &str,
        a: Option<&Value>,
        b: Option<&Value>,
    ) {
        match (a, b) {
            (None, Some(Value::Array(values))) => self.constraint(
                side,
                pointer,
                Direction::Narrower,
                format!("enum added: only {} allowed", show_list(values)),
            ),
            (Some(Value::Array(_)), None) => self.constraint(
                side,
                pointer,
                Direction::Wider,
                "enum removed: any value of the type is allowed".to_owned(),
            ),
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                let xs: Vec<String> = x.iter().map(to_canonical_string).collect();
                let ys: Vec<String> = y.iter().map(to_canonical_string).collect();
                let before = self.out.len();
                for (value, key) in x.iter().zip(&xs) {
                    if !ys.contains(key) {
                        self.push(
                            pointer,
                            class_of(side, Direction::Narrower),
                            ChangeKind::EnumValueRemoved,
                            format!("enum value {} removed", show(value)),
                        );
                    }
                }
                for (value, key) in y.iter().zip(&ys) {
                    if !xs.contains(key) {
                        let why = match side {
                            Side::Input => "",
                            Side::Output => ": clients may not handle it",
                        };
                        self.push(
                            pointer,
                            class_of(side, Direction::Wider),
                            ChangeKind::EnumValueAdded,
                            format!("enum value {} added{why}", show(value)),
                        );
                    }
                }
                if self.out.len() == before {
                    self.push(
                        pointer,
                        ChangeClass::Compatible,
                        ChangeKind::Rewritten,
                        "order of the enum values changed".to_owned(),
                    );
                }
            }
            _ => self.opaque(side, pointer, "enum", a, b),
        }
    }

    /// Records a change to a bound (`lower` for `minimum` and the other lower bounds).
    pub(super) fn bound(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        lower: bool,
    ) {
        // Draft 4 writes exclusive bounds as booleans beside `minimum`/`maximum`.
        if a.is_none_or(Value::is_boolean) && b.is_none_or(Value::is_boolean) {
            let (x, y) = (a == Some(&Value::Bool(true)), b == Some(&Value::Bool(true)));
            if x != y {
                let direction = if y {
                    Direction::Narrower
                } else {
                    Direction::Wider
                };
                self.constraint(side, pointer, direction, format!("{key} {}", from_to(a, b)));
            }
            return;
        }
        let (direction, message) = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(y)) if a.is_none() => {
                (Direction::Narrower, format!("{key} {} added", number(y)))
            }
            (Some(x), None) if b.is_none() => {
                (Direction::Wider, format!("{key} {} removed", number(x)))
            }
            (Some(x), Some(y)) => {
                let raised = y > x;
                let verb = if raised { "raised" } else { "lowered" };
                let direction = if raised == lower {
                    Direction::Narrower
                } else {
                    Direction::Wider
                };
                (
                    direction,
                    format!("{key} {verb} from {} to {}", number(x), number(y)),
                )
            }
            _ => return self.opaque(side, pointer, key, a, b),
        };
        self.constraint(side, pointer, direction, message);
    }

    /// Records a change to `multipleOf`: a multiple of the old step accepts fewer values.
    pub(super) fn multiple_of(
        &mut self,
        side: Side,
        pointer: &str,
        a: Option<&Value>,
        b: Option<&Value>,
    ) {
        let is_multiple = |big: f64, small: f64| {
            let r = big / small;
            r.is_finite() && (r - r.round()).abs() < 1e-9
        };
        let direction = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(_)) if a.is_none() => Direction::Narrower,
            (Some(_), None) if b.is_none() => Direction::Wider,
            (Some(x), Some(y)) if is_multiple(y, x) => Direction::Narrower,
            (Some(x), Some(y)) if is_multiple(x, y) => Direction::Wider,
            _ => Direction::Changed,
        };
        self.constraint(
            side,
            pointer,
            direction,
            format!("multipleOf {}", from_to(a, b)),
        );
    }
}

/// The types a `type` keyword allows.
enum Types<'v> {
    /// No `type`: every type.
    Any,
    /// These types.
    Only(Vec<&'v str>),
}

impl Types<'_> {
    /// Whether every value of these types is of the `outer` types (`integer` is a `number`).
    fn within(&self, outer: &Types<'_>) -> bool {
        match (self, outer) {
            (_, Types::Any) => true,
            (Types::Any, Types::Only(_)) => false,
            (Types::Only(inner), Types::Only(outer)) => inner
                .iter()
                .all(|t| outer.contains(t) || (*t == "integer" && outer.contains(&"number"))),
        }
    }
}

/// The types of a `type` keyword, or `None` when it is not a string or an array of strings.
fn types(value: Option<&Value>) -> Option<Types<'_>> {
    match value {
        None => Some(Types::Any),
        Some(Value::String(t)) => Some(Types::Only(vec![t.as_str()])),
        Some(Value::Array(items)) => items
            .iter()
            .map(Value::as_str)
            .collect::<Option<Vec<&str>>>()
            .map(Types::Only),
        Some(_) => None,
    }
}
