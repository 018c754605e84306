//! The single registry of rules. A rule is one file under its category's folder and one line
//! in that category's `RULES`; codes are never reused.

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
