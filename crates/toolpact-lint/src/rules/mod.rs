//! The single registry of codes: every rule, and the findings no rule reports (such as
//! TP590). A rule is one file under its category's folder and one line in that category's
//! `RULES`; codes are never reused. A rule imports no other rule: what
//! several rules need lives below them, in [`crate::analysis`].

mod description;
mod design;
mod provider;
mod security;
mod size;
mod structure;

use crate::contract_changed::CONTRACT_CHANGED;
use crate::meta::RuleMeta;
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
pub fn all_rules() -> &'static [&'static dyn Rule] {
    &ALL
}

/// The rule with this code or name.
pub fn find_rule(selector: &str) -> Option<&'static dyn Rule> {
    all_rules()
        .iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(selector) || r.meta().name == selector)
}

/// The metadata of every finding no rule reports. Their codes and names are never used by a
/// rule.
pub const OTHER_FINDINGS: &[&RuleMeta] = &[&CONTRACT_CHANGED];

/// The metadata of a rule or of one of [`OTHER_FINDINGS`], by code or name.
pub fn find_meta(selector: &str) -> Option<&'static RuleMeta> {
    find_rule(selector).map(|rule| rule.meta()).or_else(|| {
        OTHER_FINDINGS
            .iter()
            .copied()
            .find(|m| m.code.eq_ignore_ascii_case(selector) || m.name == selector)
    })
}

#[cfg(test)]
mod tests {
    use super::{OTHER_FINDINGS, all_rules, find_meta};

    #[test]
    fn findings_outside_the_rules_never_share_a_code_or_name_with_a_rule() {
        for other in OTHER_FINDINGS {
            for rule in all_rules() {
                assert_ne!(rule.meta().code, other.code, "{}", rule.meta().name);
                assert_ne!(rule.meta().name, other.name, "{}", rule.meta().code);
            }
            assert_eq!(find_meta(other.code), Some(*other));
            assert_eq!(find_meta(other.name), Some(*other));
            assert!(other.summary().starts_with("Compares every tool"));
        }
    }
}
