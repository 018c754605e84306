//! Rules about the text the model reads: names, descriptions, property descriptions.

pub mod array_without_min_items;
pub mod date_without_format;
pub mod description_about_code;
pub mod description_restates_name;
pub mod description_too_long;
pub mod description_too_short;
pub mod id_without_source;
pub mod missing_description;
pub mod missing_example;
pub mod missing_property_description;
pub mod money_without_unit;
pub mod no_usage_guidance;
pub mod unclear_purpose;
pub mod unexplained_parameters;
pub mod unstated_limitations;
pub mod vague_property_description;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &missing_description::MissingDescription,
    &description_restates_name::DescriptionRestatesName,
    &description_too_short::DescriptionTooShort,
    &no_usage_guidance::NoUsageGuidance,
    &description_too_long::DescriptionTooLong,
    &missing_property_description::MissingPropertyDescription,
    &vague_property_description::VaguePropertyDescription,
    &date_without_format::DateWithoutFormat,
    &money_without_unit::MoneyWithoutUnit,
    &array_without_min_items::ArrayWithoutMinItems,
    &id_without_source::IdWithoutSource,
    &description_about_code::DescriptionAboutCode,
    &unclear_purpose::UnclearPurpose,
    &unexplained_parameters::UnexplainedParameters,
    &missing_example::MissingExample,
    &unstated_limitations::UnstatedLimitations,
];
