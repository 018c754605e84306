//! The schema lowering engine shared by the targets that accept only a subset of JSON Schema
//! (Gemini `parameters`, OpenAI strict mode, Anthropic strict mode).
//!
//! A target describes its subset as a [`Profile`]; the engine walks the schema once, builds the
//! target's schema, and logs every keyword it drops, rewrites, inlines or moves into the
//! description. Nothing is lost silently: the original schema still governs validation, so a
//! constraint moved into text is still enforced when the call comes back.

use crate::json::{child_pointer, json_type};
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::name::GEMINI_PARAMETER;
use crate::schema::{
    MAX_DEPTH, append_to_description, constraint_phrase, for_each_subschema, is_local_ref,
    resolve_local_ref,
};
use serde_json::{Map, Value, json};

/// The most schema nodes a lowering may produce. Inlining `$ref` can grow a schema
/// exponentially (a definition that uses another twice, and so on); this bounds the work a
/// hostile schema can cause.
pub(crate) const MAX_NODES: usize = 100_000;

/// Keywords that carry nothing for the model (schema identity, comments, editor hints) and
/// vendor extensions (`x-…`): a subset target drops them without loss of meaning.
pub(crate) fn is_metadata(key: &str) -> bool {
    matches!(
        key,
        "$schema"
            | "$id"
            | "$comment"
            | "$anchor"
            | "$dynamicAnchor"
            | "$vocabulary"
            | "readOnly"
            | "writeOnly"
            | "deprecated"
            | "contentMediaType"
            | "contentEncoding"
    ) || key.starts_with("x-")
}

/// What a target does with a keyword the engine does not handle structurally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    /// The target accepts it as it is.
    Keep,
    /// The target rejects it; it is written into the description instead.
    Describe,
    /// The target rejects it and it carries nothing the model needs.
    Drop,
}

/// How a target treats `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refs {
    /// No references at all: every `$ref` is replaced by its target (Gemini `parameters`).
    InlineAll,
    /// Bare `$ref` is fine, but not with sibling keywords (OpenAI strict).
    InlineWithSiblings,
    /// `$ref` and `$defs` are kept as they are (Anthropic strict).
    Keep,
}

/// A target's JSON Schema subset.
#[derive(Debug)]
pub(crate) struct Profile {
    /// Used in messages: "Gemini parameters", "OpenAI strict mode".
    pub label: &'static str,
    pub refs: Refs,
    pub allow_recursion: bool,
    pub one_of_to_any_of: bool,
    pub merge_all_of: bool,
    /// `additionalProperties: false` on every object.
    pub close_objects: bool,
    /// Every property in `required`, optional ones made nullable.
    pub require_all: bool,
    /// OpenAPI 3.0 conventions: `nullable`, one `type`, string enums, `example`.
    pub openapi: bool,
    pub keyword: fn(&str, &Value) -> Keyword,
}

