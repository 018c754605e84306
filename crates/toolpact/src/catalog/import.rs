//! Reading a document into a [`Catalog`]: the items detected, each read by its provider,
//! with its origin and what the import did not keep.

use crate::catalog::detect::find_items;
use crate::catalog::parse::{ParseError, parse};
use crate::catalog::source::{Origin, Seg, line_column, lookup_mut, origins};
use crate::parallel::map_pieces_mut;
use crate::provider::table::provider;
use crate::provider::{ImportedTool, ItemError, Target};
use crate::tool::Tool;
use serde::Serialize;
use serde_json::Value;

/// The largest input toolpact reads, in bytes.
pub const MAX_INPUT_BYTES: usize = 512 * 1024 * 1024;

/// One tool of a catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The tool.
    pub tool: Tool,
    /// Where it was read.
    pub origin: Origin,
    /// The format it was read in.
    pub format: Target,
}

/// Something the import did not keep: a provider-only field, or an item that is not a
/// function tool (a built-in web search, say).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportNote {
    /// Where, with the pointer of the field or item.
    pub origin: Origin,
    /// The tool's name, when the note is about a tool.
    pub tool: Option<String>,
    /// What was not kept, and why.
    pub message: String,
}

/// Why a document could not be read. Each variant says which file and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// The input is larger than [`MAX_INPUT_BYTES`].
    #[error("{file}: the input has {size} bytes, more than the {max} toolpact reads")]
    TooLarge {
        /// File name.
        file: String,
        /// Size in bytes.
        size: usize,
        /// The limit.
        max: usize,
    },
    /// The input is not valid UTF-8.
    #[error("{file}:{line}:{column}: the input is not valid UTF-8 (byte offset {offset})")]
    Utf8 {
        /// File name.
        file: String,
        /// Line of the first invalid byte.
        line: usize,
        /// Column of the first invalid byte.
        column: usize,
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The input is not JSON.
    #[error("{file}:{line}:{column}: {message}")]
    Json {
        /// File name.
        file: String,
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// What the parser found.
        message: String,
    },
    /// Valid JSON, but no tools in any known format.
    #[error("{file}:{line}:{column}: {message}{}", if pointer.is_empty() { String::new() } else { format!(" (at {pointer})") })]
    NotTools {
        /// File name.
        file: String,
        /// Line of the value that is not a tool list.
        line: usize,
        /// Column of that value.
        column: usize,
        /// JSON pointer of that value.
        pointer: String,
        /// What was found instead.
        message: String,
    },
    /// One item of the tool list cannot be read.
    #[error("{origin}: {message} (at {pointer})", origin = .origin, pointer = .pointer)]
    Item {
        /// Where the item starts.
        origin: Origin,
        /// JSON pointer of the problem in the document.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

/// Tools read from one or more documents, in the order they were read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// The tools, each with its origin.
    pub entries: Vec<Entry>,
    /// What the import did not keep.
    pub notes: Vec<ImportNote>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Catalog::default()
    }

    /// Reads a document. `file` names it in origins and errors; `format` forces a format
    /// instead of detecting it item by item.
    pub fn from_slice(
        bytes: &[u8],
        file: &str,
        format: Option<Target>,
    ) -> Result<Catalog, ImportError> {
        if bytes.len() > MAX_INPUT_BYTES {
            return Err(ImportError::TooLarge {
                file: file.to_owned(),
                size: bytes.len(),
                max: MAX_INPUT_BYTES,
            });
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let offset = e.valid_up_to();
                let valid = String::from_utf8_lossy(&bytes[..offset]);
                let (line, column) = line_column(&valid, valid.len());
                return Err(ImportError::Utf8 {
                    file: file.to_owned(),
                    line,
                    column,
                    offset,
                });
            }
        };
        Catalog::from_str_named(text, file, format)
    }

    /// Reads a document that is already text.
    pub fn from_str_named(
        text: &str,
        file: &str,
        format: Option<Target>,
    ) -> Result<Catalog, ImportError> {
        let format = format.map(Target::input_format);
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() {
            return Err(ImportError::Json {
                file: file.to_owned(),
                line: 1,
                column: 1,
                message: "the input is empty; expected JSON with tool definitions".to_owned(),
            });
        }
        let mut doc: Value = parse(text).map_err(|e| json_error(file, &e))?;
        let mut catalog = Catalog::new();
        let mut skipped = Vec::new();
        let found = find_items(&doc, format, &mut skipped).map_err(|(path, message)| {
            let at = origins(text, file, &[path.as_slice()]).remove(0);
            ImportError::NotTools {
                file: file.to_owned(),
                line: at.line,
                column: at.column,
                pointer: at.pointer,
                message,
            }
        })?;
        let mut paths: Vec<&[Seg]> = found.iter().map(|f| f.path.as_slice()).collect();
        paths.extend(skipped.iter().map(|(p, _)| p.as_slice()));
        let origins = origins(text, file, &paths);
        // Each item is moved out of the document, not copied: a catalog can be large. The
        // items are then read on the cores, and kept in document order.
        let mut items: Vec<(Option<Value>, Target)> = found
            .iter()
            .map(|item| {
                let value = lookup_mut(&mut doc, &item.path).map(Value::take);
                (value, item.format)
            })
            .collect();
        let pieces = map_pieces_mut(&mut items, LEAST_ITEMS, |piece| {
            piece
                .iter_mut()
                .map(|(value, format)| import_item(value.take(), *format))
                .collect::<Vec<_>>()
        });
        let imported = pieces.into_iter().flatten();
        for ((imported, item), origin) in imported.zip(&found).zip(&origins) {
            match imported {
                Ok((tool, notes)) => {
                    for (pointer, message) in notes {
                        let mut at = origin.clone();
                        at.pointer.push_str(&pointer);
                        catalog.notes.push(ImportNote {
                            origin: at,
                            tool: Some(tool.name.clone()),
                            message,
                        });
                    }
                    catalog.entries.push(Entry {
                        tool,
                        origin: origin.clone(),
                        format: item.format,
                    });
                }
                Err(e) => {
                    return Err(ImportError::Item {
                        pointer: format!("{}{}", origin.pointer, e.pointer),
                        origin: origin.clone(),
                        message: e.message,
                    });
                }
            }
        }
        for ((_, message), origin) in skipped
            .into_iter()
            .zip(origins.into_iter().skip(found.len()))
        {
            catalog.notes.push(ImportNote {
                origin,
                tool: None,
                message,
            });
        }
        Ok(catalog)
    }

    /// Adds another catalog's tools and notes after this one's.
    pub fn extend(&mut self, other: Catalog) {
        self.entries.extend(other.entries);
        self.notes.extend(other.notes);
    }

    /// The tools, in order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.entries.iter().map(|e| &e.tool)
    }

    /// The entry of the tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.tool.name == name)
    }

    /// How many tools.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl FromIterator<Tool> for Catalog {
    fn from_iter<I: IntoIterator<Item = Tool>>(iter: I) -> Self {
        let entries = iter
            .into_iter()
            .enumerate()
            .map(|(i, tool)| Entry {
                tool,
                origin: Origin {
                    file: String::new(),
                    pointer: format!("/tools/{i}"),
                    line: 0,
                    column: 0,
                    offset: 0,
                },
                format: Target::Mcp,
            })
            .collect();
        Catalog {
            entries,
            notes: Vec::new(),
        }
    }
}

