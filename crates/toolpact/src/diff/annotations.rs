//! Annotations and `_meta` compared: the hints by what they mean in effect (a hint left
//! out has a default, and `readOnlyHint` changes what the others mean), with the changes
//! that matter for security marked.

use super::change::{ChangeClass, ChangeKind};
use super::differ::{Differ, as_objects, changed_entries};
use super::display::{from_to, show};
use crate::json::child_pointer;
use serde_json::{Map, Value};

impl Differ<'_> {
    /// Records every change to the tool's `annotations`.
    pub(super) fn annotations(&mut self, a: Option<&Value>, b: Option<&Value>) {
        let Some((o, n)) = as_objects(a, b) else {
            self.push(
                "/annotations",
                ChangeClass::Behaviour,
                ChangeKind::AnnotationChanged,
                format!("annotations {}", from_to(a, b)),
            );
            return;
        };
        let flag = |m: &Map<String, Value>, key: &str| m.get(key).and_then(Value::as_bool);
        let read_only = |m: &Map<String, Value>| flag(m, "readOnlyHint").unwrap_or(false);
        let destructive =
            |m: &Map<String, Value>| !read_only(m) && flag(m, "destructiveHint").unwrap_or(true);
        let idempotent =
            |m: &Map<String, Value>| read_only(m) || flag(m, "idempotentHint").unwrap_or(false);
        let open_world = |m: &Map<String, Value>| flag(m, "openWorldHint").unwrap_or(true);
        let declared = |m: &Map<String, Value>, key: &str| {
            m.get(key).map_or_else(|| "not set".to_owned(), show)
        };
        let hints: [(&str, bool, bool); 4] = [
            ("readOnlyHint", read_only(o), read_only(n)),
            ("destructiveHint", destructive(o), destructive(n)),
            ("idempotentHint", idempotent(o), idempotent(n)),
            ("openWorldHint", open_world(o), open_world(n)),
        ];
        let now_read_only = read_only(n);
        for (key, was, is) in hints {
            let at = child_pointer("/annotations", key);
            let how = if o.get(key) != n.get(key) {
                format!("{key} was {}, now {}", declared(o, key), declared(n, key))
            } else if n.get(key).is_none() {
                // The hint is the same; readOnlyHint changed what it means.
                let not = if now_read_only { "" } else { " not" };
                format!("{key} is not set, which means {is} for a tool that is{not} read-only")
            } else if now_read_only {
                format!(
                    "{key} is {}, which a read-only tool ignores",
                    declared(n, key)
                )
            } else {
                format!(
                    "{key} is {}, which applies now that the tool is not read-only",
                    declared(n, key)
                )
            };
            if was == is {
                if o.get(key) != n.get(key) {
                    self.rewritten(&at, &format!("{key} ({how}; in effect still {is})"));
                }
                continue;
            }
            let (security, meaning) = match (key, is) {
                ("readOnlyHint", false) => (true, "the tool is no longer read-only"),
                ("readOnlyHint", true) => (false, "the tool now says it is read-only"),
                ("destructiveHint", true) => (true, "the tool may now destroy or overwrite data"),
                ("destructiveHint", false) => {
                    (false, "the tool no longer says it may destroy data")
                }
                ("idempotentHint", true) => (false, "repeated calls now have no further effect"),
                ("idempotentHint", false) => (false, "repeated calls may now have further effects"),
                ("openWorldHint", true) => (
                    false,
                    "the tool now reaches an open world of external entities",
                ),
                _ => (false, "the tool now stays within a closed world"),
            };
            let change = self.push(
                &at,
                ChangeClass::Behaviour,
                ChangeKind::AnnotationChanged,
                format!("{meaning} ({how})"),
            );
            change.security = security;
        }
        for (key, x, y) in changed_entries(o, n) {
            let at = child_pointer("/annotations", key);
            match key {
                "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint"
                    if x.is_none_or(Value::is_boolean) && y.is_none_or(Value::is_boolean) => {}
                "title" => self.text(&at, "annotations title", x, y, ChangeClass::Description),
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::AnnotationChanged,
                        format!("annotation {key:?} {}", from_to(x, y)),
                    );
                }
            }
        }
    }

    /// Records every change to the tool's `_meta`.
    pub(super) fn meta(&mut self, a: Option<&Value>, b: Option<&Value>) {
        let Some((o, n)) = as_objects(a, b) else {
            self.push(
                "/_meta",
                ChangeClass::Behaviour,
                ChangeKind::MetaChanged,
                format!("_meta {}", from_to(a, b)),
            );
            return;
        };
        for (key, x, y) in changed_entries(o, n) {
            self.push(
                &child_pointer("/_meta", key),
                ChangeClass::Behaviour,
                ChangeKind::MetaChanged,
                format!("_meta {key:?} {}", from_to(x, y)),
            );
        }
    }
}
