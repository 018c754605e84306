//! Rules about what each provider and client accepts, from the same lowering passes that
//! `toolpact convert` runs.

pub mod provider_loss;
pub mod provider_rejects_tool;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &provider_rejects_tool::ProviderRejectsTool,
    &provider_loss::ProviderLoss,
];
