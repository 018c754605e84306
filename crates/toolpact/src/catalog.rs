//! Catalogs: tools read from JSON in any format toolpact knows, each remembering where it
//! came from (file, JSON pointer, line and column).
//!
//! Accepted documents: an MCP `tools/list` result, a JSON-RPC response wrapping one, a bare
//! array of MCP tools, OpenAI Responses or Chat `tools` arrays, Anthropic `tools` arrays,
//! Gemini `tools` (`functionDeclarations`) or bare declarations, a single tool, and the whole
//! request body of each provider (its `tools` are taken). The format is detected per item,
//! or forced with a [`Target`] (Gemini JSON is read as Gemini).

use crate::json::{child_pointer, escape_token, json_type, unescape_token};
use crate::provider::table::provider;
use crate::provider::{ItemError, Target};
use crate::tool::Tool;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// The largest input toolpact reads, in bytes.
pub const MAX_INPUT_BYTES: usize = 512 * 1024 * 1024;

/// Where something was read: file, JSON pointer, and 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The file name as given (`-` for standard input).
    pub file: String,
    /// JSON pointer of the item in the document.
    pub pointer: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in characters.
    pub column: usize,
    /// Byte offset of the item in the file, for finding positions inside it.
    #[serde(skip)]
    pub offset: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

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

/// One item found in a document: its path and the format to read it with.
struct Found {
    path: Vec<Seg>,
    format: Target,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Seg {
    Key(String),
    Index(usize),
}

fn pointer_of(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => out = child_pointer(&out, k),
            Seg::Index(i) => out = child_pointer(&out, &i.to_string()),
        }
    }
    out
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
        let mut doc: Value = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
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
        for (item, origin) in found.iter().zip(&origins) {
            // Each item is moved out of the document, not copied: a catalog can be large.
            let value = lookup_mut(&mut doc, &item.path).map(Value::take);
            let name = value
                .as_ref()
                .and_then(|v| v.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let imported = match value {
                Some(Value::Object(obj)) => provider(item.format).import(obj),
                _ => Err(ItemError {
                    pointer: String::new(),
                    message: "a tool must be a JSON object".to_owned(),
                }),
            };
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
                    let message = match name {
                        Some(name) => format!("tool {name:?}: {}", e.message),
                        None => e.message,
                    };
                    return Err(ImportError::Item {
                        pointer: format!("{}{}", origin.pointer, e.pointer),
                        origin: origin.clone(),
                        message,
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

fn json_error(file: &str, e: &serde_json::Error) -> ImportError {
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
        line: e.line().max(1),
        column: e.column().max(1),
        message,
    }
}

fn lookup_mut<'v>(doc: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(doc, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k),
        Seg::Index(i) => v.get_mut(i),
    })
}

fn lookup<'v>(doc: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(doc, |v, seg| match seg {
        Seg::Key(k) => v.get(k),
        Seg::Index(i) => v.get(i),
    })
}

const NOT_TOOLS: &str = "no tools found; toolpact reads an MCP tools/list result (or a JSON-RPC response with one), \
    a tools array of MCP, OpenAI, Anthropic or Gemini, or a request body with `tools`";

