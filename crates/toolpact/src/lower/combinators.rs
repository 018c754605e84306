//! `anyOf`, `oneOf` and `allOf` under a profile: branches lowered, `allOf` merged where the
//! target takes none.

use crate::json::child_pointer;
use crate::loss::{LossKind, Unrepresentable};
use crate::lower::profile::Lowerer;
use serde_json::{Map, Value, json};

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    pub(super) fn branches(
        &mut self,
        value: &Value,
        ptr: &str,
        depth: usize,
    ) -> Result<Vec<Value>, Unrepresentable> {
        let Some(items) = value.as_array() else {
            return Err(self
                .log
                .unrepresentable(ptr, "expected an array of schemas"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, sub)| self.node(sub, &child_pointer(ptr, &i.to_string()), depth + 1))
            .collect()
    }

    /// Merges `allOf` branches into the node: properties and `required` are united; any other
    /// keyword takes the first value seen, and a conflicting later value is reported.
    pub(super) fn merge_all_of(
        &mut self,
        out: &mut Map<String, Value>,
        branches: Vec<(Value, String)>,
        ptr: &str,
    ) -> Result<(), Unrepresentable> {
        self.log.push(
            &child_pointer(ptr, "allOf"),
            LossKind::Rewritten,
            format!(
                "{} has no `allOf`; its schemas are merged into one",
                self.profile.label
            ),
        );
        for (branch, bp) in branches {
            let Value::Object(branch) = branch else {
                if branch == Value::Bool(false) {
                    return Err(self
                        .log
                        .unrepresentable(&bp, "`allOf` holds the schema `false`"));
                }
                continue;
            };
            for (k, v) in branch {
                match k.as_str() {
                    "properties" => {
                        let Value::Object(props) = v else { continue };
                        let entry = out.entry("properties").or_insert_with(|| json!({}));
                        if let Value::Object(existing) = entry {
                            for (name, schema) in props {
                                let declared = child_pointer(&child_pointer(&bp, "properties"), &name);
                                if existing.contains_key(&name) {
                                    self.log.push(
                                        &declared,
                                        LossKind::Dropped,
                                        "property declared in two `allOf` schemas; the first declaration is kept",
                                    );
                                } else {
                                    self.moved(&declared, &child_pointer(&child_pointer(ptr, "properties"), &name));
                                    existing.insert(name, schema);
                                }
                            }
                        }
                    }
                    "required" => {
                        let Value::Array(names) = v else { continue };
                        let entry = out.entry("required").or_insert_with(|| json!([]));
                        if let Value::Array(existing) = entry {
                            for name in names {
                                if !existing.contains(&name) {
                                    existing.push(name);
                                }
                            }
                        }
                    }
                    "type" if out.get("type").is_some_and(|t| t != &v) => {
                        return Err(self.log.unrepresentable(
                            &child_pointer(&bp, "type"),
                            "`allOf` combines schemas of different types; no value can match",
                        ));
                    }
                    _ => match out.get(&k) {
                        None => {
                            self.moved(&child_pointer(&bp, &k), &child_pointer(ptr, &k));
                            out.insert(k, v);
                        }
                        Some(existing) if existing == &v => {}
                        Some(_) => self.log.push(
                            &child_pointer(&bp, &k),
                            LossKind::Dropped,
                            format!("`{k}` differs between the merged `allOf` schemas; the first is kept"),
                        ),
                    },
                }
            }
        }
        self.forget(&child_pointer(ptr, "allOf"));
        Ok(())
    }
}
