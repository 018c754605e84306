//! The schema lowering engine shared by the targets that accept only a subset of JSON Schema
//! (Gemini `parameters`, OpenAI strict mode, Anthropic strict mode).
//!
//! A target describes its subset as a [`Profile`]; the engine walks the schema once, builds the
//! target's schema, and logs every keyword it drops, rewrites, inlines or moves into the
//! description. Nothing is lost silently: the original schema still governs validation, so a
//! constraint moved into text is still enforced when the call comes back.
//!
//! This module walks a schema node by node; what a node becomes is decided by concern:
//! `objects` (keywords and properties), `refs` (`$ref` and cycles), `combinators` (`anyOf`,
//! `oneOf`, `allOf`) and `nullability` (`null`, OpenAPI `nullable` and enums), on the types of
//! `profile`.

mod combinators;
mod inverse;
mod nullability;
mod objects;
mod profile;
mod record;
mod refs;
mod sources;

pub use inverse::{Inverse, ReadBackStep};
pub(crate) use profile::{Keyword, Lowerer, Profile, Refs, is_metadata};
pub use sources::SourceMap;

use crate::json::json_type;
use crate::loss::{LossKind, LossLog, Unrepresentable};
use crate::lower::profile::MAX_NODES;
use crate::lower::refs::{expanded_size, find_recursion};
use crate::schema::MAX_DEPTH;
use serde_json::{Value, json};

/// One schema lowered under a profile.
#[derive(Debug)]
pub(crate) struct Lowered {
    /// The schema the target receives.
    pub schema: Value,
    /// Where each of its parts comes from.
    pub sources: SourceMap,
    /// How to read back what a model sends for it, by place in the schema as written.
    pub inverse: Inverse,
}

impl<'p, 'l, 't> Lowerer<'p, 'l, 't> {
    pub(crate) fn new(profile: &'p Profile, root: &'p Value, log: &'l mut LossLog<'t>) -> Self {
        Lowerer {
            profile,
            root,
            log,
            ref_stack: Vec::new(),
            nodes: 0,
            base: "",
            sources: SourceMap::default(),
            inverse: Inverse::new(profile.label),
        }
    }

    /// Lowers the whole schema; `pointer` is where it sits in the tool (`/inputSchema`).
    /// Returns the lowered schema, where each of its parts comes from, and how to read back
    /// what a model sends for it.
    pub(crate) fn lower(mut self, pointer: &'static str) -> Result<Lowered, Unrepresentable> {
        self.base = pointer;
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
        // Inlining can grow a schema exponentially (a definition that uses another twice,
        // and so on): measure it first, in time linear in the schema, rather than write it.
        if self.profile.refs != Refs::Keep
            && expanded_size(self.root, self.profile.refs, MAX_NODES) > MAX_NODES
        {
            return Err(self.log.unrepresentable(
                pointer,
                format!("schema grows past {MAX_NODES} nodes when its references are inlined"),
            ));
        }
        let root = self.root;
        let schema = self.node(root, pointer, 0)?;
        Ok(Lowered {
            schema,
            inverse: self.inverse.finished(&self.sources),
            sources: self.sources,
        })
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
}
