//! The fields of a tool's contract compared one by one: texts, the input and output
//! schemas, annotations, `_meta`, icons and fields toolpact does not know.

use super::change::{ChangeClass, ChangeKind, Side};
use super::differ::{Differ, changed_entries, object_or_empty};
use super::display::{from_to, verb};
use crate::json::child_pointer;
use serde_json::Value;

impl Differ<'_> {
    /// Records every change between two canonical contracts of the tool.
    pub(super) fn tool_contract(&mut self, old: &Value, new: &Value) {
        let o = object_or_empty(Some(old));
        let n = object_or_empty(Some(new));
        for (key, a, b) in changed_entries(o, n) {
            let at = child_pointer("", key);
            let before = self.out.len();
            match key {
                "title" | "description" => {
                    self.text(&at, &format!("tool {key}"), a, b, ChangeClass::Description)
                }
                "inputSchema" => self.schema(
                    Side::Input,
                    &at,
                    a.unwrap_or(&Value::Bool(true)),
                    b.unwrap_or(&Value::Bool(true)),
                    0,
                ),
                "outputSchema" => match (a, b) {
                    (Some(a), Some(b)) => self.schema(Side::Output, &at, a, b, 0),
                    (Some(_), None) => {
                        self.push(
                            &at,
                            ChangeClass::Breaking,
                            ChangeKind::OutputSchemaRemoved,
                            "output schema removed: clients can no longer rely on structured results"
                                .to_owned(),
                        );
                    }
                    _ => {
                        self.push(
                            &at,
                            ChangeClass::Compatible,
                            ChangeKind::OutputSchemaAdded,
                            "output schema added".to_owned(),
                        );
                    }
                },
                "annotations" => self.annotations(a, b),
                "_meta" => self.meta(a, b),
                "icons" => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::IconsChanged,
                        format!("icons {}", verb(a, b)),
                    );
                }
                _ => {
                    self.push(
                        &at,
                        ChangeClass::Behaviour,
                        ChangeKind::FieldChanged,
                        format!("field {key:?} {}", from_to(a, b)),
                    );
                }
            }
            if self.out.len() == before {
                self.rewritten(&at, &format!("`{key}`"));
            }
        }
    }
}
