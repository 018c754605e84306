//! Rules about what each provider and client accepts, from the same lowering passes that
//! `toolpact convert` runs.

mod lowered;

pub mod description_over_provider_cap;
pub mod free_form_object_for_gemini;
pub mod many_tools_up_front;
pub mod name_rewritten_for_target;
pub mod narrowed_for_target;
pub mod provider_loss;
pub mod provider_may_reject;
pub mod provider_rejects_tool;
pub mod strict_limits_exceeded;
pub mod too_many_tools_for_target;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &provider_rejects_tool::ProviderRejectsTool,
    &provider_loss::ProviderLoss,
    &narrowed_for_target::NarrowedForTarget,
    &provider_may_reject::ProviderMayReject,
    &name_rewritten_for_target::NameRewrittenForTarget,
    &description_over_provider_cap::DescriptionOverProviderCap,
    &too_many_tools_for_target::TooManyToolsForTarget,
    &many_tools_up_front::ManyToolsUpFront,
    &strict_limits_exceeded::StrictLimitsExceeded,
    &free_form_object_for_gemini::FreeFormObjectForGemini,
];
