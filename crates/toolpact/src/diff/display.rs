//! How values and places are written in the messages of a diff: what a pointer is about,
//! `added`/`removed`/`changed`, and values cut to a readable length.

use crate::canonical::{ecmascript_number, to_canonical_string};
use serde_json::Value;

/// What a schema pointer is about, for messages: `property "city"`, `the input schema`.
pub(super) fn subject(pointer: &str) -> String {
    match pointer {
        "/inputSchema" => return "the input schema".to_owned(),
        "/outputSchema" => return "the output schema".to_owned(),
        _ => {}
    }
    let tokens: Vec<&str> = pointer.split('/').collect();
    if let [.., parent, name] = tokens.as_slice()
        && *parent == "properties"
    {
        let name = name.replace("~1", "/").replace("~0", "~");
        return format!("property {name:?}");
    }
    pointer.to_owned()
}

/// `added`, `removed` or `changed`.
pub(super) fn verb(a: Option<&Value>, b: Option<&Value>) -> &'static str {
    match (a, b) {
        (None, Some(_)) => "added",
        (Some(_), None) => "removed",
        _ => "changed",
    }
}

/// `added: X`, `removed (was X)` or `changed from X to Y`.
pub(super) fn from_to(a: Option<&Value>, b: Option<&Value>) -> String {
    match (a, b) {
        (None, Some(y)) => format!("added: {}", show(y)),
        (Some(x), None) => format!("removed (was {})", show(x)),
        (Some(x), Some(y)) => format!("changed from {} to {}", show(x), show(y)),
        (None, None) => "unchanged".to_owned(),
    }
}

/// Values longer than this are cut in messages.
const MAX_SHOWN_CHARS: usize = 80;

/// A value in a message: canonical JSON, cut to [`MAX_SHOWN_CHARS`] characters.
pub(super) fn show(value: &Value) -> String {
    let text = to_canonical_string(value);
    if text.chars().count() <= MAX_SHOWN_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_SHOWN_CHARS).collect();
    format!("{cut}…")
}

/// Values in a message, the first few and how many there are.
pub(super) fn show_list(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().map(show).collect();
    shorten_list(&shown)
}

/// Items in a message, the first few and how many there are.
fn shorten_list(items: &[String]) -> String {
    const MAX_ITEMS: usize = 8;
    if items.len() <= MAX_ITEMS {
        items.join(", ")
    } else {
        format!(
            "{}, … ({} values)",
            items[..MAX_ITEMS].join(", "),
            items.len()
        )
    }
}

/// A number in a message, as the canonical form writes it.
pub(super) fn number(x: f64) -> String {
    ecmascript_number(x)
}
