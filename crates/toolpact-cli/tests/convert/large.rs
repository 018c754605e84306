//! Large valid input: hundreds of realistic tools to every target, a catalog of more than
//! 50 MB, and a schema nested as deep as the reader allows.

use crate::common::catalogs::{realistic_catalog, tool_name, write, write_bulky_catalog};
use crate::common::convert::{TARGETS, exported_names};
use crate::common::toolpact;
use serde_json::{Value, json};
use std::time::Instant;

#[test]
fn two_hundred_fifty_realistic_tools_convert_to_every_target() {
    let dir = tempfile::tempdir().unwrap();
    let count = 250;
    // Minified, as a captured `tools/list` response usually is.
    let doc = serde_json::to_vec(&realistic_catalog(count)).unwrap();
    let path = write(dir.path(), "catalog.json", &doc);
    let expected: Vec<String> = (0..count).map(tool_name).collect();
    for target in TARGETS {
        let run = toolpact(["convert", path.to_str().unwrap(), "--to", target]);
        run.assert_code(0);
        assert_eq!(
            exported_names(target, &run.payload()),
            expected,
            "{target}: every tool, in order, under its own name"
        );
        assert!(
            run.stderr
                .contains(&format!("{target}: {count} of {count} tools converted")),
            "{target}:\n{}",
            run.stderr
        );
    }
}

// The catalog is pretty-printed. A minified one (one line of 50 MB) converts too, but takes
// about 40 s in a debug build: finding each tool's column counts characters from the start
// of the line, once per tool, so one-line documents cost time quadratic in their length.
#[test]
fn a_catalog_over_50_megabytes_converts_to_gemini() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.json");
    let started = Instant::now();
    let count = write_bulky_catalog(&path, 50 * 1024 * 1024);
    let generated = started.elapsed();
    let started = Instant::now();
    let run = toolpact(["convert", path.to_str().unwrap(), "--to", "gemini"]);
    let converted = started.elapsed();
    // Timing is printed, not asserted: `cargo test -- --nocapture` shows it.
    println!(
        "{count} tools, {} bytes: generated in {generated:?}, converted in {converted:?}",
        std::fs::metadata(&path).unwrap().len()
    );
    run.assert_code(0);
    let names = exported_names("gemini", &run.payload());
    assert_eq!(names.len(), count);
    assert_eq!(names.first().map(String::as_str), Some("get_stock_0"));
    assert_eq!(
        names.last().cloned(),
        Some(format!("get_stock_{}", count - 1))
    );
}

/// A schema nested `depth` objects deep under `inputSchema`.
fn nested_tool(depth: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..depth {
        schema = json!({"type": "object", "properties": {"inner": schema}});
    }
    json!({"tools": [{"name": "deep_tool", "description": "Deep.", "inputSchema": schema}]})
}

#[test]
fn a_schema_nested_to_the_reading_limit_converts_without_crashing() {
    // Each level is two JSON objects (the schema and its `properties`); the document itself
    // adds three. 60 levels stay under the 128 levels the reader accepts, and lowering walks
    // every one of them.
    let dir = tempfile::tempdir().unwrap();
    let doc = serde_json::to_vec(&nested_tool(60)).unwrap();
    let path = write(dir.path(), "nested.json", &doc);
    for target in TARGETS {
        let run = toolpact(["convert", path.to_str().unwrap(), "--to", target]);
        assert!(
            run.code == 0 || run.code == 1,
            "{target}: exit {} with:\n{}",
            run.code,
            run.stderr
        );
        assert!(
            !run.stderr.starts_with("error:"),
            "{target}:\n{}",
            run.stderr
        );
    }
}
