//! Where things are in a document: the [`Origin`] of each item (file, pointer, line and
//! column), found in one pass over the text, and positions inside an item by JSON pointer
//! ([`position_in`], [`offset_in`], [`ItemOffsets`]).

use crate::json::{child_pointer, unescape_token};
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
    // The document was parsed before its origins are sought: its syntax is sound, and it is
    // not read through a first time only to find where its value starts.
    locate(
        text,
        text.trim_start_matches([' ', '\t', '\n', '\r']),
        &indexed,
        &mut offsets,
    );
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

/// Finds the offset of each path in `json`, a part of `text` from the start of a value (to
/// the end of that value or of `text`).
fn locate(text: &str, json: &str, paths: &[(usize, &[Seg])], offsets: &mut [usize]) {
    let mut deeper: HashMap<&Seg, Vec<(usize, &[Seg])>> = HashMap::new();
    for (i, path) in paths {
        match path.split_first() {
            None => offsets[*i] = json.as_ptr() as usize - text.as_ptr() as usize,
            Some((first, rest)) => deeper.entry(first).or_default().push((*i, rest)),
        }
    }
    if deeper.is_empty() {
        return;
    }
    let is_array = json.starts_with('[');
    if is_array {
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(json) else {
            return;
        };
        for (seg, rest) in deeper {
            if let Some(child) = match seg {
                Seg::Index(i) => items.get(*i),
                Seg::Key(_) => None,
            } {
                locate(text, child.get(), &rest, offsets);
            }
        }
    } else {
        let Ok(map) = serde_json::from_str::<HashMap<String, &RawValue>>(json) else {
            return;
        };
        for (seg, rest) in deeper {
            if let Seg::Key(k) = seg
                && let Some(child) = map.get(k)
            {
                locate(text, child.get(), &rest, offsets);
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

/// Where the values inside one item of a file are, by JSON pointer. The item is read once
/// when made; each place is then found by walking its text along the pointer. Each object
/// or array on the way is read once, the first time a pointer passes through it, for where
/// its members or items start (the values inside them are stepped over, not read), so that
/// placing many findings in a tool costs about one read of the parts they point into,
/// rather than an index of every value the tool holds.
#[derive(Debug, Clone)]
pub struct ItemOffsets {
    /// The item's JSON text, as written in the file.
    item: String,
    /// Where the item starts: its byte offset, line and column.
    start: (usize, usize, usize),
    /// The objects and arrays read so far, by their offset in `item`.
    read: std::cell::RefCell<HashMap<usize, walk::Container>>,
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
        let at = raw.get().as_ptr() as usize - text.as_ptr() as usize;
        Some(ItemOffsets {
            item: raw.get().to_owned(),
            start: (at, origin.line, origin.column),
            read: std::cell::RefCell::default(),
        })
    }

    /// The byte offset in the file of the value at `pointer`, or of the deepest part of the
    /// pointer that exists. A key written twice points at its last value, as a JSON parser
    /// reads it; an array index is written as JSON pointers write it (`/0`, `/12`).
    pub fn offset(&self, pointer: &str) -> usize {
        self.start.0 + walk::deepest(&self.item, pointer, &mut self.read.borrow_mut())
    }

    /// The line and column (from 1) of the value at `pointer`, or of the deepest part of the
    /// pointer that exists; `text` is the file's text, as given to [`ItemOffsets::new`].
    pub fn position(&self, text: &str, pointer: &str) -> (usize, usize) {
        self.position_of(text, self.offset(pointer))
    }

    /// The line and column (from 1) of `offset`, a byte offset in the file that
    /// [`ItemOffsets::offset`] gave; `text` is the file's text, as given to
    /// [`ItemOffsets::new`]. A place whose offset is needed too is walked to once.
    pub fn position_of(&self, text: &str, offset: usize) -> (usize, usize) {
        let (start, line, column) = self.start;
        text.get(start..offset)
            .map_or((line, column), |between| moved_by(between, line, column))
    }
}

/// Steps through the text of one JSON value that a parser has read (so it is well formed),
/// to find where the value at a pointer starts. Strings, numbers and nested values that are
/// not on the way are stepped over, not read; a key is decoded only when it holds an escape.
mod walk {
    use crate::json::unescape_token;

    use std::collections::HashMap;

    /// Where the members of an object (by key, the last of a key written twice) or the items
    /// of an array start.
    #[derive(Debug, Clone)]
    pub(super) enum Container {
        Object(HashMap<String, usize>),
        Array(Vec<usize>),
    }

    /// The byte offset in `json` of the value at `pointer`, or of the deepest part of the
    /// pointer that exists; `read` keeps the containers read on the way, by offset.
    pub(super) fn deepest(
        json: &str,
        pointer: &str,
        read: &mut HashMap<usize, Container>,
    ) -> usize {
        let b = json.as_bytes();
        let mut at = blank(b, 0);
        for token in pointer.split('/').skip(1) {
            if !matches!(b.get(at), Some(b'{' | b'[')) {
                break;
            }
            let container = read.entry(at).or_insert_with(|| container(json, at));
            let token = unescape_token(token);
            let next = match container {
                Container::Object(members) => members.get(token.as_ref()).copied(),
                Container::Array(items) => index(&token).and_then(|n| items.get(n).copied()),
            };
            match next {
                Some(next) => at = next,
                None => break,
            }
        }
        at
    }

    /// The object or array at `at`, read for where its members or items start.
    fn container(json: &str, at: usize) -> Container {
        let b = json.as_bytes();
        if b.get(at) == Some(&b'[') {
            Container::Array(elements(b, at))
        } else {
            Container::Object(members(json, at))
        }
    }

    /// The index a pointer token names: digits, without a leading zero unless it is `0`.
    fn index(token: &str) -> Option<usize> {
        let canonical = !token.is_empty()
            && token.bytes().all(|c| c.is_ascii_digit())
            && (token == "0" || !token.starts_with('0'));
        canonical.then(|| token.parse().ok()).flatten()
    }

    /// The first byte at or after `i` that is not JSON whitespace.
    fn blank(b: &[u8], mut i: usize) -> usize {
        while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    /// Just past the string whose opening quote is at `i`.
    fn past_string(b: &[u8], mut i: usize) -> usize {
        i += 1;
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => return i + 1,
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        b.len()
    }

    /// Just past the value that starts at `i`.
    fn past_value(b: &[u8], i: usize) -> usize {
        match b.get(i) {
            Some(b'"') => past_string(b, i),
            Some(b'{' | b'[') => {
                // Nested values are stepped over by counting brackets outside strings.
                let mut depth = 0usize;
                let mut j = i;
                while let Some(&c) = b.get(j) {
                    match c {
                        b'"' => {
                            j = past_string(b, j);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return j + 1;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                b.len()
            }
            _ => {
                let mut j = i;
                while b.get(j).is_some_and(|c| {
                    !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    j += 1;
                }
                j
            }
        }
    }

    /// Where each member of the object at `at` starts, by key; a key written twice is its
    /// last member.
    fn members(json: &str, at: usize) -> HashMap<String, usize> {
        let b = json.as_bytes();
        let mut out = HashMap::new();
        let mut i = blank(b, at + 1);
        while b.get(i) == Some(&b'"') {
            let end = past_string(b, i);
            let Some(written) = json.get(i + 1..end.saturating_sub(1)) else {
                break;
            };
            let key = if written.contains('\\') {
                json.get(i..end)
                    .and_then(|s| serde_json::from_str::<String>(s).ok())
            } else {
                Some(written.to_owned())
            };
            i = blank(b, end);
            if b.get(i) != Some(&b':') {
                break;
            }
            let value = blank(b, i + 1);
            if let Some(key) = key {
                out.insert(key, value);
            }
            i = blank(b, past_value(b, value));
            if b.get(i) != Some(&b',') {
                break;
            }
            i = blank(b, i + 1);
        }
        out
    }

    /// Where each item of the array at `at` starts.
    fn elements(b: &[u8], at: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut i = blank(b, at + 1);
        if matches!(b.get(i), Some(b']') | None) {
            return out;
        }
        loop {
            out.push(i);
            i = blank(b, past_value(b, i));
            if b.get(i) != Some(&b',') {
                return out;
            }
            i = blank(b, i + 1);
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

    /// Every pointer into `value`, the value's own (`""`) first.
    fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    pointers(v, child_pointer(&at, k), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    pointers(v, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    fn json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (-1e9f64..1e9).prop_map(Value::from),
            r#"([a-z~/ ]|\\|"|é|\n|\u{1}|東){0,8}"#.prop_map(Value::from),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                proptest::collection::btree_map(r#"([a-z~/ ]|\\|"|é|\t){0,6}"#, inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Every value of an item is found where it is written, compact or pretty, and a
        /// pointer that leaves the item finds the deepest value on its way.
        #[test]
        fn every_value_is_found_where_it_is_written(value in json(), pretty: bool) {
            let item = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                value.to_string()
            };
            let text = format!("[\n  {item}\n]");
            let origin = Origin {
                file: "t.json".to_owned(),
                pointer: "/0".to_owned(),
                line: 2,
                column: 3,
                offset: 4,
            };
            let offsets = ItemOffsets::new(&text, &origin).unwrap();
            let mut all = Vec::new();
            pointers(&value, String::new(), &mut all);
            for pointer in &all {
                let at = offsets.offset(pointer);
                let mut stream = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
                let found = stream.next().unwrap().unwrap();
                proptest::prop_assert_eq!(Some(&found), value.pointer(pointer), "{}", pointer);
                proptest::prop_assert_eq!(Some(at), offset_in(&text, &origin, pointer));
                let gone = format!("{pointer}/~1missing/0");
                proptest::prop_assert_eq!(offsets.offset(&gone), at);
            }
        }
    }
}