/// Items per core below which a document's items are read on one thread.
const LEAST_ITEMS: usize = 256;

/// Reads one item (moved out of its document) in `format`; an error names the tool when the
/// item has a name.
fn import_item(value: Option<Value>, format: Target) -> ImportedTool {
    let name = value
        .as_ref()
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let imported = match value {
        Some(Value::Object(obj)) => provider(format).import(obj),
        _ => Err(ItemError {
            pointer: String::new(),
            message: "a tool must be a JSON object".to_owned(),
        }),
    };
    imported.map_err(|e| ItemError {
        message: match name {
            Some(name) => format!("tool {name:?}: {}", e.message),
            None => e.message,
        },
        ..e
    })
}

fn json_error(file: &str, parsed: &ParseError) -> ImportError {
    let e = &parsed.error;
    let raw = e.to_string();
    let message = if raw.starts_with("recursion limit exceeded") {
        "the JSON nests deeper than 128 levels; toolpact does not read documents that deep"
            .to_owned()
    } else {
        // serde_json appends " at line L column C"; the position is already in front.
        let text = raw
            .rsplit_once(" at line ")
            .map_or(raw.as_str(), |(m, _)| m);
        format!("not valid JSON: {text}")
    };
    // serde_json reports column 0 at the very end of the input; columns here count from 1.
    ImportError::Json {
        file: file.to_owned(),
        line: parsed.line.max(1),
        column: parsed.column.max(1),
        message,
    }
}
