//! Rules about the MCP specification and JSON Schema.

pub mod array_without_items;
pub mod contradictory_annotations;
pub mod duplicate_name;
pub mod hint_ignored_on_read_only;
pub mod input_not_object;
pub mod invalid_name;
pub mod invalid_output_schema;
pub mod invocation_text_too_long;
pub mod meta_key_format;
pub mod output_template_not_ui_uri;
pub mod required_names_missing_property;
pub mod schema_does_not_compile;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &invalid_name::InvalidName,
    &duplicate_name::DuplicateName,
    &input_not_object::InputNotObject,
    &schema_does_not_compile::SchemaDoesNotCompile,
    &required_names_missing_property::RequiredNamesMissingProperty,
    &array_without_items::ArrayWithoutItems,
    &invalid_output_schema::InvalidOutputSchema,
    &meta_key_format::MetaKeyFormat,
    &contradictory_annotations::ContradictoryAnnotations,
    &hint_ignored_on_read_only::HintIgnoredOnReadOnly,
    &invocation_text_too_long::InvocationTextTooLong,
    &output_template_not_ui_uri::OutputTemplateNotUiUri,
];
