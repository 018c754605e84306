//! Catalog import of any bytes, detected or forced to each provider's format: never a panic;
//! every tool read has an origin that points at an object in the document, and writes back
//! as JSON that reads as the same tool.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolpact::{Catalog, Target, Tool};
use toolpact_fuzz::{assert_json_round_trip, pick_format};

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    // The first byte picks the format; the whole input is also read detected, as a file is.
    for (bytes, format) in [(rest, pick_format(*first)), (data, None)] {
        let Ok(catalog) = Catalog::from_slice(bytes, "fuzz.json", format) else {
            continue;
        };
        let Ok(document) =
            serde_json::from_slice::<Value>(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes))
        else {
            panic!("the import read a catalog from a document serde_json does not read");
        };
        for entry in &catalog.entries {
            let origin = &entry.origin;
            match document.pointer(&origin.pointer) {
                Some(Value::Object(_)) => {}
                other => panic!(
                    "tool {:?}: origin {} points at {other:?}, not at an object",
                    entry.tool.name, origin.pointer
                ),
            }
            assert!(
                origin.line >= 1 && origin.column >= 1,
                "origin {origin} is not 1-based"
            );
            assert!(origin.offset <= bytes.len(), "origin offset past the end");
            let Ok(value) = serde_json::to_value(&entry.tool) else {
                panic!("tool {:?} does not serialize", entry.tool.name);
            };
            assert_json_round_trip(&value, "a tool written as JSON");
            // Read back as MCP, the tool is the same tool.
            let text = serde_json::json!({ "tools": [value] }).to_string();
            match Catalog::from_str_named(&text, "again.json", Some(Target::Mcp)) {
                Ok(again) => {
                    let back: Vec<&Tool> = again.tools().collect();
                    assert_eq!(
                        back,
                        vec![&entry.tool],
                        "the tool written as MCP reads back changed"
                    );
                }
                Err(e) => panic!(
                    "tool {:?} written as MCP does not import: {e}\n{text}",
                    entry.tool.name
                ),
            }
        }
    }
});
