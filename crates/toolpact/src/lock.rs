//! Lock files: every tool's whole contract in canonical form, with its hash, so that a later
//! comparison needs nothing but the file.
//!
//! ```json
//! {
//!   "toolpactLock": 1,
//!   "tools": [
//!     {
//!       "name": "create_order",
//!       "hash": "sha256:…",
//!       "contract": { "annotations": { … }, "description": "…", "inputSchema": { … }, "name": "create_order" }
//!     }
//!   ]
//! }
//! ```
//!
//! `toolpactLock` is the format version (this toolpact writes and reads version
//! [`LOCK_VERSION`]); its presence is also how a lock file is told apart from a catalog. The
//! tools are sorted by name (UTF-16 code units, as keys are in the canonical form), and each
//! carries its name, the `sha256:` hash of its canonical JSON (see [`crate::canonical`]) and
//! the canonical contract itself, printed with two-space indentation and keys in canonical
//! order. Writing the same tools always gives the same bytes, so the file diffs well in
//! review, one tool per block.
//!
//! The file is JSON because the contract is JSON: it is kept exactly (TOML or YAML would have
//! to re-encode `null`, mixed arrays or large numbers, and YAML would bring its own
//! ambiguities), the same reader serves catalogs and lock files, and anyone can recompute a
//! hash from the file with any RFC 8785 implementation.
//!
//! Reading checks everything: the version, the fields (unknown ones are refused), each
//! contract is a tool, each name matches its contract, each hash matches the contract's
//! canonical form (a lock file edited by hand or damaged is refused), and no name appears
//! twice. Each error names the file, the line and column, and the JSON pointer.

use crate::canonical::{canonical_contract, canonical_tool, contract_hash, nfc, utf16_cmp};
use crate::catalog::{Origin, position_in};
use crate::json::child_pointer;
use crate::tool::Tool;
use serde_json::{Map, Value};

/// The lock file format this toolpact writes and reads.
pub const LOCK_VERSION: u64 = 1;

/// The key that holds the format version, and marks a document as a lock file.
pub const LOCK_KEY: &str = "toolpactLock";

/// A lock file: the pinned contract of every tool.
#[derive(Debug, Clone, PartialEq)]
pub struct LockFile {
    /// The format version ([`LOCK_VERSION`] for a lock file made or read by this toolpact).
    pub version: u64,
    /// The tools, sorted by name.
    pub tools: Vec<LockedTool>,
}

/// One pinned tool.
#[derive(Debug, Clone, PartialEq)]
pub struct LockedTool {
    /// `sha256:` and the hex SHA-256 of the tool's canonical JSON.
    pub hash: String,
    /// The tool, in canonical form (strings in NFC, numbers in one form).
    pub tool: Tool,
}

impl LockedTool {
    /// Pins a tool: its canonical form and hash.
    pub fn new(tool: &Tool) -> Self {
        let tool = canonical_tool(tool);
        LockedTool {
            hash: contract_hash(&tool),
            tool,
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// The canonical contract, keys in canonical order.
    pub fn contract(&self) -> Value {
        canonical_contract(&self.tool)
    }
}

/// Why a lock file could not be made or read. Each variant says which file and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// The file is not JSON.
    #[error("{file}:{line}:{column}: {message}")]
    Json {
        /// File name.
        file: String,
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// What the parser found.
        message: String,
    },
    /// The file has a format version this toolpact does not read.
    #[error(
        "{file}:{line}:{column}: the lock file has format version {found}; this toolpact reads version {LOCK_VERSION} \
         (use the toolpact that wrote it, or run `toolpact lock` again)"
    )]
    Version {
        /// File name.
        file: String,
        /// Line of the version.
        line: usize,
        /// Column of the version.
        column: usize,
        /// The version found, as written.
        found: String,
    },
    /// The file is JSON but not a valid lock file.
    #[error("{file}:{line}:{column}: {message} (at {pointer})")]
    Invalid {
        /// File name.
        file: String,
        /// Line of the problem, from 1.
        line: usize,
        /// Column of the problem, from 1.
        column: usize,
        /// JSON pointer of the problem.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// Two tools have the same name, so the lock cannot pin each by name.
    #[error(
        "two tools are named {name:?}; a lock file pins each tool by its name, so names must be unique"
    )]
    DuplicateName {
        /// The name.
        name: String,
    },
}

