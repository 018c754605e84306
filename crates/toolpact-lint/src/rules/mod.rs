//! The single registry of rules. A rule is one file under its category's folder and one line
//! here; codes are never reused.

mod description;
mod provider;
mod security;
mod structure;

use crate::rule::Rule;

/// Every rule, in code order.
pub static ALL: &[&dyn Rule] = &[
    &structure::invalid_name::InvalidName,
    &structure::duplicate_name::DuplicateName,
    &structure::input_not_object::InputNotObject,
    &structure::schema_does_not_compile::SchemaDoesNotCompile,
    &description::missing_description::MissingDescription,
    &provider::provider_rejects_tool::ProviderRejectsTool,
    &provider::provider_loss::ProviderLoss,
    &security::hidden_characters::HiddenCharacters,
];

/// The rule with this code or name.
pub fn find(selector: &str) -> Option<&'static dyn Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(selector) || r.meta().name == selector)
}
