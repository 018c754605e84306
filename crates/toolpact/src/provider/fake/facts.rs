//! The test provider as data: its names, naming rule and limits.

use crate::name;
use crate::provider::facts::{Facts, Limits};

/// The test provider's declarations.
pub(crate) const FACTS: Facts = Facts {
    name: "fake",
    vendor: "Fake",
    name_rule: name::MCP,
    input_schema_at: "/fake/schema",
    limits: Limits {
        description: None,
        tools: None,
        strict: None,
    },
    arguments_as_text: false,
    calls_without_ids: false,
    thought_signatures: false,
};