/// Whether a JSON document is a lock file (it has the [`LOCK_KEY`] member), rather than a
/// catalog.
pub fn is_lock_document(value: &Value) -> bool {
    value.get(LOCK_KEY).is_some()
}

impl LockFile {
    /// Pins the tools. Two tools with the same name (after NFC normalisation) are refused.
    pub fn new<'t>(tools: impl IntoIterator<Item = &'t Tool>) -> Result<LockFile, LockError> {
        let mut locked: Vec<LockedTool> = tools.into_iter().map(LockedTool::new).collect();
        locked.sort_by(|a, b| utf16_cmp(a.name(), b.name()));
        if let Some(pair) = locked.windows(2).find(|w| w[0].name() == w[1].name()) {
            return Err(LockError::DuplicateName {
                name: pair[0].name().to_owned(),
            });
        }
        Ok(LockFile {
            version: LOCK_VERSION,
            tools: locked,
        })
    }

    /// The pinned tools, sorted by name.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter().map(|t| &t.tool)
    }

    /// The pinned tool named `name`.
    pub fn get(&self, name: &str) -> Option<&LockedTool> {
        self.tools.iter().find(|t| t.name() == name)
    }

    /// The lock file as JSON.
    pub fn to_value(&self) -> Value {
        let tools = self
            .tools
            .iter()
            .map(|t| {
                let mut entry = Map::new();
                entry.insert("name".to_owned(), Value::String(t.name().to_owned()));
                entry.insert("hash".to_owned(), Value::String(t.hash.clone()));
                entry.insert("contract".to_owned(), t.contract());
                Value::Object(entry)
            })
            .collect();
        let mut doc = Map::new();
        doc.insert(LOCK_KEY.to_owned(), Value::from(self.version));
        doc.insert("tools".to_owned(), Value::Array(tools));
        Value::Object(doc)
    }

    /// The lock file's text: pretty JSON with two-space indentation and a final newline.
    pub fn to_json_string(&self) -> String {
        // Serialising a `Value` cannot fail: every key is a string.
        let mut text = serde_json::to_string_pretty(&self.to_value()).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a lock file. `file` names it in errors.
    pub fn from_str_named(text: &str, file: &str) -> Result<LockFile, LockError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let reader = Reader { text, file };
        if text.trim().is_empty() {
            return Err(LockError::Json {
                file: file.to_owned(),
                line: 1,
                column: 1,
                message: "the file is empty; expected a toolpact lock file".to_owned(),
            });
        }
        let doc: Value = serde_json::from_str(text).map_err(|e| LockError::Json {
            file: file.to_owned(),
            line: e.line().max(1),
            column: e.column().max(1),
            message: format!(
                "not valid JSON: {}",
                e.to_string()
                    .rsplit_once(" at line ")
                    .map_or(e.to_string(), |(m, _)| m.to_owned())
            ),
        })?;
        let Some(obj) = doc.as_object() else {
            return Err(reader.invalid("", "a lock file is a JSON object"));
        };
        let Some(version) = obj.get(LOCK_KEY) else {
            return Err(reader.invalid(
                "",
                &format!("not a toolpact lock file: it has no {LOCK_KEY:?} member"),
            ));
        };
        if version.as_u64() != Some(LOCK_VERSION) {
            let (line, column) = reader.position(&child_pointer("", LOCK_KEY));
            return Err(LockError::Version {
                file: file.to_owned(),
                line,
                column,
                found: version.to_string(),
            });
        }
        if let Some(key) = obj.keys().find(|k| *k != LOCK_KEY && *k != "tools") {
            return Err(reader.invalid(
                &child_pointer("", key),
                &format!(
                    "unknown member {key:?}; a version {LOCK_VERSION} lock file has only {LOCK_KEY:?} and \"tools\""
                ),
            ));
        }
        let Some(entries) = obj.get("tools").and_then(Value::as_array) else {
            return Err(reader.invalid("/tools", "\"tools\" must be an array of pinned tools"));
        };
        let mut tools = Vec::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            tools.push(reader.entry(&format!("/tools/{i}"), entry)?);
        }
        tools.sort_by(|a, b| utf16_cmp(a.name(), b.name()));
        if let Some(pair) = tools.windows(2).find(|w| w[0].name() == w[1].name()) {
            let name = pair[0].name().to_owned();
            let index = entries
                .iter()
                .rposition(|e| e.get("name").and_then(Value::as_str).map(nfc) == Some(name.clone()))
                .unwrap_or(0);
            return Err(reader.invalid(
                &format!("/tools/{index}/name"),
                &format!("the tool {name:?} is pinned twice; each name may appear once"),
            ));
        }
        Ok(LockFile {
            version: LOCK_VERSION,
            tools,
        })
    }
}

