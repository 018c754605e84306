//! Rules about definitions that attack the model or the user.

pub mod concealment;
pub mod encoded_blob;
pub mod exfiltration_through_parameters;
pub mod fake_authority;
pub mod forced_invocation;
pub mod hidden_characters;
pub mod hidden_instructions;
pub mod instructions_about_other_tools;
pub mod instructions_to_model;
pub mod secrets_and_sensitive_paths;
pub mod shadowing_other_tools;
pub mod steering_text;

use crate::rule::Rule;

/// The rules of this category.
pub static RULES: &[&dyn Rule] = &[
    &hidden_characters::HiddenCharacters,
    &instructions_to_model::InstructionsToModel,
    &shadowing_other_tools::ShadowingOtherTools,
    &secrets_and_sensitive_paths::SecretsAndSensitivePaths,
    &encoded_blob::EncodedBlob,
    &forced_invocation::ForcedInvocation,
    &concealment::Concealment,
    &fake_authority::FakeAuthority,
    &instructions_about_other_tools::InstructionsAboutOtherTools,
    &exfiltration_through_parameters::ExfiltrationThroughParameters,
    &hidden_instructions::HiddenInstructions,
    &steering_text::SteeringText,
];
