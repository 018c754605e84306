//! The central list: one tool per name, every schema compiled at registration, no remote
//! references and no unknown dialects.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests fail loudly on purpose.

use serde_json::json;
use toolpact::{Catalog, Registry, RegistryError, SchemaProblem, Tool};

fn tool(name: &str, schema: serde_json::Value) -> Tool {
    Tool::new(name, "A tool used in tests.", schema)
}

#[test]
fn duplicate_names_are_rejected_naming_both() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/seeds/get_forecast.json"
    ))
    .unwrap();
    let mut catalog = Catalog::from_str_named(&text, "a.json", None).unwrap();
    catalog.extend(Catalog::from_str_named(&text, "b.json", None).unwrap());
    let err = Registry::from_catalog(&catalog).unwrap_err();
    let RegistryError::Duplicate {
        name,
        first,
        second,
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(name, "get_forecast");
    assert!(
        first.starts_with("a.json:3:5") && second.starts_with("b.json:3:5"),
        "{err}"
    );
    assert!(err.to_string().contains("a.json:3:5 and b.json:3:5"));
}

#[test]
fn schemas_compile_at_registration() {
    let mut registry = Registry::new();
    let registered = registry
        .register(tool(
            "get_forecast",
            json!({
                "type": "object",
                "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7}},
                "required": ["days"]
            }),
        ))
        .unwrap();
    assert!(registered.validate(&json!({"days": 3})).is_ok());
    assert!(registered.validate(&json!({"days": 0})).is_err());
    assert!(registered.validate(&json!({"days": true})).is_err());
    assert!(registry.get("get_forecast").is_some());
}

#[test]
fn formats_are_asserted() {
    let mut registry = Registry::new();
    let r = registry
        .register(tool(
            "read_measurement",
            json!({
                "type": "object",
                "properties": {"date": {"type": "string", "format": "date"}}
            }),
        ))
        .unwrap();
    assert!(r.validate(&json!({"date": "2026-11-29"})).is_ok());
    assert!(r.validate(&json!({"date": "29/11/2026"})).is_err());
}

#[test]
fn draft_07_is_honoured_and_unknown_dialects_are_refused() {
    let mut registry = Registry::new();
    let r = registry
        .register(tool("legacy", json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}
        })))
        .unwrap();
    // Draft 7 tuple `items`: the second item must be an integer.
    assert!(r.validate(&json!({"pair": ["a", "b"]})).is_err());
    let err = registry
        .register(tool(
            "odd",
            json!({"$schema": "https://example.com/my-dialect", "type": "object"}),
        ))
        .unwrap_err();
    assert!(
        matches!(&err, RegistryError::Schema { problem: SchemaProblem::UnsupportedDialect(_), pointer, .. } if pointer == "/inputSchema/$schema"),
        "{err}"
    );
}

#[test]
fn remote_references_are_an_error_never_a_fetch() {
    let err = Registry::new()
        .register(tool(
            "remote",
            json!({
                "type": "object",
                "properties": {"address": {"$ref": "https://example.com/address.json"}}
            }),
        ))
        .unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("/inputSchema/properties/address/$ref"),
        "{message}"
    );
    assert!(message.contains("never fetched"), "{message}");
}

#[test]
fn the_input_root_must_be_an_object() {
    let err = Registry::new()
        .register(tool("shout", json!({"type": "string"})))
        .unwrap_err();
    assert!(err.to_string().contains("`\"type\": \"object\"`"), "{err}");
    assert!(
        err.to_string().contains("found `\"type\": \"string\"`"),
        "{err}"
    );
}

#[test]
fn invalid_schemas_say_where() {
    let err = Registry::new()
        .register(tool(
            "broken",
            json!({
                "type": "object",
                "properties": {"n": {"type": "integer", "minimum": "one"}}
            }),
        ))
        .unwrap_err();
    let message = err.to_string();
    assert!(message.contains("broken"), "{message}");
    assert!(message.contains("minimum"), "{message}");
}

#[test]
fn output_schemas_compile_too() {
    let mut t = tool("with_output", json!({"type": "object"}));
    t.output_schema = Some(json!({"type": "object", "properties": {"x": {"type": "nonsense"}}}));
    let err = Registry::new().register(t).unwrap_err();
    assert!(err.to_string().contains("/outputSchema"), "{err}");
}

#[test]
fn every_fixture_with_an_object_root_registers() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut count = 0;
    for dir in ["seeds", "lowering", "formats"] {
        for file in std::fs::read_dir(base.join(dir)).unwrap() {
            let path = file.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let catalog = Catalog::from_slice(&bytes, &path.display().to_string(), None).unwrap();
            let mut registry = Registry::new();
            for entry in &catalog.entries {
                if entry.tool.input_schema.get("type") != Some(&json!("object"))
                    || registry.get(&entry.tool.name).is_some()
                {
                    continue;
                }
                registry
                    .register_from(entry.tool.clone(), entry.origin.to_string())
                    .unwrap_or_else(|e| panic!("{e}"));
                count += 1;
            }
        }
    }
    assert!(count > 80, "{count}");
}
