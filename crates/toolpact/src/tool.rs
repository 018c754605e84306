//! The neutral tool contract: everything an MCP `Tool` carries, and nothing lost on the way.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One tool, as the model and the client see it.
///
/// The fields mirror the MCP `Tool` object (2025-06-18 through 2026-07-28), which is the richest
/// of the formats toolpact reads. Any field this type does not know is kept in
/// [`Tool::extra`], so a tool read from MCP JSON and written back is the same JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// Programmatic identifier, unique within a server. See [`crate::name`] for each target's rules.
    pub name: String,
    /// Display name for people; models do not need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, when to call it and what effects it has. This is the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments. Its root should be `{"type": "object"}`.
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, when the tool returns structured output.
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// Behaviour hints for clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons a client may show (MCP 2025-11-25 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Free-form metadata such as `openai/outputTemplate`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this version of toolpact does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// MCP tool annotations. Every hint is untrusted unless the server is trusted.
///
/// The fields are what was declared; the methods on [`Tool`] give the value that applies,
/// with the defaults of the MCP specification.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Annotations {
    /// Human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment (default `false`).
    #[serde(
        rename = "readOnlyHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates (default `true`).
    #[serde(
        rename = "destructiveHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub destructive_hint: Option<bool>,
    /// Repeated calls with the same arguments have no further effect (default `false`).
    #[serde(
        rename = "idempotentHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities (default `true`).
    #[serde(
        rename = "openWorldHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_world_hint: Option<bool>,
    /// Hints this version of toolpact does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An icon for a tool (MCP 2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Icon {
    /// URI of the image, or a `data:` URI.
    pub src: String,
    /// MIME type of the image.
    #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// `"light"` or `"dark"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// Fields this version of toolpact does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Tool {
    /// A tool with a name, a description and an input schema, and nothing else.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        Tool {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            input_schema,
            output_schema: None,
            annotations: None,
            icons: None,
            meta: None,
            extra: Map::new(),
        }
    }

    /// Whether the tool leaves its environment unchanged (`readOnlyHint`, default `false`).
    pub fn is_read_only(&self) -> bool {
        self.annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false)
    }

    /// Whether the tool may destroy or overwrite data.
    ///
    /// Per the MCP specification, `destructiveHint` defaults to `true` and is meaningful only
    /// for tools that are not read-only: a read-only tool is never destructive.
    pub fn is_destructive(&self) -> bool {
        if self.is_read_only() {
            return false;
        }
        self.annotations
            .as_ref()
            .and_then(|a| a.destructive_hint)
            .unwrap_or(true)
    }

    /// Whether repeated calls with the same arguments have no further effect.
    ///
    /// `idempotentHint` defaults to `false`; a read-only tool is idempotent by nature.
    pub fn is_idempotent(&self) -> bool {
        if self.is_read_only() {
            return true;
        }
        self.annotations
            .as_ref()
            .and_then(|a| a.idempotent_hint)
            .unwrap_or(false)
    }

    /// Whether the tool reaches an open world of external entities (`openWorldHint`, default `true`).
    pub fn is_open_world(&self) -> bool {
        self.annotations
            .as_ref()
            .and_then(|a| a.open_world_hint)
            .unwrap_or(true)
    }

    /// The name to show a person: `title`, then `annotations.title`, then `name`, as the MCP
    /// specification orders them.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }
}
