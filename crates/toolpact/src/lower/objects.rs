//! Lowering an object schema: each keyword kept, rewritten, described or dropped as the
//! target's profile says, properties walked, and every property required where the target
//! wants it.

use crate::json::child_pointer;
use crate::loss::{LossKind, Unrepresentable};
use crate::lower::nullability::make_nullable;
use crate::lower::profile::{Keyword, Lowerer, Refs};
use crate::schema::{append_to_description, constraint_phrase};
use serde_json::{Map, Value, json};

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    pub(super) fn object(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        depth: usize,
    ) -> Result<Value, Unrepresentable> {
        if let Some(reference) = obj.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(self
                    .log
                    .unrepresentable(&child_pointer(ptr, "$ref"), "`$ref` must be a string"));
            };
            let inline = match self.profile.refs {
                Refs::InlineAll => true,
                Refs::InlineWithSiblings => obj.len() > 1,
                Refs::Keep => false,
            };
            if inline {
                return self.inline(obj, reference, ptr, depth);
            }
            self.check_ref(reference, &child_pointer(ptr, "$ref"))?;
        }

        let p = self.profile;
        let mut out = Map::new();
        let mut phrases = Vec::new();
        let mut nullable = false;
        let mut all_of: Vec<(Value, String)> = Vec::new();
        for (key, value) in obj {
            let kp = child_pointer(ptr, key);
            match key.as_str() {
                "properties" => {
                    let Some(props) = value.as_object() else {
                        return Err(self
                            .log
                            .unrepresentable(&kp, "`properties` must be an object"));
                    };
                    let mut lowered = Map::new();
                    for (name, sub) in props {
                        let sp = child_pointer(&kp, name);
                        lowered.insert(name.clone(), self.node(sub, &sp, depth + 1)?);
                    }
                    out.insert(key.clone(), Value::Object(lowered));
                }
                "items" if !value.is_array() => {
                    out.insert(key.clone(), self.node(value, &kp, depth + 1)?);
                }
                "additionalProperties" if p.close_objects => {
                    // An object with no declared property becomes an empty one: that loss,
                    // reported below, says it all.
                    if value != &Value::Bool(false) && obj.contains_key("properties") {
                        self.log.push(
                            &kp,
                            LossKind::Narrowed,
                            format!(
                                "{} needs `additionalProperties: false` on every object; \
                                 the model's calls hold only the declared properties here",
                                p.label
                            ),
                        );
                    }
                }
                "anyOf" | "oneOf" => {
                    let renamed = key == "oneOf" && p.one_of_to_any_of;
                    let kept = !out.contains_key(if renamed { "anyOf" } else { key.as_str() });
                    let branches = if kept {
                        self.branches(value, &kp, depth)?
                    } else {
                        // Lowered for what it reports, then written into the description.
                        self.unrecorded(|this| this.branches(value, &kp, depth))?
                    };
                    if renamed && kept {
                        self.moved(&kp, &child_pointer(ptr, "anyOf"));
                    }
                    let target_key = if renamed {
                        self.log.push(
                            &kp,
                            LossKind::Rewritten,
                            format!(
                                "{} has no `oneOf`; written as `anyOf` (exactly-one is still checked when the call is validated)",
                                p.label
                            ),
                        );
                        "anyOf"
                    } else {
                        key.as_str()
                    };
                    if out.contains_key(target_key) {
                        phrases.push(constraint_phrase(key, value));
                        self.log.push(
                            &kp,
                            LossKind::MovedToDescription,
                            "both `anyOf` and `oneOf` on one schema; the second is written into the description",
                        );
                    } else {
                        out.insert(target_key.to_owned(), Value::Array(branches));
                    }
                }
                "allOf" if p.merge_all_of => {
                    let Some(items) = value.as_array() else {
                        return Err(self.log.unrepresentable(&kp, "`allOf` must be an array"));
                    };
                    for (i, sub) in items.iter().enumerate() {
                        let bp = child_pointer(&kp, &i.to_string());
                        all_of.push((self.node(sub, &bp, depth + 1)?, bp));
                    }
                }
                "$defs" | "definitions" => match p.refs {
                    Refs::InlineAll => self.log.push(
                        &kp,
                        LossKind::Dropped,
                        format!(
                            "{} has no definitions; each `$ref` is inlined where it is used",
                            p.label
                        ),
                    ),
                    _ => {
                        let Some(defs) = value.as_object() else {
                            return Err(self
                                .log
                                .unrepresentable(&kp, format!("`{key}` must be an object")));
                        };
                        let mut lowered = Map::new();
                        for (name, sub) in defs {
                            lowered.insert(
                                name.clone(),
                                self.node(sub, &child_pointer(&kp, name), depth + 1)?,
                            );
                        }
                        out.insert(key.clone(), Value::Object(lowered));
                    }
                },
                "$ref" => {
                    out.insert(key.clone(), value.clone());
                }
                "type" if p.openapi => match value {
                    Value::Array(types) => {
                        let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
                        let non_null: Vec<&str> =
                            named.iter().copied().filter(|t| *t != "null").collect();
                        nullable |= named.len() != non_null.len();
                        match non_null.as_slice() {
                            [] => {
                                out.insert(key.clone(), json!("null"));
                            }
                            [one] => {
                                out.insert(key.clone(), json!(one));
                            }
                            many => {
                                out.insert(
                                    "anyOf".to_owned(),
                                    Value::Array(
                                        many.iter().map(|t| json!({ "type": t })).collect(),
                                    ),
                                );
                            }
                        }
                        self.log.push(
                            &kp,
                            LossKind::Rewritten,
                            format!(
                                "{} takes one type; the type list {} is written as {}",
                                p.label,
                                value,
                                if non_null.len() > 1 {
                                    "`anyOf` of types"
                                } else {
                                    "a single type"
                                }
                            ) + if nullable {
                                " with `nullable: true`"
                            } else {
                                ""
                            },
                        );
                    }
                    _ => {
                        out.insert(key.clone(), value.clone());
                    }
                },
                "enum" if p.openapi => {
                    let (values, has_null) = self.openapi_enum(value, &kp, &mut out)?;
                    nullable |= has_null;
                    if let Some(values) = values {
                        out.insert(key.clone(), values);
                    }
                }
                "const" if p.openapi => {
                    self.moved(&kp, &child_pointer(ptr, "enum"));
                    let (values, _) =
                        self.openapi_enum(&Value::Array(vec![value.clone()]), &kp, &mut out)?;
                    self.log.push(
                        &kp,
                        LossKind::Rewritten,
                        format!("{} has no `const`; written as a one-value `enum`", p.label),
                    );
                    if let Some(values) = values {
                        out.insert("enum".to_owned(), values);
                    }
                }
                "examples" if p.openapi => {
                    match value.as_array().and_then(|a| a.first()) {
                        Some(first) => {
                            self.moved(&child_pointer(&kp, "0"), &child_pointer(ptr, "example"));
                            out.insert("example".to_owned(), first.clone());
                            if value.as_array().is_some_and(|a| a.len() > 1) {
                                self.log.push(
                                &kp,
                                LossKind::Rewritten,
                                format!("{} takes one `example`; only the first of `examples` is kept", p.label),
                            );
                            } else {
                                self.log.push(
                                &kp,
                                LossKind::Rewritten,
                                format!("{} has `example`, not `examples`; the one example is written as `example`", p.label),
                            );
                            }
                        }
                        None => self.log.push(&kp, LossKind::Dropped, "empty `examples`"),
                    }
                }
                _ => match (p.keyword)(key, value) {
                    Keyword::Keep => {
                        out.insert(key.clone(), value.clone());
                    }
                    Keyword::Describe => {
                        phrases.push(constraint_phrase(key, value));
                        self.log.push(
                            &kp,
                            LossKind::MovedToDescription,
                            match (key.as_str(), value) {
                                ("format", Value::String(f)) => format!(
                                    "{} does not support `format: {f}`; the format is stated in the description",
                                    p.label
                                ),
                                _ => format!(
                                    "{} does not support `{key}`; the constraint is stated in the description",
                                    p.label
                                ),
                            },
                        );
                    }
                    Keyword::Drop => {
                        self.log.push(
                            &kp,
                            LossKind::Dropped,
                            format!("{} does not accept `{key}`", p.label),
                        );
                    }
                },
            }
        }

        if !all_of.is_empty() {
            self.merge_all_of(&mut out, all_of, ptr)?;
        }
        if p.openapi {
            nullable |= self.fold_null_branches(&mut out, ptr);
            if nullable {
                out.insert("nullable".to_owned(), Value::Bool(true));
            }
        }
        let is_object = out.get("type").and_then(Value::as_str) == Some("object")
            || out.contains_key("properties");
        if is_object && p.close_objects {
            if !out.contains_key("properties") {
                if obj
                    .get("additionalProperties")
                    .is_some_and(|v| v != &Value::Bool(false))
                {
                    self.log.push(
                        ptr,
                        LossKind::Narrowed,
                        format!(
                            "{} cannot express an object with free-form keys; it becomes an empty object, and the model's calls hold `{{}}` here",
                            p.label
                        ),
                    );
                }
                if p.require_all {
                    // OpenAI rejects a strict object without `properties`.
                    if obj.get("additionalProperties") == Some(&Value::Bool(false)) {
                        self.log.push(
                            &child_pointer(ptr, "properties"),
                            LossKind::Rewritten,
                            format!(
                                "{} needs `properties` on every object; an empty one is added",
                                p.label
                            ),
                        );
                    }
                    out.insert("properties".to_owned(), json!({}));
                }
            }
            if !obj.contains_key("additionalProperties") {
                self.log.push(
                    &child_pointer(ptr, "additionalProperties"),
                    LossKind::Rewritten,
                    format!(
                        "{} closes every object: `additionalProperties: false` is added",
                        p.label
                    ),
                );
            }
            out.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        if !is_object
            && p.close_objects
            && obj
                .get("additionalProperties")
                .is_some_and(|v| v != &Value::Bool(false))
        {
            // The arm above leaves the report to the object's own closing; a schema that is
            // not an object has none, and its `additionalProperties` would go unreported.
            self.log.push(
                &child_pointer(ptr, "additionalProperties"),
                LossKind::Dropped,
                format!(
                    "{} keeps `additionalProperties` only on a schema of type object; this one is not, so it is not sent",
                    p.label
                ),
            );
        }
        if is_object && p.require_all {
            self.require_all(&mut out, ptr);
        } else if is_object && p.optional_null_leaves_out {
            self.optional_nulls(&out, ptr);
        }
        append_to_description(&mut out, &phrases);
        if let Some(finish) = p.finish {
            finish(&mut out, ptr, self.log);
        }
        Ok(Value::Object(out))
    }

    /// A strict mode that keeps optional properties optional: a null sent for one is read
    /// back as the property left out.
    pub(super) fn optional_nulls(&mut self, out: &Map<String, Value>, ptr: &str) {
        let Some(Value::Object(props)) = out.get("properties") else {
            return;
        };
        let required = out.get("required").and_then(Value::as_array);
        for name in props.keys() {
            if required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))) {
                continue;
            }
            let place = self.place(&child_pointer(&child_pointer(ptr, "properties"), name));
            self.inverse.null_of_optional(place);
        }
    }

    /// OpenAI strict mode: every property is required; the ones that were optional accept
    /// `null`, so the model can still leave them out by sending null instead of inventing a
    /// value.
    pub(super) fn require_all(&mut self, out: &mut Map<String, Value>, ptr: &str) {
        let declared: Vec<String> = match out.get("properties") {
            Some(Value::Object(props)) => props.keys().cloned().collect(),
            _ => return,
        };
        let mut required: Vec<Value> = match out.get("required") {
            Some(Value::Array(r)) => r.clone(),
            _ => Vec::new(),
        };
        let mut optional = Vec::new();
        for name in &declared {
            if !required.iter().any(|r| r.as_str() == Some(name)) {
                required.push(Value::String(name.clone()));
                optional.push(name.clone());
            }
        }
        if let Some(Value::Object(props)) = out.get_mut("properties") {
            for name in &optional {
                if let Some(schema) = props.get_mut(name)
                    && make_nullable(schema)
                {
                    let at = child_pointer(&child_pointer(ptr, "properties"), name);
                    self.moved(&at, &child_pointer(&child_pointer(&at, "anyOf"), "0"));
                }
                let place = self.place(&child_pointer(&child_pointer(ptr, "properties"), name));
                self.inverse.null_leaves_out(place);
                self.log.push(
                    &child_pointer(&child_pointer(ptr, "properties"), name),
                    LossKind::Rewritten,
                    format!(
                        "{} requires every property; the optional {name:?} is required and nullable, so the model sends null to leave it out",
                        self.profile.label
                    ),
                );
            }
        }
        if !required.is_empty() || out.contains_key("required") {
            out.insert("required".to_owned(), Value::Array(required));
        }
    }
}
