//! A facade: re-exports are not uses, so the cycle runs through `provider::openai`.

mod gemini;
mod openai;

pub use self::openai::parse_openai;
pub use gemini::*;