fn find_items(
    doc: &Value,
    forced: Option<Target>,
    skipped: &mut Vec<(Vec<Seg>, String)>,
) -> Result<Vec<Found>, (Vec<Seg>, String)> {
    let mut found = Vec::new();
    let list_path: Vec<Seg> = match doc {
        Value::Array(_) => Vec::new(),
        Value::Object(obj) => {
            if obj.get("tools").is_some_and(Value::is_array) {
                vec![Seg::Key("tools".to_owned())]
            } else if obj
                .get("result")
                .and_then(|r| r.get("tools"))
                .is_some_and(Value::is_array)
            {
                vec![Seg::Key("result".to_owned()), Seg::Key("tools".to_owned())]
            } else if let Some(error) = obj.get("error").filter(|_| obj.contains_key("jsonrpc")) {
                return Err((
                    Vec::new(),
                    format!("the document is a JSON-RPC error response, not a tool list: {error}"),
                ));
            } else if gemini_declarations(obj).is_some() {
                collect_gemini(obj, Vec::new(), &mut found);
                return Ok(found);
            } else if forced.is_some() || detect(obj).is_some() {
                let format = forced.or_else(|| detect(obj)).unwrap_or(Target::Mcp);
                found.push(Found {
                    path: Vec::new(),
                    format,
                });
                return Ok(found);
            } else {
                return Err((Vec::new(), NOT_TOOLS.to_owned()));
            }
        }
        _ => {
            return Err((
                Vec::new(),
                format!("{NOT_TOOLS}; found a JSON {}", json_type(doc)),
            ));
        }
    };
    let Some(Value::Array(items)) = lookup(doc, &list_path) else {
        return Err((Vec::new(), NOT_TOOLS.to_owned()));
    };
    for (i, item) in items.iter().enumerate() {
        let mut path = list_path.clone();
        path.push(Seg::Index(i));
        let Some(obj) = item.as_object() else {
            return Err((
                path,
                format!(
                    "expected a tool (a JSON object), found a JSON {}",
                    json_type(item)
                ),
            ));
        };
        if gemini_declarations(obj).is_some() {
            collect_gemini(obj, path, &mut found);
        } else if let Some(format) = forced.or_else(|| detect(obj)) {
            if (format == Target::OpenAiResponses || format == Target::OpenAiChat)
                && let Some(kind) = obj
                    .get("type")
                    .and_then(Value::as_str)
                    .filter(|t| *t != "function")
            {
                skipped.push((
                    path,
                    format!("skipped the OpenAI `{kind}` tool: only function tools have a schema"),
                ));
                continue;
            }
            found.push(Found { path, format });
        } else if let Some(kind) = obj.get("type").and_then(Value::as_str) {
            skipped.push((
                path,
                format!(
                    "skipped the `{kind}` tool: it is a built-in tool, not a function with a schema"
                ),
            ));
        } else if let Some(key) = obj.keys().find(|k| GEMINI_BUILT_INS.contains(&k.as_str())) {
            skipped.push((
                path,
                format!("skipped the Gemini `{key}` tool: it is a built-in tool, not a function"),
            ));
        } else if let Some(name) = obj.get("name").and_then(Value::as_str) {
            return Err((
                path,
                format!(
                    "the tool {name:?} has no schema: an MCP tool needs `inputSchema`, an Anthropic tool `input_schema`, \
                 an OpenAI tool `type: \"function\"` with `parameters`"
                ),
            ));
        } else {
            return Err((
                path,
                "not a tool in any format toolpact reads (an MCP tool has `inputSchema`, an OpenAI tool `type: \"function\"`, \
                 an Anthropic tool `input_schema`, a Gemini tool `functionDeclarations`)".to_owned(),
            ));
        }
    }
    Ok(found)
}

const GEMINI_BUILT_INS: &[&str] = &[
    "googleSearch",
    "google_search",
    "googleSearchRetrieval",
    "google_search_retrieval",
    "codeExecution",
    "code_execution",
    "retrieval",
    "urlContext",
    "url_context",
    "googleMaps",
    "google_maps",
    "computerUse",
    "computer_use",
    "fileSearch",
    "file_search",
];

fn gemini_declarations(obj: &Map<String, Value>) -> Option<(&'static str, &Vec<Value>)> {
    for key in ["functionDeclarations", "function_declarations"] {
        if let Some(Value::Array(decls)) = obj.get(key) {
            return Some((key, decls));
        }
    }
    None
}

fn collect_gemini(obj: &Map<String, Value>, path: Vec<Seg>, found: &mut Vec<Found>) {
    if let Some((key, decls)) = gemini_declarations(obj) {
        for j in 0..decls.len() {
            let mut p = path.clone();
            p.push(Seg::Key(key.to_owned()));
            p.push(Seg::Index(j));
            found.push(Found {
                path: p,
                format: Target::Gemini,
            });
        }
    }
}

/// Which format one tool object is written in, from the keys only it has.
fn detect(obj: &Map<String, Value>) -> Option<Target> {
    if obj.contains_key("inputSchema") {
        Some(Target::Mcp)
    } else if obj.contains_key("input_schema") {
        Some(Target::Anthropic)
    } else if obj.get("type").and_then(Value::as_str) == Some("function") {
        if obj.get("function").is_some_and(Value::is_object) {
            Some(Target::OpenAiChat)
        } else {
            Some(Target::OpenAiResponses)
        }
    } else if obj.contains_key("name")
        && !obj.contains_key("type")
        && [
            "parameters",
            "parametersJsonSchema",
            "parameters_json_schema",
            "response",
            "responseJsonSchema",
        ]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        Some(Target::Gemini)
    } else {
        None
    }
}