/// Lowers one schema (an input or output schema) under a profile.
pub(crate) struct Lowerer<'p, 'l, 't> {
    profile: &'p Profile,
    root: &'p Value,
    log: &'l mut LossLog<'t>,
    ref_stack: Vec<String>,
    nodes: usize,
}

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    pub(crate) fn new(profile: &'p Profile, root: &'p Value, log: &'l mut LossLog<'t>) -> Self {
        Lowerer {
            profile,
            root,
            log,
            ref_stack: Vec::new(),
            nodes: 0,
        }
    }

    /// Lowers the whole schema; `pointer` is where it sits in the tool (`/inputSchema`).
    pub(crate) fn lower(mut self, pointer: &str) -> Result<Value, Unrepresentable> {
        if !self.profile.allow_recursion
            && self.profile.refs != Refs::InlineAll
            && let Some((at, reference)) = find_recursion(self.root, pointer)
        {
            return Err(self.log.unrepresentable(
                    &at,
                    format!(
                        "recursive schema: {reference} refers back to itself, and {} cannot express recursion",
                        self.profile.label
                    ),
                ));
        }
        let root = self.root;
        self.node(root, pointer, 0)
    }

    fn node(&mut self, node: &Value, ptr: &str, depth: usize) -> Result<Value, Unrepresentable> {
        if depth > MAX_DEPTH {
            return Err(self
                .log
                .unrepresentable(ptr, format!("schema nests deeper than {MAX_DEPTH} levels")));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.log.unrepresentable(
                ptr,
                format!("schema grows past {MAX_NODES} nodes when its references are inlined"),
            ));
        }
        match node {
            Value::Object(obj) => self.object(obj, ptr, depth),
            Value::Bool(true) if self.profile.openapi => {
                self.log.push(
                    ptr,
                    LossKind::Rewritten,
                    format!(
                        "the schema `true` (any value) has no {} form; written as {{}}",
                        self.profile.label
                    ),
                );
                Ok(json!({}))
            }
            Value::Bool(false) if self.profile.openapi || self.profile.close_objects => {
                Err(self.log.unrepresentable(
                    ptr,
                    format!(
                        "the schema `false` (no value allowed) has no {} form",
                        self.profile.label
                    ),
                ))
            }
            Value::Bool(_) => Ok(node.clone()),
            other => Err(self.log.unrepresentable(
                ptr,
                format!(
                    "a schema must be an object or a boolean, found {}",
                    json_type(other)
                ),
            )),
        }
    }

    fn object(
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
                        if p.openapi
                            && let Err(problem) = GEMINI_PARAMETER.check(name)
                        {
                            self.log.push(
                                &sp,
                                LossKind::Kept,
                                format!(
                                    "property name {name:?} may be rejected by Gemini ({problem}); \
                                         Gemini parameter names allow {} up to 64 characters; \
                                         the gemini-json target has no such rule",
                                    GEMINI_PARAMETER.charset
                                ),
                            );
                        }
                        lowered.insert(name.clone(), self.node(sub, &sp, depth + 1)?);
                    }
                    out.insert(key.clone(), Value::Object(lowered));
                }
                "items" if !value.is_array() => {
                    out.insert(key.clone(), self.node(value, &kp, depth + 1)?);
                }
                "additionalProperties" if p.close_objects => {
                    if value != &Value::Bool(false) {
                        self.log.push(
                            &kp,
                            LossKind::Rewritten,
                            format!(
                                "{} needs `additionalProperties: false` on every object; \
                                 the model can no longer send properties that are not declared",
                                p.label
                            ),
                        );
                    }
                }
                "anyOf" | "oneOf" => {
                    let branches = self.branches(value, &kp, depth)?;
                    let target_key = if key == "oneOf" && p.one_of_to_any_of {
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
                            out.insert("example".to_owned(), first.clone());
                            if value.as_array().is_some_and(|a| a.len() > 1) {
                                self.log.push(
                                &kp,
                                LossKind::Rewritten,
                                format!("{} takes one `example`; only the first of `examples` is kept", p.label),
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
                        LossKind::Rewritten,
                        format!(
                            "{} cannot express an object with free-form keys; it becomes an empty object",
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
        if is_object && p.require_all {
            self.require_all(&mut out, ptr);
        }
        append_to_description(&mut out, &phrases);
        Ok(Value::Object(out))
    }

    fn branches(
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

    fn check_ref(&mut self, reference: &str, ptr: &str) -> Result<(), Unrepresentable> {
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

    fn inline(
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
        self.ref_stack.push(reference.to_owned());
        let lowered = self.node(&Value::Object(merged), ptr, depth + 1);
        self.ref_stack.pop();
        lowered
    }

    /// OpenAPI enums hold strings only: numbers and booleans become strings with
    /// `format: "enum"`, `null` becomes `nullable`. Returns the new enum (if any values are
    /// left) and whether `null` was among them.
    fn openapi_enum(
        &mut self,
        value: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(Option<Value>, bool), Unrepresentable> {
        let Some(values) = value.as_array() else {
            return Err(self.log.unrepresentable(ptr, "`enum` must be an array"));
        };
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
        let strings = rest.iter().map(|v| Value::String(v.to_string())).collect();
        Ok((Some(Value::Array(strings)), has_null))
    }

    /// Removes `{"type": "null"}` branches from `anyOf` (OpenAPI says `nullable` instead), and
    /// folds a single remaining branch into the node. Returns whether a null branch was found.
    fn fold_null_branches(&mut self, out: &mut Map<String, Value>, ptr: &str) -> bool {
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
        let rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        self.log.push(
            &child_pointer(ptr, "anyOf"),
            LossKind::Rewritten,
            format!(
                "{} has no null type; the null branch of `anyOf` becomes `nullable: true`",
                self.profile.label
            ),
        );
        if let [single] = rest.as_slice() {
            out.remove("anyOf");
            if let Value::Object(branch) = single {
                for (k, v) in branch {
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
        } else {
            out.insert("anyOf".to_owned(), Value::Array(rest));
        }
        true
    }

    /// Merges `allOf` branches into the node: properties and `required` are united; any other
    /// keyword takes the first value seen, and a conflicting later value is reported.
    fn merge_all_of(
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
                                if existing.contains_key(&name) {
                                    self.log.push(
                                        &child_pointer(&child_pointer(&bp, "properties"), &name),
                                        LossKind::Dropped,
                                        "property declared in two `allOf` schemas; the first declaration is kept",
                                    );
                                } else {
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
        Ok(())
    }

    /// OpenAI strict mode: every property is required; the ones that were optional accept
    /// `null`, so the model can still leave them out by sending null instead of inventing a
    /// value.
    fn require_all(&mut self, out: &mut Map<String, Value>, ptr: &str) {
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
                if let Some(schema) = props.get_mut(name) {
                    make_nullable(schema);
                }
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

/// Makes a schema also accept `null`, in JSON Schema terms (a type list or an `anyOf` branch).
pub(crate) fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if map.contains_key("$ref") {
        let inner = std::mem::take(map);
        *schema = json!({ "anyOf": [Value::Object(inner), { "type": "null" }] });
        return;
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
            }
        }
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
