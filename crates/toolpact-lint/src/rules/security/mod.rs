//! Rules about definitions that attack the model or the user.

pub mod encoded_blob;
pub mod hidden_characters;
pub mod instructions_to_model;
pub mod secrets_and_sensitive_paths;
pub mod shadowing_other_tools;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &hidden_characters::HiddenCharacters,
    &instructions_to_model::InstructionsToModel,
    &shadowing_other_tools::ShadowingOtherTools,
    &secrets_and_sensitive_paths::SecretsAndSensitivePaths,
    &encoded_blob::EncodedBlob,
];
