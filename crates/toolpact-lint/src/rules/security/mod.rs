//! Rules about definitions that attack the model or the user.

pub mod hidden_characters;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[&hidden_characters::HiddenCharacters];