struct Reader<'a> {
    text: &'a str,
    file: &'a str,
}

impl Reader<'_> {
    fn position(&self, pointer: &str) -> (usize, usize) {
        let start = Origin {
            file: self.file.to_owned(),
            pointer: String::new(),
            line: 1,
            column: 1,
            offset: 0,
        };
        let leading = self.text.len() - self.text.trim_start().len();
        let start = Origin {
            offset: leading,
            line: 1 + self.text[..leading].matches('\n').count(),
            column: self.text[..leading]
                .rsplit('\n')
                .next()
                .map_or(1, |l| l.chars().count() + 1),
            ..start
        };
        position_in(self.text, &start, pointer)
    }

    fn invalid(&self, pointer: &str, message: &str) -> LockError {
        let (line, column) = self.position(pointer);
        LockError::Invalid {
            file: self.file.to_owned(),
            line,
            column,
            pointer: pointer.to_owned(),
            message: message.to_owned(),
        }
    }

    fn entry(&self, at: &str, entry: &Value) -> Result<LockedTool, LockError> {
        let Some(obj) = entry.as_object() else {
            return Err(self.invalid(
                at,
                "a pinned tool is an object with \"name\", \"hash\" and \"contract\"",
            ));
        };
        if let Some(key) = obj
            .keys()
            .find(|k| !matches!(k.as_str(), "name" | "hash" | "contract"))
        {
            return Err(self.invalid(
                &child_pointer(at, key),
                &format!(
                    "unknown member {key:?}; a pinned tool has only \"name\", \"hash\" and \"contract\""
                ),
            ));
        }
        let field = |key: &str| -> Result<&str, LockError> {
            obj.get(key).and_then(Value::as_str).ok_or_else(|| {
                self.invalid(
                    &child_pointer(at, key),
                    &format!("a pinned tool needs {key:?}, a string"),
                )
            })
        };
        let name = field("name")?;
        let hash = field("hash")?;
        let contract_at = child_pointer(at, "contract");
        let contract = match obj.get("contract") {
            Some(contract @ Value::Object(_)) => contract,
            _ => {
                return Err(self.invalid(
                    &contract_at,
                    "a pinned tool needs \"contract\", the tool as a JSON object",
                ));
            }
        };
        let tool: Tool = serde_path_to_error::deserialize(contract).map_err(|e| {
            let path = e.path().to_string();
            let pointer = if path == "." {
                contract_at.clone()
            } else {
                path.split('.')
                    .fold(contract_at.clone(), |acc, seg| child_pointer(&acc, seg))
            };
            self.invalid(
                &pointer,
                &format!("the contract is not a tool: {}", e.into_inner()),
            )
        })?;
        if !tool.input_schema.is_object() && !tool.input_schema.is_boolean() {
            return Err(self.invalid(
                &child_pointer(&contract_at, "inputSchema"),
                "the contract's \"inputSchema\" must be a JSON Schema",
            ));
        }
        let locked = LockedTool::new(&tool);
        if nfc(name) != locked.name() {
            return Err(self.invalid(
                &child_pointer(at, "name"),
                &format!(
                    "the name {name:?} is not the contract's name {:?}",
                    locked.name()
                ),
            ));
        }
        if hash != locked.hash {
            return Err(self.invalid(
                &child_pointer(at, "hash"),
                &format!(
                    "the tool {name:?} has hash {hash}, but its contract hashes to {}; the file was edited or damaged \
                     (run `toolpact lock` again to pin the contract as it is now)",
                    locked.hash
                ),
            ));
        }
        Ok(locked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Tool {
        Tool::new(
            name,
            description,
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1.0}}}),
        )
    }

    #[test]
    fn tools_are_sorted_and_duplicates_refused() {
        let lock = LockFile::new(&[tool("b", "B"), tool("a", "A")]).unwrap();
        let names: Vec<&str> = lock.tools().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let err = LockFile::new(&[tool("a", "A"), tool("a", "B")]).unwrap_err();
        assert_eq!(err, LockError::DuplicateName { name: "a".into() });
    }

    #[test]
    fn the_file_round_trips_exactly() {
        let lock = LockFile::new(&[tool("b", "Be\u{301}"), tool("a", "A")]).unwrap();
        let text = lock.to_json_string();
        let read = LockFile::from_str_named(&text, "t.lock").unwrap();
        assert_eq!(read, lock);
        assert_eq!(read.to_json_string(), text);
        assert!(text.contains("\"maximum\": 1,"), "{text}");
        assert!(text.contains("Bé"), "{text}");
    }

    #[test]
    fn errors_say_where_and_what() {
        let lock = LockFile::new(&[tool("a", "A")]).unwrap();
        let text = lock.to_json_string();

        let edited = text.replace("\"description\": \"A\"", "\"description\": \"Z\"");
        let err = LockFile::from_str_named(&edited, "t.lock")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.lock:6:15: the tool \"a\" has hash sha256:"),
            "{err}"
        );
        assert!(err.ends_with("(at /tools/0/hash)"), "{err}");

        let future = text.replace("\"toolpactLock\": 1", "\"toolpactLock\": 2");
        let err = LockFile::from_str_named(&future, "t.lock").unwrap_err();
        assert!(matches!(err, LockError::Version { ref found, line: 2, .. } if found == "2"));
        assert!(err.to_string().contains("this toolpact reads version 1"));

        let err = LockFile::from_str_named("{\"tools\": []}", "t.lock").unwrap_err();
        assert!(
            err.to_string()
                .contains("not a toolpact lock file: it has no \"toolpactLock\" member")
        );

        let err = LockFile::from_str_named("{\"toolpactLock\": 1,", "t.lock").unwrap_err();
        assert!(matches!(err, LockError::Json { line: 1, .. }), "{err}");

        let no_schema = "{\"toolpactLock\": 1, \"tools\": [{\"name\": \"a\", \"hash\": \"sha256:0\", \"contract\": {\"name\": \"a\"}}]}";
        let err = LockFile::from_str_named(no_schema, "t.lock")
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing field `inputSchema`"), "{err}");
        assert!(err.ends_with("(at /tools/0/contract)"), "{err}");

        let extra = text.replace("\"tools\": [", "\"extra\": true, \"tools\": [");
        let err = LockFile::from_str_named(&extra, "t.lock")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown member \"extra\""), "{err}");
    }

    #[test]
    fn a_tool_pinned_twice_is_refused() {
        let lock = LockFile::new(&[tool("a", "A")]).unwrap();
        let mut value = lock.to_value();
        let entry = value["tools"][0].clone();
        value["tools"].as_array_mut().unwrap().push(entry);
        let text = serde_json::to_string_pretty(&value).unwrap();
        let err = LockFile::from_str_named(&text, "t.lock")
            .unwrap_err()
            .to_string();
        assert!(err.contains("pinned twice"), "{err}");
        assert!(err.ends_with("(at /tools/1/name)"), "{err}");
    }

    #[test]
    fn lock_documents_are_told_from_catalogs() {
        let lock = LockFile::new(&[tool("a", "A")]).unwrap();
        assert!(is_lock_document(&lock.to_value()));
        assert!(!is_lock_document(&json!({"tools": []})));
    }
}
