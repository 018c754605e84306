//! Rules about the text the model reads: names, descriptions, property descriptions.

pub mod missing_description;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[&missing_description::MissingDescription];
