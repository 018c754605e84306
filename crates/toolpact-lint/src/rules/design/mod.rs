//! Rules about schemas that invite wrong or invented arguments, and about tools whose names,
//! hints and neighbours mislead the model or the client.

pub mod additional_properties_open;
pub mod all_required_with_defaults;
pub mod category_without_enum;
pub mod god_tool;
pub mod internal_id_from_model;
pub mod overlapping_tools;
pub mod read_tool_not_read_only;
pub mod search_without_open_world;
pub mod state_change_without_hints;
pub mod too_many_optional;
pub mod vague_tool_name;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &category_without_enum::CategoryWithoutEnum,
    &internal_id_from_model::InternalIdFromModel,
    &god_tool::GodTool,
    &too_many_optional::TooManyOptional,
    &all_required_with_defaults::AllRequiredWithDefaults,
    &additional_properties_open::AdditionalPropertiesOpen,
    &vague_tool_name::VagueToolName,
    &overlapping_tools::OverlappingTools,
    &state_change_without_hints::StateChangeWithoutHints,
    &read_tool_not_read_only::ReadToolNotReadOnly,
    &search_without_open_world::SearchWithoutOpenWorld,
];
