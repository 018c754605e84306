//! `$ref` under a profile: references checked, inlined where the target takes none (or none
//! beside other keywords), and reference cycles found.

use crate::json::child_pointer;
use crate::loss::{LossKind, Unrepresentable};
use crate::lower::profile::{Lowerer, Refs};
use crate::schema::{MAX_DEPTH, for_each_subschema, is_local_ref, resolve_local_ref};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    pub(super) fn check_ref(&mut self, reference: &str, ptr: &str) -> Result<(), Unrepresentable> {
        if !is_local_ref(reference) {
            return Err(self.log.unrepresentable(
                ptr,
                format!(
                    "remote reference {reference:?} is never fetched; put the schema in `$defs`"
                ),
            ));
        }
        if resolve_local_ref(self.root, reference).is_none() {
            return Err(self.log.unrepresentable(
                ptr,
                format!("reference {reference:?} points at nothing in this schema"),
            ));
        }
        Ok(())
    }

    pub(super) fn inline(
        &mut self,
        obj: &Map<String, Value>,
        reference: &str,
        ptr: &str,
        depth: usize,
    ) -> Result<Value, Unrepresentable> {
        let rp = child_pointer(ptr, "$ref");
        self.check_ref(reference, &rp)?;
        let root = self.root;
        let Some(target) = resolve_local_ref(root, reference) else {
            return Err(self.log.unrepresentable(&rp, "unresolvable reference"));
        };
        if self.ref_stack.iter().any(|r| r == reference) {
            if !self.profile.allow_recursion {
                return Err(self.log.unrepresentable(
                    &rp,
                    format!(
                        "recursive schema: {reference} refers back to itself, and {} cannot express recursion",
                        self.profile.label
                    ),
                ));
            }
            // Recursion is allowed but a `$ref` here may not have siblings: keep the bare
            // reference and say what was left beside it.
            self.log.push(
                ptr,
                LossKind::Dropped,
                format!(
                    "{} does not accept keywords beside a recursive `$ref`; only the reference is kept",
                    self.profile.label
                ),
            );
            return Ok(json!({ "$ref": reference }));
        }
        // The definition's pointer in the schema as written: a local reference is `#` or
        // `#/…`, a JSON pointer from the root.
        let definition = reference.strip_prefix('#').unwrap_or_default().to_owned();
        let mut merged = match target {
            Value::Object(map) => map.clone(),
            Value::Bool(true) => Map::new(),
            other => {
                return self.node(other, ptr, depth + 1);
            }
        };
        // Keywords beside the `$ref` refine the target (a more specific description, say):
        // they win over the definition's own.
        for (k, v) in obj {
            if k != "$ref" {
                merged.insert(k.clone(), v.clone());
            }
        }
        self.log.push(
            &rp,
            LossKind::Inlined,
            match self.profile.refs {
                Refs::InlineAll => format!(
                    "{} has no references; {reference} is inlined",
                    self.profile.label
                ),
                _ => format!(
                    "{} does not accept keywords beside `$ref`; {reference} is inlined",
                    self.profile.label
                ),
            },
        );
        // The node stays where the `$ref` was written; each keyword in it comes from beside
        // the `$ref` (which wins the merge) or from the definition.
        self.inlined_from(
            ptr,
            &definition,
            target.as_object(),
            obj.keys().filter(|k| *k != "$ref"),
        );
        self.ref_stack.push(reference.to_owned());
        let lowered = self.node(&Value::Object(merged), ptr, depth + 1);
        self.ref_stack.pop();
        lowered
    }
}

/// The first reference cycle reachable from `root`, as the pointer of the `$ref` that closes
/// it and the reference itself.
pub(crate) fn find_recursion(root: &Value, base: &str) -> Option<(String, String)> {
    fn walk(
        root: &Value,
        node: &Value,
        ptr: String,
        stack: &mut Vec<String>,
        done: &mut Vec<String>,
        depth: usize,
    ) -> Option<(String, String)> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            if stack.iter().any(|r| r == reference) {
                return Some((child_pointer(&ptr, "$ref"), reference.to_owned()));
            }
            if !done.iter().any(|r| r == reference)
                && let Some(target) = resolve_local_ref(root, reference)
            {
                stack.push(reference.to_owned());
                let found = walk(root, target, ptr.clone(), stack, done, depth + 1);
                stack.pop();
                if found.is_some() {
                    return found;
                }
                done.push(reference.to_owned());
            }
        }
        let mut found = None;
        for_each_subschema(node, &ptr, &mut |sub, p| {
            if found.is_none() && !p.contains("/$defs/") && !p.contains("/definitions/") {
                found = walk(root, sub, p, stack, done, depth + 1);
            }
        });
        found
    }
    walk(
        root,
        root,
        base.to_owned(),
        &mut Vec::new(),
        &mut Vec::new(),
        0,
    )
}

/// How many schema nodes lowering `root` walks when it inlines references as `refs` says
/// (the count the walker stops at [`MAX_NODES`](super::profile::MAX_NODES)), counted without
/// walking them: each definition is counted once and its count reused, so a tree of
/// references that doubles at each level is measured in time linear in its text. Counting
/// stops soon past `limit`.
pub(crate) fn expanded_size(root: &Value, refs: Refs, limit: usize) -> usize {
    struct Count<'v> {
        root: &'v Value,
        refs: Refs,
        limit: usize,
        known: HashMap<&'v str, usize>,
        open: Vec<&'v str>,
    }
    impl<'v> Count<'v> {
        fn all(&mut self, nodes: impl Iterator<Item = &'v Value>, depth: usize) -> usize {
            nodes.fold(0usize, |n, v| n.saturating_add(self.node(v, depth + 1)))
        }

        fn node(&mut self, node: &'v Value, depth: usize) -> usize {
            let Value::Object(map) = node else { return 1 };
            if depth > MAX_DEPTH {
                return 1;
            }
            let mut total = 1usize;
            // A scan of the keys, which the count reads anyway, costs less than hashing
            // "$ref" to look it up.
            if let Some((_, Value::String(reference))) = map.iter().find(|(k, _)| *k == "$ref") {
                let reference = reference.as_str();
                let inlined = match self.refs {
                    Refs::InlineAll => true,
                    Refs::InlineWithSiblings => map.len() > 1,
                    Refs::Keep => false,
                };
                if inlined && !self.open.contains(&reference) {
                    let size = match self.known.get(reference) {
                        Some(&size) => size,
                        None => match resolve_local_ref(self.root, reference) {
                            Some(target) => {
                                self.open.push(reference);
                                let size = self.node(target, depth + 1);
                                self.open.pop();
                                self.known.insert(reference, size);
                                size
                            }
                            None => 1,
                        },
                    };
                    total = total.saturating_add(size);
                }
            }
            // The subschemas the walker lowers node by node; other keywords are copied.
            for (key, value) in map {
                if total > self.limit {
                    break;
                }
                let size = match (key.as_str(), value) {
                    ("properties", Value::Object(children)) => self.all(children.values(), depth),
                    ("$defs" | "definitions", Value::Object(children))
                        if self.refs != Refs::InlineAll =>
                    {
                        self.all(children.values(), depth)
                    }
                    ("anyOf" | "oneOf" | "allOf", Value::Array(children)) => {
                        self.all(children.iter(), depth)
                    }
                    ("items", Value::Object(_) | Value::Bool(_)) => self.node(value, depth + 1),
                    _ => 0,
                };
                total = total.saturating_add(size);
            }
            total
        }
    }
    let mut count = Count {
        root,
        refs,
        limit,
        known: HashMap::new(),
        open: Vec::new(),
    };
    count.node(root, 0)
}