/// The origin of every path, found by re-reading the document as raw JSON along those paths
/// only, so positions cost one pass over the text.
fn origins(text: &str, file: &str, paths: &[&[Seg]]) -> Vec<Origin> {
    let mut offsets = vec![0usize; paths.len()];
    let indexed: Vec<(usize, &[Seg])> = paths.iter().copied().enumerate().collect();
    if let Ok(raw) = serde_json::from_str::<&RawValue>(text) {
        locate(text, raw, &indexed, &mut offsets);
    }
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut positions = vec![(1, 1); paths.len()];
    // One forward pass over the text, however many tools sit on one (minified) line.
    let (mut line, mut column, mut scanned) = (1usize, 1usize, 0usize);
    for i in order {
        let target = offsets[i];
        for ch in text[scanned..target].chars() {
            if ch == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        scanned = target;
        positions[i] = (line, column);
    }
    paths
        .iter()
        .zip(positions)
        .zip(&offsets)
        .map(|((path, (line, column)), &offset)| Origin {
            file: file.to_owned(),
            pointer: pointer_of(path),
            line,
            column,
            offset,
        })
        .collect()
}

fn locate(text: &str, raw: &RawValue, paths: &[(usize, &[Seg])], offsets: &mut [usize]) {
    let mut deeper: HashMap<&Seg, Vec<(usize, &[Seg])>> = HashMap::new();
    for (i, path) in paths {
        match path.split_first() {
            None => offsets[*i] = raw.get().as_ptr() as usize - text.as_ptr() as usize,
            Some((first, rest)) => deeper.entry(first).or_default().push((*i, rest)),
        }
    }
    if deeper.is_empty() {
        return;
    }
    let is_array = raw.get().starts_with('[');
    if is_array {
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
            return;
        };
        for (seg, rest) in deeper {
            if let Some(child) = match seg {
                Seg::Index(i) => items.get(*i),
                Seg::Key(_) => None,
            } {
                locate(text, child, &rest, offsets);
            }
        }
    } else {
        let Ok(map) = serde_json::from_str::<HashMap<String, &RawValue>>(raw.get()) else {
            return;
        };
        for (seg, rest) in deeper {
            if let Seg::Key(k) = seg
                && let Some(child) = map.get(k)
            {
                locate(text, child, &rest, offsets);
            }
        }
    }
}

/// 1-based line and character column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The line and column (from 1) of the value at `pointer` inside the item read at `origin`
/// from `text` (the same file's text), or of the deepest part of the pointer that exists.
/// Only that item is read, so this costs the size of one tool, not of the file.
pub fn position_in(text: &str, origin: &Origin, pointer: &str) -> (usize, usize) {
    let Some(at) = offset_in(text, origin, pointer) else {
        return (origin.line, origin.column);
    };
    text.get(origin.offset..at)
        .map_or((origin.line, origin.column), |between| {
            moved_by(between, origin.line, origin.column)
        })
}

/// The line and column reached from `line` and `column` after reading `between`.
fn moved_by(between: &str, line: usize, column: usize) -> (usize, usize) {
    match between.rfind('\n') {
        None => (line, column + between.chars().count()),
        Some(nl) => (
            line + between.matches('\n').count(),
            between[nl + 1..].chars().count() + 1,
        ),
    }
}

/// The byte offset in `text` of the value at `pointer` inside the item read at `origin` (see
/// [`position_in`]), or `None` when the item is not at its offset in `text`.
pub fn offset_in(text: &str, origin: &Origin, pointer: &str) -> Option<usize> {
    let rest = text.get(origin.offset..)?;
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<&RawValue>();
    let Some(Ok(mut raw)) = stream.next() else {
        return None;
    };
    for token in pointer.split('/').skip(1) {
        let token = unescape_token(token);
        let s = raw.get();
        let next = if s.starts_with('[') {
            serde_json::from_str::<Vec<&RawValue>>(s)
                .ok()
                .and_then(|items| {
                    token
                        .parse::<usize>()
                        .ok()
                        .and_then(|i| items.get(i).copied())
                })
        } else if s.starts_with('{') {
            serde_json::from_str::<HashMap<String, &RawValue>>(s)
                .ok()
                .and_then(|map| map.get(token.as_ref()).copied())
        } else {
            None
        };
        match next {
            Some(next) => raw = next,
            None => break,
        }
    }
    Some(raw.get().as_ptr() as usize - text.as_ptr() as usize)
}

/// Where every value inside one item of a file is, by JSON pointer. The item is read once, so
/// that placing many findings inside one tool costs one read of the tool, not one per
/// finding; for one place in a large item, [`offset_in`] reads only along the pointer.
#[derive(Debug, Clone)]
pub struct ItemOffsets {
    /// The byte offset in the file of each value, by its pointer in the item.
    by_pointer: HashMap<String, usize>,
    /// Where the item starts: its byte offset, line and column.
    start: (usize, usize, usize),
}

