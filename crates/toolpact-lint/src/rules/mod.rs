//! The single registry of rules. A rule is one file under its category's folder and one line
//! in that category's `RULES`; codes are never reused.
//!
//! What several categories need lives beside them, once: `words` (identifier and text
//! words, stems), `phrases` (phrase patterns over words and sentences), `schema` (walks
//! over a tool's schemas, and views of one schema or property), `texts` (the texts of a
//! tool the model reads), `names` (the catalog's tool names, as texts are searched for them)
//! and `message` (how findings write numbers and lists).

mod description;
mod design;
mod provider;
mod security;
mod size;
mod structure;

pub(crate) mod message;
pub(crate) mod names;
mod phrases;
pub(crate) mod schema;
pub(crate) mod texts;
mod words;

pub(crate) use security::hidden_characters::hidden_kind;

use crate::rule::Rule;
use std::sync::LazyLock;

static ALL: LazyLock<Vec<&'static dyn Rule>> = LazyLock::new(|| {
    let mut all: Vec<&'static dyn Rule> = [
        structure::RULES,
        description::RULES,
        design::RULES,
        provider::RULES,
        size::RULES,
        security::RULES,
    ]
    .concat();
    all.sort_by_key(|r| r.meta().code);
    all
});

/// Frees what rules remember on the calling thread during a check (token counts, compiled
/// schemas). The engine calls it when a check ran on the caller's own thread, so that nothing
/// a check learned outlives it; its worker threads end with the check.
pub(crate) fn forget_on_this_thread() {
    size::catalog_tokens::forget_on_this_thread();
    structure::schema_does_not_compile::forget_on_this_thread();
}

/// Every rule, in code order.
pub fn all() -> &'static [&'static dyn Rule] {
    &ALL
}

/// The rule with this code or name.
pub fn find(selector: &str) -> Option<&'static dyn Rule> {
    all()
        .iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(selector) || r.meta().name == selector)
}
