//! What a target's JSON Schema subset is ([`Profile`]), what it does with each keyword, and
//! the [`Lowerer`] that walks one schema under it.

use crate::loss::LossLog;
use crate::lower::inverse::Inverse;
use crate::lower::sources::SourceMap;
use serde_json::{Map, Value};

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
    /// Optional properties stay optional, but a model in this mode may still send `null`
    /// for one: a null the schema as written refuses is read back as the property left out.
    pub optional_null_leaves_out: bool,
    /// OpenAPI 3.0 conventions: `nullable`, one `type`, string enums, `example`.
    pub openapi: bool,
    pub keyword: fn(&str, &Value) -> Keyword,
    /// What the target still needs of a node once the engine has lowered it (Gemini: `items`
    /// on every array, a `type` beside every `enum`), given the node and its pointer in the
    /// original tool; it logs what it changes.
    pub finish: Option<Finish>,
}

/// A target's last step on one lowered node: the node, its pointer in the original tool, and
/// the log of what it changes.
pub(crate) type Finish = fn(&mut Map<String, Value>, &str, &mut LossLog<'_>);

/// Lowers one schema (an input or output schema) under a profile.
pub(crate) struct Lowerer<'p, 'l, 't> {
    pub(super) profile: &'p Profile,
    pub(super) root: &'p Value,
    pub(super) log: &'l mut LossLog<'t>,
    pub(super) ref_stack: Vec<String>,
    pub(super) nodes: usize,
    /// Where the schema sits in the tool (`/inputSchema`): the start of every pointer the
    /// walker reports losses at.
    pub(super) base: &'static str,
    /// Where each part of the lowered schema comes from, recorded as the walker goes.
    pub(super) sources: SourceMap,
    /// How to read back the values a model sends, recorded as the walker goes.
    pub(super) inverse: Inverse,
}
