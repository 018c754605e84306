//! Canonical JSON of a contract holding any JSON value: valid JSON, object keys in UTF-16
//! order at every level, idempotent (the canonical form read back and canonicalised again is
//! the same text, with the same hash), and no whitespace between tokens.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value, json};
use toolpact::{Tool, canonical_json, contract_hash};
use toolpact_fuzz::assert_json_text;

fn tool_holding(value: Value) -> Tool {
    let mut extra = Map::new();
    extra.insert("x-value".to_owned(), value.clone());
    Tool {
        name: "fuzz".to_owned(),
        title: None,
        description: None,
        input_schema: json!({"type": "object", "default": value}),
        output_schema: None,
        annotations: None,
        icons: None,
        meta: None,
        extra,
    }
}

fn assert_sorted(value: &Value) {
    match value {
        Value::Object(map) => {
            let keys: Vec<&String> = map.keys().collect();
            for pair in keys.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert!(
                    a.encode_utf16().cmp(b.encode_utf16()).is_lt(),
                    "keys {a:?} and {b:?} are not in UTF-16 order"
                );
            }
            map.values().for_each(assert_sorted);
        }
        Value::Array(items) => items.iter().for_each(assert_sorted),
        _ => {}
    }
}

/// Whether `text` has whitespace outside its strings.
fn has_whitespace_between_tokens(text: &str) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii_whitespace() {
            return true;
        }
    }
    false
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let tool = tool_holding(value);
    let text = canonical_json(&tool);
    let parsed = assert_json_text(&text, "a canonical form");
    assert_sorted(&parsed);
    assert!(
        !has_whitespace_between_tokens(&text),
        "whitespace between tokens:\n{text}"
    );
    let Ok(again) = serde_json::from_value::<Tool>(parsed) else {
        panic!("the canonical form does not read as a tool:\n{text}");
    };
    let twice = canonical_json(&again);
    assert_eq!(text, twice, "canonicalisation is not idempotent");
    assert_eq!(
        contract_hash(&tool),
        contract_hash(&again),
        "the hash changed"
    );
});
