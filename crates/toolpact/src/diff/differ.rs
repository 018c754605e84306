//! The walker that records one tool's changes: where every comparison pushes its change,
//! and the comparison of two versions of a JSON object, key by key, that every part of the
//! walk shares.
//!
//! [`Differ`] is extended in [`super::contract`] (the tool's fields), [`super::schema`] (the
//! schema walk) and [`super::annotations`] (annotations and `_meta`); each of those only
//! records through the methods here.

use super::change::{Change, ChangeClass, ChangeKind, Direction, Side, change, class_of};
use super::display::{from_to, verb};
use super::text::TextChange;
use crate::canonical::utf16_cmp;
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// Compares the contract of one tool in two versions and records each change.
pub(super) struct Differ<'a> {
    /// The tool's name (in NFC).
    pub(super) tool: &'a str,
    /// Where the changes go.
    pub(super) out: &'a mut Vec<Change>,
}

impl Differ<'_> {
    /// Records a change at `pointer` and returns it, for the fields a caller sets after.
    pub(super) fn push(
        &mut self,
        pointer: &str,
        class: ChangeClass,
        kind: ChangeKind,
        message: String,
    ) -> &mut Change {
        self.out
            .push(change(self.tool, pointer, class, kind, message));
        let last = self.out.len() - 1;
        &mut self.out[last]
    }

    /// Records that `what` is written differently with the same meaning.
    pub(super) fn rewritten(&mut self, pointer: &str, what: &str) {
        self.push(
            pointer,
            ChangeClass::Compatible,
            ChangeKind::Rewritten,
            format!("{what} written differently; same meaning"),
        );
    }

    /// Records a changed title, description or other text, with its word diff when both
    /// sides are strings (or absent).
    pub(super) fn text(
        &mut self,
        pointer: &str,
        what: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        class: ChangeClass,
    ) {
        let (sa, sb) = (a.and_then(Value::as_str), b.and_then(Value::as_str));
        if (a.is_some() && sa.is_none()) || (b.is_some() && sb.is_none()) {
            self.push(
                pointer,
                class,
                ChangeKind::TextChanged,
                format!("{what} {}", from_to(a, b)),
            );
            return;
        }
        let change = self.push(
            pointer,
            class,
            ChangeKind::TextChanged,
            format!("{what} {}", verb(a, b)),
        );
        change.text = Some(TextChange::new(sa, sb));
    }

    /// Records a constraint that moved in `direction`, classed for `side`.
    pub(super) fn constraint(
        &mut self,
        side: Side,
        pointer: &str,
        direction: Direction,
        message: String,
    ) {
        let kind = match direction {
            Direction::Narrower => ChangeKind::ConstraintNarrowed,
            Direction::Wider => ChangeKind::ConstraintWidened,
            Direction::Changed => ChangeKind::ConstraintChanged,
            Direction::Same => ChangeKind::Rewritten,
        };
        self.push(pointer, class_of(side, direction), kind, message);
    }

    /// Records a change to keyword `key` whose direction cannot be judged: breaking.
    pub(super) fn opaque(
        &mut self,
        side: Side,
        pointer: &str,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
    ) {
        self.push(
            pointer,
            class_of(side, Direction::Changed),
            ChangeKind::SchemaChanged,
            format!("`{key}` {}", from_to(a, b)),
        );
    }
}

/// A JSON object.
type Object = Map<String, Value>;

/// The empty object: what an absent object member compares as, and the schema `true` means.
pub(super) static EMPTY: LazyLock<Object> = LazyLock::new(Map::new);

/// One key of two versions of a JSON object whose value differs: the key, the old value and
/// the new one (`None` where the key is absent).
pub(super) type ChangedEntry<'m> = (&'m str, Option<&'m Value>, Option<&'m Value>);

/// The keys whose value differs between two versions of a JSON object, each once, in
/// canonical (UTF-16) order, with the value on each side: the one comparison of maps that
/// the tool's fields, schema keywords, properties, `$defs`, annotations and `_meta` share.
pub(super) fn changed_entries<'m>(old: &'m Object, new: &'m Object) -> Vec<ChangedEntry<'m>> {
    let mut keys: Vec<&str> = old.keys().chain(new.keys()).map(String::as_str).collect();
    keys.sort_by(|x, y| utf16_cmp(x, y));
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| {
            let (a, b) = (old.get(key), new.get(key));
            (a != b).then_some((key, a, b))
        })
        .collect()
}

/// Two versions of a member that holds an object, an absent one as the empty object; `None`
/// when either version is present but not an object.
pub(super) fn as_objects<'m>(
    old: Option<&'m Value>,
    new: Option<&'m Value>,
) -> Option<(&'m Object, &'m Object)> {
    let as_object = |value: Option<&'m Value>| value.map_or(Some(&*EMPTY), Value::as_object);
    Some((as_object(old)?, as_object(new)?))
}

/// A value as an object, anything else (or nothing) as the empty object.
pub(super) fn object_or_empty(value: Option<&Value>) -> &Object {
    value.and_then(Value::as_object).unwrap_or(&EMPTY)
}
