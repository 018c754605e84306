//! The keywords of an object schema compared together: `properties`, `required` and
//! `additionalProperties`, since whether a new property breaks callers depends on all three.

use super::change::{ChangeClass, ChangeKind, Direction, Side, class_of};
use super::differ::{Differ, changed_entries, object_or_empty};
use crate::json::child_pointer;
use serde_json::{Map, Value};

impl Differ<'_> {
    /// Records the changes to `properties`, `required` and `additionalProperties` of the
    /// object schema at `pointer`.
    pub(super) fn object_keywords(
        &mut self,
        side: Side,
        pointer: &str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        depth: usize,
    ) {
        let old_props = object_or_empty(o.get("properties"));
        let new_props = object_or_empty(n.get("properties"));
        let old_required = names(o.get("required"));
        let new_required = names(n.get("required"));
        let old_extra = Extra::of(o.get("additionalProperties"));
        let props_at = child_pointer(pointer, "properties");

        if o.get("properties") != n.get("properties") {
            let before = self.out.len();
            let malformed = |v: Option<&Value>| v.is_some_and(|v| !v.is_object());
            if malformed(o.get("properties")) || malformed(n.get("properties")) {
                self.opaque(
                    side,
                    &props_at,
                    "properties",
                    o.get("properties"),
                    n.get("properties"),
                );
            }
            for (name, x, y) in changed_entries(old_props, new_props) {
                let at = child_pointer(&props_at, name);
                match (x, y) {
                    (Some(x), Some(y)) => self.schema(side, &at, x, y, depth + 1),
                    (Some(_), None) => {
                        let message = match side {
                            Side::Input => {
                                let was = if old_required.contains(&name) {
                                    "required"
                                } else {
                                    "optional"
                                };
                                format!("property {name:?} removed (it was {was})")
                            }
                            Side::Output => format!(
                                "output property {name:?} removed: clients can no longer rely on it"
                            ),
                        };
                        self.push(
                            &at,
                            ChangeClass::Breaking,
                            ChangeKind::PropertyRemoved,
                            message,
                        );
                    }
                    (None, Some(_)) => {
                        let required = new_required.contains(&name);
                        let (class, message) = match side {
                            Side::Input if required => (
                                ChangeClass::Breaking,
                                format!(
                                    "new required property {name:?}: callers that leave it out are refused"
                                ),
                            ),
                            Side::Input => (
                                ChangeClass::Compatible,
                                format!("new optional property {name:?}"),
                            ),
                            Side::Output if old_extra == Extra::Closed => (
                                ChangeClass::Breaking,
                                format!(
                                    "new output property {name:?}, which the old output schema refused (additionalProperties: false)"
                                ),
                            ),
                            Side::Output => (
                                ChangeClass::Compatible,
                                format!("new output property {name:?}"),
                            ),
                        };
                        self.push(&at, class, ChangeKind::PropertyAdded, message);
                    }
                    (None, None) => {}
                }
            }
            if self.out.len() == before {
                self.rewritten(&props_at, "`properties`");
            }
        }

        if o.get("required") != n.get("required") {
            let at = child_pointer(pointer, "required");
            let before = self.out.len();
            let malformed = |v: Option<&Value>| v.is_some_and(|v| !v.is_array());
            if malformed(o.get("required")) || malformed(n.get("required")) {
                self.opaque(side, &at, "required", o.get("required"), n.get("required"));
            }
            for name in new_required.iter().filter(|r| !old_required.contains(r)) {
                if new_props.contains_key(*name) && !old_props.contains_key(*name) {
                    continue; // reported as a new property
                }
                let (class, message) = match side {
                    Side::Input => (
                        ChangeClass::Breaking,
                        format!("property {name:?} is now required"),
                    ),
                    Side::Output => (
                        ChangeClass::Compatible,
                        format!("output property {name:?} is now always present"),
                    ),
                };
                self.push(&at, class, ChangeKind::RequiredAdded, message);
            }
            for name in old_required.iter().filter(|r| !new_required.contains(r)) {
                if old_props.contains_key(*name) && !new_props.contains_key(*name) {
                    continue; // reported as a removed property
                }
                let (class, message) = match side {
                    Side::Input => (
                        ChangeClass::Compatible,
                        format!("required property {name:?} is now optional"),
                    ),
                    Side::Output => (
                        ChangeClass::Breaking,
                        format!(
                            "output property {name:?} is no longer required: results may leave it out"
                        ),
                    ),
                };
                self.push(&at, class, ChangeKind::RequiredRemoved, message);
            }
            let mut x = old_required.clone();
            let mut y = new_required.clone();
            x.sort_unstable();
            y.sort_unstable();
            if self.out.len() == before && x == y {
                self.push(
                    &at,
                    ChangeClass::Compatible,
                    ChangeKind::Rewritten,
                    "order of the required names changed".to_owned(),
                );
            } else if self.out.len() == before {
                x.dedup();
                y.dedup();
                if x == y {
                    self.rewritten(&at, "`required`");
                }
            }
        }

        if o.get("additionalProperties") != n.get("additionalProperties") {
            let at = child_pointer(pointer, "additionalProperties");
            let new_extra = Extra::of(n.get("additionalProperties"));
            let (direction, message) = match (old_extra, new_extra) {
                (Extra::Schema(x), Extra::Schema(y)) => {
                    return self.schema(side, &at, x, y, depth + 1);
                }
                (Extra::Open, Extra::Open) => (Direction::Same, ""),
                (Extra::Open, Extra::Closed) => (
                    Direction::Narrower,
                    "additionalProperties closed: properties not listed are now refused",
                ),
                (Extra::Open, Extra::Schema(_)) => (
                    Direction::Narrower,
                    "additionalProperties now constrained by a schema",
                ),
                (Extra::Schema(_), Extra::Closed) => (
                    Direction::Narrower,
                    "additionalProperties closed: properties not listed are now refused",
                ),
                (Extra::Closed, Extra::Open) | (Extra::Schema(_), Extra::Open) => (
                    Direction::Wider,
                    "additionalProperties opened: properties not listed are now allowed",
                ),
                (Extra::Closed, Extra::Schema(_)) => (
                    Direction::Wider,
                    "additionalProperties opened to properties matching a schema",
                ),
                (Extra::Closed, Extra::Closed) => (Direction::Same, ""),
            };
            match direction {
                Direction::Same => self.rewritten(&at, "`additionalProperties`"),
                Direction::Narrower => {
                    self.push(
                        &at,
                        class_of(side, direction),
                        ChangeKind::AdditionalPropertiesClosed,
                        message.to_owned(),
                    );
                }
                _ => {
                    self.push(
                        &at,
                        class_of(side, direction),
                        ChangeKind::AdditionalPropertiesOpened,
                        message.to_owned(),
                    );
                }
            }
        }
    }
}

/// What `additionalProperties` allows.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Extra<'v> {
    Open,
    Closed,
    Schema(&'v Value),
}

impl<'v> Extra<'v> {
    fn of(value: Option<&'v Value>) -> Extra<'v> {
        match value {
            None | Some(Value::Bool(true)) => Extra::Open,
            Some(Value::Object(m)) if m.is_empty() => Extra::Open,
            Some(Value::Bool(false)) => Extra::Closed,
            Some(schema) => Extra::Schema(schema),
        }
    }
}

/// The names of a `required` array (strings only).
fn names(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}