impl ItemOffsets {
    /// Reads the item found at `origin` in `text` (the text of the file it was read from), or
    /// `None` when the item is not at its offset in `text`.
    pub fn new(text: &str, origin: &Origin) -> Option<ItemOffsets> {
        let rest = text.get(origin.offset..)?;
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<&RawValue>();
        let Some(Ok(raw)) = stream.next() else {
            return None;
        };
        let mut by_pointer = HashMap::new();
        index_values(text, raw, &mut String::new(), &mut by_pointer);
        Some(ItemOffsets {
            by_pointer,
            start: (origin.offset, origin.line, origin.column),
        })
    }

    /// The byte offset in the file of the value at `pointer`, or of the deepest part of the
    /// pointer that exists.
    pub fn offset(&self, pointer: &str) -> usize {
        let mut deepest = pointer;
        loop {
            if let Some(&at) = self.by_pointer.get(deepest) {
                return at;
            }
            match deepest.rfind('/') {
                Some(slash) => deepest = &deepest[..slash],
                None => return self.start.0,
            }
        }
    }

    /// The line and column (from 1) of the value at `pointer`, or of the deepest part of the
    /// pointer that exists; `text` is the file's text, as given to [`ItemOffsets::new`].
    pub fn position(&self, text: &str, pointer: &str) -> (usize, usize) {
        let (start, line, column) = self.start;
        text.get(start..self.offset(pointer))
            .map_or((line, column), |between| moved_by(between, line, column))
    }
}

/// Records the offset of `raw` (a slice of `text`) under `pointer`, then of every value
/// inside it. A key written twice points at its last value, as a JSON parser reads it.
fn index_values(
    text: &str,
    raw: &RawValue,
    pointer: &mut String,
    out: &mut HashMap<String, usize>,
) {
    out.insert(
        pointer.clone(),
        raw.get().as_ptr() as usize - text.as_ptr() as usize,
    );
    let json = raw.get();
    let len = pointer.len();
    if json.starts_with('[') {
        let items = serde_json::from_str::<Vec<&RawValue>>(json).unwrap_or_default();
        for (i, item) in items.into_iter().enumerate() {
            pointer.push('/');
            pointer.push_str(&i.to_string());
            index_values(text, item, pointer, out);
            pointer.truncate(len);
        }
    } else if json.starts_with('{') {
        let members = serde_json::from_str::<HashMap<String, &RawValue>>(json).unwrap_or_default();
        for (key, value) in members {
            pointer.push('/');
            pointer.push_str(&escape_token(&key));
            index_values(text, value, pointer, out);
            pointer.truncate(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_every_value_of_an_item_by_pointer() {
        let text = "[\n  {\"a\": 1},\n  {\"name\": \"t\",\n   \"x/y\": {\"k~\": [10, \"é\", {\"deep\": true}]},\n   \"dup\": 1, \"dup\": \"last\"}\n]";
        let origin = Origin {
            file: "tools.json".to_owned(),
            pointer: "/1".to_owned(),
            line: 3,
            column: 3,
            offset: text.find("{\"name\"").unwrap(),
        };
        let item = ItemOffsets::new(text, &origin).unwrap();
        let at = |pointer: &str| &text[item.offset(pointer)..];
        assert!(at("").starts_with("{\"name\""));
        assert!(at("/name").starts_with("\"t\""));
        assert!(at("/x~1y/k~0/1").starts_with("\"é\""));
        assert!(at("/x~1y/k~0/2/deep").starts_with("true"));
        // A key written twice is read as its last value.
        assert!(at("/dup").starts_with("\"last\""));
        // Where the pointer leaves the item, the deepest part of it that exists.
        assert!(at("/x~1y/k~0/7/z").starts_with("[10"));
        assert!(at("/missing").starts_with("{\"name\""));
        // Columns count characters.
        assert_eq!(item.position(text, "/name"), (3, 12));
        assert_eq!(item.position(text, "/x~1y/k~0/2/deep"), (4, 37));
        assert_eq!(position_in(text, &origin, "/x~1y/k~0/2/deep"), (4, 37));
        assert_eq!(offset_in(text, &origin, "/name"), text.find("\"t\""));
        // An item that is not where it was read is not read: its own position stands.
        let moved = Origin {
            offset: text.len(),
            ..origin.clone()
        };
        assert!(ItemOffsets::new(text, &moved).is_none());
        assert_eq!(position_in(text, &moved, "/name"), (3, 3));
    }
}
