//! Rules about definitions that attack the model or the user.

pub mod hidden_characters;
