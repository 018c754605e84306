//! The single registry of rules. A rule is one file under its category's folder and one line
//! in that category's `RULES`; codes are never reused. A rule imports no other rule: what
//! several rules need lives below them, in [`crate::analysis`].

mod description;
mod design;
mod provider;
mod security;
mod size;
mod structure;

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
