//! The changes a diff reports, and how each is classed: the public types, and which way a
//! constraint moved on which side of the tool.

use super::text::TextChange;
use serde::Serialize;
use std::fmt;

/// How a change affects the tool's users. Ordered from least to most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ChangeClass {
    /// Existing callers and clients keep working.
    Compatible,
    /// Only text the model reads changed (titles, descriptions, examples).
    Description,
    /// What the tool says about its effects changed (annotations, `_meta`, defaults).
    Behaviour,
    /// Existing callers or clients may break.
    Breaking,
}

impl ChangeClass {
    /// Every class, most serious first (the order of a report).
    pub const ALL: [ChangeClass; 4] = [
        ChangeClass::Breaking,
        ChangeClass::Behaviour,
        ChangeClass::Description,
        ChangeClass::Compatible,
    ];

    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeClass::Compatible => "compatible",
            ChangeClass::Description => "description",
            ChangeClass::Behaviour => "behaviour",
            ChangeClass::Breaking => "breaking",
        }
    }
}

impl fmt::Display for ChangeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of change, for programs that read a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// A tool is gone.
    ToolRemoved,
    /// A tool is new.
    ToolAdded,
    /// A property is gone.
    PropertyRemoved,
    /// A property is new (required or optional; the message says which).
    PropertyAdded,
    /// An existing property became required.
    RequiredAdded,
    /// A required property became optional.
    RequiredRemoved,
    /// `type` accepts fewer types.
    TypeNarrowed,
    /// `type` accepts more types.
    TypeWidened,
    /// `type` accepts other types.
    TypeChanged,
    /// An `enum` value is gone.
    EnumValueRemoved,
    /// An `enum` value is new.
    EnumValueAdded,
    /// A constraint (range, length, item count, pattern, format, `enum` or `const` as a
    /// whole) accepts fewer values.
    ConstraintNarrowed,
    /// A constraint accepts more values.
    ConstraintWidened,
    /// A constraint accepts other values.
    ConstraintChanged,
    /// `additionalProperties` now refuses properties it allowed.
    AdditionalPropertiesClosed,
    /// `additionalProperties` now allows properties it refused.
    AdditionalPropertiesOpened,
    /// The output schema is gone.
    OutputSchemaRemoved,
    /// The output schema is new.
    OutputSchemaAdded,
    /// Another schema keyword changed (`$ref`, `anyOf` branches, `$defs`, `not`, …).
    SchemaChanged,
    /// A schema's `default` changed.
    DefaultChanged,
    /// An annotation changed.
    AnnotationChanged,
    /// A `_meta` entry changed.
    MetaChanged,
    /// The icons changed.
    IconsChanged,
    /// A field toolpact does not know changed.
    FieldChanged,
    /// A title, description or `examples` changed.
    TextChanged,
    /// The same meaning, written differently (reordered, or `true` for `{}`).
    Rewritten,
}

impl ChangeKind {
    /// The kebab-case name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::ToolRemoved => "tool-removed",
            ChangeKind::ToolAdded => "tool-added",
            ChangeKind::PropertyRemoved => "property-removed",
            ChangeKind::PropertyAdded => "property-added",
            ChangeKind::RequiredAdded => "required-added",
            ChangeKind::RequiredRemoved => "required-removed",
            ChangeKind::TypeNarrowed => "type-narrowed",
            ChangeKind::TypeWidened => "type-widened",
            ChangeKind::TypeChanged => "type-changed",
            ChangeKind::EnumValueRemoved => "enum-value-removed",
            ChangeKind::EnumValueAdded => "enum-value-added",
            ChangeKind::ConstraintNarrowed => "constraint-narrowed",
            ChangeKind::ConstraintWidened => "constraint-widened",
            ChangeKind::ConstraintChanged => "constraint-changed",
            ChangeKind::AdditionalPropertiesClosed => "additional-properties-closed",
            ChangeKind::AdditionalPropertiesOpened => "additional-properties-opened",
            ChangeKind::OutputSchemaRemoved => "output-schema-removed",
            ChangeKind::OutputSchemaAdded => "output-schema-added",
            ChangeKind::SchemaChanged => "schema-changed",
            ChangeKind::DefaultChanged => "default-changed",
            ChangeKind::AnnotationChanged => "annotation-changed",
            ChangeKind::MetaChanged => "meta-changed",
            ChangeKind::IconsChanged => "icons-changed",
            ChangeKind::FieldChanged => "field-changed",
            ChangeKind::TextChanged => "text-changed",
            ChangeKind::Rewritten => "rewritten",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change to one tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// The tool's name (in NFC).
    pub tool: String,
    /// JSON pointer into the tool's contract (MCP field names), such as
    /// `/inputSchema/properties/city`; empty for the whole tool.
    pub pointer: String,
    /// How the change affects users.
    pub class: ChangeClass,
    /// What kind of change.
    pub kind: ChangeKind,
    /// What changed, in one line.
    pub message: String,
    /// Whether the change matters for security: a tool that was read-only no longer is, or a
    /// tool may now destroy data.
    pub security: bool,
    /// For a text change: the old and new text and their word diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<TextChange>,
    /// For a new tool: the removed tool it was probably renamed from.
    #[serde(rename = "renamedFrom", skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// For a removed tool: the new tool it was probably renamed to.
    #[serde(rename = "renamedTo", skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
}

/// A change with no text diff, rename or security mark (the fields a caller may set after).
pub(super) fn change(
    tool: &str,
    pointer: &str,
    class: ChangeClass,
    kind: ChangeKind,
    message: String,
) -> Change {
    Change {
        tool: tool.to_owned(),
        pointer: pointer.to_owned(),
        class,
        kind,
        message,
        security: false,
        text: None,
        renamed_from: None,
        renamed_to: None,
    }
}

/// Whether a schema describes what the caller sends (arguments) or what the tool returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// The input schema: what callers send.
    Input,
    /// The output schema: what clients read.
    Output,
}

/// Which way a constraint moved: the values the new schema accepts, against the old.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// Fewer values.
    Narrower,
    /// More values.
    Wider,
    /// Other values (some lost, some gained), or no way to tell.
    Changed,
    /// The same values.
    Same,
}

/// Arguments are sent by callers: accepting fewer breaks them. Results are read by clients:
/// producing values the old schema did not allow breaks them.
pub(super) fn class_of(side: Side, direction: Direction) -> ChangeClass {
    match (side, direction) {
        (_, Direction::Changed) => ChangeClass::Breaking,
        (_, Direction::Same) => ChangeClass::Compatible,
        (Side::Input, Direction::Narrower) | (Side::Output, Direction::Wider) => {
            ChangeClass::Breaking
        }
        (Side::Input, Direction::Wider) | (Side::Output, Direction::Narrower) => {
            ChangeClass::Compatible
        }
    }
}
