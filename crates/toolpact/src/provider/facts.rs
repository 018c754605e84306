//! What each provider is, as data: its command-line name, the name its messages use, its
//! naming rule and its limits. Each provider's folder holds its own [`Facts`]; the public
//! [`Limits`] are read through [`Target::limits`](crate::Target::limits).

use crate::name::NameRule;

/// What one target is, as data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts {
    /// The command-line name, such as `openai-chat`.
    pub name: &'static str,
    /// The provider's name, as messages about its limits say it.
    pub vendor: &'static str,
    /// The rule tool names must meet.
    pub name_rule: NameRule,
    /// Where a tool's input schema sits in its payload item, as a JSON pointer into the item.
    pub input_schema_at: &'static str,
    /// The limits the provider documents or was seen to enforce.
    pub limits: Limits,
    /// Whether a call sends its arguments as a JSON string (OpenAI) rather than an object.
    pub arguments_as_text: bool,
    /// Whether its calls may come without ids, so that an id toolpact made up for one is
    /// never sent back to it (Gemini).
    pub calls_without_ids: bool,
    /// Whether it reads back the thought signatures of its calls (Gemini).
    pub thought_signatures: bool,
}

/// The limits a target puts on a request's tools, as toolpact knows them; `None` where the
/// target has no such limit (or none is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The longest tool description the target takes or shows.
    pub description: Option<DescriptionCap>,
    /// The most tools (function declarations) one request may carry.
    pub tools: Option<usize>,
    /// The limits of strict mode; `None` when the target has no strict mode.
    pub strict: Option<StrictLimits>,
}

/// The longest description a target takes or shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DescriptionCap {
    /// Characters, counted as Unicode scalar values.
    pub chars: usize,
    /// Whether a longer description fails the whole request (`true`), rather than being cut
    /// where the model no longer reads it (`false`).
    pub rejects: bool,
}

/// The complexity limits a provider documents for strict mode; `None` where the provider
/// documents no such limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StrictLimits {
    /// Tools marked strict in one request.
    pub tools: Option<usize>,
    /// Optional parameters across all strict schemas of a request.
    pub optional_parameters: Option<usize>,
    /// Parameters using `anyOf` or a type array across all strict schemas of a request.
    pub union_parameters: Option<usize>,
    /// Object properties in one schema.
    pub properties: Option<usize>,
    /// Levels of nested objects in one schema.
    pub nesting_levels: Option<usize>,
    /// Enum values in one schema.
    pub enum_values: Option<usize>,
    /// Characters of property names, definition names, enum and const values in one schema.
    pub characters: Option<usize>,
    /// A string enum with more values than the first number may total at most the second
    /// number of characters.
    pub large_enum: Option<(usize, usize)>,
}

impl StrictLimits {
    /// No limit known.
    pub(crate) const NONE: StrictLimits = StrictLimits {
        tools: None,
        optional_parameters: None,
        union_parameters: None,
        properties: None,
        nesting_levels: None,
        enum_values: None,
        characters: None,
        large_enum: None,
    };
}
