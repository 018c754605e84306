//! Where things are in a document: the [`Origin`] of each item (file, pointer, line and
//! column), found in one pass over the text, and positions inside an item by JSON pointer
//! ([`position_in`], [`offset_in`], [`ItemOffsets`]).

use crate::json::{child_pointer, escape_token, unescape_token};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fmt;

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

/// One step of a path into a document: a key of an object or an index of an array.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// The JSON pointer of a path.
pub(crate) fn pointer_of(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => out = child_pointer(&out, k),
            Seg::Index(i) => out = child_pointer(&out, &i.to_string()),
        }
    }
    out
}

/// The value at `path` in `doc`, to move it out.
pub(crate) fn lookup_mut<'v>(doc: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(doc, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k),
        Seg::Index(i) => v.get_mut(i),
    })
}

/// The value at `path` in `doc`.
pub(crate) fn lookup<'v>(doc: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(doc, |v, seg| match seg {
        Seg::Key(k) => v.get(k),
        Seg::Index(i) => v.get(i),
    })
}

/// The origin of every path, found by re-reading the document as raw JSON along those paths
/// only, so positions cost one pass over the text.
pub(crate) fn origins(text: &str, file: &str, paths: &[&[Seg]]) -> Vec<Origin> {
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
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
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
