//! Rules about the text the model reads: names, descriptions, property descriptions.

pub mod missing_description;
