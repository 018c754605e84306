//! Rules about schemas that invite wrong or invented arguments.

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[];
