//! What a tool returns: content blocks, optional structured content, and whether it is an
//! error — in MCP's terms, rendered into each provider's shape by the targets.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One content block of a result (MCP `ContentBlock`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// Such as `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// Such as `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource the client may read.
    ResourceLink {
        /// The resource URI.
        uri: String,
        /// Its name.
        name: String,
        /// A title for people.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// What it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A resource embedded in the result: `{uri, mimeType?, text}` or `{uri, mimeType?, blob}`.
    Resource {
        /// The embedded resource.
        resource: Value,
    },
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text { text: text.into() }
    }

    /// The text of a text block, or a short stand-in for the others (for providers whose
    /// tool results are text only).
    pub fn as_text(&self) -> String {
        match self {
            Content::Text { text } => text.clone(),
            Content::Image { mime_type, .. } => format!("[image: {mime_type}]"),
            Content::Audio { mime_type, .. } => format!("[audio: {mime_type}]"),
            Content::ResourceLink { uri, name, .. } => format!("[resource {name}: {uri}]"),
            Content::Resource { resource } => match resource.get("text").and_then(Value::as_str) {
                Some(text) => text.to_owned(),
                None => format!(
                    "[resource: {}]",
                    resource
                        .get("uri")
                        .and_then(Value::as_str)
                        .unwrap_or("embedded")
                ),
            },
        }
    }
}

/// The result of one tool call, before it is rendered for a provider.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// Content blocks for the model (and older clients).
    pub content: Vec<Content>,
    /// Structured output, conforming to the tool's output schema.
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub structured: Option<Value>,
    /// Whether the call failed; the content says why, for the model.
    #[serde(
        rename = "isError",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub is_error: bool,
    /// Metadata such as the repairs lenient mode made.
    #[serde(rename = "_meta", default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

impl ToolResult {
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::text(text)],
            ..ToolResult::default()
        }
    }

    /// A successful result with structured content, also given as JSON text for clients that
    /// do not read `structuredContent` (MCP 2025-06-18 and later).
    pub fn structured(value: Value) -> Self {
        ToolResult {
            content: vec![Content::text(value.to_string())],
            structured: Some(value),
            ..ToolResult::default()
        }
    }

    /// An error result the model reads and can act on.
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::text(message)],
            is_error: true,
            ..ToolResult::default()
        }
    }

    /// All content as one text, blocks separated by blank lines.
    pub fn text_content(&self) -> String {
        self.content
            .iter()
            .map(Content::as_text)
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}
