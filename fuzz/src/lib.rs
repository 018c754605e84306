//! What the fuzz targets share: the tools of the fixtures, a way to pick a provider from a
//! byte, and the properties more than one target asserts (valid JSON out, every lost keyword
//! in the loss report).
//!
//! A property that does not hold panics with a message that says which and where: libFuzzer
//! then keeps the input as a crash.

#![allow(clippy::panic)] // A broken property is a crash on purpose: libFuzzer keeps the input.

use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use toolpact::{Catalog, LoweredTool, Registry, Target, Tool};

/// Catalogs from `fixtures/seeds/`, the tools the call and MCP server targets dispatch to.
const SEED_CATALOGS: [(&str, &str); 4] = [
    (
        "create_order.json",
        include_str!("../../fixtures/seeds/create_order.json"),
    ),
    (
        "get_forecast.json",
        include_str!("../../fixtures/seeds/get_forecast.json"),
    ),
    (
        "search_database.json",
        include_str!("../../fixtures/seeds/search_database.json"),
    ),
    (
        "read_measurement.json",
        include_str!("../../fixtures/seeds/read_measurement.json"),
    ),
];

/// The tools of the seed catalogs, read once.
pub fn seed_tools() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let mut tools = Vec::new();
        for (file, text) in SEED_CATALOGS {
            match Catalog::from_str_named(text, file, None) {
                Ok(catalog) => tools.extend(catalog.tools().cloned()),
                Err(e) => panic!("the seed catalog {file} does not import: {e}"),
            }
        }
        tools
    })
}

/// A registry of [`seed_tools`], without handlers.
pub fn seed_registry() -> Registry {
    let mut registry = Registry::new();
    for tool in seed_tools() {
        if let Err(e) = registry.register(tool.clone()) {
            panic!("the seed tool {} does not register: {e}", tool.name);
        }
    }
    registry
}

/// The provider a byte picks, `None` (detect the format) for one value in seven.
pub fn pick_format(byte: u8) -> Option<Target> {
    let all = Target::ALL;
    let n = all.len() + 1;
    all.get(usize::from(byte) % n).copied()
}

/// The input split at its first NUL byte (which no JSON text holds outside a string), or the
/// whole input and `None`.
pub fn split_at_nul(data: &[u8]) -> (&[u8], Option<&[u8]>) {
    match data.iter().position(|b| *b == 0) {
        Some(at) => (&data[..at], Some(&data[at + 1..])),
        None => (data, None),
    }
}

/// Asserts that `value` written as JSON reads back as the same value, and returns the text.
pub fn assert_json_round_trip(value: &Value, what: &str) -> String {
    let text = match serde_json::to_string(value) {
        Ok(text) => text,
        Err(e) => panic!("{what} does not serialize: {e}"),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(back) if back == *value => text,
        Ok(back) => panic!("{what} reads back as another value:\n{text}\n{back}"),
        Err(e) => panic!("{what} is not valid JSON ({e}):\n{text}"),
    }
}

/// Asserts that `text` is one JSON document, and returns it.
pub fn assert_json_text(text: &str, what: &str) -> Value {
    match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => panic!("{what} is not valid JSON ({e}):\n{text}"),
    }
}

/// Keywords whose value is a map from names (of properties, definitions) to schemas.
const NAMED_SCHEMAS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is data, not a schema: no keyword lives inside them.
const DATA: [&str; 5] = ["const", "enum", "default", "examples", "example"];

/// Every keyword of a schema with the JSON pointer it is at, walking subschemas only (not
/// property names, not `enum` values). Keywords under `$defs` and `definitions` are left
/// out: a definition reaches the target where a `$ref` points at it, and what happens to it
/// is reported there.
pub fn keywords(schema: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk(schema, String::new(), &mut out, 0);
    out
}

fn walk(schema: &Value, pointer: String, out: &mut Vec<(String, String)>, depth: usize) {
    // The schema depth limit of toolpact is 128; deeper walks add nothing a target sees.
    if depth > 130 {
        return;
    }
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                // An empty `required` says nothing; a target may leave it out.
                if key == "required" && value.as_array().is_some_and(Vec::is_empty) {
                    continue;
                }
                let here = format!("{pointer}/{}", escape(key));
                out.push((key.clone(), here.clone()));
                if DATA.contains(&key.as_str()) {
                    continue;
                }
                if NAMED_SCHEMAS.contains(&key.as_str()) {
                    if key == "$defs" || key == "definitions" {
                        continue;
                    }
                    if let Value::Object(named) = value {
                        for (name, sub) in named {
                            walk(sub, format!("{here}/{}", escape(name)), out, depth + 1);
                        }
                    }
                } else {
                    walk(value, here, out, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, format!("{pointer}/{i}"), out, depth + 1);
            }
        }
        _ => {}
    }
}

/// A JSON pointer token (RFC 6901).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Whether `ancestor` is `pointer` or a pointer above it.
fn covers(ancestor: &str, pointer: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer.as_bytes().get(ancestor.len()) == Some(&b'/'))
}

/// Asserts that every keyword of the tool's schemas that the target's item holds nowhere is
/// in the loss report: a loss at its pointer or above it (a dropped `not` covers what was
/// inside it; a tool left out covers everything).
pub fn assert_losses_cover_keywords(lowered: &LoweredTool<'_>) {
    let tool = lowered.tool;
    let pairs = [
        (
            "/inputSchema",
            Some(&tool.input_schema),
            lowered.input_schema.as_deref(),
        ),
        (
            "/outputSchema",
            tool.output_schema.as_ref(),
            lowered.output_schema.as_deref(),
        ),
    ];
    for (root, written, sent) in pairs {
        let Some(written) = written else { continue };
        let kept: BTreeSet<String> = sent
            .map(|sent| keywords(sent).into_iter().map(|(k, _)| k).collect())
            .unwrap_or_default();
        for (keyword, pointer) in keywords(written) {
            if kept.contains(&keyword) {
                continue;
            }
            // A target that sends no input schema (Gemini, for a tool without properties)
            // loses no `type: object`: that is what no parameters means.
            if sent.is_none()
                && pointer == "/type"
                && written.get("type") == Some(&Value::from("object"))
            {
                continue;
            }
            let pointer = format!("{root}{pointer}");
            let reported = lowered
                .losses
                .iter()
                .any(|loss| covers(&loss.pointer, &pointer));
            if !reported {
                panic!(
                    "{} for {}{}: keyword {keyword:?} at {pointer} is not sent and not in the loss report; losses: {:#?}\nsent: {}",
                    tool.name,
                    lowered.target,
                    if lowered.strict { " (strict)" } else { "" },
                    lowered.losses,
                    sent.map(Value::to_string).unwrap_or_default(),
                );
            }
        }
    }
}
