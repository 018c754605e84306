//! `null` under a profile: null branches folded into OpenAPI `nullable`, OpenAPI enums, and a
//! schema made to accept `null`.

use crate::json::{child_pointer, json_type};
use crate::loss::{LossKind, Unrepresentable};
use crate::lower::profile::Lowerer;
use serde_json::{Map, Value, json};

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    /// Removes `{"type": "null"}` branches from `anyOf` (OpenAPI says `nullable` instead), and
    /// folds a single remaining branch into the node. Returns whether a null branch was found.
    pub(super) fn fold_null_branches(&mut self, out: &mut Map<String, Value>, ptr: &str) -> bool {
        let Some(Value::Array(branches)) = out.get("anyOf") else {
            return false;
        };
        let is_null = |b: &Value| {
            b.get("type").and_then(Value::as_str) == Some("null")
                && b.as_object()
                    .is_some_and(|m| m.len() == 1 || (m.len() == 2 && m.contains_key("nullable")))
        };
        if !branches.iter().any(is_null) {
            return false;
        }
        let kept: Vec<usize> = (0..branches.len())
            .filter(|&i| !is_null(&branches[i]))
            .collect();
        let rest: Vec<Value> = kept.iter().map(|&i| branches[i].clone()).collect();
        let any_of = child_pointer(ptr, "anyOf");
        self.log.push(
            &child_pointer(ptr, "anyOf"),
            LossKind::Rewritten,
            format!(
                "{} has no null type; the null branch of `anyOf` becomes `nullable: true`",
                self.profile.label
            ),
        );
        if let ([single], [from]) = (rest.as_slice(), kept.as_slice()) {
            out.remove("anyOf");
            let from = child_pointer(&any_of, &from.to_string());
            if let Value::Object(branch) = single {
                for (k, v) in branch {
                    if !out.contains_key(k) {
                        self.moved(&child_pointer(&from, k), &child_pointer(ptr, k));
                    }
                    match (k.as_str(), out.get_mut(k), v) {
                        ("description", Some(Value::String(mine)), Value::String(theirs)) => {
                            if !mine.contains(theirs.as_str()) {
                                *mine = format!("{} ({theirs})", mine.trim_end());
                            }
                        }
                        (_, Some(_), _) => {}
                        (_, None, _) => {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
            self.forget(&any_of);
        } else {
            for (at, from) in kept.into_iter().enumerate() {
                if at != from {
                    self.forget(&child_pointer(&any_of, &at.to_string()));
                    self.moved(
                        &child_pointer(&any_of, &from.to_string()),
                        &child_pointer(&any_of, &at.to_string()),
                    );
                }
            }
            out.insert("anyOf".to_owned(), Value::Array(rest));
        }
        true
    }

    /// OpenAPI enums hold strings only: numbers and booleans become strings with
    /// `format: "enum"`, `null` becomes `nullable`. Returns the new enum (if any values are
    /// left) and whether `null` was among them.
    pub(super) fn openapi_enum(
        &mut self,
        value: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(Option<Value>, bool), Unrepresentable> {
        let Some(values) = value.as_array() else {
            return Err(self.log.unrepresentable(ptr, "`enum` must be an array"));
        };
        if values.is_empty() {
            self.log.push(
                ptr,
                LossKind::Rewritten,
                format!(
                    "an empty `enum` allows no value, which {} cannot express; written as `type: \"null\"`, and whatever the model sends here is refused when the call is validated",
                    self.profile.label
                ),
            );
        }
        let has_null = values.iter().any(Value::is_null);
        let rest: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
        if has_null {
            self.log.push(
                ptr,
                LossKind::Rewritten,
                format!(
                    "{} enums cannot hold null; written as `nullable: true`",
                    self.profile.label
                ),
            );
        }
        if rest.is_empty() {
            out.insert("type".to_owned(), json!("null"));
            return Ok((None, has_null));
        }
        if rest.iter().all(|v| v.is_string()) {
            return Ok((
                Some(Value::Array(rest.into_iter().cloned().collect())),
                has_null,
            ));
        }
        let kind = if rest.iter().all(|v| v.is_boolean()) {
            "boolean"
        } else if rest.iter().all(|v| json_type(v) == "integer") {
            "integer"
        } else if rest.iter().all(|v| v.is_number()) {
            "number"
        } else {
            "mixed"
        };
        if kind == "mixed" {
            return Err(self.log.unrepresentable(
                ptr,
                format!(
                    "{} enums hold values of one primitive type; this enum mixes types or holds objects",
                    self.profile.label
                ),
            ));
        }
        if !out.contains_key("type") {
            out.insert("type".to_owned(), json!(kind));
        }
        if out.get("format").is_some_and(|f| f != "enum") {
            self.log.push(
                &child_pointer(ptr.rsplit_once('/').map_or("", |(base, _)| base), "format"),
                LossKind::Rewritten,
                "`format` is replaced by `enum` so that the enum can be written as strings",
            );
        }
        out.insert("format".to_owned(), json!("enum"));
        self.log.push(
            ptr,
            LossKind::Rewritten,
            format!(
                "{} enums hold strings; the {kind} values are written as strings with `format: \"enum\"`",
                self.profile.label
            ),
        );
        let node = ptr.rsplit_once('/').map_or("", |(base, _)| base);
        let place = self.place(node);
        self.inverse.strings(place, &rest);
        let strings = rest.iter().map(|v| Value::String(v.to_string())).collect();
        Ok((Some(Value::Array(strings)), has_null))
    }
}

/// Makes a schema also accept `null`, in JSON Schema terms (a type list or an `anyOf` branch).
/// Returns whether the schema was wrapped, as the first branch of a new `anyOf`.
pub(crate) fn make_nullable(schema: &mut Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if map.contains_key("$ref") {
        let inner = std::mem::take(map);
        *schema = json!({ "anyOf": [Value::Object(inner), { "type": "null" }] });
        return true;
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    if let Some(c) = map.remove("const") {
        map.insert("enum".to_owned(), json!([c, null]));
    }
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            map.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push(json!("null"));
            }
        }
        Some(_) => {}
        None => {
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                if !branches
                    .iter()
                    .any(|b| b.get("type") == Some(&json!("null")))
                {
                    branches.push(json!({ "type": "null" }));
                }
            } else if !map.contains_key("enum") {
                let inner = std::mem::take(map);
                *schema = json!({ "anyOf": [Value::Object(inner), { "type": "null" }] });
                return true;
            }
        }
    }
    false
}
