//! Catalogs: tools read from JSON in any format toolpact knows, each remembering where it
//! came from (file, JSON pointer, line and column).
//!
//! Accepted documents: an MCP `tools/list` result, a JSON-RPC response wrapping one, a bare
//! array of MCP tools, OpenAI Responses or Chat `tools` arrays, Anthropic `tools` arrays,
//! Gemini `tools` (`functionDeclarations`) or bare declarations, a single tool, and the whole
//! request body of each provider (its `tools` are taken). The format is detected per item,
//! or forced with a [`Target`](crate::Target) (Gemini JSON is read as Gemini).

mod compact;
mod detect;
mod import;
mod parse;
mod source;

pub use import::{Catalog, Entry, ImportError, ImportNote, MAX_INPUT_BYTES};
pub use source::{ItemOffsets, Origin, offset_in, position_in};
